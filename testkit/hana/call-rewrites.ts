/**
 * Helpers of the statement-text rewrites that turn HANA calls with their own syntax (regexpr-functions.ts,
 * misc-functions.ts) into plain calls: an unaliased call that is a whole select item keeps HANA's column name.
 */
import { upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v

/** True when tokens[start … end] is a whole select item without an alias (its column is named after its text). */
export const unaliasedItem = (tokens: readonly Token[], start: number, end: number): boolean => {
  const before = tokens[start - 1]
  const after = tokens[end + 1]
  if (!(isOp(before, ",") || ["SELECT", "DISTINCT", "ALL"].includes(upper(before)))) return false
  if (!(after === undefined || isOp(after, ",") || isOp(after, ")") || upper(after) === "FROM")) return false
  let depth = 0
  for (let j = start - 1; j >= 0; j--) {
    const t = tokens[j]!
    if (isOp(t, ")")) depth++
    else if (isOp(t, "(") && depth-- === 0) return false
    else if (depth === 0 && upper(t) === "SELECT") return true
    else if (depth === 0 && ["FROM", "WHERE", "BY", "HAVING", "ON", "SET", "VALUES"].includes(upper(t))) return false
  }
  return false
}

/** HANA's name of an unaliased expression column, its unquoted words upper-cased (select-items.ts), as a quoted alias. */
export const columnName = (text: string): string =>
  `"${text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|[\p{L}_#$][\p{L}\p{N}_#$]*/gu, (m) => (m.startsWith("'") || m.startsWith('"') ? m : m.toUpperCase())).replace(/"/g, '""')}"`

