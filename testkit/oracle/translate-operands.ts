/**
 * What the tokens of a statement are to the translator: column references by the types the statement's tables give
 * them (exact NUMBER, text datetime, interval, LOCAL TIME ZONE, character, DATE), binds by the types the context
 * knows, and whether a range needs the operator rewrites at all. The base of translate.ts's Translator.
 */
import { isCharReference } from "./char-references.ts"
import { findTopLevel, isKw, isOp, matchParen, openingParen, type Tok } from "./lexer.ts"
import { type BinaryKind, oracleName } from "./expression-names.ts"
import { type CallArgument, CHECKED_RANGE, EXACT_RESULT, isExactNumeric } from "./number-sql.ts"
import { binaryKindOf } from "./expression-names.ts"
import { exactIntervalOfText } from "./interval-exprs.ts"
import { parseOracleType, type OraType } from "./types.ts"
import { distinctItems, isDateLiteralEnd, isDateUnit, isDateWord, numberLiteral, timestampLiteral } from "./translate-literals.ts"
import { textDatetimeOfText } from "./translate-datetime-sql.ts"
import { isZonedValue } from "./zoned-aliases.ts"
import { textDatetimeKindOf } from "./zoned-references.ts"
import { blockPrecisionOf } from "./timestamp-precisions.ts"
import { type DatetimeOperand, datetimeOperandOf, operandStartBefore } from "./datetime-operand-types.ts"
import type { ExactIntervalKind, Part, TextDatetimeKind, TranslateContext } from "./translate-types.ts"

/** Calls whose result is a text datetime when their argument mentions one (see closesDatetimeCall). */
const DATETIME_CALLS = ["MIN", "MAX", "FIRST_VALUE", "LAST_VALUE", "LAG", "LEAD", "NVL", "COALESCE", "GREATEST", "LEAST"] as const

/** Operand predicates over a statement's significant tokens (`spaced`: whether whitespace preceded each) and its context. */
export class TranslatorOperands {
  constructor(
    readonly toks: ReadonlyArray<Tok>,
    readonly spaced: ReadonlyArray<boolean>,
    readonly ctx: TranslateContext
  ) {}

  /** The BINARY_DOUBLE / BINARY_FLOAT columns of the statement's tables (see {@link binaryKindOf}). */
  get binaryColumns(): ReadonlyMap<string, BinaryKind> | undefined {
    return this.ctx.binaryColumns
  }

  /** The zone of CURRENT_TIMESTAMP (the session's) and SYSTIMESTAMP (the database's), when known. */
  zoneOf(word: "CURRENT_TIMESTAMP" | "SYSTIMESTAMP"): string | undefined {
    return word === "SYSTIMESTAMP" ? this.ctx.dbTimeZone : this.ctx.sessionTimeZone
  }

  /** Whether tokens [from, to) are joined to a neighbour by an arithmetic or concatenation operator. */
  isOperandAt(from: number, to: number): boolean {
    const operator = (t: Tok | undefined) => isOp(t, "||") || isOp(t, "+") || isOp(t, "-") || isOp(t, "*") || isOp(t, "/")
    return operator(this.toks[from - 1]) || operator(this.toks[to])
  }

  /** The index after the END of the `CASE` at `i` (before `to`), or -1 when `i` starts no complete CASE expression. */
  caseEnd(i: number, to: number): number {
    if (!isKw(this.toks[i], "CASE")) return -1
    let depth = 0
    for (let k = i; k < to; k++) {
      if (isKw(this.toks[k], "CASE")) depth++
      else if (isKw(this.toks[k], "END") && --depth === 0) return k + 1
    }
    return -1
  }

  /** True when segment `j` lies between a SELECT and its FROM/INTO at this level. */
  inSelectList(parts: ReadonlyArray<Part>, j: number): boolean {
    for (let k = j - 1; k >= 0; k--) {
      const q = parts[k]!
      if (!q.separator) continue
      const t = this.toks[q.from]!
      if (isKw(t, "SELECT")) return true
      if (!isOp(t, ",") && !isKw(t, "DISTINCT", "UNIQUE", "ALL")) return false
    }
    return false
  }

