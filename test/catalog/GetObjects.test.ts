import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { isCatalogError } from "../../src/catalog/CatalogError.ts"
import {
  buildGetObjects,
  type CatalogRows,
  type ColumnRow,
  type ConstraintRow,
  type GetObjectsFilters
} from "../../src/catalog/GetObjects.ts"
import { GET_OBJECTS_SCHEMA, ObjectDepth, objectDepthLevels } from "../../src/catalog/GetObjectsSchema.ts"
import { batchRows, describeField, type FieldSpec, roundTrip, tableRows } from "./arrowPlain.ts"

// ---------------------------------------------------------------------------------------------------------------
// The ADBC 1.1 GetObjects schema, written out from adbc.h independently of src/catalog/GetObjectsSchema.ts.
const utf8 = (name: string, nullable = true): FieldSpec => ({ name, type: "utf8", nullable })
const int16 = (name: string): FieldSpec => ({ name, type: "int16", nullable: true })
const int32 = (name: string): FieldSpec => ({ name, type: "int32", nullable: true })
const bool = (name: string): FieldSpec => ({ name, type: "bool", nullable: true })
const listOf = (name: string, nullable: boolean, item: Omit<FieldSpec, "name" | "nullable">): FieldSpec => ({
  name,
  type: "list",
  nullable,
  children: [{ name: "item", nullable: true, ...item }]
})

const USAGE_SPEC = [utf8("fk_catalog"), utf8("fk_db_schema"), utf8("fk_table", false), utf8("fk_column_name", false)]
const CONSTRAINT_SPEC = [
  utf8("constraint_name"),
  utf8("constraint_type", false),
  listOf("constraint_column_names", false, { type: "utf8" }),
  listOf("constraint_column_usage", true, { type: "struct", children: USAGE_SPEC })
]
const COLUMN_SPEC = [
  utf8("column_name", false),
  int32("ordinal_position"),
  utf8("remarks"),
  int16("xdbc_data_type"),
  utf8("xdbc_type_name"),
  int32("xdbc_column_size"),
  int16("xdbc_decimal_digits"),
  int16("xdbc_num_prec_radix"),
  int16("xdbc_nullable"),
  utf8("xdbc_column_def"),
  int16("xdbc_sql_data_type"),
  int16("xdbc_datetime_sub"),
  int32("xdbc_char_octet_length"),
  utf8("xdbc_is_nullable"),
  utf8("xdbc_scope_catalog"),
  utf8("xdbc_scope_schema"),
  utf8("xdbc_scope_table"),
  bool("xdbc_is_autoincrement"),
  bool("xdbc_is_generatedcolumn")
]
const TABLE_SPEC = [
  utf8("table_name", false),
  utf8("table_type", false),
  listOf("table_columns", true, { type: "struct", children: COLUMN_SPEC }),
  listOf("table_constraints", true, { type: "struct", children: CONSTRAINT_SPEC })
]
const DB_SCHEMA_SPEC = [utf8("db_schema_name"), listOf("db_schema_tables", true, { type: "struct", children: TABLE_SPEC })]
const GET_OBJECTS_SPEC = [utf8("catalog_name"), listOf("catalog_db_schemas", true, { type: "struct", children: DB_SCHEMA_SPEC })]

// ---------------------------------------------------------------------------------------------------------------
// A small catalog, deliberately listed out of order and with a duplicate.
const col = (table: string, name: string, ordinalPosition: number, extra: Partial<ColumnRow> = {}): ColumnRow => ({
  catalog: "db",
  schema: "SALES",
  table,
  name,
  ordinalPosition,
  ...extra
})

