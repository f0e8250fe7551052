/**
 * DML error logging (SQL Language Reference, INSERT / UPDATE / DELETE / MERGE, "error_logging_clause"): `LOG ERRORS [INTO
 * [schema.]table] [(simple_expression)] [REJECT LIMIT {integer | UNLIMITED}]` at the end of a DML statement writes
 * each row the statement fails on into the error logging table and goes on with the others. Without INTO the table is
 * `ERR$_` and the first 25 characters of the written table's name; the tag is the expression's value; REJECT LIMIT
 * defaults to 0. When more rows fail than the limit allows, the statement fails with the last row's error and is
 * undone, "the error logging table retains the log entries recorded so far" (SQL Language Reference, INSERT,
 * "REJECT LIMIT"). The logging table's columns (Administrator's Guide, "Error Logging Table Format"):
 * ORA_ERR_NUMBER$ (the error's number), ORA_ERR_MESG$ (its message), ORA_ERR_ROWID$ (the row's rowid, of an UPDATE or
 * DELETE), ORA_ERR_OPTYP$ (I, U or D), ORA_ERR_TAG$, then the written table's columns it has, holding the failing
 * row's values as text.
 *
 * Taken here: INSERT ... VALUES and INSERT ... subquery, UPDATE and DELETE of a table or view, with binds too, and
 * MERGE (its UPDATE of the matched rows, each row updated then checked by its DELETE WHERE, then its INSERT of the
 * others: error-logged-statements.ts). The statement first
 * runs whole; when it fails it runs again row by row (an INSERT's subquery row `k` by `OFFSET k ROWS FETCH NEXT 1
 * ROWS ONLY`, an UPDATE's or DELETE's rows by their rowids), each row undone alone when it fails. An UPDATE's log
 * entry holds the values it tried to write (its `column = expression` items evaluated over the row; a column set by
 * `(columns) = (subquery)` its value before), a DATE or TIMESTAMP value the text TO_CHAR gives it (NLS_DATE_FORMAT,
 * NLS_TIMESTAMP_FORMAT), as Oracle's implicit conversion into the VARCHAR2 log column does.
 */
import { quoteDuck } from "./names.ts"
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, significant, sqlString, type Tok, tokenize } from "./lexer.ts"
import { type LoggedStatement, loggedStatement, selectItems, type WrittenValue } from "./error-logged-statements.ts"
import { mergeParts } from "./plsql/merge-parts.ts"
import { stripTerminator, type BindSpec, type DmlResult, type ExecuteOptions, type StatementResult } from "./statement.ts"

type Lookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** What runs a logged statement's parts: the session's statements, their atomicity, and a query's single number. */
export interface ErrorLoggingHost {
  execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult>
  atomically<T>(body: () => Promise<T>): Promise<T>
  count(sql: string, bound?: ReadonlyArray<DuckDBValue>, specs?: ReadonlyArray<BindSpec>): Promise<number>
  column(sql: string): Promise<ReadonlyArray<DuckDBValue>>
}

/** A DML statement with its error logging clause taken apart. */
export interface ErrorLogged extends LoggedStatement {
  readonly log: TableMeta
  /** The tag's SQL expression, or NULL. */
  readonly tag: string
  readonly limit: number
}

const tableName = (t: TableMeta) => `${quoteDuck(t.owner)}.${quoteDuck(t.name)}`
const dml = (rowCount: number): DmlResult => ({ kind: "dml", rowCount, rowCounts: [rowCount], batchErrors: [] })
const DATETIME = new Set(["date", "timestamp", "timestamptz", "timestampltz"])

/** The error logging clause's position in `sig` (a DML statement's significant tokens), or -1. */
const clauseAt = (sig: ReadonlyArray<Tok>): number => {
  for (let k = 1; (k = findTopLevel(sig, k, sig.length, (t) => isKw(t, "LOG"))) >= 0; k++) if (isKw(sig[k + 1], "ERRORS")) return k
  return -1
}

/**
 * DML statement `oracleSql` with its error logging clause taken apart, or undefined without one; ORA-00942 when the
 * logging table does not exist.
 */
