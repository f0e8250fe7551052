/**
 * The parts of a DML statement that DML error logging (dml-error-logging.ts) runs row by row: the table it writes,
 * an INSERT's columns and row source, an UPDATE's or DELETE's WHERE condition, the value each of an UPDATE's
 * `column = expression` items writes (what a failing row's log entry holds: Administrator's Guide, "Error Logging
 * Table Format": the error logging table's columns named as the DML table's hold "the corresponding data from the
 * offending row"), and a MERGE's UPDATE, DELETE WHERE and INSERT (plsql/merge-parts.ts).
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, significant, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import { mergeParts } from "./plsql/merge-parts.ts"

type Lookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** The value a statement writes into a column: its expression and the positions of its binds among the statement's. */
export interface WrittenValue {
  readonly expr: string
  readonly binds: ReadonlyArray<number>
}

/** A DML statement taken apart for running it row by row. */
export interface LoggedStatement {
  readonly sql: string
  readonly verb: "INSERT" | "UPDATE" | "DELETE" | "MERGE"
  readonly target: TableMeta
  /** INSERT: the written columns and the row source (VALUES (...) or a subquery), as text. */
  readonly columns: ReadonlyArray<string>
  readonly values?: ReadonlyArray<WrittenValue>
  readonly subquery?: string
  /** UPDATE / DELETE: the target as the statement names it (with its alias), the statement before its WHERE, its WHERE condition or "", and what follows (RETURNING). */
  readonly from?: string
  readonly head?: string
  readonly where?: string
  readonly tail?: string
  /** UPDATE: the value each `column = expression` item writes, by column. */
  readonly sets?: ReadonlyMap<string, WrittenValue>
  /** MERGE: its UPDATE, DELETE (WHERE) and INSERT, in the order they run. */
  readonly parts?: ReadonlyArray<LoggedStatement>
  /** An UPDATE or DELETE of a view: the statement on the table under it, run row by row by the table's rowids. */
  readonly onTable?: LoggedStatement
}

const end = (t: Tok) => t.pos + t.text.length

