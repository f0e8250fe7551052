/**
 * What the effect/sql suites need per database: the test server (or the real database named by HANA_URI /
 * ORACLE_URI), the client layer on it, and the database's column types for the same logical table.
 */
import { type Context, Effect, type Layer } from "effect"
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
    readonly server:
      | {
        readonly faults: Record<string, unknown>
        readonly openResultSets: () => number
        /**
         * The server's counters: `lockWaits` grows when a call begins to wait for another transaction's lock,
         * `cancels` when a client asks to cancel its running call.
         */
        readonly stats: { readonly lockWaits: number; readonly cancels: number; readonly requests: number }
      }
      | undefined
    readonly uri: string
  }
  readonly layer: (config: Client.ClientConfig) => Layer.Layer<SqlClient.SqlClient, SqlError.SqlError>
  /** The database's own client service (`HanaClient.HanaClient`, `OracleClient.OracleClient`), which `layer` provides too. */
  readonly service: Context.Key<never, SqlClient.SqlClient & Client.ArrowAccess & { readonly config: Client.ClientConfig }>
  readonly layerConfig: typeof HanaClient.layerConfig
  readonly migrate: typeof HanaMigrator.run
  /** The migrator as a layer that runs the migrations when it is built. */
  readonly migratorLayer: typeof HanaMigrator.layer
  /** Column types: integer, big integer, decimal(12,2), double, text(40), date, timestamp, binary(16), LOB text, boolean. */
  readonly types: {
    readonly int: string
    readonly bigint: string
    readonly decimal: string
    readonly double: string
    readonly text: string
    readonly date: string
    readonly timestamp: string
    /** The timestamp type with the most fraction digits (HANA 7, Oracle 9: read as nanoseconds). */
    readonly fineTimestamp: string
    readonly binary: string
    readonly clob: string
    readonly bool: string
  }
  /** The one-row table. */
  readonly dual: string
  /** A statement the server runs for `seconds` seconds. */
  readonly sleep: (seconds: number) => string
  /** The vendor code of a unique violation, a NOT NULL violation and a syntax error. */
  readonly codes: { readonly unique: number; readonly notNull: number; readonly syntax: number }
  /**
   * A second user of the test server (not on a real database) and a statement the database refuses it with an
   * insufficient-privilege error (`code`), after `grant` (run by the first user) where the database needs one first.
   */
  readonly peer: {
    readonly user: string
    readonly password: string
    readonly code: number
    readonly grant: (table: string) => string | undefined
    readonly denied: (table: string) => string
  }
}

const PEER = { user: "SQLPEER", password: "Peer1234" }

export const hana: SqlTarget = {
  name: "hana",
  real: (process.env["HANA_URI"] ?? "") !== "",
  useServer: (() => useHanaServer({ users: [{ name: "SYSTEM", password: "Manager1" }, { name: PEER.user, password: PEER.password }] })) as SqlTarget["useServer"],
  layer: HanaClient.layer,
  service: HanaClient.HanaClient as never,
  layerConfig: HanaClient.layerConfig,
  migrate: HanaMigrator.run,
  migratorLayer: HanaMigrator.layer,
  types: {
    int: "INTEGER",
    bigint: "BIGINT",
    decimal: "DECIMAL(12,2)",
    double: "DOUBLE",
    text: "NVARCHAR(40)",
    date: "DATE",
    timestamp: "TIMESTAMP",
    fineTimestamp: "TIMESTAMP",
    binary: "VARBINARY(16)",
    clob: "NCLOB",
    bool: "BOOLEAN"
  },
  dual: "DUMMY",
  sleep: (seconds) => `SELECT SLEEP_SECONDS(${seconds}) AS X FROM DUMMY`,
  codes: { unique: 301, notNull: 287, syntax: 257 },
  // user administration needs the USER ADMIN system privilege: error 258 "insufficient privilege" without it (SAP HANA
  // SQL Reference, CREATE USER statement; the test server models no object privileges, see testkit/hana/README.md)
  peer: { ...PEER, code: 258, grant: () => undefined, denied: () => "CREATE USER SQLOTHER PASSWORD Other1234" }
}

export const oracle: SqlTarget = {
  name: "oracle",
  real: (process.env["ORACLE_URI"] ?? "") !== "",
  useServer: (() => useOracleServer({ users: [{ name: "TEST", password: "test" }, { name: PEER.user, password: PEER.password }] })) as SqlTarget["useServer"],
  layer: OracleClient.layer,
  service: OracleClient.OracleClient as never,
  layerConfig: OracleClient.layerConfig as SqlTarget["layerConfig"],
  migrate: OracleMigrator.run,
  migratorLayer: OracleMigrator.layer as typeof HanaMigrator.layer,
  types: {
    int: "NUMBER(10)",
    bigint: "NUMBER(18)",
    decimal: "NUMBER(12,2)",
    double: "BINARY_DOUBLE",
    text: "VARCHAR2(40)",
    date: "DATE",
    timestamp: "TIMESTAMP(6)",
    fineTimestamp: "TIMESTAMP(9)",
    binary: "RAW(16)",
    clob: "CLOB",
    bool: "BOOLEAN"
  },
  dual: "DUAL",
  sleep: (seconds) => `BEGIN DBMS_SESSION.SLEEP(${seconds}); END;`,
  codes: { unique: 1, notNull: 1400, syntax: 900 },
  // a user granted SELECT but not INSERT on another schema's table gets ORA-01031 on INSERT
  // (https://docs.oracle.com/en/error-help/db/ora-01031/)
  peer: {
    ...PEER,
    code: 1031,
    grant: (table) => `GRANT SELECT ON ${table} TO ${PEER.user}`,
    denied: (table) => `INSERT INTO TEST.${table} (ID) VALUES (1)`
  }
}

/** The client in context with its Arrow access. */
export const sqlClient = Effect.map(SqlClient.SqlClient, (sql) => sql as SqlClient.SqlClient & Client.ArrowAccess)
