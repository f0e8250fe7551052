/**
 * DML triggers (PL/SQL Language Reference 23ai, "PL/SQL Triggers"): `CREATE [OR REPLACE] TRIGGER name BEFORE | AFTER
 * INSERT | UPDATE [OF cols] | DELETE [OR ...] ON table [FOR EACH ROW] [WHEN (cond)] block`, `DROP TRIGGER`, and a
 * client's INSERT / UPDATE / DELETE on a table that has triggers, run row by row so that row triggers see and change
 * each row.
 *
 * How a statement runs here: BEFORE statement triggers; the rows the statement writes are selected (INSERT: its
 * VALUES or query; UPDATE: each row's ROWID, old values and SET values; DELETE: ROWID and old values); per row the
 * BEFORE row triggers (which may assign :NEW), the write of that one row, the AFTER row triggers; then AFTER statement
 * triggers. A trigger body runs as an anonymous block whose `:NEW.col` / `:OLD.col` are binds (`NEW.col` in WHEN),
 * INSERTING / UPDATING / DELETING literals. An exception leaving a trigger fails the whole statement, undone, with
 * `ORA-06512: at "OWNER.TRIGGER", line n` (lines counted from the body's DECLARE or BEGIN) and ORA-04088 under it.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "../catalog.ts"
import type { OracleDatabase } from "../database.ts"
import { OraError, ora } from "../errors.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, tokenize, type Tok } from "../lexer.ts"
import { duckIdent } from "../names.ts"
import type { PlsqlResult, QueryResult } from "../statement.ts"
import { oracleName } from "../translate.ts"
import { BIND_OUT } from "./host.ts"

/** The statements a trigger fires on. */
export type TriggerEvent = "INSERT" | "UPDATE" | "DELETE"

/** A stored trigger. */
export interface Trigger {
  readonly owner: string
  readonly name: string
  readonly tableOwner: string
  readonly table: string
  readonly timing: "BEFORE" | "AFTER"
  readonly events: ReadonlySet<TriggerEvent>
  /** UPDATE OF columns (empty: any update). */
  readonly columns: ReadonlyArray<string>
  readonly forEachRow: boolean
  /** The WHEN condition's text, without its parentheses. */
  readonly when: string | undefined
  /** The body from its DECLARE or BEGIN, as written. */
  readonly body: string
  /** The CREATE statement's text from TRIGGER on (USER_TRIGGERS DESCRIPTION). */
  readonly description: string
}

const registry = new WeakMap<OracleDatabase, Map<string, Trigger>>()

/** The database's triggers by `OWNER.NAME`, in creation order (the order triggers of one timing fire in). */
export const triggersOf = (db: OracleDatabase): Map<string, Trigger> => {
  let m = registry.get(db)
  if (m === undefined) registry.set(db, (m = new Map()))
  return m
}

/** The triggers on table `meta`. */
export const tableTriggers = (db: OracleDatabase, meta: TableMeta | undefined): Array<Trigger> =>
  meta === undefined || registry.get(db) === undefined ? [] : [...triggersOf(db).values()].filter((t) => t.tableOwner === meta.owner && t.table === meta.name)

/** Rows of ALL_TRIGGERS (catalog.ts dictionaryShapes): one per trigger, ENABLED, in creation order. */
export const triggerDictionaryRows = (db: OracleDatabase): Array<Array<unknown>> =>
  registry.get(db) === undefined
    ? []
    : [...triggersOf(db).values()].map((t) => [
        t.owner,
        t.name,
        `${t.timing} ${t.forEachRow ? "EACH ROW" : "STATEMENT"}`,
        (["INSERT", "UPDATE", "DELETE"] as const).filter((e) => t.events.has(e)).join(" OR "),
        t.tableOwner,
        "TABLE",
        t.table,
        null,
        "REFERENCING NEW AS NEW OLD AS OLD",
        t.when ?? null,
        "ENABLED",
        t.description,
        "PL/SQL",
        t.body
      ])

