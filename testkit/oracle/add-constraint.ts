/**
 * ALTER TABLE t ADD [CONSTRAINT c] PRIMARY KEY | UNIQUE | CHECK | FOREIGN KEY (...), or a parenthesised list of them
 * (beside new columns), on a table that may hold rows.
 *
 * Oracle validates the existing rows first and fails naming the constraint (SQL Language Reference, ALTER TABLE,
 * "add_table_constraint"; Error Messages): ORA-02437 "cannot validate (s.c) - primary key violated", ORA-01449 for a
 * NULL in a primary key column, ORA-02299 "cannot validate (s.c) - duplicate keys found", ORA-02293 "cannot validate
 * (s.c) - check constraint violated", ORA-02298 "cannot validate (s.c) - parent keys not found"; ORA-02260 for a
 * second primary key and ORA-02264 for a constraint name in use. DuckDB cannot add a constraint to a table, so the
 * table is rebuilt with it (modify-checks.ts `rebuildTable`); a table other tables reference cannot be rebuilt
 * (ORA-03001).
 */
import type { ConstraintMeta, TableMeta } from "./catalog.ts"
import { columnsOf, type TableDdl } from "./ddl-tables.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { REBUILD_VARIABLE, rebuildTable } from "./modify-checks.ts"
import { duckIdent, encodeName } from "./names.ts"
import { exemptOrphans, isUncheckedForeignKey } from "./novalidate-foreign-keys.ts"

const cannotValidate = (code: number, c: ConstraintMeta, owner: string, what: string): OraError =>
  new OraError(code, `cannot validate (${owner}.${c.name}) - ${what}`)

/** The number of rows of DuckDB table `target` that `where` selects. */
const countRows = async (ddl: TableDdl, target: string, where: string): Promise<number> => {
  const rows = await ddl.s.engine.queryAll(`SELECT COUNT(*) FROM ${target} WHERE ${where}`)
  return Number(rows[0]?.[0] ?? 0)
}

/** The rows of `meta` that break `c` fail the statement with Oracle's error for it. */
const validate = async (ddl: TableDdl, meta: TableMeta, c: ConstraintMeta, checkSql: string | undefined, refTarget: string | undefined, refColumns: ReadonlyArray<string>): Promise<void> => {
  const target = `${duckIdent(meta.owner)}.${duckIdent(meta.name)}`
  const cols = c.columns.map(duckIdent)
  if (c.type === "P" || c.type === "U") {
    if (c.type === "P" && (await countRows(ddl, target, cols.map((x) => `${x} IS NULL`).join(" OR "))) > 0)
      throw new OraError(1449, "column contains NULL values; cannot alter to NOT NULL")
    const keyed = cols.map((x) => `${x} IS NOT NULL`).join(" OR ")
    const dup = await ddl.s.engine.queryAll(`SELECT 1 FROM ${target} WHERE ${keyed} GROUP BY ${cols.join(", ")} HAVING COUNT(*) > 1 LIMIT 1`)
    if (dup.length > 0) throw c.type === "P" ? cannotValidate(2437, c, meta.owner, "primary key violated") : cannotValidate(2299, c, meta.owner, "duplicate keys found")
  } else if (c.type === "C" && checkSql !== undefined) {
    if ((await countRows(ddl, target, `NOT (${checkSql})`)) > 0) throw cannotValidate(2293, c, meta.owner, "check constraint violated")
  } else if (c.type === "R" && refTarget !== undefined) {
    const match = cols.map((x, i) => `p.${duckIdent(refColumns[i]!)} = t.${x}`).join(" AND ")
    const orphan = `${cols.map((x) => `t.${x} IS NOT NULL`).join(" AND ")} AND NOT EXISTS (SELECT 1 FROM ${refTarget} p WHERE ${match})`
    const rows = await ddl.s.engine.queryAll(`SELECT COUNT(*) FROM ${target} t WHERE ${orphan}`)
    if (Number(rows[0]?.[0] ?? 0) > 0) throw cannotValidate(2298, c, meta.owner, "parent keys not found")
  }
}

/**
 * What a NOVALIDATE CHECK is OR-ed with in DuckDB: true only while a rebuild copies the rows back, so the rows present
 * when it was enabled stay (and go along with later rebuilds) while new and updated rows are checked. SQL Language
 * Reference, "constraint_state": ENABLE NOVALIDATE "ensures that all new DML operations on the constrained data comply
 * with the constraint", without checking existing data.
 */
const NOVALIDATE_EXEMPTION = `getvariable('${REBUILD_VARIABLE}') IS TRUE`

/** A constraint of ALTER TABLE ADD, checked and validated against the rows, ready to be added. */
interface PlannedConstraint {
  readonly c: ConstraintMeta
  readonly def: string | undefined
}

/**
 * The constraint state written after an out-of-line constraint (SQL Language Reference, "constraint",
 * "constraint_state"): ENABLE (the default) validates the rows unless NOVALIDATE, DISABLE leaves them unvalidated
 * unless VALIDATE.
 */
const stateOf = (element: ReadonlyArray<Tok>): { readonly disabled: boolean; readonly novalidate: boolean } => {
  let depth = 0
  let disabled = false
  let validate: boolean | undefined
  for (const t of element) {
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && isKw(t, "ENABLE", "DISABLE")) disabled = t.value === "DISABLE"
    else if (depth === 0 && isKw(t, "VALIDATE", "NOVALIDATE")) validate = t.value === "VALIDATE"
  }
  return { disabled, novalidate: validate === undefined ? disabled : !validate }
}

