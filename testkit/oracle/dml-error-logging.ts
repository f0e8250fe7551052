/**
 * DML error logging (SQL Language Reference, INSERT / UPDATE / DELETE, "error_logging_clause"): `LOG ERRORS [INTO
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
 * Taken here: INSERT ... VALUES and INSERT ... subquery, UPDATE and DELETE of a table. The statement first runs
 * whole; when it fails it runs again row by row (an INSERT's subquery row `k` by `OFFSET k ROWS FETCH NEXT 1 ROWS
 * ONLY`, an UPDATE's or DELETE's rows by their rowids read first), each row undone alone when it fails. The logged
 * values of an UPDATE's row are its values before the update, where Oracle logs the values it tried to write.
 */
import { quoteDuck } from "./names.ts"
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { findTopLevel, isKw, isOp, matchParen, significant, splitTopLevel, sqlString, type Tok, tokenize } from "./lexer.ts"
import { stripTerminator, type BindSpec, type DmlResult, type ExecuteOptions, type StatementResult } from "./statement.ts"

type Lookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** What runs a logged statement's parts: the session's statements, their atomicity, and a query's single number. */
export interface ErrorLoggingHost {
  execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult>
  atomically<T>(body: () => Promise<T>): Promise<T>
  count(sql: string): Promise<number>
}

/** A DML statement with its error logging clause taken apart. */
export interface ErrorLogged {
  /** The statement without the clause. */
  readonly sql: string
  readonly verb: "INSERT" | "UPDATE" | "DELETE"
  readonly target: TableMeta
  readonly log: TableMeta
  /** The tag's SQL expression, or NULL. */
  readonly tag: string
  readonly limit: number
  /** INSERT: the written columns and the row source (VALUES (...) or a subquery), as text. */
  readonly columns: ReadonlyArray<string>
  readonly values?: string
  readonly subquery?: string
  /** UPDATE / DELETE: the target as the statement names it (with its alias) and its WHERE condition, or "". */
  readonly from?: string
  readonly where?: string
}

const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident")
const tableName = (t: TableMeta) => `${quoteDuck(t.owner)}.${quoteDuck(t.name)}`
const dml = (rowCount: number): DmlResult => ({ kind: "dml", rowCount, rowCounts: [rowCount], batchErrors: [] })

/** The error logging clause's position in `sig` (a DML statement's significant tokens), or -1. */
const clauseAt = (sig: ReadonlyArray<Tok>): number => {
  for (let k = 1; (k = findTopLevel(sig, k, sig.length, (t) => isKw(t, "LOG"))) >= 0; k++) if (isKw(sig[k + 1], "ERRORS")) return k
  return -1
}

/**
 * DML statement `oracleSql` with its error logging clause taken apart, or undefined without one; ORA-00942 when the
 * logging table does not exist, ORA-03001 for MERGE.
 */