export const errorLogged = (oracleSql: string, lookup: Lookup): ErrorLogged | undefined => {
  if (!/\bLOG\s+ERRORS\b/i.test(oracleSql)) return undefined
  const sql = stripTerminator(oracleSql)
  const sig = significant(tokenize(sql))
  const verb = sig[0]
  if (!isKw(verb, "INSERT", "UPDATE", "DELETE", "MERGE")) return undefined
  const at = clauseAt(sig)
  if (at < 0) return undefined
  // the clause: [INTO [schema.]table] [(expr)] [REJECT LIMIT n | UNLIMITED], then the end
  let k = at + 2
  let logName: [string | undefined, string] | undefined
  if (isKw(sig[k], "INTO")) {
    if (!isName(sig[k + 1])) throw new OraError(903, "invalid table name")
    if (isOp(sig[k + 2], ".")) {
      logName = [oracleName(sig[k + 1]!), oracleName(sig[k + 3]!)]
      k += 4
    } else {
      logName = [undefined, oracleName(sig[k + 1]!)]
      k += 2
    }
  }
  let tag = "NULL"
  if (isOp(sig[k], "(")) {
    const close = matchParen(sig, k)
    tag = sql.slice(sig[k + 1]!.pos, sig[close]!.pos)
    k = close + 1
  }
  let limit = 0
  if (isKw(sig[k], "REJECT")) {
    if (!isKw(sig[k + 1], "LIMIT")) throw new OraError(933, "SQL command not properly ended")
    const n = sig[k + 2]
    if (isKw(n, "UNLIMITED")) limit = Infinity
    else if (n?.kind === "num" && /^\d+$/.test(n.text)) limit = Number(n.text)
    else throw new OraError(933, "SQL command not properly ended")
    k += 3
  }
  if (k < sig.length) throw new OraError(933, "SQL command not properly ended")
  const statement = loggedStatement(sql.slice(0, sig[at]!.pos).trimEnd(), lookup)
  const log = logName === undefined ? lookup(undefined, `ERR$_${statement.target.name.slice(0, 25)}`) : lookup(logName[0], logName[1])
  if (log === undefined) throw new OraError(942, "table or view does not exist")
  return { ...statement, log, tag, limit }
}

/**
 * Whether `e` is the statement's own error rather than a row's, which Oracle raises without logging: a parse or
 * name error (ORA-00900 .. ORA-00999, ORA-00942), missing privileges (ORA-01031), a view's DML refused (ORA-01732,
 * ORA-01733, ORA-01752, ORA-01776, ORA-01779, ORA-42399), a MERGE's (ORA-30926, ORA-38104, ORA-38106), ORA-03001.
 */
const isStatementError = (e: OraError) => (e.code >= 900 && e.code <= 999) || [942, 1031, 1732, 1733, 1752, 1776, 1779, 3001, 30926, 38104, 38106, 42399].includes(e.code)

/** A statement with the values and specs of its binds. */
interface Bound {
  readonly stmt: LoggedStatement
  readonly row: ReadonlyArray<DuckDBValue>
  readonly specs: ReadonlyArray<BindSpec>
}

/** Bind values and their specs. */
interface Binds {
  readonly rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  readonly specs: ReadonlyArray<BindSpec>
}

