/**
 * Running DML triggers (PL/SQL Language Reference 23ai, "PL/SQL Triggers"; their definitions: trigger-definitions.ts):
 * a client's INSERT / UPDATE / DELETE on a table or view that has triggers, run row by row so that row triggers see
 * and change each row.
 *
 * How a statement runs here: BEFORE statement triggers; the rows the statement writes are selected (INSERT: its
 * VALUES or query; UPDATE: each row's ROWID, old values and SET values; DELETE: ROWID and old values); per row the
 * BEFORE row triggers (which may assign :NEW), the write of that one row, the AFTER row triggers; then AFTER statement
 * triggers. A trigger body runs as an anonymous block whose `:NEW.col` / `:OLD.col` are binds (`NEW.col` in WHEN),
 * INSERTING / UPDATING / DELETING literals. On a view, INSTEAD OF triggers run per row in place of the write. While a
 * row trigger runs, the table is mutating (mutating-tables.ts). An exception leaving a trigger fails the whole statement, undone, with
 * `ORA-06512: at "OWNER.TRIGGER", line n` (lines counted from the body's DECLARE or BEGIN) and ORA-04088 under it.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "../catalog.ts"
import type { OracleDatabase } from "../database.ts"
import { OraError, ora } from "../errors.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, tokenize, type Tok } from "../lexer.ts"
import { duckIdent, quoteDuck } from "../names.ts"
import { returningClause, type PlsqlResult, type QueryResult } from "../statement.ts"
import { rewriteRowSubqueries } from "../row-subqueries.ts"
import { oracleName } from "../translate.ts"
import { resetCompoundState } from "./compound-triggers.ts"
import { BIND_OUT, type PlsqlHost } from "./host.ts"
import { whileMutating } from "./mutating-tables.ts"
import { asRestrictedCall } from "./restricted-calls.ts"
import { correlationRefs, qualifiedName, type Trigger, type TriggerEvent } from "./trigger-definitions.ts"

/** What running a statement with triggers needs from the SQL session (sqlsession.ts). */
export interface TriggerSession {
  readonly db: OracleDatabase
  /** The SQL session itself (the PL/SQL host its blocks run in: mutating tables and compound trigger state are per session). */
  readonly host: PlsqlHost
  /** Runs a client-style query with positional bind values. */
  query(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<QueryResult>
  /** Reads a query's rows as PL/SQL values. */
  rowsOf(result: QueryResult): Promise<Array<Array<DuckDBValue>>>
  /** Runs an engine write inside the transaction. */
  runLogged(duckSql: string, params: ReadonlyArray<DuckDBValue>): Promise<number>
  /** Runs an anonymous block with bind values by position of first appearance. */
  runBlock(sql: string, values: ReadonlyArray<DuckDBValue>): Promise<PlsqlResult>
  /** Runs `body`, undoing its writes when it fails (statement-level atomicity). */
  atomically<T>(body: () => Promise<T>): Promise<T>
}

/** One row a statement writes: its ROWID (UPDATE, DELETE), old and new values by column index. */
interface RowChange {
  readonly rowid: DuckDBValue
  readonly old: Array<DuckDBValue>
  readonly new: Array<DuckDBValue>
  /** Columns the statement or a BEFORE trigger gave a value (INSERT's column list, UPDATE's SET list). */
  readonly written: Set<number>
}

const text = (sql: string, toks: ReadonlyArray<Tok>, from: number, to: number): string => {
  const last = toks[to - 1]
  return from >= to || last === undefined ? "" : sql.slice(toks[from]!.pos, last.pos + last.text.length)
}

/** The top-level keyword `kw` at or after `from`, or -1. */
const topLevel = (toks: ReadonlyArray<Tok>, from: number, ...kw: Array<string>): number => {
  let depth = 0
  for (let k = from; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], ...kw)) return k
  }
  return -1
}

/**
 * Runs a client's INSERT / UPDATE / DELETE (`sql`, positional bind values `params`) on `meta`, which has
 * `triggers`, firing them; the number of rows written (on a view with INSTEAD OF triggers: the rows they ran for).
 */
