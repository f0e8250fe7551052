/**
 * A MERGE as the statements it stands for (SQL Language Reference, "MERGE"): its UPDATE of the matched rows
 * (`UPDATE t a SET col = (SELECT expr FROM source WHERE on), ... WHERE EXISTS (SELECT 1 FROM source WHERE on [AND
 * where])`), its DELETE WHERE (`DELETE FROM t a WHERE EXISTS (SELECT 1 FROM source WHERE on AND (delete_cond))`), then
 * its INSERT of the source rows no target row matches (`INSERT INTO t (cols) SELECT values FROM source WHERE NOT EXISTS
 * (SELECT 1 FROM t a WHERE on) [AND where]`), each with the values of its binds: run row by row by a MERGE into a
 * table with triggers (trigger-merge.ts) and by DML error logging (dml-error-logging.ts).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { ora } from "../errors.ts"
import { oracleName } from "../expression-names.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, tokenize, type Tok } from "../lexer.ts"

/** A piece of a decomposed MERGE: its text and the values of its binds, in order. */
export interface MergeText {
  readonly sql: string
  readonly params: Array<DuckDBValue>
}

/**
 * One statement of a decomposed MERGE: its event, the columns an UPDATE sets, its text and bind values. The DELETE
 * of DELETE WHERE is `deleting`: its condition, to which the rows the UPDATE wrote are added when it runs.
 */
