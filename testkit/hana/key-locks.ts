/**
 * Key locks of the HANA test server: the primary and unique keys an INSERT writes, held until its transaction ends.
 *
 * HANA locks what a write transaction writes until it ends, and an INSERT of a primary or unique key that another
 * open transaction inserted waits for that transaction: when it commits, the waiter fails with 301 "unique
 * constraint violated", when it rolls back the waiter goes ahead; past the lock wait timeout it fails with 131 (SAP
 * HANA Troubleshooting and Performance Analysis Guide, "Transactional Lock Waits", and SAP Note 1999998 "FAQ: SAP
 * HANA Lock Analysis", question 4: record locks are taken on inserted keys as on updated rows, as remembered).
 * DuckDB instead lets both insert the key and fails whichever commits second. So the server computes the keys an
 * INSERT writes (from its VALUES row), or an UPDATE that sets a key column (its SET expressions over the rows its
 * WHERE selects), and keeps them in the row-lock table (row-locks.ts) under {@link keyLockTable},
 * where another transaction's INSERT of the same key waits as for a row. After the wait the INSERT runs again
 * against the committed data: DuckDB itself then reports the duplicate (301) or inserts the row.
 */
import type { EngineValue, Session } from "../engine/index.ts"
import { nameOf, splitTopLevel, type Token } from "./lexer.ts"
import { encodeName } from "./names.ts"

/** The keys an `INSERT INTO t [(cols)] VALUES (...)` or an `UPDATE t SET ...` writes: its table and how to read the rows it writes. */
export interface KeyTarget {
  /** The table's lock key (`SCHEMA.TABLE`, HANA names), as row locks name it. */
  readonly table: string
  readonly schema: string
  readonly name: string
  /** The INSERT's column list (HANA names), or undefined for all columns in table order. */
  readonly columns: readonly string[] | undefined
  /**
   * DuckDB SQL of the rows written: `SELECT * FROM (VALUES (...))` for an INSERT (undefined when every value is a
   * parameter), `SELECT <SET expressions>, * FROM t WHERE ...` for an UPDATE.
   */
  readonly valuesSql: string | undefined
  /** UPDATE: the columns SET assigns (HANA names), in order; the row read holds their new values first. */
  readonly assigned?: ReadonlyArray<string>
  /** Index of the statement's first parameter the VALUES row uses, and how many it uses. */
  readonly firstParam: number
  readonly params: number
}

/** The lock-table name of a table's keys (kept apart from its row ids). */
export const keyLockTable = (table: string): string => `KEY ${table}`

/**
 * Each unique key of a table as the positions of its columns in the row {@link KeyTarget.valuesSql} reads (undefined:
 * no keys): `written`, the key the statement writes; for an UPDATE also `old`, the key the row had (the `*` part of
 * its row), which HANA keeps locked with the record until the transaction ends.
 */
type KeyPositions = ReadonlyArray<{ readonly written: ReadonlyArray<number>; readonly old?: ReadonlyArray<number> }>

const positionsCache = new WeakMap<KeyTarget, KeyPositions>()

const keyPositions = async (session: Session, target: KeyTarget): Promise<KeyPositions> => {
  const cached = positionsCache.get(target)
  if (cached !== undefined) return cached
  const schema = encodeName(target.schema)
  const table = encodeName(target.name)
  const parts = await session.queryAll(
    "SELECT constraint_index, unnest(constraint_column_names) FROM duckdb_constraints() WHERE schema_name = ? AND table_name = ? AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')",
    [schema, table]
  )
  const constraints = new Map<string, Array<string>>()
  for (const [index, column] of parts) {
    const key = String(index)
    constraints.set(key, [...(constraints.get(key) ?? []), String(column)])
  }
  let positions: KeyPositions = []
  if (constraints.size > 0) {
    const assigned = (target.assigned ?? []).map(encodeName)
    const columns = [
      ...assigned,
      ...(target.columns?.map(encodeName) ??
        (await session.queryAll("SELECT column_name FROM duckdb_columns() WHERE schema_name = ? AND table_name = ? ORDER BY column_index", [schema, table])).map((r) => String(r[0])))
    ]
    positions = [...constraints.values()]
      .map((names) => ({
        written: names.map((c) => columns.indexOf(c)),
        ...(target.assigned === undefined ? {} : { old: names.map((c) => columns.indexOf(c, assigned.length)) })
      }))
      // an UPDATE writes only the keys it assigns a column of
      .filter(({ written: p }) => p.length > 0 && p.every((k) => k >= 0) && (target.assigned === undefined || p.some((k) => k < assigned.length)))
  }
  positionsCache.set(target, positions)
  return positions
}

/** True when the target's table has a primary or unique key (so its INSERTs take key locks). */
export const hasKeys = async (session: Session, target: KeyTarget): Promise<boolean> => (await keyPositions(session, target)).length > 0

const keyText = (v: unknown): string => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : typeof v === "object" ? JSON.stringify(v) : String(v))

/**
 * The keys the INSERT writes with these statement parameters, one text per unique key of the table (a key with a
 * NULL part locks nothing: NULLs never collide in a unique key); for an UPDATE also the keys its rows had.
 */
export const insertedKeys = async (session: Session, target: KeyTarget, params: ReadonlyArray<EngineValue>): Promise<Array<string>> => {
  const positions = await keyPositions(session, target)
  if (positions.length === 0) return []
  const values = params.slice(target.firstParam, target.firstParam + target.params)
  const rows = target.valuesSql === undefined ? [values as ReadonlyArray<unknown>] : await session.queryAll(target.valuesSql, values)
  const keys: Array<string> = []
  const push = (k: number, parts: ReadonlyArray<unknown>): void => {
    if (parts.every((v) => v !== null && v !== undefined)) keys.push(`${k}:${parts.map(keyText).join("\u0000")}`)
  }
  for (const row of rows) {
    positions.forEach((key, k) => {
      push(k, key.written.map((p) => row[p]))
      if (key.old !== undefined) push(k, key.old.map((p) => row[p]))
    })
  }
  return keys
}

/** The parts of an `UPDATE t SET a = e, ... [WHERE ...]` a {@link KeyTarget} is made of (translate.ts rewrites them). */
export interface UpdateKeySlices {
  readonly assignments: ReadonlyArray<{ readonly column: string; readonly value: ReadonlyArray<Token> }>
}

/** The `column = expression` assignments of an UPDATE's SET list (`set`: the tokens between SET and WHERE). */
export const assignmentsOf = (set: ReadonlyArray<Token>): UpdateKeySlices | undefined => {
  const assignments: Array<{ column: string; value: ReadonlyArray<Token> }> = []
  for (const item of splitTopLevel([...set])) {
    const column = nameOf(item[0])
    if (column === undefined || item[1]?.t !== "op" || item[1].v !== "=") return undefined
    assignments.push({ column, value: item.slice(2) })
  }
  return assignments.length === 0 ? undefined : { assignments }
}