  /**
   * True when segment `p` is an exact NUMBER: a column (also in parentheses, `(n)`, which is the same value) or a
   * result held as one.
   */
  isExactPart(p: Part): boolean {
    return this.isExactColumnWithin(p.from, p.to) || EXACT_RESULT.test(p.text)
  }

  /** True when tokens [from, to) are an exact NUMBER column reference, also in parentheses (`(n)`, `((t.n))`). */
  isExactColumnWithin(from: number, to: number): boolean {
    while (isOp(this.toks[from], "(") && matchParen(this.toks, from) === to - 1) [from, to] = [from + 1, to - 1]
    return this.exactColumnAt(from, to) !== undefined
  }

  /** The column when tokens [from, to) are one (possibly qualified) exact NUMBER column reference. */
  exactColumnAt(from: number, to: number): { readonly qualifier?: string; readonly column: string } | undefined {
    const names = this.ctx.exactNumberColumns
    const toks = this.toks
    const last = toks[to - 1]
    if (names === undefined || to <= from || last === undefined || (last.kind !== "ident" && last.kind !== "qident") || isOp(toks[to], "(")) return undefined
    for (let k = from; k < to - 1; k += 2)
      if (!(toks[k]?.kind === "ident" || toks[k]?.kind === "qident") || !isOp(toks[k + 1], ".")) return undefined
    if (!names.has(oracleName(last)) || isCharReference(last)) return undefined
    return to - from >= 3 ? { qualifier: oracleName(toks[to - 3]!), column: oracleName(last) } : { column: oracleName(last) }
  }

  /**
   * True when tokens [from, to) are an expression of exact numbers only (number-sql.ts isExactNumeric) over the
   * statement's NUMBER columns: Oracle divides and averages such values on every digit.
   */
  exactNumericRange(from: number, to: number): boolean {
    const { binaryColumns, dateColumns, textDatetimeColumns, boundedNumberColumns, exactNumberColumns } = this.ctx
    return isExactNumeric(this.toks, from, to, (t) => {
      if (t.kind === "bind") {
        const param = this.ctx.numberBind === undefined ? undefined : /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
        return param !== undefined && this.ctx.numberBind?.(Number(param)) === true
      }
      const name = oracleName(t)
      if (isCharReference(t)) return false
      if (binaryColumns?.has(name) === true || dateColumns?.has(name) === true || textDatetimeKindOf(t, textDatetimeColumns) !== undefined) return false
      return boundedNumberColumns?.has(name) === true || exactNumberColumns?.has(name) === true
    })
  }

  /** True when tokens [from, to) are one bind whose parameter `test` holds for. */
  bindIs(test: ((param: number) => boolean) | undefined, from: number, to: number): boolean {
    const t = this.toks[from]
    if (test === undefined || to !== from + 1 || t?.kind !== "bind") return false
    const param = /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
    return param !== undefined && test(Number(param))
  }

  /** True when the range names an exact NUMBER column anywhere, or has a literal held as an exact NUMBER. */
  mentionsExactNumber(from: number, to: number): boolean {
    const names = this.ctx.exactNumberColumns
    for (let i = from; i < to; i++) {
      const t = this.toks[i]!
      if (t.kind === "num" && !/[fFdD]$/.test(t.text) && numberLiteral(t.value).startsWith("ora_number(")) return true
      if ((t.kind === "ident" || t.kind === "qident") && names?.has(oracleName(t)) === true && !isOp(this.toks[i + 1], "(") && !isCharReference(t)) return true
      if (this.isExactConversion(i)) return true
      // a stored function's NUMBER result (plsql/sql-functions.ts)
      if (isKw(t, "ORA_PLSQL_CALL_NUMBER") && isOp(this.toks[i + 1], "(")) return true
      // a PL/SQL NUMBER held as decimal text (plsql/value-kinds.ts), which DuckDB would read as a string
      if (t.kind === "bind" && this.bindIs(this.ctx.exactBind, i, i + 1)) return true
    }
    return false
  }