export interface MergePart extends MergeText {
  readonly event: "INSERT" | "UPDATE" | "DELETE"
  /** The columns an UPDATE sets. */
  readonly columns: ReadonlyArray<string>
  readonly deleting?: { readonly table: MergeText; readonly condition: MergeText }
  /** The UPDATE's query of a target row that more than one source row would update (ORA-30926, merge-stable-rows.ts). */
  readonly unstable?: MergeText
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

/** A MERGE (`sql`, positional bind values `params`) as its UPDATE, DELETE and INSERT statements, in the order they run. */
export const mergeParts = (sql: string, params: ReadonlyArray<DuckDBValue>): Array<MergePart> => {
  const toks = significant(tokenize(sql))
  const bindNo = new Map<number, number>()
  toks.forEach((t, k) => t.kind === "bind" && bindNo.set(k, bindNo.size))
  /** Tokens [from, to) as text and their binds' values. */
  const piece = (from: number, to: number): MergeText => {
    const values: Array<DuckDBValue> = []
    for (let k = from; k < to; k++) if (bindNo.has(k)) values.push(params[bindNo.get(k)!] ?? null)
    return { sql: toks.slice(from, to).map((t) => t.text).join(" "), params: values }
  }
  const join = (...parts: Array<MergeText | string>): MergeText => ({
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
  /** `(SELECT items FROM f [WHERE w])` at [from, to) with the source joined: `(SELECT items FROM f, source WHERE (w) AND (on))`. */
  const correlated = (from: number, to: number): MergeText => {
    const close = to - 1
    if (!isOp(toks[from], "(") || matchParen(toks, from) !== close || !isKw(toks[from + 1], "SELECT")) throw ora.invalidSql()
    const inner = toks.slice(0, close)
    const fromKw = topLevelAt(inner, from + 2, "FROM")[0]
    const unsupported = ["GROUP", "ORDER", "HAVING", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET"].some((kw) => topLevelAt(inner, from + 2, kw).length > 0)
    if (fromKw === undefined || unsupported) throw ora.unimplemented("MERGE ... UPDATE SET (columns) = (a grouped, ordered or compound query) into a table with triggers")
    const whereKw = topLevelAt(inner, fromKw, "WHERE")[0]
    const filter = whereKw === undefined ? [] : ["(", piece(whereKw + 1, close), ") AND"]
    return join(piece(from, whereKw ?? close), ",", source, "WHERE", ...filter, "(", cond, ") )")
  }
  const parts: Array<MergePart> = []
  let insert: MergePart | undefined
  whens.forEach((w, i) => {
    const end = whens[i + 1] ?? toks.length
    const matched = isKw(toks[w + 1], "MATCHED")
    const then = matched ? w + 2 : w + 3
    if (!isKw(toks[then], "THEN")) throw ora.invalidSql()
    if (matched) {
      if (!isKw(toks[then + 1], "UPDATE") || !isKw(toks[then + 2], "SET")) throw ora.invalidSql()
      const clause = toks.slice(0, end)
      const del = topLevelAt(clause, then, "DELETE")[0]
      if (del !== undefined && !isKw(toks[del + 1], "WHERE")) throw ora.invalidSql()
      const updateEnd = del ?? end
      const where = topLevelAt(toks.slice(0, updateEnd), then, "WHERE")[0]
      const setEnd = where ?? updateEnd
      const sets = splitTopLevel(toks.slice(then + 3, setEnd))
      const columns: Array<string> = []
      let at = then + 3
      const assignments = sets.map((a) => {
        const eq = isOp(a[0], "(") ? matchParen(a, 0) + 1 : a.findIndex((t) => isOp(t, "="))
        if (eq <= 0 || !isOp(a[eq], "=")) throw ora.invalidSql()
        let part: MergeText
        if (isOp(a[0], "(")) {
          // (a, b) = (SELECT x, y FROM f [WHERE w]): the source joins the subquery, which then reads one row per target row
          splitTopLevel(a.slice(1, eq - 1)).forEach((c) => columns.push(oracleName(c[c.length - 1]!)))
          part = join(piece(at, at + eq + 1), correlated(at + eq + 1, at + a.length))
        } else {
          columns.push(oracleName(a[eq - 1]!))
          part = join(piece(at, at + eq), "= (SELECT", piece(at + eq + 1, at + a.length), "FROM", source, "WHERE", cond, ")")
        }
        at += a.length + 1
        return part
      })
      const filter = where === undefined ? [] : ["AND (", piece(where + 1, updateEnd), ")"]
      const unstable = join("SELECT 1 FROM", target, "WHERE (SELECT COUNT(*) FROM", source, "WHERE", cond, ...filter, ") > 1 FETCH FIRST 1 ROWS ONLY")
      parts.push({ event: "UPDATE", columns, unstable, ...join("UPDATE", target, "SET", ...assignments.flatMap((a, j) => (j === 0 ? [a] : [",", a])), "WHERE EXISTS (SELECT 1 FROM", source, "WHERE", cond, ...filter, ")") })
      if (del !== undefined) {
        const condition = join("EXISTS (SELECT 1 FROM", source, "WHERE", cond, "AND (", piece(del + 2, end), "))")
        parts.push({ event: "DELETE", columns: [], ...join("DELETE FROM", target, "WHERE", condition), deleting: { table: target, condition } })
      }
    } else {
      if (!isKw(toks[w + 1], "NOT") || !isKw(toks[w + 2], "MATCHED") || !isKw(toks[then + 1], "INSERT")) throw ora.invalidSql()
      let k = then + 2
      let columns: MergeText | string = ""
      if (isOp(toks[k], "(")) {
        const close = matchParen(toks, k)
        columns = piece(k, close + 1)
        k = close + 1
      }
      if (!isKw(toks[k], "VALUES") || !isOp(toks[k + 1], "(")) throw ora.invalidSql()
      const valuesClose = matchParen(toks, k + 1)
      const where = isKw(toks[valuesClose + 1], "WHERE") ? ["AND (", piece(valuesClose + 2, end), ")"] : []
      const table = piece(2, isOp(toks[3], ".") ? 5 : 3)
      insert = { event: "INSERT", columns: [], ...join("INSERT INTO", table, columns, "SELECT", piece(k + 2, valuesClose), "FROM", source, "WHERE NOT EXISTS (SELECT 1 FROM", target, "WHERE", cond, ")", ...where) }
    }
  })
  if (insert !== undefined) parts.push(insert)
  return parts
}