const rows: CatalogRows = {
  catalogs: ["other", "db", "db"],
  schemas: [
    { catalog: "db", schema: "SYSTEM" },
    { catalog: "db", schema: "SALES" },
    { catalog: "other", schema: "X" },
    { catalog: "db", schema: "SALES" },
    { catalog: "missing", schema: "ORPHAN" }
  ],
  tables: [
    { catalog: "db", schema: "SALES", name: "orders", type: "TABLE" },
    { catalog: "db", schema: "SALES", name: "bulk_ingest", type: "TABLE" },
    { catalog: "db", schema: "SALES", name: "v_orders", type: "VIEW" },
    { catalog: "db", schema: "SYSTEM", name: "bulkXingest", type: "TABLE" },
    { catalog: "other", schema: "X", name: "t", type: "TABLE" },
    { catalog: "db", schema: "NOPE", name: "orphan", type: "TABLE" }
  ],
  columns: [
    col("bulk_ingest", "strings", 2, { xdbcTypeName: "NVARCHAR", xdbcColumnSize: 5000, xdbcNullable: 1, xdbcIsNullable: "YES" }),
    col("bulk_ingest", "int64s", 1, {
      remarks: "the key",
      xdbcDataType: -5,
      xdbcTypeName: "BIGINT",
      xdbcColumnSize: 19,
      xdbcDecimalDigits: 0,
      xdbcNumPrecRadix: 10,
      xdbcNullable: 0,
      xdbcColumnDef: "0",
      xdbcSqlDataType: -5,
      xdbcDatetimeSub: null,
      xdbcCharOctetLength: 8,
      xdbcIsNullable: "NO",
      xdbcScopeCatalog: "sc",
      xdbcScopeSchema: "ss",
      xdbcScopeTable: "st",
      xdbcIsAutoincrement: true,
      xdbcIsGeneratedcolumn: false
    }),
    col("orders", "id", 1),
    col("orders", "customer", 2),
    col("v_orders", "id", 1),
    col("nope", "ghost", 1)
  ],
  constraints: [
    {
      catalog: "db",
      schema: "SALES",
      table: "orders",
      name: "fk_orders_bulk",
      type: "FOREIGN KEY",
      columns: ["customer"],
      usage: [{ fkCatalog: "db", fkDbSchema: "SALES", fkTable: "bulk_ingest", fkColumnName: "int64s" }]
    },
    { catalog: "db", schema: "SALES", table: "orders", name: null, type: "CHECK", columns: [] },
    { catalog: "db", schema: "SALES", table: "orders", name: "pk_orders", type: "PRIMARY KEY", columns: ["id"] },
    { catalog: "db", schema: "SALES", table: "bulk_ingest", name: "pk_bulk", type: "PRIMARY KEY", columns: ["int64s"], usage: [] }
  ]
}

const nullXdbc = {
  remarks: null,
  xdbc_data_type: null,
  xdbc_type_name: null,
  xdbc_column_size: null,
  xdbc_decimal_digits: null,
  xdbc_num_prec_radix: null,
  xdbc_nullable: null,
  xdbc_column_def: null,
  xdbc_sql_data_type: null,
  xdbc_datetime_sub: null,
  xdbc_char_octet_length: null,
  xdbc_is_nullable: null,
  xdbc_scope_catalog: null,
  xdbc_scope_schema: null,
  xdbc_scope_table: null,
  xdbc_is_autoincrement: null,
  xdbc_is_generatedcolumn: null
}
const plainColumn = (name: string, ordinal: number, extra: Record<string, unknown> = {}) => ({
  column_name: name,
  ordinal_position: ordinal,
  ...nullXdbc,
  ...extra
})

