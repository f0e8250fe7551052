import { describe, expect, it } from "@effect/vitest"
import type { Table } from "apache-arrow"
import { isCatalogError } from "../../src/catalog/CatalogError.ts"
import {
  AdbcVersion,
  buildGetInfo,
  GET_INFO_SCHEMA,
  InfoCode,
  InfoValue,
  type InfoValues
} from "../../src/catalog/GetInfo.ts"
import { describeField, type FieldSpec, roundTrip, tableRows } from "./arrowPlain.ts"

// Written out from adbc.h / c/validation TestMetadataGetInfo, independently of src/catalog/GetInfo.ts.
const GET_INFO_SPEC: ReadonlyArray<FieldSpec> = [
  { name: "info_name", type: "uint32", nullable: false },
  {
    name: "info_value",
    type: "dense_union[0,1,2,3,4,5]",
    nullable: true,
    children: [
      { name: "string_value", type: "utf8", nullable: true },
      { name: "bool_value", type: "bool", nullable: true },
      { name: "int64_value", type: "int64", nullable: true },
      { name: "int32_bitmask", type: "int32", nullable: true },
      { name: "string_list", type: "list", nullable: true, children: [{ name: "item", type: "utf8", nullable: true }] },
      {
        name: "int32_to_int32_list_map",
        type: "map(keysSorted=false)",
        nullable: true,
        children: [
          {
            name: "entries",
            type: "struct",
            nullable: false,
            children: [
              { name: "key", type: "int32", nullable: false },
              { name: "value", type: "list", nullable: true, children: [{ name: "item", type: "int32", nullable: true }] }
            ]
          }
        ]
      }
    ]
  }
]

const allBranches: InfoValues = new Map([
  [InfoCode.VENDOR_NAME, InfoValue.string("SAP HANA")],
  [InfoCode.VENDOR_SQL, InfoValue.bool(true)],
  [InfoCode.VENDOR_SUBSTRAIT, InfoValue.bool(false)],
  [InfoCode.DRIVER_ADBC_VERSION, InfoValue.int64(AdbcVersion.V1_1_0)],
  [9_000, InfoValue.int32Bitmask(-2_147_483_648)],
  [InfoCode.FEATURE_INGEST_MODES, InfoValue.stringList(["adbc.ingest.mode.create", "", "adbc.ingest.mode.append"])],
  [9_001, InfoValue.stringList([])],
  [9_002, InfoValue.int32ToInt32ListMap(new Map([[1, [2, 3]], [-4, []], [7, [2_147_483_647]]]))],
  [9_003, InfoValue.int32ToInt32ListMap(new Map())],
  [InfoCode.DRIVER_NAME, InfoValue.string("ADBC HANA Driver (effect-adbc) — ünïcode")]
])

/** Rows as [code, union type id, plain value]. */
const decoded = (table: Table) => {
  const typeIds = table.batches.flatMap((b) => Array.from(b.getChild("info_value")!.data[0]!.typeIds))
  return tableRows(table).map((row, i) => [row.info_name, typeIds[i], row.info_value])
}

