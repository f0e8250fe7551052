import { describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient } from "./hana/client.ts"

// Column clauses of real HANA DDL, through the raw hdb client: the SAP HANA SQL Reference's "CREATE TABLE Statement"
// <column_definition> takes `[<fuzzy_search_index>] [<fuzzy_search_mode>] [<column_comment_string>] [<load_unit>]`
// (`FUZZY SEARCH INDEX {ON | OFF}`, `FUZZY SEARCH MODE '…'`, `COMMENT '…'`, `{COLUMN | PAGE} LOADABLE`) and a LOB's
// `MEMORY THRESHOLD`, and a table `COMMENT '…'`; the "TABLE_COLUMNS System View" shows them as COMMENTS, LOAD_UNIT,
// MEMORY_THRESHOLD, FUZZY_SEARCH_INDEX and FUZZY_SEARCH_MODE, the "TABLES System View" the table's COMMENTS.
describe("HANA test server: descriptive column clauses (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({}, (opened) => {
    server = opened.server
    c = opened.client
  })

  const columns = (table: string) =>
    exec(c, `SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH, COMMENTS, LOAD_UNIT, MEMORY_THRESHOLD, FUZZY_SEARCH_INDEX, FUZZY_SEARCH_MODE
      FROM SYS.TABLE_COLUMNS WHERE SCHEMA_NAME = CURRENT_SCHEMA AND TABLE_NAME = '${table}' ORDER BY POSITION`)

  it("CREATE TABLE keeps a column's COMMENT, load unit, memory threshold and fuzzy search index for SYS.TABLE_COLUMNS", async () => {
    await exec(c, "CREATE COLUMN TABLE CC1 (ID INT NOT NULL COMMENT 'the key' PRIMARY KEY, NAME NVARCHAR(100) FUZZY SEARCH INDEX ON " +
      "FUZZY SEARCH MODE 'alphanum' COMMENT 'a name' PAGE LOADABLE, DOC BLOB MEMORY THRESHOLD 1000 COLUMN LOADABLE, N INT DEFAULT 5 DEFAULT LOADABLE) " +
      "COMMENT 'customers'")
    expect(await columns("CC1")).toEqual([
      { COLUMN_NAME: "ID", DATA_TYPE_NAME: "INTEGER", LENGTH: 10, COMMENTS: "the key", LOAD_UNIT: "DEFAULT", MEMORY_THRESHOLD: null, FUZZY_SEARCH_INDEX: "FALSE", FUZZY_SEARCH_MODE: null },
      { COLUMN_NAME: "NAME", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 100, COMMENTS: "a name", LOAD_UNIT: "PAGE", MEMORY_THRESHOLD: null, FUZZY_SEARCH_INDEX: "TRUE", FUZZY_SEARCH_MODE: "alphanum" },
      { COLUMN_NAME: "DOC", DATA_TYPE_NAME: "BLOB", LENGTH: expect.anything(), COMMENTS: null, LOAD_UNIT: "COLUMN", MEMORY_THRESHOLD: 1000, FUZZY_SEARCH_INDEX: "FALSE", FUZZY_SEARCH_MODE: null },
      { COLUMN_NAME: "N", DATA_TYPE_NAME: "INTEGER", LENGTH: 10, COMMENTS: null, LOAD_UNIT: "DEFAULT", MEMORY_THRESHOLD: null, FUZZY_SEARCH_INDEX: "FALSE", FUZZY_SEARCH_MODE: null }
    ])
    expect(await exec(c, "SELECT COMMENTS FROM SYS.TABLES WHERE SCHEMA_NAME = CURRENT_SCHEMA AND TABLE_NAME = 'CC1'")).toEqual([{ COMMENTS: "customers" }])
    // the clauses change nothing a query returns: the default, the key and the values are there
    await exec(c, "INSERT INTO CC1 (ID, NAME) VALUES (1, 'SAP')")
    expect(await exec(c, "SELECT ID, NAME, N FROM CC1")).toEqual([{ ID: 1, NAME: "SAP", N: 5 }])
    expect((await failure(exec(c, "INSERT INTO CC1 (ID, NAME) VALUES (1, 'x')"))).code).toBe(301)
  })

  it("COMMENT ON COLUMN / TABLE set what the views show, and leave the column's declared type alone", async () => {
    await exec(c, "CREATE COLUMN TABLE CC2 (A INT, B NVARCHAR(10))")
    await exec(c, "COMMENT ON TABLE CC2 IS 'table two'")
    await exec(c, "COMMENT ON COLUMN CC2.B IS 'column b'")
    await exec(c, `COMMENT ON COLUMN ${server.user}.CC2.A IS 'column a'`)
    await exec(c, "COMMENT ON COLUMN CC2.A IS NULL")
    expect(await columns("CC2")).toMatchObject([
      { COLUMN_NAME: "A", DATA_TYPE_NAME: "INTEGER", COMMENTS: null },
      { COLUMN_NAME: "B", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 10, COMMENTS: "column b" }
    ])
    expect(await exec(c, "SELECT COMMENTS FROM SYS.TABLES WHERE SCHEMA_NAME = CURRENT_SCHEMA AND TABLE_NAME = 'CC2'")).toEqual([{ COMMENTS: "table two" }])
    // the declared length still holds
    expect((await failure(exec(c, "INSERT INTO CC2 VALUES (1, '12345678901')"))).code).toBe(274)
    expect((await failure(exec(c, "COMMENT ON COLUMN NOPE.B IS 'x'"))).code).toBe(259)
    expect((await failure(exec(c, "COMMENT ON COLUMN CC2.NOPE IS 'x'"))).code).toBe(260)
  })

  it("ALTER TABLE … ADD / ALTER keep the clauses, a rebuild the other columns', RENAME COLUMN moves them, DROP forgets them", async () => {
    await exec(c, "CREATE COLUMN TABLE CC3 (A INT COMMENT 'first', B NVARCHAR(10))")
    await exec(c, "ALTER TABLE CC3 ADD (C NVARCHAR(20) COMMENT 'third' PAGE LOADABLE)")
    // ALTER … ALTER rebuilds the table (alter-table.ts): what the other columns' clauses said stays
    await exec(c, "ALTER TABLE CC3 ALTER (B NVARCHAR(20) COLUMN LOADABLE COMMENT 'second')")
    await exec(c, "ALTER TABLE CC3 PAGE LOADABLE")
    expect(await columns("CC3")).toMatchObject([
      { COLUMN_NAME: "A", COMMENTS: "first", LOAD_UNIT: "DEFAULT" },
      { COLUMN_NAME: "B", LENGTH: 20, COMMENTS: "second", LOAD_UNIT: "COLUMN" },
      { COLUMN_NAME: "C", LENGTH: 20, COMMENTS: "third", LOAD_UNIT: "PAGE" }
    ])
    await exec(c, "RENAME COLUMN CC3.A TO A1")
    await exec(c, "ALTER TABLE CC3 DROP (C)")
    await exec(c, "ALTER TABLE CC3 ADD (C INT)")
    expect(await columns("CC3")).toMatchObject([
      { COLUMN_NAME: "A1", COMMENTS: "first" },
      { COLUMN_NAME: "B", COMMENTS: "second" },
      { COLUMN_NAME: "C", COMMENTS: null, LOAD_UNIT: "DEFAULT" }
    ])
  })
})
