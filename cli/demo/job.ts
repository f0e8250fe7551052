/**
 * The main job (`npm start`, `adbc demo`): generate a lineitem-like Arrow dataset, ingest it into HANA, copy it from
 * HANA to Oracle as a stream of Arrow batches, verify row counts and checksums on both sides, list the created
 * tables through GetObjects, and print a summary with rows/s and MB/s per step.
 *
 * With HANA_URI / ORACLE_URI unset, both test servers are started for the job's lifetime; with either set, that
 * database is used instead (its other options from the same environment: `HANA_DBA_…`, `ORACLE_REDO_…`).
 */
import { type Config, Console, Context, Effect, Layer, Schema, type Scope, Stream } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import type * as Database from "../../src/Database.ts"
import { databaseFromEnv, databaseOnTestServer, type DriverName, hasEnvUri } from "../drivers.ts"
import { copyQuery } from "../copy.ts"
import { formatCount, formatMegabytes, type Progress, type StepFigures } from "../progress.ts"
import { renderTable } from "../table.ts"
import { ChecksumAccumulator } from "./checksum.ts"
import { failedChecks } from "./checks.ts"
import { lineitem, lineitemSchema } from "./lineitem.ts"
import { ingestStep, listTables, type ListedTable, quote, verifyStep } from "./steps.ts"

/** Options of the main job. */
export interface DemoOptions {
  /** Rows to generate (default 200,000). */
  readonly rows: number
  /** Seed of the generated data: the same seed gives the same rows. */
  readonly seed: number
  /** Name of the table created on both databases. */
  readonly table: string
}

/** Defaults of {@link DemoOptions}. */
export const demoDefaults: DemoOptions = { rows: 200_000, seed: 42, table: "ADBC_DEMO_LINEITEM" }

/** The checks failed: the copies differ from the generated data. */
export class DemoCheckFailed extends Schema.TaggedError<DemoCheckFailed>()("DemoCheckFailed", {
  problems: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `checks failed: ${this.problems.join("; ")}`
  }
}

/** What the job reports. */
export interface DemoSummary {
  readonly steps: ReadonlyArray<StepFigures>
  readonly tables: ReadonlyArray<ListedTable & { readonly database: string }>
  readonly sources: Record<DriverName, string>
}

/** The Database for `driver`: the real one named by the environment, else its test server. */
const databaseFor = (driver: DriverName): Effect.Effect<
  { readonly layer: Layer.Layer<Database.Database, AdbcError | Config.ConfigError>; readonly source: string }
> =>
  Effect.map(hasEnvUri(driver), (real) =>
    real
      ? { layer: databaseFromEnv(driver), source: `${driver === "hana" ? "HANA" : "Oracle"} from ${driver.toUpperCase()}_URI` }
      : { layer: databaseOnTestServer(driver), source: `${driver === "hana" ? "HANA" : "Oracle"} test server` })

/** Opens a connection on `driver`'s database for the current scope. */
const connect = (driver: DriverName) =>
  Effect.gen(function*() {
    const { layer, source } = yield* databaseFor(driver)
    const context = yield* Layer.build(Connection.layer().pipe(Layer.provide(layer)))
    return { context, source }
  })

/**
 * A step a test adds to the job, to see its checks fail for real: `afterCopy` runs on the Oracle connection between
 * the copy and the verification (e.g. deleting a row). The CLI passes none.
 */
export interface DemoHooks {
  readonly afterCopy?: Effect.Effect<void, AdbcError, Connection.Connection> | undefined
}