/** `[owner.]name` at `k`: the name, its owner (the schema when not written) and the index after it. */
const qualifiedName = (toks: ReadonlyArray<Tok>, k: number, schema: string) =>
  isOp(toks[k + 1], ".") && toks[k + 2] !== undefined
    ? { owner: oracleName(toks[k]!), name: oracleName(toks[k + 2]!), next: k + 3 }
    : { owner: schema, name: oracleName(toks[k]!), next: k + 1 }

/** The `:NEW.col` / `:OLD.col` references (and `NEW.col` / `OLD.col` in WHEN) of a body's tokens, by token index. */
const correlationRefs = (toks: ReadonlyArray<Tok>, bare: boolean): Array<{ at: number; which: "NEW" | "OLD"; column: string; end: number }> => {
  const out: Array<{ at: number; which: "NEW" | "OLD"; column: string; end: number }> = []
  const sig = toks.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  for (let j = 0; j + 2 < sig.length; j++) {
    const t = toks[sig[j]!]!
    const which = t.kind === "bind" ? t.value.toUpperCase() : bare && t.kind === "ident" ? t.value : ""
    if ((which !== "NEW" && which !== "OLD") || !isOp(toks[sig[j + 1]!], ".")) continue
    if (bare && t.kind === "ident" && isOp(toks[sig[j - 1]!], ".")) continue
    out.push({ at: sig[j]!, which, column: oracleName(toks[sig[j + 2]!]!), end: sig[j + 2]! })
  }
  return out
}

/** Registers CREATE [OR REPLACE] TRIGGER (`sql`), on a table `lookup` finds. */
export const defineTrigger = (db: OracleDatabase, schema: string, sql: string, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): void => {
  const source = sql.replace(/\/\s*$/, "")
  const toks = significant(tokenize(source))
  const head = toks.findIndex((t) => isKw(t, "TRIGGER"))
  const { owner, name, next } = qualifiedName(toks, head + 1, schema)
  let k = next
  const timing = toks[k]?.value
  if (timing !== "BEFORE" && timing !== "AFTER") throw new OraError(4071, "missing BEFORE, AFTER or INSTEAD OF keyword")
  k++
  const events = new Set<TriggerEvent>()
  const columns: Array<string> = []
  for (;;) {
    const e = toks[k]?.value
    if (e !== "INSERT" && e !== "UPDATE" && e !== "DELETE") throw new OraError(4072, "invalid trigger type")
    events.add(e)
    k++
    if (isKw(toks[k], "OF")) {
      if (e !== "UPDATE") throw new OraError(4073, "column list not valid for this trigger type")
      k++
      while (toks[k] !== undefined && !isKw(toks[k], "ON", "OR")) {
        if (!isOp(toks[k], ",")) columns.push(oracleName(toks[k]!))
        k++
      }
    }
    if (!isKw(toks[k], "OR")) break
    k++
  }
  if (!isKw(toks[k], "ON")) throw ora.invalidSql()
  const target = qualifiedName(toks, k + 1, schema)
  const meta = lookup(target.owner, target.name)
  if (meta === undefined || meta.kind !== "TABLE") throw new OraError(942, "table or view does not exist")
  k = target.next
  if (isKw(toks[k], "REFERENCING")) throw ora.unimplemented("REFERENCING in CREATE TRIGGER")
  const forEachRow = isKw(toks[k], "FOR") && isKw(toks[k + 1], "EACH") && isKw(toks[k + 2], "ROW")
  if (forEachRow) k += 3
  if (isKw(toks[k], "ENABLE")) k++
  let when: string | undefined
  if (isKw(toks[k], "WHEN")) {
    if (!forEachRow) throw new OraError(4077, "WHEN clause cannot be used with table level triggers")
    if (!isOp(toks[k + 1], "(")) throw ora.invalidSql()
    const close = matchParen(toks, k + 1)
    when = source.slice(toks[k + 2]!.pos, toks[close]!.pos)
    k = close + 1
  }
  if (!isKw(toks[k], "DECLARE", "BEGIN")) throw new OraError(4079, "invalid trigger specification")
  let body = source.slice(toks[k]!.pos).trimEnd()
  if (!body.endsWith(";")) body += ";"
  const bodyToks = tokenize(body)
  const refs = correlationRefs(bodyToks, false)
  if (!forEachRow && refs.length > 0) throw new OraError(4082, "NEW or OLD references not allowed in table level triggers")
  const sig = bodyToks.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  for (const r of refs) {
    const after = sig.indexOf(r.end) + 1
    if (!isOp(bodyToks[sig[after] ?? -1], ":=")) continue
    if (r.which === "OLD") throw new OraError(4085, "cannot change the value of an OLD reference variable")
    if (timing === "AFTER" || events.has("DELETE")) throw new OraError(4084, "cannot change NEW values for this trigger type")
  }
  const triggers = triggersOf(db)
  const key = `${owner}.${name}`
  if (triggers.has(key) && !/^\s*CREATE\s+OR\s+REPLACE/i.test(source)) throw new OraError(4081, `trigger '${name}' already exists`)
  triggers.delete(key)
  triggers.set(key, { owner, name, tableOwner: meta.owner, table: meta.name, timing, events, columns, forEachRow, when, body, description: source.slice(toks[head]!.pos + toks[head]!.text.length, toks[k]!.pos).trim() })
}

