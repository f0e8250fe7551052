import { describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

/** hdb's type codes (node_modules/hdb/lib/protocol/common/TypeCode.js). */
const INTEGER = 3
const BIGINT = 4
/** DECIMAL(p,s) with p <= 18 at data format version 8 and later. */
const FIXED8 = 81
const DOUBLE = 7
const VARBINARY = 13
const VARCHAR = 9
const NVARCHAR = 11

// HANA built-in functions DuckDB has no namesake for, through the raw hdb client: values and result type codes as the
// SAP HANA SQL Reference documents them ("RAND Function (Numeric)", "NDIV0 Function (Numeric)", "BITAND Function
// (Numeric)", "VAR Function (Aggregate)", "CHAR Function (String)", "NCHAR Function (String)", "TO_ALPHANUM Function
// (Data Type Conversion)", "HASH_SHA256 Function (Miscellaneous)").
describe("HANA test server: built-in functions DuckDB lacks (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({
    client: { dataFormatSupport: 8 },
    setup: [
      "CREATE TABLE bf (id INTEGER, big BIGINT, amount DECIMAL(10,3), x DOUBLE, b VARBINARY(10))",
      "INSERT INTO bf VALUES (1, 12, 123.456, 2.0, x'616263')",
      "INSERT INTO bf VALUES (2, 10, -7.891, 4.0, x'')",
      "INSERT INTO bf VALUES (3, 6, 0, 9.0, NULL)"
    ]
  }, (opened) => (c = opened.client))

  const types = async (sql: string) => {
    const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
    rs.close()
    return rs.metadata.map((m) => m.dataType)
  }

  it("RAND() is a DOUBLE in [0, 1), a new value per row", async () => {
    expect(await types("SELECT RAND() AS R FROM DUMMY")).toEqual([DOUBLE])
    const rows = (await exec(c, "SELECT RAND() AS R FROM bf")) as Array<{ R: number }>
    expect(rows).toHaveLength(3)
    for (const { R } of rows) expect(R >= 0 && R < 1).toBe(true)
  })

  it("NDIV0(n, d) is n / d, and 0 where d is 0 (no 304)", async () => {
    // "NDIV0 Function (Numeric)": returns 0 when the divisor is 0, else the result of the division.
    expect(await exec(c, "SELECT id, NDIV0(big, id - 1) AS Q FROM bf ORDER BY id")).toEqual([
      { ID: 1, Q: 0 },
      { ID: 2, Q: 10 },
      { ID: 3, Q: 3 }
    ])
    expect(await exec(c, "SELECT NDIV0(1, NULL) AS Q FROM DUMMY")).toEqual([{ Q: null }])
  })

  it("BITAND of integers is the bitwise AND, typed as its arguments", async () => {
    expect(await exec(c, "SELECT BITAND(id, 3) AS A, BITAND(big, 10) AS B FROM bf ORDER BY id")).toEqual([
      { A: 1, B: 8 },
      { A: 2, B: 10 },
      { A: 3, B: 2 }
    ])
    expect(await types("SELECT BITAND(id, 3) AS A, BITAND(big, 10) AS B FROM bf")).toEqual([INTEGER, BIGINT])
  })

  // "BITAND Function (Numeric)": the arguments are integers or VARBINARY values; the AND is bit by bit.
  it("BITAND of VARBINARY values is their bytewise AND, a VARBINARY", async () => {
    expect(await exec(c, "SELECT BITAND(b, X'0F0F0F') AS A FROM bf WHERE id = 1")).toEqual([{ A: Buffer.from([0x01, 0x02, 0x03]) }])
    expect(await exec(c, "SELECT BITAND(X'FF00', X'0FF0') AS A FROM DUMMY")).toEqual([{ A: Buffer.from([0x0f, 0x00]) }])
    expect(await types("SELECT BITAND(b, X'0F0F0F') AS A FROM bf WHERE id = 1")).toEqual([VARBINARY])
  })

  // "BITAND Function (Numeric)" says nothing of VARBINARY values of different lengths; the server refuses them with a
  // text that names both lengths (README, "still differs": HANA's answer is unconfirmed), never DuckDB's words, and
  // two empty values AND to an empty one.
  it("BITAND of VARBINARY values of different lengths fails naming both lengths; of two empty ones is empty", async () => {
    for (const [sql, lengths] of [
      ["SELECT BITAND(X'FF00', X'0F') AS A FROM DUMMY", "2 and 1"],
      ["SELECT BITAND(b, X'') AS A FROM bf WHERE id = 1", "3 and 0"]
    ] as const) {
      const err = await failure(exec(c, sql))
      expect([err.code, err.message]).toEqual([266, `inconsistent datatype: BITAND of VARBINARY values of different lengths (${lengths} bytes)`])
    }
    expect(await exec(c, "SELECT BITAND(X'', X'') AS A FROM DUMMY")).toEqual([{ A: Buffer.alloc(0) }])
  })

  // SAP HANA SQL Reference, "MOD Function (Numeric)": a zero divisor returns the number; otherwise the remainder
  // of the absolute values, with the sign of the number (MOD(15, 4) is 3, MOD(-15, 4) is -3).
  it("MOD returns the number for a zero divisor, and the remainder with the number's sign", async () => {
    expect(await exec(c, "SELECT MOD(15, 4) AS A, MOD(-15, 4) AS B, MOD(15, -4) AS C, MOD(5, 0) AS Z, MOD(id, 0) AS I FROM bf WHERE id = 1")).toEqual([
      { A: 3, B: -3, C: 3, Z: 5, I: 1 }
    ])
    expect(await exec(c, "SELECT MOD(5.5, 0) AS D, MOD(7.5, 2) AS E FROM DUMMY")).toEqual([{ D: "5.5", E: "1.5" }])
  })

  it("VAR is the sample variance, a DOUBLE", async () => {
    expect(await types("SELECT VAR(x) AS V FROM bf")).toEqual([DOUBLE])
    // x = 2, 4, 9: mean 5, squares 9 + 1 + 16 = 26, over n - 1 = 2
    expect(await exec(c, "SELECT VAR(x) AS V FROM bf")).toEqual([{ V: 13 }])
  })

  it("TRUNCATE(n, pos) cuts digits off toward zero, never rounding", async () => {
    expect(await exec(c, "SELECT id, TRUNCATE(amount, 2) AS T, TRUNCATE(amount, -1) AS TT, TRUNCATE(x / 3, 0) AS TD FROM bf ORDER BY id")).toEqual([
      { ID: 1, T: "123.45", TT: "120", TD: 0 },
      { ID: 2, T: "-7.89", TT: "0", TD: 1 },
      { ID: 3, T: "0.00", TT: "0", TD: 3 }
    ])
    expect(await types("SELECT TRUNCATE(amount, 2) AS T, TRUNCATE(x, 1) AS D FROM bf")).toEqual([FIXED8, DOUBLE])
  })

  it("CHAR and NCHAR give the character of a code point; a CAST to CHAR(n) and a CHAR(n) column still are types", async () => {
    await exec(c, "CREATE TABLE bf_chars (c CHAR(3), n NCHAR(2))")
    await exec(c, "INSERT INTO bf_chars VALUES (CHAR(66), NCHAR(8364))")
    expect(await exec(c, "SELECT c, n FROM bf_chars WHERE c = CHAR(66)")).toEqual([{ C: "B", N: "€" }])
    expect(await exec(c, "SELECT CHAR(65) AS A, NCHAR(8364) AS E, CAST('x' AS CHAR(3)) AS C, CAST('y' AS NCHAR(2)) AS N FROM DUMMY")).toEqual([
      { A: "A", E: "€", C: "x", N: "y" }
    ])
  })

  // Result types as the SAP HANA SQL Reference gives them: "CHAR Function (String)" returns the ASCII character
  // (VARCHAR, one character), "NCHAR Function (String)" the Unicode one (NVARCHAR), "HASH_SHA256 Function
  // (Miscellaneous)" a 32-byte and "HASH_MD5" a 16-byte VARBINARY.
  it("CHAR, NCHAR, HASH_SHA256 and HASH_MD5 report HANA's result types, aliased or not, also when prepared", async () => {
    const typed = async (sql: string) => {
      const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
      rs.close()
      return rs.metadata.map((m) => [m.dataType, m.length])
    }
    const sql = "SELECT CHAR(65), NCHAR(8364) AS E, HASH_SHA256(b) AS S, HASH_MD5(b, b) FROM bf"
    const expected = [[VARCHAR, 1], [NVARCHAR, 1], [VARBINARY, 32], [VARBINARY, 16]]
    expect(await typed(sql)).toEqual(expected)
    const st = await call<HdbStatement>((cb) => c.prepare(sql, cb))
    expect(st.resultSetMetadata?.map((m) => [m.dataType, m.length])).toEqual(expected)
    await call((cb) => st.drop(cb))
    // inside a larger expression the result is still text / binary (the server keeps DuckDB's type there)
    expect(await types("SELECT CHAR(65) || 'x' AS T FROM DUMMY")).toEqual([NVARCHAR])
  })

  // HANA has no TO_NCHAR (its conversion functions to text are TO_VARCHAR, TO_NVARCHAR, TO_ALPHANUM, TO_CLOB,
  // TO_NCLOB: SAP HANA SQL Reference, "Data Type Conversion Functions"; NHibernate's HANA dialect registers every
  // HANA function and no to_nchar, nhibernate/nhibernate-core src/NHibernate/Dialect/HanaDialectBase.cs), so it is
  // an unknown function, 328, as on HANA; TO_NVARCHAR converts.
  it("TO_NCHAR is an unknown function (328), as on HANA; TO_NVARCHAR converts", async () => {
    const err = await failure(exec(c, "SELECT TO_NCHAR(1) AS N FROM DUMMY"))
    expect(err.code).toBe(328)
    expect(await exec(c, "SELECT TO_NVARCHAR(1) AS N FROM DUMMY")).toEqual([{ N: "1" }])
  })

  it("TO_ALPHANUM converts to text", async () => {
    expect(await exec(c, "SELECT TO_ALPHANUM(id) AS A, TO_ALPHANUM('abc') AS B FROM bf WHERE id = 1")).toEqual([{ A: "1", B: "abc" }])
  })

  it("HASH_SHA256 is the 32-byte SHA-256 of its binary arguments, concatenated", async () => {
    const sha = (s: string) => createHash("sha256").update(s).digest()
    expect(await types("SELECT HASH_SHA256(b) AS H FROM bf")).toEqual([VARBINARY])
    expect(await exec(c, "SELECT id, HASH_SHA256(b) AS H FROM bf ORDER BY id")).toEqual([
      { ID: 1, H: sha("abc") },
      { ID: 2, H: sha("") },
      { ID: 3, H: null }
    ])
    expect(await exec(c, "SELECT HASH_SHA256(TO_BINARY('ab'), TO_BINARY('c')) AS H FROM DUMMY")).toEqual([{ H: sha("abc") }])
  })
})
