/**
 * Oracle SQL -> DuckDB SQL translation for the accepted subset (see README.md): identifiers through the
 * reversible name mapping, binds to DuckDB positional parameters, '' as NULL, Oracle functions and
 * pseudo-columns, FETCH FIRST/ROWNUM limits, CAST target types, and the select-list shape used to
 * report declared column types.
 *
 * This module is the walk over a statement's tokens (Translator.range / one); the rewrites it applies live by role in
 * translate-numbers.ts (exact NUMBER), translate-datetimes.ts (text datetimes), translate-groups.ts (grouping, DISTINCT
 * and set operations by instant), translate-expression.ts (arithmetic and concatenation), translate-calls.ts
 * (identifiers and function calls) and translate-query.ts (a top-level query's select list); they get the translator
 * as a TranslatorCore (translate-core.ts).
 */
import { isKw, isOp, matchParen, sqlString, type Tok } from "./lexer.ts"
import { ora } from "./errors.ts"
import { encodeName, quoteDuck } from "./names.ts"
import type { InstantGrouping } from "./datetime-groups.ts"
import { type BinaryKind, binaryKindOf, headingOf, itemHeading, oracleName } from "./expression-names.ts"
import { identOut, isDuckOnlyReservedName, isSeparator, NOT_ALIAS, numberLiteral } from "./translate-literals.ts"
import { TranslatorOperands } from "./translate-operands.ts"
import { exactNumberParts } from "./translate-numbers.ts"
import { textDatetimeAtZone, textDatetimeCaseParts, textDatetimeInsertTargets, textDatetimeParts } from "./translate-datetimes.ts"
import { groupedByInstant, groupedExpression, subqueryDistinctByInstant, subquerySetOperationByInstant, zonedWindowCall } from "./translate-groups.ts"
import { expression } from "./translate-expression.ts"
import { ident } from "./translate-calls.ts"
import { datetimeLikeParts } from "./datetime-character-contexts.ts"
import { asTextDatetime } from "./translate-datetime-sql.ts"
import type { Part, TextDatetimeKind, TranslateContext } from "./translate-types.ts"
import type { TranslatorCore } from "./translate-core.ts"
import { isRowidComparedBind } from "./rowid-literals.ts"

export { type BinaryKind, binaryKindOf, headingOf, oracleName }
export { convertDateFormat } from "./translate-datetime-sql.ts"
export { identOut } from "./translate-literals.ts"
export { translateQuery } from "./translate-query.ts"
export type { ExactIntervalKind, ExactIntervals, FromRef, QueryShape, RowLockClause, SelectItem, TextDatetimeKind, TranslateContext } from "./translate-types.ts"

/**
 * Translates a token list (significant tokens with their "space before" flags) to DuckDB SQL text.
 */
