/**
 * COALESCE of a character first argument and a datetime: ORA-00932 when the statement is parsed. COALESCE converts
 * only among numeric types; other arguments must be of the first one's data type family (SQL Language Reference,
 * "COALESCE"), where NVL converts its second argument to the first one's type instead.
 */
import { ora } from "./errors.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { TextDatetimeKind } from "./translate-types.ts"

/** Throws ORA-00932 when the first of the COALESCE arguments `parts` is character data and a later one a datetime (`kinds`: each one's text datetime kind). */
export const coalesceFamilyCheck = (tr: TranslatorCore, parts: ReadonlyArray<readonly [number, number]>, kinds: ReadonlyArray<TextDatetimeKind | undefined>): void => {
  const first = parts[0]
  if (first === undefined || !tr.isCharacterAt(first[0], first[1])) return
  parts.forEach(([from, to], k) => {
    if (k === 0) return
    const operand = kinds[k] === undefined ? tr.datetimeOperandAt(from, to) : undefined
    // (the detail's wording for a TIMESTAMP WITH TIME ZONE argument is unconfirmed)
    const type = kinds[k] === "zoned" ? "TIMESTAMP WITH TIME ZONE" : kinds[k] === "wall" || operand === "timestamp" ? "TIMESTAMP" : operand === "date" ? "DATE" : undefined
    if (type !== undefined) throw ora.inconsistentTypes(`expected CHAR got ${type}`)
  })
}
