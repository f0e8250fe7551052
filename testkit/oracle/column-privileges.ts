/**
 * Column privileges: `GRANT INSERT (c, ...) | UPDATE (c, ...) | REFERENCES (c, ...) ON t TO u` and the columns an
 * INSERT or UPDATE writes, which such a grant must cover.
 *
 * SQL Language Reference, GRANT, "column": a column privilege applies to the named columns of a table only; INSERT,
 * UPDATE and REFERENCES take a column list. REVOKE removes a column privilege only from the whole table (ORA-01750
 * "UPDATE/REFERENCES may only be REVOKEd from the whole table, not by column"). An UPDATE setting, or an INSERT
 * naming, a column the user holds no privilege on fails with ORA-01031 (the table is visible to the holder of a
 * column privilege); a foreign key to another schema's table needs REFERENCES on it or on the referenced columns.
 * Database Reference: USER_COL_PRIVS, ALL_COL_PRIVS (role-dictionary.ts).
 */
import type { Catalog, TableMeta } from "./catalog.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { objectAccessError, type ObjectPrivilege, type Requester } from "./privileges.ts"
import { oracleName } from "./translate.ts"

/** The privileges a column list may follow. */
const COLUMN_PRIVILEGES: ReadonlyArray<string> = ["INSERT", "UPDATE", "REFERENCES"]

/** The privilege list of a GRANT / REVOKE (the tokens between the verb and ON): whole-object words and column privileges. */
export const privilegeList = (toks: ReadonlyArray<Tok>, revoke: boolean): { readonly words: Array<string>; readonly columns: Array<{ readonly privilege: ObjectPrivilege; readonly column: string }> } => {
  const words: Array<string> = []
  const columns: Array<{ privilege: ObjectPrivilege; column: string }> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, ",")) continue
    if (!isOp(t, "(")) {
      words.push(t.value)
      continue
    }
    const privilege = words.pop()
    if (privilege === undefined || !COLUMN_PRIVILEGES.includes(privilege)) throw new OraError(969, "missing ON keyword")
    if (revoke) throw new OraError(1750, "UPDATE/REFERENCES may only be REVOKEd from the whole table, not by column")
    for (k++; k < toks.length && !isOp(toks[k], ")"); k++) if (!isOp(toks[k], ",")) columns.push({ privilege: privilege as ObjectPrivilege, column: oracleName(toks[k]!) })
  }
  return { words, columns }
}

/** ORA-00904 unless every granted column is a column of `meta`. */
export const checkGrantedColumns = (meta: TableMeta, columns: ReadonlyArray<{ readonly column: string }>): void => {
  for (const c of columns) if (!meta.columns.some((m) => m.name === c.column)) throw ora.invalidIdentifier(c.column)
}

/** The index of the first token at depth 0 from `from` that `stop` accepts (toks.length when none). */
const atDepthZero = (toks: ReadonlyArray<Tok>, from: number, stop: (t: Tok) => boolean): number => {
  let depth = 0
  for (let k = from; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && stop(t)) return k
  }
  return toks.length
}

/**
 * The columns of `meta` an INSERT (its column list, or every column) or UPDATE (the targets of its SET) writes;
 * undefined for another statement.
 */
export const writtenColumns = (toks: ReadonlyArray<Tok>, meta: TableMeta): Array<string> | undefined => {
  const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident")
  if (isKw(toks[0], "UPDATE")) {
    const set = atDepthZero(toks, 1, (t) => isKw(t, "SET"))
    const end = atDepthZero(toks, set + 1, (t) => isKw(t, "WHERE", "RETURNING", "RETURN", "LOG"))
    const out: Array<string> = []
    let item = set + 1
    while (item < end) {
      const next = Math.min(end, atDepthZero(toks, item, (t) => isOp(t, ",")))
      const eq = atDepthZero(toks, item, (t) => isOp(t, "="))
      // `c = ...`, `alias.c = ...` or `(a, b) = (subquery)`
      for (let k = item; k < Math.min(eq, next); k++) if (isName(toks[k]) && !isOp(toks[k + 1], ".")) out.push(oracleName(toks[k]!))
      item = next + 1
    }
    return out
  }
  if (isKw(toks[0], "INSERT") && isKw(toks[1], "INTO")) {
    let k = 2
    while (isName(toks[k]) && isOp(toks[k + 1], ".")) k += 2
    k++
    if (isName(toks[k]) && !isKw(toks[k], "VALUES", "SELECT", "WITH")) k++
    if (!isOp(toks[k], "(") || isKw(toks[k + 1], "SELECT", "WITH")) return meta.columns.map((c) => c.name)
    const out: Array<string> = []
    for (k++; k < toks.length && !isOp(toks[k], ")"); k++) if (isName(toks[k]) && !isOp(toks[k + 1], ".")) out.push(oracleName(toks[k]!))
    return out
  }
  return undefined
}

/**
 * Checks that `who` may make a foreign key to `owner.table` (columns `refColumns`, none for its primary key): its own
 * table, REFERENCES on the table or on every referenced column; ORA-00942 / ORA-01031 otherwise (objectAccessError).
 */
export const checkReferencesPrivilege = (who: Requester, catalog: Catalog, owner: string, table: string, refColumns: ReadonlyArray<string>): void => {
  if (who.dba || owner === who.user) return
  const meta = catalog.getTable(owner, table)
  if (meta === undefined) return
  const columns = refColumns.length > 0 ? refColumns : (meta.constraints.find((c) => c.type === "P")?.columns ?? [])
  const e = objectAccessError(who, owner, table, "REFERENCES", columns)
  if (e !== undefined) throw e
}
