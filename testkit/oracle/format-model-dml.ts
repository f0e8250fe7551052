/**
 * A client's DML statement with a format model that is an expression (format-model-sites.ts): its format values
 * learned from a query first when it takes NEXTVAL (so that it runs, and advances the sequence, once; once per bind
 * row, since a batch's rows may meet different values), then run, undone and run again until it meets no format
 * value it did not know (with triggers, its rows are read, and the new values met, before any trigger fires).
 */
import { ora } from "./errors.ts"
import { dynamicFormatModels, formatValuesPending, probeFormatValuesOnce, type SequenceStates, settleFormatSites } from "./format-model-sites.ts"
import { tokenize } from "./lexer.ts"

/** What {@link dmlWithFormatExpressions} needs of the session. */
export interface FormatDmlHost<V, S, R> {
  /** Runs a query with its binds and their specs and reads all its rows (`peeking`: its NEXTVAL takes no value). */
  readAll(sql: string, params: ReadonlyArray<V | null>, specs: ReadonlyArray<S>, peeking: boolean): Promise<void>
  /** The engine's sequences now, and the schema of an unqualified one ({@link engineSequenceStates}). */
  sequences(): Promise<{ readonly schema: string; readonly states: SequenceStates }>
  /** Runs `body` as one statement: its writes undone when it fails. */
  atomically(body: () => Promise<R>): Promise<R>
  /** Runs the DML statement `sql` (its format calls rewritten) for the bind rows. */
  dml(sql: string, rows: ReadonlyArray<ReadonlyArray<V>>, specs: ReadonlyArray<S>): Promise<R>
}

/** Runs `sql` (bind rows `rows`, their specs `specs`) as described above. */
export const dmlWithFormatExpressions = async <V, S, R>(host: FormatDmlHost<V, S, R>, sql: string, rows: ReadonlyArray<ReadonlyArray<V>>, specs: ReadonlyArray<S>): Promise<R> => {
  await probeFormatValuesOnce(sql, rows, specs, (q, params, probeSpecs, peeking) => host.readAll(q, params, probeSpecs, peeking), () => host.sequences())
  return settleFormatSites(sql, () =>
    host.atomically(async () => {
      const { toks, bindOrigins } = dynamicFormatModels(tokenize(sql), sql)!
      const repeated = <T>(xs: ReadonlyArray<T>) => bindOrigins.filter((p) => p < xs.length).map((p) => xs[p]!)
      const result = await host.dml(toks.map((t) => t.text).join(""), rows.map(repeated), repeated(specs))
      // batch errors keep a run going past the values it did not know: undone and run again
      if (formatValuesPending(sql)) throw ora.notAllBound()
      return result
    })
  )
}

/** The engine's sequences by `SCHEMA.NAME` (engine names): the value their next NEXTVAL gives and their increment. */
export const engineSequenceStates = async (queryAll: (sql: string) => Promise<ReadonlyArray<ReadonlyArray<unknown>>>): Promise<SequenceStates> => {
  const rows = await queryAll("SELECT schema_name, sequence_name, last_value, increment_by, start_value FROM duckdb_sequences()")
  return new Map(
    rows.map(([schema, name, last, step, start]) => {
      const increment = BigInt(String(step))
      return [`${String(schema)}.${String(name)}`, { next: last === null || last === undefined ? BigInt(String(start)) : BigInt(String(last)) + increment, step: increment }] as const
    })
  )
}
