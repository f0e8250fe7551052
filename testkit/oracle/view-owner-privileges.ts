/**
 * The privileges a view's owner needs on the objects of other schemas its query names. "The owner of the schema
 * containing the view must have the privileges necessary to either select (READ or SELECT privilege), insert, update,
 * or delete rows from all the tables or views on which the view is based. The owner must be granted these privileges
 * directly, rather than through a role" (SQL Language Reference, CREATE VIEW, Prerequisites); a view compiles only
 * while "the owner of the view ... [has] the necessary privileges for the referenced objects" (Database Concepts,
 * "Compilation of Views and PL/SQL Program Units"); and "before you can grant other users access to your view, you
 * must have object privileges to the base objects with the GRANT OPTION clause" (Database Security Guide, "Privileges
 * Required to Create Views").
 *
 * So: a view whose owner holds none of SELECT / INSERT / UPDATE / DELETE on such an object (directly, through PUBLIC
 * or a system privilege granted directly) has errors, ORA-04063 for any statement using it and ORA-01031 for CREATE
 * VIEW; a read through it needs the owner's SELECT, a write the owner's privilege of the write on the object written
 * (ORA-01031); GRANT on the view needs the owner's grant option for that privilege on each such object (ORA-01720).
 */
import type { Catalog, TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { isName, isOp, significant, type Tok, tokenize } from "./lexer.ts"
import { type Grants, insufficientPrivileges, type ObjectPrivilege } from "./privileges.ts"

/** What the checks read: the catalog, the object grants, and a user's system privileges granted directly (or to PUBLIC). */
export interface ViewRights {
  readonly catalog: Catalog
  readonly grants: Grants
  readonly hasDirectly: (user: string, privilege: string) => boolean
}

const NO_ROLES: ReadonlySet<string> = new Set()

/** The {@link ViewRights} of database `db`. */
export const viewRightsOf = (db: { readonly catalog: Catalog; readonly grants: Grants; readonly auth: { has(user: string, privilege: string, roles?: ReadonlySet<string>): boolean } }): ViewRights => ({
  catalog: db.catalog,
  grants: db.grants,
  hasDirectly: (user, privilege) => db.auth.has(user, privilege, NO_ROLES)
})

const DML: ReadonlyArray<ObjectPrivilege> = ["SELECT", "INSERT", "UPDATE", "DELETE"]
const ANY: Partial<Record<ObjectPrivilege, string>> = { SELECT: "SELECT ANY TABLE", INSERT: "INSERT ANY TABLE", UPDATE: "UPDATE ANY TABLE", DELETE: "DELETE ANY TABLE" }

/** ORA-04063 for view `view`. */
const hasErrors = (view: TableMeta) => new OraError(4063, `view "${view.owner}.${view.name}" has errors`)

/**
 * The tables and views statement tokens `toks` name: `schema.name` as it is, a bare name by `bare` (the statement's
 * schema); names of functions, columns and aliases find nothing.
 */
export const namedObjects = (catalog: Catalog, toks: ReadonlyArray<Tok>, bare: (name: string) => TableMeta | undefined): Array<TableMeta> => {
  const out = new Set<TableMeta>()
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (!isName(t) || isOp(toks[k - 1], ".")) continue
    if (isOp(toks[k + 1], ".") && isName(toks[k + 2])) {
      const meta = isOp(toks[k + 3], ".") || isOp(toks[k + 3], "(") ? undefined : catalog.getTable(oracleName(t), oracleName(toks[k + 2]!))
      if (meta !== undefined) out.add(meta)
      k += 2
      continue
    }
    if (isOp(toks[k + 1], "(")) continue
    const meta = bare(oracleName(t))
    if (meta !== undefined) out.add(meta)
  }
  return [...out]
}

const viewToks = new WeakMap<TableMeta, ReadonlyArray<Tok>>()

/** The tables and views the query of view `view` names (its bare names in its owner's schema). */
const baseObjects = (catalog: Catalog, view: TableMeta): Array<TableMeta> => {
  let toks = viewToks.get(view)
  if (toks === undefined) viewToks.set(view, (toks = significant(tokenize(view.viewText ?? ""))))
  return namedObjects(catalog, toks, (name) => catalog.getTable(view.owner, name)).filter((m) => m !== view)
}