/** Runs the main job; fails {@link DemoCheckFailed} when a check does not pass. */
export const runDemo = (
  options: DemoOptions,
  hooks: DemoHooks = {}
): Effect.Effect<DemoSummary, AdbcError | Config.ConfigError | DemoCheckFailed, Progress | Scope.Scope> =>
  Effect.gen(function*() {
    const steps: Array<StepFigures> = []
    const record = (figures: StepFigures) => void steps.push(figures)
    const columns = lineitemSchema.fields.map((f) => f.name)
    const { table, rows } = options

    const [hana, oracle] = yield* Effect.all([connect("hana"), connect("oracle")], { concurrency: 2 })
    /** Runs a program on HANA or on Oracle: the program is the same, only the Layer differs. */
    const on = (side: typeof hana) => <A, E, R>(program: Effect.Effect<A, E, R>) => Effect.provide(program, side.context)
    const onHana = on(hana)
    const onOracle = on(oracle)

    // 1. Generate the dataset batch by batch and ingest it into HANA, checksumming what was generated on the way.
    const generated = new ChecksumAccumulator()
    const source = lineitem({ rows, seed: options.seed }).pipe(
      Stream.tap((batch) => Effect.sync(() => generated.add(batch)))
    )
    yield* onHana(ingestStep("ingest into HANA", { schema: lineitemSchema, batches: source }, {
      targetTable: table,
      mode: "replace",
      totalRows: rows,
      onFinish: record
    }))

    // 2. Copy HANA → Oracle: HANA's reader streams Arrow batches straight into Oracle's bulk ingest.
    yield* copyQuery(
      Context.get(hana.context, Connection.Connection),
      Context.get(oracle.context, Connection.Connection),
      `SELECT ${columns.map(quote).join(", ")} FROM ${quote(table)}`,
      { targetTable: table, mode: "replace" },
      { step: "copy HANA → Oracle", totalRows: rows, onFinish: record }
    )

    if (hooks.afterCopy !== undefined) yield* onOracle(hooks.afterCopy)

    // 3. Verify both sides with the same program.
    const verify = (side: string) => verifyStep(`verify ${side}`, table, columns, { totalRows: rows, onFinish: record })
    const onHanaVerified = yield* onHana(verify("HANA"))
    const onOracleVerified = yield* onOracle(verify("Oracle"))

    // 4. List what was created, through GetObjects, on both.
    const listed = [
      ...(yield* onHana(listTables(table))).map((t) => ({ ...t, database: "HANA" })),
      ...(yield* onOracle(listTables(table))).map((t) => ({ ...t, database: "Oracle" }))
    ]

    const expected = generated.result()
    const problems = failedChecks({
      table,
      askedRows: rows,
      generated: expected,
      verified: [["HANA", onHanaVerified], ["Oracle", onOracleVerified]],
      listed
    })
    const summary: DemoSummary = { steps, tables: listed, sources: { hana: hana.source, oracle: oracle.source } }
    yield* printSummary(summary, expected.rows, problems)
    if (problems.length > 0) return yield* new DemoCheckFailed({ problems })
    return summary
  })

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, rightAligned: ReadonlySet<number>) =>
  renderTable(header, rows, (c) => rightAligned.has(c), { separator: "  ", ruleJoint: "  " }).join("\n")

const printSummary = (summary: DemoSummary, generatedRows: number, problems: ReadonlyArray<string>) =>
  Console.log([
    "",
    `Summary (${summary.sources.hana}, ${summary.sources.oracle}; ${formatCount(generatedRows)} rows generated)`,
    table(
      ["step", "rows", "MB", "seconds", "rows/s", "MB/s"],
      summary.steps.map((s) => [
        s.step,
        formatCount(s.rows),
        formatMegabytes(s.bytes),
        s.seconds.toFixed(2),
        formatCount(s.seconds > 0 ? s.rows / s.seconds : 0),
        formatMegabytes(s.seconds > 0 ? s.bytes / s.seconds : 0)
      ]),
      new Set([1, 2, 3, 4, 5])
    ),
    "",
    "Objects listed by GetObjects:",
    table(
      ["database", "catalog", "schema", "table", "type", "columns"],
      summary.tables.map((t) => [t.database, t.catalog ?? "", t.dbSchema ?? "", t.table, t.type, String(t.columns)]),
      new Set([5])
    ),
    "",
    problems.length === 0
      ? `checks passed: row counts and checksums of all ${lineitemSchema.fields.length} columns match on HANA and Oracle`
      : `checks FAILED:\n${problems.map((p) => `  ${p}`).join("\n")}`
  ].join("\n"))