/** DROP TRIGGER [owner.]name (ORA-04080 for an unknown one). */
export const dropTrigger = (db: OracleDatabase, schema: string, toks: ReadonlyArray<Tok>, at: number): void => {
  const { owner, name } = qualifiedName(toks, at, schema)
  if (!triggersOf(db).delete(`${owner}.${name}`)) throw new OraError(4080, `trigger '${name}' does not exist`)
}

/** What running a statement with triggers needs from the SQL session (sqlsession.ts). */
export interface TriggerSession {
  readonly db: OracleDatabase
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
 * `triggers`, firing them; the number of rows written.
 */
export const runWithTriggers = (s: TriggerSession, meta: TableMeta, triggers: ReadonlyArray<Trigger>, sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number> =>
  s.atomically(async () => {
    const toks = significant(tokenize(sql))
    const event = toks[0]!.value as TriggerEvent
    if (topLevel(toks, 0, "RETURNING", "RETURN") >= 0) throw ora.unimplemented("RETURNING on a table with triggers")
    const columnIndex = (name: string) => {
      const i = meta.columns.findIndex((c) => c.name === name)
      if (i < 0) throw new OraError(904, `"${name}": invalid identifier`)
      return i
    }
    const width = meta.columns.length
    // the rows the statement writes, selected before any of them is written
    let rows: Array<RowChange>
    const firing = (timing: "BEFORE" | "AFTER", row: boolean, setColumns: ReadonlyArray<number>) =>
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
      const query = isKw(toks[k], "VALUES") ? `SELECT ${text(sql, toks, k + 2, matchParen(toks, k + 1))} FROM dual` : text(sql, toks, k, toks.length)
      setColumns = listed
      source = async () =>
        (await s.rowsOf(await s.query(query, params))).map((values) => {
          const fresh: Array<DuckDBValue> = Array.from({ length: width }, () => null)
          listed.forEach((c, i) => (fresh[c] = values[i] ?? null))
          return { rowid: null, old: Array.from({ length: width }, () => null), new: fresh, written: new Set(listed) }
        })
    } else {
      const from = event === "DELETE" ? (isKw(toks[1], "FROM") ? 2 : 1) : 1
      const set = event === "UPDATE" ? topLevel(toks, from, "SET") : -1
      const where = topLevel(toks, from, "WHERE")
      const tableText = text(sql, toks, from, set >= 0 ? set : where >= 0 ? where : toks.length)
      const assignments = set < 0 ? [] : splitTopLevel(toks.slice(set + 1, where >= 0 ? where : toks.length))
      const exprs = assignments.map((a) => {
        const eq = a.findIndex((t) => isOp(t, "="))
        if (eq !== a.length - 1 && eq > 0 && !isOp(a[0], "(")) return { column: columnIndex(oracleName(a[eq - 1]!)), expr: text(sql, a, eq + 1, a.length) }
        throw ora.unimplemented("UPDATE SET (columns) = (subquery) on a table with triggers")
      })
      setColumns = exprs.map((e) => e.column)
      const items = ["ROWID", ...meta.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`), ...exprs.map((e) => `(${e.expr})`)]
      const query = `SELECT ${items.join(", ")} FROM ${tableText}${where >= 0 ? ` ${text(sql, toks, where, toks.length)}` : ""}`
      source = async () =>
        (await s.rowsOf(await s.query(query, params))).map((values) => {
          const old = values.slice(1, 1 + width)
          const fresh = event === "DELETE" ? Array.from({ length: width }, (): DuckDBValue => null) : [...old]
          exprs.forEach((e, i) => (fresh[e.column] = values[1 + width + i] ?? null))
          return { rowid: values[0] ?? null, old, new: fresh, written: new Set(setColumns) }
        })
    }
    for (const t of firing("BEFORE", false, setColumns)) await fire(s, t, event, meta, undefined, setColumns)
    rows = await source()
    const table = `${duckIdent(meta.owner)}.${duckIdent(meta.name)}`
    for (const row of rows) {
      for (const t of firing("BEFORE", true, setColumns)) await fire(s, t, event, meta, row, setColumns)
      const cols = [...row.written].sort((a, b) => a - b)
      if (event === "INSERT") {
        await s.runLogged(`INSERT INTO ${table} (${cols.map((c) => duckIdent(meta.columns[c]!.name)).join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})`, cols.map((c) => row.new[c] ?? null))
      } else if (event === "UPDATE") {
        const assigns = cols.map((c, i) => `${duckIdent(meta.columns[c]!.name)} = $${i + 1}`).join(", ")
        await s.runLogged(`UPDATE ${table} SET ${assigns} WHERE rowid = $${cols.length + 1}`, [...cols.map((c) => row.new[c] ?? null), row.rowid])
      } else {
        await s.runLogged(`DELETE FROM ${table} WHERE rowid = $1`, [row.rowid])
      }
      for (const t of firing("AFTER", true, setColumns)) await fire(s, t, event, meta, row, setColumns)
    }
    for (const t of firing("AFTER", false, setColumns)) await fire(s, t, event, meta, undefined, setColumns)
    return rows.length
  })

/** Runs trigger `t` for `event` (on `row` for a row trigger); a BEFORE row trigger's :NEW assignments go into `row`. */
const fire = async (s: TriggerSession, t: Trigger, event: TriggerEvent, meta: TableMeta, row: RowChange | undefined, setColumns: ReadonlyArray<number>): Promise<void> => {
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
    const refs = new Map(correlationRefs(toks, bare).map((r) => [r.at, r]))
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
    return (m[1] === "NEW" ? row.new : row.old)[Number(m[2])] ?? null
  }
  let result: PlsqlResult
  try {
    result = await s.runBlock(block, order.map(valueOf))
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
): Promise<number> => {
  let total = 0
  const list = rows.length === 0 ? [[]] : rows
  for (let i = 0; i < list.length; i++) {
    try {
      total += await runWithTriggers(s, meta, triggers, sql, list[i]!)
    } catch (e) {
      const err = mapError(e)
      if (list.length > 1) (err as OraError & { rowOffset?: number }).rowOffset = i
      throw err
    }
  }
  return total
}
