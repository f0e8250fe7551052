import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Parameters of standalone stored procedures take their declared types, through raw node-oracledb. PL/SQL Language
 * Reference (23ai), "Subprogram Parameters" (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-subprograms.html):
 * an actual parameter is converted to its formal parameter's type (a PLS_INTEGER rounds, "PL/SQL Data Types"), and
 * node-oracledb's index-by array binds ("PL/SQL Collection Associative Array (Index-by) Bind Parameters") arrive as a
 * collection of the parameter's type, each element converted to the element type.
 */
describe("Oracle test server: typed parameters of stored procedures", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE OR REPLACE PACKAGE tp_pkg IS TYPE int_t IS TABLE OF PLS_INTEGER INDEX BY PLS_INTEGER; END tp_pkg;")
    await conn.execute(
      `CREATE OR REPLACE PROCEDURE tp_sum (xs IN tp_pkg.int_t, one IN PLS_INTEGER, total OUT NUMBER, copy OUT tp_pkg.int_t) IS
      BEGIN
        total := one;
        FOR i IN 1 .. xs.COUNT LOOP
          total := total + xs(i);
          copy(i) := xs(i);
        END LOOP;
      END;`
    )
  })
  afterAll(() => closeConnection({ server, conn }))

  it("converts an index-by array bind and a scalar to the parameters' declared types", async () => {
    const r = await conn.execute("BEGIN tp_sum(:xs, :one, :total, :copy); END;", {
      xs: { type: oracledb.NUMBER, dir: oracledb.BIND_IN, val: [2.6, 1.6] },
      one: 0.6,
      total: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT },
      copy: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT, maxArraySize: 10 }
    })
    // PLS_INTEGER elements and parameter: 2.6 -> 3, 1.6 -> 2, 0.6 -> 1
    expect(r.outBinds).toEqual({ total: 6, copy: [3, 2] })
  })
})
