import { describe, expect, it } from "@effect/vitest"
import type * as Arrow from "apache-arrow"
import fc from "fast-check"
import { Effect } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const MODES = ["row", "batch"] as const
const unbounded = (mode: "float64" | "string" | "int64", execution: (typeof MODES)[number]) => ({
  "redo.query.unbounded_number_type": mode,
  "redo.statement.execution_mode": execution
})

/** Values of one column as JS values (Arrow's own conversion: numbers, bigints, strings). */
const column = (t: Arrow.Table, name: string): Array<unknown> => Array.from(t.getChild(name)!.toArray() as Iterable<unknown>)

/** The decimal column's values as text with every digit (unscaled 128- or 256-bit words, then the scale's point). */
const decimals = (t: Arrow.Table, name: string): Array<string | null> => {
  const v = t.getChild(name)!
  const type = v.type as Arrow.Decimal
  const words = type.bitWidth / 32
  const out: Array<string | null> = []
  for (let k = 0; k < v.length; k++) {
    if (!v.isValid(k)) {
      out.push(null)
      continue
    }
    const w = v.data[0]!.values as Uint32Array
    let u = 0n
    for (let x = words - 1; x >= 0; x--) u = (u << 32n) | BigInt(w[k * words + x]!)
    out.push(decimalText(BigInt.asIntN(type.bitWidth, u), type.scale))
  }
  return out
}

