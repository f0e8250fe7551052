/**
 * `effect/sql` migrations on HANA and Oracle. `Migrator.make` creates its table with one of five other databases'
 * DDL (`CREATE TABLE IF NOT EXISTS … datetime …`), which neither database accepts, so this migrator keeps its
 * contract (loaders, `MigrationError` kinds, `[id, name]` of what ran, `effect_sql_migrations` by default) with the
 * table and the atomicity each database allows:
 *
 * - `transactional` (HANA): every pending migration and its record run in one transaction with transactional DDL
 *   (`SET TRANSACTION AUTOCOMMIT DDL OFF`); a failure rolls back all of it, DDL included: the database is as it was.
 * - `per-migration` (Oracle, whose DDL commits implicitly): each migration runs in its own transaction with its
 *   record, so a migration of DML only is all or nothing; a failure stops the run and its `MigrationError` names the
 *   migrations that ran (and stay recorded) and warns that DDL the failed one ran before failing stays.
 *
 * Concurrent runs: records are inserted under the table's primary key, so a second run fails its insert and returns
 * without running anything (`Locked`, as `Migrator.make`).
 *
 * @since 0.1.0
 */
import { readdir } from "node:fs/promises"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { Context, Effect, Exit } from "effect"
import { Migrator, SqlClient, type SqlError } from "effect/sql"

/**
 * How a database keeps migrations atomic, and its migrations table.
 *
 * @category models
 * @since 0.1.0
 */
export interface MigratorSpec {
  readonly mode: "transactional" | "per-migration"
  /** `CREATE TABLE` of the migrations table (already quoted name), columns MIGRATION_ID, NAME, CREATED_AT. */
  readonly createTableSql: (quotedTable: string) => string
  /** The vendor code of "name already used" (the table exists). */
  readonly alreadyExistsCode: number
}

/**
 * Whether `withTransaction` also makes DDL transactional where the database can (HANA); set by the HANA migrator.
 *
 * @category references
 * @since 0.1.0
 */
export const TransactionalDdl = Context.Reference<boolean>("effect-adbc/sql/TransactionalDdl", {
  defaultValue: () => false
})

const vendorCode = (error: SqlError.SqlError): number | undefined =>
  (error.reason.cause as { readonly vendorCode?: number } | undefined)?.vendorCode

const isConflict = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "reason" in error &&
  ((error as SqlError.SqlError).reason._tag === "UniqueViolation" ||
    (error as SqlError.SqlError).reason._tag === "ConstraintError")

const loadMigration = ([id, name, load]: Migrator.ResolvedMigration) =>
  Effect.catchDefect(load, (defect) =>
    Effect.fail(
      new Migrator.MigrationError({ kind: "ImportError", message: `Could not import migration "${id}_${name}"\n\n${defect}` })
    )).pipe(
      Effect.flatMap((loaded: any) => {
        const effect = Effect.isEffect(loaded) ? loaded : loaded?.default?.default ?? loaded?.default
        return Effect.isEffect(effect)
          ? Effect.succeed(effect as Effect.Effect<unknown, unknown, SqlClient.SqlClient>)
          : Effect.fail(
            new Migrator.MigrationError({
              kind: "ImportError",
              message: `Default export not found or not an Effect for migration "${id}_${name}"`
            })
          )
      })
    )

