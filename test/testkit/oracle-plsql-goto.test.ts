import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * GOTO and statement labels on the Oracle test server, through raw node-oracledb. PL/SQL Language Reference (23ai),
 * "GOTO Statement" (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/GOTO-statement.html): control
 * goes on at the statement after `<<label>>`, which may be in the GOTO's own statement list or an enclosing one (out of
 * a loop, an IF, a sub-block; from a handler into an enclosing block); a GOTO into an IF, a loop or a sub-block, or
 * from a handler into its own block, does not compile: PLS-00375 "illegal GOTO statement; this GOTO cannot branch to
 * label", inside ORA-06550.
 */
describe("Oracle test server: PL/SQL GOTO", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }

  it("jumps forward, backward, out of a loop, out of a sub-block and from a handler to an enclosing block", async () => {
    const r = await conn.execute(
      `DECLARE
        s VARCHAR2(200) := '';
        n NUMBER := 0;
      BEGIN
        GOTO second;
        s := s || 'skipped';
        <<second>>
        s := s || 'a';
        <<again>>
        n := n + 1;
        IF n < 3 THEN
          GOTO again;
        END IF;
        s := s || n;
        FOR i IN 1..10 LOOP
          IF i = 2 THEN
            GOTO after_loop;
          END IF;
          s := s || 'i' || i;
        END LOOP;
        <<after_loop>>
        BEGIN
          BEGIN
            RAISE NO_DATA_FOUND;
          EXCEPTION
            WHEN NO_DATA_FOUND THEN
              GOTO outer_label;
          END;
          s := s || 'not here';
          <<outer_label>>
          s := s || '/h';
        END;
        :s := s;
      END;`,
      out
    )
    expect(r.outBinds.s).toBe("a3i1/h")
  })

  it("refuses a GOTO into an IF, a loop, a sub-block or from a handler into its own block (PLS-00375)", async () => {
    const illegal = [
      "BEGIN GOTO inside; IF 1 = 1 THEN <<inside>> NULL; END IF; END;",
      "BEGIN GOTO inside; LOOP <<inside>> NULL; EXIT; END LOOP; END;",
      "BEGIN GOTO inside; BEGIN <<inside>> NULL; END; END;",
      "BEGIN IF 1 = 1 THEN GOTO other; ELSE <<other>> NULL; END IF; END;",
      "BEGIN <<body>> NULL; RAISE NO_DATA_FOUND; EXCEPTION WHEN OTHERS THEN GOTO body; END;"
    ]
    for (const sql of illegal) {
      const e = await failure(() => conn.execute(sql))
      expect(e.message, sql).toMatch(/^ORA-06550: line 1, column \d+:\nPLS-00375: illegal GOTO statement; this GOTO cannot branch to label '(INSIDE|OTHER|BODY)'/)
    }
  })
})
