/**
 * The primary and unique keys an INSERT claims, as the texts the database's key locks hold (row-locks.ts).
 *
 * Oracle makes a session that inserts a key another open transaction inserted wait for that transaction (the unique
 * index entry is locked with the row, "Row Locks (TX)" in Database Concepts, "Data Concurrency and Consistency":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html); when
 * the first transaction commits the second insert raises ORA-00001, when it rolls back the insert goes ahead (as
 * the enq: TX - row lock contention, mode 4 wait is described, e.g.
 * https://taliphakanozturken.wordpress.com/2019/02/25/does-insert-wait-on-locks-or-hold-locks/).
 * DuckDB instead lets both inserts run and fails the second COMMIT, so each INSERT into a keyed table returns the
 * keys it wrote and the session checks them against other transactions' keys (session-key-claims.ts).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { BulkRows } from "../engine/index.ts"
import type { TableMeta } from "./catalog.ts"
import { parseDatetimeText, utcNanos } from "./datetime.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { duckIdent, encodeName } from "./names.ts"
import { oracleName } from "./translate.ts"

/** A table with primary-key or unique constraints, and the columns its keys are made of. */
export interface KeyedTable {
  /** The table's lock key (`OWNER.NAME`). */
  readonly table: string
  readonly constraints: ReadonlyArray<{ readonly name: string; readonly columns: ReadonlyArray<string> }>
  /** Every column of any key, once, in the order {@link returningKeys} returns them. */
  readonly columns: ReadonlyArray<string>
  /** The TIMESTAMP WITH TIME ZONE key columns: one key per instant, whatever the zone (datetime-groups.ts). */
  readonly zoned: ReadonlySet<string>
}

/** The keys of `meta`, or undefined when it has no enabled primary-key or unique constraint. */
export const keyedTable = (meta: TableMeta | undefined): KeyedTable | undefined => {
  if (meta === undefined || meta.kind !== "TABLE") return undefined
  // a disabled key is not enforced, so it claims no keys (constraint-state.ts)
  const constraints = meta.constraints.filter((c) => (c.type === "P" || c.type === "U") && c.disabled !== true && c.columns.length > 0)
  if (constraints.length === 0) return undefined
  const columns = [...new Set(constraints.flatMap((c) => c.columns))]
  const zoned = new Set(meta.columns.filter((c) => c.type.kind === "timestamptz" && columns.includes(c.name)).map((c) => c.name))
  return { table: `${meta.owner}.${meta.name}`, constraints, columns, zoned }
}

/** The RETURNING clause that makes an INSERT into `keyed` return its key columns (in `keyed.columns` order). */
export const returningKeys = (keyed: KeyedTable): string => ` RETURNING ${keyed.columns.map(duckIdent).join(", ")}`

/** Key texts of rows holding `keyed.columns` in order (as {@link returningKeys} returns them). */
export const keysOfRows = (keyed: KeyedTable, rows: ReadonlyArray<ReadonlyArray<unknown>>): Array<string> => {
  const at = new Map(keyed.columns.map((c, i) => [c, i]))
  const out: Array<string> = []
  const value = (row: ReadonlyArray<unknown>, col: string) => (keyed.zoned.has(col) ? instantOf(row[at.get(col)!]) : row[at.get(col)!])
  for (const row of rows) for (const c of keyed.constraints) pushKey(out, c, c.columns.map((col) => value(row, col)))
  return out
}

/** Key texts of bulk rows, or undefined when a key column is not among the bulk's columns (a default fills it). */
export const keysOfBulk = (keyed: KeyedTable, bulk: BulkRows): Array<string> | undefined => {
  const at = new Map(bulk.columns.map((c, i) => [c.name, i]))
  const indexes = keyed.columns.map((c) => at.get(encodeName(c)))
  if (indexes.some((i) => i === undefined)) return undefined
  const values: Array<Array<DuckDBValue>> = []
  for (let start = 0; start < bulk.rowCount; start += 2048) {
    const n = Math.min(2048, bulk.rowCount - start)
    const chunk = bulk.chunk(start, n)
    const vectors = indexes.map((i) => chunk.getColumnVector(i!))
    for (let r = 0; r < n; r++) values.push(vectors.map((v) => v.getItem(r)))
  }
  return keysOfRows(keyed, values)
}

/**
 * The key texts of the key a DuckDB duplicate-key failure names (`Duplicate key "A: 1, B: x" violates ...`), for the
 * constraints of `keyed` made of exactly those columns; empty when the message names no key.
 */