export class Translator extends TranslatorOperands implements TranslatorCore {
  /** Translates tokens [from, to), rewriting Oracle operator semantics where needed (see `expression`). */
  range(from: number, to: number): string {
    if (!this.needsOperatorRewrite(from, to) && !this.mentionsExactNumber(from, to) && this.exactOrderItems.size === 0 && this.datetimeOrderItems.size === 0 && !this.mentionsTextDatetime(from, to) && !this.mentionsAtZone(from, to))
      return this.plain(from, to)
    // split at top-level separators; rewrite the arithmetic/concatenation segments between them
    const toks = this.toks
    const parts: Array<Part> = []
    let segStart = from
    let depth = 0
    // with exact NUMBER columns about, a `CASE ... END` inside the range is one operand (its results may be exact
    // NUMBERs: exactCaseParts), split into its WHEN / THEN / ELSE parts only when it is the whole range
    // likewise with text datetime columns about (textDatetimeCaseParts: its results may be text datetimes)
    const caseUnits = (this.ctx.exactNumberColumns?.size ?? 0) > 0 || (this.ctx.textDatetimeColumns?.size ?? 0) > 0
    const wholeCase = caseUnits && this.caseEnd(from, to) === to
    const flushSegment = (end: number) => {
      if (end <= segStart) return
      const grouped = groupedExpression(this, segStart, end)
      if (grouped !== undefined) {
        parts.push({ text: grouped, from: segStart, to: end, separator: false })
        return
      }
      const caseEnd = caseUnits && !(wholeCase && segStart === from) ? this.caseEnd(segStart, end) : -1
      const alias = this.toks[end - 1]
      // the head `CASE operand` of the whole CASE: its operand rendered on its own (as a unit of an expression the head
      // would be this CASE again, rendered by this range without end)
      const caseHead = wholeCase && segStart === from && isKw(toks[from], "CASE")
      const text = caseHead
        ? end > from + 1 ? `CASE ${this.range(from + 1, end)}` : "CASE"
        : isOp(toks[segStart], "(") && matchParen(toks, segStart) === end - 1
          ? (subquerySetOperationByInstant(this, segStart)?.[0] ?? `(${this.parenthesisedColumn(segStart + 1, end - 1) ?? this.range(segStart + 1, end - 1)})`)
          : isOp(toks[segStart], "(") && isKw(toks[segStart + 1], "SELECT", "WITH") && matchParen(toks, segStart) === end - 2 && (alias?.kind === "ident" || alias?.kind === "qident") && !NOT_ALIAS.has(alias.value)
            ? `${subquerySetOperationByInstant(this, segStart)?.[0] ?? `(${this.range(segStart + 1, end - 2)})`} ${identOut(alias)}`
          : caseEnd === end
            ? this.range(segStart, end)
            : caseEnd === end - 1 && alias !== undefined && (alias.kind === "ident" || alias.kind === "qident") && !NOT_ALIAS.has(alias.value)
              ? `${this.range(segStart, end - 1)} ${identOut(alias)}`
              : this.needsOperatorRewrite(segStart, end) || this.mentionsAtZone(segStart, end)
            ? (expression(this, segStart, end) ?? this.aliasedExpression(segStart, end) ?? this.plain(segStart, end))
            : this.plain(segStart, end)
      parts.push({ text, from: segStart, to: end, separator: false })
    }
    for (let i = from; i < to; i++) {
      const t = toks[i]!
      const caseEnd = depth === 0 && !(wholeCase && i === from) ? this.caseEnd(i, to) : -1
      // a CASE that is an operand of an operator (`'a' || CASE ... END`) is one unit of its segment, too
      if (caseEnd > 0 && (caseUnits || this.isOperandAt(i, caseEnd))) i = caseEnd - 1
      else if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      // `f(...) OVER (...)` and `LISTAGG(...) WITHIN GROUP (...)` stay one segment: the call renders its window or order
      // `REPLACE(` is the function (a separator of `CREATE OR REPLACE` otherwise)
      else if (depth === 0 && isSeparator(t) && !(isKw(t, "REPLACE") && isOp(toks[i + 1], "(")) && !isDuckOnlyReservedName(toks, i) && !(isKw(t, "OVER", "WITHIN") && isOp(toks[i - 1], ")")) && !(isKw(t, "GROUP") && isKw(toks[i - 1], "WITHIN"))) {
        flushSegment(i)
        // a separator may start a construct of several tokens (FETCH FIRST n ROWS ONLY); one before a parenthesis
        // (`IN (`, `FROM (`) is a keyword, not a call
        const [text, next] = t.kind === "ident" && isOp(toks[i + 1], "(") ? [t.value === "MINUS" ? "EXCEPT" : t.text, i + 1] : this.one(i, to)
        parts.push({ text, from: i, to: next, separator: true })
        i = next - 1
        segStart = next
      }
    }
    flushSegment(to)
    exactNumberParts(this, parts)
    textDatetimeCaseParts(this, parts)
    textDatetimeAtZone(this, parts)
    textDatetimeInsertTargets(this, parts)
    textDatetimeParts(this, parts)
    datetimeLikeParts(this, parts)
    this.nestedHeadings(parts)
    return parts
      .map((p) => p.text)
      .filter((text) => text.length > 0)
      .join(" ")
  }

