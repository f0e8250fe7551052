/**
 * Internal: a statement on a connection's session (see src/Statement.ts for the public side): SQL or a bulk ingest,
 * its options and bound Arrow parameters.
 */
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import type { Scope } from "effect"
import { type AdbcError, invalidState, notImplemented } from "../AdbcError.ts"
import { type BoundParameters, type CallIntent, type DriverResult, unsupported } from "../Driver.ts"
import { requestFromOptions, runIngest } from "./ingest.ts"
import type { Session } from "./session.ts"
import { Attr, measured, type SpanAttributes, spanName, statementAttributes, traced } from "./telemetry.ts"
import { getRaw, OptionStore, type ResolvedOptions } from "../Options.ts"
import { emptyCursor, fromCursor, fromRows } from "./reader.ts"
import * as Std from "../StandardOptions.ts"
import type { StatementShape } from "../Statement.ts"

type Bound =
  | { readonly _tag: "Batches"; readonly schema: Arrow.Schema; readonly batches: ReadonlyArray<Arrow.RecordBatch> }
  | {
    readonly _tag: "Stream"
    readonly schema: Arrow.Schema
    readonly batches: Stream.Stream<Arrow.RecordBatch, AdbcError>
  }

/**
 * Internal: a statement of `session` with initial statement-level options.
 *
 * @category constructors
 * @since 0.1.0
 * @internal
 */
export const makeStatement = (
  session: Session,
  initial: Readonly<Record<string, string>> = {}
): Effect.Effect<StatementShape, AdbcError> =>
  Effect.gen(function*() {
    const store = yield* Effect.fromResult(OptionStore.make(session.registry, "statement", initial))
    let sql: string | undefined
    let bound: Bound | undefined
    const options = (): ResolvedOptions => session.options().narrow(store)

    const requireSql = Effect.suspend(() =>
      sql === undefined ? Effect.fail(invalidState("no SQL query set on the statement")) : Effect.succeed(sql)
    )
    const isIngest = () => store.raw(Std.IngestTargetTable.key) !== undefined

    const parameters: Effect.Effect<BoundParameters | undefined, AdbcError> = Effect.suspend(() => {
      if (bound === undefined) return Effect.succeed(undefined)
      if (bound._tag === "Batches") return Effect.succeed({ schema: bound.schema, batches: bound.batches })
      const schema = bound.schema
      return Effect.map(Stream.runCollect(bound.batches), (batches) => ({ schema, batches }))
    })

    const batchCap = () => {
      const { bytes, mode, rows } = session.driver.batchCap
      const resolved = options()
      return { rows: resolved.value(rows), mode, bytes: bytes === undefined ? 0 : resolved.value(bytes) }
    }

    const run = (intent: CallIntent): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
      Effect.gen(function*() {
        const text = yield* requireSql
        const params = yield* parameters
        return yield* session.request(
          session.connection.execute({ sql: text, parameters: params, options: options(), intent })
        )
      })

    /** OUT and IN/OUT parameters come back as result columns, which an update has no place for. */
    const refuseOutParameters = Effect.suspend(() => {
      const direction = session.driver.outParameters?.direction
      if (bound === undefined || direction === undefined) return Effect.void
      const index = bound.schema.fields.findIndex((f) => direction(f) !== "in")
      if (index < 0) return Effect.void
      const field = bound.schema.fields[index]!
      return Effect.fail(notImplemented(
        `executeUpdate does not support OUT or IN/OUT parameters (parameter ${index + 1} ${JSON.stringify(field.name)} ` +
          `is ${direction(field).toUpperCase()}); run the statement with executeQuery, which returns their values as columns`
      ))
    })

    /** Runs `effect` in the statement's span, named and attributed after its SQL, and records its duration. */
    const tracedCall = <A, R>(
      effect: (attributes: SpanAttributes) => Effect.Effect<A, AdbcError, R>,
      outcome?: (value: A) => SpanAttributes
    ) =>
      Effect.flatMap(requireSql, (text) => {
        const attributes = statementAttributes(session.telemetry, options(), text)
        const call = measured(session.telemetry, attributes, effect(attributes))
        return traced(session.telemetry, spanName(attributes), attributes, call, outcome)
      })

    const executeQuery = Effect.suspend(() => {
      if (isIngest()) return Effect.fail(invalidState("bulk ingest runs with executeUpdate, not executeQuery"))
      return tracedCall((attributes) =>
        Effect.gen(function*() {
          const result = yield* run("query")
          if (result._tag === "Rows") return yield* fromRows(session, result, batchCap(), attributes)
          const out = result.out
          if (out !== undefined) return yield* fromRows(session, { cursor: emptyCursor, out }, batchCap(), attributes)
          const reader = yield* fromCursor(session, emptyCursor, batchCap(), attributes)
          return { ...reader, rowsAffected: result.rowsAffected }
        })
      )
    })

    const executeUpdate = Effect.gen(function*() {
      if (isIngest()) {
        if (bound === undefined) return yield* invalidState("bulk ingest needs data: bind a batch or a stream first")
        const data = bound._tag === "Batches"
          ? { schema: bound.schema, batches: Stream.fromIterable(bound.batches) }
          : bound
        const resolved = options()
        return yield* runIngest(session, resolved, yield* Effect.fromResult(requestFromOptions(resolved)), data)
      }
      yield* refuseOutParameters
      return yield* tracedCall(() =>
        Effect.scoped(
          Effect.gen(function*() {
            const result = yield* run("update")
            if (result._tag === "Count") return result.rowsAffected
            yield* result.cursor.close
            yield* Effect.forEach(result.more ?? [], (c) => c.close, { discard: true })
            return -1
          })
        ),
        (rows): SpanAttributes => rows >= 0 ? { [Attr.affectedRows]: rows } : {}
      )
    })

    const describe = Effect.gen(function*() {
      const text = yield* requireSql
      const hook = session.connection.describe
      if (hook === undefined) return yield* unsupported(session.driver, "describing a statement's result schema")
      return yield* session.request(hook(text, options()))
    })

    const statement: StatementShape = {
      setSqlQuery: (text) =>
        Effect.sync(() => {
          sql = text
        }),
      setOption: (key, value) => Effect.fromResult(store.setSync(key, value)),
      getOption: (key) => getRaw(options(), key),
      prepare: Effect.asVoid(describe),
      bind: (data) =>
        Effect.sync(() => {
          bound = data instanceof Arrow.Table
            ? { _tag: "Batches", schema: data.schema, batches: data.batches }
            : { _tag: "Batches", schema: data.schema, batches: [data] }
        }),
      bindStream: (schema, batches) =>
        Effect.sync(() => {
          bound = { _tag: "Stream", schema, batches }
        }),
      executeQuery,
      executeUpdate,
      executeSchema: describe,
      getParameterSchema: Effect.gen(function*() {
        const hook = session.connection.parameterSchema
        if (hook === undefined) return yield* unsupported(session.driver, "describing statement parameters")
        const text = yield* requireSql
        return yield* session.request(hook(text, options()))
      }),
      cancel: session.guard(session.connection.cancel)
    }
    return statement
  })
