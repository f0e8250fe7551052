/**
 * CURRENT_IDENTITY_VALUE(): the identity value the session's last INSERT generated, in any table (SAP HANA SQL
 * Reference Guide, "CURRENT_IDENTITY_VALUE Function (Miscellaneous)"). DuckDB's `currval` is the sequence's last
 * value across all sessions, so an identity column's default (ddl.ts) hands each value it draws to
 * `hana_identity(connection id, nextval(…))`, which notes it for the inserting session; `hana_current_identity(connection
 * id)` reads it back (NULL before the session generated one).
 */
import { BIGINT, DuckDBScalarFunction } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api"
import { rowwise } from "../common/scalar-functions.ts"

/** The default of an identity column drawing from sequence `sequence` (a quoted SQL string literal). */
export const identityDefault = (sequence: string): string =>
  `hana_identity(CAST(getvariable('hana_connection_id') AS BIGINT), nextval(${sequence}))`

/** What `CURRENT_IDENTITY_VALUE()` becomes (a session macro, session-macros.ts). */
export const CURRENT_IDENTITY_MACRO =
  "CREATE OR REPLACE TEMP MACRO current_identity_value() AS hana_current_identity(CAST(getvariable('hana_connection_id') AS BIGINT))"

/** Registers both functions in the database of `connection`, with the last value of each session kept in a new map. */
export const registerIdentityFunctions = (connection: DuckDBConnection): void => {
  const last = new Map<DuckDBValue, DuckDBValue>()
  connection.registerScalarFunction(DuckDBScalarFunction.create({
    name: "hana_identity",
    parameterTypes: [BIGINT, BIGINT],
    returnType: BIGINT,
    volatile: true,
    mainFunction: rowwise(([session, value]) => {
      last.set(session!, value!)
      return value!
    })
  }))
  connection.registerScalarFunction(DuckDBScalarFunction.create({
    name: "hana_current_identity",
    parameterTypes: [BIGINT],
    returnType: BIGINT,
    volatile: true,
    mainFunction: rowwise(([session]) => last.get(session!) ?? null)
  }))
}