/** The privileges of `user` on `object` that count for a view it owns: its own and PUBLIC's grants, system privileges granted directly. */
const ownerPrivileges = (rights: ViewRights, user: string, object: TableMeta): ReadonlySet<ObjectPrivilege> => {
  const held = new Set(rights.grants.heldDirectly(object.owner, object.name, user))
  for (const p of DML) if (rights.hasDirectly(user, ANY[p]!)) held.add(p)
  return held
}

/** Whether the owner of a view needs privileges on `object`: an object of another schema, not a dictionary one. */
const foreign = (view: TableMeta, object: TableMeta) => object.owner !== view.owner && object.owner !== "SYS" && object.owner !== "PUBLIC"

/**
 * The error a statement using view `view` meets for its owner's privileges: ORA-04063 when the owner holds none on an
 * object its query names (here or in a view under it), ORA-01031 when `read` and it lacks SELECT on one.
 */
export const viewOwnerError = (rights: ViewRights, view: TableMeta, read: boolean, depth = 0): OraError | undefined => {
  if (depth > 32) return undefined
  for (const object of baseObjects(rights.catalog, view)) {
    if (foreign(view, object)) {
      const held = ownerPrivileges(rights, view.owner, object)
      if (!DML.some((p) => held.has(p))) return hasErrors(view)
      if (read && !held.has("SELECT")) return insufficientPrivileges()
    }
    if (object.kind === "VIEW") {
      const inner = viewOwnerError(rights, object, read, depth + 1)
      if (inner !== undefined) return inner
    }
  }
  return undefined
}

/**
 * Checks the views statement `toks` reads (all it names but `skip`: the view a DML statement writes and the objects
 * a write through a view reaches): ORA-04063 / ORA-01031 as {@link viewOwnerError}.
 */
export const checkViewsRead = (rights: ViewRights, toks: ReadonlyArray<Tok>, lookup: (name: string) => TableMeta | undefined, skip: (meta: TableMeta) => boolean): void => {
  for (const meta of namedObjects(rights.catalog, toks, lookup)) {
    if (meta.kind !== "VIEW" || skip(meta)) continue
    const e = viewOwnerError(rights, meta, true)
    if (e !== undefined) throw e
  }
}

/**
 * Checks a write through view `view` onto `base` (the table or view under it it writes): the view has no errors and
 * its owner holds `privileges` on `base` (ORA-01031).
 */
export const checkViewWrite = (rights: ViewRights, view: TableMeta, base: TableMeta, privileges: ReadonlyArray<ObjectPrivilege>): void => {
  const e = viewOwnerError(rights, view, false)
  if (e !== undefined) throw e
  if (!foreign(view, base)) return
  const held = ownerPrivileges(rights, view.owner, base)
  if (privileges.some((p) => !held.has(p))) throw insufficientPrivileges()
}

/** CREATE VIEW `owner.name AS query`: ORA-01031 when the owner holds none of the privileges a view needs on an object the query names. */
export const checkViewCreation = (rights: ViewRights, owner: string, name: string, query: string): void => {
  const view: TableMeta = { owner, name, kind: "VIEW", columns: [], constraints: [], objectId: 0, created: new Date(0), viewText: query }
  if (viewOwnerError(rights, view, false)?.code === 4063) throw insufficientPrivileges()
}

/**
 * GRANT `privileges` on view `view`: its owner must hold each of them WITH GRANT OPTION on every object of another
 * schema its query names (or the query of a view of its own under it), else ORA-01720 naming the object.
 */
export const checkViewGrant = (rights: ViewRights, view: TableMeta, privileges: ReadonlyArray<ObjectPrivilege>, depth = 0): void => {
  for (const object of baseObjects(rights.catalog, view)) {
    // a view of the same owner under it: what that view reads counts too
    if (object.kind === "VIEW" && object.owner === view.owner && depth < 32) checkViewGrant(rights, object, privileges, depth + 1)
    if (!foreign(view, object)) continue
    if (privileges.some((p) => DML.includes(p) && !rights.grants.grantable(object.owner, object.name, view.owner, p))) throw new OraError(1720, `grant option does not exist for '${object.owner}.${object.name}'`)
  }
}
