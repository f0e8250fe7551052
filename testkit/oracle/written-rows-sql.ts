/**
 * The engine SQL that finds the rows an UPDATE, DELETE or MERGE (translated) will change, before it runs, so that the
 * session can wait for the rows other transactions lock and lock them itself (row-locks.ts `rowsToWrite`): the
 * statement's table and WHERE condition, a MERGE's matched target rows, and an executeMany's bind rows joined into one
 * query per chunk.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { findTopLevel, isKw, isOp, type Tok } from "./lexer.ts"

/** An engine statement's significant tokens, with the text between two of them (row-locks.ts `engineStatement`). */
export interface EngineStatement {
  readonly toks: Array<Tok>
  readonly text: (a: number, b: number) => string
}

/** Bind rows joined into one query for the rows an executeMany UPDATE / DELETE writes (a bound on its parameters). */
export const BIND_ROWS_PER_QUERY = 2000

/**
 * The bind columns `used` of `rows` as one JSON array parameter each, unnested side by side into columns `b<n>`, with
 * the bind row numbers from 0 as `ora_n` (one VALUES tuple per row binds thousands of parameters, which DuckDB plans
 * slowly); undefined unless every used column holds only numbers, only strings or only booleans (and NULLs), which
 * JSON carries exactly.
 */
export const bindRowsAsJson = (rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, used: ReadonlyArray<number>): { columns: string; values: Array<string> } | undefined => {
  const columns: Array<string> = []
  const values: Array<string> = []
  for (const d of used) {
    const column = rows.map((row) => row[d - 1] ?? null)
    const kind = typeof column.find((v) => v !== null)
    if ((kind !== "number" && kind !== "string" && kind !== "boolean") || column.some((v) => v !== null && typeof v !== kind)) return undefined
    values.push(JSON.stringify(column))
    const type = kind === "number" ? "DOUBLE" : kind === "boolean" ? "BOOLEAN" : "VARCHAR"
    columns.push(`unnest(from_json($${values.length}, '["${type}"]')) AS b${d}`)
  }
  // each bind row's number in the chunk, unnested beside its values
  columns.push(`unnest(range(${rows.length})) AS ora_n`)
  return { columns: columns.join(", "), values }
}

/** `SELECT rowid` of the rows an UPDATE / DELETE (translated, `t`) writes, or undefined for other statements. */
export const writtenRowsSql = (t: EngineStatement): string | undefined => {
  if (isKw(t.toks[0], "MERGE")) return mergedRowsSql(t)
  const parts = writtenRowsParts(t)
  return parts === undefined ? undefined : `SELECT rowid FROM ${parts.table}${parts.where === "" ? "" : ` WHERE ${parts.where}`}`
}

/**
 * `SELECT rowid` of the target rows a MERGE (translated, `t`) changes: those its ON condition matches and one of its
 * WHEN MATCHED branches' conditions holds for (merge-update-where.ts moves Oracle's `UPDATE SET ... WHERE` there); undefined
 * for a MERGE without a WHEN MATCHED branch, which changes no existing row.
 */
const mergedRowsSql = (t: EngineStatement): string | undefined => {
  const toks = t.toks
  if (!isKw(toks[1], "INTO")) return undefined
  const at = (kw: string, from: number) => findTopLevel(toks, from, toks.length, (t) => isKw(t, kw))
  const usingAt = at("USING", 2)
  const onAt = usingAt < 0 ? -1 : at("ON", usingAt + 1)
  const whenAt = onAt < 0 ? -1 : at("WHEN", onAt + 1)
  if (whenAt < 0 || usingAt < 3) return undefined
  const name = toks[usingAt - 1]!
  if (name.kind !== "ident" && name.kind !== "qident") return undefined
  // every WHEN MATCHED branch (merge-delete-where.ts writes Oracle's DELETE WHERE as a second one) changes rows
  const conditions: Array<string> = []
  let unconditional = false
  for (let w = whenAt; w >= 0; w = at("WHEN", w + 1)) {
    if (!isKw(toks[w + 1], "MATCHED")) continue
    const thenAt = at("THEN", w + 1)
    if (isKw(toks[w + 2], "AND") && thenAt > 0) conditions.push(`(${t.text(w + 3, thenAt)})`)
    else unconditional = true
  }
  if (conditions.length === 0 && !unconditional) return undefined
  const branch = unconditional ? "" : ` AND (${conditions.join(" OR ")})`
  return `SELECT ${name.text}.rowid FROM ${t.text(2, usingAt)} JOIN ${t.text(usingAt + 1, onAt)} ON (${t.text(onAt + 1, whenAt)})${branch}`
}

/** The table (with its alias) and the WHERE condition ("" for none) of an UPDATE / DELETE (translated, `t`). */
export const writtenRowsParts = (t: EngineStatement): { table: string; where: string } | undefined => {
  const toks = t.toks
  const update = isKw(toks[0], "UPDATE")
  if (!update && !isKw(toks[0], "DELETE")) return undefined
  let setAt = -1
  let whereAt = -1
  let end = toks.length
  let depth = 0
  for (let k = 1; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && update && setAt < 0 && isKw(toks[k], "SET")) setAt = k
    else if (depth === 0 && whereAt < 0 && isKw(toks[k], "WHERE")) whereAt = k
    else if (depth === 0 && isKw(toks[k], "RETURNING", "RETURN")) {
      end = k
      break
    }
  }
  const tableFrom = update ? 1 : isKw(toks[1], "FROM") ? 2 : 1
  const tableTo = update ? setAt : whereAt >= 0 ? whereAt : end
  if (tableTo < 0) return undefined
  return { table: t.text(tableFrom, tableTo), where: whereAt >= 0 ? t.text(whereAt + 1, end) : "" }
}

/** `sql` with its `$n` parameters renumbered 1, 2, … in order of appearance, and the values they take from `params`. */
export const renumberParams = (sql: string, params: ReadonlyArray<DuckDBValue>): { sql: string; values: Array<DuckDBValue> } => {
  const values: Array<DuckDBValue> = []
  const numbers = new Map<string, number>()
  const text = sql.replace(/\$(\d+)/g, (_, d: string) => {
    let n = numbers.get(d)
    if (n === undefined) {
      values.push(params[Number(d) - 1] ?? null)
      n = values.length
      numbers.set(d, n)
    }
    return `$${n}`
  })
  return { sql: text, values }
}
