import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { type Decimal, decimalOf, numberText, roundTo } from "../../testkit/oracle/decimal.ts"
import { formatNumber, parseNumber } from "../../testkit/oracle/number-format.ts"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, numbersAsText, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const asText = numbersAsText
const texts = async (sql: string, binds: Array<unknown> = []): Promise<Array<Array<string | null>>> => (await conn.execute(sql, binds, asText)).rows
/** TO_CHAR(value, model) of each case, one query per case (value is SQL text). */
const toChar = async (cases: ReadonlyArray<readonly [string, string, string]>) => {
  const out: Array<[string, string, string | null]> = []
  for (const [value, model] of cases) out.push([value, model, (await texts(`SELECT TO_CHAR(${value}, '${model}') FROM DUAL`))[0]![0]!])
  return out
}

const BIG = "12345678901234567890123456789012345678.5"
const FORTY = ".1234567890123456789012345678901234567891"

/**
 * Oracle's examples of number format models (SQL Language Reference, "Format Models", "Number Format Models", its
 * table of example conversions: https://docs.oracle.com/database/122/SQLRF/Format-Models.htm,
 * https://docs.oracle.com/cd/B19306_01/server.102/b14200/sql_elements004.htm), value, model, result.
 */
const DOCUMENTED = [
  ["-1234567890", "9999999999S", "1234567890-"],
  ["0", "99.99", "   .00"],
  ["+0.1", "99.99", "   .10"],
  ["-0.2", "99.99", "  -.20"],
  ["0", "90.99", "  0.00"],
  ["+0.1", "90.99", "  0.10"],
  ["-0.2", "90.99", " -0.20"],
  ["0", "9999", "    0"],
  ["1", "9999", "    1"],
  ["0", "B9999", "     "],
  ["1", "B9999", "    1"],
  ["0", "B90.99", "      "],
  ["+123.456", "999.999", " 123.456"],
  ["-123.456", "999.999", "-123.456"],
  ["+123.456", "FM999.009", "123.456"],
  ["+123.456", "9.9EEEE", "  1.2E+02"],
  ["+1E+123", "9.9EEEE", "  1.0E+123"],
  ["+123.456", "FM9.9EEEE", "1.2E+02"],
  ["+123.45", "FM999.009", "123.45"],
  ["+123.0", "FM999.009", "123.00"],
  ["+1234567890", "9999999999S", "1234567890+"]
] as const

/** The other elements, rounding, overflow and the sign positions. */
const ELEMENTS = [
  // rounding to the model's scale, half away from zero; the leading blank is the sign's position
  ["1234.565", "9999.99", " 1234.57"],
  ["-1234.565", "9999.99", "-1234.57"],
  ["0.005", "0.99", " 0.01"],
  ["999.995", "999.99", "#######"],
  // more integer digits than the model has: pound signs over the model's width
  ["666.66", "99.99", "######"],
  ["-1000", "999", "####"],
  // group separators, blank where they lead; leading zeros from the first 0 on
  ["1234567.891", "9,999,999.99", " 1,234,567.89"],
  ["123", "9,999", "   123"],
  ["12", "0,000", " 0,012"],
  ["5", "9099", "  005"],
  ["-1234.5", "9G999D99", "-1,234.50"],
  // FM: no padding; trailing zeros of 9 positions go
  ["-1234.5", "FM9,999.99", "-1,234.5"],
  ["0.5", "FM90.99", "0.5"],
  ["123", "FM999.99", "123."],
  // S, MI, PR and $ place the sign
  ["12", "S9999", "  +12"],
  ["-12", "S9999", "  -12"],
  ["12", "9999S", "  12+"],
  ["-9876", "9999MI", "9876-"],
  ["9876", "9999MI", "9876 "],
  ["9876", "FM9999MI", "9876"],
  ["-98", "999PR", " <98>"],
  ["87", "999PR", "  87 "],
  ["-12", "$999", " -$12"],
  ["1234.5", "$9,999.00", " $1,234.50"],
  // V multiplies by 10^n
  ["3040", "99999V99", "  304000"],
  ["-1.234", "9V99", "-123"],
  // scientific notation
  ["121.976", "99.99EEEE", "  1.22E+02"],
  ["-0.000123", "9.99EEEE", " -1.23E-04"],
  // hexadecimal: rounded, one leading blank without 0 or FM, pound signs for negatives and overflow
  ["15", "X", " F"],
  ["15", "0X", "0F"],
  ["15345", "FM0XXXX", "03BF1"],
  ["15345", "fm0xxxx", "03bf1"],
  ["12.5", "fm0xxxx", "0000d"],
  ["-123", "xxx", "####"],
  ["256", "XX", "###"]
] as const

