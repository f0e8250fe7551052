/**
 * The monitoring views M_CONNECTIONS and M_SESSION_CONTEXT, for the calling connection (SAP HANA System Views
 * Reference, "M_CONNECTIONS System View", "M_SESSION_CONTEXT System View"; SAP-docs/sap-hana-cloud-hana-database,
 * docs/sql-ref/020-System-Views-Reference/022-Monitoring-Views). A real HANA lists every connection (those of other
 * users to a user with the privilege to see them); here each session sees its own row, as the views' own example
 * `SELECT * FROM M_SESSION_CONTEXT WHERE connection_id = current_connection` reads them. The values come from DuckDB
 * variables of the session: `hana_connection_id`, `hana_user`, `hana_schema` (set at login and by SET SCHEMA),
 * `hana_connected_at` (ticks of the login time) and `hana_session_context` (the session variables, refreshed by
 * {@link sessionContextSql} whenever the client's CLIENT_INFO part or `SET [SESSION] 'k' = 'v'` changes them).
 */
import { quoteString } from "./names.ts"

const CONTEXT_TYPE = "STRUCT(k VARCHAR, v VARCHAR)[]"

/** SQL setting the DuckDB variable M_SESSION_CONTEXT reads from the session's variables. */
export const sessionContextSql = (context: ReadonlyMap<string, string>): string =>
  `SET VARIABLE hana_session_context = CAST([${[...context].map(([k, v]) => `{'k': ${quoteString(k)}, 'v': ${quoteString(v)}}`).join(", ")}] AS ${CONTEXT_TYPE})`

/** SQL creating the views (catalog.ts runs it with the other SYS views). */
export const MONITORING_VIEWS: readonly string[] = [
  // CONNECTION_STATUS: RUNNING while a statement executes ("M_CONNECTIONS System View"), which the reading one does.
  `CREATE VIEW "SYS"."M_CONNECTIONS" AS SELECT 'localhost' AS HOST, 30015 AS PORT,
      CAST(getvariable('hana_connection_id') AS INTEGER) AS CONNECTION_ID, CAST(NULL AS INTEGER) AS TRANSACTION_ID,
      CAST(getvariable('hana_connected_at') AS UBIGINT) AS START_TIME, CAST(0 AS BIGINT) AS IDLE_TIME,
      'RUNNING' AS CONNECTION_STATUS, CAST(NULL AS VARCHAR) AS CLIENT_HOST, CAST(NULL AS VARCHAR) AS CLIENT_IP,
      CAST(NULL AS INTEGER) AS CLIENT_PORT, CAST(NULL AS BIGINT) AS CLIENT_PID,
      CAST(getvariable('hana_user') AS VARCHAR) AS USER_NAME, 'Remote' AS CONNECTION_TYPE, 'TRUE' AS OWN,
      'ExecuteStatement' AS LAST_ACTION, CAST(getvariable('hana_schema') AS VARCHAR) AS CURRENT_SCHEMA_NAME,
      list_filter(coalesce(getvariable('hana_session_context'), CAST([] AS ${CONTEXT_TYPE})), e -> e.k = 'APPLICATION')[1].v AS CLIENT_APPLICATION,
      CAST(NULL AS VARCHAR) AS AUTHENTICATION_METHOD, CAST(NULL AS UBIGINT) AS END_TIME
    WHERE getvariable('hana_connection_id') IS NOT NULL`,
  `CREATE VIEW "SYS"."M_SESSION_CONTEXT" AS SELECT 'localhost' AS HOST, 30015 AS PORT,
      CAST(getvariable('hana_connection_id') AS INTEGER) AS CONNECTION_ID, e.k AS KEY, e.v AS VALUE, 'USER' AS SECTION
    FROM (SELECT unnest(coalesce(getvariable('hana_session_context'), CAST([] AS ${CONTEXT_TYPE}))) AS e)`
]