export const keysOfDuplicate = (keyed: KeyedTable, message: string, decodeName: (n: string) => string): Array<string> => {
  const key = /Duplicate key "(.*)" violates/i.exec(message)?.[1]
  if (key === undefined) return []
  const names = [...key.matchAll(/(?:^|, )([^:,]+): /g)]
  const values = new Map<string, string>()
  names.forEach((m, i) => values.set(decodeName(m[1]!), key.slice(m.index! + m[0].length, i + 1 < names.length ? names[i + 1]!.index : key.length)))
  const at = new Map(keyed.columns.map((c, i) => [c, i]))
  const row = keyed.columns.map((c) => values.get(c))
  const exact = { ...keyed, constraints: keyed.constraints.filter((c) => c.columns.length === values.size && c.columns.every((n) => at.has(n) && values.has(n))) }
  return keysOfRows(exact, [row])
}

const pushKey = (out: Array<string>, c: { readonly name: string }, values: ReadonlyArray<unknown>): void => {
  // a key with a NULL part is not checked for uniqueness
  if (values.some((v) => v === null || v === undefined)) return
  out.push(`${c.name}\u0000${values.map(keyText).join("\u0001")}`)
}

/** A zoned datetime's text as its UTC instant in nanoseconds (the stored text when it is no datetime). */
const instantOf = (v: unknown): unknown => {
  if (v === null || v === undefined) return v
  const parsed = parseDatetimeText(String(v), "+00:00")
  return parsed === undefined ? v : utcNanos(parsed)
}

/** One key value as text, numbers in one canonical form (DuckDB returns them as numbers, bigints or decimals). */
const keyText = (v: unknown): string => {
  if (v instanceof Uint8Array) return Buffer.from(v).toString("hex")
  const s = String(v)
  if (/^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i.test(s)) {
    const n = Number(s)
    if (Number.isSafeInteger(n) || (Number.isFinite(n) && !/^[-+]?\d+$/.test(s))) return String(n)
  }
  return s
}

/**
 * The keys a DELETE of `meta` deletes, a MERGE into it writes (by its INSERT or DELETE branch, or an UPDATE SET of a
 * key column), or an UPDATE that assigns one of its key columns writes, as claims on `meta`'s keys (undefined for
 * other statements and tables without keys). Only the assignments' targets count, not the columns their values read
 * (`SET name = (SELECT ... WHERE s.id = a.id)` writes no key): a claim reads the keys the statement writes, which for an
 * UPDATE or MERGE costs queries around it (in-place-updates.ts).
 */
export const keysWrittenBy = (toks: ReadonlyArray<Tok>, meta: TableMeta | undefined): KeyedTable | undefined => {
  const keyed = keyedTable(meta)
  if (keyed === undefined || isKw(toks[0], "DELETE")) return keyed
  if (!isKw(toks[0], "UPDATE", "MERGE")) return undefined
  const sig = toks.filter((t) => t.kind !== "ws")
  const merge = isKw(sig[0], "MERGE")
  let depth = 0
  let inSet = false
  for (let k = 1; k < sig.length; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth !== 0) continue
    if (merge && isKw(t, "INSERT", "DELETE")) return keyed
    if (isKw(t, "SET") || (inSet && isOp(t, ","))) {
      inSet = true
      if (assignedColumns(sig, k + 1).some((c) => keyed.columns.includes(c))) return keyed
    } else if (isKw(t, "WHERE", "RETURNING", "RETURN", "LOG", "WHEN")) inSet = false
  }
  return undefined
}

/** The Oracle names of the columns the assignment starting at `toks[at]` writes: `c =`, `a.c =` or `(c, a.d) =`. */
const assignedColumns = (toks: ReadonlyArray<Tok>, at: number): Array<string> => {
  const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident")
  const names: Array<string> = []
  const listed = isOp(toks[at], "(")
  for (let k = listed ? at + 1 : at; k < toks.length; k++) {
    const t = toks[k]!
    if (isName(t) && !isOp(toks[k + 1], ".")) names.push(oracleName(t))
    else if (!isName(t) && !isOp(t, ".") && !(listed && isOp(t, ","))) return (listed ? isOp(t, ")") : isOp(t, "=")) ? names : []
  }
  return []
}

/** `SELECT` of the key columns of `keyed` (in `keyed.columns` order) of the rows of `meta` with the given DuckDB row ids. */
export const keysOfRowIdsSql = (keyed: KeyedTable, meta: TableMeta, count: number): string =>
  `SELECT ${keyed.columns.map(duckIdent).join(", ")} FROM ${duckIdent(meta.owner)}.${duckIdent(meta.name)} WHERE rowid IN (${Array.from({ length: count }, (_, i) => `$${i + 1}`).join(", ")})`