describe("Oracle test server: number format models through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fmt_num (id NUMBER(3), v NUMBER, p NUMBER(10,2), d BINARY_DOUBLE)")
    await conn.executeMany("INSERT INTO fmt_num (id, v, p, d) VALUES (:1, :2, :3, :4)", [
      [1, BIG, -1234.56, 0.1],
      [2, FORTY, 0, -2.5],
      [3, "1E125", 99999999.99, null],
      [4, "-1E-130", null, null],
      [5, null, 1, null]
    ])
  })
  afterAll(() => closeConnection({ server, conn }))

  it("prints Oracle's documented examples of TO_CHAR(number, model)", async () => {
    expect(await toChar(DOCUMENTED)).toEqual(DOCUMENTED.map(([v, m, r]) => [v, m, r]))
  })

  it("rounds to the model's scale, overflows into pound signs and places signs, separators, $, V, EEEE and X", async () => {
    expect(await toChar(ELEMENTS)).toEqual(ELEMENTS.map(([v, m, r]) => [v, m, r]))
  })

  it("formats unbounded NUMBER values of 38 to 40 digits and the exponent range's ends on every digit", async () => {
    const nines = "9".repeat(40)
    expect(await texts(`SELECT TO_CHAR(v, '${nines}'), TO_CHAR(v, 'FM${"9".repeat(38)}.0'), TO_CHAR(v, '${"9".repeat(37)}') FROM fmt_num WHERE id = 1`)).toEqual([
      ["   12345678901234567890123456789012345679", "12345678901234567890123456789012345678.5", "#".repeat(38)]
    ])
    expect(await texts(`SELECT TO_CHAR(v, 'FM0.${"0".repeat(40)}'), TO_CHAR(v, '0.${"9".repeat(39)}') FROM fmt_num WHERE id = 2`)).toEqual([
      ["0" + FORTY, " 0.123456789012345678901234567890123456789"]
    ])
    expect(await texts("SELECT id, TO_CHAR(v, '9.99EEEE'), TO_CHAR(v, 'FM9.9EEEE') FROM fmt_num WHERE id IN (1, 3, 4) ORDER BY id", [])).toEqual([
      ["1", "  1.23E+37", "1.2E+37"],
      ["3", "  1.00E+125", "1.0E+125"],
      ["4", " -1.00E-130", "-1.0E-130"]
    ])
    // a 40-digit quotient, rounded to the model's 30 places
    expect(await texts(`SELECT TO_CHAR(1/3, '0.${"9".repeat(30)}') FROM DUAL`)).toEqual([[" 0." + "3".repeat(30)]])
  })

  it("formats NUMBER(p,s) and BINARY_DOUBLE columns, binds and NULL", async () => {
    expect(await texts("SELECT TO_CHAR(p, 'FM999,999,990.00PR'), TO_CHAR(d, '0.99'), TO_CHAR(d, 'S0.0000') FROM fmt_num WHERE id IN (1, 2, 3, 5) ORDER BY id")).toEqual([
      ["<1,234.56>", " 0.10", "+0.1000"],
      ["0.00", "-2.50", "-2.5000"],
      ["99,999,999.99", null, null],
      ["1.00", null, null]
    ])
    expect(await texts("SELECT TO_CHAR(:1, '9,999.9'), TO_CHAR(:2, 'FMXXXX') FROM DUAL", [1234.56, 65535])).toEqual([[" 1,234.6", "FFFF"]])
    expect(await texts("SELECT TO_CHAR(v, '999') FROM fmt_num WHERE id = 5")).toEqual([[null]])
  })

  it("uses the session's NLS_NUMERIC_CHARACTERS for D and G, and keeps '.' and ',' as they are", async () => {
    const c2 = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
    try {
      await c2.execute("ALTER SESSION SET NLS_NUMERIC_CHARACTERS = ',.'")
      const r = await c2.execute("SELECT TO_CHAR(1234567.891, '9G999G999D99'), TO_CHAR(1234.5, '9,999.99'), TO_NUMBER('1.234,5', '9G999D9') FROM DUAL", [], asText)
      expect(r.rows).toEqual([[" 1.234.567,89", " 1,234.50", "1234.5"]])
      // the nlsparam argument overrides the session's characters for one call
      const own = await c2.execute(
        "SELECT TO_CHAR(1234.5, '9G999D99', 'NLS_NUMERIC_CHARACTERS = ''.,'''), TO_NUMBER('1,234.5', '9G999D9', 'NLS_NUMERIC_CHARACTERS = ''.,''') FROM DUAL",
        [],
        asText
      )
      expect(own.rows).toEqual([[" 1,234.50", "1234.5"]])
    } finally {
      await c2.close()
    }
  })

  it("rejects format models Oracle rejects with ORA-01481", async () => {
    const invalid = ["9.9.9", ",999", "99MI9", "9,99.9,9", "9.9V9", "9X", "S99S", "YYYY", "99PR9", "9,999EEEE"]
    const codes: Array<string | undefined> = []
    for (const model of invalid) codes.push(oraCode(await failure(() => conn.execute(`SELECT TO_CHAR(12, '${model}') FROM DUAL`))))
    expect(codes).toEqual(invalid.map(() => "ORA-01481"))
    // a datetime format stays one: TO_CHAR of a date is unaffected
    expect(await texts("SELECT TO_CHAR(DATE '2024-03-01', 'YYYY-MM-DD') FROM DUAL")).toEqual([["2024-03-01"]])
  })

  it("reads text in a number format model with TO_NUMBER, exactly, and refuses text that does not match with ORA-01722", async () => {
    const r = await conn.execute(
      `SELECT TO_NUMBER('1,234.50', '9,999.99'), TO_NUMBER('$1,234', '$9,999'), TO_NUMBER('<12>', '99PR'), TO_NUMBER('12-', '99MI'),
              TO_NUMBER('-12', 'S99'), TO_NUMBER('ff', 'XX'), TO_NUMBER('1.2E+02', '9.9EEEE'), TO_NUMBER('304000', '99999V99'),
              TO_NUMBER('12345678901234567890123456789012345678.25', '${"9".repeat(38)}.99') FROM DUAL`,
      [],
      asText
    )
    expect(r.rows).toEqual([["1234.5", "1234", "-12", "-12", "-12", "255", "120", "3040", "12345678901234567890123456789012345678.25"]])
    expect(r.metaData.map((m: { dbTypeName: string; precision: number; scale: number }) => [m.dbTypeName, m.precision, m.scale])).toEqual(
      r.metaData.map(() => ["NUMBER", 0, -127])
    )
    const refused = [
      ["12345", "999"],
      ["1,234", "9999"],
      ["12.345", "99.99"],
      ["G1", "XX"],
      ["abc", "999"]
    ]
    const codes: Array<string | undefined> = []
    for (const [text, model] of refused) codes.push(oraCode(await failure(() => conn.execute(`SELECT TO_NUMBER('${text}', '${model}') FROM DUAL`))))
    expect(codes).toEqual(refused.map(() => "ORA-01722"))
  })
})