  /**
   * Unaliased expressions of a parenthesised query's (first) select list named by their Oracle headings (`v*2` as
   * "V*2"), as the top-level query's are (translateQuery), so that the enclosing query can name them; columns keep
   * their own names.
   */
  nestedHeadings(parts: Array<Part>): void {
    const toks = this.toks
    const select = parts.findIndex((q) => q.separator && isKw(toks[q.from], "SELECT"))
    if (select < 0 || !isOp(toks[parts[select]!.from - 1], "(")) return
    for (let j = select + 1; j < parts.length; j++) {
      const p = parts[j]!
      const after = parts[j + 1]
      if (p.separator) {
        if (isOp(toks[p.from], ",") || isKw(toks[p.from], "DISTINCT", "UNIQUE", "ALL")) continue
        return
      }
      if (after === undefined || !after.separator || !(isOp(toks[after.from], ",") || isKw(toks[after.from], "FROM"))) continue
      const last = toks[p.to - 1]!
      const before = toks[p.to - 2]
      const aliased = p.to - p.from >= 2 && (last.kind === "ident" || last.kind === "qident") && !NOT_ALIAS.has(last.value) && !isOp(before, ".") && (before?.kind !== "op" || isOp(before, ")"))
      if (p.text.length === 0 || aliased || this.columnNameAt(p.from, p.to) !== undefined || isOp(last, "*") || / AS (?:"(?:[^"]|"")*"|[A-Za-z_][\w$#]*)$/.test(p.text)) continue
      const heading = itemHeading(toks.slice(p.from, p.to))
      if (heading !== "") p.text = `${p.text} AS ${quoteDuck(encodeName(heading))}`
    }
  }

  /**
   * A text datetime column in parentheses that is a select item of its own, `SELECT (t)` (tokens [from, to) inside the
   * parentheses): typed as its kind, so that it is described as one.
   */
  parenthesisedColumn(from: number, to: number): string | undefined {
    const kind = this.columnNameAt(from, to) === undefined ? undefined : this.textDatetimeAt(from, to)
    if (kind === undefined) return undefined
    for (let k = from - 2, depth = 0; k >= 0; k--) {
      const t = this.toks[k]!
      if (isOp(t, ")")) depth++
      else if (isOp(t, "(") && --depth < 0) return undefined
      else if (depth === 0 && isKw(t, "SELECT")) return asTextDatetime(this.range(from, to), kind)
      else if (depth === 0 && isKw(t, "FROM", "WHERE", "BY", "HAVING", "ON", "SET", "VALUES", "INTO", "USING", "RETURNING", "RETURN", "UNION", "INTERSECT", "MINUS", "EXCEPT", "CONNECT", "START", "SETS")) return undefined
    }
    return undefined
  }

  /** `expression alias` (a select item aliased without AS), when the expression alone is one `expression` rewrites. */
  aliasedExpression(from: number, to: number): string | undefined {
    const alias = this.toks[to - 1]
    if (to - from < 2 || alias === undefined || (alias.kind !== "ident" && alias.kind !== "qident") || NOT_ALIAS.has(alias.value)) return undefined
    const text = expression(this, from, to - 1)
    return text === undefined ? undefined : `${text} ${identOut(alias)}`
  }

  /** Select-list items that are text datetimes, by the position or name ORDER BY may call them (their expression). */
  datetimeOrderItems: ReadonlyMap<string, { readonly text: string; readonly kind: TextDatetimeKind }> = new Map()

  /** Sets the select list's text datetime items that ORDER BY may name by position or alias (see translateQuery). */
  orderByDatetimeItems(items: ReadonlyMap<string, { readonly text: string; readonly kind: TextDatetimeKind }>): void {
    this.datetimeOrderItems = items
  }

  /** Select-list positions and names of exact NUMBER columns, by what ORDER BY may call them (their column text). */
  exactOrderItems: ReadonlyMap<string, string> = new Map()

  /** Sets the select list's exact NUMBER columns that ORDER BY may name by position or alias (see translateQuery). */
  orderByExactItems(items: ReadonlyMap<string, string>): void {
    this.exactOrderItems = items
  }

