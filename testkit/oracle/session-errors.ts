/**
 * A session's engine failures as the ORA- errors Oracle raises for the statement that failed: constraint names of
 * the table a DML statement writes (ORA-00001, ORA-02290 / 02291 / 02292), ORA-01407 for an UPDATE to NULL, syntax
 * errors located in the Oracle text.
 */
import { indexedTableOwner, type ObjectMeta, type TableMeta } from "./catalog.ts"
import type { DatabaseSettings } from "./database.ts"
import { duplicateKeyColumns, fromDuckDb, logEngineFailure } from "./duckdb-errors.ts"
import { OraError } from "./errors.ts"
import { decodeName } from "./names.ts"
import { syntaxErrorOf } from "./statement-checks.ts"

/** The statement an engine failure belongs to. */
export interface FailedStatement {
  readonly settings: DatabaseSettings
  /** Every table of the database (a child table's foreign key names the constraint of ORA-02292). */
  readonly tables: Iterable<TableMeta>
  /** The schema unqualified names resolve in. */
  readonly schema: string
  /** The Oracle text of the statement being executed (errors Oracle words with its parts). */
  readonly sql: string
  /** Table written by the DML statement being executed (for constraint names in errors). */
  readonly target: TableMeta | undefined
  /** True while the DML statement being executed is an UPDATE (or MERGE), whose NOT NULL failures are ORA-01407. */
  readonly isUpdate: boolean
  /** The database's objects: a unique index (CREATE UNIQUE INDEX, function-based too) names its ORA-00001. */
  readonly objects?: Iterable<ObjectMeta>
}

/** The engine's message of each ORA-00001 {@link mapEngineError} made (it names the duplicate key's values). */
const duplicates = new WeakMap<OraError, string>()

/** The engine's message naming the duplicate key (`Duplicate key "ID: 1" violates ...`) of an ORA-00001 error, if known. */
export const duplicateKeyMessage = (e: unknown): string | undefined => (e instanceof OraError ? duplicates.get(e) : undefined)

/** Maps an engine failure onto an ORA- error. */
export const mapEngineError = (e: unknown, s: FailedStatement): OraError => {
  if (e instanceof OraError) return e
  const message = e instanceof Error ? e.message : String(e)
  const target = s.target
  const integrity = integrityError(message, target, s.tables)
  if (integrity !== undefined) return integrity
  const mapped = fromDuckDb(message, s.settings.version, decodeName, target?.owner ?? s.schema, s.sql)
  const err = mapped.code === 933 && /Parser Error/i.test(message) ? (syntaxErrorOf(s.sql) ?? mapped) : mapped
  logEngineFailure(s.settings, message, err)
  // an UPDATE to NULL is ORA-01407, an INSERT of NULL ORA-01400 (Error Messages, ORA-01407)
  const nulled = err.code === 1400 && s.isUpdate ? /\((.*)\)$/.exec(err.detail) : null
  if (nulled !== null) return new OraError(1407, `cannot update (${nulled[1]}) to NULL`)
  if (err.code === 1 && target !== undefined) {
    // name the table's primary key / unique constraint (23ai also names the table and columns)
    // the key DuckDB names (`Duplicate key "CODE: A"`) picks the constraint: a UNIQUE one is not the primary key
    const columns = duplicateKeyColumns(message, decodeName)
    const keyed = columns === undefined ? undefined : target.constraints.find((x) => (x.type === "P" || x.type === "U") && x.columns.length === columns.length && x.columns.every((n) => columns.includes(n)))
    // else a unique index of the table: the one on those columns, or its only expression index (whose duplicate
    // DuckDB reports without a column name)
    const indexes = [...(s.objects ?? [])].filter((o) => o.type === "INDEX" && o.unique === true && indexedTableOwner(o) === target.owner && o.tableName === target.name)
    const indexed = keyed === undefined ? indexes.find((o) => (columns === undefined ? indexes.length === 1 : o.indexColumns?.length === columns.length && o.indexColumns.every((k) => columns.includes(k.name)))) : undefined
    const c = keyed ?? (indexed !== undefined ? { name: indexed.name, columns: (indexed.indexColumns ?? []).map((k) => k.name) } : undefined) ?? target.constraints.find((x) => x.type === "P") ?? target.constraints.find((x) => x.type === "U")
    if (c !== undefined) {
      const tail = s.settings.version === "23ai" ? ` on table ${target.owner}.${target.name} columns (${c.columns.join(", ")})` : ""
      const unique = new OraError(1, `unique constraint (${target.owner}.${c.name}) violated${tail}`)
      duplicates.set(unique, message)
      return unique
    }
  }
  return err
}

/**
 * Foreign-key and check violations as Oracle reports them, naming the constraint: ORA-02291 (parent key not found),
 * ORA-02292 (child record found) and ORA-02290 (check constraint violated).
 */
const integrityError = (message: string, target: TableMeta | undefined, tables: Iterable<TableMeta>): OraError | undefined => {
  // checks the server adds itself (declared sizes) raise their own ORA- error
  if (target === undefined || /ORA-\d{5}/.test(message)) return undefined
  const name = (c: { name: string } | undefined) => `${target.owner}.${c?.name ?? "SYS_C00"}`
  if (/Violates foreign key constraint because key .* does not exist in the referenced table/i.test(message)) {
    const fk = target.constraints.find((c) => c.type === "R")
    return new OraError(2291, `integrity constraint (${name(fk)}) violated - parent key not found`)
  }
  if (/Violates foreign key constraint because key .* (?:is still referenced|still referenced)/i.test(message)) {
    const keys = new Set(target.constraints.filter((c) => c.type === "P" || c.type === "U").map((c) => c.name))
    for (const t of tables)
      for (const c of t.constraints)
        if (c.type === "R" && c.refOwner === target.owner && c.refConstraint !== null && keys.has(c.refConstraint))
          return new OraError(2292, `integrity constraint (${t.owner}.${c.name}) violated - child record found`)
    return new OraError(2292, `integrity constraint (${name(undefined)}) violated - child record found`)
  }
  const check = /CHECK constraint failed on table \S+ with expression CHECK\((.*)\)\s*$/im.exec(message)
  if (check !== null) {
    const expression = check[1]!.toUpperCase()
    const checks = target.constraints.filter((c) => c.type === "C" && c.disabled !== true && c.searchCondition !== null && !/IS NOT NULL$/i.test(c.searchCondition))
    const named = checks.find((c) => c.columns.length > 0 && c.columns.every((col) => expression.includes(col.toUpperCase()))) ?? checks[0]
    return new OraError(2290, `check constraint (${name(named)}) violated`)
  }
  return undefined
}
