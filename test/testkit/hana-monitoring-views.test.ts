import { describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

// The monitoring views applications read about their own connection, through the raw hdb client (SAP HANA System
// Views Reference, "M_CONNECTIONS System View": CONNECTION_ID, USER_NAME, CONNECTION_STATUS RUNNING while a statement
// executes, OWN; "M_SESSION_CONTEXT System View": KEY, VALUE and SECTION USER for "application defined variable
// using SET command or client API call", read as `SELECT * FROM M_SESSION_CONTEXT WHERE connection_id =
// current_connection`).
describe("HANA test server: M_CONNECTIONS and M_SESSION_CONTEXT (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({ client: { "SESSIONVARIABLE:APPLICATION": "my-app" } }, (opened) => {
    server = opened.server
    c = opened.client
  })

  it("M_CONNECTIONS has the calling connection's row: its id, user, RUNNING, its schema and application", async () => {
    expect(await exec(c, "SELECT CONNECTION_ID, USER_NAME, CONNECTION_STATUS, OWN, CURRENT_SCHEMA_NAME, CLIENT_APPLICATION FROM M_CONNECTIONS WHERE CONNECTION_ID = CURRENT_CONNECTION"))
      .toEqual([{ CONNECTION_ID: c.connectOptions.connectionId, USER_NAME: server.user, CONNECTION_STATUS: "RUNNING", OWN: "TRUE", CURRENT_SCHEMA_NAME: server.user, CLIENT_APPLICATION: "my-app" }])
    const [row] = await exec<Array<{ START_TIME: string }>>(c, "SELECT START_TIME FROM SYS.M_CONNECTIONS")
    expect(Date.now() - new Date(`${row!.START_TIME.slice(0, 23)}`).getTime()).toBeLessThan(600_000)
  })

  it("M_SESSION_CONTEXT shows hdb's session variables, SET 'k' = 'v' and setClientInfo, and forgets UNSET ones", async () => {
    const context = () => exec(c, "SELECT KEY, VALUE, SECTION FROM M_SESSION_CONTEXT WHERE CONNECTION_ID = CURRENT_CONNECTION ORDER BY KEY")
    expect(await context()).toEqual([{ KEY: "APPLICATION", VALUE: "my-app", SECTION: "USER" }])
    await exec(c, "SET 'MYKEY' = 'my value'")
    ;(c as unknown as { setClientInfo(k: string, v: string): void }).setClientInfo("LOCALE", "de_DE")
    expect(await context()).toEqual([
      { KEY: "APPLICATION", VALUE: "my-app", SECTION: "USER" },
      { KEY: "LOCALE", VALUE: "de_DE", SECTION: "USER" },
      { KEY: "MYKEY", VALUE: "my value", SECTION: "USER" }
    ])
    await exec(c, "UNSET 'MYKEY'")
    expect(await exec(c, "SELECT KEY FROM SYS.M_SESSION_CONTEXT ORDER BY KEY")).toEqual([{ KEY: "APPLICATION" }, { KEY: "LOCALE" }])
  })

  it("every connection of the server has a row: OWN on the reader's, IDLE for one between statements; each keeps its own variables", async () => {
    // "M_CONNECTIONS System View": one row per connection, CONNECTION_STATUS IDLE for a connection without a running
    // statement, OWN TRUE for the connection reading the view; M_SESSION_CONTEXT lists every connection's variables.
    const other = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      other.setAutoCommit(false)
      await exec(other, "SET 'ONLY_HERE' = 'x'")
      const mine = c.connectOptions.connectionId
      const theirs = other.connectOptions.connectionId
      const rows = [{ CONNECTION_ID: mine, CONNECTION_STATUS: "IDLE", OWN: "FALSE", USER_NAME: server.user }, { CONNECTION_ID: theirs, CONNECTION_STATUS: "RUNNING", OWN: "TRUE", USER_NAME: server.user }]
      expect(await exec(other, "SELECT CONNECTION_ID, CONNECTION_STATUS, OWN, USER_NAME FROM M_CONNECTIONS ORDER BY CONNECTION_ID")).toEqual(rows)
      expect(await exec(other, "SELECT KEY FROM M_SESSION_CONTEXT WHERE CONNECTION_ID = CURRENT_CONNECTION")).toEqual([{ KEY: "ONLY_HERE" }])
      expect(await exec(c, "SELECT CONNECTION_ID, KEY FROM M_SESSION_CONTEXT WHERE KEY = 'ONLY_HERE'")).toEqual([{ CONNECTION_ID: theirs, KEY: "ONLY_HERE" }])
      // a prepared query reads the list anew at each execution
      const st = await call<HdbStatement>((cb) => c.prepare("SELECT COUNT(*) AS N FROM M_CONNECTIONS", cb))
      expect(await call((cb) => st.exec([], cb))).toEqual([{ N: 2 }])
      await call((cb) => other.commit(cb))
      await call((cb) => other.disconnect(cb))
      expect(await call((cb) => st.exec([], cb))).toEqual([{ N: 1 }])
      expect(await exec(c, "SELECT KEY FROM M_SESSION_CONTEXT WHERE KEY = 'ONLY_HERE'")).toEqual([])
    } finally {
      closeQuietly(other)
    }
  })
  it("a user without CATALOG READ sees only its own user's connections and session variables; SYSTEM sees all", async () => {
    // SAP HANA System Views Reference (SAP-docs/sap-hana-cloud-hana-database, monitoring views, "Permissions"): "The
    // data returned for each view is filtered according to the granted privileges of the user accessing a view. Users
    // granted the CATALOG READ system privilege have unfiltered access to all monitoring views and their data".
    await exec(c, "CREATE USER MONITOR_PLAIN PASSWORD Secret123 NO FORCE_FIRST_PASSWORD_CHANGE")
    const plain = await connect({ host: server.host, port: server.port, user: "MONITOR_PLAIN", password: "Secret123" })
    try {
      await exec(c, "SET 'ADMIN_ONLY' = 'y'")
      await exec(plain, "SET 'PLAIN_KEY' = 'z'")
      const id = plain.connectOptions.connectionId
      expect(await exec(plain, "SELECT CONNECTION_ID, USER_NAME, OWN FROM M_CONNECTIONS")).toEqual([{ CONNECTION_ID: id, USER_NAME: "MONITOR_PLAIN", OWN: "TRUE" }])
      expect(await exec(plain, "SELECT CONNECTION_ID, KEY FROM M_SESSION_CONTEXT")).toEqual([{ CONNECTION_ID: id, KEY: "PLAIN_KEY" }])
      expect(await exec(c, "SELECT USER_NAME FROM M_CONNECTIONS ORDER BY CONNECTION_ID")).toEqual([{ USER_NAME: server.user }, { USER_NAME: "MONITOR_PLAIN" }])
      expect(await exec(c, "SELECT KEY FROM M_SESSION_CONTEXT WHERE KEY = 'PLAIN_KEY'")).toEqual([{ KEY: "PLAIN_KEY" }])
      await exec(c, "UNSET 'ADMIN_ONLY'")
    } finally {
      closeQuietly(plain)
    }
  })
  it("M_TEMPORARY_TABLES lists other connections' local temporary tables with their CONNECTION_ID, as the reader may see them", async () => {
    // SAP HANA System Views Reference, "M_TEMPORARY_TABLES": a row per local temporary table with the CONNECTION_ID
    // of its connection; monitoring views are filtered by the reader's privileges ("Permissions").
    await exec(c, "CREATE USER MONITOR_TEMP PASSWORD Secret123 NO FORCE_FIRST_PASSWORD_CHANGE")
    const other = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    const plain = await connect({ host: server.host, port: server.port, user: "MONITOR_TEMP", password: "Secret123" })
    try {
      await exec(other, `CREATE LOCAL TEMPORARY TABLE "#THEIRS" (x INT)`)
      await exec(c, `CREATE LOCAL TEMPORARY TABLE "#MINE" (x INT)`)
      const rows = [
        { TABLE_NAME: "#MINE", CONNECTION_ID: c.connectOptions.connectionId, SCHEMA_NAME: server.user },
        { TABLE_NAME: "#THEIRS", CONNECTION_ID: other.connectOptions.connectionId, SCHEMA_NAME: server.user }
      ]
      const query = "SELECT TABLE_NAME, CONNECTION_ID, SCHEMA_NAME FROM M_TEMPORARY_TABLES ORDER BY TABLE_NAME"
      expect(await exec(c, query)).toEqual(rows)
      expect(await exec(other, query)).toEqual(rows)
      // a user without CATALOG READ sees none of SYSTEM's
      expect(await exec(plain, query)).toEqual([])
      await exec(other, `DROP TABLE "#THEIRS"`)
      expect(await exec(c, query)).toEqual([rows[0]])
      await exec(other, `CREATE LOCAL TEMPORARY TABLE "#GONE" (x INT)`)
      await call((cb) => other.disconnect(cb))
      expect(await exec(c, query)).toEqual([rows[0]])
      await exec(c, `DROP TABLE "#MINE"`)
    } finally {
      closeQuietly(other)
      closeQuietly(plain)
    }
  })
})