export const errorLogged = (oracleSql: string, lookup: Lookup): ErrorLogged | undefined => {
  if (!/\bLOG\s+ERRORS\b/i.test(oracleSql)) return undefined
  const sql = stripTerminator(oracleSql)
  const sig = significant(tokenize(sql))
  const verb = sig[0]
  if (!isKw(verb, "INSERT", "UPDATE", "DELETE", "MERGE")) return undefined
  const at = clauseAt(sig)
  if (at < 0) return undefined
  if (isKw(verb, "MERGE")) throw new OraError(3001, "unimplemented feature: LOG ERRORS of a MERGE")
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
  const plain = sql.slice(0, sig[at]!.pos).trimEnd()
  const ps = significant(tokenize(plain))
  // the written table: INSERT INTO / DELETE [FROM] / UPDATE [schema.]name [alias]
  const nameAt = isKw(ps[1], "INTO", "FROM") ? 2 : 1
  const qualified = isOp(ps[nameAt + 1], ".")
  const target = qualified ? lookup(oracleName(ps[nameAt]!), oracleName(ps[nameAt + 2]!)) : lookup(undefined, oracleName(ps[nameAt]!))
  if (target === undefined) throw new OraError(942, "table or view does not exist")
  const log = logName === undefined ? lookup(undefined, `ERR$_${target.name.slice(0, 25)}`) : lookup(logName[0], logName[1])
  if (log === undefined) throw new OraError(942, "table or view does not exist")
  let nameEnd = qualified ? nameAt + 3 : nameAt + 1
  const base = { sql: plain, target, log, tag, limit }
  if (isKw(verb, "INSERT")) {
    if (isName(ps[nameEnd]) && !isKw(ps[nameEnd], "VALUES", "SELECT", "WITH")) nameEnd++
    let columns = target.columns.map((c) => c.name)
    if (isOp(ps[nameEnd], "(") && !isKw(ps[nameEnd + 1], "SELECT", "WITH")) {
      const close = matchParen(ps, nameEnd)
      columns = splitTopLevel(ps.slice(nameEnd + 1, close)).map((c) => oracleName(c[c.length - 1]!))
      nameEnd = close + 1
    }
    const returning = findTopLevel(ps, nameEnd, ps.length, (t) => isKw(t, "RETURNING", "RETURN"))
    const end = returning < 0 ? plain.length : ps[returning]!.pos
    if (isKw(ps[nameEnd], "VALUES")) return { ...base, verb: "INSERT", columns, values: plain.slice(ps[nameEnd + 1]!.pos, end) }
    return { ...base, verb: "INSERT", columns, subquery: plain.slice(ps[nameEnd]!.pos, end) }
  }
  if (isName(ps[nameEnd]) && !isKw(ps[nameEnd], "SET", "WHERE", "RETURNING", "RETURN")) nameEnd++
  const whereAt = findTopLevel(ps, nameEnd, ps.length, (t) => isKw(t, "WHERE"))
  const returning = findTopLevel(ps, nameEnd, ps.length, (t) => isKw(t, "RETURNING", "RETURN"))
  const end = returning < 0 ? plain.length : ps[returning]!.pos
  const from = plain.slice(ps[nameAt]!.pos, ps[nameEnd - 1]!.pos + ps[nameEnd - 1]!.text.length)
  const where = whereAt < 0 ? "" : plain.slice(ps[whereAt + 1]!.pos, end)
  return { ...base, verb: isKw(verb, "UPDATE") ? "UPDATE" : "DELETE", columns: target.columns.map((c) => c.name), from, where }
}

/**
 * Whether `e` is the statement's own error rather than a row's, which Oracle raises without logging: a parse or
 * name error (ORA-00900 .. ORA-00999, ORA-00942), missing privileges (ORA-01031), ORA-03001.
 */
const isStatementError = (e: OraError) => (e.code >= 900 && e.code <= 999) || e.code === 942 || e.code === 1031 || e.code === 3001

