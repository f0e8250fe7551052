/**
 * INSERT, UPDATE and DELETE through a join view write its key-preserved table, as Oracle does (SQL Language
 * Reference, "CREATE VIEW", "Notes on Updatable Views"; Administrator's Guide, "Updating a Join View"): a table is
 * key-preserved when every other table of the join is reached from it through joins on all columns of one of that
 * table's primary or unique keys, so that each of the table's rows appears at most once in the view. A statement may write the columns of one
 * key-preserved table only: a column of a table that is not key-preserved ORA-01779 "cannot modify a column which maps
 * to a non key-preserved table", columns of two tables ORA-01776 "cannot modify more than one base table through a
 * join view"; a DELETE needs exactly one key-preserved table (ORA-01752 "cannot delete from view without exactly one
 * key-preserved table").
 *
 * Taken here: a view whose FROM joins tables, simple views of one table or join views (KeysOf) by commas, CROSS JOIN, [INNER] JOIN ... ON or LEFT / RIGHT / FULL [OUTER]
 * JOIN ... ON (or `(+)` in its WHERE), NATURAL JOIN or JOIN ... USING (the shared columns equated), with plain or renamed columns; a
 * subquery of one table among them counts with the keys of its table it shows, one that is a plain join with the keys
 * of its key-preserved tables it shows, and is read only. A table on the null-supplying side of an outer
 * join is never key-preserved ("the empno column in the result of the join can have nulls": Administrator's Guide,
 * "Updating Views That Involve Outer Joins"); the preserved side is as in an inner join. The statement is rewritten
 * onto the key-preserved table: an INSERT names its columns, an UPDATE or DELETE reaches its rows the view shows
 * through the view itself (`EXISTS (SELECT 1 FROM view WHERE key = row's key AND condition)`), an UPDATE's values
 * computed over the view's row, a RETURNING clause's columns the written table's. A view showing neither the written
 * table's key nor a column an inner join equates with it, and RETURNING another table's column, are ORA-03001;
 * MERGE is Oracle's ORA-38106.
 */
import { ora, OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, splitTopLevel, type Tok } from "./lexer.ts"
import type { TableMeta } from "./catalog.ts"
import { charType } from "./types.ts"
import { quoteDuck } from "./names.ts"

type Lookup = (schema: string | undefined, name: string) => TableMeta | undefined

/**
 * The primary and unique keys of a table, or of a view over one table or a join view in the view's column names (a
 * join view's are those of its key-preserved tables: Oracle's "nested views must be mergeable", and merged they are
 * one join); undefined for a view taken no further here.
 */
export type KeysOf = (meta: TableMeta) => ReadonlyArray<ReadonlyArray<string>> | undefined

/** A join view's column: the table (index into `tables`) and column it is, or an expression. */
type JoinColumn = { readonly table: number; readonly column: string; readonly shared?: ReadonlyArray<number> } | { readonly expr: true }

/** A join view: its tables in FROM order, its columns, and which tables are key-preserved. */
export interface JoinView {
  /** `subquery`: an inline view `(SELECT ... FROM table ...) alias`, read for its keys and never written here. */
  readonly tables: ReadonlyArray<{ readonly alias: string; readonly meta: TableMeta; readonly keys: ReadonlyArray<ReadonlyArray<string>>; readonly subquery?: boolean }>
  readonly columns: ReadonlyMap<string, JoinColumn>
  readonly keyPreserved: ReadonlySet<number>
  /** The join's equalities between two tables' columns (`table.column` pairs) whose tables are never null-supplied. */
  readonly equated: ReadonlyArray<readonly [string, string]>
}

const NOT_KEY_PRESERVED = () => new OraError(1779, "cannot modify a column which maps to a non key-preserved table")
const TWO_TABLES = () => new OraError(1776, "cannot modify more than one base table through a join view")
const VIRTUAL_COLUMN = () => new OraError(1733, "virtual column not allowed here")

/**
 * MERGE into a join view or a view with INSTEAD OF triggers: ORA-38106 (Database Error Messages, ORA-38106: "When
 * using MERGE to modify a view, you must only specify a single table in the view, and the view cannot have an
 * INSTEAD OF trigger").
 */
export const mergeIntoJoinView = () => new OraError(38106, "MERGE not supported on join view or view with INSTEAD OF trigger")

