/**
 * `ALTER SEQUENCE [schema.]name {INCREMENT BY n | MAXVALUE n | NOMAXVALUE | MINVALUE n | NOMINVALUE | CYCLE | NOCYCLE
 * | CACHE n | NOCACHE | RESTART [START WITH n]} ...` (SQL Language Reference, "ALTER SEQUENCE"; RESTART since 18c).
 * DuckDB cannot alter a sequence, so it is made again with the new options, continuing after the last value handed
 * out (the next value is the last plus the new increment; RESTART goes back to START WITH n, or to MINVALUE of an
 * ascending / MAXVALUE of a descending sequence). START WITH without RESTART is ORA-02283 "cannot alter starting
 * sequence number"; a MAXVALUE below the current value ORA-04009 "MAXVALUE cannot be made to be less than the
 * current value" (Database Error Messages); the other option checks are sequence-checks.ts's.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { checkSequenceOptions } from "./sequence-checks.ts"
import { quoteDuck } from "./names.ts"

/** What {@link alterSequence} needs of the engine session. */
export interface SequenceEngine {
  execute(sql: string): Promise<number>
  queryAll(sql: string, params?: ReadonlyArray<string>): Promise<Array<Array<unknown>>>
}

const DEFAULT_MAX = 9223372036854775807n

/** Alters DuckDB sequence `schema.name` (encoded names) by the options `toks[at..]`. */
export const alterSequence = async (engine: SequenceEngine, schema: string, name: string, toks: ReadonlyArray<Tok>, at: number): Promise<void> => {
  const rows = await engine.queryAll(
    "SELECT start_value, min_value, max_value, increment_by, cycle, last_value FROM duckdb_sequences() WHERE schema_name = $1 AND sequence_name = $2",
    [schema, name]
  )
  const row = rows[0]
  if (row === undefined) throw new OraError(2289, "sequence does not exist")
  const big = (v: unknown) => BigInt(String(v))
  let [min, max, increment] = [big(row[1]), big(row[2]), big(row[3])]
  let cycle = row[4] === true
  const last = row[5] === null || row[5] === undefined ? undefined : big(row[5])
  let restart: bigint | "default" | undefined
  const given: { increment?: number; minValue?: number; maxValue?: number; cache?: number } = {}
  const num = (j: number) => {
    const neg = isOp(toks[j], "-")
    const t = toks[neg ? j + 1 : j]
    if (t?.kind !== "num") throw new OraError(933, "SQL command not properly ended")
    return { value: BigInt((neg ? "-" : "") + t.value), next: neg ? j + 2 : j + 1 }
  }
  for (let k = at; k < toks.length; ) {
    const t = toks[k]!
    if (isKw(t, "INCREMENT") && isKw(toks[k + 1], "BY")) {
      const n = num(k + 2)
      increment = n.value
      given.increment = Number(n.value)
      k = n.next
    } else if (isKw(t, "MAXVALUE", "MINVALUE")) {
      const n = num(k + 1)
      if (isKw(t, "MAXVALUE")) [max, given.maxValue] = [n.value, Number(n.value)]
      else [min, given.minValue] = [n.value, Number(n.value)]
      k = n.next
    } else if (isKw(t, "NOMAXVALUE")) [max, k] = [DEFAULT_MAX, k + 1]
    else if (isKw(t, "NOMINVALUE")) [min, k] = [1n, k + 1]
    else if (isKw(t, "CYCLE", "NOCYCLE")) [cycle, k] = [isKw(t, "CYCLE"), k + 1]
    else if (isKw(t, "CACHE")) {
      given.cache = Number(num(k + 1).value)
      k = num(k + 1).next
    } else if (isKw(t, "NOCACHE", "ORDER", "NOORDER", "KEEP", "NOKEEP", "SCALE", "NOSCALE", "GLOBAL", "SESSION")) k++
    else if (isKw(t, "RESTART")) {
      if (isKw(toks[k + 1], "START") && isKw(toks[k + 2], "WITH")) {
        const n = num(k + 3)
        restart = n.value
        k = n.next
      } else [restart, k] = ["default", k + 1]
    } else if (isKw(t, "START")) throw new OraError(2283, "cannot alter starting sequence number")
    else throw new OraError(933, "SQL command not properly ended")
  }
  checkSequenceOptions(given)
  if (last !== undefined && restart === undefined && increment > 0n && max < last) throw new OraError(4009, "MAXVALUE cannot be made to be less than the current value")
  const start = restart === "default" ? (increment > 0n ? min : max) : restart !== undefined ? restart : last === undefined ? big(row[0]) : last + increment
  const target = `${quoteDuck(schema)}.${quoteDuck(name)}`
  await engine.execute(`DROP SEQUENCE ${target}`)
  await engine.execute(`CREATE SEQUENCE ${target} START ${start} INCREMENT BY ${increment} MINVALUE ${min} MAXVALUE ${max}${cycle ? " CYCLE" : ""}`)
}
