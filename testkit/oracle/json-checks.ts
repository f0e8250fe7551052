/**
 * IS JSON check constraints enforced: `CHECK (doc IS JSON [STRICT | LAX] [ALLOW | DISALLOW SCALARS] [WITH UNIQUE
 * KEYS])` on a VARCHAR2, CLOB or BLOB column, alone or with other conditions in one CHECK, becomes a DuckDB CHECK
 * calling ora_is_json (json-functions.ts), so that an
 * INSERT or UPDATE of text that is no JSON fails ORA-02290 naming the constraint, as any check constraint does (JSON
 * Developer's Guide, "Creating a Table With a JSON Column": "a check constraint ... ensures that the column contains
 * only well-formed JSON data"). Such a column also takes simple dot notation (json-sql.ts).
 */
import type { TableMeta } from "./catalog.ts"
import type { OracleVersion } from "./errors.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "./lexer.ts"
import { duckIdent } from "./names.ts"
import { isJsonFlags } from "./json-sql.ts"
import { oracleName } from "./translate.ts"

const MODIFIERS: ReadonlyArray<ReadonlyArray<string>> = [["STRICT"], ["LAX"], ["ALLOW", "SCALARS"], ["DISALLOW", "SCALARS"], ["WITH", "UNIQUE", "KEYS"], ["WITHOUT", "UNIQUE", "KEYS"]]

/** The modifiers of an IS JSON test from significant token `k` of `sig` on (`(STRICT)` too), and where they end. */
const modifiersAt = (sig: ReadonlyArray<Tok>, from: number): { readonly words: Array<string>; readonly end: number } => {
  const words: Array<string> = []
  let k = from
  const paren = isOp(sig[k], "(")
  if (paren) k++
  for (;;) {
    const modifier = MODIFIERS.find((m) => m.every((w, d) => isKw(sig[k + d], w)))
    if (modifier === undefined) break
    words.push(modifier.join(" "))
    k += modifier.length
  }
  if (paren) return isOp(sig[k], ")") && words.length > 0 ? { words, end: k + 1 } : { words: [], end: from }
  return { words, end: k }
}

/** Engine text of a condition's tokens from `from` up to `to` (exclusive; undefined: to the condition's end). */
export type ConditionText = (from: Tok, to: Tok | undefined) => string

/**
 * The DuckDB condition enforcing a check condition that holds `col IS [NOT] JSON [modifiers]` tests, alone or with
 * other conditions (`doc IS JSON AND LENGTH(doc) < 100`, `doc IS JSON OR doc IS NULL`): each test becomes a call of
 * ora_is_json, the rest is `segment`'s engine text (the statement's translation), as for any other check; without
 * `segment` the tokens' own text. `column` and `whole` name the tested column when the test is the whole condition
 * (simple dot notation reads such a column); `negated` whether a test is IS NOT JSON. Undefined when the condition has no IS JSON test, or one on another
 * operand than a column (then it is recorded only).
 */
export const enforcedJsonCheck = (condition: ReadonlyArray<Tok>, version: OracleVersion, segment?: ConditionText): { readonly column: string; readonly sql: string; readonly whole: boolean; readonly negated: boolean } | undefined => {
  const sig = significant(condition)
  const textOf: ConditionText =
    segment ??
    ((from, to) => {
      const a = sig.indexOf(from)
      return sig.slice(a, to === undefined ? sig.length : sig.indexOf(to)).map((t) => t.text).join(" ")
    })
  const parts: Array<string> = []
  let rest: Tok | undefined = sig[0]
  let column = ""
  let tests = 0
  let other = false
  let anyNegated = false
  for (let k = 0; k < sig.length; k++) {
    const head = sig[k]!
    const negated = isKw(sig[k + 2], "NOT")
    const jsonAt = k + (negated ? 3 : 2)
    if (isKw(sig[k + 1], "IS") && isKw(sig[jsonAt], "JSON")) {
      if ((head.kind !== "ident" && head.kind !== "qident") || isOp(sig[k - 1], ".")) return undefined
      const { words, end } = modifiersAt(sig, jsonAt + 1)
      if (rest !== undefined && rest !== head) parts.push(textOf(rest, head))
      column = oracleName(head)
      anyNegated ||= negated
      parts.push(`(${negated ? "NOT " : ""}ora_is_json(${duckIdent(column)}, '${isJsonFlags(words, version)}'))`)
      tests++
      rest = sig[end]
      k = end - 1
    } else if (isKw(head, "IS") && (isKw(sig[k + 1], "JSON") || (isKw(sig[k + 1], "NOT") && isKw(sig[k + 2], "JSON")))) return undefined
    else if (!isOp(head, "(") && !isOp(head, ")")) other = true
  }
  if (tests === 0) return undefined
  if (rest !== undefined) parts.push(textOf(rest, undefined))
  return { column, sql: parts.join(" "), whole: tests === 1 && !other, negated: anyNegated }
}

/** The columns of `table` an enabled `col IS JSON` check constraint holds to JSON (simple dot notation reads them). */
export const jsonCheckedColumns = (table: TableMeta | undefined): Array<string> =>
  (table?.constraints ?? []).flatMap((c) => {
    if (c.type !== "C" || c.disabled === true || c.searchCondition === null || !/\bJSON\b/i.test(c.searchCondition)) return []
    const check = enforcedJsonCheck(tokenize(c.searchCondition), "23ai")
    return check === undefined || !check.whole || check.negated ? [] : [check.column]
  })

/** True when `table` has a check constraint enforced through ora_is_json (a DuckDB CHECK calling a TypeScript function). */
export const hasEnforcedJsonCheck = (table: TableMeta): boolean =>
  table.constraints.some((c) => c.type === "C" && c.searchCondition !== null && /\bJSON\b/i.test(c.searchCondition) && enforcedJsonCheck(tokenize(c.searchCondition), "23ai") !== undefined)