/** `unscaled × 10^-scale` as plain decimal text without trailing fraction zeros (`-0.5`, `12`, `0.001`). */
const decimalText = (unscaled: bigint, scale: number): string => {
  const negative = unscaled < 0n
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, "0")
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`
}

/** Plain decimal text of a NUMBER as the driver gives it in string mode (leading zero, no exponent). */
const plain = (digits: string, exponent: number, negative: boolean): string => {
  const trimmed = digits.replace(/^0+/, "")
  if (trimmed === "") return "0"
  const point = trimmed.length + exponent
  const body =
    exponent >= 0
      ? trimmed + "0".repeat(exponent)
      : point > 0
        ? `${trimmed.slice(0, point)}.${trimmed.slice(point)}`
        : `0.${"0".repeat(-point)}${trimmed}`
  const normal = body.includes(".") ? body.replace(/0+$/, "").replace(/\.$/, "") : body
  return negative ? `-${normal}` : normal
}

const EXTREMES: ReadonlyArray<string> = [
  "12345678901234567890123456789012345678",
  "1234567890123456789012345678901234567890",
  "-9876543210987654321098765432109876543.21",
  "0.1234567890123456789012345678901234567891",
  "1" + "0".repeat(125),
  "-9999999999999999999999999999999999999999" + "0".repeat(86),
  "0." + "0".repeat(129) + "1",
  "-0." + "0".repeat(129) + "1",
  "0",
  "-0.5"
]

/** A new table `(id, v NUMBER)` holding {@link EXTREMES} with ids 0, 1, … (inserted as text literals, which Oracle converts). */
const extremesTable = (prefix: string) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const t = uniqueName(prefix)
    yield* conn.execute(`CREATE TABLE ${t} (id NUMBER(3), v NUMBER)`)
    for (const [k, v] of EXTREMES.entries()) yield* conn.execute(`INSERT INTO ${t} VALUES (${k}, '${v}')`)
    return t
  })

describe("NUMBER through the driver", () => {
  it.effect("unbounded_number_type=string gives every digit of NUMBER without precision, in both execution modes", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = yield* extremesTable("NUM_STR")
      for (const mode of MODES) {
        const table = yield* conn.queryTable(`SELECT v FROM ${t} ORDER BY id`, unbounded("string", mode))
        expect(String(table.schema.fields[0]!.type)).toBe("Utf8")
        expect(table.schema.fields[0]!.metadata.get("oracle.type-name")).toBe("NUMBER")
        expect(column(table, "V")).toEqual(EXTREMES)
      }
    })))

  it.effect("float64 gives the nearest double of every value; aggregates follow the option too", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = yield* extremesTable("NUM_DBL")
      for (const mode of MODES) {
        const table = yield* conn.queryTable(`SELECT v FROM ${t} ORDER BY id`, unbounded("float64", mode))
        expect(String(table.schema.fields[0]!.type)).toBe("Float64")
        expect(column(table, "V")).toEqual(EXTREMES.map(Number))
        const sums = yield* conn.queryTable(`SELECT SUM(v) AS s, AVG(v) AS a, COUNT(v) AS c FROM ${t} WHERE id IN (0, 1, 9)`, unbounded("string", mode))
        expect([column(sums, "S"), column(sums, "A"), column(sums, "C")]).toEqual([
          ["1246913569024691356902469135690246913568"],
          ["415637856341563785634156378563415637856"],
          ["3"]
        ])
      }
    })))

  it.effect("int64 gives exact integers and fails naming the column and (1-based) row for a fraction or a value beyond int64", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("NUM_INT")
      yield* conn.execute(`CREATE TABLE ${t} (id NUMBER(3), v NUMBER)`)
      const ints = ["9223372036854775807", "-9223372036854775808", "12345678901234567", "0", "-42"]
      for (const [k, v] of ints.entries()) yield* conn.execute(`INSERT INTO ${t} VALUES (${k}, ${v})`)
      for (const mode of MODES) {
        const table = yield* conn.queryTable(`SELECT v FROM ${t} ORDER BY id`, unbounded("int64", mode))
        expect(String(table.schema.fields[0]!.type)).toBe("Int64")
        expect(column(table, "V")).toEqual(ints.map(BigInt))
      }
      yield* conn.execute(`INSERT INTO ${t} VALUES (10, 2.5)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (11, 9223372036854775808)`)
      for (const mode of MODES) {
        const fraction = yield* Effect.flip(conn.queryTable(`SELECT v FROM ${t} WHERE id >= 3 AND id <> 11 ORDER BY id`, unbounded("int64", mode)))
        expect(fraction.message).toMatch(/\bV\b/)
        expect(fraction.message).toMatch(/row 3\b.*2\.5.*not an integer/)
        const big = yield* Effect.flip(conn.queryTable(`SELECT v FROM ${t} WHERE id = 11`, unbounded("int64", mode)))
        expect(big.message).toMatch(/row 1\b.*9223372036854775808.*int64 range/)
      }
    })))

  it.effect("NUMBER(p,s) keeps every digit as decimal128; NUMBER(p,0) with p <= 18 is int64", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("NUM_DEC")
      yield* conn.execute(`CREATE TABLE ${t} (id NUMBER(3), a NUMBER(38,10), b NUMBER(18), c NUMBER(19), d NUMBER(10,2))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 1234567890123456789012345678.0123456789, 999999999999999999, 9999999999999999999, -12345678.91)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, -0.0000000001, -999999999999999999, -1, 0.5)`)
      for (const mode of MODES) {
        const table = yield* conn.queryTable(`SELECT a, b, c, d FROM ${t} ORDER BY id`, { "redo.statement.execution_mode": mode })
        expect(table.schema.fields.map((f) => String(f.type))).toEqual(["Decimal[38e+10]", "Int64", "Decimal[19e0]", "Decimal[10e+2]"])
        expect(table.schema.fields.map((f) => f.metadata.get("oracle.type-name"))).toEqual(["NUMBER(38,10)", "NUMBER(18)", "NUMBER(19)", "NUMBER(10,2)"])
        expect(decimals(table, "A")).toEqual(["1234567890123456789012345678.0123456789", "-0.0000000001"])
        expect(column(table, "B")).toEqual([999999999999999999n, -999999999999999999n])
        expect(decimals(table, "C")).toEqual(["9999999999999999999", "-1"])
        expect(decimals(table, "D")).toEqual(["-12345678.91", "0.5"])
      }
    })))

  it.effect("INT and SMALLINT are decimal128(38,0); REAL, DOUBLE PRECISION and FLOAT(b) are double; p > 18 without high precision is double", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("NUM_ANSI")
      yield* conn.execute(`CREATE TABLE ${t} (id NUMBER(3), a INT, b SMALLINT, c REAL, d DOUBLE PRECISION, e FLOAT(10), f NUMBER(38,10), g NUMBER(25))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 12345678901234567890123456789012345678, -32768, 0.5, 1.25, -3.75, 1234567890123456789012345678.0123456789, 1234567890123456789012345)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, -7, 7, -1e10, 2.5e-100, 0, -0.0000000001, -1)`)
      for (const mode of MODES) {
        const table = yield* conn.queryTable(`SELECT a, b, c, d, e FROM ${t} ORDER BY id`, { "redo.statement.execution_mode": mode })
        expect(table.schema.fields.map((f) => String(f.type)), mode).toEqual(["Decimal[38e0]", "Decimal[38e0]", "Float64", "Float64", "Float64"])
        expect(table.schema.fields.map((f) => f.metadata.get("oracle.type-name"))).toEqual(["NUMBER(38)", "NUMBER(38)", "FLOAT(63)", "FLOAT(126)", "FLOAT(10)"])
        expect(decimals(table, "A")).toEqual(["12345678901234567890123456789012345678", "-7"])
        expect(decimals(table, "B")).toEqual(["-32768", "7"])
        expect([column(table, "C"), column(table, "D"), column(table, "E")]).toEqual([[0.5, -1e10], [1.25, 2.5e-100], [-3.75, 0]])
        const low = yield* conn.queryTable(`SELECT f, g FROM ${t} ORDER BY id`, {
          "redo.statement.execution_mode": mode,
          "redo.use_high_precision": "false"
        })
        expect(low.schema.fields.map((f) => String(f.type)), mode).toEqual(["Float64", "Float64"])
        expect(low.schema.fields.map((f) => f.metadata.get("oracle.type-name"))).toEqual(["NUMBER(38,10)", "NUMBER(25)"])
        expect(column(low, "F")).toEqual([1234567890123456789012345678.0123456789, -0.0000000001])
        expect(column(low, "G")).toEqual([1234567890123456789012345, -1])
      }
    })))

  it.effect("FLOAT(b), REAL and DOUBLE PRECISION follow unbounded_number_type like NUMBER: exact decimal text, int64 integers", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("NUM_FLT")
      yield* conn.execute(`CREATE TABLE ${t} (id NUMBER(3), c REAL, d DOUBLE PRECISION, e FLOAT(10))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 0.1, 123456789.123456, -3.75)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, -9007199254740992, 4503599627370497, 0)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (3, NULL, NULL, NULL)`)
      for (const mode of MODES) {
        const text = yield* conn.queryTable(`SELECT c, d, e FROM ${t} ORDER BY id`, unbounded("string", mode))
        expect(text.schema.fields.map((f) => String(f.type)), mode).toEqual(["Utf8", "Utf8", "Utf8"])
        expect(text.schema.fields.map((f) => f.metadata.get("oracle.type-name"))).toEqual(["FLOAT(63)", "FLOAT(126)", "FLOAT(10)"])
        expect([column(text, "C"), column(text, "D"), column(text, "E")], mode).toEqual([
          ["0.1", "-9007199254740992", null],
          ["123456789.123456", "4503599627370497", null],
          ["-3.75", "0", null]
        ])
        const ints = yield* conn.queryTable(`SELECT c, d, e FROM ${t} WHERE id >= 2 ORDER BY id`, unbounded("int64", mode))
        expect(ints.schema.fields.map((f) => String(f.type)), mode).toEqual(["Int64", "Int64", "Int64"])
        const cells = (name: string) => Array.from(ints.getChild(name)!) // iteration gives null for invalid slots
        expect([cells("C"), cells("D"), cells("E")], mode).toEqual([
          [-9007199254740992n, null],
          [4503599627370497n, null],
          [0n, null]
        ])
        const fraction = yield* Effect.flip(conn.queryTable(`SELECT e FROM ${t} ORDER BY id`, unbounded("int64", mode)))
        expect(fraction.message, mode).toMatch(/\bE\b.*row 1\b.*-3\.75.*not an integer/s)
      }
    })))

  it.effect("random decimals and unbounded numbers round-trip through the server digit for digit (fast-check)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("NUM_RND")
      yield* conn.execute(`CREATE TABLE ${t} (id NUMBER(5), d NUMBER(38,12), v NUMBER)`)
      // NUMBER(38,12): up to 26 integer and 12 fraction digits; NUMBER: up to 38 digits anywhere in 1E-130 .. 1E125
      const decimalArb = fc.tuple(fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n })).map(([u]) => decimalText(u, 12))
      const unboundedArb = fc
        .tuple(fc.bigInt({ min: 1n, max: 10n ** 38n - 1n }), fc.integer({ min: -130, max: 125 - 38 }), fc.boolean())
        .map(([m, e, negative]) => plain(m.toString(), e, negative))
      const rows = fc.sample(fc.tuple(decimalArb, unboundedArb), { numRuns: 150, seed: 20261123 })
      for (const [k, [d, v]] of rows.entries()) yield* conn.execute(`INSERT INTO ${t} VALUES (${k}, ${d}, '${v}')`)
      for (const mode of MODES) {
        const table = yield* conn.queryTable(`SELECT d, v FROM ${t} ORDER BY id`, unbounded("string", mode))
        expect(decimals(table, "D")).toEqual(rows.map(([d]) => d))
        expect(column(table, "V")).toEqual(rows.map(([, v]) => v))
      }
      // ordering is numeric on every digit
      const ordered = yield* conn.queryTable(`SELECT v FROM ${t} ORDER BY v`, unbounded("string", "batch"))
      const sorted = column(ordered, "V") as Array<string>
      for (let k = 1; k < sorted.length; k++) expect(compareDecimal(sorted[k - 1]!, sorted[k]!)).toBeLessThanOrEqual(0)
    })))
})

/** Compares two plain decimal texts exactly. */
const compareDecimal = (a: string, b: string): number => {
  const scale = (s: string) => (s.includes(".") ? s.length - s.indexOf(".") - 1 : 0)
  const s = Math.max(scale(a), scale(b))
  const unscaled = (x: string) => BigInt(x.replace(".", "") + "0".repeat(s - scale(x)))
  const d = unscaled(a) - unscaled(b)
  return d < 0n ? -1 : d > 0n ? 1 : 0
}
