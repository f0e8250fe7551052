/**
 * effect-adbc: Arrow-native database connectivity on Effect.
 *
 * @since 0.1.0
 */
export * as AdbcError from "./AdbcError.ts"
export * as Connection from "./Connection.ts"
export * as ConnectionPool from "./ConnectionPool.ts"
export * as Database from "./Database.ts"
export * as Driver from "./Driver.ts"
export * as Ingest from "./Ingest.ts"
export * as Options from "./Options.ts"
export * as Reader from "./Reader.ts"
export * as StandardOptions from "./StandardOptions.ts"
export * as Statement from "./Statement.ts"
export * as Telemetry from "./Telemetry.ts"
export * as ArrowAssembly from "./arrow/index.ts"
export * as ArrowIpc from "./ArrowIpc.ts"
export * as Catalog from "./catalog/index.ts"
/** Options every `effect/sql` client of the package takes (HanaClient, OracleClient extend it). */
export type { ArrowAccess, ClientConfig } from "./sql/Client.ts"
/** How a database's statement compiler quotes, binds and names (HanaCompiler, OracleCompiler), and the kinds of value it casts. */
export type { DialectSpec, ValueKind } from "./sql/Compiler.ts"
