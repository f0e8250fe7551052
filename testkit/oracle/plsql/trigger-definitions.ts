/**
 * Stored DML triggers (PL/SQL Language Reference 23ai, "CREATE TRIGGER Statement", "ALTER TRIGGER Statement"): CREATE
 * [OR REPLACE] TRIGGER name BEFORE | AFTER | INSTEAD OF events ON table-or-view [REFERENCING ...] [FOR EACH ROW]
 * [ENABLE | DISABLE] [WHEN (cond)] block, ALTER TRIGGER ENABLE / DISABLE / COMPILE, DROP TRIGGER, and their
 * dictionary rows (ALL_TRIGGERS; ALL_OBJECTS through the catalog's TRIGGER objects). Running them: triggers.ts.
 */
import type { TableMeta } from "../catalog.ts"
import type { OracleDatabase } from "../database.ts"
import { OraError, ora } from "../errors.ts"
import { isKw, isOp, matchParen, significant, tokenize, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import { defineCompound, type CompoundParts } from "./compound-triggers.ts"
import { PlsCompileError } from "./errors.ts"
import { parseAnonymousBlock } from "./parser.ts"
import type { CompileError } from "./compile-errors.ts"
import { packagesOf } from "./stored-packages.ts"
import { compileErrorRows } from "./unit-compilation.ts"

/** The statements a trigger fires on. */
export type TriggerEvent = "INSERT" | "UPDATE" | "DELETE"

/** When a trigger fires: around the statement's writes, or in their place (INSTEAD OF, views only). */
export type TriggerTiming = "BEFORE" | "AFTER" | "INSTEAD OF"

/** A stored trigger. */
export interface Trigger {
  readonly owner: string
  readonly name: string
  readonly tableOwner: string
  readonly table: string
  readonly baseObjectType: "TABLE" | "VIEW"
  readonly timing: TriggerTiming
  readonly events: ReadonlySet<TriggerEvent>
  /** UPDATE OF columns (empty: any update). */
  readonly columns: ReadonlyArray<string>
  readonly forEachRow: boolean
  /** The correlation names of the new and old row (REFERENCING NEW AS n OLD AS o; NEW and OLD by default). */
  readonly newName: string
  readonly oldName: string
  /** The WHEN condition's text, without its parentheses. */
  readonly when: string | undefined
  /** The body from its DECLARE or BEGIN, as written. */
  readonly body: string
  /** The CREATE statement's text from TRIGGER on (USER_TRIGGERS DESCRIPTION). */
  readonly description: string
  /** ALTER TRIGGER ENABLE / DISABLE (a disabled trigger does not fire). */
  enabled: boolean
  /** A compound trigger's sections (compound-triggers.ts); `timing` and `body` are then unused. */
  readonly compound?: CompoundParts
  /** The compile errors of a body that does not parse (INVALID; lines counted from its DECLARE or BEGIN). */
  readonly errors?: ReadonlyArray<CompileError>
}

const registry = new WeakMap<OracleDatabase, Map<string, Trigger>>()

/** The database's triggers by `OWNER.NAME`, in creation order (the order triggers of one timing fire in). */
export const triggersOf = (db: OracleDatabase): Map<string, Trigger> => {
  let m = registry.get(db)
  if (m === undefined) registry.set(db, (m = new Map()))
  return m
}

/** Whether `t` still exists: dropping its table drops it (the catalog drops the table's objects). */
const exists = (db: OracleDatabase, t: Trigger): boolean => db.catalog.getObject(t.owner, "TRIGGER", t.name) !== undefined

/** The enabled triggers on table or view `meta`. */
export const tableTriggers = (db: OracleDatabase, meta: TableMeta | undefined): Array<Trigger> =>
  meta === undefined || registry.get(db) === undefined ? [] : [...triggersOf(db).values()].filter((t) => t.enabled && t.tableOwner === meta.owner && t.table === meta.name && exists(db, t))

/** Rows of ALL_TRIGGERS (catalog.ts dictionaryShapes): one per trigger, in creation order. */
export const triggerDictionaryRows = (db: OracleDatabase): Array<Array<unknown>> =>
  registry.get(db) === undefined
    ? []
    : [...triggersOf(db).values()]
        .filter((t) => exists(db, t))
        .map((t) => [
          t.owner,
          t.name,
          t.compound !== undefined ? "COMPOUND" : t.timing === "INSTEAD OF" ? "INSTEAD OF" : `${t.timing} ${t.forEachRow ? "EACH ROW" : "STATEMENT"}`,
          (["INSERT", "UPDATE", "DELETE"] as const).filter((e) => t.events.has(e)).join(" OR "),
          t.tableOwner,
          t.baseObjectType,
          t.table,
          null,
          `REFERENCING NEW AS ${t.newName} OLD AS ${t.oldName}`,
          t.when ?? null,
          t.enabled ? "ENABLED" : "DISABLED",
          t.description,
          "PL/SQL",
          t.body
        ])

/** `[owner.]name` at `k`: the name, its owner (the schema when not written) and the index after it. */
export const qualifiedName = (toks: ReadonlyArray<Tok>, k: number, schema: string) =>
  isOp(toks[k + 1], ".") && toks[k + 2] !== undefined
    ? { owner: oracleName(toks[k]!), name: oracleName(toks[k + 2]!), next: k + 3 }
    : { owner: schema, name: oracleName(toks[k]!), next: k + 1 }

/** A `:NEW.col` / `:OLD.col` reference (`NEW.col` / `OLD.col` in WHEN) of a body's tokens, by token index. */
export interface CorrelationRef {
  readonly at: number
  readonly which: "NEW" | "OLD"
  readonly column: string
  readonly end: number
}

/** The correlation references of `toks`; `names` are the trigger's new and old correlation names. */
export const correlationRefs = (toks: ReadonlyArray<Tok>, bare: boolean, names: { readonly newName: string; readonly oldName: string }): Array<CorrelationRef> => {
  const out: Array<CorrelationRef> = []
  const sig = toks.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  for (let j = 0; j + 2 < sig.length; j++) {
    const t = toks[sig[j]!]!
    const name = t.kind === "bind" ? t.value.toUpperCase() : bare && t.kind === "ident" ? t.value : ""
    const which = name === names.newName ? "NEW" : name === names.oldName ? "OLD" : undefined
    if (which === undefined || !isOp(toks[sig[j + 1]!], ".")) continue
    if (bare && t.kind === "ident" && isOp(toks[sig[j - 1]!], ".")) continue
    out.push({ at: sig[j]!, which, column: oracleName(toks[sig[j + 2]!]!), end: sig[j + 2]! })
  }
  return out
}

/** REFERENCING [NEW [AS] n] [OLD [AS] o] [PARENT [AS] p] at `k`: the names and the index after the clause. */
const referencing = (toks: ReadonlyArray<Tok>, k: number) => {
  let newName = "NEW"
  let oldName = "OLD"
  if (!isKw(toks[k], "REFERENCING")) return { newName, oldName, next: k }
  k++
  while (isKw(toks[k], "NEW", "OLD", "PARENT")) {
    const which = toks[k]!.value
    k++
    if (isKw(toks[k], "AS")) k++
    const tok = toks[k]
    if (tok === undefined || (tok.kind !== "ident" && tok.kind !== "qident")) throw new OraError(4074, "invalid REFERENCING name")
    if (which === "NEW") newName = oracleName(tok)
    else if (which === "OLD") oldName = oracleName(tok)
    k++
  }
  return { newName, oldName, next: k }
}

/**
 * Registers CREATE [OR REPLACE] TRIGGER (`sql`), on a table or view `lookup` finds; true when its body does not parse:
 * the trigger is created INVALID with its errors (the CREATE succeeds with the warning ORA-24344, stored-code.ts) and
 * the DML that fires it fails ORA-04098 (Error Messages, ORA-04098 "trigger ... is invalid and failed re-validation").
 */
export const defineTrigger = (db: OracleDatabase, schema: string, sql: string, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): boolean => {
  const source = sql.replace(/\/\s*$/, "")
  const toks = significant(tokenize(source))
  const head = toks.findIndex((t) => isKw(t, "TRIGGER"))
  const { owner, name, next } = qualifiedName(toks, head + 1, schema)
  let k = next
  let timing: TriggerTiming
  // FOR events ON table ... COMPOUND TRIGGER: a compound trigger (its sections' timings: compound-triggers.ts)
  const compound = isKw(toks[k], "FOR")
  if (compound) {
    timing = "BEFORE"
    k++
  } else if (isKw(toks[k], "BEFORE", "AFTER")) timing = toks[k++]!.value as "BEFORE" | "AFTER"
  else if (isKw(toks[k], "INSTEAD") && isKw(toks[k + 1], "OF")) {
    timing = "INSTEAD OF"
    k += 2
  } else throw new OraError(4071, "missing BEFORE, AFTER or INSTEAD OF keyword")
  const events = new Set<TriggerEvent>()
  const columns: Array<string> = []
  for (;;) {
    const e = toks[k]?.value
    if (e !== "INSERT" && e !== "UPDATE" && e !== "DELETE") throw new OraError(4072, "invalid trigger type")
    events.add(e)
    k++
    if (isKw(toks[k], "OF")) {
      if (e !== "UPDATE") throw new OraError(4073, "column list not valid for this trigger type")
      k++
      while (toks[k] !== undefined && !isKw(toks[k], "ON", "OR")) {
        if (!isOp(toks[k], ",")) columns.push(oracleName(toks[k]!))
        k++
      }
    }
    if (!isKw(toks[k], "OR")) break
    k++
  }
  if (!isKw(toks[k], "ON")) throw ora.invalidSql()
  const target = qualifiedName(toks, k + 1, schema)
  const meta = lookup(target.owner, target.name)
  if (meta === undefined) throw new OraError(942, "table or view does not exist")
  // Database Error Messages: ORA-25002 "cannot create INSTEAD OF triggers on tables", ORA-25001 "cannot create this trigger type on views"
  if (compound && meta.kind === "VIEW") throw ora.unimplemented("compound triggers on views")
  if (timing === "INSTEAD OF" && meta.kind !== "VIEW") throw new OraError(25002, "cannot create INSTEAD OF triggers on tables")
  if (timing !== "INSTEAD OF" && meta.kind === "VIEW") throw new OraError(25001, "cannot create this trigger type on views")
  const names = referencing(toks, target.next)
  k = names.next
  // INSTEAD OF triggers are row triggers whether or not FOR EACH ROW is written
  const written = isKw(toks[k], "FOR") && isKw(toks[k + 1], "EACH") && isKw(toks[k + 2], "ROW")
  if (written) k += 3
  const forEachRow = written || timing === "INSTEAD OF" || compound
  let enabled = true
  if (isKw(toks[k], "ENABLE", "DISABLE")) enabled = toks[k++]!.value === "ENABLE"
  let when: string | undefined
  if (isKw(toks[k], "WHEN")) {
    if (!forEachRow) throw new OraError(4077, "WHEN clause cannot be used with table level triggers")
    if (!isOp(toks[k + 1], "(")) throw ora.invalidSql()
    const close = matchParen(toks, k + 1)
    when = source.slice(toks[k + 2]!.pos, toks[close]!.pos)
    k = close + 1
  }
  const triggers = triggersOf(db)
  const key = `${owner}.${name}`
  const known = triggers.has(key) && exists(db, triggers.get(key)!)
  if (known && !/^\s*CREATE\s+OR\s+REPLACE/i.test(source)) throw new OraError(4081, `trigger '${name}' already exists`)
  const parts = compound ? defineCompound(db, owner, name, source, k) : undefined
  if (!compound && !isKw(toks[k], "DECLARE", "BEGIN")) throw new OraError(4079, "invalid trigger specification")
  let body = source.slice(toks[k]!.pos).trimEnd()
  if (!body.endsWith(";")) body += ";"
  const bodyToks = tokenize(body)
  const errors = compound ? undefined : bodyErrors(body, bodyToks)
  const refs = compound ? [] : correlationRefs(bodyToks, false, names)
  if (!forEachRow && refs.length > 0) throw new OraError(4082, "NEW or OLD references not allowed in table level triggers")
  const sig = bodyToks.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  for (const r of refs) {
    const after = sig.indexOf(r.end) + 1
    if (!isOp(bodyToks[sig[after] ?? -1], ":=")) continue
    if (r.which === "OLD") throw new OraError(4085, "cannot change the value of an OLD reference variable")
    if (timing !== "BEFORE" || events.has("DELETE")) throw new OraError(4084, "cannot change NEW values for this trigger type")
  }
  triggers.delete(key)
  triggers.set(key, {
    owner,
    name,
    tableOwner: meta.owner,
    table: meta.name,
    baseObjectType: meta.kind,
    timing,
    events,
    columns,
    forEachRow,
    newName: names.newName,
    oldName: names.oldName,
    when,
    body,
    description: source.slice(toks[head]!.pos + toks[head]!.text.length, toks[k]!.pos).trim(),
    enabled,
    ...(parts !== undefined ? { compound: parts } : {}),
    ...(errors !== undefined ? { errors } : {})
  })
  db.catalog.dropObject(owner, "TRIGGER", name)
  db.catalog.putObject({ owner, name, type: "TRIGGER", objectId: db.catalog.newObjectId(), created: new Date(), tableName: meta.name })
  return errors !== undefined
}

/** The compile errors of a trigger's body (`toks` its tokens) that does not parse; undefined when it does. */
const bodyErrors = (body: string, toks: ReadonlyArray<Tok>): ReadonlyArray<CompileError> | undefined => {
  try {
    parseAnonymousBlock(body, significant(toks))
    return undefined
  } catch (e) {
    if (!(e instanceof PlsCompileError)) throw e
    return compileErrorRows(body, 0, e)
  }
}

/** The trigger `[owner.]name` at `at` (ORA-04080 for an unknown one). */
const knownTrigger = (db: OracleDatabase, schema: string, toks: ReadonlyArray<Tok>, at: number): Trigger => {
  const { owner, name } = qualifiedName(toks, at, schema)
  const t = triggersOf(db).get(`${owner}.${name}`)
  if (t === undefined || !exists(db, t)) throw new OraError(4080, `trigger '${name}' does not exist`)
  return t
}

/** DROP TRIGGER [owner.]name (ORA-04080 for an unknown one). */
export const dropTrigger = (db: OracleDatabase, schema: string, toks: ReadonlyArray<Tok>, at: number): void => {
  const t = knownTrigger(db, schema, toks, at)
  triggersOf(db).delete(`${t.owner}.${t.name}`)
  if (t.compound !== undefined) packagesOf(db).delete(`${t.owner}.${t.compound.stateName}`)
  db.catalog.dropObject(t.owner, "TRIGGER", t.name)
}

/**
 * ALTER TRIGGER [owner.]name ENABLE | DISABLE | COMPILE [DEBUG] [REUSE SETTINGS] | RENAME TO new_name (`toks` from
 * ALTER): a trigger's body is checked when it runs here, so COMPILE has nothing to do.
 */
export const alterTrigger = (db: OracleDatabase, schema: string, toks: ReadonlyArray<Tok>): void => {
  const t = knownTrigger(db, schema, toks, 2)
  const at = qualifiedName(toks, 2, schema).next
  const action = toks[at]
  if (isKw(action, "ENABLE", "DISABLE")) t.enabled = action!.value === "ENABLE"
  else if (isKw(action, "RENAME")) renameTrigger(db, t, toks, at + 1)
  else if (!isKw(action, "COMPILE", "EDITIONABLE", "NONEDITIONABLE")) throw ora.invalidSql()
}

/**
 * RENAME TO new_name (`at` on TO): the trigger keeps its owner, table, state and place in the firing order under the
 * new name (PL/SQL Language Reference, "ALTER TRIGGER Statement": "RENAME TO new_name ... The rename operation
 * changes the name of the trigger but does not change its state"; ORA-04081 "trigger already exists" for a name in use).
 */
const renameTrigger = (db: OracleDatabase, t: Trigger, toks: ReadonlyArray<Tok>, at: number): void => {
  const target = toks[at + 1]
  if (!isKw(toks[at], "TO") || (target?.kind !== "ident" && target?.kind !== "qident") || at + 2 !== toks.length) throw ora.invalidSql()
  const name = oracleName(target)
  const triggers = triggersOf(db)
  const taken = triggers.get(`${t.owner}.${name}`)
  if (taken !== undefined && exists(db, taken)) throw new OraError(4081, `trigger '${name}' already exists`)
  const object = db.catalog.getObject(t.owner, "TRIGGER", t.name)!
  const named: Trigger = { ...t, name, description: t.description.replace(/^(?:(?:"[^"]*"|[\w$#]+)\s*\.\s*)?(?:"[^"]*"|[\w$#]+)/, (old) => (/^(?:"[^"]*"|[\w$#]+)\s*\./.test(old) ? `${t.owner}.${name}` : name)) }
  const order = [...triggers.entries()].map(([key, u]): [string, Trigger] => (u === t ? [`${t.owner}.${name}`, named] : [key, u]))
  triggers.clear()
  for (const [key, u] of order) if (key !== `${t.owner}.${name}` || u === named) triggers.set(key, u)
  db.catalog.dropObject(t.owner, "TRIGGER", t.name)
  db.catalog.putObject({ ...object, name })
}