/** Runs `logged`: whole first, row by row when that fails, each failing row logged; its row count. */
export const runErrorLogged = async (host: ErrorLoggingHost, logged: ErrorLogged, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> => {
  try {
    return await host.atomically(() => host.execute(logged.sql, rows, specs, opts))
  } catch (e) {
    if (!(e instanceof OraError) || isStatementError(e)) throw e
  }
  // the logging statements run so far, run again when the statement fails after all
  const written: Array<{ sql: string; binds: Binds }> = []
  const noBinds: Binds = { rows: [[]], specs: [] }
  const logRow = async (e: OraError, sql: string, binds: Binds, fallback: string) => {
    if (isStatementError(e)) throw e
    try {
      await host.atomically(() => host.execute(sql, binds.rows, binds.specs, opts))
      written.push({ sql, binds })
    } catch {
      await host.execute(fallback, [[]], [], opts)
      written.push({ sql: fallback, binds: noBinds })
    }
    if (written.length > logged.limit) throw e
  }
  const logColumns = new Set(logged.log.columns.map((c) => c.name))
  const fixed = (e: OraError, optyp: string, rowid: string) =>
    `${[e.code, sqlString(e.message.slice(0, 2000)), rowid, sqlString(optyp), `SUBSTR(${logged.tag}, 1, 2000)`].join(", ")}`
  const fixedColumns = ["ORA_ERR_NUMBER$", "ORA_ERR_MESG$", "ORA_ERR_ROWID$", "ORA_ERR_OPTYP$", "ORA_ERR_TAG$"].map(quoteDuck).join(", ")
  const into = (columns: ReadonlyArray<string>) => `INSERT INTO ${tableName(logged.log)} (${[fixedColumns, ...columns.map(quoteDuck)].join(", ")})`
  const bare = (e: OraError, optyp: string) => `${into([])} VALUES (${fixed(e, optyp, "NULL")})`
  // a value as its log column holds it: a datetime as TO_CHAR shows it in the session's format
  const asText = (target: TableMeta, column: string, expr: string) => (DATETIME.has(target.columns.find((c) => c.name === column)?.type.kind ?? "") ? `TO_CHAR(${expr})` : expr)
  // the binds of the values `used` (of a statement bound by `row`, `rowSpecs`) in their order
  const bindsOf = (used: ReadonlyArray<WrittenValue>, row: ReadonlyArray<DuckDBValue>, rowSpecs: ReadonlyArray<BindSpec>): Binds => {
    const at = used.flatMap((v) => v.binds)
    return at.length === 0 ? noBinds : { rows: [at.map((i) => row[i] ?? null)], specs: at.map((i) => rowSpecs[i]!) }
  }

  /** INSERT ... VALUES bound by `row`: written, or its failure logged; the rows written. */
  const insertValues = async (stmt: LoggedStatement, row: ReadonlyArray<DuckDBValue>, rowSpecs: ReadonlyArray<BindSpec>): Promise<number> => {
    try {
      return ((await host.atomically(() => host.execute(stmt.sql, [row], rowSpecs, opts))) as DmlResult).rowCount
    } catch (e) {
      if (!(e instanceof OraError)) throw e
      const shown = stmt.columns.flatMap((c, i) => (logColumns.has(c) && stmt.values![i] !== undefined ? [{ column: c, value: stmt.values![i]! }] : []))
      const values = shown.map((s) => `, ${asText(stmt.target, s.column, s.value.expr)}`).join("")
      await logRow(e, `${into(shown.map((s) => s.column))} VALUES (${fixed(e, "I", "NULL")}${values})`, bindsOf(shown.map((s) => s.value), row, rowSpecs), bare(e, "I"))
      return 0
    }
  }

  /** INSERT ... subquery bound by `row`, one subquery row at a time; the rows written. */
  const insertRows = async (stmt: LoggedStatement, row: ReadonlyArray<DuckDBValue>, rowSpecs: ReadonlyArray<BindSpec>): Promise<number> => {
    const insertCols = `INSERT INTO ${tableName(stmt.target)} (${stmt.columns.map(quoteDuck).join(", ")})`
    const binds: Binds = { rows: [row], specs: rowSpecs }
    const nth = (query: string, k: number) => `SELECT * FROM (${query}) OFFSET ${k} ROWS FETCH NEXT 1 ROWS ONLY`
    // the log entry's values: the subquery's items, each named for its column (a datetime as text), when they can be
    // told apart; else its row as a whole when the log has every column, its columns named by a WITH column list
    // (`*`, a set operation) to be given as text alike
    const parsed = selectItems(stmt.subquery!)
    const shown = parsed === undefined || parsed.items.length !== stmt.columns.length ? [] : stmt.columns.flatMap((c, i) => (logColumns.has(c) ? [{ column: c, item: i }] : []))
    const whole = shown.length === 0 && stmt.columns.every((c) => logColumns.has(c))
    const named = stmt.columns.map((_, i) => `"ORA$C${i}"`)
    const logQuery = shown.length > 0
      ? `SELECT ${parsed!.items.map((item, i) => `${asText(stmt.target, stmt.columns[i]!, item)} ${named[i]}`).join(", ")} ${parsed!.rest}`
      : whole
        ? `WITH "ORA$Q" (${named.join(", ")}) AS (${stmt.subquery!}) SELECT ${named.map((n, i) => `${asText(stmt.target, stmt.columns[i]!, n)} ${n}`).join(", ")} FROM "ORA$Q"`
        : stmt.subquery!
    const count = () => host.count(`SELECT COUNT(*) FROM (${stmt.subquery})`, row, rowSpecs)
    let total = 0
    // the subquery's rows are those it has before any is written: a row written that leaves it (a MERGE's NOT
    // EXISTS) takes the next one to its position, rows it gains (reading the table written) are not taken
    for (let position = 0, left = await count(); position < left; ) {
      try {
        total += ((await host.atomically(() => host.execute(`${insertCols} ${nth(stmt.subquery!, position)}`, [row], rowSpecs, opts))) as DmlResult).rowCount
        const now = await count()
        if (now < left) left = now
        else position++
      } catch (e) {
        if (!(e instanceof OraError)) throw e
        const columns = whole ? stmt.columns : shown.map((s) => s.column)
        const values = whole ? `, "ORA$ROW".*` : shown.map((s) => `, "ORA$ROW"."ORA$C${s.item}"`).join("")
        await logRow(e, `${into(columns)} SELECT ${fixed(e, "I", "NULL")}${values} FROM (${nth(logQuery, position)}) "ORA$ROW"`, binds, bare(e, "I"))
        position++
      }
    }
    return total
  }

  /** UPDATE / DELETE `given` bound by `row` of the row at `rowAt`: written, or its failure logged; the rows written. */
  const changeRow = async (given: LoggedStatement, rowAt: string, row: ReadonlyArray<DuckDBValue>, rowSpecs: ReadonlyArray<BindSpec>): Promise<number> => {
    const stmt = given.onTable ?? given
    const one = `${stmt.head} WHERE ${stmt.where === "" ? "" : `(${stmt.where}) AND `}ROWID = ${rowAt}${stmt.tail === "" ? "" : ` ${stmt.tail}`}`
    try {
      return ((await host.atomically(() => host.execute(one, [row], rowSpecs, opts))) as DmlResult).rowCount
    } catch (e) {
      if (!(e instanceof OraError)) throw e
      // an UPDATE that breaks a unique key is not logged: the statement fails (Administrator's Guide, "Error
      // Logging Restrictions and Caveats")
      if (stmt.verb === "UPDATE" && e.code === 1) throw e
      const optyp = stmt.verb === "UPDATE" ? "U" : "D"
      // the values it tried to write: a set column's expression over the row, the others as they are
      const shown = stmt.columns.filter((c) => logColumns.has(c))
      const sets = shown.flatMap((c) => (stmt.sets?.has(c) === true ? [stmt.sets.get(c)!] : []))
      const values = shown.map((c) => `, ${asText(stmt.target, c, stmt.sets?.get(c)?.expr ?? quoteDuck(c))}`).join("")
      await logRow(e, `${into(shown)} SELECT ${fixed(e, optyp, "ROWIDTOCHAR(ROWID)")}${values} FROM ${stmt.from} WHERE ROWID = ${rowAt}`, bindsOf(sets, row, rowSpecs), bare(e, optyp))
      return 0
    }
  }

  /**
   * UPDATE / DELETE bound by `row`: the table's rows one by one by their rowids, each failing one logged; after each
   * row updated, a MERGE's DELETE WHERE (`then`) on it; the rows written.
   */
  const changeRows = async (given: LoggedStatement, row: ReadonlyArray<DuckDBValue>, rowSpecs: ReadonlyArray<BindSpec>, then?: Bound): Promise<number> => {
    const stmt = given.onTable ?? given
    if (stmt.target.kind === "VIEW") throw new OraError(3001, "unimplemented feature: LOG ERRORS of an UPDATE or DELETE through a view with INSTEAD OF triggers whose rows fail")
    // the rows' rowids read first: a row the statement writes may move
    const allRowids = () => host.column(`SELECT ROWIDTOCHAR(ROWID) FROM ${tableName(stmt.target)} ORDER BY ROWID`)
    const rowids = await allRowids()
    const known = new Set(rowids)
    const at = (rowid: DuckDBValue) => `CHARTOROWID(${sqlString(String(rowid))})`
    let total = 0
    for (const rowid of rowids) {
      const n = await changeRow(given, at(rowid), row, rowSpecs)
      total += n
      if (then === undefined || n === 0) continue
      // the row updated: where it is now (an UPDATE may give it a new rowid here)
      const moved = (await allRowids()).filter((r) => !known.has(r))
      for (const r of moved) known.add(r)
      for (const r of moved.length === 0 ? [rowid] : moved) await changeRow(then.stmt, at(r), then.row, then.specs)
    }
    return total
  }

  const run = (stmt: LoggedStatement, row: ReadonlyArray<DuckDBValue>, rowSpecs: ReadonlyArray<BindSpec>): Promise<number> =>
    stmt.verb === "INSERT" ? (stmt.values !== undefined ? insertValues(stmt, row, rowSpecs) : insertRows(stmt, row, rowSpecs)) : changeRows(stmt, row, rowSpecs)
  try {
    return await host.atomically(async () => {
      let count = 0
      // each bind row (of an executeMany) a statement of its own
      for (const row of rows.length === 0 ? [[]] : rows) {
        if (logged.verb !== "MERGE") {
          count += await run(logged, row, specs)
          continue
        }
        // a MERGE's UPDATE and INSERT, each with the values (and specs) of the binds it has
        const values = mergeParts(logged.sql, row)
        const partSpecs = mergeParts(logged.sql, specs as unknown as ReadonlyArray<DuckDBValue>)
        const bound = logged.parts!.map((stmt, i): Bound => ({ stmt, row: values[i]!.params, specs: partSpecs[i]!.params as unknown as ReadonlyArray<BindSpec> }))
        for (const [i, part] of bound.entries()) {
          // DELETE WHERE runs on each row its UPDATE writes (merge-parts.ts), as part of it
          if (part.stmt.verb === "DELETE") continue
          const then = bound[i + 1]?.stmt.verb === "DELETE" ? bound[i + 1] : undefined
          count += part.stmt.verb === "UPDATE" ? await changeRows(part.stmt, part.row, part.specs, then) : await run(part.stmt, part.row, part.specs)
        }
      }
      return dml(count)
    })
  } catch (e) {
    // the statement undone: its log entries kept
    if (written.length > logged.limit) for (const w of written) await host.execute(w.sql, w.binds.rows, w.binds.specs, opts)
    throw e
  }
}
