/**
 * Migrations on Oracle, with `effect/sql`'s loaders (`fromRecord`, `fromGlob`, `fromFileSystem`, …). Oracle commits
 * DDL at once, so each migration runs in its own transaction with its record: a migration of DML only is all or
 * nothing, and a failure stops the run with a `MigrationError` naming the migrations that ran (they stay recorded)
 * and warning that DDL the failed migration ran stays. See `src/sql/Migrator.ts`.
 *
 * ```ts
 * const MigratorLive = OracleMigrator.layer({ loader: OracleMigrator.fromRecord({ "1_create_users": createUsers }) })
 * ```
 *
 * @since 0.1.0
 */
import { Layer } from "effect"
import { Migrator as EffectMigrator } from "effect/sql"
import * as Migrator from "../../src/sql/Migrator.ts"

/** @category loaders @since 0.1.0 */
export const fromRecord = EffectMigrator.fromRecord
/** @category loaders @since 0.1.0 */
export const fromGlob = EffectMigrator.fromGlob
/** @category loaders @since 0.1.0 */
export const fromBabelGlob = EffectMigrator.fromBabelGlob
/** Loads `<id>_<name>.ts|js|mts|mjs` files of a directory in id order. @category loaders @since 0.1.0 */
export const fromFileSystem = Migrator.fromFileSystem
/** @category errors @since 0.1.0 */
export const MigrationError = EffectMigrator.MigrationError

/**
 * Runs the pending migrations on the `SqlClient` in context (an `OracleClient`); returns the `[id, name]` of each
 * that ran.
 *
 * @category constructors
 * @since 0.1.0
 */
export const run = Migrator.make({
  mode: "per-migration",
  createTableSql: (table) =>
    `CREATE TABLE ${table} (MIGRATION_ID NUMBER(10) NOT NULL PRIMARY KEY, NAME VARCHAR2(255) NOT NULL, ` +
    `CREATED_AT TIMESTAMP DEFAULT SYSTIMESTAMP NOT NULL)`,
  // ORA-00955: name is already used by an existing object
  alreadyExistsCode: 955
})

/**
 * A layer that runs the migrations when built.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer = <R>(options: Parameters<typeof run<R>>[0]) => Layer.effectDiscard(run(options))
