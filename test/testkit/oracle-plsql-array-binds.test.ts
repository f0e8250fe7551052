import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

// node-oracledb documentation, "Using DBMS_OUTPUT": GET_LINES read into an array OUT bind of maxArraySize elements
// (https://node-oracledb.readthedocs.io/en/latest/user_guide/plsql_execution.html#dbmsoutput)
describe("Oracle test server: PL/SQL index-by table binds (raw oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const getLines = (maxArraySize: number, numLines: number) =>
    conn.execute("BEGIN DBMS_OUTPUT.GET_LINES(:lines, :numLines); END;", {
      lines: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 32767, maxArraySize },
      numLines: { dir: oracledb.BIND_INOUT, val: numLines }
    })

  it("DBMS_OUTPUT.GET_LINES fills an array OUT bind with up to numLines lines and sets numLines", async () => {
    await conn.execute("BEGIN DBMS_OUTPUT.ENABLE(NULL); DBMS_OUTPUT.PUT_LINE('one'); DBMS_OUTPUT.PUT_LINE('two'); DBMS_OUTPUT.PUT_LINE(''); DBMS_OUTPUT.PUT_LINE('four'); END;")
    expect((await getLines(2, 2)).outBinds).toEqual({ lines: ["one", "two"], numLines: 2 })
    expect((await getLines(10, 10)).outBinds).toEqual({ lines: [null, "four"], numLines: 2 })
    expect((await getLines(10, 10)).outBinds).toEqual({ lines: [], numLines: 0 })
    // the connection reads the next reply in step
    expect((await conn.execute("SELECT 1 FROM dual")).rows).toEqual([[1]])
  })

  it("more lines than the array's maxArraySize is ORA-06513", async () => {
    await conn.execute("BEGIN DBMS_OUTPUT.PUT_LINE('a'); DBMS_OUTPUT.PUT_LINE('b'); DBMS_OUTPUT.PUT_LINE('c'); END;")
    expect(oraCode(await failure(() => getLines(2, 3)))).toBe("ORA-06513")
  })
})