/** The DML statement `sql` (without its error logging clause) taken apart; ORA-00942 when its table does not exist. */
export const loggedStatement = (sql: string, lookup: Lookup): LoggedStatement => {
  const ps = significant(tokenize(sql))
  const verb = ps[0]!
  // the position of each bind among the statement's
  const bindNo = new Map<Tok, number>()
  for (const t of ps) if (t.kind === "bind") bindNo.set(t, bindNo.size)
  const written = (toks: ReadonlyArray<Tok>): WrittenValue => ({ expr: sql.slice(toks[0]!.pos, end(toks[toks.length - 1]!)), binds: toks.flatMap((t) => (bindNo.has(t) ? [bindNo.get(t)!] : [])) })
  // the written table: INSERT INTO / DELETE [FROM] / UPDATE / MERGE INTO [schema.]name [alias]
  const nameAt = isKw(ps[1], "INTO", "FROM") ? 2 : 1
  const qualified = isOp(ps[nameAt + 1], ".")
  const target = qualified ? lookup(oracleName(ps[nameAt]!), oracleName(ps[nameAt + 2]!)) : lookup(undefined, oracleName(ps[nameAt]!))
  if (target === undefined) throw new OraError(942, "table or view does not exist")
  let nameEnd = qualified ? nameAt + 3 : nameAt + 1
  const base = { sql, target }
  if (isKw(verb, "MERGE")) {
    return { ...base, verb: "MERGE", columns: target.columns.map((c) => c.name), parts: mergeParts(sql, []).map((p) => loggedStatement(p.sql, lookup)) }
  }
  if (isKw(verb, "INSERT")) {
    if (isName(ps[nameEnd]) && !isKw(ps[nameEnd], "VALUES", "SELECT", "WITH")) nameEnd++
    let columns = target.columns.map((c) => c.name)
    if (isOp(ps[nameEnd], "(") && !isKw(ps[nameEnd + 1], "SELECT", "WITH")) {
      const close = matchParen(ps, nameEnd)
      columns = splitTopLevel(ps.slice(nameEnd + 1, close)).map((c) => oracleName(c[c.length - 1]!))
      nameEnd = close + 1
    }
    const returning = findTopLevel(ps, nameEnd, ps.length, (t) => isKw(t, "RETURNING", "RETURN"))
    const stop = returning < 0 ? sql.length : ps[returning]!.pos
    if (isKw(ps[nameEnd], "VALUES") && isOp(ps[nameEnd + 1], "(")) {
      const values = splitTopLevel(ps.slice(nameEnd + 2, matchParen(ps, nameEnd + 1))).map(written)
      return { ...base, verb: "INSERT", columns, values }
    }
    return { ...base, verb: "INSERT", columns, subquery: sql.slice(ps[nameEnd]!.pos, stop) }
  }
  if (isName(ps[nameEnd]) && !isKw(ps[nameEnd], "SET", "WHERE", "RETURNING", "RETURN")) nameEnd++
  const returning = findTopLevel(ps, nameEnd, ps.length, (t) => isKw(t, "RETURNING", "RETURN"))
  const stop = returning < 0 ? ps.length : returning
  const whereAt = findTopLevel(ps, nameEnd, stop, (t) => isKw(t, "WHERE"))
  const tailAt = returning < 0 ? sql.length : ps[returning]!.pos
  const from = sql.slice(ps[nameAt]!.pos, end(ps[nameEnd - 1]!))
  const head = sql.slice(0, whereAt < 0 ? tailAt : ps[whereAt]!.pos).trimEnd()
  const where = whereAt < 0 ? "" : sql.slice(ps[whereAt + 1]!.pos, tailAt).trimEnd()
  const statement = { ...base, columns: target.columns.map((c) => c.name), from, head, where, tail: sql.slice(tailAt) }
  if (!isKw(verb, "UPDATE")) return { ...statement, verb: "DELETE" }
  // SET a = expr, (b, c) = (subquery): the values of the `column = expression` items
  const sets = new Map<string, WrittenValue>()
  if (isKw(ps[nameEnd], "SET"))
    for (const item of splitTopLevel(ps.slice(nameEnd + 1, whereAt < 0 ? stop : whereAt))) {
      const eq = item.findIndex((t) => isOp(t, "="))
      if (isOp(item[0], "(") || eq < 1 || eq === item.length - 1) continue
      sets.set(oracleName(item[eq - 1]!), written(item.slice(eq + 1)))
    }
  return { ...statement, verb: "UPDATE", sets }
}

/**
 * Query `sql` (a plain SELECT ... FROM, no `*`) as its select items without their aliases and its text from FROM on,
 * or undefined for another query.
 */
export const selectItems = (sql: string): { readonly items: ReadonlyArray<string>; readonly rest: string } | undefined => {
  const toks = significant(tokenize(sql))
  if (!isKw(toks[0], "SELECT") || isKw(toks[1], "DISTINCT", "UNIQUE", "ALL")) return undefined
  const fromAt = findTopLevel(toks, 1, toks.length, (t) => isKw(t, "FROM"))
  if (fromAt < 0 || findTopLevel(toks, fromAt, toks.length, (t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) >= 0) return undefined
  const items = splitTopLevel(toks.slice(1, fromAt))
  if (items.some((item) => item.length === 0 || isOp(item[item.length - 1], "*"))) return undefined
  return {
    items: items.map((item) => {
      const last = item[item.length - 1]!
      const before = item[item.length - 2]
      // `expr [AS] alias`
      const body = item.length > 1 && isName(last) && (isKw(before, "AS") || !(isOp(before, ".") || before!.kind === "op")) ? item.slice(0, isKw(before, "AS") ? -2 : -1) : item
      return sql.slice(body[0]!.pos, end(body[body.length - 1]!))
    }),
    rest: sql.slice(toks[fromAt]!.pos)
  }
}
