/**
 * Compound DML triggers (PL/SQL Language Reference 23ai, "Compound DML Triggers"): `FOR events ON table COMPOUND
 * TRIGGER declarations timing-point-sections END;`, the sections BEFORE STATEMENT, BEFORE EACH ROW, AFTER EACH ROW,
 * AFTER STATEMENT (INSTEAD OF EACH ROW on a view) sharing the declarations, whose state is made anew for each
 * statement that fires the trigger.
 *
 * Here the declarations become a package specification no dictionary view shows (stored-packages.ts
 * defineHiddenPackage), each section an anonymous block whose names of the declarations are that package's members,
 * and the session's instance of the package is dropped when a statement starts (so that it is made again).
 */
import type { OracleDatabase } from "../database.ts"
import { OraError } from "../errors.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "../lexer.ts"
import type { PlsqlHost } from "./host.ts"
import { defineHiddenPackage, instancesOf } from "./stored-packages.ts"

/** One timing-point section: when it fires and its body as an anonymous block. */
export interface CompoundSection {
  readonly timing: "BEFORE" | "AFTER" | "INSTEAD OF"
  readonly row: boolean
  readonly body: string
}

/** A compound trigger's sections and the hidden package holding its declarations. */
export interface CompoundParts {
  readonly stateName: string
  readonly sections: ReadonlyArray<CompoundSection>
}

/** The timing point at `k` (`BEFORE STATEMENT`, `AFTER EACH ROW`, `INSTEAD OF EACH ROW`, ...) and its length in tokens. */
const timingPoint = (toks: ReadonlyArray<Tok>, k: number): { timing: CompoundSection["timing"]; row: boolean; length: number } | undefined => {
  const instead = isKw(toks[k], "INSTEAD") && isKw(toks[k + 1], "OF")
  if (!instead && !isKw(toks[k], "BEFORE", "AFTER")) return undefined
  const at = instead ? k + 2 : k + 1
  const timing = instead ? "INSTEAD OF" : (toks[k]!.value as "BEFORE" | "AFTER")
  if (isKw(toks[at], "STATEMENT") && !instead) return { timing, row: false, length: at + 1 - k }
  if (isKw(toks[at], "EACH") && isKw(toks[at + 1], "ROW")) return { timing, row: true, length: at + 2 - k }
  return undefined
}

/**
 * Parses the compound trigger block of `source` starting at its `COMPOUND` token (`at` in `source`'s significant
 * tokens), registers its declarations as the hidden package `ORA$CT$<name>` of `owner`, and gives its sections.
 */
export const defineCompound = (db: OracleDatabase, owner: string, name: string, source: string, at: number): CompoundParts => {
  const toks = significant(tokenize(source))
  if (!isKw(toks[at], "COMPOUND") || !isKw(toks[at + 1], "TRIGGER")) throw new OraError(4079, "invalid trigger specification")
  const starts: Array<number> = []
  let depth = 0
  for (let k = at + 2; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    const point = depth === 0 && !isKw(toks[k - 1], "END") ? timingPoint(toks, k) : undefined
    if (point !== undefined && isKw(toks[k + point.length], "IS")) starts.push(k)
  }
  if (starts.length === 0) throw new OraError(4079, "invalid trigger specification")
  const stateName = `ORA$CT$${name}`
  const declarations = source.slice(toks[at + 2]!.pos, toks[starts[0]!]!.pos)
  const shared = defineHiddenPackage(db, owner, stateName, declarations)
  const sections = starts.map((start, i) => {
    const point = timingPoint(toks, start)!
    const from = start + point.length + 1
    const limit = starts[i + 1] ?? toks.length
    // END timing-point; closes the section
    let end = -1
    for (let k = from; k < limit; k++) if (isKw(toks[k], "END") && timingPoint(toks, k + 1) !== undefined) end = k
    if (end < 0) throw new OraError(4079, "invalid trigger specification")
    const text = source.slice(toks[from]!.pos, toks[end]!.pos)
    const block = `${isKw(toks[from], "BEGIN") ? "" : "DECLARE "}${qualify(text, shared, stateName)}END;`
    return { timing: point.timing, row: point.row, body: block }
  })
  return { stateName, sections }
}

/** `text` with each name of the shared declarations written as the hidden package's member. */
const qualify = (text: string, shared: ReadonlySet<string>, stateName: string): string => {
  const toks = tokenize(text)
  const prev = (k: number) => {
    for (let j = k - 1; j >= 0; j--) if (toks[j]!.kind !== "ws") return toks[j]
    return undefined
  }
  return toks.map((t, k) => ((t.kind === "ident" || t.kind === "qident") && shared.has(t.value) && !isOp(prev(k), ".") ? `${stateName}.${t.text}` : t.text)).join("")
}

/** Drops the session's instance of a compound trigger's state, so that the statement starting now gets a fresh one. */
export const resetCompoundState = (host: PlsqlHost, owner: string, stateName: string): void => {
  instancesOf(host).delete(`${owner}.${stateName}`)
}
