import { describe, expect, it } from "@effect/vitest"
import type * as Arrow from "apache-arrow"
import { Effect } from "effect"
import { ObjectDepth } from "../../src/catalog/index.ts"
import * as Connection from "../../src/Connection.ts"
import { batchRows } from "../catalog/arrowPlain.ts"
import { uniqueName, useServer, withConnection, withRawConnection } from "./support.ts"

// GetObjects reads the ALL_* views, which list "the relational tables accessible to the current user" (Oracle Database
// Reference, ALL_TABLES; likewise ALL_VIEWS, ALL_TAB_COLUMNS, ALL_CONSTRAINTS): a user without the DBA role sees its own
// objects and those it was granted a privilege on, not the rest of another schema.
const server = useServer({ users: [{ name: "TEST", password: "test", dba: true }] })

interface PlainTable {
  table_name: string
  table_columns: Array<Record<string, unknown>> | null
}
const tablesOf = (batch: Arrow.RecordBatch, schema: string): Array<PlainTable> => {
  const catalogs = batchRows(batch) as unknown as Array<{ catalog_db_schemas: Array<{ db_schema_name: string; db_schema_tables: Array<PlainTable> | null }> | null }>
  return (catalogs[0]?.catalog_db_schemas ?? []).filter((s) => s.db_schema_name === schema).flatMap((s) => s.db_schema_tables ?? [])
}

describe("catalog as a user without the DBA role", () => {
  it.effect("GetObjects lists the user's own tables and another schema's granted table, not the ungranted ones", () =>
    Effect.gen(function*() {
      const reader = uniqueName("READER")
      const granted = uniqueName("GRANTED")
      const hidden = uniqueName("HIDDEN")
      const owner = new URL(server.uri).username.toUpperCase()
      yield* withRawConnection(server.uri, async (raw) => {
        await raw.execute(`CREATE USER ${reader} IDENTIFIED BY "Reader_1"`)
        await raw.execute(`GRANT CREATE SESSION, CREATE TABLE, UNLIMITED TABLESPACE TO ${reader}`)
        await raw.execute(`CREATE TABLE ${granted} (ID NUMBER PRIMARY KEY, NOTE VARCHAR2(10))`)
        await raw.execute(`CREATE TABLE ${hidden} (ID NUMBER)`)
        await raw.execute(`GRANT SELECT ON ${granted} TO ${reader}`)
      })
      const readerUri = Object.assign(new URL(server.uri), { username: reader, password: "Reader_1" }).toString()
      yield* withRawConnection(readerUri, async (raw) => {
        await raw.execute(`CREATE TABLE ${reader}_OWN (A NUMBER)`)
      })
      yield* withConnection(readerUri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const theirs = tablesOf(yield* conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: owner }), owner)
        expect(theirs.map((t) => t.table_name)).toContain(granted)
        expect(theirs.map((t) => t.table_name)).not.toContain(hidden)
        expect(theirs.find((t) => t.table_name === granted)!.table_columns!.map((c) => c["column_name"])).toEqual(["ID", "NOTE"])
        const own = tablesOf(yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: reader }), reader)
        expect(own.map((t) => t.table_name)).toEqual([`${reader}_OWN`])
      }))
    }))
})