  /** True when tokens at `i` start `TO_NUMBER(x)` or `CAST(x AS NUMBER)`: exact NUMBER values (number-functions.ts). */
  isExactConversion(i: number): boolean {
    const t = this.toks[i]
    if (!isKw(t, "TO_NUMBER", "CAST") || !isOp(this.toks[i + 1], "(")) return false
    const close = matchParen(this.toks, i + 1)
    if (t!.value === "CAST") return isKw(this.toks[close - 1], "NUMBER") && isKw(this.toks[close - 2], "AS")
    return findTopLevel(this.toks, i + 2, close, (x) => isOp(x, ",")) < 0
  }

  /** True when the range has a `||` or `/` operator, or `+`/`-` next to an obvious date value, at its top level. */
  needsOperatorRewrite(from: number, to: number): boolean {
    const toks = this.toks
    let depth = 0
    let arithmetic = false
    for (let i = from; i < to; i++) {
      const t = toks[i]!
      // a parenthesised operand holding date arithmetic (`(d - DATE '2024-01-01') * 24`): its value is a number or
      // an interval only expression() knows, so the whole range goes through it; a scalar subquery holding it
      // (`(SELECT d + 1 FROM t)`) is translated by range() too, which plain() would copy as it is
      const call = i > from && (toks[i - 1]!.kind === "ident" || toks[i - 1]!.kind === "qident")
      if (depth === 0 && isOp(t, "(") && !call && this.needsOperatorRewrite(i + 1, matchParen(toks, i))) return true
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && t.kind === "op" && (t.value === "||" || t.value === "/")) return true
      if (depth === 0 && t.kind === "op" && (t.value === "+" || t.value === "-" || t.value === "*")) {
        arithmetic = true
        // a character operand, converted to NUMBER (isCharacterAt)
        if (i > from && (this.isCharacterAt(i - 1, i) || this.isCharacterAt(i + 1, i + 2))) return true
      }
      if (
        depth === 0 &&
        t.kind === "op" &&
        (t.value === "+" || t.value === "-") &&
        (isDateWord(toks[i - 1]) || isDateWord(toks[i + 1]) || isDateLiteralEnd(toks, i - 1) || this.isDateColumnTok(toks[i - 1]) || this.isDateColumnTok(toks[i + 1]) ||
          this.bindIs(this.ctx.dateBind, i - 1, i) || this.bindIs(this.ctx.dateBind, i + 1, i + 2))
      )
        return true
      // an operand a DATE or TIMESTAMP only by its operands (`(SELECT MAX(d) FROM t) + 1`, `CASE ... END - d`)
      if (depth === 0 && (isOp(t, "+") || isOp(t, "-")) && i > from && i + 1 < to) {
        const start = operandStartBefore(toks, i, from)
        if ((start >= from && this.datetimeOperandAt(start, i) !== undefined) || this.datetimeOperandAt(i + 1, this.unitEnd(i + 1, to)) !== undefined) return true
      }
      // a call giving a DATE (TRUNC / ROUND of a date, CAST to DATE: `TRUNC(SYSDATE) - 7`) or a text datetime
      // (`MAX(t) - MIN(t)` of zoned values): computed by expression(), which knows both by their translation
      if (depth === 0 && t.kind === "op" && (t.value === "+" || t.value === "-") && (this.closesDatetimeCall(i - 1) || [i + 1, i + 2].some((k) => isOp(toks[k], "(") && this.closesDatetimeCall(matchParen(toks, k)))))
        return true
      // arithmetic on SUM / AVG of a difference (`SUM(b - a) * 2`): a TIMESTAMP difference summed is an interval,
      // which expression() knows by the call's translation
      if (depth === 0 && t.kind === "op" && "+-*".includes(t.value) && (this.closesDifferenceSum(i - 1) || (isKw(toks[i + 1], "SUM", "AVG") && isOp(toks[i + 2], "(") && this.closesDifferenceSum(matchParen(toks, i + 2))))) return true
      // a negated aggregate of an exact interval column (`-MAX(col)`)
      if (depth === 0 && isOp(t, "-") && isKw(toks[i + 1], "MIN", "MAX", "SUM", "AVG") && isOp(toks[i + 2], "(") && this.isExactIntervalTok(toks[i + 3])) return true
      // arithmetic on an exact interval column (interval-exprs.ts)
      // the difference of two datetimes cast WITH TIME ZONE (local-zone-arithmetic.ts): an interval of the instants
      if (depth === 0 && isOp(t, "-") && isOp(toks[i - 1], ")") && isKw(toks[i + 1], "CAST") && isKw(toks[i - 2], "ZONE")) return true
      // ... also on a parenthesised or CAST operand holding one (`(d9 + d6) * 2`, interval-compounds.ts)
      if (depth === 0 && t.kind === "op" && "+-*".includes(t.value) && (isOp(toks[i - 1], ")") || isOp(toks[i + 1], "(") || isKw(toks[i + 1], "CAST")) && toks.slice(from, to).some((x) => this.isExactIntervalTok(x))) return true
      // a YEAR TO MONTH interval times a number (translate-expression.ts computes it on the months)
      if (depth === 0 && isOp(t, "*") && toks.slice(from, to).some((x) => isKw(x, "YEAR", "MONTH") || ((x.kind === "ident" || x.kind === "qident") && this.ctx.intervalColumnTypes?.get(x.value)?.kind === "intervalym"))) return true
      if (depth === 0 && t.kind === "op" && "+-*".includes(t.value) && (this.isExactIntervalTok(toks[i - 1]) || this.isExactIntervalTok(toks[i + 1]) || this.bindIs(this.ctx.exactSecondsBind, i - 1, i) || this.bindIs(this.ctx.exactSecondsBind, i + 1, i + 2))) return true
    }
    // a nested quotient or AVG may be an exact NUMBER (exactNumericRange) the arithmetic must compute on, and so is a
    // call computed in decimal on any NUMBER (number-sql.ts CHECKED_RANGE: `4 * ATAN(1)`)
    return arithmetic && (this.mentionsExactNumber(from, to) || toks.slice(from, to).some((t, k) => isOp(t, "/") || (isKw(t, "AVG") && isOp(toks[from + k + 1], "(")) || (t.kind === "ident" && CHECKED_RANGE.has(t.value) && isOp(toks[from + k + 1], "("))))
  }

  /**
   * True when token `at` closes a call that may give a datetime the translator does not know by its name: TRUNC,
   * ROUND or CAST (a DATE), or MIN / MAX / an analytic of a text datetime column (`MAX(t)`).
   */
  closesDatetimeCall(at: number): boolean {
    const toks = this.toks
    if (!isOp(toks[at], ")")) return false
    const open = openingParen(toks, at)
    // a scalar subquery of a zoned value (`(SELECT MIN(t) FROM u) - INTERVAL '1' DAY`)
    if (isKw(toks[open + 1], "SELECT")) return this.textDatetimeAt(open, at + 1) !== undefined
    const name = toks[open - 1]
    if (isKw(name, "TRUNC", "ROUND", "CAST")) return true
    return isKw(name, ...DATETIME_CALLS) && this.mentionsTextDatetime(open + 1, at)
  }

  /** True when token `at` closes SUM / AVG of a difference (`SUM(b - a)`), which may be an interval (a TIMESTAMP difference). */
  closesDifferenceSum(at: number): boolean {
    const toks = this.toks
    if (!isOp(toks[at], ")")) return false
    const open = openingParen(toks, at)
    return isKw(toks[open - 1], "SUM", "AVG") && findTopLevel(toks, open + 1, at, (x) => isOp(x, "-")) > open + 1
  }

  /** True when tokens [from, to) are one column reference (`c` or `t.c`) to a LOCAL TIME ZONE column. */
  isLocalZoneColumn(from: number, to: number): boolean {
    if (this.localZoneCastAt(from, to) !== undefined) return true
    const last = this.toks[to - 1]
    if (last === undefined || (last.kind !== "ident" && last.kind !== "qident")) return false
    if (!(to - from === 1 || (to - from === 3 && isOp(this.toks[from + 1], ".")))) return false
    return this.ctx.localZoneColumns?.has(oracleName(last)) === true
  }

  /** The type of `CAST(... AS TIMESTAMP[(p)] WITH LOCAL TIME ZONE)` when tokens [from, to) are exactly such a cast. */
  localZoneCastAt(from: number, to: number): OraType | undefined {
    const toks = this.toks
    if (!isKw(toks[from], "CAST") || !isOp(toks[from + 1], "(") || matchParen(toks, from + 1) !== to - 1 || !isKw(toks[to - 2], "ZONE") || !isKw(toks[to - 4], "LOCAL")) return undefined
    let asAt = -1
    for (let k = to - 2; k > from + 1 && asAt < 0; k--) if (isKw(toks[k], "AS")) asAt = k
    const type = asAt < 0 ? undefined : parseOracleType(toks.slice(asAt + 1, to - 1).map((x) => x.text).join(" "))
    return type?.kind === "timestampltz" ? type : undefined
  }

  /**
   * The kind of text datetime (datetime-functions.ts) tokens [from, to) are: a (possibly qualified) column stored so,
   * a TIMESTAMP literal with a zone or a bind the context knows as one; undefined for others.
   */
  textDatetimeAt(from: number, to: number): TextDatetimeKind | undefined {
    const toks = this.toks
    if (to - from === 2 && isKw(toks[from], "TIMESTAMP") && toks[from + 1]?.kind === "str") return textDatetimeOfText(timestampLiteral(toks[from + 1]!.value))
    if (to - from === 1 && toks[from]?.kind === "bind") return this.bindDatetime(toks[from]!)
    // a scalar subquery of one such item
    if (isOp(toks[from], "(") && isKw(toks[from + 1], "SELECT") && matchParen(toks, from) === to - 1) {
      const items = distinctItems(toks, isKw(toks[from + 2], "DISTINCT", "UNIQUE", "ALL") ? from + 3 : from + 2)
      const item = items?.length === 1 ? items[0]! : undefined
      if (item === undefined) return undefined
      // (also an expression giving a zoned value: `(SELECT MAX(t) FROM u)`, zoned-aliases.ts)
      const zoned = this.ctx.textDatetimeColumns !== undefined && isZonedValue(toks, item[0], item[1], this.ctx.textDatetimeColumns)
      return this.textDatetimeAt(item[0], item[1]) ?? (zoned ? "zoned" : undefined)
    }
    // (as the reference's query block resolves it: zoned-references.ts)
    return this.columnNameAt(from, to) === undefined ? undefined : textDatetimeKindOf(toks[to - 1]!, this.ctx.textDatetimeColumns)
  }

  /** The zoneless datetime tokens [from, to) give when their operands tell it (datetime-operand-types.ts). */
  datetimeOperandAt(from: number, to: number): DatetimeOperand | undefined {
    return datetimeOperandOf(this.toks, from, to, (a, b) => {
      if (this.textDatetimeAt(a, b) !== undefined || this.isLocalZoneColumn(a, b)) return null
      if (this.isTimestampAt(a, b)) return "timestamp"
      if (isDateUnit(this.toks, a, b, this.ctx.dateColumns)) return "date"
      return this.columnNameAt(a, b) !== undefined ? null : undefined
    })
  }

  /** True when tokens [from, to) are a reference to an interval column. */
  isIntervalColumnAt(from: number, to: number): boolean {
    const name = this.columnNameAt(from, to)
    return name !== undefined && this.ctx.intervalColumns?.has(name) === true
  }

  /** True when tokens [from, to) are a DATE: a DATE column or literal. */
  isDayAt(from: number, to: number): boolean {
    if (to - from === 2 && isKw(this.toks[from], "DATE") && this.toks[from + 1]?.kind === "str") return true
    const name = this.columnNameAt(from, to)
    return name !== undefined && this.ctx.dayColumns?.has(name) === true
  }

  /**
   * True when tokens [from, to) are a zoneless TIMESTAMP (not a DATE), which minus a datetime gives an interval: a
   * TIMESTAMP column, literal or TO_TIMESTAMP call, SYSTIMESTAMP / CURRENT_TIMESTAMP / LOCALTIMESTAMP, a CAST to
   * TIMESTAMP, or NVL / COALESCE / GREATEST / LEAST of a first argument that is one.
   */
  isTimestampAt(from: number, to: number): boolean {
    const toks = this.toks
    const t = toks[from]
    if (to - from === 1 && isKw(t, "SYSTIMESTAMP", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP")) return true
    if (to - from === 2 && isKw(t, "TIMESTAMP") && toks[from + 1]?.kind === "str") return true
    if (isKw(t, "TO_TIMESTAMP", "CAST", "NVL", "COALESCE", "GREATEST", "LEAST") && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1) {
      if (isKw(t, "TO_TIMESTAMP")) return true
      // these take their first argument's type (SQL Language Reference, "NVL", "COALESCE", "GREATEST", "LEAST")
      if (!isKw(t, "CAST")) {
        const comma = findTopLevel(toks, from + 2, to - 1, (x) => isOp(x, ","))
        return comma > from + 2 && this.isTimestampAt(from + 2, comma)
      }
      const asAt = findTopLevel(toks, from + 2, to - 1, (x) => isKw(x, "AS"))
      return asAt >= 0 && isKw(toks[asAt + 1], "TIMESTAMP") && !toks.slice(asAt + 2, to - 1).some((x) => isKw(x, "ZONE"))
    }
    // a stored function returning TIMESTAMP (plsql/sql-functions.ts writes its call so)
    if (isKw(t, "ORA_PLSQL_CALL_TIMESTAMP") && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1) return true
    if (isKw(t, "CASE") && this.caseEnd(from, to) === to) return this.caseGivesTimestamp(from, to)
    const name = this.columnNameAt(from, to)
    return name !== undefined && this.ctx.dateColumns?.has(name) === true && this.ctx.dayColumns?.has(name) !== true
  }

  /**
   * Whether the CASE of tokens [from, to) gives a TIMESTAMP: its first result other than NULL is one (SQL Language
   * Reference, "CASE Expressions": the return expressions are of one data type, the first non-null one's).
   */
  private caseGivesTimestamp(from: number, to: number): boolean {
    const toks = this.toks
    let depth = 0
    let start = -1
    for (let k = from; k < to; k++) {
      const t = toks[k]!
      if (isOp(t, "(")) {
        k = matchParen(toks, k)
        if (k < 0) return false
        continue
      }
      if (isKw(t, "CASE")) depth++
      else if (depth === 1 && start >= 0 && isKw(t, "WHEN", "ELSE", "END")) {
        if (!(k === start + 1 && isKw(toks[start], "NULL"))) return this.isTimestampAt(start, k)
        start = -1
      }
      if (depth === 1 && isKw(t, "THEN", "ELSE")) start = k + 1
      if (isKw(t, "END")) depth--
    }
    return false
  }

  /**
   * The declared fractional second precision of the TIMESTAMP column or bind tokens [from, to) are: a column's by
   * `qualifier.name` for a qualified reference where the statement's tables give that key one, else by name, else by
   * the table of its query block that has it (timestamp-precisions.ts); a bind's as {@link TranslateContext.bindFraction} gives it.
   */
  declaredFractionAt(from: number, to: number): number | undefined {
    const t = this.toks[from]
    if (to === from + 1 && t?.kind === "bind") {
      const param = /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
      return param === undefined ? undefined : this.ctx.bindFraction?.(Number(param))
    }
    // a PL/SQL LOCAL TIME ZONE variable as plsql/render.ts casts it (`CAST(:v AS TIMESTAMP(9) WITH LOCAL TIME ZONE)`)
    const inner = this.toks[from + 2]
    if (isKw(t, "CAST") && inner?.kind === "bind" && isKw(this.toks[from + 3], "AS") && isKw(this.toks[to - 2], "ZONE") && isKw(this.toks[to - 4], "LOCAL") && matchParen(this.toks, from + 1) === to - 1) {
      const fraction = this.declaredFractionAt(from + 2, from + 3)
      if (fraction !== undefined) return fraction
    }
    const name = this.columnNameAt(from, to)
    if (name === undefined) return undefined
    const qualifier = to - from >= 3 ? this.toks[to - 3] : undefined
    const precisions = this.ctx.timestampPrecisions
    const qualified = qualifier === undefined ? undefined : precisions?.get(`${oracleName(qualifier)}.${name}`)
    // a name two tables declare differently: the one of its query block (timestamp-precisions.ts)
    return qualified ?? precisions?.get(name) ?? (qualifier === undefined && precisions !== undefined ? blockPrecisionOf(this.toks, from, name, precisions) : undefined)
  }

  /** The column name tokens [from, to) are a (possibly qualified) reference to, else undefined. */
  columnNameAt(from: number, to: number): string | undefined {
    const toks = this.toks
    const last = toks[to - 1]
    if (to <= from || last === undefined || (last.kind !== "ident" && last.kind !== "qident") || isOp(toks[to], "(")) return undefined
    for (let k = from; k < to - 1; k += 2) if (!(toks[k]?.kind === "ident" || toks[k]?.kind === "qident") || !isOp(toks[k + 1], ".")) return undefined
    return oracleName(last)
  }

  /**
   * The storage kind of an interval in exact storage (intervals.ts) that tokens [from, to) are: a DAY TO SECOND(7-9)
   * or YEAR(9) TO MONTH column, or an interval literal `text` rendered in that storage; undefined for others.
   */
  exactIntervalAt(from: number, to: number, text: string): ExactIntervalKind | undefined {
    if (isKw(this.toks[from], "INTERVAL")) return /^CAST\(.* AS BIGINT\)$/.test(text) ? "yearToMonth" : /^CAST\(.* AS DECIMAL\(38,9\)\)$/.test(text) ? "dayToSecond" : undefined
    const produced = exactIntervalOfText(text)
    if (produced !== undefined) return produced
    const name = this.columnNameAt(from, to)
    return name === undefined ? undefined : this.ctx.exactIntervalColumns?.get(name)
  }

  /** The declared type of the interval column tokens [from, to) name, if they name one. */
  intervalTypeAt(from: number, to: number): OraType | undefined {
    const name = this.columnNameAt(from, to)
    return name === undefined ? undefined : this.ctx.intervalColumnTypes?.get(name)
  }

  /** True when the range names a text datetime column or has a zoned TIMESTAMP literal. */
  mentionsTextDatetime(from: number, to: number): boolean {
    for (let i = from; i < to; i++) {
      const t = this.toks[i]!
      if ((t.kind === "ident" || t.kind === "qident") && textDatetimeKindOf(t, this.ctx.textDatetimeColumns) !== undefined && !isOp(this.toks[i + 1], "(")) return true
      if (isKw(t, "TIMESTAMP") && this.textDatetimeAt(i, i + 2) !== undefined) return true
      if (t.kind === "bind" && this.bindDatetime(t) !== undefined) return true
    }
    return false
  }

  /** True when the range has `AT TIME ZONE` or `AT LOCAL` (rendered by textDatetimeAtZone). */
  mentionsAtZone(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (isKw(this.toks[i], "AT") && (isKw(this.toks[i + 1], "LOCAL") || (isKw(this.toks[i + 1], "TIME") && isKw(this.toks[i + 2], "ZONE")))) return true
    return false
  }

  /** The text datetime kind of a translated part: by its tokens or by the function its text calls. */
  textDatetimeOfPart(p: Part): TextDatetimeKind | undefined {
    return this.textDatetimeAt(p.from, p.to) ?? textDatetimeOfText(p.text)
  }

  /**
   * True when tokens [from, to) are one character operand: a text literal, a character column (not also a number or
   * datetime column of another table) or a character bind. Oracle converts such an operand of arithmetic to NUMBER
   * (SQL Language Reference, "Implicit Data Conversion": "In arithmetic operations between CHAR/VARCHAR2 and NCHAR/
   * NVARCHAR2, Oracle converts to a NUMBER"; ORA-01722 for text that is no number).
   */
  isCharacterAt(from: number, to: number): boolean {
    if (to === from + 1 && this.toks[from]?.kind === "str") return !isKw(this.toks[from - 1], "DATE", "TIMESTAMP", "INTERVAL")
    const name = this.columnNameAt(from, to)
    if (name !== undefined)
      return this.ctx.characterColumns?.has(name) === true && this.ctx.exactNumberColumns?.has(name) !== true && this.ctx.boundedNumberColumns?.has(name) !== true && this.ctx.dateColumns?.has(name) !== true && this.ctx.binaryColumns?.has(name) !== true
    return this.bindIs(this.ctx.textBind, from, to)
  }

  /** The native floating-point type of a bind sent as BINARY_DOUBLE / BINARY_FLOAT at [from, to), if it is one. */
  binaryBindAt(from: number, to: number): BinaryKind | undefined {
    const t = this.toks[from]
    if (this.ctx.binaryBind === undefined || to !== from + 1 || t?.kind !== "bind") return undefined
    const param = /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
    return param === undefined ? undefined : this.ctx.binaryBind(Number(param))
  }

  isDateColumnTok(t: Tok | undefined): boolean {
    if (t?.kind === "bind") return this.bindDatetime(t) !== undefined
    // (also a name the statement's subqueries give a zoned value: zoned-aliases.ts)
    return t !== undefined && (t.kind === "ident" || t.kind === "qident") && (this.ctx.dateColumns?.has(oracleName(t)) === true || textDatetimeKindOf(t, this.ctx.textDatetimeColumns) !== undefined)
  }

  isExactIntervalTok(t: Tok | undefined): boolean {
    return t !== undefined && (t.kind === "ident" || t.kind === "qident") && this.ctx.exactIntervalColumns?.has(oracleName(t)) === true
  }

  /** The text datetime kind of bind token `t`, when the context knows it (datetime-binds.ts). */
  bindDatetime(t: Tok): TextDatetimeKind | undefined {
    if (this.ctx.datetimeBind === undefined) return undefined
    const param = /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
    return param === undefined ? undefined : this.ctx.datetimeBind(Number(param))
  }

  /** End (exclusive) of the operand starting at `i`. */
  unitEnd(i: number, to: number): number {
    const toks = this.toks
    const t = toks[i]!
    if (isOp(t, "(")) return matchParen(toks, i) + 1
    if (isKw(t, "CASE")) {
      let depth = 0
      for (let k = i; k < to; k++) {
        if (isKw(toks[k], "CASE")) depth++
        else if (isKw(toks[k], "END")) {
          depth--
          if (depth === 0) return k + 1
        }
      }
      return to
    }
    if (isKw(t, "DATE", "TIMESTAMP") && toks[i + 1]?.kind === "str") return i + 2
    if (isKw(t, "INTERVAL") && toks[i + 1]?.kind === "str") {
      let k = i + 2
      while (k < to && (isKw(toks[k], "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO") || isOp(toks[k], "("))) {
        k = isOp(toks[k], "(") ? matchParen(toks, k) + 1 : k + 1
      }
      return k
    }
    if (t.kind === "ident" || t.kind === "qident") {
      let k = i + 1
      while (isOp(toks[k], ".") && toks[k + 1] !== undefined && (toks[k + 1]!.kind === "ident" || toks[k + 1]!.kind === "qident" || isOp(toks[k + 1], "*"))) k += 2
      if (isOp(toks[k], "(")) k = matchParen(toks, k) + 1
      // an aggregate's KEEP (...) or WITHIN GROUP (...) belongs to it (keep-aggregates.ts, LISTAGG, PERCENTILE_x)
      if (isOp(toks[k - 1], ")") && isKw(toks[k], "KEEP") && isOp(toks[k + 1], "(")) k = matchParen(toks, k + 1) + 1
      else if (isOp(toks[k - 1], ")") && isKw(toks[k], "WITHIN") && isKw(toks[k + 1], "GROUP") && isOp(toks[k + 2], "(")) k = matchParen(toks, k + 2) + 1
      if (isOp(toks[k - 1], ")") && isKw(toks[k], "OVER") && isOp(toks[k + 1], "(")) k = matchParen(toks, k + 1) + 1
      return k
    }
    return i + 1
  }

  /** The text of a call's argument [from, to) when it is a character literal. */
  stringArgument(part: readonly [number, number] | undefined): string | undefined {
    const t = part === undefined || part[1] !== part[0] + 1 ? undefined : this.toks[part[0]]
    return t?.kind === "str" ? t.value : undefined
  }

  /** A call's argument in tokens [from, to), rendered, with what number-sql.ts needs to know of its type. */
  callArgument(from: number, to: number, text: string): CallArgument {
    return {
      text,
      exact: this.exactColumnAt(from, to) !== undefined || EXACT_RESULT.test(text),
      binary: binaryKindOf(this.toks, from, to, this.ctx.binaryColumns) !== undefined,
      textLiteral: to === from + 1 && this.toks[from]!.kind === "str"
    }
  }
}
