import { createRequire } from "node:module"
import { DECIMAL, DuckDBTypeId, TIMESTAMP } from "@duckdb/node-api"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { ColumnVector } from "../../testkit/engine/index.ts"
import { columnInfo } from "../../testkit/engine/index.ts"
import { cesu8, fromCesu8 } from "../../testkit/hana/cesu8.ts"
import { cellWriter, writeDecimal128 } from "../../testkit/hana/encode.ts"
import { epochDayOfHanaDay, hanaDayOfEpochDay } from "../../testkit/hana/datetime.ts"
import { civilFromDays, daysFromCivil, daysFromJulianCivil, julianCivilFromDays } from "../../testkit/common/civil.ts"
import { decodeName, encodeName } from "../../testkit/hana/names.ts"
import { translate } from "../../testkit/hana/translate.ts"
import { ByteWriter, lengthIndicatorSize, MalformedPacket, NULL_LENGTH, readLengthIndicator, readLengthPrefixed } from "../../testkit/hana/wire.ts"

// hdb's own value reader: the encodings must decode to what the client expects.
const require = createRequire(import.meta.url)
const Reader = require("hdb/lib/protocol/Reader") as new (buffer: Buffer, lobFactory: unknown, options?: unknown) => {
  readDecimal(fraction: number): string | null
  readLongDate(): string | null
}

const session = { schema: "S", user: "U", connectionId: 7 }