describe("GetInfo", () => {
  it("has exactly the ADBC GetInfo schema", () => {
    expect(GET_INFO_SCHEMA.fields.map(describeField)).toEqual(GET_INFO_SPEC)
  })

  it("defines the ADBC 1.1 codes and the draft 1.2 feature codes", () => {
    expect(InfoCode).toMatchObject({
      VENDOR_NAME: 0,
      VENDOR_VERSION: 1,
      VENDOR_ARROW_VERSION: 2,
      VENDOR_SQL: 3,
      VENDOR_SUBSTRAIT: 4,
      VENDOR_SUBSTRAIT_MIN_VERSION: 5,
      VENDOR_SUBSTRAIT_MAX_VERSION: 6,
      DRIVER_NAME: 100,
      DRIVER_VERSION: 101,
      DRIVER_ARROW_VERSION: 102,
      DRIVER_ADBC_VERSION: 103,
      FEATURE_INGEST: 200,
      FEATURE_INGEST_MODES: 201,
      FEATURE_INGEST_TEMPORARY: 202,
      FEATURE_INGEST_TARGET_CATALOG: 203,
      FEATURE_INGEST_TARGET_SCHEMA: 204,
      FEATURE_OBJECTS: 220,
      FEATURE_TABLE_SCHEMA: 221,
      FEATURE_TABLE_TYPES: 222,
      FEATURE_TRANSACTIONS: 240,
      FEATURE_TRANSACTION_ISOLATION_LEVEL: 241,
      FEATURE_STATISTICS: 242,
      FEATURE_CURRENT_CATALOG: 243,
      FEATURE_CURRENT_DB_SCHEMA: 244,
      FEATURE_BIND: 245,
      FEATURE_EXECUTE_PARTITIONS: 246,
      FEATURE_EXECUTE_MULTI: 247,
      FEATURE_EXECUTE_SCHEMA: 248,
      FEATURE_PARAMETER_SCHEMA: 249,
      FEATURE_ERROR_METADATA: 250
    })
    expect(AdbcVersion).toEqual({ V1_0_0: 1_000_000n, V1_1_0: 1_001_000n, V1_2_0: 1_002_000n })
  })

  it("returns every known code in ascending order when no codes are requested", () => {
    for (const requested of [undefined, null, []]) {
      const codes = tableRows(roundTrip(buildGetInfo(allBranches, requested))).map((r) => r.info_name)
      expect(codes).toEqual([0, 3, 4, 100, 103, 201, 9_000, 9_001, 9_002, 9_003])
    }
  })

  it("round-trips every union branch through IPC with the right type ids and values", () => {
    const table = roundTrip(buildGetInfo(allBranches))
    expect(table.schema.fields.map(describeField)).toEqual(GET_INFO_SPEC)
    expect(decoded(table)).toEqual([
      [0, 0, "SAP HANA"],
      [3, 1, true],
      [4, 1, false],
      [100, 0, "ADBC HANA Driver (effect-adbc) — ünïcode"],
      [103, 2, 1_001_000n],
      [201, 4, ["adbc.ingest.mode.create", "", "adbc.ingest.mode.append"]],
      [9_000, 3, -2_147_483_648],
      [9_001, 4, []],
      [9_002, 5, { "1": [2, 3], "-4": [], "7": [2_147_483_647] }],
      [9_003, 5, {}]
    ])
  })

  it("returns requested codes in request order, each once, omitting unknown codes", () => {
    const table = roundTrip(
      buildGetInfo(allBranches, [InfoCode.DRIVER_ADBC_VERSION, 42, InfoCode.VENDOR_NAME, 103, 4_000_000_000])
    )
    expect(decoded(table)).toEqual([
      [103, 2, 1_001_000n],
      [0, 0, "SAP HANA"]
    ])
  })

  it("returns an empty batch with the schema when nothing requested is known", () => {
    const batch = buildGetInfo(allBranches, [42, 43])
    expect(batch.numRows).toBe(0)
    const table = roundTrip(batch)
    expect(table.numRows).toBe(0)
    expect(table.schema.fields.map(describeField)).toEqual(GET_INFO_SPEC)
  })

  it("accepts a plain object of values", () => {
    const table = roundTrip(
      buildGetInfo({ [InfoCode.DRIVER_NAME]: InfoValue.string("x"), [InfoCode.DRIVER_VERSION]: undefined })
    )
    expect(decoded(table)).toEqual([[100, 0, "x"]])
  })

  it("rejects requested codes outside uint32 as an invalid argument", () => {
    for (const bad of [-1, 1.5, 2 ** 32, Number.NaN]) {
      let thrown: unknown
      try {
        buildGetInfo(allBranches, [bad])
      } catch (e) {
        thrown = e
      }
      expect(isCatalogError(thrown) && thrown.kind).toBe("invalid-argument")
    }
  })

  it("rejects values that do not fit their branch as an invalid row", () => {
    const bad: Array<InfoValue> = [
      InfoValue.int64(2n ** 63n),
      InfoValue.int32Bitmask(2 ** 31),
      InfoValue.int32ToInt32ListMap(new Map([[1, [1.5]]])),
      { _tag: "string", value: 3 as unknown as string }
    ]
    for (const value of bad) {
      expect(() => buildGetInfo(new Map([[1, value]]))).toThrow(/GetInfo code 1/)
    }
  })
})