const expectedAll = [
  {
    catalog_name: "db",
    catalog_db_schemas: [
      {
        db_schema_name: "SALES",
        db_schema_tables: [
          {
            table_name: "bulk_ingest",
            table_type: "TABLE",
            table_columns: [
              plainColumn("int64s", 1, {
                remarks: "the key",
                xdbc_data_type: -5,
                xdbc_type_name: "BIGINT",
                xdbc_column_size: 19,
                xdbc_decimal_digits: 0,
                xdbc_num_prec_radix: 10,
                xdbc_nullable: 0,
                xdbc_column_def: "0",
                xdbc_sql_data_type: -5,
                xdbc_char_octet_length: 8,
                xdbc_is_nullable: "NO",
                xdbc_scope_catalog: "sc",
                xdbc_scope_schema: "ss",
                xdbc_scope_table: "st",
                xdbc_is_autoincrement: true,
                xdbc_is_generatedcolumn: false
              }),
              plainColumn("strings", 2, {
                xdbc_type_name: "NVARCHAR",
                xdbc_column_size: 5000,
                xdbc_nullable: 1,
                xdbc_is_nullable: "YES"
              })
            ],
            table_constraints: [
              {
                constraint_name: "pk_bulk",
                constraint_type: "PRIMARY KEY",
                constraint_column_names: ["int64s"],
                constraint_column_usage: []
              }
            ]
          },
          {
            table_name: "orders",
            table_type: "TABLE",
            table_columns: [plainColumn("id", 1), plainColumn("customer", 2)],
            table_constraints: [
              {
                constraint_name: "fk_orders_bulk",
                constraint_type: "FOREIGN KEY",
                constraint_column_names: ["customer"],
                constraint_column_usage: [
                  { fk_catalog: "db", fk_db_schema: "SALES", fk_table: "bulk_ingest", fk_column_name: "int64s" }
                ]
              },
              {
                constraint_name: "pk_orders",
                constraint_type: "PRIMARY KEY",
                constraint_column_names: ["id"],
                constraint_column_usage: null
              },
              { constraint_name: null, constraint_type: "CHECK", constraint_column_names: [], constraint_column_usage: null }
            ]
          },
          { table_name: "v_orders", table_type: "VIEW", table_columns: [plainColumn("id", 1)], table_constraints: [] }
        ]
      },
      {
        db_schema_name: "SYSTEM",
        db_schema_tables: [{ table_name: "bulkXingest", table_type: "TABLE", table_columns: [], table_constraints: [] }]
      }
    ]
  },
  {
    catalog_name: "other",
    catalog_db_schemas: [
      { db_schema_name: "X", db_schema_tables: [{ table_name: "t", table_type: "TABLE", table_columns: [], table_constraints: [] }] }
    ]
  }
]

type PlainCatalog = (typeof expectedAll)[number]
const build = (depth: number, filters: GetObjectsFilters = {}, input: CatalogRows = rows) =>
  tableRows(roundTrip(buildGetObjects(depth, filters, input))) as unknown as Array<PlainCatalog>

/** [catalog, schema, table, column] paths present in a result, for filter assertions. */
const paths = (result: ReadonlyArray<PlainCatalog>): Array<string> =>
  result.flatMap((c) =>
    (c.catalog_db_schemas ?? []).flatMap((s) =>
      (s.db_schema_tables ?? []).flatMap((t) =>
        (t.table_columns ?? []).length === 0
          ? [`${c.catalog_name}/${s.db_schema_name}/${t.table_name}`]
          : (t.table_columns ?? []).map((k) => `${c.catalog_name}/${s.db_schema_name}/${t.table_name}/${k.column_name}`)
      )
    )
  )

describe("GetObjects schema", () => {
  it("matches the ADBC definition field by field", () => {
    expect(GET_OBJECTS_SCHEMA.fields.map(describeField)).toEqual(GET_OBJECTS_SPEC)
  })

  it("keeps the schema through IPC at every depth, also for empty results", () => {
    for (const depth of [0, 1, 2, 3]) {
      for (const input of [rows, { catalogs: [] }]) {
        const table = roundTrip(buildGetObjects(depth, {}, input))
        expect(table.schema.fields.map(describeField)).toEqual(GET_OBJECTS_SPEC)
      }
    }
  })

  it("defines the depth constants and the levels each depth lists", () => {
    expect(ObjectDepth).toEqual({ ALL: 0, CATALOGS: 1, DB_SCHEMAS: 2, TABLES: 3, COLUMNS: 0 })
    expect([1, 2, 3, 0].map((d) => objectDepthLevels(d as 0 | 1 | 2 | 3))).toEqual([
      { schemas: false, tables: false, columns: false },
      { schemas: true, tables: false, columns: false },
      { schemas: true, tables: true, columns: false },
      { schemas: true, tables: true, columns: true }
    ])
  })
})