export const runWithTriggers = (
  s: TriggerSession,
  meta: TableMeta,
  defined: ReadonlyArray<Trigger>,
  written: string,
  values: ReadonlyArray<DuckDBValue>,
  /** false: the caller fires the statement triggers (a MERGE fires those of all its parts around all their rows). */
  statementTriggers = true,
  hooks: RowHooks = {}
): Promise<TriggeredResult> =>
  s.atomically(async () => {
    // SET (a, b) = (SELECT x, y ...) as one scalar subquery per column (row-subqueries.ts)
    const sql = rewriteRowSubqueries(tokenize(written)).map((t) => t.text).join("")
    const all = significant(tokenize(sql))
    const event = all[0]!.value as TriggerEvent
    const triggers = sectionsOf(s, defined, statementTriggers ? [event] : [])
    // RETURNING exprs INTO :binds: the statement without it; the expressions evaluated over each written row
    const ret = returningClause(all)
    const toks = ret === undefined ? all : all.slice(0, ret.at)
    const params = ret === undefined ? values : values.slice(0, toks.filter((t) => t.kind === "bind").length)
    const columnIndex = (name: string) => {
      const i = meta.columns.findIndex((c) => c.name === name)
      if (i < 0) throw new OraError(904, `"${name}": invalid identifier`)
      return i
    }
    const width = meta.columns.length
    const view = meta.kind === "VIEW"
    // Oracle fires only INSTEAD OF triggers for a view's DML: without one for the event, the view is written as a view
    if (view && !triggers.some((t) => t.events.has(event))) throw new OraError(1732, "data manipulation operation not legal on this view")
    // "Mutating-Table Restriction": a single-row INSERT ... VALUES does not make its table mutating for its row triggers
    let singleRow = false
    // the rows the statement writes, selected before any of them is written
    let rows: Array<RowChange>
    const firing = (timing: Trigger["timing"], row: boolean, setColumns: ReadonlyArray<number>) =>
      triggers.filter((t) => t.timing === timing && t.forEachRow === row && t.events.has(event) && (event !== "UPDATE" || t.columns.length === 0 || t.columns.some((c) => setColumns.some((i) => meta.columns[i]!.name === c))))
    let setColumns: Array<number> = []
    let source: () => Promise<Array<RowChange>>
    if (event === "INSERT") {
      let k = qualifiedName(toks, 2, meta.owner).next
      if ((toks[k]?.kind === "ident" || toks[k]?.kind === "qident") && !isKw(toks[k], "VALUES", "SELECT", "WITH")) k++
      let listed = meta.columns.map((_, i) => i)
      if (isOp(toks[k], "(") && !isKw(toks[k + 1], "SELECT", "WITH")) {
        const close = matchParen(toks, k)
        listed = splitTopLevel(toks.slice(k + 1, close)).map((c) => columnIndex(oracleName(c[c.length - 1]!)))
        k = close + 1
      }
      singleRow = isKw(toks[k], "VALUES")
      const query = singleRow ? `SELECT ${text(sql, toks, k + 2, matchParen(toks, k + 1))} FROM dual` : text(sql, toks, k, toks.length)
      setColumns = listed
      // the columns left out take their DEFAULT before BEFORE row triggers see :NEW (PL/SQL Triggers, "Correlation Names and Pseudorecords")
      const defaulted = meta.columns.flatMap((c, i) => (c.defaultText !== null && !listed.includes(i) ? [i] : []))
      const defaults = defaulted.length === 0 ? undefined : `SELECT ${defaulted.map((i) => meta.columns[i]!.defaultText).join(", ")} FROM dual`
      source = async () => {
        const out: Array<RowChange> = []
        for (const values of await s.rowsOf(await s.query(query, params))) {
          const fresh: Array<DuckDBValue> = Array.from({ length: width }, () => null)
          listed.forEach((c, i) => (fresh[c] = values[i] ?? null))
          if (defaults !== undefined) {
            const [row] = await s.rowsOf(await s.query(defaults, []))
            defaulted.forEach((c, i) => (fresh[c] = row?.[i] ?? null))
          }
          out.push({ rowid: null, old: Array.from({ length: width }, () => null), new: fresh, written: new Set([...listed, ...defaulted]) })
        }
        return out
      }
    } else {
      const from = event === "DELETE" ? (isKw(toks[1], "FROM") ? 2 : 1) : 1
      const set = event === "UPDATE" ? topLevel(toks, from, "SET") : -1
      const where = topLevel(toks, from, "WHERE")
      const tableText = text(sql, toks, from, set >= 0 ? set : where >= 0 ? where : toks.length)
      const assignments = set < 0 ? [] : splitTopLevel(toks.slice(set + 1, where >= 0 ? where : toks.length))
      const exprs = assignments.map((a) => {
        // `(col) = (subquery)`: one column in parentheses, which row-subqueries.ts leaves as written
        const eq = isOp(a[0], "(") ? matchParen(a, 0) + 1 : a.findIndex((t) => isOp(t, "="))
        if (eq <= 0 || eq >= a.length - 1 || !isOp(a[eq], "=")) throw ora.invalidSql()
        return { column: columnIndex(oracleName(a[isOp(a[eq - 1], ")") ? eq - 2 : eq - 1]!)), expr: text(sql, a, eq + 1, a.length) }
      })
      setColumns = exprs.map((e) => e.column)
      // a view's rows have no ROWID: INSTEAD OF triggers write nothing through it
      const items = [view ? "NULL" : "ROWID", ...meta.columns.map((c) => `${quoteDuck(c.name)}`), ...exprs.map((e) => `(${e.expr})`)]
      const query = `SELECT ${items.join(", ")} FROM ${tableText}${where >= 0 ? ` ${text(sql, toks, where, toks.length)}` : ""}`
      source = async () =>
        (await s.rowsOf(await s.query(query, params))).map((values) => {
          const old = values.slice(1, 1 + width)
          const fresh = event === "DELETE" ? Array.from({ length: width }, (): DuckDBValue => null) : [...old]
          exprs.forEach((e, i) => (fresh[e.column] = values[1 + width + i] ?? null))
          return { rowid: values[0] ?? null, old, new: fresh, written: new Set(setColumns) }
        })
    }
    const rowTrigger = (t: Trigger, row: RowChange) => (singleRow || view ? fire(s, t, event, meta, row, setColumns) : whileMutating(s.host, meta, () => fire(s, t, event, meta, row, setColumns)))
    if (statementTriggers) for (const t of firing("BEFORE", false, setColumns)) await fire(s, t, event, meta, undefined, setColumns)
    rows = await source()
    const table = `${duckIdent(meta.owner)}.${duckIdent(meta.name)}`
    for (const row of rows) {
      if (view) {
        for (const t of firing("INSTEAD OF", true, setColumns)) await rowTrigger(t, row)
        continue
      }
      for (const t of firing("BEFORE", true, setColumns)) await rowTrigger(t, row)
      const cols = [...row.written].sort((a, b) => a - b)
      if (event === "INSERT") {
        await s.runLogged(`INSERT INTO ${table} (${cols.map((c) => duckIdent(meta.columns[c]!.name)).join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})`, cols.map((c) => row.new[c] ?? null))
      } else if (event === "UPDATE") {
        const assigns = cols.map((c, i) => `${duckIdent(meta.columns[c]!.name)} = $${i + 1}`).join(", ")
        await s.runLogged(`UPDATE ${table} SET ${assigns} WHERE rowid = $${cols.length + 1}`, [...cols.map((c) => row.new[c] ?? null), row.rowid])
      } else if (hooks.deferredDeletes !== undefined) {
        hooks.deferredDeletes.push(row.rowid)
      } else {
        await s.runLogged(`DELETE FROM ${table} WHERE rowid = $1`, [row.rowid])
      }
      for (const t of firing("AFTER", true, setColumns)) await rowTrigger(t, row)
      if (hooks.afterRow !== undefined) await hooks.afterRow(row.rowid)
    }
    if (statementTriggers) for (const t of firing("AFTER", false, setColumns)) await fire(s, t, event, meta, undefined, setColumns)
    const rowids = event === "INSERT" || view ? {} : { rowids: rows.map((r) => r.rowid) }
    if (ret === undefined || view) return { count: rows.length, ...rowids }
    return { count: rows.length, ...rowids, returning: await returnedValues(s, meta, text(sql, all, ret.at + 1, ret.into), ret.outs, rows.map((r) => (event === "DELETE" ? r.old : r.new))) }
  })

