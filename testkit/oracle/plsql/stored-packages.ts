/**
 * Stored packages: CREATE [OR REPLACE] PACKAGE (the specification: public variables, constants, types, cursors and
 * subprogram declarations) and PACKAGE BODY (private declarations, the subprograms' bodies and an optional BEGIN
 * section that initialises the package), DROP PACKAGE [BODY], and each session's instance of a package: its
 * variables, made the first time the session names the package (the body's BEGIN section runs then, once) and kept
 * for the session, as the PL/SQL Language Reference, "PL/SQL Packages" (23ai,
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-packages.html) describes.
 *
 * Replacing a package's specification or body gives sessions that had an instance a new one the next time they
 * name it (Oracle raises ORA-04068 "existing state of packages has been discarded" once first; this server does not).
 * A package marked PRAGMA SERIALLY_REUSABLE keeps its instance for one server call only: the next call that names it
 * gets a new one, its variables initialised again ("SERIALLY_REUSABLE Packages", PL/SQL Language Reference 19c,
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/lnpls/serially_reusable-packages.html).
 * A body that does not compile is stored INVALID with its errors (stored-code.ts) and compiled again when a table it
 * depends on changed (unit-compilation.ts).
 */
import { directiveErrorOf } from "./preprocessed-sources.ts"
import { mayExecute } from "../execute-privileges.ts"
import { OraError, ora } from "../errors.ts"
import { isKw, isOp, tokenize, type Tok } from "../lexer.ts"
import type { OracleDatabase } from "../database.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import { oracleName } from "../translate.ts"
import type { Block } from "./ast.ts"
import { PlsCompileError, unexpectedSymbol } from "./errors.ts"
import { clientSessionOf, type PlsqlHost } from "./host.ts"
import { parseProcedureBody } from "./parser.ts"
import { compileErrorIn, noteCompileWarning, storedText } from "./compile-errors.ts"
import { type PackageDef, packagesOf } from "./package-store.ts"
export { type PackageDef, packagesOf } from "./package-store.ts"
import { compileErrorRows, compileUnit, recordDependencies, withSpecification } from "./unit-compilation.ts"

const sig = (sql: string) => tokenize(sql).filter((t) => t.kind !== "ws")

/** The PRAGMA SERIALLY_REUSABLE among a unit's tokens, if it has one. */
const seriallyReusablePragma = (toks: ReadonlyArray<Tok>): Tok | undefined =>
  toks.find((t, i) => isKw(t, "PRAGMA") && isKw(toks[i + 1], "SERIALLY_REUSABLE"))

/**
 * Parses `decls [BEGIN stmts [EXCEPTION handlers]] END [name];` (the part after IS / AS): a specification, and a
 * body without a BEGIN section, get an empty one.
 */
export const parseUnit = (source: string, toks: Array<Tok>): Block => {
  const last = toks[toks.length - 1]
  if (last !== undefined && !isOp(last, ";")) toks.push({ kind: "op", text: ";", value: ";", pos: last.pos + last.text.length })
  try {
    return parseProcedureBody(source, toks)
  } catch (e) {
    const end = toks.findLastIndex((t) => isKw(t, "END"))
    if (end < 0) throw e
    const pos = toks[end]!.pos
    const filler = sig("BEGIN NULL;").map((t) => ({ ...t, pos }))
    try {
      return parseProcedureBody(source, [...toks.slice(0, end), ...filler, ...toks.slice(end)])
    } catch {
      throw e
    }
  }
}

/** The `[owner.]name` of a stored unit at `k` (owner the session's `schema` when not given), and the token after it. */
export const unitName = (toks: ReadonlyArray<Tok>, k: number, schema: string): { owner: string; name: string; next: number } =>
  isOp(toks[k + 1], ".") ? { owner: oracleName(toks[k]!), name: oracleName(toks[k + 2]!), next: k + 3 } : { owner: schema, name: oracleName(toks[k]!), next: k + 1 }

/** The names a specification's declarations make. */
const declaredNames = (block: Block): Set<string> =>
  new Set(block.decls.map((d) => (d.k === "collectionType" || d.k === "recordType" ? d.type.name : d.k === "subprogram" ? d.sub.name : d.k === "exceptionInit" ? "" : d.name)))

/**
 * Registers a package specification no dictionary view shows, made of `declarations` (a compound trigger's shared
 * state: compound-triggers.ts); the names it declares.
 */