describe("GetObjects depth", () => {
  it("ALL: full nested result, deterministic order, IPC round trip", () => {
    expect(build(ObjectDepth.ALL)).toEqual(expectedAll)
  })

  it("CATALOGS: catalog_db_schemas is null", () => {
    expect(build(ObjectDepth.CATALOGS)).toEqual([
      { catalog_name: "db", catalog_db_schemas: null },
      { catalog_name: "other", catalog_db_schemas: null }
    ])
  })

  it("DB_SCHEMAS: schema lists present, db_schema_tables null", () => {
    expect(build(ObjectDepth.DB_SCHEMAS)).toEqual([
      {
        catalog_name: "db",
        catalog_db_schemas: [
          { db_schema_name: "SALES", db_schema_tables: null },
          { db_schema_name: "SYSTEM", db_schema_tables: null }
        ]
      },
      { catalog_name: "other", catalog_db_schemas: [{ db_schema_name: "X", db_schema_tables: null }] }
    ])
  })

  it("TABLES: table lists present, table_columns and table_constraints null", () => {
    const result = build(ObjectDepth.TABLES)
    const strip = expectedAll.map((c) => ({
      ...c,
      catalog_db_schemas: c.catalog_db_schemas.map((s) => ({
        ...s,
        db_schema_tables: s.db_schema_tables.map((t) => ({ ...t, table_columns: null, table_constraints: null }))
      }))
    }))
    expect(result).toEqual(strip)
  })

  it("reads only the levels the depth needs", () => {
    const throwing = (level: string) => ({
      get length(): number {
        throw new Error(`${level} read`)
      }
    })
    const lazy = {
      catalogs: ["db"],
      get schemas() {
        return throwing("schemas") as never
      }
    }
    expect(build(ObjectDepth.CATALOGS, {}, lazy)).toEqual([{ catalog_name: "db", catalog_db_schemas: null }])
  })

  it("rejects an unknown depth with an invalid-argument CatalogError", () => {
    for (const depth of [4, -1, 0.5, Number.NaN]) {
      let thrown: unknown
      try {
        buildGetObjects(depth, {}, rows)
      } catch (e) {
        thrown = e
      }
      expect(isCatalogError(thrown) && thrown.kind).toBe("invalid-argument")
      expect(String(thrown)).toMatch(/unknown depth/)
    }
  })
})

describe("GetObjects filters", () => {
  it("catalog pattern", () => {
    expect(build(ObjectDepth.CATALOGS, { catalog: "d%" }).map((c) => c.catalog_name)).toEqual(["db"])
    expect(build(ObjectDepth.CATALOGS, { catalog: "_b" }).map((c) => c.catalog_name)).toEqual(["db"])
    expect(build(ObjectDepth.CATALOGS, { catalog: "DB" })).toEqual([])
    expect(build(ObjectDepth.CATALOGS, { catalog: "this catalog does not exist" })).toEqual([])
  })

  it('catalog "" lists only objects without a catalog', () => {
    const input: CatalogRows = {
      catalogs: [null, "db"],
      schemas: [{ catalog: null, schema: "main" }, { catalog: "db", schema: "S" }]
    }
    expect(build(ObjectDepth.DB_SCHEMAS, { catalog: "" }, input)).toEqual([
      { catalog_name: null, catalog_db_schemas: [{ db_schema_name: "main", db_schema_tables: null }] }
    ])
    expect(build(ObjectDepth.DB_SCHEMAS, { catalog: "%" }, input).map((c) => c.catalog_name)).toEqual(["db"])
    expect(build(ObjectDepth.DB_SCHEMAS, {}, input).map((c) => c.catalog_name)).toEqual([null, "db"])
  })

  it('db_schema "" lists only objects without a schema', () => {
    const input: CatalogRows = {
      catalogs: ["db"],
      schemas: [{ catalog: "db", schema: null }, { catalog: "db", schema: "S" }]
    }
    expect(build(ObjectDepth.DB_SCHEMAS, { dbSchema: "" }, input)).toEqual([
      { catalog_name: "db", catalog_db_schemas: [{ db_schema_name: null, db_schema_tables: null }] }
    ])
  })

  it("schema pattern keeps catalogs without matching schemas, with an empty list", () => {
    expect(build(ObjectDepth.DB_SCHEMAS, { dbSchema: "this schema does not exist" })).toEqual([
      { catalog_name: "db", catalog_db_schemas: [] },
      { catalog_name: "other", catalog_db_schemas: [] }
    ])
    expect(paths(build(ObjectDepth.ALL, { dbSchema: "S_S%" }))).toEqual(["db/SYSTEM/bulkXingest"])
  })

  it("table pattern keeps schemas without matching tables, with an empty list", () => {
    const result = build(ObjectDepth.TABLES, { tableName: "bulk_%" })
    expect(paths(result)).toEqual(["db/SALES/bulk_ingest", "db/SYSTEM/bulkXingest"])
    expect(result[1]).toEqual({ catalog_name: "other", catalog_db_schemas: [{ db_schema_name: "X", db_schema_tables: [] }] })
    expect(paths(build(ObjectDepth.TABLES, { tableName: "asdf%" }))).toEqual([])
    expect(paths(build(ObjectDepth.TABLES, { tableName: "bulk\\_%" }))).toEqual([])
  })

  it("table types match exactly; empty list means no filter", () => {
    expect(paths(build(ObjectDepth.TABLES, { tableTypes: ["VIEW"] }))).toEqual(["db/SALES/v_orders"])
    expect(paths(build(ObjectDepth.TABLES, { tableTypes: ["view"] }))).toEqual([])
    expect(paths(build(ObjectDepth.TABLES, { tableTypes: ["this_table_type_does_not_exist"] }))).toEqual([])
    expect(paths(build(ObjectDepth.TABLES, { tableTypes: [] }))).toEqual(paths(build(ObjectDepth.TABLES)))
    expect(paths(build(ObjectDepth.TABLES, { tableTypes: ["VIEW", "TABLE"] }))).toHaveLength(5)
  })

  it("column pattern filters columns only, keeping ordinal positions and constraints", () => {
    const result = build(ObjectDepth.ALL, { catalog: "db", dbSchema: "SALES", tableName: "bulk_ingest", columnName: "in%" })
    const table = result[0]!.catalog_db_schemas[0]!.db_schema_tables[0]!
    expect(table.table_columns.map((c) => [c.column_name, c.ordinal_position])).toEqual([["int64s", 1]])
    expect(table.table_constraints).toHaveLength(1)
    const none = build(ObjectDepth.ALL, { tableName: "bulk_ingest", columnName: "%z%" })
    expect(none[0]!.catalog_db_schemas[0]!.db_schema_tables[0]!.table_columns).toEqual([])
    const second = build(ObjectDepth.ALL, { tableName: "bulk_ingest", columnName: "%s_r%" })
    expect(second[0]!.catalog_db_schemas[0]!.db_schema_tables[0]!.table_columns.map((c) => c.ordinal_position)).toEqual([2])
  })

  it("the column filter is ignored above depth ALL", () => {
    expect(build(ObjectDepth.TABLES, { columnName: "nothing" })).toEqual(build(ObjectDepth.TABLES))
  })
})

