/**
 * Stored PL/SQL as the data dictionary shows it (Database Reference 23ai: ALL_SOURCE, ALL_ERRORS, ALL_PROCEDURES,
 * ALL_ARGUMENTS; the USER_ / DBA_ views over them) and units created with compile errors: Oracle creates such a unit
 * INVALID, lists its errors in USER_ERRORS and answers the CREATE with success and the warning ORA-24344 "success
 * with compilation error" (Error Messages, ORA-24344), which node-oracledb reads from the call's warning flag
 * (thin messages/base.js processErrorInfo, TNS_WARN_COMPILATION_CREATE) as `result.warning` NJS-700.
 */
import type { PlsqlProcedure } from "../catalog.ts"
import type { OracleDatabase } from "../database.ts"
import type { Subprogram, TypeSpec } from "./ast.ts"
import { isKw, significantTokensOf } from "../lexer.ts"
import { storedText } from "./compile-errors.ts"
import { sourceAsWritten } from "./preprocessed-sources.ts"
import { authidOf } from "./definer-rights.ts"
import { packagesOf } from "./package-store.ts"
import { triggerDictionaryRows, triggersOf } from "./trigger-definitions.ts"
import { isStale } from "./unit-compilation.ts"

const typeName = (t: TypeSpec | undefined): string | null => (t === undefined ? null : t.kind === "named" ? (t.name.split(/[\s(]/)[0] ?? null) : t.kind === "rowtypeOf" ? "PL/SQL RECORD" : null)

const argumentRows = (owner: string, objectName: string, pkg: string | null, objectId: number, overload: string | null, subprogramId: number, params: ReadonlyArray<{ name: string; mode: string; type?: string | null; defaulted: boolean }>, returns: string | null | undefined) => {
  const rows: Array<Array<unknown>> = []
  const base = returns !== undefined ? 1 : 0
  if (returns !== undefined) rows.push([owner, objectName, pkg, objectId, overload, subprogramId, null, 0, 1, 0, returns, "N", "OUT"])
  params.forEach((p, i) => rows.push([owner, objectName, pkg, objectId, overload, subprogramId, p.name, i + 1, i + 1 + base, 0, p.type ?? null, p.defaulted ? "Y" : "N", p.mode]))
  return rows
}

/** ALL_ERRORS.MESSAGE_NUMBER: the PLS- or (`PL/SQL: ORA-nnnnn`) ORA- number of an error line, 0 for the "ignored" lines. */
const messageNumber = (text: string): number => Number(/^(?:PLS-|PL\/SQL: ORA-)(\d+)/.exec(text)?.[1] ?? 0)

/** Rows of ALL_SOURCE, ALL_ERRORS, ALL_PROCEDURES, ALL_ARGUMENTS and ALL_TRIGGERS for the database's stored code. */
export const storedCodeDictionaryRows = (db: OracleDatabase): ReadonlyArray<readonly [string, Array<Array<unknown>>]> => {
  const source: Array<Array<unknown>> = []
  const errors: Array<Array<unknown>> = []
  const procedures: Array<Array<unknown>> = []
  const args: Array<Array<unknown>> = []
  const lines = (owner: string, name: string, type: string, text: string) =>
    text.split("\n").forEach((l, i, all) => source.push([owner, name, type, i + 1, i < all.length - 1 ? `${l}\n` : l, 3]))
  const idOf = (owner: string, type: "PROCEDURE" | "FUNCTION" | "PACKAGE", name: string) => db.catalog.getObject(owner, type, name)?.objectId ?? 0
  for (const p of db.procedures.values()) {
    const type = p.isFunction === true ? "FUNCTION" : "PROCEDURE"
    const id = idOf(p.owner, type, p.name)
    lines(p.owner, p.name, type, storedText(sourceAsWritten(db, p.source)))
    ;(p.errors ?? []).forEach((e, i) => errors.push([p.owner, p.name, type, i + 1, e.line, e.position, e.text, "ERROR", messageNumber(e.text)]))
    procedures.push([p.owner, p.name, null, id, 1, null, type, "NO", "NO", "NO", "NO", "NO", authidOf(p.source)])
    args.push(...argumentRows(p.owner, p.name, null, id, null, 1, p.params.map((x) => ({ name: x.name, mode: x.mode, type: x.type ?? null, defaulted: x.default !== undefined })), p.isFunction === true ? (p.returns ?? null) : undefined))
  }
  for (const def of packagesOf(db).values()) {
    if (def.hidden === true) continue
    const id = idOf(def.owner, "PACKAGE", def.name)
    lines(def.owner, def.name, "PACKAGE", storedText(sourceAsWritten(db, def.spec.source)))
    if (def.body !== undefined) lines(def.owner, def.name, "PACKAGE BODY", storedText(sourceAsWritten(db, def.body.source)))
    ;(def.body?.errors ?? []).forEach((e, i) => errors.push([def.owner, def.name, "PACKAGE BODY", i + 1, e.line, e.position, e.text, "ERROR", messageNumber(e.text)]))
    const authid = authidOf(def.spec.source)
    procedures.push([def.owner, def.name, null, id, 0, null, "PACKAGE", "NO", "NO", "NO", "NO", "NO", authid])
    const subs = def.spec.block.decls.flatMap((d) => (d.k === "subprogram" ? [d.sub] : []))
    subs.forEach((sub: Subprogram, i) => {
      const overloaded = subs.filter((x) => x.name === sub.name)
      const overload = overloaded.length > 1 ? String(overloaded.indexOf(sub) + 1) : null
      procedures.push([def.owner, def.name, sub.name, id, i + 1, overload, "PACKAGE", "NO", "NO", "NO", "NO", "NO", authid])
      const params = sub.params.map((x) => ({ name: x.name, mode: x.mode, type: typeName(x.type), defaulted: x.default !== undefined }))
      args.push(...argumentRows(def.owner, sub.name, def.name, id, overload, i + 1, params, sub.returns !== undefined ? typeName(sub.returns) : undefined))
    })
  }
  for (const t of triggersOf(db).values()) (t.errors ?? []).forEach((e, i) => errors.push([t.owner, t.name, "TRIGGER", i + 1, e.line, e.position, e.text, "ERROR", messageNumber(e.text)]))
  return [
    ["ALL_SOURCE", source],
    ["ALL_ERRORS", errors],
    ["ALL_PROCEDURES", procedures],
    ["ALL_ARGUMENTS", args],
    ["ALL_TRIGGERS", triggerDictionaryRows(db)]
  ]
}

/** A stored unit's STATUS in ALL_OBJECTS. */
export const objectStatus = (db: OracleDatabase, owner: string, type: string, name: string): "VALID" | "INVALID" => {
  // a unit with compile errors, or one a dependency of which changed since it was compiled (unit-compilation.ts)
  if (type === "PACKAGE BODY") {
    const body = packagesOf(db).get(`${owner}.${name}`)?.body
    return body !== undefined && (body.errors !== undefined || isStale(db, body)) ? "INVALID" : "VALID"
  }
  if (type === "TRIGGER") return triggersOf(db).get(`${owner}.${name}`)?.errors !== undefined ? "INVALID" : "VALID"
  if (type !== "PROCEDURE" && type !== "FUNCTION") return "VALID"
  const p: PlsqlProcedure | undefined = db.procedures.get(`${owner}.${name}`)
  return p !== undefined && (p.errors !== undefined || isStale(db, p)) ? "INVALID" : "VALID"
}