  /** Token-by-token translation. */
  plain(from: number, to: number): string {
    let out = ""
    let i = from
    while (i < to) {
      const [text, next] = this.one(i, to)
      if (out.length > 0 && (this.spaced[i] ?? true)) out += " "
      out += text
      i = next
    }
    return out
  }

  one(i: number, to: number): [string, number] {
    const grouped = groupedByInstant(this, i) ?? subqueryDistinctByInstant(this, i) ?? subquerySetOperationByInstant(this, i)
    if (grouped !== undefined) return grouped
    const toks = this.toks
    const t = toks[i]!
    switch (t.kind) {
      case "str":
        return [t.value.length === 0 ? "NULL" : sqlString(t.value), i + 1]
      case "num":
        // 1.5f / 2.5d are BINARY_FLOAT / BINARY_DOUBLE literals
        return [/[fF]$/.test(t.text) ? `CAST(${t.value} AS FLOAT)` : /[dD]$/.test(t.text) ? `CAST(${t.value} AS DOUBLE)` : numberLiteral(t.value), i + 1]
      case "bind":
        // evaluated once, before any row is read, as Oracle converts the bind (rowid-literals.ts)
        return [isRowidComparedBind(toks, i) ? `(SELECT ora_rowid_text(${this.ctx.bind(t.value, t)}))` : this.ctx.bind(t.value, t), i + 1]
      case "qident":
        // a quoted sequence name: "SEQ".NEXTVAL, "OWNER"."SEQ".CURRVAL
        if (isOp(toks[i + 1], ".") && (isKw(toks[i + 2], "NEXTVAL", "CURRVAL") || ((toks[i + 2]?.kind === "ident" || toks[i + 2]?.kind === "qident") && isOp(toks[i + 3], ".") && isKw(toks[i + 4], "NEXTVAL", "CURRVAL"))))
          return ident(this, i, to)
        return [identOut(t), i + 1]
      case "op":
        if (t.value === "(" && isOp(toks[i + 1], "+") && isOp(toks[i + 2], ")"))
          throw ora.unimplemented("Oracle outer join operator (+)")
        return [t.value, i + 1]
      case "ws":
        return [" ", i + 1]
      case "ident":
        return this.windowed(ident(this, i, to), i)
    }
  }

  instantGrouping: InstantGrouping | undefined

  /** Starts of the grouped expressions being rendered by {@link groupedExpression} (their own rendering is plain). */
  readonly groupedRendering = new Set<number>()

  /** A rendered call `[text, next]` with the `OVER (...)` window that follows it, if any. */
  windowed([text, next]: [string, number], at: number): [string, number] {
    if (!isKw(this.toks[next], "OVER") || !isOp(this.toks[next + 1], "(") || !isOp(this.toks[next - 1], ")")) return [text, next]
    const close = matchParen(this.toks, next + 1)
    const window = `OVER (${this.range(next + 2, close)})`
    return [zonedWindowCall(this, at, text, window) ?? `${text} ${window}`, close + 1]
  }

  args(open: number): { parts: Array<[number, number]>; close: number } {
    const close = matchParen(this.toks, open)
    if (close < 0) throw ora.missingExpression()
    const parts: Array<[number, number]> = []
    let depth = 0
    let start = open + 1
    for (let k = open + 1; k < close; k++) {
      const t = this.toks[k]!
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && isOp(t, ",")) {
        parts.push([start, k])
        start = k + 1
      }
    }
    if (close > open + 1) parts.push([start, close])
    return { parts, close }
  }
}

/** Builds a translator over significant tokens, remembering where whitespace separated them. */
export const makeTranslator = (all: ReadonlyArray<Tok>, ctx: TranslateContext): { toks: Array<Tok>; tr: Translator } => {
  const toks: Array<Tok> = []
  const spaced: Array<boolean> = []
  let pendingSpace = false
  for (const t of all) {
    if (t.kind === "ws") {
      pendingSpace = true
      continue
    }
    toks.push(t)
    spaced.push(pendingSpace)
    pendingSpace = false
  }
  return { toks, tr: new Translator(toks, spaced, ctx) }
}
