import { describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

/** hdb's protocol connection (lib/protocol/Connection.js): sends single requests, used here to probe server state. */
interface RawConnection {
  fetchNext(options: { resultSetId: Buffer; fetchSize: number }, cb: (err: Error | null, reply?: unknown) => void): void
  execute(options: { statementId: Buffer }, cb: (err: Error | null, reply?: unknown) => void): void
}
const raw = (client: HdbClient): RawConnection => (client as unknown as { _connection: RawConnection })._connection

/** Resolves once `done()` holds (checked every 10 ms); fails after 2 s. */
const waitFor = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
  if (!done()) throw new Error("condition not met within 2 s")
}

describe("HANA test server: result-set and statement lifecycle, batches, catalog shape (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({ setup: ["CREATE TABLE life AS (SELECT CAST(GENERATED_PERIOD_START AS INTEGER) AS ID FROM SERIES_GENERATE_INTEGER(1, 0, 500))"] }, (opened) => {
    server = opened.server
    c = opened.client
  })

  it("CLOSE_RESULT_SET releases the cursor: FETCH_NEXT on it fails afterwards", async () => {
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT id FROM life ORDER BY id", cb))
    // Still open (500 rows, the first reply carried 32): FETCH_NEXT answers.
    await call((cb) => raw(c).fetchNext({ resultSetId: rs.id, fetchSize: 10 }, cb))
    await call((cb) => rs.close(cb))
    const err = await failure(call((cb) => raw(c).fetchNext({ resultSetId: rs.id, fetchSize: 10 }, cb)))
    // 587 ERR_API_INV_RESULTSET (SAP HANA SQL Reference, "SQL Error Codes")
    expect(err.code).toBe(587)
    expect(err.sqlState).toBe("HY000")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM life")).toEqual([{ N: 500 }])
  })

  it("openResultSets counts the server cursors open across sessions: closed by the client or with the session, 0", async () => {
    const other = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      expect(server.openResultSets()).toBe(0)
      // A result that fits in the first reply (32 rows) is closed by the server at once.
      await call<HdbResultSet>((cb) => c.execute("SELECT id FROM life WHERE id <= 10", cb))
      expect(server.openResultSets()).toBe(0)
      // 500 rows with a fetch size of 10: the first reply carries 32, the cursor stays open on the server.
      const mine = await call<HdbResultSet>((cb) => c.execute("SELECT id FROM life ORDER BY id", cb))
      mine.setFetchSize(10)
      expect(server.openResultSets()).toBe(1)
      const theirs = await call<HdbResultSet>((cb) => other.execute("SELECT id FROM life ORDER BY id", cb))
      expect(server.openResultSets()).toBe(2)
      await call((cb) => mine.close(cb))
      expect(server.openResultSets()).toBe(1)
      expect(theirs.closed).toBe(false)
      await call((cb) => other.disconnect(cb))
      await waitFor(() => server.sessionCount() === 1)
      expect(server.openResultSets()).toBe(0)
    } finally {
      closeQuietly(other)
    }
  })

  it("DROP_STATEMENT_ID forgets the statement: EXECUTE of its id fails afterwards", async () => {
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT COUNT(*) AS N FROM life", cb))
    const id = (st as unknown as { id: Buffer }).id
    await call((cb) => raw(c).execute({ statementId: id }, cb))
    await call((cb) => st.drop(cb))
    const err = await failure(call((cb) => raw(c).execute({ statementId: id }, cb)))
    // 578 ERR_API_INV_STATEMENT (SAP HANA SQL Reference, "SQL Error Codes")
    expect(err.code).toBe(578)
    expect(await exec(c, "SELECT 1 AS X FROM DUMMY")).toEqual([{ X: 1 }])
  })

  it("reports rows affected per row for batched UPDATE and DELETE", async () => {
    await exec(c, "CREATE TABLE counted (id INT, grp INT)")
    await exec(c, "INSERT INTO counted SELECT id, MOD(id, 3) FROM life WHERE id < 30")
    const upd = await call<HdbStatement>((cb) => c.prepare("UPDATE counted SET grp = grp WHERE id < ?", cb))
    expect(await call((cb) => upd.exec([[5], [0], [12]], cb))).toEqual([5, 0, 12])
    const del = await call<HdbStatement>((cb) => c.prepare("DELETE FROM counted WHERE grp = ?", cb))
    expect(await call((cb) => del.exec([[0], [7], [1]], cb))).toEqual([10, 0, 10])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM counted")).toEqual([{ N: 10 }])
  })

  it("answers DUMMY and has the SYS and _SYS_* schemas", async () => {
    expect(await exec(c, "SELECT * FROM DUMMY")).toEqual([{ DUMMY: "X" }])
    expect(await exec(c, "SELECT DUMMY FROM SYS.DUMMY WHERE DUMMY = 'X'")).toEqual([{ DUMMY: "X" }])
    const schemas = await exec<Array<{ SCHEMA_NAME: string }>>(c, "SELECT SCHEMA_NAME FROM SYS.SCHEMAS ORDER BY 1")
    expect(schemas.map((s) => s.SCHEMA_NAME).filter((n) => n === "SYS" || n.startsWith("_SYS_"))).toEqual(["SYS", "_SYS_AFL", "_SYS_BIC", "_SYS_REPO", "_SYS_STATISTICS", "_SYS_TASK"])
  })

  it("creates ROW, COLUMN and plain tables and reports their TABLE_TYPE", async () => {
    await exec(c, "CREATE ROW TABLE kind_row (x INT)")
    await exec(c, "CREATE COLUMN TABLE kind_col (x INT)")
    await exec(c, "CREATE TABLE kind_plain (x INT)")
    await exec(c, 'CREATE SCHEMA "Other"')
    await exec(c, 'CREATE ROW TABLE "Other"."Kind_Row" (x INT)')
    await exec(c, "INSERT INTO kind_row VALUES (1)")
    expect(await exec(c, "SELECT x FROM kind_row")).toEqual([{ X: 1 }])
    expect(await exec(c, "SELECT TABLE_NAME, TABLE_TYPE, IS_COLUMN_TABLE FROM SYS.TABLES WHERE UPPER(TABLE_NAME) LIKE 'KIND%' ORDER BY 1")).toEqual([
      { TABLE_NAME: "KIND_COL", TABLE_TYPE: "COLUMN", IS_COLUMN_TABLE: "TRUE" },
      { TABLE_NAME: "KIND_PLAIN", TABLE_TYPE: "COLUMN", IS_COLUMN_TABLE: "TRUE" },
      { TABLE_NAME: "KIND_ROW", TABLE_TYPE: "ROW", IS_COLUMN_TABLE: "FALSE" },
      { TABLE_NAME: "Kind_Row", TABLE_TYPE: "ROW", IS_COLUMN_TABLE: "FALSE" }
    ])
    // Dropped and re-created as a column table, the name is a column table again.
    await exec(c, "DROP TABLE kind_row")
    await exec(c, "CREATE COLUMN TABLE kind_row (x INT)")
    expect(await exec(c, "SELECT TABLE_TYPE FROM SYS.TABLES WHERE TABLE_NAME = 'KIND_ROW'")).toEqual([{ TABLE_TYPE: "COLUMN" }])
  })

  // Column names of the SAP HANA System Views Reference (the subset the README documents).
  it.each([
    ["SYS.SCHEMAS", "SCHEMA_NAME, SCHEMA_OWNER, HAS_PRIVILEGES, CREATE_TIME"],
    ["SYS.TABLES", "SCHEMA_NAME, TABLE_NAME, TABLE_OID, COMMENTS, IS_SYSTEM_TABLE, IS_COLUMN_TABLE, TABLE_TYPE, IS_TEMPORARY, TEMPORARY_TABLE_TYPE, IS_LOGGED, HAS_PRIMARY_KEY, IS_USER_DEFINED_TYPE, CREATE_TIME, UNLOAD_PRIORITY, PARTITION_SPEC"],
    ["SYS.VIEWS", "SCHEMA_NAME, VIEW_NAME, VIEW_OID, OWNER_NAME, COMMENTS, IS_VALID, DEFINITION, VIEW_TYPE, IS_READ_ONLY, CREATE_TIME"],
    ["SYS.TABLE_COLUMNS", "SCHEMA_NAME, TABLE_NAME, TABLE_OID, COLUMN_NAME, POSITION, DATA_TYPE_ID, DATA_TYPE_NAME, OFFSET, LENGTH, SCALE, IS_NULLABLE, DEFAULT_VALUE, COLLATION, COMMENTS, LOAD_UNIT, MEMORY_THRESHOLD, FUZZY_SEARCH_INDEX, FUZZY_SEARCH_MODE, GENERATION_TYPE"],
    ["SYS.VIEW_COLUMNS", "SCHEMA_NAME, VIEW_NAME, VIEW_OID, COLUMN_NAME, POSITION, DATA_TYPE_ID, DATA_TYPE_NAME, LENGTH, SCALE, IS_NULLABLE, DEFAULT_VALUE, COMMENTS"],
    ["SYS.CONSTRAINTS", "SCHEMA_NAME, TABLE_NAME, COLUMN_NAME, POSITION, CONSTRAINT_NAME, IS_PRIMARY_KEY, IS_UNIQUE_KEY, CHECK_CONDITION"],
    ["SYS.REFERENTIAL_CONSTRAINTS", "SCHEMA_NAME, TABLE_NAME, COLUMN_NAME, POSITION, CONSTRAINT_NAME, REFERENCED_SCHEMA_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME, REFERENCED_CONSTRAINT_NAME, UPDATE_RULE, DELETE_RULE, IS_VALIDATED, IS_ENABLED"],
    ["SYS.USERS", "USER_NAME, USER_ID, USERGROUP_NAME, CREATOR, CREATE_TIME, VALID_FROM, VALID_UNTIL, LAST_SUCCESSFUL_CONNECT, USER_DEACTIVATED, IS_PASSWORD_ENABLED, DEFAULT_SCHEMA_NAME, IS_X509_ENABLED, IS_JWT_ENABLED, IS_SAML_ENABLED"],
    ["SYS.M_DATABASE", "SYSTEM_ID, DATABASE_NAME, HOST, START_TIME, VERSION, USAGE"],
    ["SYS.M_TEMPORARY_TABLES", "HOST, PORT, SCHEMA_NAME, TABLE_NAME, TABLE_TYPE, TEMPORARY_TABLE_TYPE, CONNECTION_ID, CREATE_TIME"],
    ["SYS.M_TEMPORARY_TABLE_COLUMNS", "HOST, PORT, SCHEMA_NAME, TABLE_NAME, COLUMN_NAME, POSITION, DATA_TYPE_ID, DATA_TYPE_NAME, LENGTH, SCALE, IS_NULLABLE, DEFAULT_VALUE, CONNECTION_ID"],
    ["SYS.M_CONNECTIONS", "HOST, PORT, CONNECTION_ID, TRANSACTION_ID, START_TIME, IDLE_TIME, CONNECTION_STATUS, CLIENT_HOST, CLIENT_IP, CLIENT_PORT, CLIENT_PID, USER_NAME, CONNECTION_TYPE, OWN, LAST_ACTION, CURRENT_SCHEMA_NAME, CLIENT_APPLICATION, AUTHENTICATION_METHOD, END_TIME"],
    ["SYS.M_SESSION_CONTEXT", "HOST, PORT, CONNECTION_ID, KEY, VALUE, SECTION"]
  ] as const)("%s has HANA's column names", async (view, columns) => {
    const rs = await call<HdbResultSet>((cb) => c.execute(`SELECT * FROM ${view}`, cb))
    expect(rs.metadata.map((m) => m.columnDisplayName)).toEqual(columns.split(", "))
    await call((cb) => rs.close(cb))
  })
})
