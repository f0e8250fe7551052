/**
 * The monitoring views M_CONNECTIONS and M_SESSION_CONTEXT (SAP HANA System Views Reference, "M_CONNECTIONS System
 * View", "M_SESSION_CONTEXT System View"; SAP-docs/sap-hana-cloud-hana-database,
 * docs/sql-ref/020-System-Views-Reference/022-Monitoring-Views): a row for every logged-in connection of the server,
 * read from the server's connection list by the scalar function `hana_connections()` (a JSON array, read anew by
 * every statement). A connection is RUNNING while the server handles a request of it (the reading one always is),
 * else IDLE; OWN is TRUE on the reading connection's row. M_SESSION_CONTEXT has each connection's session variables
 * (`SET [SESSION] 'k' = 'v'`, the client's CLIENT_INFO part), as the views' own example
 * `SELECT * FROM M_SESSION_CONTEXT WHERE connection_id = current_connection` filters them.
 */
import { DuckDBScalarFunction, VARCHAR } from "@duckdb/node-api"
import { nowTicks } from "./longdate.ts"
import { quoteString } from "./names.ts"

/** What the monitoring views show of one connection. */
export interface ConnectionMonitoring {
  readonly id: number
  readonly user: string
  readonly schema: string
  /** Login time, epoch milliseconds. */
  readonly connectedAt: number
  /** Whether the server is handling a request of this connection. */
  readonly running: boolean
  readonly context: ReadonlyMap<string, string>
  /** Its local temporary tables (M_TEMPORARY_TABLES of other connections). */
  readonly temporaryTables: ReadonlyArray<{ readonly schema: string; readonly table: string }>
}

/** `hana_connections()`: the connections as a JSON array (volatile, so a prepared statement reads them anew). */
export const connectionsFunction = (connections: () => Iterable<ConnectionMonitoring>): DuckDBScalarFunction =>
  DuckDBScalarFunction.create({
    name: "hana_connections",
    parameterTypes: [],
    returnType: VARCHAR,
    volatile: true,
    mainFunction: (info, input, output) => {
      try {
        const rows = JSON.stringify(
          [...connections()].map((c) => ({ ...c, context: [...c.context].map(([k, v]) => ({ k, v })) }))
        )
        for (let row = 0; row < Math.max(1, input.rowCount); row++) output.setItem(row, rows)
        output.flush()
      } catch (e) {
        info.setError(e instanceof Error ? e.message : String(e))
      }
    }
  })

/** The connections as rows of `c` (a struct of {@link ConnectionMonitoring}'s fields). */
const CONNECTIONS = `(SELECT unnest(from_json(hana_connections(), '[{"id": "INTEGER", "user": "VARCHAR", "schema": "VARCHAR", "connectedAt": "DOUBLE", "running": "BOOLEAN", "context": [{"k": "VARCHAR", "v": "VARCHAR"}], "temporaryTables": [{"schema": "VARCHAR", "table": "VARCHAR"}]}]')) AS c)`

/**
 * The connections a reader may see: "The data returned for each view is filtered according to the granted privileges
 * of the user accessing a view. Users granted the CATALOG READ system privilege have unfiltered access to all
 * monitoring views" (SAP HANA System Views Reference, monitoring views, "Permissions"). The server keeps no grants
 * (GRANT is accepted and ignored), so SYSTEM stands for a user with CATALOG READ and any other user sees its own
 * user's connections.
 */
const VISIBLE = "(getvariable('hana_user') = 'SYSTEM' OR c.user = getvariable('hana_user'))"

const CONTEXT_TYPE = "STRUCT(k VARCHAR, v VARCHAR)[]"

/**
 * The rows of M_TEMPORARY_TABLES for the other connections' local temporary tables (catalog.ts lists the reader's
 * own from DuckDB's temp catalog): HANA lists every connection's, each with its CONNECTION_ID, filtered as the other
 * monitoring views are (VISIBLE).
 */
export const OTHER_TEMPORARY_TABLES = `SELECT 'localhost' AS HOST, 30015 AS PORT, t.schema AS SCHEMA_NAME, t."table" AS TABLE_NAME,
      'COLUMN' AS TABLE_TYPE, 'LOCAL' AS TEMPORARY_TABLE_TYPE, c.id AS CONNECTION_ID, CAST(NULL AS UBIGINT) AS CREATE_TIME
    FROM (SELECT c, unnest(c.temporaryTables) AS t FROM ${CONNECTIONS} WHERE c.id <> getvariable('hana_connection_id') AND ${VISIBLE})`

/** SQL setting the DuckDB variable M_SESSION_CONTEXT reads from the session's variables. */
export const sessionContextSql = (context: ReadonlyMap<string, string>): string =>
  `SET VARIABLE hana_session_context = CAST([${[...context].map(([k, v]) => `{'k': ${quoteString(k)}, 'v': ${quoteString(v)}}`).join(", ")}] AS ${CONTEXT_TYPE})`

/** SQL creating the views (catalog.ts runs it with the other SYS views). */
export const MONITORING_VIEWS: readonly string[] = [
  // CONNECTION_STATUS: RUNNING while a statement executes, IDLE between statements ("M_CONNECTIONS System View").
  `CREATE VIEW "SYS"."M_CONNECTIONS" AS SELECT 'localhost' AS HOST, 30015 AS PORT,
      c.id AS CONNECTION_ID, CAST(NULL AS INTEGER) AS TRANSACTION_ID,
      ${nowTicks("CAST(to_timestamp(c.connectedAt / 1000) AS TIMESTAMP)")} AS START_TIME, CAST(0 AS BIGINT) AS IDLE_TIME,
      CASE WHEN c.running OR c.id = getvariable('hana_connection_id') THEN 'RUNNING' ELSE 'IDLE' END AS CONNECTION_STATUS,
      CAST(NULL AS VARCHAR) AS CLIENT_HOST, CAST(NULL AS VARCHAR) AS CLIENT_IP,
      CAST(NULL AS INTEGER) AS CLIENT_PORT, CAST(NULL AS BIGINT) AS CLIENT_PID,
      c.user AS USER_NAME, 'Remote' AS CONNECTION_TYPE,
      CASE WHEN c.id = getvariable('hana_connection_id') THEN 'TRUE' ELSE 'FALSE' END AS OWN,
      'ExecuteStatement' AS LAST_ACTION, c.schema AS CURRENT_SCHEMA_NAME,
      list_filter(c.context, e -> e.k = 'APPLICATION')[1].v AS CLIENT_APPLICATION,
      CAST(NULL AS VARCHAR) AS AUTHENTICATION_METHOD, CAST(NULL AS UBIGINT) AS END_TIME
    FROM ${CONNECTIONS} WHERE ${VISIBLE}`,
  `CREATE VIEW "SYS"."M_SESSION_CONTEXT" AS SELECT 'localhost' AS HOST, 30015 AS PORT,
      id AS CONNECTION_ID, e.k AS KEY, e.v AS VALUE, 'USER' AS SECTION
    FROM (SELECT c.id AS id, unnest(c.context) AS e FROM ${CONNECTIONS} WHERE ${VISIBLE})`
]