/** Checks the table constraint `element` against `meta` and its rows (Oracle's errors, nothing changed yet). */
const planConstraint = async (ddl: TableDdl, meta: TableMeta, element: ReadonlyArray<Tok>, text: (a: number, b: number) => string, all: ReadonlyArray<Tok>, planned: ReadonlyArray<PlannedConstraint>, novalidateAll: boolean): Promise<PlannedConstraint> => {
  const { constraints, duckDefs } = columnsOf(ddl, [element], text, all, meta.owner, meta.name)
  const state = stateOf(element)
  const novalidate = novalidateAll || state.novalidate
  const declared = constraints[0]
  // a disabled constraint is kept in the dictionary only (constraint-state.ts)
  const c = declared === undefined ? undefined : state.disabled ? { ...declared, disabled: true, notValidated: novalidate } : novalidate && declared.type !== "P" && declared.type !== "U" ? { ...declared, notValidated: true } : declared
  const def = duckDefs[0]
  if (c === undefined) throw ora.invalidSql()
  if (c.type === "P" && [...meta.constraints, ...planned.map((p) => p.c)].some((x) => x.type === "P")) throw new OraError(2260, "table can have only one primary key")
  if (ddl.s.db.catalog.findConstraint(meta.owner, c.name) !== undefined || planned.some((p) => p.c.name === c.name))
    throw new OraError(2264, "name already used by an existing constraint")
  for (const col of c.type === "C" ? [] : c.columns) if (!meta.columns.some((x) => x.name === col)) throw ora.invalidIdentifier(col)
  let refTarget: string | undefined
  let refColumns: ReadonlyArray<string> = []
  if (c.type === "R") {
    const ref = c.refOwner === null ? undefined : ddl.s.db.catalog.findConstraint(c.refOwner, c.refConstraint ?? "")
    if (ref === undefined) throw new OraError(2270, "no matching unique or primary key for this column-list")
    refTarget = `${duckIdent(ref.table.owner)}.${duckIdent(ref.table.name)}`
    refColumns = ref.constraint.columns
  }
  const checkSql = c.type === "C" ? def?.replace(/^CHECK \(/, "").replace(/\)$/, "") : undefined
  if (state.disabled) return { c, def: undefined }
  if (novalidate && c.type === "C" && checkSql !== undefined) return { c, def: `CHECK ((${checkSql}) OR ${NOVALIDATE_EXEMPTION})` }
  // checked by the server, which exempts the orphan rows there now (novalidate-foreign-keys.ts)
  if (novalidate && c.type === "R") return { c, def: undefined }
  await validate(ddl, meta, c, checkSql, refTarget, refColumns)
  return { c, def }
}

/**
 * Adds the table constraints `elements` (each the tokens of one: `ADD c` or `ADD (c1, c2, ...)`, `all` the
 * statement's) to `meta`: all are checked and the rows validated first, so that one failing adds none (DDL is one
 * statement), then the DuckDB table is rebuilt once with them and the catalog records them (with the index of a key).
 * With `novalidate` (ENABLE NOVALIDATE, constraint-state.ts, or written after the constraint) a CHECK or FOREIGN KEY
 * is not validated and leaves the rows there alone; a constraint written with DISABLE is recorded only.
 */
export const addConstraints = async (ddl: TableDdl, meta: TableMeta, elements: ReadonlyArray<ReadonlyArray<Tok>>, text: (a: number, b: number) => string, all: ReadonlyArray<Tok>, novalidate = false): Promise<void> => {
  const planned: Array<PlannedConstraint> = []
  for (const element of elements) planned.push(await planConstraint(ddl, meta, element, text, all, planned, novalidate))
  const defs = planned.flatMap((p) => (p.def === undefined ? [] : [p.def]))
  if (defs.length > 0) {
    const add = (sql: string) => {
      const end = sql.lastIndexOf(")")
      return `${sql.slice(0, end)}, ${defs.join(", ")}${sql.slice(end)}`
    }
    const rebuilt = await rebuildTable(ddl.s.engine, encodeName(meta.owner), encodeName(meta.name), add).catch((e: unknown) => {
      throw ddl.s.mapError(e)
    })
    if (!rebuilt) throw ora.unimplemented("ALTER TABLE ADD CONSTRAINT on a table other tables reference")
  }
  for (const { c } of planned) if (isUncheckedForeignKey(c)) await exemptOrphans(ddl.s, meta, c)
  for (const { c } of planned) {
    if (c.type === "P" && c.disabled !== true) meta.columns = meta.columns.map((x) => (c.columns.includes(x.name) ? { ...x, nullable: false } : x))
    meta.constraints.push(c)
  }
  ddl.s.db.catalog.putTable(meta)
  for (const { c } of planned)
    if ((c.type === "P" || c.type === "U") && c.disabled !== true)
      ddl.s.db.catalog.putObject({ owner: meta.owner, name: c.name, type: "INDEX", objectId: ddl.s.db.catalog.newObjectId(), created: new Date(), tableName: meta.name, indexColumns: c.columns.map((name) => ({ name, descending: false })), unique: true, constraintIndex: true })
}
