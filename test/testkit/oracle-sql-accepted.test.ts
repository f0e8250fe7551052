import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

/** The error a statement fails with, with oracledb's `offset` (the byte position Oracle reports). */
const failing = async (conn: Conn, sql: string) => {
  const e = (await failure(() => conn.execute(sql))) as Error & { offset?: number }
  return { code: oraCode(e), offset: e.offset }
}

describe("Oracle test server: SQL it used to refuse or answer wrongly (raw oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a select list may start with a parenthesis", async () => {
    expect((await conn.execute("SELECT (3+5) FROM DUAL")).rows).toEqual([[8]])
    expect((await conn.execute("SELECT (3+5)*2 x, (1) FROM DUAL")).rows).toEqual([[16, 1]])
    expect((await conn.execute("SELECT DISTINCT (1) FROM DUAL")).rows).toEqual([[1]])
  })

  it("a string literal item is described as CHAR of its length, as Oracle types text literals", async () => {
    // SQL Language Reference, "Text Literals"; DUMP('abc') is Typ=96 (CHAR) Len=3; "Concatenation Operator": two CHARs give a CHAR
    const r = await conn.execute("SELECT 'abc', 'xy' AS alias, N'ab', 'a' || 'b' FROM dual")
    expect(r.metaData.map((m: { dbTypeName: string; byteSize: number }) => [m.dbTypeName, m.byteSize])).toEqual([["CHAR", 3], ["CHAR", 2], ["NCHAR", 2], ["CHAR", 2]])
    expect(r.rows).toEqual([["abc", "xy", "ab", "ab"]])
  })

  it("ALTER SESSION ENABLE / DISABLE / FORCE PARALLEL and SET EVENTS are accepted; a malformed PARALLEL clause is ORA-00922", async () => {
    // Oracle Database SQL Language Reference, ALTER SESSION: { ENABLE | DISABLE | FORCE } PARALLEL { DML | DDL | QUERY } [ PARALLEL integer ]
    for (const sql of [
      "ALTER SESSION ENABLE PARALLEL DML",
      "ALTER SESSION DISABLE PARALLEL QUERY",
      "ALTER SESSION FORCE PARALLEL DDL PARALLEL 4",
      "ALTER SESSION SET EVENTS '10046 trace name context forever, level 12'",
      "ALTER SESSION SET OPTIMIZER_MODE = ALL_ROWS",
      "ALTER SESSION SET STATISTICS_LEVEL = ALL"
    ]) await conn.execute(sql)
    expect((await failing(conn, "ALTER SESSION ENABLE PARALLEL EVERYTHING")).code).toBe("ORA-00922")
  })

  it("an incomplete expression is ORA-00936 and errors point at the failing token", async () => {
    // oracledb's error.offset is the parse error position Oracle returns (node-oracledb docs, "error.offset")
    expect(await failing(conn, "SELECT 1 + FROM dual")).toEqual({ code: "ORA-00936", offset: 11 })
    expect(await failing(conn, "SELECT 1 +")).toEqual({ code: "ORA-00936", offset: 10 })
    expect(await failing(conn, "SELECT FROM dual")).toEqual({ code: "ORA-00936", offset: 7 })
    expect(await failing(conn, "SELECT dummy, nosuch FROM dual")).toEqual({ code: "ORA-00904", offset: 14 })
    expect(await failing(conn, "SELECT 1 FROM no_such_table")).toEqual({ code: "ORA-00942", offset: 14 })
  })

  it("DATE and TIMESTAMP literals out of range fail as Oracle's (ORA-01841 for year 0)", async () => {
    expect((await failing(conn, "SELECT DATE '0000-01-01' FROM dual")).code).toBe("ORA-01841")
    expect((await failing(conn, "SELECT DATE '2023-02-29' FROM dual")).code).toBe("ORA-01847")
    expect((await failing(conn, "SELECT TIMESTAMP '2024-13-01 00:00:00' FROM dual")).code).toBe("ORA-01843")
    expect((await failing(conn, "SELECT TIMESTAMP '2024-01-01 24:00:00' FROM dual")).code).toBe("ORA-01850")
    expect((await conn.execute("SELECT DATE '2024-02-29' FROM dual")).rows).toEqual([[new Date(2024, 1, 29)]])
  })

  it("VECTOR parameters of a procedure call: IN from a typed array, OUT back as one", async () => {
    await conn.execute("CREATE TABLE vec_params (id NUMBER, v VECTOR(3, FLOAT64))")
    await conn.execute("CREATE PROCEDURE vec_put (p_id NUMBER, p_v VECTOR) IS BEGIN INSERT INTO vec_params VALUES (p_id, p_v); END;")
    await conn.execute("CREATE PROCEDURE vec_get (p_id NUMBER, p_v OUT VECTOR) IS BEGIN SELECT v INTO p_v FROM vec_params WHERE id = p_id; END;")
    await conn.execute("BEGIN vec_put(:1, :2); END;", [1, new Float64Array([1, 2, 3])])
    const r = await conn.execute("BEGIN vec_get(1, :o); :echo := :i; END;", {
      o: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_VECTOR },
      i: { val: new Float64Array([4, 5, 6]), type: oracledb.DB_TYPE_VECTOR },
      echo: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_VECTOR }
    })
    expect([...r.outBinds.o]).toEqual([1, 2, 3])
    expect([...r.outBinds.echo]).toEqual([4, 5, 6])
  })

  it("RAW / Buffer IN OUT binds in PL/SQL keep their bytes; a RAW OUT longer than maxSize is ORA-06502", async () => {
    const r = await conn.execute("BEGIN :same := :same; :b := UTL_RAW.CONCAT(:b, HEXTORAW('FF')); :n := LENGTH(RAWTOHEX(:b)); END;", {
      same: { dir: oracledb.BIND_INOUT, val: Buffer.from([1, 2]), maxSize: 10 },
      b: { dir: oracledb.BIND_INOUT, val: Buffer.from([1, 2]), maxSize: 10 },
      n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    })
    expect(r.outBinds).toEqual({ same: Buffer.from([1, 2]), b: Buffer.from([1, 2, 0xff]), n: 6 })
    const e = await failure(() => conn.execute("BEGIN :b := HEXTORAW('01020304'); END;", { b: { dir: oracledb.BIND_OUT, type: oracledb.BUFFER, maxSize: 3 } }))
    expect(oraCode(e)).toBe("ORA-06502")
  })
})
