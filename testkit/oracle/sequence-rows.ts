/**
 * One sequence value per row for a query block that names NEXTVAL and CURRVAL (or NEXTVAL twice) of one sequence.
 *
 * SQL Language Reference, "Sequence Pseudocolumns"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Sequence-Pseudocolumns.html): "Within a
 * single SQL statement containing a reference to NEXTVAL, Oracle increments the sequence once: for each row returned
 * by the outer query block of a SELECT statement ... If a statement contains references to both CURRVAL and NEXTVAL,
 * Oracle increments the sequence and returns the same value for both CURRVAL and NEXTVAL regardless of their order
 * within the statement." DuckDB computes every reference as a column of its own (a CURRVAL before the NEXTVAL is the
 * old value, one after it the chunk's last), but keeps one value per row for a NEXTVAL computed as a column of a
 * derived table. So `SELECT a, s.CURRVAL, s.NEXTVAL FROM t x WHERE c` (also after `INSERT INTO ... [(cols)]`) is
 * rewritten to `SELECT a, x."__SEQ_ROW_1", x."__SEQ_ROW_1" FROM (SELECT *, s.NEXTVAL AS "__SEQ_ROW_1" FROM t x
 * WHERE c) x`, unaliased items keeping their headings; a one-row `INSERT ... VALUES (...)` is first read as `INSERT ...
 * SELECT ... FROM dual`. Only a query block over one table (or DUAL) is rewritten.
 */
import { headingOf } from "./expression-names.ts"
import { findTopLevel, isKw, isOp, matchParen, significant, splitTopLevel, tokenize, type Tok } from "./lexer.ts"

const isName = (t: Tok | undefined): boolean => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** Clauses after FROM that the rewrite does not move into the derived table (NEXTVAL refuses most of them anyway). */
const OTHER_CLAUSES = ["GROUP", "ORDER", "HAVING", "UNION", "INTERSECT", "MINUS", "EXCEPT", "CONNECT", "START", "FOR", "MODEL", "FETCH", "OFFSET", "WINDOW", "RETURNING", "RETURN", "LOG", "PARTITION", "SAMPLE", "AS"]

interface SequenceRef {
  /** Index of the sequence name's first token and of the NEXTVAL / CURRVAL token. */
  readonly from: number
  readonly to: number
  /** The sequence as written (`s`, `owner.s`), upper-cased unless quoted, as its key. */
  readonly key: string
  readonly next: boolean
}

/** The `[owner.]seq.NEXTVAL | CURRVAL` references among tokens [from, to). */
const sequenceRefs = (toks: ReadonlyArray<Tok>, from: number, to: number): Array<SequenceRef> => {
  const refs: Array<SequenceRef> = []
  for (let k = from; k < to; k++) {
    if (!isKw(toks[k], "NEXTVAL", "CURRVAL") || !isOp(toks[k - 1], ".") || !isName(toks[k - 2])) continue
    const start = isOp(toks[k - 3], ".") && isName(toks[k - 4]) ? k - 4 : k - 2
    const key = toks.slice(start, k - 1).map((t) => (t.kind === "qident" ? `"${t.value}"` : t.value.toUpperCase())).join("")
    refs.push({ from: start, to: k, key, next: isKw(toks[k], "NEXTVAL") })
  }
  return refs
}