/**
 * View `meta` (its query's tokens `toks`, FROM at `from`, WHERE at `whereAt` or -1) as a join view; undefined when its
 * FROM names one table; ORA-03001 for a join taken no further here.
 */
export const joinView = (meta: TableMeta, toks: ReadonlyArray<Tok>, from: number, whereAt: number, lookup: Lookup, keysOf: KeysOf): JoinView | undefined => {
  const written = toks.slice(from + 1, whereAt < 0 ? toks.length : whereAt)
  if (!written.some((t) => isOp(t, ",") || isKw(t, "JOIN"))) return undefined
  const unimplemented = (what: string) => ora.unimplemented(`DML through a join view ${what}`)
  if (written.some((t) => isKw(t, "LATERAL", "APPLY"))) throw unimplemented("with this kind of join")
  // `a CROSS JOIN b` as `a, b`: the WHERE's equalities join them (a later join that takes every table on its left,
  // RIGHT / FULL / NATURAL / USING, taken no further here)
  const crossAt = findTopLevel(written, 0, written.length, (t) => isKw(t, "CROSS"))
  if (crossAt >= 0 && findTopLevel(written, crossAt, written.length, (t) => isKw(t, "RIGHT", "FULL", "NATURAL", "USING")) >= 0) throw unimplemented("with this kind of join")
  const source: Array<Tok> = []
  for (let k = 0, depth = 0; k < written.length; k++) {
    const t = written[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth === 0 && isKw(t, "CROSS") && isKw(written[k + 1], "JOIN")) {
      source.push({ kind: "op", text: ",", value: ",", pos: t.pos })
      k++
    } else source.push(t)
  }
  const tables: Array<{ alias: string; meta: TableMeta; keys: ReadonlyArray<ReadonlyArray<string>>; subquery?: boolean }> = []
  // the tables on the null-supplying side of an outer join: never key-preserved
  const nullSupplying = new Set<number>()
  const conditions: Array<ReadonlyArray<Tok>> = []
  // NATURAL JOIN / JOIN ... USING (columns): the right table's columns equated with the same columns on its left
  const sharedColumns: Array<{ readonly right: number; readonly first: number; readonly columns: ReadonlyArray<string> | "natural"; outer?: string | undefined }> = []
  // `[schema.]table [alias]`: the table and its alias
  const table = (ref: ReadonlyArray<Tok>) => {
    if (isOp(ref[0], "(") && isKw(ref[1], "SELECT")) {
      // an inline view under its alias: a simple view of one table, its keys those of its table it shows, or a join,
      // its keys those of its key-preserved tables it shows (each such key is one of its result's)
      const close = matchParen(ref, 0)
      const inner = ref.slice(1, close)
      const alias = ref[ref.length - 1]!
      const innerFrom = findTopLevel(inner, 1, inner.length, (t) => isKw(t, "FROM"))
      if (close === ref.length - 1 || !isName(alias) || innerFrom < 0) throw unimplemented("over this subquery")
      const names = splitTopLevel(inner.slice(1, innerFrom)).map((item) => item[item.length - 1]!)
      if (names.some((n) => !isName(n))) throw unimplemented("over this subquery")
      const sub: TableMeta = { owner: meta.owner, name: oracleName(alias), kind: "VIEW", columns: names.map((n) => ({ name: oracleName(n), type: charType("VARCHAR2", 4000), nullable: true, defaultText: null })), constraints: [], objectId: 0, created: new Date(0), viewText: inner.map((t) => t.text).join(" ") }
      const keys = keysOf(sub)
      if (keys === undefined) throw unimplemented("over this subquery")
      tables.push({ alias: sub.name, meta: sub, keys, subquery: true })
      return
    }
    if (ref.some((t) => isOp(t, "("))) throw unimplemented("over a subquery")
    const qualified = isOp(ref[1], ".")
    const [schema, name] = qualified ? [oracleName(ref[0]!), oracleName(ref[2]!)] : [undefined, oracleName(ref[0]!)]
    const rest = ref.slice(qualified ? 3 : 1)
    const t = lookup(schema, name)
    const keys = t === undefined ? undefined : keysOf(t)
    if (t === undefined || keys === undefined) throw unimplemented("over a view that is neither a simple view of one table nor a join view, or a table that is gone")
    tables.push({ alias: rest.length === 0 ? t.name : oracleName(rest[rest.length - 1]!), meta: t, keys })
  }
  for (const joined of splitTopLevel(source)) {
    // LEFT / RIGHT / FULL [OUTER] JOIN: the join's null-supplying side noted, the words dropped
    const first = tables.length
    const item: Array<Tok> = []
    const outer: Array<string | undefined> = []
    for (let j = 0; j < joined.length; j++) {
      const t = joined[j]!
      // a subquery's own joins are its own
      if (isOp(t, "(")) {
        const close = matchParen(joined, j)
        item.push(...joined.slice(j, close + 1))
        j = close
        continue
      }
      if (isKw(t, "LEFT", "RIGHT", "FULL") && (isKw(joined[j + 1], "JOIN") || (isKw(joined[j + 1], "OUTER") && isKw(joined[j + 2], "JOIN")))) {
        outer.push(t.value)
        if (isKw(joined[j + 1], "OUTER")) j++
        continue
      }
      if (isKw(t, "NATURAL")) {
        sharedColumns.push({ right: first + outer.length + 1, first, columns: "natural" })
        continue
      }
      if (isKw(t, "USING") && isOp(joined[j + 1], "(")) {
        const close = matchParen(joined, j + 1)
        sharedColumns.push({ right: first + outer.length, first, columns: splitTopLevel(joined.slice(j + 2, close)).map((c) => oracleName(c[0]!)) })
        j = close
        continue
      }
      if (isKw(t, "JOIN") && !isKw(joined[j - 1], "LEFT", "RIGHT", "FULL", "OUTER")) outer.push(undefined)
      item.push(t)
    }
    for (const shared of sharedColumns) if (shared.first === first) shared.outer = outer[shared.right - first - 1]
    outer.forEach((kind, n) => {
      // the n-th JOIN brings in table first + n + 1
      const right = first + n + 1
      if (kind === "LEFT" || kind === "FULL") nullSupplying.add(right)
      if (kind === "RIGHT" || kind === "FULL") for (let i = first; i < right; i++) nullSupplying.add(i)
    })
    let k = 0
    let start = 0
    // t1 a [INNER] JOIN t2 b ON cond [INNER] JOIN ...
    for (; k <= item.length; k++) {
      const t = item[k]
      if (isOp(t, "(")) k = matchParen(item, k)
      if (t !== undefined && !isKw(t, "JOIN", "INNER", "ON")) continue
      if (t === undefined || isKw(t, "JOIN", "INNER")) {
        if (k > start) {
          const on = findTopLevel(item, start, k, (x) => isKw(x, "ON"))
          table(item.slice(start, on < 0 ? k : on))
          if (on >= 0) conditions.push(item.slice(on + 1, k))
        }
        if (isKw(t, "INNER")) k++
        start = k + 1
      } else {
        // ON: the condition runs to the next JOIN
        const next = findTopLevel(item, k + 1, item.length, (x) => isKw(x, "JOIN", "INNER"))
        table(item.slice(start, k))
        conditions.push(item.slice(k + 1, next < 0 ? item.length : next))
        k = next < 0 ? item.length : next - 1
        start = k + 1
      }
    }
  }
  if (whereAt >= 0) conditions.push(toks.slice(whereAt + 1))
  // the equalities between two tables' columns among the conditions' top-level AND terms, as `table.column` pairs
  const equated: Array<readonly [string, string]> = []
  const sharedOwners = new Map<string, Array<number>>()
  for (const shared of sharedColumns) {
    const right = tables[shared.right]!
    const names = shared.columns === "natural" ? right.meta.columns.map((c) => c.name) : shared.columns
    for (const c of names) {
      const left = tables.flatMap((t, i) => (i >= shared.first && i < shared.right && t.meta.columns.some((m) => m.name === c) ? [i] : []))
      if (left.length === 0) continue
      for (const i of left) equated.push([`${i}.${c}`, `${shared.right}.${c}`])
      const preserved = shared.outer === undefined ? [...left, shared.right] : shared.outer === "LEFT" ? left : shared.outer === "RIGHT" ? [shared.right] : []
      sharedOwners.set(c, [...new Set([...(sharedOwners.get(c) ?? []), ...preserved])])
    }
  }
  // a column reference `[alias.]column` as (table, column)
  const columnOf = (ref: ReadonlyArray<Tok>): { table: number; column: string; shared?: ReadonlyArray<number> } | undefined => {
    if (ref.length === 3 && isName(ref[0]) && isOp(ref[1], ".") && isName(ref[2])) {
      const i = tables.findIndex((t) => t.alias === oracleName(ref[0]!))
      const c = oracleName(ref[2]!)
      return i >= 0 && tables[i]!.meta.columns.some((m) => m.name === c) ? { table: i, column: c } : undefined
    }
    if (ref.length !== 1 || !isName(ref[0])) return undefined
    const c = oracleName(ref[0]!)
    const owners = tables.flatMap((t, i) => (t.meta.columns.some((m) => m.name === c) ? [i] : []))
    if (owners.length === 1) return { table: owners[0]!, column: c }
    // the column a NATURAL / USING join shares: equal in its tables (of an outer join, its preserved side's), so it
    // matches each one's rows by key
    const shared = sharedOwners.get(c)
    return shared !== undefined && shared.length > 0 && shared.every((i) => owners.includes(i)) ? { table: shared[0]!, column: c, shared } : undefined
  }
  for (const condition of conditions) {
    const terms: Array<ReadonlyArray<Tok>> = [[]]
    let depth = 0
    for (const t of condition) {
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      if (depth === 0 && isKw(t, "AND")) terms.push([])
      else (terms[terms.length - 1] as Array<Tok>).push(t)
    }
    for (const written of terms) {
      // `column (+)`: its table is the null-supplying side of an old-style outer join
      const term = written.filter((t, k) => !(isOp(t, "(") && isOp(written[k + 1], "+") && isOp(written[k + 2], ")")) && !(isOp(t, "+") && isOp(written[k - 1], "(") && isOp(written[k + 1], ")")) && !(isOp(t, ")") && isOp(written[k - 1], "+") && isOp(written[k - 2], "(")))
      written.forEach((t, k) => {
        if (!(isOp(t, "(") && isOp(written[k + 1], "+") && isOp(written[k + 2], ")"))) return
        const ref = isOp(written[k - 2], ".") ? written.slice(k - 3, k) : written.slice(k - 1, k)
        const c = columnOf(ref)
        if (c !== undefined) nullSupplying.add(c.table)
      })
      const eq = findTopLevel(term, 0, term.length, (t) => isOp(t, "="))
      if (eq < 0) continue
      const a = columnOf(term.slice(0, eq))
      const b = columnOf(term.slice(eq + 1))
      if (a === undefined || b === undefined || a.table === b.table) continue
      equated.push([`${a.table}.${a.column}`, `${b.table}.${b.column}`])
    }
  }
  // "A table is key-preserved if every key of the table can also be a key of the result of the join"
  // (Administrator's Guide, "Key-Preserved Tables"): one row of table i determines at most one row of every other
  // table, each reached from it by joins on all columns of one of its keys, on a path from i
  const determinesAll = (i: number) => {
    const bound = new Set(tables[i]!.meta.columns.map((c) => `${i}.${c.name}`))
    const reached = new Set([i])
    for (let grew = true; grew; ) {
      grew = false
      for (const [a, b] of equated) {
        if (bound.has(a) !== bound.has(b)) {
          bound.add(a).add(b)
          grew = true
        }
      }
      tables.forEach((t, j) => {
        if (reached.has(j) || !t.keys.some((key) => key.every((col) => bound.has(`${j}.${col}`)))) return
        reached.add(j)
        for (const c of t.meta.columns) bound.add(`${j}.${c.name}`)
        grew = true
      })
    }
    return reached.size === tables.length
  }
  const keyPreserved = new Set(tables.flatMap((_, i) => (!nullSupplying.has(i) && determinesAll(i) ? [i] : [])))
  // the view's columns in order: `*` (or `alias.*`) stands for the tables' columns
  const items = splitTopLevel(toks.slice(1, from))
  const defined: Array<JoinColumn> = []
  for (const item of items) {
    const last = item[item.length - 1]!
    if (isOp(last, "*") && item.length === 1) {
      tables.forEach((t, i) => t.meta.columns.forEach((c) => defined.push({ table: i, column: c.name })))
      continue
    }
    if (isOp(last, "*") && item.length === 3) {
      const i = tables.findIndex((t) => t.alias === oracleName(item[0]!))
      tables[i]?.meta.columns.forEach((c) => defined.push({ table: i, column: c.name }))
      continue
    }
    let body = item
    if (item.length > 1 && isName(last) && (isKw(item[item.length - 2], "AS") || !(isOp(item[item.length - 2], ".") || item[item.length - 2]!.kind === "op"))) body = item.slice(0, isKw(item[item.length - 2], "AS") ? -2 : -1)
    defined.push(columnOf(body) ?? { expr: true })
  }
  if (defined.length !== meta.columns.length) throw unimplemented("with these columns")
  const columns = new Map<string, JoinColumn>()
  meta.columns.forEach((c, i) => columns.set(c.name, defined[i]!))
  const inner = equated.filter((pair) => pair.every((c) => !nullSupplying.has(Number(c.slice(0, c.indexOf("."))))))
  return { tables, columns, keyPreserved, equated: inner }
}

