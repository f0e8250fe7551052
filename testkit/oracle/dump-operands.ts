/**
 * What DUMP (and VSIZE, which reads DUMP's length) needs to know of its operand beyond the engine's storage type: a
 * CHAR / NCHAR column is Oracle's type 96 (stored as VARCHAR like VARCHAR2's type 1), a NUMBER column without
 * precision is type 2 with NUMBER's internal bytes (stored as its decimal text): SQL Language Reference, "DUMP", and
 * "Data Types" (the internal type codes). The columns it knows are session-translate.ts's `blankPaddedColumnsOf`.
 */
import { isOp } from "./lexer.ts"
import { oracleName } from "./expression-names.ts"
import type { TranslatorCore } from "./translate-core.ts"

/** Whether the call argument [from, to) is a reference to a CHAR / NCHAR column (`c`, `q.c`) of the statement's tables. */
export const isBlankPaddedColumn = (tr: TranslatorCore, from: number, to: number): boolean => {
  const toks = tr.toks
  const last = toks[to - 1]
  if (last === undefined || (last.kind !== "ident" && last.kind !== "qident")) return false
  if (!(to === from + 1 || (to === from + 3 && isOp(toks[from + 1], ".")))) return false
  return tr.ctx.blankPaddedColumns?.has(oracleName(last)) === true
}
