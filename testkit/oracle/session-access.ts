/**
 * The object privileges a session's statement needs (privileges.ts): on the table a DML statement writes, SELECT on
 * the other tables and views it names in other schemas, and the DBA role for the DBA_* views.
 */
import type { Catalog, TableMeta } from "./catalog.ts"
import { ora } from "./errors.ts"
import { isName, isOp, type Tok } from "./lexer.ts"
import { type ObjectPrivilege, objectAccessError, type Requester } from "./privileges.ts"
import type { TableLookup } from "./session-columns.ts"
import { isDictionaryName } from "./session-dictionary.ts"
import { checkSequenceAccess } from "./sequence-privileges.ts"
import { writtenColumns } from "./column-privileges.ts"
import { type FromRef, oracleName } from "./translate.ts"
import { checkViewsRead, type ViewRights } from "./view-owner-privileges.ts"

/** Who runs a statement and how its names resolve. */
export interface AccessContext {
  readonly who: Requester
  readonly catalog: Catalog
  /** The session's current schema (CURRENT_SCHEMA). */
  readonly schema: string
  readonly lookupTable: TableLookup
  /**
   * The base table a write through a view reaches and the view (view-dml.ts), not checked: a user writing through a view needs the
   * privileges on the view, whose owner holds those on its base table (SQL Language Reference, "CREATE VIEW").
   */
  readonly throughView?: ReadonlySet<TableMeta> | undefined
  /** What the checks of the views' owners' privileges read (view-owner-privileges.ts). */
  readonly viewRights?: ViewRights
}

/** The object privileges DML statement `verb` needs on the table it writes. */
export const dmlPrivileges = (verb: string | undefined): Array<ObjectPrivilege> => (verb === "MERGE" ? ["INSERT", "UPDATE"] : verb === "INSERT" || verb === "UPDATE" || verb === "DELETE" ? [verb] : [])

/**
 * Checks the privileges a statement needs on other schemas' tables and views: `target.privileges` on the table a
 * DML statement writes, SELECT on every other one it names (qualified, or in `from` unqualified under another
 * CURRENT_SCHEMA), and SELECT ANY DICTIONARY (the DBA role holds it) for the DBA_* views.
 */
export const checkAccess = (ctx: AccessContext, toks: ReadonlyArray<Tok>, from: ReadonlyArray<FromRef>, target?: { readonly meta: TableMeta; readonly privileges: ReadonlyArray<ObjectPrivilege> }): void => {
  const who = ctx.who
  // the views it reads use their owners' privileges, whoever reads them
  if (ctx.viewRights !== undefined) checkViewsRead(ctx.viewRights, toks, (name) => ctx.lookupTable(undefined, name), (meta) => meta === target?.meta || ctx.throughView?.has(meta) === true)
  if (who.dba) return
  const dbaView = toks.find((t) => t.kind === "ident" && t.value.startsWith("DBA_") && isDictionaryName(t.value))
  if (dbaView !== undefined && !who.has("SELECT ANY DICTIONARY")) throw ora.tableNotFound(who.version, undefined, dbaView.value)
  const check = (meta: TableMeta, privilege: ObjectPrivilege) => {
    const e = objectAccessError(who, meta.owner, meta.name, privilege)
    if (e !== undefined) throw e
  }
  if (target !== undefined && ctx.throughView?.has(target.meta) !== true)
    for (const p of target.privileges) {
      // a column privilege covers the statement when it writes only its columns (column-privileges.ts)
      const e = objectAccessError(who, target.meta.owner, target.meta.name, p, p === "INSERT" || p === "UPDATE" ? writtenColumns(toks, target.meta) : undefined)
      if (e !== undefined) throw e
    }
  checkSequenceAccess(who, ctx.catalog, toks)
  for (let k = 0; k + 2 < toks.length; k++) {
    if (!isName(toks[k]) || !isOp(toks[k + 1], ".") || !isName(toks[k + 2]) || isOp(toks[k + 3], ".") || isOp(toks[k + 3], "(") || isOp(toks[k - 1], ".")) continue
    const owner = oracleName(toks[k]!)
    if (owner === who.user || !ctx.catalog.users.has(owner)) continue
    const meta = ctx.catalog.getTable(owner, oracleName(toks[k + 2]!))
    if (meta !== undefined && meta !== target?.meta && ctx.throughView?.has(meta) !== true) check(meta, "SELECT")
  }
  if (ctx.schema === who.user) return
  for (const f of from) {
    const meta = f.schema === undefined ? ctx.lookupTable(undefined, f.table) : undefined
    if (meta !== undefined && meta !== target?.meta && ctx.throughView?.has(meta) !== true) check(meta, "SELECT")
  }
}
