/**
 * `ALTER TABLE t ENABLE | DISABLE [VALIDATE | NOVALIDATE] CONSTRAINT c` and `ALTER TABLE t MODIFY CONSTRAINT c
 * ENABLE | DISABLE [VALIDATE | NOVALIDATE]`.
 *
 * SQL Language Reference, ALTER TABLE ("enable_disable_clause", "constraint_state"): a disabled constraint stays in the
 * dictionary (USER_CONSTRAINTS.STATUS DISABLED) and is not enforced; DISABLE defaults to NOVALIDATE and ENABLE to
 * VALIDATE, which checks the rows (ORA-02437 / ORA-02299 / ORA-02293 / ORA-02298 naming the constraint). Disabling a
 * key foreign keys reference is ORA-02297 (cannot disable constraint - dependencies exist); an unknown constraint is
 * ORA-02430 (enable) / ORA-02431 (disable). DuckDB has no disabled constraints, so the table is rebuilt without the
 * constraint (drop-constraint.ts) and with it again (add-constraint.ts). ENABLE NOVALIDATE of a CHECK or FOREIGN KEY
 * leaves the rows alone (add-constraint.ts, novalidate-foreign-keys.ts); of a key it still checks them, as Oracle's
 * unique index does. ENABLE [VALIDATE] of a constraint enabled NOVALIDATE validates the rows.
 */
import type { ConstraintMeta, TableMeta } from "./catalog.ts"
import { addConstraints } from "./add-constraint.ts"
import type { TableDdl } from "./ddl-tables.ts"
import { dropConstraint } from "./drop-constraint.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, significant, tokenize, type Tok } from "./lexer.ts"
import { oracleName } from "./translate.ts"
import { quoteDuck } from "./names.ts"


/** The out-of-line definition of constraint `c`, to add it again. */
const definition = (ddl: TableDdl, c: ConstraintMeta): string => {
  const cols = c.columns.map(quoteDuck).join(", ")
  const head = `CONSTRAINT ${quoteDuck(c.name)}`
  if (c.type === "P") return `${head} PRIMARY KEY (${cols})`
  if (c.type === "U") return `${head} UNIQUE (${cols})`
  if (c.type === "C") return `${head} CHECK (${c.searchCondition ?? ""})`
  const ref = c.refOwner === null ? undefined : ddl.s.db.catalog.findConstraint(c.refOwner, c.refConstraint ?? "")
  if (ref === undefined) throw new OraError(2270, "no matching unique or primary key for this column-list")
  return `${head} FOREIGN KEY (${cols}) REFERENCES ${quoteDuck(ref.table.owner)}.${quoteDuck(ref.table.name)} (${ref.constraint.columns.map(quoteDuck).join(", ")})`
}

/** True when `toks[k]` starts an ENABLE / DISABLE clause or `MODIFY CONSTRAINT`. */
export const isConstraintState = (toks: ReadonlyArray<Tok>, k: number): boolean =>
  isKw(toks[k], "ENABLE", "DISABLE") || (isKw(toks[k], "MODIFY") && isKw(toks[k + 1], "CONSTRAINT"))

/** Runs the ENABLE / DISABLE clause (or MODIFY CONSTRAINT) at `k` on table `meta`. */
export const changeConstraintState = async (ddl: TableDdl, meta: TableMeta, toks: ReadonlyArray<Tok>, k: number): Promise<void> => {
  let name: string
  let state: string
  let validate: boolean | undefined
  if (isKw(toks[k], "MODIFY")) {
    name = oracleName(toks[k + 2]!)
    state = toks[k + 3]?.value ?? ""
    k += 4
    if (isKw(toks[k], "VALIDATE", "NOVALIDATE")) validate = toks[k++]!.value === "VALIDATE"
  } else {
    state = toks[k++]!.value
    if (isKw(toks[k], "VALIDATE", "NOVALIDATE")) validate = toks[k++]!.value === "VALIDATE"
    if (!isKw(toks[k], "CONSTRAINT")) throw ora.unimplemented(`${state} other than CONSTRAINT name`)
    name = oracleName(toks[k + 1]!)
    k += 2
  }
  if (state !== "ENABLE" && state !== "DISABLE") throw ora.invalidSql()
  if (k < toks.length) throw ora.invalidSql()
  const c = meta.constraints.find((x) => x.name === name)
  const qualifiedName = `${meta.owner}.${name}`
  if (c === undefined)
    throw state === "ENABLE" ? new OraError(2430, `cannot enable constraint (${name}) - no such constraint`) : new OraError(2431, `cannot disable constraint (${name}) - no such constraint`)
  const at = meta.constraints.indexOf(c)
  const put = (x: ConstraintMeta) => {
    meta.constraints = meta.constraints.map((y) => (y.name === name ? x : y))
    ddl.s.db.catalog.putTable(meta)
  }
  if (state === "DISABLE") {
    if (c.disabled === true) return put({ ...c, notValidated: validate !== true })
    await dropConstraint(ddl, meta, significant(tokenize(`CONSTRAINT ${quoteDuck(name)}`)), 0).catch((e: unknown) => {
      throw e instanceof OraError && e.code === 2273 ? new OraError(2297, `cannot disable constraint (${qualifiedName}) - dependencies exist`) : e
    })
    meta.constraints = [...meta.constraints.slice(0, at), { ...c, disabled: true, notValidated: validate !== true }, ...meta.constraints.slice(at)]
    ddl.s.db.catalog.putTable(meta)
    return
  }
  // ENABLE [VALIDATE] of a constraint enabled NOVALIDATE validates the rows now: a key's were when it was enabled
  // (its unique index), a CHECK or FOREIGN KEY is added again validating them
  const revalidate = c.disabled !== true && c.notValidated === true && validate !== false
  if (c.disabled !== true && !revalidate) return
  if (revalidate && (c.type === "P" || c.type === "U")) return put({ ...c, notValidated: false })
  if (revalidate && c.type === "C") await dropConstraint(ddl, meta, significant(tokenize(`CONSTRAINT ${quoteDuck(name)}`)), 0)
  meta.constraints = meta.constraints.filter((x) => x !== c)
  // the statement that adds it, translated like one the client sent
  const t = ddl.s.translate(`ALTER TABLE ${quoteDuck(meta.owner)}.${quoteDuck(meta.name)} ADD ${definition(ddl, c)}`)
  const from = ddl.qualified(t.toks, 2).next + 1
  try {
    await addConstraints(ddl, meta, [t.toks.slice(from)], t.text, t.toks, validate === false)
  } catch (e) {
    // a CHECK enabled NOVALIDATE goes back into the table as it was (its rows exempted)
    if (revalidate && c.type === "C") await addConstraints(ddl, meta, [t.toks.slice(from)], t.text, t.toks, true)
    meta.constraints = [...meta.constraints.filter((x) => x.name !== name).slice(0, at), c, ...meta.constraints.filter((x) => x.name !== name).slice(at)]
    ddl.s.db.catalog.putTable(meta)
    throw e
  }
  // addConstraints appended it last, as the rebuilt table holds it (drop-constraint.ts finds checks by their place)
  if (validate === false) put({ ...meta.constraints.find((x) => x.name === name)!, notValidated: true })
}
