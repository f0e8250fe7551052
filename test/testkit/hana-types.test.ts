import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { asRealVector, call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

describe("HANA test server: LOBs and the remaining types with the raw hdb client", () => {
  let server: HanaTestServerHandle
  let client: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    client = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    await exec(client, "CREATE TABLE lobs (id INT, c CLOB, n NCLOB, t TEXT, b BLOB)")
  })
  afterAll(async () => {
    closeQuietly(client)
    await server.close()
  })

  it("returns small LOBs inline and reads large ones with READ_LOB", async () => {
    const bigText = "ä😀xyz".repeat(60_000)
    const bigBytes = Buffer.alloc(300_000, 7)
    bigBytes[299_999] = 9
    const st = await call<HdbStatement>((cb) => client.prepare("INSERT INTO lobs VALUES (?, ?, ?, ?, ?)", cb))
    expect(st.parameterMetadata.map((p) => p.dataType)).toEqual([3, 25, 26, 26, 27])
    expect(await call((cb) => st.exec([1, "small", "klein 😀", "tiny", Buffer.from([1, 2, 3])], cb))).toBe(1)
    // The 300 kB values exceed hdb's 128 KiB packet: hdb streams them with WRITE_LOB after the EXECUTE.
    expect(await call((cb) => st.exec([2, "c".repeat(1000), bigText, null, bigBytes], cb))).toBe(1)
    const rs = await call<HdbResultSet>((cb) => client.execute("SELECT * FROM lobs ORDER BY id", cb))
    expect(rs.metadata.map((m) => m.dataType)).toEqual([3, 25, 26, 26, 27])
    const rows = await call<Array<Record<string, Buffer | number | null>>>((cb) => rs.fetch(cb))
    expect(rows[0]).toEqual({ ID: 1, C: Buffer.from("small"), N: expect.any(Buffer), T: Buffer.from("tiny"), B: Buffer.from([1, 2, 3]) })
    expect(decodeCesu8(rows[0]!["N"] as Buffer)).toBe("klein 😀")
    const n = rows[1]!["N"] as Buffer
    // NCLOB bytes arrive CESU-8 encoded: decode surrogate pairs back to compare.
    expect(decodeCesu8(n)).toBe(bigText)
    expect(rows[1]!["T"]).toBeNull()
    expect((rows[1]!["B"] as Buffer).equals(bigBytes)).toBe(true)
    expect((rows[1]!["C"] as Buffer).toString()).toBe("c".repeat(1000))
  })

  it("streams several large LOB parameters of one row and of a batch with WRITE_LOB", async () => {
    await exec(client, "CREATE TABLE lobs2 (id INT, a BLOB, b NCLOB)")
    const st = await call<HdbStatement>((cb) => client.prepare("INSERT INTO lobs2 VALUES (?, ?, ?)", cb))
    const a = Buffer.alloc(200_000, 1)
    const b = "ü".repeat(150_000)
    expect(await call((cb) => st.exec([1, a, b], cb))).toBe(1)
    const rows = [
      [2, Buffer.from("tiny"), "tiny"],
      [3, Buffer.alloc(180_000, 3), "x".repeat(10)],
      [4, null, "y".repeat(140_000)]
    ]
    const affected = await call<number[]>((cb) => st.exec(rows, cb))
    expect(affected).toEqual([1, 1, 1])
    const got = await exec<Array<{ ID: number; A: Buffer | null; B: Buffer | null }>>(client, "SELECT id, a, b FROM lobs2 ORDER BY id")
    expect(got.map((r) => [r.ID, r.A?.length ?? null, r.B === null ? null : decodeCesu8(r.B).length])).toEqual([
      [1, 200_000, 150_000],
      [2, 4, 4],
      [3, 180_000, 10],
      [4, null, 140_000]
    ])
    expect(got[0]!.A!.equals(a)).toBe(true)
    expect(decodeCesu8(got[0]!.B!)).toBe(b)
  })

  it("supports ALPHANUM, VARBINARY, BIT and JSON columns (BIT/JSON travel as REAL_VECTOR 96, a vector of their bytes)", async () => {
    await exec(client, "CREATE TABLE misc (a ALPHANUM(10), vb VARBINARY(4), bits BIT, doc JSON, st SHORTTEXT(20))")
    await exec(client, `INSERT INTO misc VALUES ('A12', X'DEADBEEF', '1011', '{"k": [1, 2]}', 'short')`)
    const rs = await call<HdbResultSet>((cb) => client.execute("SELECT * FROM misc", cb))
    expect(rs.metadata.map((m) => m.dataType)).toEqual([55, 13, 96, 96, 11])
    const rows = await call<Array<Record<string, unknown>>>((cb) => rs.fetch(cb))
    expect(rows).toEqual([
      { A: "A12", VB: Buffer.from("deadbeef", "hex"), BITS: asRealVector(Buffer.from("1011")), DOC: asRealVector(Buffer.from('{"k": [1, 2]}')), ST: "short" }
    ])
    const cols = await exec(client, "SELECT COLUMN_NAME, DATA_TYPE_NAME FROM SYS.TABLE_COLUMNS WHERE TABLE_NAME = 'MISC' ORDER BY POSITION")
    expect(cols).toEqual([
      { COLUMN_NAME: "A", DATA_TYPE_NAME: "ALPHANUM" },
      { COLUMN_NAME: "VB", DATA_TYPE_NAME: "VARBINARY" },
      { COLUMN_NAME: "BITS", DATA_TYPE_NAME: "BIT" },
      { COLUMN_NAME: "DOC", DATA_TYPE_NAME: "JSON" },
      { COLUMN_NAME: "ST", DATA_TYPE_NAME: "SHORTTEXT" }
    ])
  })

  it("binds every scalar parameter type and reads it back", async () => {
    await exec(client, `CREATE TABLE params (ti TINYINT, si SMALLINT, i INTEGER, bi BIGINT, de DECIMAL(20,4), re REAL, do DOUBLE,
      bo BOOLEAN, vc VARCHAR(10), nv NVARCHAR(10), vb VARBINARY(10), da DATE, tm TIME, sd SECONDDATE, ts TIMESTAMP)`)
    const st = await call<HdbStatement>((cb) => client.prepare("INSERT INTO params VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", cb))
    const values = [7, -300, 70000, "-9007199254740993", "-1234567890123456.5678", 0.5, -1e300, true, "ascii", "ñ😀", Buffer.from([0, 255]), "1999-12-31", "23:59:59", "2000-01-01 00:00:01", "2000-01-01 00:00:01.25"]
    expect(await call((cb) => st.exec(values, cb))).toBe(1)
    expect(await call((cb) => st.exec(values.map(() => null), cb))).toBe(1)
    const rows = await exec<Array<Record<string, unknown>>>(client, "SELECT * FROM params ORDER BY ti NULLS LAST")
    expect(rows[0]).toEqual({
      TI: 7, SI: -300, I: 70000, BI: "-9007199254740993", DE: "-1234567890123456.5678", RE: 0.5, DO: -1e300, BO: 1, VC: "ascii",
      NV: "ñ😀", VB: Buffer.from([0, 255]), DA: "1999-12-31", TM: "23:59:59", SD: "2000-01-01T00:00:01", TS: "2000-01-01T00:00:01.25"
    })
    expect(Object.values(rows[1]!).every((v) => v === null)).toBe(true)
  })

  it("enforces declared lengths of character and binary columns (274), for literals, parameters and batches", async () => {
    await exec(client, "CREATE TABLE lens (vc VARCHAR(3), nv NVARCHAR(2), vb VARBINARY(2), an ALPHANUM(4))")
    await exec(client, "INSERT INTO lens VALUES ('abc', 'ñ😀', X'0102', 'A123')")
    const st = await call<HdbStatement>((cb) => client.prepare("INSERT INTO lens VALUES (?, ?, ?, ?)", cb))
    for (const row of [["abcd", null, null, null], [null, "ñña", null, null], [null, null, Buffer.from([1, 2, 3]), null], [null, null, null, "A1234"]]) {
      const err = await failure(call((cb) => st.exec(row, cb)))
      expect([err.code, err.sqlState]).toEqual([274, "HY000"])
    }
    const batch = await failure(call((cb) => st.exec([["ok", null, null, null], ["toolong", null, null, null]], cb)))
    expect(batch.code).toBe(274)
    expect((await failure(exec(client, "UPDATE lens SET vc = 'wxyz'"))).code).toBe(274)
    expect(await exec(client, "SELECT vc, nv FROM lens")).toEqual([{ VC: "abc", NV: "ñ😀" }])
  })
})

