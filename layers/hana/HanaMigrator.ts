/**
 * Migrations on SAP HANA, with `effect/sql`'s loaders (`fromRecord`, `fromGlob`, `fromFileSystem`, …). All pending
 * migrations and their records run in one transaction with transactional DDL, so a failed migration leaves the
 * database as it was, tables created before it in the same run included. See `src/sql/Migrator.ts`.
 *
 * ```ts
 * const MigratorLive = HanaMigrator.layer({ loader: HanaMigrator.fromRecord({ "1_create_users": createUsers }) })
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
 * Runs the pending migrations on the `SqlClient` in context (a `HanaClient`); returns the `[id, name]` of each that
 * ran.
 *
 * @category constructors
 * @since 0.1.0
 */
export const run = Migrator.make({
  mode: "transactional",
  createTableSql: (table) =>
    `CREATE TABLE ${table} (MIGRATION_ID INTEGER NOT NULL PRIMARY KEY, NAME NVARCHAR(255) NOT NULL, ` +
    `CREATED_AT TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
  // 288: cannot use duplicate table name
  alreadyExistsCode: 288
})

/**
 * A layer that runs the migrations when built.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer = <R>(options: Parameters<typeof run<R>>[0]) => Layer.effectDiscard(run(options))
