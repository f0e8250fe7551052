import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

describe("HANA test server with the raw hdb client: login, SQL, metadata", () => {
  let server: HanaTestServerHandle
  let client: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer({
      users: [
        { name: "SYSTEM", password: "Manager1" },
        { name: "ALICE", password: "pa:ss@word/ü", defaultSchema: "SALES" }
      ]
    })
    client = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1" })
  })
  afterAll(async () => {
    closeQuietly(client)
    await server.close()
  })

  it("logs in with SCRAMPBKDF2SHA256 and reports the connection id", async () => {
    expect(server.uri).toBe(`hdb://SYSTEM:Manager1@127.0.0.1:${server.port}`)
    expect(client.connectOptions.connectionId).toBeGreaterThan(0)
    const rows = await exec<Array<Record<string, unknown>>>(client, "SELECT CURRENT_USER, CURRENT_SCHEMA, CURRENT_CONNECTION FROM DUMMY")
    expect(rows).toEqual([{ CURRENT_USER: "SYSTEM", CURRENT_SCHEMA: "SYSTEM", CURRENT_CONNECTION: client.connectOptions.connectionId }])
  })

  it("answers CLIENT_PING (isValid) and DISCONNECT", async () => {
    const c = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1" })
    expect(await new Promise<boolean>((resolve) => c.isValid({}, resolve))).toBe(true)
    const before = server.sessionCount()
    await call((cb) => c.disconnect(cb))
    await new Promise((r) => setTimeout(r, 50))
    expect(server.sessionCount()).toBe(before - 1)
    closeQuietly(c)
    const victim = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1" })
    await exec(client, `ALTER SYSTEM DISCONNECT SESSION '${victim.connectOptions.connectionId}'`)
    await new Promise((r) => setTimeout(r, 50))
    expect(await new Promise<boolean>((resolve) => victim.isValid({}, resolve))).toBe(false)
    closeQuietly(victim)
  })

  it("rejects a wrong password with SQL error 10 / SQLSTATE 28000", async () => {
    const err = await failure(connect({ host: server.host, port: server.port, user: "SYSTEM", password: "wrong" }))
    expect(err.code).toBe(10)
    expect(err.sqlState).toBe("28000")
    const unknown = await failure(connect({ host: server.host, port: server.port, user: "NOBODY", password: "x" }))
    expect(unknown.code).toBe(10)
    const folded = await connect({ host: server.host, port: server.port, user: "system", password: "Manager1" })
    expect(await exec(folded, "SELECT CURRENT_USER FROM DUMMY")).toEqual([{ CURRENT_USER: "SYSTEM" }])
    closeQuietly(folded)
  })

  it("uses the user's default schema and SET SCHEMA", async () => {
    const alice = await connect({ host: server.host, port: server.port, user: "ALICE", password: "pa:ss@word/ü" })
    try {
      expect(await exec(alice, "SELECT CURRENT_SCHEMA FROM DUMMY")).toEqual([{ CURRENT_SCHEMA: "SALES" }])
      await exec(alice, "CREATE TABLE orders (id INT)")
      await exec(alice, "SET SCHEMA SYSTEM")
      expect(await exec(alice, "SELECT CURRENT_SCHEMA FROM DUMMY")).toEqual([{ CURRENT_SCHEMA: "SYSTEM" }])
      const err = await failure(exec(alice, "SELECT * FROM orders"))
      expect(err.code).toBe(259)
      expect(await exec(alice, "SELECT COUNT(*) AS N FROM SALES.ORDERS")).toEqual([{ N: 0 }])
      expect((await failure(exec(alice, "SET SCHEMA NOPE"))).code).toBe(362)
    } finally {
      closeQuietly(alice)
    }
  })

  it("folds unquoted identifiers to upper case and keeps quoted ones case-sensitive", async () => {
    await exec(client, 'CREATE TABLE "MyTable" ("id" INT, Name NVARCHAR(10))')
    await exec(client, "CREATE TABLE MYTABLE (ID INT)")
    await exec(client, `INSERT INTO "MyTable" VALUES (1, 'mixed')`)
    await exec(client, "INSERT INTO mytable VALUES (2)")
    expect(await exec(client, 'SELECT "id", name FROM "MyTable"')).toEqual([{ id: 1, NAME: "mixed" }])
    expect(await exec(client, "SELECT id FROM MyTable")).toEqual([{ ID: 2 }])
    expect((await failure(exec(client, 'SELECT ID FROM "MyTable"'))).code).toBe(260)
    const tables = await exec(client, "SELECT TABLE_NAME FROM SYS.TABLES WHERE SCHEMA_NAME = 'SYSTEM' AND TABLE_NAME LIKE 'M%' ORDER BY TABLE_NAME")
    expect(tables).toEqual([{ TABLE_NAME: "MYTABLE" }, { TABLE_NAME: "MyTable" }])
  })

  it("runs DDL, DML with rows affected, and queries with HANA type codes at data format version 1", async () => {
    await exec(client, `CREATE COLUMN TABLE types1 (
      ti TINYINT, si SMALLINT, i INTEGER, bi BIGINT, de DECIMAL(12,3), re REAL, do DOUBLE, bo BOOLEAN,
      vc VARCHAR(10), nv NVARCHAR(20), vb VARBINARY(8), da DATE, tm TIME, sd SECONDDATE, ts TIMESTAMP)`)
    const n = await exec(client, `INSERT INTO types1 VALUES (255, -2, 3, 9007199254740993, -12.5, 1.5, 2.25, TRUE, 'v', 'ñ€😀',
      X'0102', '2024-02-29', '13:14:15', '2024-02-29 13:14:15', '2024-02-29 13:14:15.1234567')`)
    expect(n).toBe(1)
    expect(await exec(client, "UPDATE types1 SET i = 4 WHERE i = 3")).toBe(1)
    const rs = await call<HdbResultSet>((cb) => client.execute("SELECT * FROM types1", cb))
    expect(rs.metadata.map((m) => [m.columnDisplayName, m.dataType, m.length, m.fraction])).toEqual([
      ["TI", 1, 3, 0],
      ["SI", 2, 5, 0],
      ["I", 3, 10, 0],
      ["BI", 4, 19, 0],
      ["DE", 5, 12, 3],
      ["RE", 6, 24, 0],
      ["DO", 7, 53, 0],
      ["BO", 1, 3, 0],
      ["VC", 9, 10, 0],
      ["NV", 11, 20, 0],
      ["VB", 13, 8, 0],
      ["DA", 14, 10, 0],
      ["TM", 15, 8, 0],
      ["SD", 16, 19, 0],
      ["TS", 16, 27, 7]
    ])
    expect(rs.metadata[0]?.tableName).toBe("TYPES1")
    expect(rs.metadata[0]?.schemaName).toBe("SYSTEM")
    const rows = await call<unknown[]>((cb) => rs.fetch(cb))
    expect(rows).toEqual([
      {
        TI: 255, SI: -2, I: 4, BI: "9007199254740993", DE: "-12.500", RE: 1.5, DO: 2.25, BO: 1, VC: "v", NV: "ñ€😀",
        VB: Buffer.from([1, 2]), DA: "2024-02-29", TM: "13:14:15", SD: "2024-02-29T13:14:15", TS: "2024-02-29T13:14:15.123"
      }
    ])
    expect(await exec(client, "DELETE FROM types1")).toBe(1)
  })

  it("encodes DAYDATE/SECONDTIME/SECONDDATE/LONGDATE, BOOLEAN and FIXED decimals at data format version 8", async () => {
    const c8 = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1", dataFormatSupport: 8 })
    try {
      expect(c8.connectOptions.dataFormatVersion2).toBe(8)
      await exec(c8, "CREATE TABLE small8 (a DECIMAL(4,1), b DECIMAL(9,3))")
      await exec(c8, "INSERT INTO small8 VALUES (-123.4, 123456.789)")
      await exec(c8, "INSERT INTO small8 VALUES (5.5, -0.001)")
      expect(await exec(c8, "SELECT a, b FROM small8")).toEqual([
        { A: "-123.4", B: "123456.789" },
        { A: "5.5", B: "-0.001" }
      ])
      await exec(c8, "CREATE TABLE types8 (da DATE, tm TIME, sd SECONDDATE, ts TIMESTAMP, bo BOOLEAN, d1 DECIMAL(18,2), d2 DECIMAL(28,4), d3 DECIMAL(38,0), sm SMALLDECIMAL)")
      await exec(c8, "INSERT INTO types8 VALUES ('1970-01-01', '23:59:58', '2000-01-02 03:04:05', '2024-02-29 13:14:15.1234567', FALSE, -123.45, 1234567890123456789012.3456, 12345678901234567890123456789012345678, 1.25)")
      await exec(c8, "INSERT INTO types8 VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
      const rs = await call<HdbResultSet>((cb) => c8.execute("SELECT * FROM types8", cb))
      expect(rs.metadata.map((m) => [m.dataType, m.fraction])).toEqual([
        [63, 0], [64, 0], [62, 0], [61, 7], [28, 0], [81, 2], [82, 4], [76, 0], [5, 32767]
      ])
      const rows = await call<Array<Record<string, unknown>>>((cb) => rs.fetch(cb))
      expect(rows[0]).toEqual({
        DA: "1970-01-01", TM: "23:59:58", SD: "2000-01-02 03:04:05", TS: "2024-02-29 13:14:15.123456700", BO: false,
        D1: "-123.45", D2: "1234567890123456789012.3456", D3: "12345678901234567890123456789012345678", SM: "1.25e+0"
      })
      expect(Object.values(rows[1]!)).toEqual([null, null, null, null, null, null, null, null, null])
      const st = await call<HdbStatement>((cb) => c8.prepare("INSERT INTO types8 (da, ts, bo, d1) VALUES (?, ?, ?, ?)", cb))
      expect(st.parameterMetadata.map((p) => p.dataType)).toEqual([63, 61, 28, 81])
      expect(await call((cb) => st.exec(["2001-02-03", "2001-02-03 04:05:06.789", true, "-1.5"], cb))).toBe(1)
      expect(await exec(c8, "SELECT da, ts, bo, d1 FROM types8 WHERE bo = TRUE")).toEqual([
        { DA: "2001-02-03", TS: "2001-02-03 04:05:06.789000000", BO: true, D1: "-1.50" }
      ])
    } finally {
      closeQuietly(c8)
    }
  })

  it("prepares statements with parameter metadata and runs batches with rows affected per row", async () => {
    await exec(client, "CREATE TABLE batch (id INTEGER PRIMARY KEY, label NVARCHAR(30), amount DECIMAL(10,2))")
    const st = await call<HdbStatement>((cb) => client.prepare("INSERT INTO batch VALUES (?, ?, ?)", cb))
    expect(st.parameterMetadata.map((p) => [p.dataType, p.length, p.fraction])).toEqual([
      [3, 10, 0],
      [11, 30, 0],
      [5, 10, 2]
    ])
    const rows = Array.from({ length: 2500 }, (_, i) => [i, `label ${i}`, `${i}.25`])
    const affected = await call<number[]>((cb) => st.exec(rows, cb))
    expect(affected).toHaveLength(2500)
    expect(affected.every((n) => n === 1)).toBe(true)
    expect(await exec(client, "SELECT COUNT(*) AS N, SUM(amount) AS S FROM batch")).toEqual([{ N: 2500, S: "3124375.00" }])
    const upd = await call<HdbStatement>((cb) => client.prepare("UPDATE batch SET label = ? WHERE id < ?", cb))
    expect(await call((cb) => upd.exec(["small", 10], cb))).toBe(10)
    const named = await call<HdbStatement>((cb) => client.prepare("SELECT label FROM batch WHERE id = :id AND label <> :skip", cb))
    expect(await call((cb) => named.exec({ ID: 4, SKIP: "x" }, cb))).toEqual([{ LABEL: "small" }])
    const sel = await call<HdbStatement>((cb) => client.prepare("SELECT id, label FROM batch WHERE id = ?", cb))
    expect(sel.resultSetMetadata?.map((m) => m.columnDisplayName)).toEqual(["ID", "LABEL"])
    expect(await call((cb) => sel.exec([3], cb))).toEqual([{ ID: 3, LABEL: "small" }])
    await call((cb) => sel.drop(cb))
    await call((cb) => st.drop(cb))
  })

  it("pages with FETCH_NEXT honouring the fetch size and closes result sets", async () => {
    await exec(client, "CREATE TABLE paging AS (SELECT * FROM SERIES_GENERATE_INTEGER(1, 0, 1000))")
    const rs = await call<HdbResultSet>((cb) => client.execute("SELECT * FROM paging ORDER BY 1", cb))
    rs.setFetchSize(100)
    const rows = await call<unknown[]>((cb) => rs.fetch(cb))
    expect(rows).toHaveLength(1000)
    // Raw RESULT_SET bytes per reply: one INTEGER cell is 5 bytes, so each chunk's length / 5 is its row count.
    const sized = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1", fetchSize: 300 })
    try {
      const raw = await call<HdbResultSet>((cb) => sized.execute("SELECT CAST(GENERATED_PERIOD_START AS INTEGER) AS X FROM paging ORDER BY 1", cb))
      const chunkRows: number[] = []
      await new Promise<void>((resolve, reject) => {
        const stream = raw.createBinaryStream()
        stream.on("data", (b: Buffer) => chunkRows.push(b.length / 5))
        stream.on("end", () => resolve())
        stream.on("error", reject)
      })
      expect(chunkRows).toEqual([32, 300, 300, 300, 68])
      expect(await exec(sized, "SELECT 1 AS ONE FROM DUMMY")).toEqual([{ ONE: 1 }])
    } finally {
      closeQuietly(sized)
    }
    const partial = await call<HdbResultSet>((cb) => client.execute("SELECT * FROM paging", cb))
    await call((cb) => partial.close(cb))
    expect(await exec(client, "SELECT COUNT(*) AS N FROM paging")).toEqual([{ N: 1000 }])
  })
})
