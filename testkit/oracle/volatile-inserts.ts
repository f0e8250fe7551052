/**
 * INSERTs whose values are computed by functions that give a new value each time they run (`seq.NEXTVAL`, SYSDATE,
 * SYSTIMESTAMP, SYS_GUID, DBMS_RANDOM): the replay log of the transaction (session-transaction.ts) must write the
 * rows such an INSERT wrote, not run it again, or a later failed statement, whose recovery replays the log, would
 * change rows the transaction already wrote and advance sequences twice. Oracle rolls back only the failed
 * statement ("Statement-Level Atomicity", Database Concepts, "Transactions"). Such an INSERT runs with `RETURNING *`
 * (every column, in table order) and is logged as INSERTs of the values it returned.
 */
import { DuckDBBlobValue, type DuckDBType, type DuckDBValue } from "@duckdb/node-api"
import type { ColumnInfo, Session as EngineSession } from "../engine/index.ts"

/** A statement of the replay log that writes rows an INSERT wrote. */
export interface ReplayInsert {
  readonly sql: string
  readonly params: ReadonlyArray<DuckDBValue>
  readonly types: undefined
}

/** Calls (as the translator writes them) whose value differs from one evaluation to the next. */
const VOLATILE_CALL = /\b(?:nextval|ora_sysdate|ora_current_date|get_current_timestamp|ora_localtimestamp|gen_random_uuid|uuid|random|ora_dbms_random_\w+|ora_sys_guid)\s*\(/i

/** True when translated `sql` calls a function whose value differs from one evaluation to the next. */
export const isVolatileSql = (sql: string): boolean => VOLATILE_CALL.test(sql)

const NAME = `(?:"(?:[^"]|"")*"|[A-Za-z_][\\w$#]*)`
const INSERT_INTO = new RegExp(`^\\s*INSERT\\s+INTO\\s+(${NAME}(?:\\s*\\.\\s*${NAME})*)\\s*(?:\\(|VALUES\\b|SELECT\\b|WITH\\b)`, "i")

/** The table of a translated `INSERT INTO table ...` that calls a volatile function and has no RETURNING; else undefined. */
export const volatileInsertTarget = (sql: string): string | undefined => {
  if (!VOLATILE_CALL.test(sql) || /\bRETURNING\b/i.test(sql) || /\bON\s+CONFLICT\b/i.test(sql)) return undefined
  return INSERT_INTO.exec(sql)?.[1]
}

/** Rows per logged INSERT (DuckDB's prepared statements take a bounded number of parameters). */
const ROWS_PER_STATEMENT = 256

/** Columns bound as their JavaScript values; others (DECIMAL, dates, intervals, nested types) come as text and are cast back. */
const PLAIN_LAYOUTS = new Set(["boolean", "int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64", "int64", "uint64", "varchar", "blob"])

const placeholder = (column: ColumnInfo, n: number): string => (PLAIN_LAYOUTS.has(column.layout) ? `$${n}` : `CAST($${n} AS ${column.type.toString()})`)

/**
 * INSERT statements of `rows` (every column of `target`, in table order, typed as `columns`) for the replay log, at
 * most {@link ROWS_PER_STATEMENT} rows each.
 */
export const replayInserts = (target: string, columns: ReadonlyArray<ColumnInfo>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Array<ReplayInsert> => {
  const replay: Array<ReplayInsert> = []
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    // NULLs are written as such: a parameter without a value has no type to bind
    const bound: Array<DuckDBValue> = []
    const values = rows.slice(at, at + ROWS_PER_STATEMENT).map((row) => {
      const cells = row.map((v, i) => {
        if (v === null) return "NULL"
        // bytes bind as BLOB only as a DuckDBBlobValue
        bound.push(v instanceof Uint8Array ? new DuckDBBlobValue(v) : v)
        return placeholder(columns[i]!, bound.length)
      })
      return `(${cells.join(", ")})`
    })
    replay.push({ sql: `INSERT INTO ${target} VALUES ${values.join(", ")}`, params: bound, types: undefined })
  }
  return replay
}

/**
 * Runs `sql` (an INSERT into `target`, see {@link volatileInsertTarget}) returning every column it wrote, and gives
 * INSERT statements of those values for the replay log, with the rows and their column names.
 */
export const insertWritingRows = async (
  engine: EngineSession,
  sql: string,
  target: string,
  params: ReadonlyArray<DuckDBValue> | undefined,
  types: ReadonlyArray<DuckDBType | undefined> | undefined
): Promise<{ readonly replay: ReadonlyArray<ReplayInsert>; readonly columns: ReadonlyArray<string>; readonly rows: ReadonlyArray<ReadonlyArray<DuckDBValue>> }> => {
  const cursor = await engine.query(`${sql} RETURNING *`, params, types)
  const rows: Array<Array<DuckDBValue>> = []
  try {
    for (let chunk = await cursor.next(); chunk !== null; chunk = await cursor.next())
      for (let r = 0; r < chunk.rowCount; r++) rows.push(chunk.columns.map((c) => c.value(r) as DuckDBValue))
  } finally {
    cursor.close()
  }
  const columns = cursor.columns
  const replay = replayInserts(target, columns, rows)
  return { replay, columns: columns.map((c) => c.name), rows }
}

/**
 * A translated `INSERT ... RETURNING "a", "b"` (the keys an INSERT claims, session-key-claims.ts) split into the INSERT
 * and its returned column names, when the INSERT is volatile ({@link volatileInsertTarget}); else undefined.
 */
export const volatileInsertReturning = (sql: string): { readonly insert: string; readonly target: string; readonly returned: ReadonlyArray<string> } | undefined => {
  const m = /^([\s\S]*?)\s+RETURNING\s+((?:"(?:[^"]|"")*"\s*,\s*)*"(?:[^"]|"")*")\s*$/i.exec(sql)
  if (m === null) return undefined
  const target = volatileInsertTarget(m[1]!)
  if (target === undefined) return undefined
  const returned = [...m[2]!.matchAll(/"((?:[^"]|"")*)"/g)].map((q) => q[1]!.replace(/""/g, '"'))
  return { insert: m[1]!, target, returned }
}
