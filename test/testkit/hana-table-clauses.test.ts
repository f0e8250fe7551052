import { describe, expect, it } from "@effect/vitest"
import { exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient } from "./hana/client.ts"

/**
 * HANA's physical clauses (SAP HANA SQL Reference, "CREATE TABLE Statement", "ALTER TABLE Statement"): LOB columns'
 * MEMORY THRESHOLD, COLUMN / ROW stores, UNLOAD PRIORITY and PARTITION BY are accepted; the store, the unload
 * priority and the partitioning show in SYS.TABLES, and no clause changes what the table holds.
 */
describe("HANA test server: table and column clauses (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({}, (opened) => (c = opened.client))

  const tables = () =>
    exec(c, "SELECT TABLE_NAME, TABLE_TYPE, UNLOAD_PRIORITY, PARTITION_SPEC FROM SYS.TABLES WHERE SCHEMA_NAME = CURRENT_SCHEMA AND TABLE_NAME LIKE 'TC%' ORDER BY TABLE_NAME")

  it("accepts MEMORY THRESHOLD on LOB columns, in CREATE TABLE and ALTER TABLE ADD, and stores the values", async () => {
    await exec(c, "CREATE COLUMN TABLE tc_lob (id INTEGER, b BLOB MEMORY THRESHOLD 1000, n NCLOB MEMORY THRESHOLD NULL)")
    await exec(c, "ALTER TABLE tc_lob ADD (c CLOB MEMORY THRESHOLD 0)")
    await exec(c, "INSERT INTO tc_lob VALUES (1, X'0102', 'text', 'more')")
    expect(await exec(c, "SELECT id, b, n, c FROM tc_lob")).toEqual([{ ID: 1, B: Buffer.from([1, 2]), N: Buffer.from("text"), C: Buffer.from("more") }])
    expect((await failure(exec(c, "CREATE TABLE tc_bad (b BLOB MEMORY THRESHOLD x)"))).code).toBe(257)
  })

  it("keeps the store, UNLOAD PRIORITY and PARTITION BY as metadata, and ALTER TABLE changes them", async () => {
    await exec(c, "CREATE ROW TABLE tc_row (id INTEGER)")
    await exec(c, "CREATE COLUMN TABLE tc_unload (id INTEGER PRIMARY KEY, v NVARCHAR(10)) UNLOAD PRIORITY 7")
    await exec(c, "CREATE COLUMN TABLE tc_hash (id INTEGER, v INTEGER) PARTITION BY HASH (id) PARTITIONS 4")
    await exec(c, "CREATE COLUMN TABLE tc_range (id INTEGER, v INTEGER) PARTITION BY RANGE (id) (PARTITION 0 <= VALUES < 10, PARTITION OTHERS) UNLOAD PRIORITY 2")
    expect(await tables()).toEqual([
      { TABLE_NAME: "TC_HASH", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 5, PARTITION_SPEC: "HASH (ID) PARTITIONS 4" },
      { TABLE_NAME: "TC_LOB", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 5, PARTITION_SPEC: null },
      { TABLE_NAME: "TC_RANGE", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 2, PARTITION_SPEC: "RANGE (ID) (PARTITION 0 <= VALUES < 10, PARTITION OTHERS)" },
      { TABLE_NAME: "TC_ROW", TABLE_TYPE: "ROW", UNLOAD_PRIORITY: 5, PARTITION_SPEC: null },
      { TABLE_NAME: "TC_UNLOAD", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 7, PARTITION_SPEC: null }
    ])
    await exec(c, "ALTER TABLE tc_unload UNLOAD PRIORITY 3")
    // A new sized column rebuilds the table (declared lengths); its metadata goes with it.
    await exec(c, "ALTER TABLE tc_unload ADD (w NVARCHAR(3))")
    await exec(c, "ALTER TABLE tc_row COLUMN")
    await exec(c, "ALTER TABLE tc_hash MERGE PARTITIONS")
    await exec(c, "ALTER TABLE tc_range PARTITION BY HASH (v) PARTITIONS 2")
    await exec(c, "ALTER TABLE tc_lob NO AUTO MERGE")
    expect((await failure(exec(c, "ALTER TABLE tc_row UNLOAD PRIORITY 12"))).code).toBe(257)
    expect(await tables()).toEqual([
      { TABLE_NAME: "TC_HASH", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 5, PARTITION_SPEC: null },
      { TABLE_NAME: "TC_LOB", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 5, PARTITION_SPEC: null },
      { TABLE_NAME: "TC_RANGE", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 2, PARTITION_SPEC: "HASH (V) PARTITIONS 2" },
      { TABLE_NAME: "TC_ROW", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 5, PARTITION_SPEC: null },
      { TABLE_NAME: "TC_UNLOAD", TABLE_TYPE: "COLUMN", UNLOAD_PRIORITY: 3, PARTITION_SPEC: null }
    ])
  })

  it("partitioned tables hold and return every row as an unpartitioned one", async () => {
    await exec(c, "CREATE COLUMN TABLE tc_parts (id INTEGER, v NVARCHAR(5)) PARTITION BY RANGE (id) (PARTITION 0 <= VALUES < 10, PARTITION OTHERS)")
    for (const id of [1, 5, 15, -3]) await exec(c, `INSERT INTO tc_parts VALUES (${id}, 'v${id}')`)
    expect(await exec(c, "SELECT id FROM tc_parts ORDER BY id")).toEqual([{ ID: -3 }, { ID: 1 }, { ID: 5 }, { ID: 15 }])
  })
})
