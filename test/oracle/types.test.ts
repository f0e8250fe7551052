import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import fc from "fast-check"
import { Result } from "effect"
import { arrowColumn, DEFAULT_MAPPING, type MappingOptions, type OracleColumnMetadata, typeNameOf } from "../../layers/oracle/ReadTypes.ts"
import { bindTypeFor, ingestColumnType } from "../../layers/oracle/WriteTypes.ts"

const number = (precision: number, scale: number): OracleColumnMetadata => ({ name: "N", type: "NUMBER", precision, scale, nullable: true })
const mapped = (c: OracleColumnMetadata, o: Partial<MappingOptions> = {}) => Result.getOrThrow(arrowColumn(c, { ...DEFAULT_MAPPING, ...o }))
const typeOf = (c: OracleColumnMetadata, o: Partial<MappingOptions> = {}) => String(mapped(c, o).field.type)
const failureOf = <A, E extends { status: string; message: string }>(r: Result.Result<A, E>) => {
  if (Result.isSuccess(r)) throw new Error("expected failure")
  return r.failure
}

describe("NUMBER rules", () => {
  it("rule 1: unbounded NUMBER follows redo.query.unbounded_number_type (double by default)", () => {
    expect(typeOf(number(0, -127))).toBe("Float64")
    expect(typeOf(number(0, -127), { unboundedNumber: "int64" })).toBe("Int64")
    expect(typeOf(number(0, -127), { unboundedNumber: "string" })).toBe("Utf8")
    expect(typeOf(number(0, 0))).toBe("Float64")
  })

  it("rule 2: NUMBER(p,0) with p <= 18 is int64 whatever the options", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 18 }), fc.boolean(), (p, high) => {
        expect(typeOf(number(p, 0), { useHighPrecision: high })).toBe("Int64")
      })
    )
  })

  it("rule 3: other bounded NUMBER is decimal128 (p <= 38) / decimal256 (p > 38) with high precision, double without", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 38 }), fc.integer({ min: 0, max: 38 }), (p, s) => {
        fc.pre(!(s === 0 && p <= 18))
        const t = mapped(number(p, s)).field.type as Arrow.Decimal
        expect([t.typeId, t.bitWidth, t.scale, t.precision]).toEqual([Arrow.Type.Decimal, 128, s, Math.max(p, s)])
        expect(typeOf(number(p, s), { useHighPrecision: false })).toBe("Float64")
      })
    )
    const wide = mapped({ ...number(40, 2) }).field.type as Arrow.Decimal
    expect([wide.bitWidth, wide.precision, wide.scale]).toEqual([256, 40, 2])
    const intLike = mapped(number(38, 0)).field.type as Arrow.Decimal
    expect([intLike.bitWidth, intLike.precision, intLike.scale]).toEqual([128, 38, 0])
    const star = mapped(number(0, 4)).field.type as Arrow.Decimal
    expect([star.bitWidth, star.precision, star.scale]).toEqual([128, 38, 4])
  })

  it("rule 4: FLOAT(b) (no decimal precision) is never decimal: double by default regardless of use_high_precision", () => {
    expect(typeOf(number(126, -127), { useHighPrecision: true })).toBe("Float64")
    expect(typeOf(number(63, -127), { useHighPrecision: false })).toBe("Float64")
  })

  it("writes oracle.type-name as Oracle spells the column type", () => {
    const name = (c: OracleColumnMetadata) => mapped(c).field.metadata.get("oracle.type-name")
    expect(name(number(10, 2))).toBe("NUMBER(10,2)")
    expect(name(number(10, 0))).toBe("NUMBER(10)")
    expect(name(number(0, -127))).toBe("NUMBER")
    expect(name(number(126, -127))).toBe("FLOAT(126)")
    expect(name({ name: "V", type: "VARCHAR", byteSize: 20, nullable: true })).toBe("VARCHAR2(20)")
    expect(name({ name: "T", type: "TIMESTAMP_TZ", precision: 9, nullable: true })).toBe("TIMESTAMP(9) WITH TIME ZONE")
    expect(name({ name: "I", type: "INTERVAL_DS", precision: 9, scale: 9, nullable: true })).toBe("INTERVAL DAY(9) TO SECOND(9)")
    expect(typeNameOf({ name: "X", type: "XMLTYPE", nullable: true })).toBe("XMLType")
  })
})