/**
 * Runs the pending migrations of `options.loader` on the `SqlClient` in context; returns the `[id, name]` of each
 * one that ran.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = (spec: MigratorSpec) =>
<R = never>(
  { loader, table = "effect_sql_migrations" }: Migrator.MigratorOptions<R>
): Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError.SqlError,
  SqlClient.SqlClient | R
> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const quoted = sql`${sql(table)}`.compile(true)[0]
    yield* sql.unsafe(spec.createTableSql(quoted)).withoutTransform.pipe(
      Effect.asVoid,
      Effect.catchIf((error) => vendorCode(error) === spec.alreadyExistsCode, () => Effect.void)
    )
    const latest = Effect.map(
      sql<{ readonly LATEST: number | null }>`SELECT MAX(MIGRATION_ID) AS LATEST FROM ${sql(table)}`.withoutTransform,
      (rows) => Number(rows[0]?.LATEST ?? 0)
    )
    const record = (rows: ReadonlyArray<readonly [number, string]>) =>
      sql`INSERT INTO ${sql(table)} ${
        sql.insert(rows.map(([MIGRATION_ID, NAME]) => ({ MIGRATION_ID, NAME })) as unknown as [
          Record<string, unknown>,
          ...Array<Record<string, unknown>>
        ])
      }`.withoutTransform.pipe(
        Effect.mapError((error) =>
          isConflict(error) ? new Migrator.MigrationError({ kind: "Locked", message: "Migrations already running" }) : error
        )
      )
    const runOne = (id: number, name: string, effect: Effect.Effect<unknown, unknown, SqlClient.SqlClient>) =>
      effect.pipe(
        Effect.mapError((cause) => new Migrator.MigrationError({ cause, kind: "Failed", message: `Migration "${id}_${name}" failed` })),
        Effect.annotateLogs({ migration_id: String(id), migration_name: name }),
        Effect.withSpan(`Migrator ${id}_${name}`)
      )

    const pending = Effect.gen(function*() {
      const [done, current] = yield* Effect.all([latest, loader])
      if (new Set(current.map(([id]) => id)).size !== current.length) {
        return yield* new Migrator.MigrationError({ kind: "Duplicates", message: "Found duplicate migration id's" })
      }
      const required: Array<readonly [number, string, Effect.Effect<unknown, unknown, SqlClient.SqlClient>]> = []
      for (const resolved of [...current].sort(([a], [b]) => a - b)) {
        if (resolved[0] > done) required.push([resolved[0], resolved[1], yield* loadMigration(resolved)])
      }
      return required
    })

    const transactional = Effect.gen(function*() {
      const required = yield* pending
      if (required.length === 0) return []
      yield* record(required.map(([id, name]) => [id, name] as const))
      for (const [id, name, effect] of required) yield* runOne(id, name, effect)
      return required.map(([id, name]) => [id, name] as const)
    }).pipe(sql.withTransaction, Effect.provideService(TransactionalDdl, true))

    const perMigration = Effect.gen(function*() {
      const required = yield* pending
      const ran: Array<readonly [number, string]> = []
      for (const [id, name, effect] of required) {
        yield* sql.withTransaction(Effect.andThen(record([[id, name]]), runOne(id, name, effect))).pipe(
          Effect.catchIf(
            (error): error is Migrator.MigrationError => error instanceof Migrator.MigrationError && error.kind === "Failed",
            (error) =>
              // DDL the migration ran committed its record too (the database commits DDL at once): take it back, so
              // that the next run retries the migration instead of skipping it
              Effect.flatMap(Effect.exit(sql`DELETE FROM ${sql(table)} WHERE MIGRATION_ID = ${id}`.withoutTransform), (removed) =>
                Effect.fail(
                  new Migrator.MigrationError({
                    cause: error.cause,
                    kind: "Failed",
                    message: `${error.message}; ${
                      ran.length === 0 ? "no migration ran before it" : `ran and recorded before it: ${ran.map(([i, n]) => `${i}_${n}`).join(", ")}`
                    }; its DML was rolled back, DDL it ran before failing stays (the database commits DDL at once); ${
                      Exit.isSuccess(removed)
                        ? "it is not recorded, so the next run retries it"
                        : `its record could not be removed, so the next run skips it until MIGRATION_ID ${id} is deleted from the migrations table`
                    }`
                  })
                ))
          )
        )
        ran.push([id, name])
      }
      return ran
    })

    return yield* (spec.mode === "transactional" ? transactional : perMigration).pipe(
      Effect.catchTag("MigrationError", (error) =>
        error.kind === "Locked" ? Effect.as(Effect.logDebug(error.message), []) : Effect.fail(error))
    )
  })

/**
 * Loads the migrations of a directory: files named `<id>_<name>.ts|js|mts|mjs` whose default export is the
 * migration Effect, in id order (what `effect/sql`'s file-system loader does; it is not among effect 4.1's exports).
 *
 * @category loaders
 * @since 0.1.0
 */
export const fromFileSystem = (directory: string): Migrator.Loader =>
  Effect.tryPromise({
    try: () => readdir(directory),
    catch: (cause) =>
      new Migrator.MigrationError({ kind: "Failed", cause, message: `Failed to read migrations directory ${directory}` })
  }).pipe(Effect.map((files) =>
    files.flatMap((file): ReadonlyArray<Migrator.ResolvedMigration> => {
      const match = /^(\d+)_([^.]+)\.(js|ts|mjs|mts)$/.exec(file)
      if (match === null) return []
      const url = pathToFileURL(join(directory, file)).href
      return [[Number(match[1]), match[2]!, Effect.promise(() => import(/* @vite-ignore */ url))]]
    }).sort(([a], [b]) => a - b)
  ))