/**
 * `defined` with a compound trigger as one trigger per section; the shared state of those firing on one of `resetFor`
 * is made anew (a new statement starts).
 */
const sectionsOf = (s: TriggerSession, defined: ReadonlyArray<Trigger>, resetFor: ReadonlyArray<TriggerEvent>): Array<Trigger> =>
  defined.flatMap((t) => {
    if (t.compound === undefined) return [t]
    if (resetFor.some((e) => t.events.has(e))) resetCompoundState(s.host, t.owner, t.compound.stateName)
    return t.compound.sections.map((sec): Trigger => ({ ...t, timing: sec.timing, forEachRow: sec.row, body: sec.body, when: sec.row ? t.when : undefined }))
  })

/** One event of a statement whose statement triggers its caller fires (a MERGE's UPDATE, DELETE or INSERT). */
export interface StatementEvent {
  readonly event: TriggerEvent
  /** The columns an UPDATE sets (for UPDATE OF triggers and UPDATING('col')). */
  readonly columns: ReadonlyArray<string>
}

/**
 * Fires the statement triggers at `timing` of each of `events` in turn, as one statement writing all of them would:
 * before `BEFORE` a compound trigger's state is made anew.
 */
export const fireStatementTriggers = async (
  s: TriggerSession,
  meta: TableMeta,
  defined: ReadonlyArray<Trigger>,
  events: ReadonlyArray<StatementEvent>,
  timing: "BEFORE" | "AFTER"
): Promise<void> => {
  const triggers = sectionsOf(s, defined, timing === "BEFORE" ? events.map((e) => e.event) : [])
  for (const { event, columns } of events) {
    const setColumns = columns.flatMap((name) => {
      const i = meta.columns.findIndex((c) => c.name === name)
      return i < 0 ? [] : [i]
    })
    for (const t of triggers) {
      if (t.timing !== timing || t.forEachRow || !t.events.has(event)) continue
      if (event === "UPDATE" && t.columns.length > 0 && !t.columns.some((c) => columns.includes(c))) continue
      await fire(s, t, event, meta, undefined, setColumns)
    }
  }
}