/** Runs `logged`: whole first, row by row when that fails, each failing row logged; its row count. */
export const runErrorLogged = async (host: ErrorLoggingHost, logged: ErrorLogged, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> => {
  try {
    return await host.atomically(() => host.execute(logged.sql, rows, specs, opts))
  } catch (e) {
    if (!(e instanceof OraError) || isStatementError(e)) throw e
  }
  // the logging statements run so far, run again when the statement fails after all
  // (each with the bind rows it runs with, undefined for none)
  const written: Array<{ sql: string; binds: ReadonlyArray<ReadonlyArray<DuckDBValue>> | undefined }> = []
  const logRow = async (e: OraError, sql: string, binds: ReadonlyArray<ReadonlyArray<DuckDBValue>> | undefined, fallback: string) => {
    if (isStatementError(e)) throw e
    try {
      await host.atomically(() => host.execute(sql, binds ?? [[]], binds === undefined ? [] : specs, opts))
      written.push({ sql, binds })
    } catch {
      await host.execute(fallback, [[]], [], opts)
      written.push({ sql: fallback, binds: undefined })
    }
    if (written.length > logged.limit) throw e
  }
  const logColumns = new Set(logged.log.columns.map((c) => c.name))
  const fixed = (e: OraError, optyp: string, rowid: string) =>
    `${[e.code, sqlString(e.message.slice(0, 2000)), rowid, sqlString(optyp), `SUBSTR(${logged.tag}, 1, 2000)`].join(", ")}`
  const fixedColumns = ["ORA_ERR_NUMBER$", "ORA_ERR_MESG$", "ORA_ERR_ROWID$", "ORA_ERR_OPTYP$", "ORA_ERR_TAG$"].map(quoteDuck).join(", ")
  const into = (columns: ReadonlyArray<string>) => `INSERT INTO ${tableName(logged.log)} (${[fixedColumns, ...columns.map(quoteDuck)].join(", ")})`
  const allLogged = logged.columns.every((c) => logColumns.has(c))
  try {
    return await host.atomically(async () => {
      let count = 0
      if (logged.verb === "INSERT") {
        if (logged.values !== undefined) {
          // each bind row (of an executeMany) a row of its own
          for (const row of rows.length === 0 ? [[]] : rows) {
            try {
              count += ((await host.atomically(() => host.execute(logged.sql, [row], specs, opts))) as DmlResult).rowCount
            } catch (e) {
              if (!(e instanceof OraError)) throw e
              const values = logged.values!.trim().replace(/^\(/, "").replace(/\)$/, "")
              await logRow(e, `${into(allLogged ? logged.columns : [])} VALUES (${fixed(e, "I", "NULL")}${allLogged ? `, ${values}` : ""})`, allLogged ? [row] : undefined, `${into([])} VALUES (${fixed(e, "I", "NULL")})`)
            }
          }
          return dml(count)
        }
        const insertCols = `INSERT INTO ${tableName(logged.target)} (${logged.columns.map(quoteDuck).join(", ")})`
        const binds = rows.some((r) => r.length > 0)
        // the subquery's rows counted before any is written (it may read the table written)
        const total = binds ? Infinity : await host.count(`SELECT COUNT(*) FROM (${logged.subquery})`)
        for (let k = 0; k < total; k++) {
          const row = `SELECT * FROM (${logged.subquery}) OFFSET ${k} ROWS FETCH NEXT 1 ROWS ONLY`
          try {
            const r = (await host.atomically(() => host.execute(`${insertCols} ${row}`, rows, specs, opts))) as DmlResult
            if (r.rowCount === 0) break
            count += r.rowCount
          } catch (e) {
            if (!(e instanceof OraError)) throw e
            await logRow(e, `${into(allLogged ? logged.columns : [])} SELECT ${fixed(e, "I", "NULL")}${allLogged ? `, "ORA$ROW".*` : ""} FROM (${row}) "ORA$ROW"`, binds && allLogged ? rows : undefined, `${into([])} VALUES (${fixed(e, "I", "NULL")})`)
          }
        }
        return dml(count)
      }
      if (logged.target.kind === "VIEW") throw new OraError(3001, "unimplemented feature: LOG ERRORS of an UPDATE or DELETE through a view whose rows fail")
      // UPDATE / DELETE: the table's rows one by one in ROWID order, each written alone when the statement's
      // condition holds for it (a deleted row leaves the order: the next is at the same position)
      if (rows.some((r) => r.length > 0)) throw new OraError(3001, "unimplemented feature: LOG ERRORS of an UPDATE or DELETE with binds")
      const total = await host.count(`SELECT COUNT(*) FROM ${tableName(logged.target)}`)
      const optyp = logged.verb === "UPDATE" ? "U" : "D"
      let position = 0
      for (let k = 0; k < total; k++) {
        const rowAt = `(SELECT ROWID FROM ${tableName(logged.target)} ORDER BY ROWID OFFSET ${position} ROWS FETCH NEXT 1 ROWS ONLY)`
        const one = `${logged.sql}${logged.where === "" ? " WHERE" : " AND"} ROWID = ${rowAt}`
        try {
          const n = ((await host.atomically(() => host.execute(one, [[]], [], opts))) as DmlResult).rowCount
          count += n
          if (logged.verb === "UPDATE" || n === 0) position++
        } catch (e) {
          if (!(e instanceof OraError)) throw e
          // an UPDATE that breaks a unique key is not logged: the statement fails (Administrator's Guide, "Error
          // Logging Restrictions and Caveats")
          if (logged.verb === "UPDATE" && e.code === 1) throw e
          position++
          const values = allLogged ? `, ${logged.columns.map(quoteDuck).join(", ")}` : ""
          await logRow(e, `${into(allLogged ? logged.columns : [])} SELECT ${fixed(e, optyp, "ROWIDTOCHAR(ROWID)")}${values} FROM ${tableName(logged.target)} WHERE ROWID = ${rowAt}`, undefined, `${into([])} VALUES (${fixed(e, optyp, "NULL")})`)
        }
      }
      return dml(count)
    })
  } catch (e) {
    // the statement undone: its log entries kept
    if (written.length > logged.limit) for (const w of written) await host.execute(w.sql, w.binds ?? [[]], w.binds === undefined ? [] : specs, opts)
    throw e
  }
}