export const defineHiddenPackage = (db: OracleDatabase, owner: string, name: string, declarations: string): ReadonlySet<string> => {
  const source = `PACKAGE ${name} IS\n${declarations}\nEND;`
  const toks = sig(source)
  const block = parseUnit(source, toks.slice(toks.findIndex((t) => isKw(t, "IS")) + 1))
  if (block.decls.some((d) => d.k === "subprogram")) throw ora.unimplemented("subprograms in a compound trigger's declarations")
  const publicNames = declaredNames(block)
  packagesOf(db).set(`${owner}.${name}`, { owner, name, spec: { source, block }, publicNames, hidden: true })
  return publicNames
}

/** CREATE [OR REPLACE] PACKAGE [BODY] [owner.]name IS|AS ... END [name]. */
export const definePackage = (s: PlsqlHost, sql: string): void => {
  const source = sql.replace(/\/\s*$/, "")
  const toks = sig(source)
  let k = toks.findIndex((t) => isKw(t, "PACKAGE")) + 1
  const isBody = isKw(toks[k], "BODY")
  if (isBody) k++
  const { owner, name, next } = unitName(toks, k, s.schema)
  k = next
  while (toks[k] !== undefined && !isKw(toks[k], "IS", "AS")) k++
  if (!isKw(toks[k], "IS", "AS")) throw unexpectedSymbol(source, toks[k]?.pos ?? source.length, toks[k]?.text ?? "end-of-file", ["is", "as"])
  const key = `${owner}.${name}`
  const all = packagesOf(s.db)
  const known = all.get(key)
  const replace = /^\s*CREATE\s+OR\s+REPLACE/i.test(sql)
  if (isBody) {
    if (known === undefined) throw new OraError(4043, `object ${name} does not exist`)
    if (known.body !== undefined && !replace) throw ora.nameInUse()
    // a body that does not compile is stored INVALID with its errors; the CREATE succeeds with a warning (stored-code.ts)
    const body = compileBody(s, known, source, toks.slice(k + 1))
    if (body.errors !== undefined) noteCompileWarning(s)
    all.set(key, { ...known, body })
    // put again when replaced: the dictionary's snapshot follows the catalog's version (STATUS may have changed)
    s.db.catalog.putObject(s.db.catalog.getObject(owner, "PACKAGE BODY", name) ?? { owner, name, type: "PACKAGE BODY", objectId: s.db.catalog.newObjectId(), created: new Date() })
    return
  }
  const block = parseUnit(source, toks.slice(k + 1))
  if (known !== undefined && !replace) throw ora.nameInUse()
  if (known === undefined && (s.db.procedures.has(key) || s.db.catalog.getTable(owner, name) !== undefined)) throw ora.nameInUse()
  const publicNames = declaredNames(block)
  // a new specification keeps no body of the old one's (Oracle marks it invalid until it is compiled again)
  const seriallyReusable = seriallyReusablePragma(toks.slice(k + 1)) !== undefined
  all.set(key, { owner, name, spec: { source, block }, publicNames, ...(seriallyReusable ? { seriallyReusable } : {}), ...(known?.body !== undefined ? { body: known.body } : {}) })
  // put again when replaced: the dictionary and the bodies' dependency checks follow the catalog's version
  s.db.catalog.putObject(s.db.catalog.getObject(owner, "PACKAGE", name) ?? { owner, name, type: "PACKAGE", objectId: s.db.catalog.newObjectId(), created: new Date() })
}

/**
 * Compiles package body `source` (`toks` its tokens after IS / AS) against specification `def`: its block and, when
 * it does not compile, its errors (stored-code.ts) over an empty block; the tables it depends on are recorded.
 */
const compileBody = (s: PlsqlHost, def: PackageDef, source: string, toks: Array<Tok>): NonNullable<PackageDef["body"]> => {
  const offset = source.indexOf(storedText(source))
  try {
    const deferred = directiveErrorOf(s.db, source)
    if (deferred !== undefined) throw deferred
    const block = parseUnit(source, toks)
    // "in both the specification and body of a package, but not in only the body" (PL/SQL Language Reference,
    // "SERIALLY_REUSABLE Pragma"): PLS-00709 "pragma string must be declared in package specification and body"
    const pragma = seriallyReusablePragma(toks)
    if ((pragma !== undefined) !== (def.seriallyReusable === true)) {
      throw new PlsCompileError(source, pragma?.pos ?? toks[0]?.pos ?? 0, 709, "pragma SERIALLY_REUSABLE must be declared in package specification and body")
    }
    const compiled = compileUnit(s.db, def.owner, source, block, [def.name, ...declaredNames(def.spec.block)])
    const errors = compiled.errors.flatMap((e) => compileErrorRows(source, offset, e))
    const body = errors.length > 0 ? { source, block, errors } : { source, block }
    recordDependencies(body, withSpecification(s.db, compiled.dependencies, def.owner, def.name))
    return body
  } catch (e) {
    if (!(e instanceof PlsCompileError)) throw e
    return { source, block: { pos: 0, decls: [], body: [], handlers: [] }, errors: [compileErrorIn(source, e)] }
  }
}