/** What a caller (a MERGE) adds to each row a statement with triggers writes. */
export interface RowHooks {
  /** Runs after a row's AFTER row triggers, with its engine row id (null for an inserted row or a view's). */
  readonly afterRow?: (rowid: DuckDBValue) => Promise<void>
  /** A DELETE's rows are collected here, their triggers fired, and left in the table for the caller to remove. */
  readonly deferredDeletes?: Array<DuckDBValue>
}

/** What a statement with triggers did: the rows written and, with RETURNING INTO, the values per OUT bind. */
export interface TriggeredResult {
  readonly count: number
  /** The engine row ids of the rows an UPDATE or DELETE on a table wrote. */
  readonly rowids?: ReadonlyArray<DuckDBValue>
  readonly returning?: Array<Array<unknown>>
}

/**
 * RETURNING `exprs` of each written row (`rows`: the values a row was written with, after BEFORE triggers; a DELETE's
 * old values), one array per OUT bind, evaluated by the session's SQL over the row's columns.
 */
const returnedValues = async (s: TriggerSession, meta: TableMeta, exprs: string, outs: number, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Promise<Array<Array<unknown>>> => {
  const out: Array<Array<unknown>> = Array.from({ length: outs }, () => [])
  const columns = meta.columns.map((c, i) => `:${i + 1} ${quoteDuck(c.name)}`).join(", ")
  for (const row of rows) {
    const [got] = await s.rowsOf(await s.query(`SELECT ${exprs} FROM (SELECT ${columns} FROM dual)`, meta.columns.map((_, i) => numericValue(meta, i, row[i] ?? null))))
    for (let k = 0; k < outs; k++) out[k]!.push(got?.[k] ?? null)
  }
  return out
}

/**
 * A NUMBER column's value as :NEW / :OLD show it: exact arithmetic (number-functions.ts) yields decimal text, which
 * becomes a number when a double holds it exactly (as row-reader.ts reads decimals), so that `:NEW.n / 10` is numeric.
 */
const numericValue = (meta: TableMeta, column: number, v: DuckDBValue): DuckDBValue =>
  typeof v === "string" && meta.columns[column]?.type.kind === "number" && /^-?\d+(\.\d+)?$/.test(v) && v.replace(/^-|\.|^0+/g, "").length <= 15 ? Number(v) : v

/** Runs trigger `t` for `event` (on `row` for a row trigger); a BEFORE row trigger's :NEW assignments go into `row`. */
const fire = async (s: TriggerSession, t: Trigger, event: TriggerEvent, meta: TableMeta, row: RowChange | undefined, setColumns: ReadonlyArray<number>): Promise<void> => {
  if (t.errors !== undefined) throw new OraError(4098, `trigger '${t.owner}.${t.name}' is invalid and failed re-validation`)
  const names: Array<string> = []
  const bindOf = (which: "NEW" | "OLD", column: string): string => {
    const i = meta.columns.findIndex((c) => c.name === column)
    if (i < 0) throw new OraError(4082, `bad bind variable '${which}.${column}'`)
    const name = `ORA$${which}_${i}`
    if (!names.includes(name)) names.push(name)
    return `:${name}`
  }
  const rewrite = (source: string, bare: boolean): string => {
    const toks = tokenize(source)
    const refs = new Map(correlationRefs(toks, bare, t).map((r) => [r.at, r]))
    let out = ""
    for (let k = 0; k < toks.length; k++) {
      const r = refs.get(k)
      const tok = toks[k]!
      if (r !== undefined) {
        out += bindOf(r.which, r.column)
        k = r.end
        continue
      }
      if (tok.kind === "ident" && !isOp(toks[k - 1], ".") && (tok.value === "INSERTING" || tok.value === "UPDATING" || tok.value === "DELETING")) {
        const sig = toks.slice(k + 1).findIndex((x) => x.kind !== "ws")
        const open = sig < 0 ? -1 : k + 1 + sig
        if (tok.value === "UPDATING" && isOp(toks[open], "(")) {
          // UPDATING('column'): true when the UPDATE sets that column
          const close = matchParen(toks, open)
          const named = toks.slice(open + 1, close).find((x) => x.kind === "str")
          out += event === "UPDATE" && named !== undefined && setColumns.some((c) => meta.columns[c]!.name === named.value.toUpperCase()) ? "TRUE" : "FALSE"
          k = close
          continue
        }
        out += tok.value === `${event}ING`.replace("EING", "ING") ? "TRUE" : "FALSE"
        continue
      }
      out += tok.text
    }
    return out
  }
  const body = rewrite(t.body, false)
  const block = t.when === undefined ? body : `BEGIN IF ${rewrite(t.when, true)} THEN ${body} END IF; END;`
  // binds are numbered by first appearance in the text, which the WHEN condition (written first) leads
  const order = significant(tokenize(block)).flatMap((x) => (x.kind === "bind" ? [x.value.toUpperCase()] : [])).filter((n, i, a) => a.indexOf(n) === i)
  const valueOf = (name: string): DuckDBValue => {
    const m = /^ORA\$(NEW|OLD)_(\d+)$/.exec(name)
    if (m === null || row === undefined) return null
    const c = Number(m[2])
    return numericValue(meta, c, (m[1] === "NEW" ? row.new : row.old)[c] ?? null)
  }
  let result: PlsqlResult
  try {
    // with its owner's rights, as a trigger always runs (PL/SQL Language Reference, "PL/SQL Triggers")
    result = await asRestrictedCall(s.host, () => s.host.runAs(t.owner, () => s.runBlock(block, order.map(valueOf))))
  } catch (e) {
    throw inTrigger(t, e)
  }
  if (row === undefined || t.timing !== "BEFORE") return
  order.forEach((name, i) => {
    const m = /^ORA\$NEW_(\d+)$/.exec(name)
    if (m === null || ((result.directions[i] ?? 0) & BIND_OUT) === 0) return
    const c = Number(m[1])
    row.new[c] = (result.values[i] ?? null) as DuckDBValue
    row.written.add(c)
  })
}

/** An error leaving trigger `t`: its backtrace lines name the trigger, then ORA-04088. */
const inTrigger = (t: Trigger, e: unknown): unknown => {
  if (!(e instanceof OraError)) return e
  const qualified = `${t.owner}.${t.name}`
  const detail = e.detail.replace(/ORA-06512: at line (\d+)/g, `ORA-06512: at "${qualified}", line $1`)
  const out = new OraError(e.code, `${detail}\nORA-04088: error during execution of trigger '${qualified}'`, e.position)
  return out
}

/**
 * Runs a client's INSERT / UPDATE / DELETE on `meta`, which has `triggers`, once per bind row of `rows` (once
 * without binds when there are none); the rows written in all. A failure is mapped by `mapError` and, in a batch,
 * names its bind row (`rowOffset`).
 */
export const runRowsWithTriggers = async (
  s: TriggerSession,
  meta: TableMeta,
  triggers: ReadonlyArray<Trigger>,
  sql: string,
  rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
  mapError: (e: unknown) => OraError
): Promise<TriggeredResult> => {
  let total = 0
  let returning: Array<Array<unknown>> | undefined
  const list = rows.length === 0 ? [[]] : rows
  for (let i = 0; i < list.length; i++) {
    try {
      const done = await runWithTriggers(s, meta, triggers, sql, list[i]!)
      total += done.count
      if (done.returning !== undefined) done.returning.forEach((v, k) => (returning ??= [])[k] = [...(returning[k] ?? []), ...v])
    } catch (e) {
      const err = mapError(e)
      if (list.length > 1) (err as OraError & { rowOffset?: number }).rowOffset = i
      throw err
    }
  }
  return returning === undefined ? { count: total } : { count: total, returning }
}
