/**
 * What the effect/sql suites need per database: the test server (or the real database named by HANA_URI /
 * ORACLE_URI), the client layer on it, and the database's column types for the same logical table.
 */
import { Effect, type Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import * as HanaClient from "../../layers/hana/HanaClient.ts"
import * as HanaMigrator from "../../layers/hana/HanaMigrator.ts"
import * as OracleMigrator from "../../layers/oracle/OracleMigrator.ts"
import * as OracleClient from "../../layers/oracle/OracleClient.ts"
import type * as Client from "../../src/sql/Client.ts"
import { useServer as useHanaServer } from "../hana/support.ts"
import { useServer as useOracleServer } from "../oracle/support.ts"

/** A database the suites run on. */
export interface SqlTarget {
  readonly name: "hana" | "oracle"
  readonly real: boolean
  readonly useServer: () => {
    readonly server: { readonly faults: Record<string, unknown>; readonly openResultSets: () => number } | undefined
    readonly uri: string
  }
  readonly layer: (config: Client.ClientConfig) => Layer.Layer<SqlClient.SqlClient, SqlError.SqlError>
  readonly layerConfig: typeof HanaClient.layerConfig
  readonly migrate: typeof HanaMigrator.run
  /** Column types: integer, big integer, decimal(12,2), double, text(40), date, timestamp, binary(16), LOB text, boolean. */
  readonly types: {
    readonly int: string
    readonly bigint: string
    readonly decimal: string
    readonly double: string
    readonly text: string
    readonly date: string
    readonly timestamp: string
    readonly binary: string
    readonly clob: string
    readonly bool: string
  }
  /** The one-row table. */
  readonly dual: string
  /** The vendor code of a unique violation, a NOT NULL violation and a syntax error. */
  readonly codes: { readonly unique: number; readonly notNull: number; readonly syntax: number }
}

export const hana: SqlTarget = {
  name: "hana",
  real: (process.env["HANA_URI"] ?? "") !== "",
  useServer: useHanaServer as SqlTarget["useServer"],
  layer: HanaClient.layer,
  layerConfig: HanaClient.layerConfig,
  migrate: HanaMigrator.run,
  types: {
    int: "INTEGER",
    bigint: "BIGINT",
    decimal: "DECIMAL(12,2)",
    double: "DOUBLE",
    text: "NVARCHAR(40)",
    date: "DATE",
    timestamp: "TIMESTAMP",
    binary: "VARBINARY(16)",
    clob: "NCLOB",
    bool: "BOOLEAN"
  },
  dual: "DUMMY",
  codes: { unique: 301, notNull: 287, syntax: 257 }
}

export const oracle: SqlTarget = {
  name: "oracle",
  real: (process.env["ORACLE_URI"] ?? "") !== "",
  useServer: useOracleServer as SqlTarget["useServer"],
  layer: OracleClient.layer,
  layerConfig: OracleClient.layerConfig as SqlTarget["layerConfig"],
  migrate: OracleMigrator.run,
  types: {
    int: "NUMBER(10)",
    bigint: "NUMBER(18)",
    decimal: "NUMBER(12,2)",
    double: "BINARY_DOUBLE",
    text: "VARCHAR2(40)",
    date: "DATE",
    timestamp: "TIMESTAMP(6)",
    binary: "RAW(16)",
    clob: "CLOB",
    bool: "BOOLEAN"
  },
  dual: "DUAL",
  codes: { unique: 1, notNull: 1400, syntax: 900 }
}

/** The client in context with its Arrow access. */
export const sqlClient = Effect.map(SqlClient.SqlClient, (sql) => sql as SqlClient.SqlClient & Client.ArrowAccess)
