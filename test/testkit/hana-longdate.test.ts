import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

type Row = Record<string, unknown>

/**
 * TIMESTAMP (LONGDATE) keeps seven fraction digits, 100 ns (SAP HANA SQL Reference, "Datetime Data Types": default
 * format `YYYY-MM-DD HH24:MI:SS.FF7`, range 0001-01-01 .. 9999-12-31; "ADD_NANO100" / "NANO100_BETWEEN" count
 * 10^-7 s). At data format version 4 and later hdb sends and reads LONGDATE as 100 ns ticks (lib/protocol/Writer.js
 * writeLongDate, Reader.js readLongDate), and prints them with nine digits (`…05.123456700`).
 */
describe("HANA test server: TIMESTAMP keeps its seventh fraction digit (raw hdb client, data format version 8)", () => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: 8 } }, (opened) => (c = opened.client))

  it("every write path stores the digit and hdb reads it back: literals, parameters single and batched, UPDATE, INSERT … SELECT, UPSERT", async () => {
    await exec(c, "CREATE TABLE w (id INTEGER PRIMARY KEY, ts TIMESTAMP)")
    await exec(c, "INSERT INTO w VALUES (1, '2024-01-02 03:04:05.1234567')")
    await exec(c, "INSERT INTO w VALUES (2, TIMESTAMP '2024-01-02 03:04:05.1234568')")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO w VALUES (?, ?)", cb))
    await call((cb) => st.exec([3, "2024-01-02 03:04:05.1234569"], cb))
    // a batch: the bulk path of the server (rows appended straight into the table's storage)
    await call((cb) => st.exec([[4, "0001-01-01 00:00:00.0000001"], [5, "9999-12-31 23:59:59.9999999"], [6, "1582-10-04 23:59:59.9999999"]], cb))
    await exec(c, "INSERT INTO w VALUES (7, NULL)")
    await exec(c, "UPDATE w SET ts = '1999-12-31 23:59:59.9999999' WHERE id = 7")
    await exec(c, "INSERT INTO w SELECT id + 10, ts FROM w WHERE id IN (1, 5)")
    await exec(c, "UPSERT w VALUES (21, '2000-01-01 00:00:00.0000005') WITH PRIMARY KEY")
    const upd = await call<HdbStatement>((cb) => c.prepare("UPDATE w SET ts = ? WHERE id = ?", cb))
    await call((cb) => upd.exec(["2000-01-01 00:00:00.0000006", 21], cb))
    const rows = await exec<Array<Row>>(c, "SELECT id, ts, TO_VARCHAR(ts) AS T FROM w ORDER BY id")
    expect(rows.map((r) => [r["ID"], r["TS"], r["T"]])).toEqual([
      [1, "2024-01-02 03:04:05.123456700", "2024-01-02 03:04:05.1234567"],
      [2, "2024-01-02 03:04:05.123456800", "2024-01-02 03:04:05.1234568"],
      [3, "2024-01-02 03:04:05.123456900", "2024-01-02 03:04:05.1234569"],
      [4, "0001-01-01 00:00:00.000000100", "0001-01-01 00:00:00.0000001"],
      [5, "9999-12-31 23:59:59.999999900", "9999-12-31 23:59:59.9999999"],
      [6, "1582-10-04 23:59:59.999999900", "1582-10-04 23:59:59.9999999"],
      [7, "1999-12-31 23:59:59.999999900", "1999-12-31 23:59:59.9999999"],
      [11, "2024-01-02 03:04:05.123456700", "2024-01-02 03:04:05.1234567"],
      [15, "9999-12-31 23:59:59.999999900", "9999-12-31 23:59:59.9999999"],
      [21, "2000-01-01 00:00:00.000000600", "2000-01-01 00:00:00.0000006"]
    ])
  })

  it("values differing only in the seventh digit compare, sort, group and key as different; MIN and MAX are exact", async () => {
    await exec(c, "CREATE TABLE k (ts TIMESTAMP PRIMARY KEY, tag NVARCHAR(5))")
    await exec(c, "INSERT INTO k VALUES ('2024-01-02 03:04:05.1234568', 'b')")
    await exec(c, "INSERT INTO k VALUES ('2024-01-02 03:04:05.1234567', 'a')")
    await exec(c, "INSERT INTO k VALUES ('2024-01-02 03:04:05.1234569', 'c')")
    // the key holds each value once: the same value again is a unique constraint violation (301)
    expect((await failure(exec(c, "INSERT INTO k VALUES ('2024-01-02 03:04:05.1234567', 'x')"))).code).toBe(301)
    expect((await exec<Array<Row>>(c, "SELECT tag FROM k ORDER BY ts")).map((r) => r["TAG"])).toEqual(["a", "b", "c"])
    expect((await exec<Array<Row>>(c, "SELECT tag FROM k ORDER BY ts DESC")).map((r) => r["TAG"])).toEqual(["c", "b", "a"])
    expect(await exec(c, "SELECT COUNT(DISTINCT ts) AS N, MIN(ts) AS MI, MAX(ts) AS MA FROM k")).toEqual([
      { N: 3, MI: "2024-01-02 03:04:05.123456700", MA: "2024-01-02 03:04:05.123456900" }
    ])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM (SELECT ts FROM k GROUP BY ts)")).toEqual([{ N: 3 }])
    expect((await exec<Array<Row>>(c, "SELECT a.tag FROM k a JOIN k b ON a.ts < b.ts WHERE b.tag = 'b'")).map((r) => r["TAG"])).toEqual(["a"])
    // a text, a TIMESTAMP literal and a parameter are compared with all seven digits
    expect((await exec<Array<Row>>(c, "SELECT tag FROM k WHERE ts = '2024-01-02 03:04:05.1234568'")).map((r) => r["TAG"])).toEqual(["b"])
    expect((await exec<Array<Row>>(c, "SELECT tag FROM k WHERE ts > TIMESTAMP '2024-01-02 03:04:05.1234567' ORDER BY ts")).map((r) => r["TAG"])).toEqual(["b", "c"])
    expect((await exec<Array<Row>>(c, "SELECT tag FROM k WHERE ts BETWEEN '2024-01-02 03:04:05.1234568' AND '2024-01-02 03:04:05.1234569' ORDER BY ts")).map((r) => r["TAG"])).toEqual(["b", "c"])
    expect((await exec<Array<Row>>(c, "SELECT tag FROM k WHERE ts IN ('2024-01-02 03:04:05.1234567', '2024-01-02 03:04:05.1234569') ORDER BY ts")).map((r) => r["TAG"])).toEqual(["a", "c"])
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT tag FROM k WHERE ts = ?", cb))
    expect(await call((cb) => st.exec(["2024-01-02 03:04:05.1234569"], cb))).toEqual([{ TAG: "c" }])
    expect((await exec<Array<Row>>(c, "SELECT tag FROM k WHERE ts < CURRENT_TIMESTAMP ORDER BY ts")).map((r) => r["TAG"])).toEqual(["a", "b", "c"])
  })

  it("datetime functions keep the digit where HANA does: ADD_NANO100, NANO100_BETWEEN, ADD_DAYS, ADD_SECONDS, SECOND, CAST", async () => {
    await exec(c, "CREATE TABLE f (a TIMESTAMP, b TIMESTAMP)")
    await exec(c, "INSERT INTO f VALUES ('2024-01-02 03:04:05.1234567', '2024-01-02 03:04:05.1234568')")
    const [row] = await exec<Array<Row>>(
      c,
      `SELECT ADD_NANO100(a, 1) AS N1, NANO100_BETWEEN(a, b) AS NB, ADD_DAYS(a, 1) AS D1, ADD_SECONDS(a, 0.0000001) AS S1,
        SECONDS_BETWEEN(a, b) AS SB, YEAR(a) AS Y, SECOND(a) AS SE, CAST(a AS DATE) AS CD, CAST(a AS SECONDDATE) AS CS,
        CAST(a AS NVARCHAR(30)) AS CV, TO_VARCHAR(a, 'HH24:MI:SS.FF7') AS FF, ADD_NANO100(a, 1) = b AS EQ FROM f`
    )
    expect(row).toEqual({
      N1: "2024-01-02 03:04:05.123456800", NB: 1, D1: "2024-01-03 03:04:05.123456700", S1: "2024-01-02 03:04:05.123456800",
      SB: 0, Y: 2024, SE: "5.1234567", CD: "2024-01-02", CS: "2024-01-02 03:04:05", CV: "2024-01-02 03:04:05.1234567",
      FF: "03:04:05.1234567", EQ: true
    })
    // as text (concatenated, CONCAT, written into a character column) a TIMESTAMP is its text with seven digits
    expect(await exec(c, "SELECT a || '!' AS C1, CONCAT('at ', a) AS C2, 'x' || TO_VARCHAR(b) AS C3 FROM f")).toEqual([
      { C1: "2024-01-02 03:04:05.1234567!", C2: "at 2024-01-02 03:04:05.1234567", C3: "x2024-01-02 03:04:05.1234568" }
    ])
    await exec(c, "CREATE TABLE ftext (s NVARCHAR(40))")
    await exec(c, "INSERT INTO ftext SELECT a FROM f")
    expect(await exec(c, "SELECT s FROM ftext")).toEqual([{ S: "2024-01-02 03:04:05.1234567" }])
    // converted to a number it is refused (339, as for a TIMESTAMP kept as DuckDB's), not read as its ticks
    expect((await failure(exec(c, "SELECT TO_BIGINT(a) AS X FROM f"))).code).toBe(339)
    // the range ends at 9999-12-31 23:59:59.9999999: one tick more is HANA's 303
    const err = await failure(exec(c, "SELECT ADD_NANO100(TIMESTAMP '9999-12-31 23:59:59.9999999', 1) AS X FROM DUMMY"))
    expect(err.code).toBe(303)
    expect(await exec(c, "SELECT NANO100_BETWEEN(TIMESTAMP '0001-01-01 00:00:00.0000000', TIMESTAMP '9999-12-31 23:59:59.9999999') AS N FROM DUMMY")).toEqual([
      { N: "3155380703999999999" }
    ])
  })

  it("system views' timestamps and NOW() are TIMESTAMPs like CURRENT_TIMESTAMP: they compare, and read as TIMESTAMP", async () => {
    // SYS.USERS.CREATE_TIME, SYS.M_DATABASE.START_TIME are TIMESTAMP columns (SAP HANA System Views Reference)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM SYS.USERS WHERE CREATE_TIME <= CURRENT_TIMESTAMP AND ADD_DAYS(CREATE_TIME, 1) > NOW() AND USER_NAME = 'SYSTEM'")).toEqual([{ N: 1 }])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM SYS.M_DATABASE WHERE START_TIME < CURRENT_UTCTIMESTAMP")).toEqual([{ N: 1 }])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM SYS.TABLES WHERE CREATE_TIME IS NULL OR CREATE_TIME < NOW()")).toEqual([{ N: expect.any(Number) }])
    const [row] = await exec<Array<{ D: number }>>(c, "SELECT NANO100_BETWEEN(CURRENT_TIMESTAMP, NOW()) AS D FROM DUMMY")
    expect(Math.abs(row!.D)).toBeLessThan(600_000_000)
    expect(await exec(c, "SELECT TO_VARCHAR(START_TIME) AS T FROM SYS.M_DATABASE")).toEqual([{ T: "2024-01-01 00:00:00.0000000" }])
  })

  it("views, CREATE TABLE AS, joins and ALTER TABLE ADD / RENAME / DROP carry the digit", async () => {
    await exec(c, "CREATE TABLE src (id INTEGER, ts TIMESTAMP)")
    await exec(c, "INSERT INTO src VALUES (1, '2024-01-02 03:04:05.1234567')")
    await exec(c, "CREATE VIEW src_v AS SELECT id, ts FROM src WHERE ts > '2024-01-02 03:04:05.1234566'")
    expect(await exec(c, "SELECT ts FROM src_v")).toEqual([{ TS: "2024-01-02 03:04:05.123456700" }])
    await exec(c, "CREATE TABLE cpy AS (SELECT id, ts FROM src)")
    expect(await exec(c, "SELECT DATA_TYPE_NAME, SCALE FROM SYS.TABLE_COLUMNS WHERE TABLE_NAME = 'CPY' AND COLUMN_NAME = 'TS'")).toEqual([
      { DATA_TYPE_NAME: "TIMESTAMP", SCALE: 7 }
    ])
    await exec(c, "INSERT INTO cpy VALUES (2, '2024-01-02 03:04:05.1234568')")
    expect(await exec(c, "SELECT s.id AS A, c.id AS B FROM src s JOIN cpy c ON c.ts = s.ts")).toEqual([{ A: 1, B: 1 }])
    // the rows already there take the default, as a new column's rows do in HANA
    await exec(c, "ALTER TABLE cpy ADD (later TIMESTAMP DEFAULT '2030-01-01 00:00:00.0000001')")
    await exec(c, "INSERT INTO cpy (id, ts) VALUES (3, '2024-01-02 03:04:05.1234569')")
    await exec(c, "ALTER TABLE cpy RENAME COLUMN ts TO stamp")
    await exec(c, "ALTER TABLE cpy DROP (id)")
    expect(await exec(c, "SELECT stamp, later FROM cpy ORDER BY stamp")).toEqual([
      { STAMP: "2024-01-02 03:04:05.123456700", LATER: "2030-01-01 00:00:00.000000100" },
      { STAMP: "2024-01-02 03:04:05.123456800", LATER: "2030-01-01 00:00:00.000000100" },
      { STAMP: "2024-01-02 03:04:05.123456900", LATER: "2030-01-01 00:00:00.000000100" }
    ])
  })
})

describe("HANA test server: TIMESTAMP at data format version 1 (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: 1 })
  })
  afterAll(async () => {
    closeQuietly(c)
    await server.close()
  })

  it("reads a TIMESTAMP with milliseconds (the wire's TIMESTAMP has no more) while the server keeps all seven digits", async () => {
    await exec(c, "CREATE TABLE old (ts TIMESTAMP)")
    await exec(c, "INSERT INTO old VALUES ('2024-01-02 03:04:05.9999999')")
    expect(await exec(c, "SELECT ts, TO_VARCHAR(ts) AS T FROM old")).toEqual([{ TS: "2024-01-02T03:04:05.999", T: "2024-01-02 03:04:05.9999999" }])
  })
})