/**
 * DML statement `sig` (significant tokens of `sql`) through join view `view` (`meta`; `at` the position of its name,
 * `nameEnd` after it, `aliasTok` the statement's alias) rewritten onto the key-preserved table it writes: the
 * statement's text and that table.
 */
export const writeThroughJoinView = (sql: string, sig: ReadonlyArray<Tok>, meta: TableMeta, view: JoinView, at: number, nameEnd: number, aliasTok: Tok | undefined): { readonly sql: string; readonly base: TableMeta } => {
  const verb = sig[0]!
  const end = (t: Tok) => t.pos + t.text.length
  // LOG ERRORS never reaches here: dml-error-logging.ts takes it off first
  if (isKw(verb, "MERGE")) throw mergeIntoJoinView()
  // RETURNING ... INTO: cut off here, its names made the written table's columns at the end
  const returningAt = findTopLevel(sig, nameEnd, sig.length, (t) => isKw(t, "RETURNING", "RETURN"))
  const stop = returningAt < 0 ? sig.length : returningAt
  const bodyEnd = returningAt < 0 ? sql.length : sig[returningAt]!.pos
  const returning = (i: number) => (returningAt < 0 ? "" : ` ${returningOnto(sql, sig, returningAt, view, i, aliasTok === undefined ? meta.name : oracleName(aliasTok))}`)
  // the one key-preserved table the written columns belong to
  const tableOf = (names: ReadonlyArray<string>): number => {
    const written = new Set<number>()
    for (const n of names) {
      const c = view.columns.get(n)
      if (c === undefined) throw ora.invalidIdentifier(n)
      // a column a NATURAL / USING join shares is taken as no one table's (Oracle's answer **unconfirmed**)
      if ("expr" in c || c.shared !== undefined) throw VIRTUAL_COLUMN()
      written.add(c.table)
    }
    if ([...written].some((i) => !view.keyPreserved.has(i))) throw NOT_KEY_PRESERVED()
    if (written.size > 1) throw TWO_TABLES()
    const i = [...written][0]!
    if (view.tables[i]!.subquery === true) throw ora.unimplemented("DML writing the table of a subquery through a join view")
    return i
  }
  const target = (i: number) => `${quoteDuck(view.tables[i]!.meta.owner)}.${quoteDuck(view.tables[i]!.meta.name)}`
  const baseColumn = (n: string) => quoteDuck((view.columns.get(n) as { column: string }).column)
  if (isKw(verb, "INSERT")) {
    // INSERT INTO v [(cols)] ...: into the table those columns are
    const hasList = isOp(sig[nameEnd], "(")
    const close = hasList ? matchParen(sig, nameEnd) : nameEnd - 1
    const names = hasList ? splitTopLevel(sig.slice(nameEnd + 1, close)).map((c) => oracleName(c[c.length - 1]!)) : meta.columns.map((c) => c.name)
    const i = tableOf(names)
    return { sql: `${sql.slice(0, sig[at]!.pos)}${target(i)} (${names.map(baseColumn).join(", ")})${sql.slice(end(sig[close]!), bodyEnd)}${returning(i)}`, base: view.tables[i]!.meta }
  }
  // UPDATE / DELETE: the rows of the key-preserved table the view shows, matched by its key through the view
  const q = aliasTok === undefined ? quoteDuck(meta.name) : aliasTok.text
  const viewRef = `${quoteDuck(meta.owner)}.${quoteDuck(meta.name)} ${q}`
  // the written table's alias: another than the one a join view over this one gave it
  const outerKp = aliasTok === undefined ? undefined : /^"ORA\$KP(\d*)"$/.exec(aliasTok.text)
  const kp = outerKp == null ? `"ORA$KP"` : `"ORA$KP${Number(outerKp[1] || 1) + 1}"`
  const keyMatch = (i: number) => {
    // a view column is table i's column `col`, or the column a NATURAL / USING join shares with it
    // (or a column the join equates with it, equal in every row of the view)
    const equal = (v: { table: number; column: string }, col: string) => view.equated.some(([a, b]) => (a === `${v.table}.${v.column}` && b === `${i}.${col}`) || (b === `${v.table}.${v.column}` && a === `${i}.${col}`))
    const shows = (v: JoinColumn, col: string) => "table" in v && ((v.column === col && (v.table === i || v.shared?.includes(i) === true)) || equal(v, col))
    const key = view.tables[i]!.keys.find((columns) => columns.every((col) => [...view.columns.values()].some((v) => shows(v, col))))
    if (key === undefined) throw ora.unimplemented("DML through a join view that does not show its written table's key")
    const viewName = (col: string) => [...view.columns.entries()].find(([, v]) => shows(v, col))![0]
    return key.map((col) => `${q}.${quoteDuck(viewName(col))} = ${kp}.${quoteDuck(col)}`).join(" AND ")
  }
  const from = nameEnd + (aliasTok === undefined ? 0 : 1)
  const whereAt = findTopLevel(sig, from, stop, (t) => isKw(t, "WHERE"))
  const condition = whereAt < 0 ? "" : ` AND (${sql.slice(sig[whereAt + 1]?.pos ?? bodyEnd, bodyEnd)})`
  if (isKw(verb, "DELETE")) {
    if (view.keyPreserved.size !== 1) throw new OraError(1752, "cannot delete from view without exactly one key-preserved table")
    const i = [...view.keyPreserved][0]!
    if (view.tables[i]!.subquery === true) throw ora.unimplemented("DML writing the table of a subquery through a join view")
    return { sql: `DELETE FROM ${target(i)} ${kp} WHERE EXISTS (SELECT 1 FROM ${viewRef} WHERE ${keyMatch(i)}${condition})${returning(i)}`, base: view.tables[i]!.meta }
  }
  // UPDATE v SET c = e, ...: each value computed over the view's row
  if (!isKw(sig[from], "SET")) throw ora.invalidSql()
  const items = splitTopLevel(sig.slice(from + 1, whereAt < 0 ? stop : whereAt))
  const sets = items.map((item) => {
    const eq = item.findIndex((t) => isOp(t, "="))
    if (eq < 0 || isOp(item[0], "(")) throw ora.unimplemented("UPDATE of a join view setting a column list")
    return { name: oracleName(item[eq - 1]!), expr: sql.slice(item[eq + 1]!.pos, end(item[item.length - 1]!)) }
  })
  const i = tableOf(sets.map((s) => s.name))
  const match = keyMatch(i)
  const assignments = sets.map((s) => `${baseColumn(s.name)} = (SELECT ${s.expr} FROM ${viewRef} WHERE ${match})`).join(", ")
  return { sql: `UPDATE ${target(i)} ${kp} SET ${assignments} WHERE EXISTS (SELECT 1 FROM ${viewRef} WHERE ${match}${condition})${returning(i)}`, base: view.tables[i]!.meta }
}