describe("other database to Arrow mappings", () => {
  const t = (type: OracleColumnMetadata["type"], extra: Partial<OracleColumnMetadata> = {}, o: Partial<MappingOptions> = {}) =>
    typeOf({ name: "C", type, nullable: true, ...extra }, o)

  it("follows the specification's table", () => {
    expect(t("BINARY_DOUBLE")).toBe("Float64")
    expect(t("BINARY_FLOAT")).toBe("Float32")
    expect(t("BLOB")).toBe("LargeBinary")
    expect(t("LONG_RAW")).toBe("LargeBinary")
    expect(t("RAW")).toBe("Binary")
    expect(t("BOOLEAN")).toBe("Bool")
    expect(t("CHAR")).toBe("Utf8")
    expect(t("VARCHAR")).toBe("Utf8")
    expect(t("CLOB")).toBe("LargeUtf8")
    expect(t("NCLOB")).toBe("LargeUtf8")
    expect(t("LONG")).toBe("LargeUtf8")
    expect(t("DATE")).toBe("Date32<DAY>")
    expect(t("DATE", {}, { date: "timestamp" })).toBe("Timestamp<SECOND>")
    expect(t("ROWID")).toBe("Utf8")
    expect(t("UROWID")).toBe("Utf8")
    expect(t("TIMESTAMP", { precision: 6 })).toBe("Timestamp<MICROSECOND>")
    expect(t("TIMESTAMP", { precision: 9 })).toBe("Timestamp<NANOSECOND>")
    expect(t("TIMESTAMP_TZ", { precision: 6 })).toBe("Timestamp<MICROSECOND, UTC>")
    expect(t("TIMESTAMP_TZ", { precision: 9 })).toBe("Timestamp<NANOSECOND, UTC>")
    expect(t("TIMESTAMP_LTZ", { precision: 9 })).toBe("Timestamp<MICROSECOND, UTC>")
  })

  it("maps every cell of both interval tables", () => {
    const ds = (fsp: number, mode: MappingOptions["dayTimeInterval"]) => t("INTERVAL_DS", { precision: fsp, scale: 2 }, { dayTimeInterval: mode })
    expect(ds(3, "auto")).toBe("Interval<DAY_TIME>")
    expect(ds(0, "auto")).toBe("Interval<DAY_TIME>")
    expect(ds(6, "auto")).toBe("Interval<MONTH_DAY_NANO>")
    expect(ds(0, "duration")).toBe("Duration<SECOND>")
    expect(ds(3, "duration")).toBe("Duration<MILLISECOND>")
    expect(ds(6, "duration")).toBe("Duration<MICROSECOND>")
    expect(ds(9, "duration")).toBe("Duration<NANOSECOND>")
    expect(ds(3, "monthdaynano")).toBe("Interval<MONTH_DAY_NANO>")
    expect(ds(9, "monthdaynano")).toBe("Interval<MONTH_DAY_NANO>")
    expect(ds(3, "string")).toBe("Utf8")
    expect(ds(9, "string")).toBe("Utf8")
    const ym = (mode: MappingOptions["yearMonthInterval"]) => t("INTERVAL_YM", { scale: 9 }, { yearMonthInterval: mode })
    expect(ym("auto")).toBe("Interval<YEAR_MONTH>")
    expect(ym("monthdaynano")).toBe("Interval<MONTH_DAY_NANO>")
    expect(ym("string")).toBe("Utf8")
  })

  it("annotates extension types: JSON, JSON-checked text, XMLType, SDO_GEOMETRY, OBJECT and VARRAY only when asked", () => {
    const meta = (c: Partial<OracleColumnMetadata> & Pick<OracleColumnMetadata, "type">, o: Partial<MappingOptions> = {}) =>
      Object.fromEntries(mapped({ name: "C", nullable: true, ...c }, o).field.metadata)
    expect(meta({ type: "JSON" })["ARROW:extension:name"]).toBeUndefined()
    expect(meta({ type: "JSON" }, { useExtensionType: true })["ARROW:extension:name"]).toBe("arrow.json")
    expect(meta({ type: "VARCHAR", isJson: true })["ARROW:extension:name"]).toBeUndefined()
    expect(meta({ type: "VARCHAR", isJson: true }, { useExtensionType: true })["ARROW:extension:name"]).toBe("arrow.json")
    const xml = meta({ type: "XMLTYPE" }, { useExtensionType: true })
    expect(xml["ARROW:extension:name"]).toBe("arrow.opaque")
    expect(JSON.parse(xml["ARROW:extension:metadata"]!)).toEqual({ type_name: "XMLType", vendor_name: "Oracle" })
    expect(meta({ type: "OBJECT", objectTypeName: "MDSYS.SDO_GEOMETRY" }, { useExtensionType: true })["ARROW:extension:name"]).toBe("geoarrow.wkb")
    expect(meta({ type: "OBJECT", objectTypeName: "MDSYS.SDO_GEOMETRY" })["ARROW:extension:name"]).toBeUndefined()
    expect(meta({ type: "XMLTYPE" })["ARROW:extension:name"]).toBeUndefined()
    expect(meta({ type: "OBJECT", objectTypeName: "APP.ADDRESS_T" })["ARROW:extension:name"]).toBeUndefined()
    expect(meta({ type: "OBJECT", objectTypeName: "APP.NUMS_T", isCollection: true })["ARROW:extension:name"]).toBeUndefined()
    expect(meta({ type: "OBJECT", objectTypeName: "APP.ADDRESS_T" }, { useExtensionType: true })["ARROW:extension:name"]).toBe("arrow.json")
    expect(meta({ type: "OBJECT", objectTypeName: "APP.NUMS_T", isCollection: true }, { useExtensionType: true })["ARROW:extension:name"]).toBe("arrow.json")
    expect(failureOf(arrowColumn({ name: "V", type: "VECTOR", nullable: true })).message).toContain('"V"')
  })
})

