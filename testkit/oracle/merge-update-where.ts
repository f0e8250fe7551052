/**
 * MERGE's `WHEN MATCHED THEN UPDATE SET ... WHERE condition` (SQL Language Reference, "MERGE", merge_update_clause:
 * the update is applied only to the matched rows the condition holds for) written as the engine's
 * `WHEN MATCHED AND (condition) THEN UPDATE SET ...`. A `DELETE WHERE` after it is left as written (the engine refuses it).
 */
import { isKw, isOp, type Tok } from "./lexer.ts"

const ws = (pos: number): Tok => ({ kind: "ws", text: " ", value: " ", pos })
const word = (value: string, pos: number): Tok => ({ kind: "ident", text: value, value, pos })
const op = (value: string, pos: number): Tok => ({ kind: "op", text: value, value, pos })

/** `toks` (a statement's tokens, whitespace included) with a MERGE's update condition moved into its WHEN MATCHED branch. */
export const rewriteMergeUpdateWhere = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const sig = toks.map((t, i) => ({ t, i })).filter(({ t }) => t.kind !== "ws")
  if (!isKw(sig[0]?.t, "MERGE")) return toks
  let depth = 0
  let matched: { then: number; where?: number; end?: number } | undefined
  for (let k = 1; k < sig.length; k++) {
    const t = sig[k]!.t
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth !== 0) continue
    if (isKw(t, "WHEN")) {
      if (matched?.where !== undefined) {
        matched.end = k
        break
      }
      if (isKw(sig[k + 1]?.t, "MATCHED") && isKw(sig[k + 2]?.t, "THEN") && isKw(sig[k + 3]?.t, "UPDATE")) matched = { then: k + 2 }
      else matched = undefined
    } else if (matched !== undefined && matched.where === undefined && isKw(t, "WHERE")) matched.where = k
    else if (matched?.where !== undefined && isKw(t, "DELETE")) return toks
  }
  if (matched?.where === undefined) return toks
  const thenAt = sig[matched.then]!.i
  const whereAt = sig[matched.where]!.i
  const endAt = matched.end === undefined ? toks.length : sig[matched.end]!.i
  const at = toks[thenAt]!.pos
  return [
    ...toks.slice(0, thenAt),
    word("AND", at),
    ws(at),
    op("(", at),
    ...toks.slice(whereAt + 1, endAt),
    op(")", at),
    ws(at),
    ...toks.slice(thenAt, whereAt),
    ws(at),
    ...toks.slice(endAt)
  ]
}
