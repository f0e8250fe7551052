import { describe, expect, it } from "@effect/vitest"
import { Decimal, Field, Int32, List, Schema, tableFromIPC, tableToIPC, Table, Utf8 } from "apache-arrow"
import * as Catalog from "../../src/catalog/index.ts"
import { describeField, roundTrip, tableRows } from "./arrowPlain.ts"

/** Schema-only IPC round trip (an empty table keeps the schema and its metadata). */
const schemaRoundTrip = (schema: Schema): Schema => tableFromIPC(tableToIPC(new Table(schema), "stream")).schema

describe("GetTableTypes", () => {
  it("has exactly the ADBC schema: table_type utf8 not null", () => {
    expect(Catalog.GET_TABLE_TYPES_SCHEMA.fields.map(describeField)).toEqual([
      { name: "table_type", type: "utf8", nullable: false }
    ])
  })

  it("lists the driver's types in order, each once, through IPC", () => {
    const table = roundTrip(Catalog.buildTableTypes(["TABLE", "VIEW", "TABLE", "GLOBAL TEMPORARY"]))
    expect(tableRows(table)).toEqual([{ table_type: "TABLE" }, { table_type: "VIEW" }, { table_type: "GLOBAL TEMPORARY" }])
    expect(table.schema.fields.map(describeField)).toEqual([{ name: "table_type", type: "utf8", nullable: false }])
  })

  it("returns an empty result for no types and rejects non-strings", () => {
    expect(Catalog.buildTableTypes([]).numRows).toBe(0)
    expect(() => Catalog.buildTableTypes([null as never])).toThrow(Catalog.CatalogError)
  })
})

describe("GetParameterSchema", () => {
  it("names unnamed parameters '' and types unknown ones as Null", () => {
    const schema = Catalog.buildParameterSchema([
      { name: "id", type: new Int32() },
      {},
      { name: null, type: null },
      { name: "price", type: new Decimal(2, 10, 128), nullable: false, metadata: new Map([["ORACLE:type", "NUMBER"]]) }
    ])
    // Compared in memory: apache-arrow 21's IPC writer omits an empty field name and its reader then returns
    // the string "null", so "" cannot be checked after a JS-to-JS IPC round trip.
    expect(schema.fields.map(describeField)).toEqual([
      { name: "id", type: "int32", nullable: true },
      { name: "", type: "null", nullable: true },
      { name: "", type: "null", nullable: true },
      { name: "price", type: "other(Decimal[10e+2])", nullable: false }
    ])
    const back = schemaRoundTrip(schema)
    expect(back.fields[3]!.type).toMatchObject({ scale: 2, precision: 10, bitWidth: 128 })
    expect(back.fields[3]!.metadata.get("ORACLE:type")).toBe("NUMBER")
    expect(back.fields.map((f) => f.typeId)).toEqual(schema.fields.map((f) => f.typeId))
  })

  it("describes a statement without parameters as an empty schema", () => {
    expect(Catalog.buildParameterSchema([]).fields).toEqual([])
  })
})

describe("GetTableSchema", () => {
  it("keeps order, names, types, nullability and metadata", () => {
    const schema = Catalog.buildTableSchema(
      [
        { name: "ID", type: new Int32(), nullable: false },
        { name: "TAGS", type: new List(new Field("item", new Utf8(), true)), metadata: new Map([["hana.type-name", "ARRAY"]]) }
      ],
      new Map([["table", "T"]])
    )
    const back = schemaRoundTrip(schema)
    expect(back.fields.map(describeField)).toEqual([
      { name: "ID", type: "int32", nullable: false },
      { name: "TAGS", type: "list", nullable: true, children: [{ name: "item", type: "utf8", nullable: true }] }
    ])
    expect(back.fields[1]!.metadata.get("hana.type-name")).toBe("ARRAY")
    expect(back.metadata.get("table")).toBe("T")
  })
})

describe("catalog index", () => {
  it("re-exports the public API", () => {
    expect(Object.keys(Catalog).sort()).toEqual(
      [
        "AdbcVersion",
        "COLUMN_SCHEMA",
        "CONSTRAINT_SCHEMA",
        "CONSTRAINT_TYPES",
        "CatalogError",
        "DB_SCHEMA_SCHEMA",
        "GET_INFO_SCHEMA",
        "GET_OBJECTS_SCHEMA",
        "GET_TABLE_TYPES_SCHEMA",
        "InfoCode",
        "InfoValue",
        "InfoValueType",
        "InfoValueTypeId",
        "ObjectDepth",
        "TABLE_SCHEMA",
        "USAGE_SCHEMA",
        "buildGetInfo",
        "columnRowFromField",
        "XdbcDataType",
        "xdbcDataTypeOf",
        "XdbcNullable",
        "buildGetStatisticNames",
        "buildGetStatistics",
        "GET_STATISTIC_NAMES_SCHEMA",
        "GET_STATISTICS_SCHEMA",
        "StandardStatistic",
        "STATISTICS_DB_SCHEMA_SCHEMA",
        "STATISTICS_SCHEMA",
        "StatisticValueType",
        "buildGetObjects",
        "buildParameterSchema",
        "buildTableSchema",
        "buildTableTypes",
        "compilePattern",
        "isCatalogError",
        "isObjectDepth",
        "matchesPattern",
        "objectDepthLevels",
        "patternPushdown",
        "patternToRegExpSource"
      ].sort()
    )
  })
})