describe("Arrow to database", () => {
  const f = (type: Arrow.DataType, metadata: Record<string, string> = {}) => new Arrow.Field("c", type, true, new Map(Object.entries(metadata)))
  const bind = (type: Arrow.DataType, metadata: Record<string, string> = {}) => bindTypeFor(f(type, metadata))
  const ingest = (type: Arrow.DataType, struct: "blob" | "json" | "nvarchar2" | "object" = "object", metadata: Record<string, string> = {}) =>
    ingestColumnType(f(type, metadata), struct)

  it("follows the specification's Bind and Ingest columns", () => {
    const rows: ReadonlyArray<readonly [Arrow.DataType, string | "NA", string | "NA"]> = [
      [new Arrow.Binary(), "RAW", "BLOB"],
      [new Arrow.LargeBinary(), "RAW", "BLOB"],
      [new Arrow.FixedSizeBinary(4), "RAW", "BLOB"],
      [new Arrow.BinaryView(), "RAW", "BLOB"],
      [new Arrow.Utf8View(), "RAW", "NVARCHAR2(2000)"],
      [new Arrow.Bool(), "BOOLEAN", "BOOLEAN"],
      [new Arrow.DateDay(), "DATE", "DATE"],
      [new Arrow.Decimal(2, 12, 128), "NUMBER(12,2)", "NUMBER(12,2)"],
      [new Arrow.Float64(), "BINARY_DOUBLE", "BINARY_DOUBLE"],
      [new Arrow.Float32(), "BINARY_FLOAT", "BINARY_FLOAT"],
      [new Arrow.Float16(), "BINARY_FLOAT", "NA"],
      [new Arrow.Int16(), "NUMBER(38,0)", "NUMBER(5,0)"],
      [new Arrow.Int32(), "NUMBER(38,0)", "NUMBER(10,0)"],
      [new Arrow.Int64(), "NA", "NUMBER(19,0)"],
      [new Arrow.Utf8(), "NVARCHAR2", "NVARCHAR2(2000)"],
      [new Arrow.LargeUtf8(), "NVARCHAR2", "NVARCHAR2(2000)"],
      [new Arrow.IntervalMonthDayNano(), "NA", "INTERVAL DAY(9) TO SECOND(9)"],
      [new Arrow.IntervalYearMonth(), "NA", "INTERVAL YEAR(9) TO MONTH"],
      [new Arrow.Null(), "NA", "NUMBER"],
      [new Arrow.TimestampSecond(), "TIMESTAMP(0)", "TIMESTAMP(0)"],
      [new Arrow.TimestampMillisecond(), "TIMESTAMP(3)", "TIMESTAMP(3)"],
      [new Arrow.TimestampMicrosecond(), "TIMESTAMP(6)", "TIMESTAMP(6)"],
      [new Arrow.TimestampNanosecond(), "TIMESTAMP(9)", "TIMESTAMP(9)"],
      [new Arrow.TimestampNanosecond("UTC"), "TIMESTAMP(9) WITH TIME ZONE", "TIMESTAMP(9) WITH TIME ZONE"],
      [new Arrow.TimestampMillisecond("Europe/Paris"), "TIMESTAMP(3) WITH TIME ZONE", "TIMESTAMP(3) WITH TIME ZONE"]
    ]
    // an NA cell fails NOT_IMPLEMENTED naming the Arrow type it was given
    const notApplicable = (failed: Result.Result<string, { status: string; message: string }>, type: Arrow.DataType) => {
      const error = failureOf(failed)
      expect(error.status, String(type)).toBe("NOT_IMPLEMENTED")
      expect(error.message).toContain(String(type))
    }
    for (const [type, b, i] of rows) {
      const bound = bind(type)
      if (b === "NA") notApplicable(bound, type)
      else expect(Result.getOrThrow(bound)).toBe(b)
      const created = ingest(type)
      if (i === "NA") notApplicable(created, type)
      else expect(Result.getOrThrow(created)).toBe(i)
    }
  })

  it("extension types: arrow.json binds as JSON, geoarrow ingests as SDO_GEOMETRY; NA cells name the type", () => {
    expect(Result.getOrThrow(bind(new Arrow.Utf8(), { "ARROW:extension:name": "arrow.json" }))).toBe("JSON")
    expect(failureOf(ingest(new Arrow.Utf8(), "object", { "ARROW:extension:name": "arrow.json" })).message).toContain("arrow.json")
    expect(Result.getOrThrow(ingest(new Arrow.Binary(), "object", { "ARROW:extension:name": "geoarrow.wkb" }))).toBe("SDO_GEOMETRY")
    expect(Result.getOrThrow(ingest(new Arrow.Utf8(), "object", { "ARROW:extension:name": "geoarrow.wkt" }))).toBe("SDO_GEOMETRY")
    expect(failureOf(bind(new Arrow.Binary(), { "ARROW:extension:name": "geoarrow.wkb" })).message).toContain("geoarrow.wkb")
    expect(failureOf(bind(new Arrow.Int64())).message).toContain("Int64")
  })

  it("struct and list columns follow redo.ingest.struct_type; object is NOT_IMPLEMENTED with a clear message", () => {
    const struct = new Arrow.Struct([new Arrow.Field("a", new Arrow.Int32())])
    const list = new Arrow.List(new Arrow.Field("item", new Arrow.Int32()))
    for (const t of [struct, list]) {
      expect(Result.getOrThrow(ingest(t, "blob"))).toBe("BLOB")
      expect(Result.getOrThrow(ingest(t, "json"))).toBe("JSON")
      expect(Result.getOrThrow(ingest(t, "nvarchar2"))).toBe("NVARCHAR2(2000)")
      const object = failureOf(ingest(t, "object"))
      expect(object.status).toBe("NOT_IMPLEMENTED")
      expect(object.message).toContain("blob, json or nvarchar2")
      expect(failureOf(bind(t)).status).toBe("NOT_IMPLEMENTED")
    }
  })

  it("a created column read back maps to a type that holds the ingested values", () => {
    // Ingest DDL type -> describe -> Arrow type: decimals keep precision and scale, small ints become int64.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 38 }), fc.integer({ min: 0, max: 38 }), (p, s) => {
        fc.pre(s <= p)
        const ddl = Result.getOrThrow(ingest(new Arrow.Decimal(s, p, 128)))
        const [, dp, ds] = /NUMBER\((\d+),(\d+)\)/.exec(ddl)!
        const back = mapped(number(Number(dp), Number(ds))).field.type
        if (s === 0 && p <= 18) expect(String(back)).toBe("Int64")
        else expect((back as Arrow.Decimal).scale).toBe(s)
      })
    )
  })
})