/**
 * The RETURNING clause at `at` of `sig` (tokens of `sql`) with the view's columns it names (bare or qualified by
 * `qualifier`) made the columns of table `i` they are; ORA-03001 for an expression column or another table's.
 */
const returningOnto = (sql: string, sig: ReadonlyArray<Tok>, at: number, view: JoinView, i: number, qualifier: string): string => {
  const into = findTopLevel(sig, at + 1, sig.length, (t) => isKw(t, "INTO"))
  const stop = into < 0 ? sig.length : into
  let out = ""
  let pos = sig[at]!.pos
  for (let k = at + 1; k < stop; k++) {
    const t = sig[k]!
    if (!isName(t) || isOp(sig[k + 1], "(") || (isOp(sig[k - 1], ".") && !(isName(sig[k - 2]) && oracleName(sig[k - 2]!) === qualifier))) continue
    if (isOp(sig[k + 1], ".")) continue
    const c = view.columns.get(oracleName(t))
    if (c === undefined) continue
    if (!("table" in c) || c.table !== i) throw ora.unimplemented("RETURNING a column of a join view that is not its written table's")
    const from = isOp(sig[k - 1], ".") ? sig[k - 2]!.pos : t.pos
    out += `${sql.slice(pos, from)}${quoteDuck(c.column)}`
    pos = t.pos + t.text.length
  }
  return out + sql.slice(pos)
}
