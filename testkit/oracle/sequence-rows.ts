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
 * WHERE c) x`, unaliased items keeping their headings; a one-row `INSERT ... VALUES (...) [RETURNING ...]` is first
 * read as `INSERT ... SELECT ... FROM dual [RETURNING ...]`. A query block over several tables (a join, a comma list)
 * or with `x.*` in its select list computes the values in a derived table of the joined rows' row ids instead, and
 * joins the tables back to it by row id, so that every name of the block keeps its meaning:
 * `SELECT a.*, s.NEXTVAL FROM t a JOIN u b ON c` becomes `SELECT a.*, "__SEQ_Q"."__SEQ_ROW_1" AS "NEXTVAL" FROM (SELECT
 * a.ROWID AS "__SEQ_RID_1", b.ROWID AS "__SEQ_RID_2", s.NEXTVAL AS "__SEQ_ROW_1" FROM t a JOIN u b ON c) "__SEQ_Q"
 * LEFT JOIN t a ON a.ROWID = "__SEQ_Q"."__SEQ_RID_1" LEFT JOIN u b ON ...`; a NATURAL join or one with USING keeps
 * its FROM clause as written (its common columns are named unqualified) and joins the derived table to it by the row
 * ids (`FROM t a JOIN u b USING (k) JOIN (SELECT ...) "__SEQ_Q" ON a.ROWID = "__SEQ_Q"."__SEQ_RID_1" AND ...`). One
 * FROM item of any kind (a view, a subquery, a table function) is the derived table's source as one table is; in a
 * join tables (and synonyms of tables) are joined back so, and a view's row is carried through the derived table as
 * its columns, made a row again under its alias (`CROSS JOIN LATERAL (SELECT "__SEQ_Q"."__SEQ_C2_1" AS "N" FROM
 * dual) v`); another FROM clause (a joined subquery or table function, views joined by NATURAL / USING, a comma beside
 * NATURAL / USING) is left as it is, for sequence-row-lambdas.ts to compute its values once per row after translation.
 */
import type { TableMeta } from "./catalog.ts"
import type { OraType } from "./type-shapes.ts"
import { headingOf } from "./expression-names.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, significant, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import { quoteDuck } from "./names.ts"


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
  return isKw(prev, "AS") || prev.kind === "ident" || prev.kind === "qident" || prev.kind === "num" || prev.kind === "str" || isOp(prev, ")")
}


/**
 * What `[schema.]name` is to the rewrite: true for a table (or a synonym of one), joined back by its row ids; a view's
 * columns (NUMBER, character, DATE and TIMESTAMP ones), carried through the derived table; false for anything else.
 */
export type IsTable = (schema: string | undefined, name: string) => boolean | ReadonlyArray<CarriedColumn>

/** A view column carried through the derived table: its name and the type it is cast back to. */
export interface CarriedColumn {
  readonly name: string
  readonly type: string
}

/** The SQL type a view column of type `t` is cast back to after the derived table, if it is one that can be. */
const castType = (t: OraType): string | undefined => {
  switch (t.kind) {
    case "number":
      return t.dictPrecision === null ? "NUMBER" : `NUMBER(${t.dictPrecision}, ${t.dictScale ?? 0})`
    case "varchar":
    case "nvarchar":
      return `${t.dictName}(${t.charSize})`
    case "date":
      return "DATE"
    case "timestamp":
      return `TIMESTAMP(${t.precision})`
    default:
      return undefined
  }
}

/** What a catalog object (a table or view's metadata, if any) is to the rewrite (see {@link IsTable}). */
export const sequenceRowSource = (meta: TableMeta | undefined): boolean | ReadonlyArray<CarriedColumn> => {
  if (meta?.kind === "TABLE") return true
  if (meta?.kind !== "VIEW") return false
  const columns = meta.columns.map((c) => ({ name: c.name, type: castType(c.type) }))
  return columns.every((c) => c.type !== undefined) ? (columns as Array<CarriedColumn>) : false
}

/** Words after a FROM item that are no alias. */
const NOT_ALIAS = new Set(["ON", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "OUTER", "USING", "WHERE"])

/** A table of a FROM clause: its text as written (`owner.t alias`) and the name its columns are qualified by. */
interface FromTable {
  readonly text: string
  readonly ref: string
  /** A view's columns (it has no row ids). */
  readonly columns?: ReadonlyArray<CarriedColumn>
}

/** The tables of a FROM clause and how they are joined. */
interface FromJoin {
  readonly tables: Array<FromTable>
  /** A NATURAL join or one with USING: its columns are named unqualified, so the FROM clause itself is kept. */
  readonly keepsFrom: boolean
  /** A comma joins two of them; an outer join (LEFT, RIGHT, FULL) does. */
  readonly comma: boolean
  readonly outer: boolean
}

/**
 * The tables of a FROM clause (tokens [from, to)) made of tables joined by commas or `[NATURAL] [INNER | LEFT | RIGHT
 * | FULL [OUTER] | CROSS] JOIN ... [ON cond | USING (cols)]`; undefined for anything else (subqueries, table
 * functions, views).
 */
const fromTables = (toks: ReadonlyArray<Tok>, from: number, to: number, text: (a: number, b: number) => string, isTable: IsTable): FromJoin | undefined => {
  const out: Array<FromTable> = []
  let keepsFrom = false
  let comma = false
  let outer = false
  let k = from
  for (;;) {
    const owner = isName(toks[k]) && isOp(toks[k + 1], ".") && isName(toks[k + 2])
    const nameAt = owner ? k + 2 : k
    const name = toks[nameAt]
    if (!isName(name) || NOT_ALIAS.has(name.value.toUpperCase())) return undefined
    const ident = (t: Tok) => (t.kind === "qident" ? t.value : t.value.toUpperCase())
    const kind = isTable(owner ? ident(toks[k]!) : undefined, ident(name))
    if (kind === false) return undefined
    const alias = isName(toks[nameAt + 1]) && !NOT_ALIAS.has(toks[nameAt + 1]!.value.toUpperCase()) ? toks[nameAt + 1]! : undefined
    const end = alias === undefined ? nameAt + 1 : nameAt + 2
    const named = alias ?? name
    out.push({ text: text(k, end), ref: named.kind === "qident" ? quoteDuck(named.value) : named.text, ...(kind !== true && { columns: kind }) })
    k = end
    if (isKw(toks[k], "ON")) k = findTopLevel(toks, k + 1, to, (t) => isOp(t, ",") || isKw(t, "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL"))
    else if (isKw(toks[k], "USING") && isOp(toks[k + 1], "(")) {
      keepsFrom = true
      k = matchParen(toks, k + 1) + 1
    }
    if (k < 0 || k >= to) return { tables: out, keepsFrom, comma, outer }
    if (isOp(toks[k], ",")) {
      comma = true
      k++
    } else {
      if (isKw(toks[k], "NATURAL")) {
        keepsFrom = true
        k++
      }
      if (isKw(toks[k], "LEFT", "RIGHT", "FULL")) {
        outer = true
        k += isKw(toks[k + 1], "OUTER") ? 2 : 1
      } else if (isKw(toks[k], "INNER", "CROSS")) k++
      if (!isKw(toks[k], "JOIN")) return undefined
      k++
    }
  }
}

/** `sql` with its query block rewritten as described above when it needs it; `sql` itself otherwise. */
export const rewriteSequenceRows = (sql: string, isTable: IsTable = () => false): string => {
  if (!/NEXTVAL/i.test(sql)) return sql
  const toks = significant(tokenize(sql))
  const text = (a: number, b: number) => (a >= b ? "" : sql.slice(toks[a]!.pos, toks[b - 1]!.pos + toks[b - 1]!.text.length))
  let select = 0
  if (isKw(toks[0], "INSERT") && isKw(toks[1], "INTO")) select = findTopLevel(toks, 2, toks.length, (t) => isKw(t, "SELECT", "VALUES"))
  if (select > 0 && isKw(toks[select], "VALUES")) return valuesAsSelect(sql, toks, select, isTable)
  if (select < 0 || !isKw(toks[select], "SELECT")) return sql
  if (isKw(toks[select + 1], "DISTINCT", "UNIQUE", "ALL")) return sql
  const fromAt = findTopLevel(toks, select + 1, toks.length, (t) => isKw(t, "FROM"))
  if (fromAt < 0) return sql
  const whereAt = findTopLevel(toks, fromAt + 1, toks.length, (t) => isKw(t, "WHERE"))
  const tableEnd = whereAt < 0 ? toks.length : whereAt
  if (findTopLevel(toks, fromAt + 1, toks.length, (t) => isKw(t, ...OTHER_CLAUSES)) >= 0) return sql
  const refs = sequenceRefs(toks, select + 1, fromAt)
  const needed = [...new Set(refs.map((r) => r.key))].filter((key) => {
    const of = refs.filter((r) => r.key === key)
    return of.some((r) => r.next) && of.length > 1
  })
  if (needed.length === 0) return sql
  // one FROM item (a table, view or synonym, a subquery, a table function), then an optional alias
  const table = toks.slice(fromAt + 1, tableEnd)
  const single = table.length > 0 && findTopLevel(table, 0, table.length, (t) => isOp(t, ",") || isKw(t, "JOIN")) < 0
  const last = table[table.length - 1]
  const aliased = single && isName(last) && table.length > 1 && !isOp(table[table.length - 2], ".")
  // `x.*` would show a derived table's extra columns: the tables are joined back by row id
  const star = splitTopLevel(toks.slice(select + 1, fromAt)).some((item) => isOp(item[item.length - 1], "*"))
  const joined = single && !star ? undefined : fromTables(toks, fromAt + 1, tableEnd, text, isTable)
  if (joined === undefined && (!single || star)) return sql
  // NATURAL / USING keep the FROM clause, whose views would be read twice
  if (joined !== undefined && joined.keepsFrom && (joined.comma || joined.tables.some((t) => t.columns !== undefined))) return sql
  // the derived table takes the item's alias, a table's name, or (a subquery, a table function) a name of its own
  const alias = aliased || (single && isName(last) && table.every((t, i) => (i % 2 === 0 ? isName(t) : isOp(t, ".")))) ? last! : undefined
  const aliasText = joined !== undefined || alias === undefined ? '"__SEQ_Q"' : alias.kind === "qident" ? quoteDuck(alias.value) : alias.text
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
      if (!hasAlias(item)) out += ` AS ${quoteDuck(lone !== undefined ? toks[lone.to]!.value.toUpperCase() : headingOf(item))}`
    }
    items.push(out)
    k = end + 1
  }
  const nexts = needed.map((key) => {
    const r = refs.find((x) => x.key === key && x.next)!
    return `${text(r.from, r.to + 1)} AS ${column(key)}`
  })
  if (joined !== undefined) {
    // a table's row id, or a view's columns
    const rowids = joined.tables.map((t, i) => (t.columns === undefined ? `${t.ref}.ROWID AS "__SEQ_RID_${i + 1}"` : t.columns.map((c, j) => `${t.ref}.${quoteDuck(c.name)} AS "__SEQ_C${i + 1}_${j + 1}"`).join(", ")))
    const inner = `SELECT ${[...rowids, ...nexts].join(", ")} FROM ${text(fromAt + 1, toks.length)}`
    const head = `${sql.slice(0, toks[select]!.pos)}SELECT ${items.join(", ")} FROM`
    if (joined.keepsFrom) {
      // the joins as written (their USING / NATURAL columns stay unqualified), then the new values by their row ids
      const rid = (t: FromTable, i: number) => `${aliasText}."__SEQ_RID_${i + 1}"`
      const same = joined.tables.map((t, i) => (joined.outer ? `(${t.ref}.ROWID = ${rid(t, i)} OR ${t.ref}.ROWID IS NULL AND ${rid(t, i)} IS NULL)` : `${t.ref}.ROWID = ${rid(t, i)}`))
      return `${head} ${text(fromAt + 1, tableEnd)} JOIN (${inner}) ${aliasText} ON ${same.join(" AND ")}`
    }
    const back = joined.tables.map((t, i) =>
      t.columns === undefined
        ? `LEFT JOIN ${t.text} ON ${t.ref}.ROWID = ${aliasText}."__SEQ_RID_${i + 1}"`
        : `CROSS JOIN LATERAL (SELECT ${t.columns.map((c, j) => `CAST(${aliasText}."__SEQ_C${i + 1}_${j + 1}" AS ${c.type}) AS ${quoteDuck(c.name)}`).join(", ")} FROM dual) ${t.ref}`
    )
    return `${head} (${inner}) ${aliasText} ${back.join(" ")}`
  }
  // `*, expr` (not Oracle's `x.*, expr`): the server describes the derived table's columns from it
  const inner = `SELECT *, ${nexts.join(", ")} FROM ${text(fromAt + 1, toks.length)}`
  return `${sql.slice(0, toks[select]!.pos)}SELECT ${items.join(", ")} FROM (${inner}) ${aliasText}`
}

/**
 * A PL/SQL block's SQL statement (significant tokens) with its query block rewritten as {@link rewriteSequenceRows}
 * does; the new tokens take the statement's first position. `toks` itself when nothing changes.
 */
export const rewriteSequenceRowTokens = (toks: ReadonlyArray<Tok>, isTable: IsTable): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "NEXTVAL"))) return toks
  const sql = toks.map((t) => t.text).join(" ")
  const rewritten = rewriteSequenceRows(sql, isTable)
  if (rewritten === sql) return toks
  const pos = toks[0]!.pos
  return significant(tokenize(rewritten)).map((t) => ({ ...t, pos }))
}

/**
 * `INSERT INTO t [(cols)] VALUES (list) [RETURNING ...]` (one row, no DEFAULT) whose list needs one value per row, as
 * `INSERT INTO t [(cols)] SELECT list FROM dual [RETURNING ...]` rewritten above; `sql` itself otherwise.
 */
const valuesAsSelect = (sql: string, toks: ReadonlyArray<Tok>, values: number, isTable: IsTable): string => {
  const close = isOp(toks[values + 1], "(") ? matchParen(toks, values + 1) : -1
  const returning = isKw(toks[close + 1], "RETURNING", "RETURN") ? sql.slice(toks[close + 1]!.pos) : ""
  if (close < 0 || (close !== toks.length - 1 && returning === "") || toks.some((t) => isKw(t, "DEFAULT"))) return sql
  const list = sql.slice(toks[values + 2]!.pos, toks[close]!.pos)
  const asSelect = `${sql.slice(0, toks[values]!.pos)}SELECT ${list} FROM dual`
  const rewritten = rewriteSequenceRows(asSelect, isTable)
  return rewritten === asSelect ? sql : `${rewritten}${returning === "" ? "" : ` ${returning}`}`
}

/**
 * The sequences a one-row `INSERT INTO t [(cols)] VALUES (...)` (significant tokens) names by NEXTVAL and by another
 * NEXTVAL or CURRVAL: each with the text of its NEXTVAL (`owner.s.NEXTVAL`) and the token ranges [from, to] of all its
 * references, for a caller that takes the one new value first and writes it in for them (PL/SQL, whose statement runs
 * once per execution); undefined when there is none.
 */
export const oneRowSequenceRefs = (toks: ReadonlyArray<Tok>): Array<{ readonly next: string; readonly refs: ReadonlyArray<readonly [number, number]> }> | undefined => {
  if (!isKw(toks[0], "INSERT") || !isKw(toks[1], "INTO")) return undefined
  const values = findTopLevel(toks, 2, toks.length, (t) => isKw(t, "VALUES", "SELECT"))
  if (values < 0 || !isKw(toks[values], "VALUES")) return undefined
  const refs = sequenceRefs(toks, values + 1, toks.length)
  const out = [...new Set(refs.map((r) => r.key))].flatMap((key) => {
    const of = refs.filter((r) => r.key === key)
    const next = of.find((r) => r.next)
    if (next === undefined || of.length < 2) return []
    return [{ next: toks.slice(next.from, next.to + 1).map((t) => t.text).join(""), refs: of.map((r) => [r.from, r.to] as const) }]
  })
  return out.length === 0 ? undefined : out
}
