/**
 * Object type bodies: CREATE [OR REPLACE] TYPE BODY t IS|AS methods END; and DROP TYPE BODY t. A type body runs as a
 * hidden package named as the type (stored-packages.ts), each method one of its subprograms with SELF made explicit
 * (Object-Relational Developer's Guide, "Member Methods": "SELF is always the first parameter passed to the method";
 * it is IN for a member function and IN OUT for a member procedure, as the PL/SQL Language Reference,
 * "CREATE TYPE BODY Statement", states):
 *
 * - `MEMBER FUNCTION f(p) RETURN r` is `FUNCTION f(SELF IN t, p) RETURN r`, `MEMBER PROCEDURE p(x)` is
 *   `PROCEDURE p(SELF IN OUT t, x)`, `MAP | ORDER MEMBER` the same, `STATIC` a subprogram without SELF;
 * - `CONSTRUCTOR FUNCTION t(p) RETURN SELF AS RESULT` is `FUNCTION ORA$NEW(ORA$SELF IN t, p) RETURN t` whose
 *   local `SELF t := ORA$SELF` starts as the object with every attribute NULL (the Guide's "User-Defined
 *   Constructors": "the system-supplied initial value of SELF"), its `RETURN;` returning SELF;
 * - in a member method or constructor an attribute or member method named without a qualifier is SELF's (the
 *   Guide, "SELF Parameter": "you can refer to attributes and methods without the SELF qualifier"); a local
 *   variable or parameter of the name hides it.
 *
 * The rewrite keeps every line where it was, so errors and ORA-06512 lines point into the body as written.
 */
import { OraError, ora } from "../errors.ts"
import { toExtendedJson } from "../extended-json.ts"
import { isKw, isName, isOp, matchParen, splitTopLevel, type Tok, tokenize } from "../lexer.ts"
import type { OracleDatabase } from "../database.ts"
import { namedTypesOf } from "../named-types.ts"
import type { NamedType } from "../pickle.ts"
import { oracleName } from "../translate.ts"
import { PlsCompileError, unexpectedSymbol } from "./errors.ts"
import type { PlsqlHost } from "./host.ts"
import { compileErrorIn, type CompileError, noteCompileWarning, storedText } from "./compile-errors.ts"
import { packagesOf, parseUnit, unitName } from "./stored-packages.ts"

/** The name a type body's constructors have in its hidden package. */
export const CONSTRUCTOR_NAME = "ORA$NEW"

/** A type body as created: its text, and its compile errors when it is INVALID. */
export interface TypeBodyDef {
  readonly owner: string
  readonly name: string
  readonly source: string
  readonly errors?: ReadonlyArray<CompileError>
}

const definitions = new WeakMap<OracleDatabase, Map<string, TypeBodyDef>>()

/** The type bodies of a database, by `OWNER.TYPE`. */
export const typeBodiesOf = (db: OracleDatabase): Map<string, TypeBodyDef> => {
  let m = definitions.get(db)
  if (m === undefined) definitions.set(db, (m = new Map()))
  return m
}

/** The initial SELF of a constructor: the object of type `type` with every attribute NULL, as stored. */
export const nullAttributes = (type: NamedType): string => toExtendedJson({ kind: "array", items: type.attributes.map(() => ({ kind: "null" as const })) })


/** One method of a body: where its header starts, its kind, and the edits that make it a package subprogram. */
interface Method {
  readonly start: number
  readonly kind: "MEMBER" | "STATIC" | "CONSTRUCTOR"
  readonly isFunction: boolean
  readonly name: string
  readonly nameAt: number
  /** The IS / AS that ends the header. */
  readonly bodyAt: number
  readonly params: ReadonlyArray<string>
}

