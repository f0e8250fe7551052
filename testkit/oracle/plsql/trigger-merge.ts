/**
 * MERGE into a table with triggers (SQL Language Reference 23ai, "MERGE": the UPDATE triggers fire for the rows the
 * merge_update_clause changes, the INSERT triggers for the rows merge_insert_clause inserts). Here a MERGE becomes
 * its UPDATE of the matched rows (`UPDATE t a SET col = (SELECT expr FROM source WHERE on), ... WHERE EXISTS
 * (SELECT 1 FROM source WHERE on [AND where])`), then its INSERT of the source rows no target row matches (`INSERT
 * INTO t (cols) SELECT values FROM source WHERE NOT EXISTS (SELECT 1 FROM t a WHERE on) [AND where]`), each run as
 * a triggered statement (triggers.ts); the bind values follow their binds into both. The UPDATE's statement
 * triggers therefore fire before the INSERT's BEFORE statement triggers, where Oracle fires all BEFORE statement
 * triggers first.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "../catalog.ts"
import { type OraError, ora } from "../errors.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, tokenize, type Tok } from "../lexer.ts"
import type { Trigger } from "./trigger-definitions.ts"
import { runRowsWithTriggers, type TriggeredResult, type TriggerSession } from "./triggers.ts"

/** One statement of a decomposed MERGE: its text and the values of its binds, in order. */
export interface MergePart {
  readonly sql: string
  readonly params: Array<DuckDBValue>
}

/** The top-level tokens `kw` from `from` on. */
const topLevelAt = (toks: ReadonlyArray<Tok>, from: number, kw: string): Array<number> => {
  const out: Array<number> = []
  let depth = 0
  for (let k = from; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], kw)) out.push(k)
  }
  return out
}

/** A MERGE (`sql`, positional bind values `params`) as its UPDATE and INSERT statements, in the order they run. */
export const mergeParts = (sql: string, params: ReadonlyArray<DuckDBValue>): Array<MergePart> => {
  const toks = significant(tokenize(sql))
  const bindNo = new Map<number, number>()
  toks.forEach((t, k) => t.kind === "bind" && bindNo.set(k, bindNo.size))
  /** Tokens [from, to) as text and their binds' values. */
  const piece = (from: number, to: number): MergePart => {
    const values: Array<DuckDBValue> = []
    for (let k = from; k < to; k++) if (bindNo.has(k)) values.push(params[bindNo.get(k)!] ?? null)
    return { sql: toks.slice(from, to).map((t) => t.text).join(" "), params: values }
  }
  const join = (...parts: Array<MergePart | string>): MergePart => ({
    sql: parts.map((p) => (typeof p === "string" ? p : p.sql)).join(" "),
    params: parts.flatMap((p) => (typeof p === "string" ? [] : p.params))
  })
  const using = topLevelAt(toks, 0, "USING")[0]
  const on = topLevelAt(toks, 0, "ON")[0]
  if (!isKw(toks[1], "INTO") || using === undefined || on === undefined || !isOp(toks[on + 1], "(")) throw ora.invalidSql()
  const target = piece(2, using)
  const source = piece(using + 1, on)
  const onClose = matchParen(toks, on + 1)
  const cond = piece(on + 2, onClose)
  const whens = topLevelAt(toks, onClose + 1, "WHEN")
  const parts: Array<MergePart> = []
  let insert: MergePart | undefined
  whens.forEach((w, i) => {
    const end = whens[i + 1] ?? toks.length
    const matched = isKw(toks[w + 1], "MATCHED")
    const then = matched ? w + 2 : w + 3
    if (!isKw(toks[then], "THEN")) throw ora.invalidSql()
    if (matched) {
      if (!isKw(toks[then + 1], "UPDATE") || !isKw(toks[then + 2], "SET")) throw ora.invalidSql()
      if (topLevelAt(toks.slice(0, end), then, "DELETE").length > 0) throw ora.unimplemented("MERGE ... DELETE WHERE into a table with triggers")
      const where = topLevelAt(toks.slice(0, end), then, "WHERE")[0]
      const setEnd = where ?? end
      const sets = splitTopLevel(toks.slice(then + 3, setEnd))
      let at = then + 3
      const assignments = sets.map((a) => {
        const eq = a.findIndex((t) => isOp(t, "="))
        if (eq <= 0 || isOp(a[0], "(")) throw ora.unimplemented("MERGE ... UPDATE SET (columns) = (subquery) into a table with triggers")
        const part = join(piece(at, at + eq), "= (SELECT", piece(at + eq + 1, at + a.length), "FROM", source, "WHERE", cond, ")")
        at += a.length + 1
        return part
      })
      const filter = where === undefined ? [] : ["AND (", piece(where + 1, end), ")"]
      parts.push(join("UPDATE", target, "SET", ...assignments.flatMap((a, j) => (j === 0 ? [a] : [",", a])), "WHERE EXISTS (SELECT 1 FROM", source, "WHERE", cond, ...filter, ")"))
    } else {
      if (!isKw(toks[w + 1], "NOT") || !isKw(toks[w + 2], "MATCHED") || !isKw(toks[then + 1], "INSERT")) throw ora.invalidSql()
      let k = then + 2
      let columns: MergePart | string = ""
      if (isOp(toks[k], "(")) {
        const close = matchParen(toks, k)
        columns = piece(k, close + 1)
        k = close + 1
      }
      if (!isKw(toks[k], "VALUES") || !isOp(toks[k + 1], "(")) throw ora.invalidSql()
      const valuesClose = matchParen(toks, k + 1)
      const where = isKw(toks[valuesClose + 1], "WHERE") ? ["AND (", piece(valuesClose + 2, end), ")"] : []
      const table = piece(2, isOp(toks[3], ".") ? 5 : 3)
      insert = join("INSERT INTO", table, columns, "SELECT", piece(k + 2, valuesClose), "FROM", source, "WHERE NOT EXISTS (SELECT 1 FROM", target, "WHERE", cond, ")", ...where)
    }
  })
  if (insert !== undefined) parts.push(insert)
  return parts
}

/**
 * Runs a client's MERGE into `meta`, which has `triggers`, once per bind row of `rows`: its UPDATE, then its INSERT,
 * as triggered statements, undone together when one fails; the rows merged in all.
 */
export const runMergeWithTriggers = async (
  s: TriggerSession,
  meta: TableMeta,
  triggers: ReadonlyArray<Trigger>,
  sql: string,
  rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
  mapError: (e: unknown) => OraError
): Promise<TriggeredResult> => {
  let count = 0
  for (const row of rows.length === 0 ? [[]] : rows) {
    count += await s.atomically(async () => {
      let merged = 0
      for (const part of mergeParts(sql, row)) merged += (await runRowsWithTriggers(s, meta, triggers, part.sql, [part.params], mapError)).count
      return merged
    })
  }
  return { count }
}
