import { describe, expect, it } from "@effect/vitest"
import {
  Binary,
  Bool,
  DateDay,
  Decimal,
  Dictionary,
  Field,
  FixedSizeBinary,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  List,
  Null,
  Struct,
  TimeMicrosecond,
  TimestampMicrosecond,
  Uint64,
  Utf8
} from "apache-arrow"
import { buildGetObjects } from "../../src/catalog/GetObjects.ts"
import { columnRowFromField, XdbcDataType, xdbcDataTypeOf } from "../../src/catalog/Xdbc.ts"
import { roundTrip, tableRows } from "./arrowPlain.ts"

describe("xdbcDataTypeOf", () => {
  it("maps Arrow types to JDBC/ODBC codes like the ADBC Go driverbase", () => {
    const cases: Array<[string, Parameters<typeof xdbcDataTypeOf>[0], number]> = [
      ["int8", new Int8(), -6],
      ["int16", new Int16(), 5],
      ["int32", new Int32(), 4],
      ["int64", new Int64(), -5],
      ["uint64", new Uint64(), -5],
      ["float32", new Float32(), 6],
      ["float64", new Float64(), 6],
      ["decimal", new Decimal(2, 10, 128), 3],
      ["utf8", new Utf8(), 12],
      ["binary", new Binary(), -2],
      ["fixed binary", new FixedSizeBinary(16), -2],
      ["bool", new Bool(), -7],
      ["time", new TimeMicrosecond(), 92],
      ["date", new DateDay(), 91],
      ["timestamp", new TimestampMicrosecond("UTC"), 93],
      ["list", new List(new Field("item", new Int32(), true)), -3],
      ["struct", new Struct([new Field("a", new Int32(), true)]), -3],
      ["dictionary", new Dictionary(new Utf8(), new Int32()), 12],
      ["null", new Null(), 0]
    ]
    expect(cases.map(([name, type]) => [name, xdbcDataTypeOf(type)])).toEqual(cases.map(([name, , code]) => [name, code]))
    expect(XdbcDataType).toMatchObject({ VARCHAR: 12, BIGINT: -5, TIMESTAMP: 93, WVARCHAR: -9 })
  })
})

describe("columnRowFromField", () => {
  it("fills name, position, type codes, nullability and the vendor type name", () => {
    const loc = { catalog: "db", schema: "S", table: "T" }
    const id = columnRowFromField(loc, new Field("ID", new Int64(), false), 1)
    const name = columnRowFromField(
      loc,
      new Field("NAME", new Utf8(), true, new Map([["hana.type-name", "NVARCHAR"]])),
      2,
      { typeNameKey: "hana.type-name", extra: { xdbcColumnSize: 100, remarks: "customer name" } }
    )
    const result = tableRows(
      roundTrip(
        buildGetObjects(0, {}, {
          catalogs: ["db"],
          schemas: [{ catalog: "db", schema: "S" }],
          tables: [{ catalog: "db", schema: "S", name: "T", type: "TABLE" }],
          columns: [name, id]
        })
      )
    )
    const columns = (result[0] as { catalog_db_schemas: Array<{ db_schema_tables: Array<{ table_columns: Array<Record<string, unknown>> }> }> })
      .catalog_db_schemas[0]!.db_schema_tables[0]!.table_columns
    expect(columns.map((c) => [c.column_name, c.ordinal_position, c.xdbc_data_type, c.xdbc_sql_data_type, c.xdbc_nullable, c.xdbc_is_nullable, c.xdbc_type_name, c.xdbc_column_size, c.remarks])).toEqual([
      ["ID", 1, -5, -5, 0, "NO", null, null, null],
      ["NAME", 2, 12, 12, 1, "YES", "NVARCHAR", 100, "customer name"]
    ])
  })
})