/** Compiles package `def`'s body again (ALTER PACKAGE ... COMPILE, or the first use after a table it depends on changed). */
export const recompileBody = (s: PlsqlHost, def: PackageDef): PackageDef => {
  if (def.body === undefined) return def
  const toks = sig(def.body.source)
  let k = toks.findIndex((t) => isKw(t, "BODY"))
  while (toks[k] !== undefined && !isKw(toks[k], "IS", "AS")) k++
  const recompiled = { ...def, body: compileBody(s, def, def.body.source, toks.slice(k + 1)) }
  packagesOf(s.db).set(`${def.owner}.${def.name}`, recompiled)
  s.db.catalog.version++
  return recompiled
}

/** DROP PACKAGE [BODY] [owner.]name: the body alone, or the package with its body. */
export const dropPackage = (s: PlsqlHost, owner: string, name: string, bodyOnly: boolean): void => {
  const all = packagesOf(s.db)
  const known = all.get(`${owner}.${name}`)
  if (known === undefined || (bodyOnly && known.body === undefined)) throw new OraError(4043, `object ${name} does not exist`)
  s.db.catalog.dropObject(owner, "PACKAGE BODY", name)
  if (bodyOnly) {
    const { body: _, ...spec } = known
    all.set(`${owner}.${name}`, spec)
    return
  }
  s.db.catalog.dropObject(owner, "PACKAGE", name)
  all.delete(`${owner}.${name}`)
}

/** A session's instance of a package: the definition it was made from and its package-level names. */
export interface PackageInstance<S> {
  readonly def: PackageDef
  readonly names: S
}

const instances = new WeakMap<PlsqlHost, Map<string, PackageInstance<unknown>>>()

/** The session's instances of packages, by `OWNER.NAME`. */
export const instancesOf = (host: PlsqlHost): Map<string, PackageInstance<unknown>> => {
  const session = clientSessionOf(host)
  let m = instances.get(session)
  if (m === undefined) instances.set(session, (m = new Map()))
  return m
}

/** Ends a server call of the session: its instances of SERIALLY_REUSABLE packages are dropped, to be made anew. */
export const endServerCall = (host: PlsqlHost): void => {
  const all = instances.get(host)
  if (all === undefined) return
  for (const [key, instance] of all) if (instance.def.seriallyReusable === true) all.delete(key)
}

/** The package `name` (qualified with its owner, or in the session's schema) visible to the session. */
export const findPackage = (host: PlsqlHost, owner: string | undefined, name: string): PackageDef | undefined =>
  packagesOf(host.db).get(`${owner ?? host.schema}.${name}`)

/**
 * The stored function a SQL statement calls as `owner.name` (`owner` the session's schema for an unqualified name):
 * a standalone function, or a public function of package `owner` in the session's schema.
 */
export const callableFromSql = (host: PlsqlHost, owner: string, name: string): PlsqlProcedure | undefined => {
  const standalone = host.db.procedures.get(`${owner}.${name}`)
  // another schema's function without EXECUTE on it is not callable (execute-privileges.ts): an unknown name to SQL
  if (standalone !== undefined) return mayExecute(host.db, host.info.user, owner, name, true) ? standalone : undefined
  const def = findPackage(host, undefined, owner)
  if (def === undefined || !def.publicNames.has(name)) return undefined
  const decl = def.spec.block.decls.find((d) => d.k === "subprogram" && d.sub.name === name)
  if (decl?.k !== "subprogram" || decl.sub.returns === undefined) return undefined
  const returns = decl.sub.returns.kind === "named" ? decl.sub.returns.name.replace(/ \. /g, ".").split(/[\s(]/)[0] : undefined
  const params = decl.sub.params.map((p) => ({ name: p.name, mode: p.mode, ...(p.type.kind === "named" ? { type: p.type.name.split(/[\s(]/)[0]! } : {}) }))
  return { owner: def.owner, name, package: def.name, isFunction: true, ...(returns !== undefined ? { returns } : {}), params, body: [], source: "" }
}