describe("number format models of the Oracle test server (number-format.ts)", () => {
  /** Decimals of up to 38 digits at exponents -20 .. 10. */
  const decimal: fc.Arbitrary<Decimal> = fc
    .tuple(fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }), fc.integer({ min: -20, max: 10 }))
    .map(([c, e]) => decimalOf(`${c}e${e}`))
  /** `9` and `0` models with group separators, a fraction and a sign element. */
  const model = fc
    .record({
      fm: fc.boolean(),
      integer: fc.integer({ min: 1, max: 45 }),
      zeros: fc.integer({ min: 0, max: 3 }),
      groups: fc.boolean(),
      fraction: fc.integer({ min: 0, max: 12 }),
      sign: fc.constantFrom("", "S", "MI", "PR", "lead")
    })
    .map((m) => {
      let digits = "9".repeat(Math.max(0, m.integer - m.zeros)) + "0".repeat(Math.min(m.zeros, m.integer))
      if (m.groups) digits = digits.replace(/\B(?=(\d{3})+$)/g, ",")
      const body = digits + (m.fraction > 0 ? "." + "9".repeat(m.fraction) : "")
      return { text: `${m.fm ? "FM" : ""}${m.sign === "lead" ? "S" : ""}${body}${m.sign === "lead" ? "" : m.sign}`, fraction: m.fraction, fm: m.fm }
    })

  it("prints what TO_NUMBER reads back as the value rounded to the model's scale, at the model's width without FM", () => {
    fc.assert(
      fc.property(decimal, model, (d, m) => {
        const text = formatNumber(d, m.text)
        if (text.startsWith("#")) {
          // only when the rounded value has more integer digits than the model
          expect(fixedIntegerDigits(roundTo(d, m.fraction, "round"))).toBeGreaterThan((m.text.match(/[09]/g) ?? []).length - m.fraction)
          return
        }
        expect(parseNumber(text, m.text)).toBe(numberText(roundTo(d, m.fraction, "round")))
        if (!m.fm) expect(text.length).toBe(formatNumber(decimalOf("1e60"), m.text).length)
      }),
      { numRuns: 1000, seed: 20261124 }
    )
  })
})

/** The number of digits of |d|'s integer part (0 for |d| < 1). */
const fixedIntegerDigits = (d: Decimal): number => {
  const whole = roundTo({ ...d, negative: false }, 0, "trunc")
  return whole.coefficient === 0n ? 0 : whole.coefficient.toString().length + whole.exponent
}