/** True when a select item (its tokens) ends in a column alias. */
const hasAlias = (item: ReadonlyArray<Tok>): boolean => {
  const last = item[item.length - 1]
  const prev = item[item.length - 2]
  if (!isName(last) || prev === undefined || isOp(prev, ".")) return false
  return isKw(prev, "AS") || isName(prev) || prev.kind === "num" || prev.kind === "str" || isOp(prev, ")")
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`

/** `sql` with its query block rewritten as described above when it needs it; `sql` itself otherwise. */
export const rewriteSequenceRows = (sql: string): string => {
  if (!/NEXTVAL/i.test(sql)) return sql
  const toks = significant(tokenize(sql))
  const text = (a: number, b: number) => (a >= b ? "" : sql.slice(toks[a]!.pos, toks[b - 1]!.pos + toks[b - 1]!.text.length))
  let select = 0
  if (isKw(toks[0], "INSERT") && isKw(toks[1], "INTO")) select = findTopLevel(toks, 2, toks.length, (t) => isKw(t, "SELECT", "VALUES"))
  if (select > 0 && isKw(toks[select], "VALUES")) return valuesAsSelect(sql, toks, select)
  if (select < 0 || !isKw(toks[select], "SELECT")) return sql
  if (isKw(toks[select + 1], "DISTINCT", "UNIQUE", "ALL")) return sql
  const fromAt = findTopLevel(toks, select + 1, toks.length, (t) => isKw(t, "FROM"))
  if (fromAt < 0) return sql
  const whereAt = findTopLevel(toks, fromAt + 1, toks.length, (t) => isKw(t, "WHERE"))
  const tableEnd = whereAt < 0 ? toks.length : whereAt
  if (findTopLevel(toks, fromAt + 1, toks.length, (t) => isKw(t, ...OTHER_CLAUSES)) >= 0) return sql
  // one table: name | owner.name, then an optional alias
  const table = toks.slice(fromAt + 1, tableEnd)
  const nameLength = isName(table[0]) && isOp(table[1], ".") && isName(table[2]) ? 3 : isName(table[0]) ? 1 : 0
  if (nameLength === 0 || table.length - nameLength > 1 || (table.length > nameLength && !isName(table[nameLength]))) return sql
  const alias = table[table.length === nameLength ? nameLength - 1 : nameLength]!
  const aliasText = alias.kind === "qident" ? quote(alias.value) : alias.text
  const refs = sequenceRefs(toks, select + 1, fromAt)
  const needed = [...new Set(refs.map((r) => r.key))].filter((key) => {
    const of = refs.filter((r) => r.key === key)
    return of.some((r) => r.next) && of.length > 1
  })
  if (needed.length === 0) return sql
  // `x.*` would show the derived table's extra columns
  if (splitTopLevel(toks.slice(select + 1, fromAt)).some((item) => isOp(item[item.length - 1], "*"))) return sql
  const column = (key: string) => `"__SEQ_ROW_${needed.indexOf(key) + 1}"`
  // the select list, item by item, each reference of a rewritten sequence replaced by its column
  const items: Array<string> = []
  let k = select + 1
  for (const item of splitTopLevel(toks.slice(select + 1, fromAt))) {
    const end = k + item.length
    let out = ""
    let at = k
    for (const r of refs) {
      if (r.from < k || r.to >= end || !needed.includes(r.key)) continue
      out += `${sql.slice(toks[at]!.pos, toks[r.from]!.pos)}${aliasText}.${column(r.key)}`
      at = r.to + 1
    }
    if (at === k) out = text(k, end)
    else {
      const last = toks[end - 1]!
      out += at < end ? sql.slice(toks[at]!.pos, last.pos + last.text.length) : ""
      // Oracle heads a lone `s.NEXTVAL` NEXTVAL, as a qualified column by its name
      const lone = refs.find((r) => r.from === k && r.to === end - 1)
      if (!hasAlias(item)) out += ` AS ${quote(lone !== undefined ? toks[lone.to]!.value.toUpperCase() : headingOf(item))}`
    }
    items.push(out)
    k = end + 1
  }
  const nexts = needed.map((key) => {
    const r = refs.find((x) => x.key === key && x.next)!
    return `${text(r.from, r.to + 1)} AS ${column(key)}`
  })
  // `*, expr` (not Oracle's `x.*, expr`): the server describes the derived table's columns from it
  const inner = `SELECT *, ${nexts.join(", ")} FROM ${text(fromAt + 1, toks.length)}`
  return `${sql.slice(0, toks[select]!.pos)}SELECT ${items.join(", ")} FROM (${inner}) ${aliasText}`
}

/**
 * `INSERT INTO t [(cols)] VALUES (list)` (one row, no RETURNING, no DEFAULT) whose list needs one value per row, as
 * `INSERT INTO t [(cols)] SELECT list FROM dual` rewritten above; `sql` itself otherwise.
 */
const valuesAsSelect = (sql: string, toks: ReadonlyArray<Tok>, values: number): string => {
  const close = isOp(toks[values + 1], "(") ? matchParen(toks, values + 1) : -1
  if (close !== toks.length - 1 || toks.some((t) => isKw(t, "DEFAULT"))) return sql
  const list = sql.slice(toks[values + 2]!.pos, toks[close]!.pos)
  const asSelect = `${sql.slice(0, toks[values]!.pos)}SELECT ${list} FROM dual`
  const rewritten = rewriteSequenceRows(asSelect)
  return rewritten === asSelect ? sql : rewritten
}