describe("GetObjects ordering and input handling", () => {
  it("orders the same regardless of input order (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0 }),
        (seed) => {
          const shuffle = <A>(xs: ReadonlyArray<A> | undefined): Array<A> => {
            const out = [...(xs ?? [])]
            let s = seed
            for (let i = out.length - 1; i > 0; i--) {
              s = (s * 1103515245 + 12345) & 0x7fffffff
              const j = s % (i + 1)
              ;[out[i], out[j]] = [out[j]!, out[i]!]
            }
            return out
          }
          // Shuffling keeps ties between identical keys out of the picture: the fixture's duplicates are equal.
          const shuffled: CatalogRows = {
            catalogs: shuffle(rows.catalogs),
            schemas: shuffle(rows.schemas),
            tables: shuffle(rows.tables),
            columns: shuffle(rows.columns),
            constraints: shuffle(rows.constraints)
          }
          expect(batchRows(buildGetObjects(0, {}, shuffled))).toEqual(expectedAll)
        }
      ),
      { numRuns: 50 }
    )
  })

  it("rejects rows the schema cannot hold with an invalid-row CatalogError", () => {
    const bad: Array<CatalogRows> = [
      { ...rows, columns: [col("orders", "id", 2 ** 31)] },
      { ...rows, columns: [col("orders", "id", 1, { xdbcDataType: 40_000 })] },
      { ...rows, columns: [col("orders", "id", 1, { xdbcColumnSize: 1.5 })] },
      { ...rows, constraints: [{ ...(rows.constraints![0] as ConstraintRow), type: "KEY" as never }] },
      { ...rows, tables: [{ catalog: "db", schema: "SALES", name: null as never, type: "TABLE" }] }
    ]
    for (const input of bad) {
      let thrown: unknown
      try {
        buildGetObjects(ObjectDepth.ALL, {}, input)
      } catch (e) {
        thrown = e
      }
      expect(isCatalogError(thrown) && thrown.kind).toBe("invalid-row")
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Property: the set of objects returned equals a naive reference filter over random rows and patterns.
const name = fc.constantFrom("a", "b", "ab", "ba", "A", "a_b", "a%b", "")
const pattern = fc.option(fc.constantFrom("a", "b", "%", "_", "a%", "%b", "_b", "a_b", "A%", "", "%%", "a\\_b"), {
  nil: undefined
})

/** Reference LIKE without regexes: recursive backtracking over characters (inputs are ASCII here). */
const like = (p: string, s: string): boolean => {
  if (p.length === 0) return s.length === 0
  if (p[0] === "%") return like(p.slice(1), s) || (s.length > 0 && like(p, s.slice(1)))
  if (s.length === 0) return false
  return (p[0] === "_" || p[0] === s[0]) && like(p.slice(1), s.slice(1))
}
const refMatch = (p: string | undefined, s: string | null) =>
  p === undefined ? true : p === "" ? s === null || s === "" : s !== null && like(p, s)

describe("GetObjects filtering (property)", () => {
  it("returns exactly the objects a naive reference selects", () => {
    const catalogName = fc.option(name, { nil: null })
    fc.assert(
      fc.property(
        fc.uniqueArray(catalogName, { maxLength: 3 }),
        fc.array(fc.record({ catalog: catalogName, schema: fc.option(name, { nil: null }) }), { maxLength: 5 }),
        fc.array(fc.record({ name, type: fc.constantFrom("TABLE", "VIEW") }), { maxLength: 5 }),
        fc.array(name, { maxLength: 4 }),
        fc.record({ catalog: pattern, dbSchema: pattern, tableName: pattern, columnName: pattern }),
        fc.option(fc.subarray(["TABLE", "VIEW"]), { nil: undefined }),
        (catalogs, schemaRows, tableSeeds, columnNames, patterns, tableTypes) => {
          // Every table is placed in every schema row; every column in every table: keeps the generator small.
          const tables = schemaRows.flatMap((s) => tableSeeds.map((t) => ({ ...s, ...t })))
          const columns = tables.flatMap((t) =>
            columnNames.map((c, i) => ({ catalog: t.catalog, schema: t.schema, table: t.name, name: c, ordinalPosition: i + 1 }))
          )
          const filters: GetObjectsFilters = { ...patterns, tableTypes }
          const result = batchRows(
            buildGetObjects(0, filters, { catalogs, schemas: schemaRows, tables, columns })
          ) as unknown as Array<PlainCatalog>

          const got = new Set<string>()
          for (const c of result) {
            got.add(JSON.stringify([c.catalog_name]))
            for (const s of c.catalog_db_schemas) {
              got.add(JSON.stringify([c.catalog_name, s.db_schema_name]))
              for (const t of s.db_schema_tables) {
                got.add(JSON.stringify([c.catalog_name, s.db_schema_name, t.table_name, t.table_type]))
                for (const k of t.table_columns) {
                  got.add(JSON.stringify([c.catalog_name, s.db_schema_name, t.table_name, t.table_type, k.column_name, k.ordinal_position]))
                }
              }
            }
          }

          const expected = new Set<string>()
          const typeOk = (type: string) => tableTypes === undefined || tableTypes.length === 0 || tableTypes.includes(type)
          for (const c of catalogs.filter((c) => refMatch(patterns.catalog, c))) {
            expected.add(JSON.stringify([c]))
            for (const s of schemaRows.filter((s) => s.catalog === c && refMatch(patterns.dbSchema, s.schema))) {
              expected.add(JSON.stringify([c, s.schema]))
              const seen = new Set<string>()
              for (const t of tables.filter(
                (t) => t.catalog === c && t.schema === s.schema && refMatch(patterns.tableName, t.name) && typeOk(t.type)
              )) {
                if (seen.has(t.name)) continue // first table row of a name wins
                seen.add(t.name)
                expected.add(JSON.stringify([c, s.schema, t.name, t.type]))
                for (const k of columns.filter(
                  (k) => k.catalog === c && k.schema === s.schema && k.table === t.name && refMatch(patterns.columnName, k.name)
                )) {
                  expected.add(JSON.stringify([c, s.schema, t.name, t.type, k.name, k.ordinalPosition]))
                }
              }
            }
          }
          expect([...got].sort()).toEqual([...expected].sort())
        }
      ),
      { numRuns: 300 }
    )
  })
})