describe("HANA test server units", () => {
  it("encodes identifiers reversibly and keeps case-distinct names distinct for DuckDB", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ minLength: 1, maxLength: 12 }), (a, b) => {
        expect(decodeName(encodeName(a))).toBe(a)
        if (a !== b) expect(encodeName(a).toLowerCase()).not.toBe(encodeName(b).toLowerCase())
      }),
      { numRuns: 300 }
    )
    expect(encodeName("MYTABLE")).toBe("MYTABLE")
    expect(encodeName("MyTable")).toBe("M~yT~a~b~l~e")
  })

  it("writes decimal128 values that hdb reads back exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }), (unscaled, scale) => {
        const w = new ByteWriter(32)
        writeDecimal128(w, unscaled, -scale)
        const text = new Reader(Buffer.from(w.result()), undefined).readDecimal(scale)
        const neg = unscaled < 0n
        const digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, "0")
        const expected = (neg ? "-" : "") + (scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`)
        expect(text).toBe(expected)
      }),
      { numRuns: 300 }
    )
  })

  it("writes DECIMAL(18,s) cells (fast number path) that hdb reads back exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n }), fc.integer({ min: 0, max: 18 }), (unscaled, scale) => {
        const info = columnInfo("D", DECIMAL(18, scale))
        const col: ColumnVector = {
          info, length: 1, validity: null, data: new BigInt64Array([unscaled]), isNull: () => false, bytes: () => null, string: () => null, value: () => null,
          locate: () => -1, located: new Uint8Array(0), locatedStart: 0
        }
        const w = new ByteWriter(32)
        cellWriter(col, { code: 5, length: 18, fraction: scale }, () => Buffer.alloc(8))(w, 0)
        const neg = unscaled < 0n
        const digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, "0")
        const expected = (neg ? "-" : "") + (scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`)
        expect(new Reader(Buffer.from(w.result()), undefined).readDecimal(scale)).toBe(expected)
      }),
      { numRuns: 300 }
    )
  })

  it("writes LONGDATE ticks that hdb reads back as the same instant", () => {
    const info = columnInfo("TS", TIMESTAMP)
    expect(info.typeId).toBe(DuckDBTypeId.TIMESTAMP)
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1600, 0, 1), max: Date.UTC(9999, 11, 31) }), fc.integer({ min: 0, max: 999 }), (ms, us) => {
        const micros = BigInt(ms) * 1000n + BigInt(us)
        const data = new BigInt64Array([micros])
        const col: ColumnVector = {
          info, length: 1, validity: null, data, isNull: () => false, bytes: () => null, string: () => null, value: () => null,
          locate: () => -1, located: new Uint8Array(0), locatedStart: 0
        }
        const w = new ByteWriter(16)
        cellWriter(col, { code: 61, length: 27, fraction: 7 }, () => Buffer.alloc(8))(w, 0)
        const text = new Reader(Buffer.from(w.result()), undefined).readLongDate()
        const iso = new Date(ms).toISOString()
        expect(text).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23)}${String(us).padStart(3, "0")}000`)
      }),
      { numRuns: 300 }
    )
  })

  it("numbers days as HANA does: Julian labels before 1582-10-15, day 1 = 0001-01-01 (as hdb lib/util/calendar.js)", () => {
    const hana = (y: number, m: number, d: number) => hanaDayOfEpochDay(daysFromCivil(y, m, d))
    expect(hana(1, 1, 1)).toBe(1)
    expect(hana(1582, 10, 4)).toBe(577737)
    expect(hana(1582, 10, 15)).toBe(577738)
    expect(hana(1970, 1, 1)).toBe(719165)
    expect(hana(9999, 12, 31)).toBe(3652061)
    // 1500 is a Julian leap year: 1500-03-01 is two days after 1500-02-28 in HANA's numbering.
    expect(hana(1500, 3, 1) - hana(1500, 2, 28)).toBe(2)
    fc.assert(
      fc.property(fc.integer({ min: -719162, max: 2_932_896 }), (days) => {
        const { year, month, day } = civilFromDays(days)
        // Labels that exist in both calendars come back unchanged (not the ten dropped days of October 1582).
        if (year === 1582 && month === 10 && day > 4 && day < 15) return
        expect(epochDayOfHanaDay(hanaDayOfEpochDay(days))).toBe(days)
      })
    )
  })

  it("reads back every length indicator ByteWriter writes, unsigned, and 255 as NULL", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (n) => {
        const w = new ByteWriter(8)
        w.lengthIndicator(n)
        const b = w.result()
        expect(lengthIndicatorSize(b[0]!)).toBe(b.length)
        expect(readLengthIndicator(b, 0)).toBe(n)
      })
    )
    // 246 + 0xFFFF is 65,535 bytes, not -1 (a signed read would move the reader back); 255 marks NULL.
    expect(readLengthIndicator(Buffer.from([246, 0xff, 0xff]), 0)).toBe(65_535)
    expect(readLengthIndicator(Buffer.from([247, 0xff, 0xff, 0xff, 0xff]), 0)).toBe(2 ** 32 - 1)
    expect(readLengthIndicator(Buffer.from([255]), 0)).toBe(NULL_LENGTH)
  })

  it("reads a length-prefixed value's length only when indicator and value lie within the data", () => {
    expect(readLengthPrefixed(Buffer.from([2, 0x61, 0x62]), 0)).toBe(2)
    expect(readLengthPrefixed(Buffer.from([0, 3, 0x61, 0x62, 0x63]), 1)).toBe(3)
    expect(readLengthPrefixed(Buffer.from([255]), 0)).toBe(NULL_LENGTH)
    // a value running past the data, an indicator cut short, or no indicator at all: a malformed packet
    expect(() => readLengthPrefixed(Buffer.from([3, 0x61, 0x62]), 0)).toThrow(MalformedPacket)
    expect(() => readLengthPrefixed(Buffer.from([246, 0x01]), 0)).toThrow(MalformedPacket)
    expect(() => readLengthPrefixed(Buffer.from([247, 0x01, 0, 0, 0]), 0)).toThrow(MalformedPacket)
    expect(() => readLengthPrefixed(Buffer.from([1]), 1)).toThrow(MalformedPacket)
  })

  it("converts civil dates and CESU-8 both ways", () => {
    fc.assert(
      fc.property(fc.integer({ min: -700_000, max: 2_900_000 }), (days) => {
        const { year, month, day } = civilFromDays(days)
        expect(daysFromCivil(year, month, day)).toBe(days)
        const julian = julianCivilFromDays(days)
        expect(daysFromJulianCivil(julian.year, julian.month, julian.day)).toBe(days)
      })
    )
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 20 }), (s) => {
        expect(fromCesu8(cesu8(s))).toBe(s)
      })
    )
    expect(cesu8("😀").toString("hex")).toBe("eda0bdedb880")
  })

  it("translates HANA SQL: identifiers, TOP, DUMMY, special values, types", () => {
    const q = translate(`SELECT TOP 5 "Mixed", plain, CURRENT_USER FROM DUMMY WHERE x = ? -- note`, session)
    expect(q).toMatchObject({ kind: "query", params: 1 })
    expect(q.kind === "query" && q.sql).toBe(`SELECT "M~i~x~e~d" , "PLAIN" , getvariable('hana_user') FROM "SYS"."DUMMY" WHERE "X" = ? LIMIT 5`)
    const ddl = translate("CREATE COLUMN TABLE t (a NVARCHAR(10) NOT NULL, b DECIMAL(5,2), c TINYINT, PRIMARY KEY (a))", session)
    expect(ddl.kind === "ddl" && ddl.sql).toBe(
      `CREATE TABLE "T" ("A" VARCHAR CHECK (CASE WHEN length("A") <= 10 THEN true ELSE error('inserted value too large for column: Failed in "A" column with the value ''' || "A" || '''') END) NOT NULL, "B" DECIMAL(5,2), "C" UTINYINT, PRIMARY KEY ( "A" )); ` +
        `COMMENT ON COLUMN "T"."A" IS 'NVARCHAR(10)'; COMMENT ON COLUMN "T"."B" IS 'DECIMAL(5,2)'; COMMENT ON COLUMN "T"."C" IS 'TINYINT'`
    )
    expect(translate("SET SCHEMA other", session)).toEqual({ kind: "setSchema", schema: "OTHER" })
    expect(translate("ALTER SYSTEM CANCEL SESSION '42'", session)).toEqual({ kind: "cancelSession", connectionId: 42, disconnect: false })
    expect(() => translate("SELECT 1 FROM DUMMY; DROP TABLE t", session)).toThrow(/multiple statements/)
  })
})
