import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: syntax forms Oracle accepts", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  // A CASE expression is a simple operand of || (SQL Language Reference, "Concatenation Operator" and "CASE
  // Expressions"): https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Concatenation-Operator.html
  it("concatenates an unparenthesised CASE expression in SQL and PL/SQL", async () => {
    const r = await conn.execute("SELECT 'a' || CASE WHEN 1 = 1 THEN 'b' ELSE 'c' END || 'd' AS s FROM dual")
    expect(r.rows).toEqual([["abd"]])
    const r2 = await conn.execute("SELECT CASE WHEN 1 = 0 THEN 'x' END || 'y' || CASE 2 WHEN 2 THEN 'z' END FROM dual")
    expect(r2.rows).toEqual([["yz"]])
    // and of arithmetic operators
    const r3 = await conn.execute("SELECT 10 + CASE WHEN 1 = 1 THEN 5 END * 2, CASE WHEN 1 = 1 THEN 3 END - 1 FROM dual")
    expect(r3.rows).toEqual([[20, 2]])
    const out = await conn.execute(
      "BEGIN :o := 'a' || CASE WHEN :n > 1 THEN 'big' ELSE 'small' END; END;",
      { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING }, n: 5 }
    )
    expect(out.outBinds.o).toBe("abig")
  })

  // A label may precede an anonymous block (PL/SQL Language Reference, "Block": label ::= << label >> before
  // DECLARE/BEGIN): https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/block.html
  // node-oracledb thin classifies a statement by its first word (lib/thin/statement.js), so `<<l>> BEGIN` reaches the
  // server as an unclassified statement; Oracle parses the text itself and runs it as PL/SQL.
  it("runs a labelled top-level anonymous block", async () => {
    await conn.execute("CREATE TABLE labelled_t (v NUMBER)")
    await conn.execute("<<outer_block>> BEGIN INSERT INTO labelled_t VALUES (7); END;")
    await conn.execute("<<l>>\nDECLARE x NUMBER := 3; BEGIN INSERT INTO labelled_t VALUES (x); END;")
    expect((await conn.execute("SELECT v FROM labelled_t ORDER BY v")).rows).toEqual([[3], [7]])
    await conn.rollback()
  })
})