/** Decodes CESU-8 (surrogate pairs as two 3-byte sequences) to a JS string. */
const decodeCesu8 = (b: Buffer): string => {
  let s = ""
  for (let i = 0; i < b.length; ) {
    const c = b[i]!
    if (c < 0x80) {
      s += String.fromCharCode(c)
      i += 1
    } else if (c < 0xe0) {
      s += String.fromCharCode(((c & 0x1f) << 6) | (b[i + 1]! & 0x3f))
      i += 2
    } else {
      s += String.fromCharCode(((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f))
      i += 3
    }
  }
  return s
}

describe("HANA test server: dates before 1582-10-15 numbered as HANA does (raw hdb client)", () => {
  let server: HanaTestServerHandle
  beforeAll(async () => {
    server = await startHanaTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  const DATES: readonly string[] = ["0001-01-01", "1500-03-01", "1582-10-04", "1582-10-15", "2024-02-29"]
  const FIRST = "0001-01-01"

  // HANA's day numbers count the Julian/Gregorian switch as consecutive days (1582-10-04 is day 577737, 1582-10-15 day
  // 577738; hdb lib/util/calendar.js and SAP/go-hdb julian.go), and Julian years before it leap every fourth year.
  it("counts days across October 1582 as HANA's day numbers do: DAYS_BETWEEN, ADD_DAYS, WEEKDAY", async () => {
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      const rows = await exec(c, `SELECT DAYS_BETWEEN(TO_DATE('1582-10-04'), TO_DATE('1582-10-15')) AS SWITCH,
        DAYS_BETWEEN(TO_DATE('0001-01-01'), TO_DATE('1970-01-01')) AS EPOCH, DAYS_BETWEEN(TO_DATE('1500-02-28'), TO_DATE('1500-03-01')) AS LEAP,
        ADD_DAYS(TO_DATE('1582-10-04'), 1) AS NEXT, ADD_DAYS(TO_DATE('1582-10-15'), -1) AS PREV, ADD_DAYS(TO_DATE('0001-01-01'), 577736) AS FAR,
        WEEKDAY(TO_DATE('1582-10-04')) AS THU, WEEKDAY(TO_DATE('1582-10-15')) AS FRI, WEEKDAY(TO_DATE('2024-01-01')) AS MON FROM DUMMY`)
      expect(rows).toEqual([{ SWITCH: 1, EPOCH: 719164, LEAP: 2, NEXT: "1582-10-15", PREV: "1582-10-04", FAR: "1582-10-04", THU: 3, FRI: 4, MON: 0 }])
    } finally {
      closeQuietly(c)
    }
  })

  // HANA converts a string literal given as the date implicitly (testkit/hana/datetime-arguments.ts cites the source).
  it("converts string literals given as the date of ADD_DAYS, DAYS_BETWEEN, ADD_SECONDS, ADD_MONTHS, ADD_YEARS", async () => {
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      const rs = await call<HdbResultSet>((cb) => c.execute(`SELECT ADD_DAYS('1582-10-04', 1) AS NEXT, ADD_DAYS('1582-10-15', -1) AS PREV,
        DAYS_BETWEEN('1582-10-04', '1582-10-15') AS SWITCH, ADD_SECONDS('1582-10-04 23:59:59', 1) AS SEC,
        ADD_MONTHS('1582-09-04', 1) AS MON, ADD_YEARS('1581-10-04', 1) AS YR, ADD_DAYS('1582-10-04 10:30:00', 1) AS STAMP FROM DUMMY`, cb))
      // A bare date is a DATE (type 14), a date with a time a TIMESTAMP (16).
      expect(rs.metadata.filter((m) => m.columnDisplayName !== "SWITCH").map((m) => m.dataType)).toEqual([14, 14, 16, 14, 14, 16])
      expect(await call((cb) => rs.fetch(cb))).toEqual([
        { NEXT: "1582-10-15", PREV: "1582-10-04", SWITCH: 1, SEC: "1582-10-15T00:00:00", MON: "1582-10-04", YR: "1582-10-04", STAMP: "1582-10-15T10:30:00" }
      ])
      // Timestamps count days and seconds with HANA's day numbers too, and a day's worth of seconds does not overflow.
      const stamps = await exec(c, `SELECT ADD_DAYS(TO_TIMESTAMP('1582-10-04 10:30:00'), 1) AS D, ADD_SECONDS(TO_DATE('1582-10-04'), 86400) AS S,
        ADD_SECONDS(TO_TIMESTAMP('1582-10-15 00:00:00'), -0.5) AS H FROM DUMMY`)
      expect(stamps).toEqual([{ D: "1582-10-15T10:30:00", S: "1582-10-15T00:00:00", H: "1582-10-04T23:59:59.5" }])
      // ADD_DAYS / ADD_MONTHS of a SECONDDATE column (the TIMESTAMP_S overloads of hana_shift_days and the ADD_MONTHS macro).
      await exec(c, "CREATE TABLE early_sd (s SECONDDATE)")
      await exec(c, "INSERT INTO early_sd VALUES ('1582-10-04 10:00:00')")
      expect(await exec(c, "SELECT ADD_DAYS(s, 1) AS D, ADD_MONTHS(s, 1) AS M FROM early_sd")).toEqual([{ D: "1582-10-15T10:00:00", M: "1582-11-04T10:00:00" }])
      // Text that is no date fails as HANA's implicit conversion does.
      expect((await failure(exec(c, "SELECT ADD_DAYS('04.10.1582', 1) FROM DUMMY"))).code).toBe(303)
      expect((await failure(exec(c, "SELECT DAYS_BETWEEN('1582-10-04', 'soon') FROM DUMMY"))).code).toBe(303)
      // A bare parameter there is a TIMESTAMP (the macro's form for a TIMESTAMP's ticks, testkit/hana/longdate.ts).
      const bare = await call<HdbStatement>((cb) => c.prepare("SELECT ADD_DAYS(?, 1) AS D FROM DUMMY", cb))
      expect(await call((cb) => bare.exec(["1582-10-04 10:30:00"], cb))).toEqual([{ D: "1582-10-15T10:30:00" }])
    } finally {
      closeQuietly(c)
    }
  })

  it("stores DAYDATE and LONGDATE columns with the same numbering (data format 8: day numbers on the wire)", async () => {
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: 8 })
    try {
      await exec(c, "CREATE TABLE early_native (id INTEGER, dd DAYDATE, ld LONGDATE)")
      const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO early_native VALUES (?, ?, ?)", cb))
      await call((cb) => st.exec(DATES.map((d, i) => [i, d, `${d} 23:59:59.1234567`]), cb))
      const rows = await exec<Array<Record<string, unknown>>>(c, "SELECT dd, ld, TO_VARCHAR(dd) AS T FROM early_native ORDER BY id")
      // LONGDATE keeps all seven fraction digits, also before 1582-10-15.
      expect(rows).toEqual(DATES.map((d) => ({ DD: d, LD: `${d} 23:59:59.123456700`, T: d })))
    } finally {
      closeQuietly(c)
    }
  })

  it.each([1, 8])("round-trips early dates through literals, parameters and batches at data format %i, as values and as text", async (dfv) => {
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: dfv })
    try {
      const t = `early_${dfv}`
      await exec(c, `CREATE TABLE ${t} (id INTEGER, d DATE, sd SECONDDATE, ts TIMESTAMP)`)
      for (const [i, d] of DATES.entries()) await exec(c, `INSERT INTO ${t} VALUES (${i}, '${d}', '${d} 01:02:03', '${d} 04:05:06.5')`)
      const st = await call<HdbStatement>((cb) => c.prepare(`INSERT INTO ${t} VALUES (?, ?, ?, ?)`, cb))
      await call((cb) => st.exec([100, FIRST, `${FIRST} 01:02:03`, `${FIRST} 04:05:06.5`], cb))
      await call((cb) => st.exec(DATES.map((d, i) => [200 + i, d, `${d} 01:02:03`, `${d} 04:05:06.5`]), cb))
      const rows = await exec<Array<{ ID: number; D: string; SD: string; TS: string }>>(c, `SELECT id, d, sd, ts FROM ${t} ORDER BY id`)
      const ts = dfv >= 4 ? ".500000000" : ".5"
      const sep = dfv >= 4 ? " " : "T"
      const expected = (d: string) => ({ D: d, SD: `${d}${sep}01:02:03`, TS: `${d}${sep}04:05:06${ts}` })
      expect(rows.map(({ ID: _, ...r }) => r)).toEqual([...DATES, FIRST, ...DATES].map(expected))
      // The server's own text of the stored values carries the same labels hdb wrote and read: hdb numbers days with
      // Julian labels before 1582-10-15, so a server numbering them proleptically would read back 1500-03-11 here.
      const text = await exec<Array<Record<string, string>>>(c, `SELECT TO_VARCHAR(d) AS D, TO_VARCHAR(sd) AS SD, TO_VARCHAR(CAST(ts AS DATE)) AS TD FROM ${t} ORDER BY id`)
      expect(text).toEqual([...DATES, FIRST, ...DATES].map((d) => ({ D: d, SD: `${d} 01:02:03`, TD: d })))
      // and a parameter compares with the stored label
      const find = await call<HdbStatement>((cb) => c.prepare(`SELECT id FROM ${t} WHERE d = ? AND sd = ? ORDER BY id`, cb))
      expect(await call((cb) => find.exec(["1500-03-01", "1500-03-01 01:02:03"], cb))).toEqual([{ ID: 1 }, { ID: 201 }])
    } finally {
      closeQuietly(c)
    }
  })
})