/** CREATE [OR REPLACE] TYPE BODY [owner.]name IS|AS methods END [name]. */
export const defineTypeBody = (s: PlsqlHost, sql: string): void => {
  const source = sql.replace(/\/\s*$/, "")
  const all = tokenize(source)
  const sig = all.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (n: number) => all[sig[n] ?? -1]
  let n = sig.findIndex((k) => isKw(all[k], "BODY")) + 1
  const names = sig.map((k) => all[k]!)
  const { owner, name, next } = unitName(names, n, s.schema)
  n = next
  if (!isKw(at(n), "IS", "AS")) throw unexpectedSymbol(source, at(n)?.pos ?? source.length, at(n)?.text ?? "end-of-file", ["is", "as"])
  const type = namedTypesOf(s.db).lookup(s.schema, owner, name)
  if (type?.kind !== "object") throw new OraError(4043, `object ${name} does not exist`)
  const key = `${owner}.${name}`
  const bodies = typeBodiesOf(s.db)
  const replace = /^\s*CREATE\s+OR\s+REPLACE/i.test(sql)
  if (bodies.has(key) && !replace) throw ora.nameInUse()
  const methods = methodsOf(all, sig, n + 1)
  const edits = new Map<number, string>()
  const typeText = type.name
  const attributes = new Set(type.attributes.map((a) => a.name))
  const members = new Set((type.methods ?? []).filter((m) => m.kind === "MEMBER").map((m) => m.name))
  const end = sig.findLastIndex((k) => isKw(all[k], "END"))
  methods.forEach((m, i) => {
    // the method's keywords before FUNCTION / PROCEDURE go (blanked, so that columns stay)
    for (let j = m.start; j < m.nameAt - 1; j++) if (all[sig[j]!]!.kind !== "ws") edits.set(sig[j]!, " ".repeat(all[sig[j]!]!.text.length))
    const openAt = isOp(at(m.nameAt + 1), "(") ? m.nameAt + 1 : -1
    const explicitSelf = m.params[0] === "SELF"
    const self = m.kind === "CONSTRUCTOR" ? `ORA$SELF IN ${typeText}` : m.kind === "MEMBER" && !explicitSelf ? `SELF IN ${m.isFunction ? "" : "OUT "}${typeText}` : undefined
    const nameText = m.kind === "CONSTRUCTOR" ? CONSTRUCTOR_NAME : all[sig[m.nameAt]!]!.text
    if (self === undefined) edits.set(sig[m.nameAt]!, nameText)
    else if (openAt < 0) edits.set(sig[m.nameAt]!, `${nameText}(${self})`)
    else edits.set(sig[m.nameAt]!, `${nameText}(${self}, `), edits.set(sig[openAt]!, "")
    if (m.kind === "CONSTRUCTOR") {
      // RETURN SELF AS RESULT: the constructor returns the type
      const ret = sig.findIndex((k, j) => j > m.nameAt && j < m.bodyAt && isKw(all[k], "RETURN"))
      if (ret >= 0) for (let j = ret + 1; j < m.bodyAt; j++) edits.set(sig[j]!, j === ret + 1 ? typeText : "")
      edits.set(sig[m.bodyAt]!, `${all[sig[m.bodyAt]!]!.text} SELF ${typeText} := ORA$SELF;`)
    }
    const regionEnd = methods[i + 1]?.start ?? end
    if (m.kind === "STATIC") return
    const declared = new Set([...m.params, ...localNames(all, sig, m.bodyAt, regionEnd)])
    for (let j = m.bodyAt + 1; j < regionEnd; j++) {
      const t = at(j)!
      if (m.kind === "CONSTRUCTOR" && isKw(t, "RETURN") && isOp(at(j + 1), ";")) edits.set(sig[j]!, "RETURN SELF")
      if (!isName(t) || isOp(at(j - 1), ".") || isOp(at(j - 1), "%") || isKw(at(j - 1), "END") || isOp(at(j + 1), "=>")) continue
      const id = oracleName(t)
      if (declared.has(id) || !(attributes.has(id) || members.has(id))) continue
      edits.set(sig[j]!, `SELF.${t.text}`)
    }
  })
  const text = (from: number, to: number) => all.slice(from, to).map((t, k) => edits.get(from + k) ?? t.text).join("")
  const bodySource = text(0, all.length)
  // the hidden package's specification: each method's header as rewritten
  const headers = methods.map((m) => `${text(sig[m.start]!, sig[m.bodyAt]!).trim()};`)
  const specSource = `PACKAGE ${typeText} IS\n${headers.join("\n")}\nEND;`
  let errors: Array<CompileError> | undefined
  const hidden = (() => {
    try {
      checkMethods(source, type, methods, all, sig)
      const bodyToks = tokenize(bodySource).filter((t) => t.kind !== "ws")
      const body = parseUnit(bodySource, bodyToks.slice(bodyToks.findIndex((t) => isKw(t, "IS", "AS")) + 1))
      const specToks = tokenize(specSource).filter((t) => t.kind !== "ws")
      const spec = parseUnit(specSource, specToks.slice(specToks.findIndex((t) => isKw(t, "IS")) + 1))
      const publicNames = new Set(spec.decls.flatMap((d) => (d.k === "subprogram" ? [d.sub.name] : [])))
      return { owner, name, spec: { source: specSource, block: spec }, body: { source: bodySource, block: body }, publicNames, hidden: true }
    } catch (e) {
      if (!(e instanceof PlsCompileError)) throw e
      errors = [compileErrorIn(sql, e)]
      noteCompileWarning(s)
      return undefined
    }
  })()
  if (hidden !== undefined) packagesOf(s.db).set(key, hidden)
  else packagesOf(s.db).delete(key)
  bodies.set(key, { owner, name, source, ...(errors !== undefined ? { errors } : {}) })
  s.db.catalog.putObject(s.db.catalog.getObject(owner, "TYPE BODY", name) ?? { owner, name, type: "TYPE BODY", objectId: s.db.catalog.newObjectId(), created: new Date() })
}

/**
 * PLS-00538 for a method the type declares that the body does not define, PLS-00539 for one the body defines that
 * the type does not declare (Error Messages, PLS-00538 / PLS-00539).
 */
