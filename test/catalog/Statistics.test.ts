import { describe, expect, it } from "@effect/vitest"
import { isCatalogError } from "../../src/catalog/CatalogError.ts"
import {
  buildGetStatisticNames,
  buildGetStatistics,
  GET_STATISTIC_NAMES_SCHEMA,
  GET_STATISTICS_SCHEMA,
  StandardStatistic,
  type StatisticRow
} from "../../src/catalog/Statistics.ts"
import { describeField, type FieldSpec, roundTrip, tableRows } from "./arrowPlain.ts"

// Written out from adbc.h (AdbcConnectionGetStatistics) independently of src/catalog/Statistics.ts.
const STATISTICS_SPEC: ReadonlyArray<FieldSpec> = [
  { name: "table_name", type: "utf8", nullable: false },
  { name: "column_name", type: "utf8", nullable: true },
  { name: "statistic_key", type: "int16", nullable: false },
  {
    name: "statistic_value",
    type: "dense_union[0,1,2,3]",
    nullable: false,
    children: [
      { name: "int64", type: "int64", nullable: true },
      { name: "uint64", type: "uint64", nullable: true },
      { name: "float64", type: "float64", nullable: true },
      { name: "binary", type: "binary", nullable: true }
    ]
  },
  { name: "statistic_is_approximate", type: "bool", nullable: false }
]
const GET_STATISTICS_SPEC: ReadonlyArray<FieldSpec> = [
  { name: "catalog_name", type: "utf8", nullable: true },
  {
    name: "catalog_db_schemas",
    type: "list",
    nullable: false,
    children: [
      {
        name: "item",
        type: "struct",
        nullable: true,
        children: [
          { name: "db_schema_name", type: "utf8", nullable: true },
          {
            name: "db_schema_statistics",
            type: "list",
            nullable: false,
            children: [{ name: "item", type: "struct", nullable: true, children: STATISTICS_SPEC }]
          }
        ]
      }
    ]
  }
]

const stat = (
  schema: string,
  table: string,
  column: string | null,
  key: number,
  value: StatisticRow["value"],
  approximate = true
): StatisticRow => ({ catalog: "db", schema, table, column, key, value, approximate })

const rows: Array<StatisticRow> = [
  stat("SALES", "orders", "id", StandardStatistic.DISTINCT_COUNT.key, { _tag: "int64", value: 10n }),
  stat("SALES", "orders", null, StandardStatistic.ROW_COUNT.key, { _tag: "int64", value: 10n }, false),
  stat("SALES", "orders", "id", StandardStatistic.AVERAGE_BYTE_WIDTH.key, { _tag: "float64", value: 8.5 }),
  stat("HR", "emp", "name", StandardStatistic.MAX_VALUE.key, { _tag: "binary", value: new Uint8Array([0x5a, 0x00]) }),
  stat("HR", "emp", null, 2000, { _tag: "uint64", value: 2n ** 64n - 1n })
]

describe("GetStatistics", () => {
  it("has exactly the ADBC schemas", () => {
    expect(GET_STATISTICS_SCHEMA.fields.map(describeField)).toEqual(GET_STATISTICS_SPEC)
    expect(GET_STATISTIC_NAMES_SCHEMA.fields.map(describeField)).toEqual([
      { name: "statistic_name", type: "utf8", nullable: false },
      { name: "statistic_key", type: "int16", nullable: false }
    ])
  })

  it("defines the standard statistic keys and names", () => {
    expect(Object.values(StandardStatistic).map(({ key, name }) => [key, name])).toEqual([
      [0, "adbc.statistic.byte_width"],
      [1, "adbc.statistic.distinct_count"],
      [2, "adbc.statistic.max_byte_width"],
      [3, "adbc.statistic.max_value"],
      [4, "adbc.statistic.min_value"],
      [5, "adbc.statistic.null_count"],
      [6, "adbc.statistic.row_count"]
    ])
  })

  it("groups, orders and round-trips every value member through IPC", () => {
    const table = roundTrip(buildGetStatistics({}, rows))
    expect(table.schema.fields.map(describeField)).toEqual(GET_STATISTICS_SPEC)
    const plain = tableRows(table)
    const s = (table_name: string, column_name: string | null, statistic_key: number, statistic_value: unknown, approximate = true) => ({
      table_name,
      column_name,
      statistic_key,
      statistic_value,
      statistic_is_approximate: approximate
    })
    expect(plain).toEqual([
      {
        catalog_name: "db",
        catalog_db_schemas: [
          {
            db_schema_name: "HR",
            db_schema_statistics: [s("emp", null, 2000, 2n ** 64n - 1n), s("emp", "name", 3, new Uint8Array([0x5a, 0x00]))]
          },
          {
            db_schema_name: "SALES",
            db_schema_statistics: [s("orders", null, 6, 10n, false), s("orders", "id", 0, 8.5), s("orders", "id", 1, 10n)]
          }
        ]
      }
    ])
    const union = table.getChild("catalog_db_schemas")!.data[0]!.children[0]!.children[1]!.children[0]!.children[3]!
    expect(Array.from(union.typeIds.subarray(union.offset, union.offset + union.length))).toEqual([1, 3, 0, 2, 0])
  })

  it("applies catalog, schema and table patterns; an empty result keeps the schema", () => {
    const tables = (filters: Parameters<typeof buildGetStatistics>[0]) =>
      tableRows(roundTrip(buildGetStatistics(filters, rows))).flatMap((c) =>
        (c.catalog_db_schemas as Array<{ db_schema_statistics: Array<{ table_name: string }> }>).flatMap((d) =>
          d.db_schema_statistics.map((x) => x.table_name)
        )
      )
    expect(tables({ dbSchema: "S%" })).toEqual(["orders", "orders", "orders"])
    expect(tables({ tableName: "e_p" })).toEqual(["emp", "emp"])
    expect(tables({ catalog: "x" })).toEqual([])
    const empty = roundTrip(buildGetStatistics({ catalog: "x" }, rows))
    expect(empty.numRows).toBe(0)
    expect(empty.schema.fields.map(describeField)).toEqual(GET_STATISTICS_SPEC)
  })

  it("rejects rows the schema cannot hold", () => {
    const bad: Array<StatisticRow> = [
      stat("S", "t", null, 40_000, { _tag: "int64", value: 1n }),
      stat("S", "t", null, 6, { _tag: "uint64", value: -1n }),
      stat("S", "t", null, 6, { _tag: "int64", value: 2n ** 63n }),
      stat("S", "t", null, 6, { _tag: "float64", value: 1n as never })
    ]
    for (const row of bad) {
      let thrown: unknown
      try {
        buildGetStatistics({}, [row])
      } catch (e) {
        thrown = e
      }
      expect(isCatalogError(thrown) && thrown.kind).toBe("invalid-row")
    }
  })
})

describe("GetStatisticNames", () => {
  it("lists driver-specific statistics through IPC", () => {
    const table = roundTrip(buildGetStatisticNames([{ name: "hana.statistic.partitions", key: 1024 }]))
    expect(tableRows(table)).toEqual([{ statistic_name: "hana.statistic.partitions", statistic_key: 1024 }])
    expect(() => buildGetStatisticNames([{ name: "x", key: 1 << 15 }])).toThrow(/GetStatisticNames/)
  })
})
