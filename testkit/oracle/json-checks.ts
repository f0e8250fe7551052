/**
 * IS JSON check constraints enforced: `CHECK (doc IS JSON [STRICT | LAX] [ALLOW | DISALLOW SCALARS] [WITH UNIQUE
 * KEYS])` on a VARCHAR2, CLOB or BLOB column becomes a DuckDB CHECK calling ora_is_json (json-functions.ts), so that an
 * INSERT or UPDATE of text that is no JSON fails ORA-02290 naming the constraint, as any check constraint does (JSON
 * Developer's Guide, "Creating a Table With a JSON Column": "a check constraint ... ensures that the column contains
 * only well-formed JSON data"). Such a column also takes simple dot notation (json-sql.ts).
 */
import type { TableMeta } from "./catalog.ts"
import type { OracleVersion } from "./errors.ts"
import { isKw, isOp, tokenize, type Tok } from "./lexer.ts"
import { duckIdent } from "./names.ts"
import { isJsonFlags } from "./json-sql.ts"
import { oracleName } from "./translate.ts"

const MODIFIERS: ReadonlyArray<ReadonlyArray<string>> = [["STRICT"], ["LAX"], ["ALLOW", "SCALARS"], ["DISALLOW", "SCALARS"], ["WITH", "UNIQUE", "KEYS"], ["WITHOUT", "UNIQUE", "KEYS"]]

/** The column an `IS [NOT] JSON` condition tests and the DuckDB condition enforcing it; undefined for any other shape. */
export const enforcedJsonCheck = (condition: ReadonlyArray<Tok>, version: OracleVersion): { readonly column: string; readonly sql: string } | undefined => {
  // parentheses around the modifiers (`IS JSON (STRICT)`) are dropped
  const sig = condition.filter((t) => t.kind !== "ws" && !isOp(t, "(") && !isOp(t, ")"))
  const head = sig[0]
  if (head === undefined || (head.kind !== "ident" && head.kind !== "qident") || !isKw(sig[1], "IS")) return undefined
  const negated = isKw(sig[2], "NOT")
  let k = negated ? 3 : 2
  if (!isKw(sig[k], "JSON")) return undefined
  k++
  const words: Array<string> = []
  while (k < sig.length) {
    const modifier = MODIFIERS.find((m) => m.every((w, d) => isKw(sig[k + d], w)))
    if (modifier === undefined) return undefined
    words.push(modifier.join(" "))
    k += modifier.length
  }
  const column = oracleName(head)
  return { column, sql: `${negated ? "NOT " : ""}ora_is_json(${duckIdent(column)}, '${isJsonFlags(words, version)}')` }
}

/** The columns of `table` an enabled `col IS JSON` check constraint holds to JSON (simple dot notation reads them). */
export const jsonCheckedColumns = (table: TableMeta | undefined): Array<string> =>
  (table?.constraints ?? []).flatMap((c) => {
    if (c.type !== "C" || c.disabled === true || c.searchCondition === null || !/\bJSON\b/i.test(c.searchCondition)) return []
    const check = enforcedJsonCheck(tokenize(c.searchCondition), "23ai")
    return check === undefined || check.sql.startsWith("NOT ") ? [] : [check.column]
  })

/** True when `table` has a check constraint enforced through ora_is_json (a DuckDB CHECK calling a TypeScript function). */
export const hasEnforcedJsonCheck = (table: TableMeta): boolean =>
  table.constraints.some((c) => c.type === "C" && c.searchCondition !== null && /\bJSON\b/i.test(c.searchCondition) && enforcedJsonCheck(tokenize(c.searchCondition), "23ai") !== undefined)