const checkMethods = (source: string, type: NamedType, methods: ReadonlyArray<Method>, all: ReadonlyArray<Tok>, sig: ReadonlyArray<number>): void => {
  const declared = type.methods ?? []
  for (const m of methods) {
    const arity = m.params.filter((p) => p !== "SELF").length
    if (!declared.some((d) => d.name === m.name && d.kind === m.kind && d.arity === arity))
      throw new PlsCompileError(source, all[sig[m.nameAt]!]!.pos, 539, `subprogram '${m.name}' is declared in an object type body and must be defined in the object type specification`)
  }
  const last = all[sig[sig.length - 1]!]!
  // a NOT INSTANTIABLE method has no body (Object-Relational Developer's Guide, "NOT INSTANTIABLE Types and Methods")
  for (const d of declared)
    if (d.notInstantiable !== true && !methods.some((m) => m.name === d.name && m.kind === d.kind && m.params.filter((p) => p !== "SELF").length === d.arity))
      throw new PlsCompileError(source, last.pos, 538, `subprogram or cursor '${d.name}' is declared in an object type specification and must be defined in the object type body`)
}

/** The methods of a type body whose first method starts at significant token `from`. */
const methodsOf = (all: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, from: number): Array<Method> => {
  const at = (n: number) => all[sig[n] ?? -1]
  const out: Array<Method> = []
  for (let n = from; n < sig.length; n++) {
    let k = n
    // `[NOT] OVERRIDING | FINAL | INSTANTIABLE` before a method (blanked with its other keywords)
    while (isKw(at(k), "OVERRIDING", "FINAL", "INSTANTIABLE") || (isKw(at(k), "NOT") && isKw(at(k + 1), "OVERRIDING", "FINAL", "INSTANTIABLE"))) k++
    if (isKw(at(k), "MAP", "ORDER") && isKw(at(k + 1), "MEMBER")) k++
    if (!isKw(at(k), "MEMBER", "STATIC", "CONSTRUCTOR") || !isKw(at(k + 1), "FUNCTION", "PROCEDURE") || !isName(at(k + 2))) continue
    const nameAt = k + 2
    const params: Array<string> = []
    let j = nameAt + 1
    if (isOp(at(j), "(")) {
      const close = matchParen(sig.map((x) => all[x]!), j)
      for (const p of splitTopLevel(sig.slice(j + 1, close).map((x) => all[x]!))) if (isName(p[0])) params.push(oracleName(p[0]))
      j = close + 1
    }
    // a constructor's RETURN SELF AS RESULT holds an AS that is not the header's end
    if (isKw(at(k), "CONSTRUCTOR") && isKw(at(j), "RETURN") && isKw(at(j + 1), "SELF") && isKw(at(j + 2), "AS") && isKw(at(j + 3), "RESULT")) j += 4
    while (j < sig.length && !isKw(at(j), "IS", "AS")) j++
    out.push({ start: n, kind: at(k)!.value as Method["kind"], isFunction: isKw(at(k + 1), "FUNCTION"), name: oracleName(at(nameAt)!), nameAt, bodyAt: j, params })
    n = j
  }
  return out
}

/** The names a method's declarations make (the first name of each declaration between its IS and its BEGIN). */
const localNames = (all: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, bodyAt: number, limit: number): Array<string> => {
  const at = (n: number) => all[sig[n] ?? -1]
  const out: Array<string> = []
  for (let j = bodyAt + 1; j < limit && !isKw(at(j), "BEGIN"); j++) {
    if (!(j === bodyAt + 1 || isOp(at(j - 1), ";"))) continue
    const t = isKw(at(j), "CURSOR", "TYPE", "SUBTYPE", "FUNCTION", "PROCEDURE") ? at(j + 1) : at(j)
    if (isName(t)) out.push(oracleName(t))
  }
  return out
}

/** DROP TYPE BODY [owner.]name (ORA-04043 when there is none); also what DROP TYPE does to the type's body. */
export const dropTypeBody = (db: OracleDatabase, owner: string, name: string, required: boolean): void => {
  const key = `${owner}.${name}`
  if (!typeBodiesOf(db).delete(key)) {
    if (required) throw new OraError(4043, `object ${name} does not exist`)
    return
  }
  if (packagesOf(db).get(key)?.hidden === true) packagesOf(db).delete(key)
  db.catalog.dropObject(owner, "TYPE BODY", name)
}

/** Rows of ALL_SOURCE and ALL_ERRORS for the type bodies (TYPE `TYPE BODY`). */
export const typeBodyDictionaryRows = (db: OracleDatabase): { readonly source: Array<Array<unknown>>; readonly errors: Array<Array<unknown>> } => {
  const source: Array<Array<unknown>> = []
  const errors: Array<Array<unknown>> = []
  for (const b of typeBodiesOf(db).values()) {
    storedText(b.source)
      .split("\n")
      .forEach((l, i, lines) => source.push([b.owner, b.name, "TYPE BODY", i + 1, i < lines.length - 1 ? `${l}\n` : l, 3]))
    ;(b.errors ?? []).forEach((e, i) => errors.push([b.owner, b.name, "TYPE BODY", i + 1, e.line, e.position, e.text, "ERROR", Number(/^PLS-(\d+)/.exec(e.text)?.[1] ?? 0)]))
  }
  return { source, errors }
}
