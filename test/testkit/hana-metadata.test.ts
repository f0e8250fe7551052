import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { asRealVector, call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

// Every declared type of the issue, one column each.
const COLUMNS =
  "ti TINYINT, si SMALLINT, i INTEGER, bi BIGINT, de DECIMAL(12,3), sd SMALLDECIMAL, re REAL, do DOUBLE, bo BOOLEAN, " +
  "vc VARCHAR(10), nv NVARCHAR(20), an ALPHANUM(8), vb VARBINARY(6), da DATE, tm TIME, sc SECONDDATE, ts TIMESTAMP, " +
  "cl CLOB, nc NCLOB, bl BLOB, tx TEXT, bt BIT, js JSON"
const NAMES = ["TI", "SI", "I", "BI", "DE", "SD", "RE", "DO", "BO", "VC", "NV", "AN", "VB", "DA", "TM", "SC", "TS", "CL", "NC", "BL", "TX", "BT", "JS"]

// [type code, length, fraction] per column (hdb lib/protocol/common/TypeCode.js; the data format version decides the switches).
const SHARED: Record<string, readonly [number, number, number]> = {
  TI: [1, 3, 0], SI: [2, 5, 0], I: [3, 10, 0], BI: [4, 19, 0], SD: [5, 16, 32767], RE: [6, 24, 0], DO: [7, 53, 0],
  VC: [9, 10, 0], NV: [11, 20, 0], AN: [55, 8, 0], VB: [13, 6, 0], CL: [25, 0, 0], NC: [26, 0, 0], BL: [27, 0, 0],
  BT: [96, 0, 0], JS: [96, 0, 0]
}
const BY_DFV: Record<1 | 8, Record<string, readonly [number, number, number]>> = {
  // TEXT is NCLOB below DFV 4 and TEXT 51 from it (testkit/hana/types.ts wireType)
  1: { DE: [5, 12, 3], BO: [1, 3, 0], DA: [14, 10, 0], TM: [15, 8, 0], SC: [16, 19, 0], TS: [16, 27, 7], TX: [26, 0, 0] },
  8: { DE: [81, 12, 3], BO: [28, 1, 0], DA: [63, 10, 0], TM: [64, 8, 0], SC: [62, 19, 0], TS: [61, 27, 7], TX: [51, 0, 0] }
}
const expected = (dfv: 1 | 8) => NAMES.map((n) => [n, ...(SHARED[n] ?? BY_DFV[dfv][n]!)])
// The test-only BIT and JSON: results travel as REAL_VECTOR 96, parameters are described as VARBINARY.
const expectedParameters = (dfv: 1 | 8) => expected(dfv).map((e) => (e[0] === "BT" || e[0] === "JS" ? [e[0], 13, 0, 0] : e))


describe("HANA test server: declared types in result and parameter metadata at data format versions 1 and 8", () => {
  let server: HanaTestServerHandle
  const clients: HdbClient[] = []
  const login = async (dfv: number) => {
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: dfv })
    clients.push(c)
    return c
  }
  beforeAll(async () => {
    server = await startHanaTestServer()
    const c = await login(1)
    await exec(c, `CREATE TABLE alltypes (${COLUMNS})`)
  })
  afterAll(async () => {
    clients.forEach(closeQuietly)
    await server.close()
  })

  it.each([1, 8] as const)("describes every declared type at DFV %i: INSERT parameters, prepared and executed queries", async (dfv) => {
    const c = await login(dfv)
    expect(c.connectOptions.dataFormatVersion2).toBe(dfv)
    const insert = await call<HdbStatement>((cb) => c.prepare(`INSERT INTO alltypes VALUES (${NAMES.map(() => "?").join(", ")})`, cb))
    expect(insert.parameterMetadata.map((p, i) => [NAMES[i], p.dataType, p.length, p.fraction])).toEqual(expectedParameters(dfv))
    const update = await call<HdbStatement>((cb) => c.prepare("UPDATE alltypes SET vc = ?, de = ? WHERE ts = ?", cb))
    expect(update.parameterMetadata.map((p) => [p.dataType, p.length, p.fraction])).toEqual(
      [expected(dfv)[9]!, expected(dfv)[4]!, expected(dfv)[16]!].map((e) => e.slice(1))
    )
    const query = await call<HdbStatement>((cb) => c.prepare("SELECT * FROM alltypes WHERE i = ?", cb))
    expect(query.parameterMetadata.map((p) => [p.dataType, p.length, p.fraction])).toEqual([[3, 10, 0]])
    expect(query.resultSetMetadata?.map((m) => [m.columnDisplayName, m.dataType, m.length, m.fraction])).toEqual(expected(dfv))
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT * FROM alltypes", cb))
    expect(rs.metadata.map((m) => [m.columnDisplayName, m.dataType, m.length, m.fraction])).toEqual(expected(dfv))
    await call((cb) => rs.close(cb))
  })

  it.each([1, 8] as const)("binds every declared type as a parameter and reads it back at DFV %i", async (dfv) => {
    const c = await login(dfv)
    const insert = await call<HdbStatement>((cb) => c.prepare(`INSERT INTO alltypes VALUES (${NAMES.map(() => "?").join(", ")})`, cb))
    const row = [
      200 + dfv, -2, dfv, "9007199254740993", "-12.5", "1.25", 0.5, -2.25, true, "ascii", "ñ😀", "A1", Buffer.from([0, 255]), "2024-02-29",
      "13:14:15", "2000-01-02 03:04:05", "2024-02-29 13:14:15.125", "clob", "nclob 😀", Buffer.from([1, 2, 3]), "text", Buffer.from("1011"), Buffer.from('{"k":1}')
    ]
    expect(await call((cb) => insert.exec(row, cb))).toBe(1)
    const sel = await call<HdbStatement>((cb) => c.prepare("SELECT * FROM alltypes WHERE i = ?", cb))
    const [got] = await call<Array<Record<string, unknown>>>((cb) => sel.exec([dfv], cb))
    const common = {
      TI: 200 + dfv, SI: -2, I: dfv, BI: "9007199254740993", SD: "1.25e+0", RE: 0.5, DO: -2.25, VC: "ascii", NV: "ñ😀", AN: "A1",
      VB: Buffer.from([0, 255]), CL: Buffer.from("clob"), BL: Buffer.from([1, 2, 3]),
      TX: Buffer.from("text"), BT: asRealVector(Buffer.from("1011")), JS: asRealVector(Buffer.from('{"k":1}'))
    }
    const { NC, ...rest } = got!
    expect(rest).toEqual(
      dfv === 1
        ? { ...common, DE: "-12.500", BO: 1, DA: "2024-02-29", TM: "13:14:15", SC: "2000-01-02T03:04:05", TS: "2024-02-29T13:14:15.125" }
        : { ...common, DE: "-12.500", BO: true, DA: "2024-02-29", TM: "13:14:15", SC: "2000-01-02 03:04:05", TS: "2024-02-29 13:14:15.125000000" }
    )
    // NCLOB arrives as CESU-8: the emoji is two 3-byte surrogate sequences.
    expect((NC as Buffer).toString("hex")).toBe(Buffer.concat([Buffer.from("nclob "), Buffer.from("eda0bdedb880", "hex")]).toString("hex"))
  })

  it("reports NOT NULL columns as mandatory (mode 1) and others and computed columns as nullable (mode 2)", async () => {
    const c = await login(8)
    await exec(c, "CREATE TABLE modes (id INTEGER NOT NULL PRIMARY KEY, name NVARCHAR(10) NOT NULL, note NVARCHAR(10))")
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT id, name, note, id + 1 AS next FROM modes", cb))
    expect(rs.metadata.map((m) => [m.columnDisplayName, (m as unknown as { mode: number }).mode])).toEqual([
      ["ID", 1], ["NAME", 1], ["NOTE", 2], ["NEXT", 2]
    ])
    await call((cb) => rs.close(cb))
  })

  // HANA resolves a result column through its alias and table qualifier to the table column (the metadata names the
  // source table and column beside the display name), so the column's NOT NULL stays; an outer join's optional side
  // can be NULL.
  it("keeps NOT NULL (mode 1) through an alias, a table qualifier and an inner join; an outer join's optional side is nullable", async () => {
    const c = await login(8)
    await exec(c, "CREATE TABLE modes2 (id INTEGER NOT NULL PRIMARY KEY, name NVARCHAR(10) NOT NULL, note NVARCHAR(10))")
    const modes = async (sql: string) => {
      const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
      await call((cb) => rs.close(cb))
      return rs.metadata.map((m) => [m.columnDisplayName, (m as unknown as { mode: number }).mode])
    }
    expect(await modes("SELECT name AS n, modes2.name, note AS x, note AS id FROM modes2")).toEqual([["N", 1], ["NAME", 1], ["X", 2], ["ID", 2]])
    expect(await modes("SELECT m.name m2, m.id FROM modes2 m")).toEqual([["M2", 1], ["ID", 1]])
    expect(await modes("SELECT a.name, b.id AS bid, a.note FROM modes2 a JOIN modes2 b ON a.id = b.id")).toEqual([["NAME", 1], ["BID", 1], ["NOTE", 2]])
    expect(await modes("SELECT a.name, b.name AS bname FROM modes2 a LEFT JOIN modes2 b ON a.id = b.id")).toEqual([["NAME", 1], ["BNAME", 2]])
    // RIGHT JOIN: the tables before it are the optional side; FULL: both; unqualified columns of an outer join may be NULL
    expect(await modes("SELECT a.name, b.name AS bname FROM modes2 a RIGHT OUTER JOIN modes2 AS b ON a.id = b.id")).toEqual([["NAME", 2], ["BNAME", 1]])
    expect(await modes("SELECT a.name, b.name AS bname FROM modes2 a FULL JOIN modes2 b ON a.id = b.id")).toEqual([["NAME", 2], ["BNAME", 2]])
    expect(await modes("SELECT a.name, b.id, c.name AS cn FROM modes2 a RIGHT JOIN modes2 b ON a.id = b.id LEFT JOIN modes2 c ON c.id = b.id")).toEqual([["NAME", 2], ["ID", 1], ["CN", 2]])
    await exec(c, "CREATE TABLE modes3 (ref INTEGER NOT NULL)")
    expect((await modes("SELECT name, ref FROM modes2 LEFT JOIN modes3 ON modes2.id = modes3.ref"))[1]).toEqual(["REF", 2])
    // the same through PREPARE (the result metadata of a prepared statement)
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT m.name AS n, m.id FROM modes2 m INNER JOIN modes2 o ON m.id = o.id WHERE m.id = ?", cb))
    expect(st.resultSetMetadata?.map((m) => [m.columnDisplayName, (m as unknown as { mode: number }).mode])).toEqual([["N", 1], ["ID", 1]])
  })

  it("describes an untyped parameter as NVARCHAR (as HANA does) and fails cleanly where no type fits", async () => {
    const c = await login(8)
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT ? AS A FROM DUMMY", cb))
    expect(st.parameterMetadata.map((p) => [p.dataType, p.length])).toEqual([[11, 5000]])
    expect(st.resultSetMetadata?.map((m) => [m.columnDisplayName, m.dataType])).toEqual([["A", 11]])
    expect(await call((cb) => st.exec(["hello"], cb))).toEqual([{ A: "hello" }])
    // A typed parameter next to an untyped one keeps its type.
    const mixed = await call<HdbStatement>((cb) => c.prepare("SELECT DUMMY, ? AS B FROM DUMMY WHERE DUMMY = ? AND ? IS NOT NULL", cb))
    expect(mixed.parameterMetadata.map((p) => [p.dataType, p.length])).toEqual([[11, 5000], [9, 1], [11, 5000]])
    expect(mixed.resultSetMetadata?.map((m) => [m.columnDisplayName, m.dataType, m.length])).toEqual([["DUMMY", 9, 1], ["B", 11, 5000]])
    expect(await call((cb) => mixed.exec(["b", "X", "z"], cb))).toEqual([{ DUMMY: "X", B: "b" }])
    // Neither operand gives the other a type (`? + 1` takes INTEGER from the 1: hana-parameters.test.ts).
    const err = await failure(call((cb) => c.prepare("SELECT ? + ? AS A FROM DUMMY", cb)))
    expect(err.code).toBe(266)
    expect(err.sqlState).toBe("HY000")
    expect(err.message).not.toMatch(/type id/i)
    expect(await exec(c, "SELECT 'ok' AS S FROM DUMMY")).toEqual([{ S: "ok" }])
  })

  it("keeps declared column types in prepared queries with parameters", async () => {
    const c = await login(1)
    await exec(c, "CREATE TABLE narrow (id INT, label VARCHAR(7), code NVARCHAR(3))")
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT label, code FROM narrow WHERE id = ? AND label <> ?", cb))
    expect(st.parameterMetadata.map((p) => [p.dataType, p.length])).toEqual([[3, 10], [9, 7]])
    expect(st.resultSetMetadata?.map((m) => [m.columnDisplayName, m.dataType, m.length])).toEqual([["LABEL", 9, 7], ["CODE", 11, 3]])
    const lists = await call<HdbStatement>((cb) => c.prepare("SELECT id FROM narrow WHERE code IN (?, ?) OR label BETWEEN ? AND ? OR ? = narrow.code", cb))
    expect(lists.parameterMetadata.map((p) => [p.dataType, p.length])).toEqual([[11, 3], [11, 3], [9, 7], [9, 7], [11, 3]])
    const expr = await call<HdbStatement>((cb) => c.prepare("SELECT id FROM narrow WHERE label LIKE ? || '%'", cb))
    expect(expr.parameterMetadata.map((p) => [p.dataType, p.length])).toEqual([[11, 5000]])
    await exec(c, "INSERT INTO narrow VALUES (1, 'b', 'x')")
    expect(await call((cb) => lists.exec(["x", "y", "a", "c", "z"], cb))).toEqual([{ ID: 1 }])
  })
})
