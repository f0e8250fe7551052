/**
 * Arithmetic and concatenation with Oracle's semantics: `||` ignoring NULLs, division by zero, date and interval
 * arithmetic, exact NUMBER and native floating-point operands, text datetimes and exact intervals.
 */
import { timestampPrecisionAt } from "./fraction-precision.ts"
import { findTopLevel, isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { type BinaryKind, binaryKindOf } from "./expression-names.ts"
import { EXACT_RESULT } from "./number-sql.ts"
import { datetimePlusExactSeconds, exactIntervalScaled, exactIntervalSum, intervalToChar, negatedExactInterval, timestampDifferenceTypeOfText } from "./interval-exprs.ts"
import { operandShape } from "./interval-compounds.ts"
import { EXACT_OPERATIONS, isDateUnit } from "./translate-literals.ts"
import { datetimeArgument, durationOfExact, textDatetimeOfText, wallClockOf, zoneArgument } from "./translate-datetime-sql.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { ExactIntervalKind, TextDatetimeKind } from "./translate-types.ts"
import type { OraType } from "./types.ts"
import { nlsText } from "./nls-formats.ts"
import { literalNumberText } from "./character-writes.ts"

const NO_TYPES: ReadonlyMap<string, OraType> = new Map()

/**
 * Whether tokens [from, to) are an interval literal scaled by numbers (`INTERVAL '1' HOUR * n`, what
 * numeric-intervals.ts writes for NUMTODSINTERVAL(n, 'HOUR')): only `*` and `/` and no comparison, list or query at
 * their top level, so that a parenthesised one is an interval operand (`d + (INTERVAL '1' HOUR * n)`).
 */
const scaledIntervalIn = (toks: ReadonlyArray<Tok>, from: number, to: number): boolean => {
  let interval = false
  for (let k = from; k < to; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) {
      k = matchParen(toks, k)
      if (k < 0) return false
    } else if (isKw(t, "INTERVAL") && toks[k + 1]?.kind === "str") interval = true
    else if (t.kind === "op" && t.value !== "*" && t.value !== "/" && t.value !== ".") return false
    else if (isKw(t, "SELECT", "AND", "OR", "CASE", "NOT", "IS", "IN", "LIKE", "BETWEEN")) return false
  }
  return interval
}

/**
 * Renders an arithmetic/concatenation expression with Oracle semantics: `a || b` ignores NULL operands
 * (`ora_cat`), `a / 0` raises ORA-01476 (`ora_div`), `date + n` / `date - n` add days and `date - date` gives
 * days (for operands that are recognisably dates). Returns undefined when the range is not a plain expression.
 */
export function expression(tr: TranslatorCore, from: number, to: number): string | undefined {
  const toks = tr.toks
  /** `exact`: the text is an exact NUMBER's decimal text (number-functions.ts computes on it). */
  /** `numeric`: of exact numbers only (exactNumericRange), which DuckDB computes exactly except in division. */
  // numberText: a native number (a literal, a date difference, arithmetic on them) that `||` shows as TO_CHAR does
  type Node = { text: string; date: boolean; interval: boolean; timestamp?: boolean; sessionWall?: string; binary?: BinaryKind | undefined; exact?: boolean; numeric?: boolean; datetime?: TextDatetimeKind; exactInterval?: ExactIntervalKind; day?: boolean; character?: boolean; yearMonth?: boolean; numberText?: boolean; literal?: string; catParts?: ReadonlyArray<string>; fsp?: number }
  /** A character operand of arithmetic with a number or a datetime (days) as that NUMBER (isCharacterAt); others as they are. */
  const asNumber = (n: Node, other: Node): Node =>
    n.character === true && !other.interval && other.exactInterval === undefined
      ? { text: `ora_number(CAST(${n.text} AS VARCHAR))`, date: false, interval: false, exact: true }
      : n
  const exactArg = (n: Node) => `CAST(${n.text} AS VARCHAR)`
  /** An exact NUMBER operand read as a native floating-point value of `kind`; others as they are. */
  const floating = (n: Node, kind: BinaryKind | undefined) => (n.exact === true ? `CAST(${n.text} AS ${kind === "float" ? "FLOAT" : "DOUBLE"})` : n.text)
  const binaryOf = (a: Node, b: Node): BinaryKind | undefined => (a.binary === "double" || b.binary === "double" ? "double" : (a.binary ?? b.binary))
  /**
   * `a op b` on every digit when either operand is an exact NUMBER, or when both are exact numbers and op is `/`
   * (DuckDB divides DECIMALs in DOUBLE); with a BINARY_DOUBLE / BINARY_FLOAT operand the exact one is converted to
   * that type instead: "For binary arithmetic operators, Oracle determines the argument with the highest numeric
   * precedence, implicitly converts the remaining arguments to that data type, and returns that data type" (SQL
   * Language Reference, "Arithmetic Operators": https://docs.oracle.com/en/database/oracle/oracle-database/26/sqlrf/Arithmetic-Operators.html;
   * "Numeric Precedence" orders BINARY_DOUBLE, BINARY_FLOAT, NUMBER).
   */
  const exactArithmetic = (op: string, a: Node, b: Node): Node | undefined => {
    if (a.date || b.date || a.interval || b.interval) return undefined
    const binary = binaryOf(a, b)
    if (binary !== undefined)
      return a.exact === true || b.exact === true ? { text: `(${floating(a, binary)} ${op} ${floating(b, binary)})`, date: false, interval: false, binary } : undefined
    return a.exact === true || b.exact === true || (op === "/" && a.numeric === true && b.numeric === true)
      ? { text: `ora_number_${EXACT_OPERATIONS[op]}(${exactArg(a)}, ${exactArg(b)})`, date: false, interval: false, exact: true }
      : undefined
  }
  /**
   * Text datetime ± INTERVAL (datetime-functions.ts `ora_tstz_add`, in UTC, the zone kept; `ora_ts_add` on a zoneless
   * wall clock), text datetime ± n days (a DATE of its wall clock) and the difference of two datetimes when one is a
   * text datetime (an INTERVAL, of the instants or of zoneless wall clocks).
   */
  const textDatetimeArithmetic = (op: string, a: Node, b: Node): Node | undefined => {
    if (a.datetime === undefined && b.datetime === undefined) return undefined
    const add = (d: Node, interval: string): Node =>
      d.datetime === "zoned"
        ? { text: `ora_tstz_add(${datetimeArgument(d.text, "zoned")}, ${interval})`, date: true, interval: false, datetime: "zoned" }
        : { text: `ora_ts_add(CAST(${d.text} AS VARCHAR), ${interval})`, date: true, interval: false, datetime: "wall" }
    // datetime ± n days is a DATE of the value's wall clock: "Oracle internally converts timestamp values to date
    // values and interprets NUMBER constants in arithmetic datetime and interval expressions as numbers of days"
    // (SQL Language Reference, "Datetime/Interval Arithmetic":
    // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html)
    const days = (d: Node, n: string): Node => ({ text: `ora_date_add(date_trunc('second', ${wallClockOf(d.text, d.datetime!)}), ${n})`, date: true, interval: false })
    const number = (n: Node) => !n.date && !n.interval && n.datetime === undefined
    if (op === "+" && a.datetime !== undefined && b.interval) return add(a, b.text)
    if (op === "+" && b.datetime !== undefined && a.interval) return add(b, a.text)
    if (op === "-" && a.datetime !== undefined && b.interval) return add(a, `-(${b.text})`)
    if (op === "+" && a.datetime !== undefined && number(b)) return days(a, floating(b, "double"))
    if (op === "+" && b.datetime !== undefined && number(a)) return days(b, floating(a, "double"))
    if (op === "-" && a.datetime !== undefined && number(b)) return days(a, `-(${floating(b, "double")})`)
    // (a CAST to a zoned type is a datetime too: local-zone-arithmetic.ts casts LOCAL TIME ZONE differences so)
    // (also a name or scalar subquery the statement's subqueries make a zoned value: zoned-aliases.ts)
    const datetimeNode = (n: Node) => n.date || n.datetime === "zoned"
    if (op !== "-" || !datetimeNode(a) || !datetimeNode(b)) return undefined
    const kind = a.datetime === "zoned" || b.datetime === "zoned" ? "zoned" : "wall"
    // TIMESTAMP(7-9) - a zoneless datetime: every nanosecond, in exact storage (intervals.ts)
    if (kind === "wall") return { text: `ora_ds_between(${datetimeArgument(a.text, kind)}, ${datetimeArgument(b.text, kind)})`, date: false, interval: true, exactInterval: "dayToSecond" }
    const point = (d: Node) => (kind === "zoned" ? `ora_tstz_utc(${datetimeArgument(d.text, kind)})` : `ora_tstz_local(${datetimeArgument(d.text, kind)})`)
    return { text: `(${point(a)} - ${point(b)})`, date: false, interval: true }
  }
  let i = from
  const unit = (): Node | undefined => {
    if (i >= to) return undefined
    const t = toks[i]!
    if (isOp(t, "-") || isOp(t, "+")) {
      i++
      const inner = unit()
      if (inner?.exact === true) return t.value === "-" ? exactArithmetic("-", { text: "'0'", date: false, interval: false }, inner) : inner
      if (inner?.exactInterval !== undefined) return t.value === "-" ? { text: negatedExactInterval(inner.text, inner.exactInterval), date: false, interval: true, exactInterval: inner.exactInterval } : inner
      return inner === undefined ? undefined : { text: `(${t.value}${inner.text})`, date: false, interval: inner.interval, yearMonth: inner.yearMonth === true, binary: inner.binary, numeric: inner.numeric === true, numberText: inner.numberText === true, ...(inner.literal !== undefined ? { literal: `${t.value}${inner.literal}` } : {}) }
    }
    const end = tr.unitEnd(i, to)
    if (end > to || end <= i) return undefined
    const dateBind = tr.bindIs(tr.ctx.dateBind, i, end)
    const rendered = isOp(t, "(") ? `(${tr.range(i + 1, end - 1)})` : isKw(t, "CASE") ? tr.range(i, end) : tr.plain(i, end)
    // a PL/SQL DATE / TIMESTAMP value may be held as its text
    const text = dateBind ? `CAST(${rendered} AS TIMESTAMP)` : rendered
    const exact = tr.isExactColumnWithin(i, end) || EXACT_RESULT.test(text) || tr.bindIs(tr.ctx.exactBind, i, end)
    const datetime = tr.textDatetimeAt(i, end) ?? textDatetimeOfText(text)
    const exactInterval = tr.exactIntervalAt(i, end, text) ?? (tr.bindIs(tr.ctx.exactSecondsBind, i, end) ? "dayToSecond" : undefined)
    const column = tr.columnNameAt(i, end)
    const fsp = tr.declaredFractionAt(i, end) ?? timestampPrecisionAt(toks, i, end)
    // a call the translator renders as a DATE (TRUNC / ROUND of a date, CAST to DATE: DuckDB's TIMESTAMP_S)
    const dateResult = isDateResult(text)
    // a scalar subquery, CASE, DECODE, NVL, MAX ... of a DATE or TIMESTAMP (datetime-operand-types.ts)
    const operandKind = datetime === undefined ? tr.datetimeOperandAt(i, end) : undefined
    // a parenthesised TIMESTAMP ± INTERVAL (`b - (a + INTERVAL '1' HOUR)`): a TIMESTAMP, which a difference takes as one
    const shiftedTimestamp = isOp(t, "(") && /^\(ora_datetime_add\(/.test(text) && (() => {
      const op = findTopLevel(toks, i + 1, end - 1, (x) => isOp(x, "+") || isOp(x, "-"))
      return op > i + 1 && tr.isTimestampAt(i + 1, op)
    })()
    // a YEAR TO MONTH literal, column or parenthesised sum of them (the engine's one INTERVAL type does not tell)
    // (or a PL/SQL INTERVAL variable's bind: plsql/render.ts)
    const boundInterval = tr.ctx.intervalBind
    const yearMonth = exactInterval === undefined && (operandShape(toks, i, end, tr.ctx.intervalColumnTypes ?? NO_TYPES).kind === "intervalym" || tr.bindIs(boundInterval && ((n) => boundInterval(n) === "intervalym"), i, end))
    const interval = isKw(t, "INTERVAL") || tr.isIntervalColumnAt(i, end) || exactInterval !== undefined || (isOp(t, "(") && scaledIntervalIn(toks, i + 1, end - 1)) || yearMonth || tr.bindIs(boundInterval && ((n) => boundInterval(n) !== undefined), i, end)
    const node = {
      // SYSTIMESTAMP / CURRENT_TIMESTAMP minus a TIMESTAMP: the TIMESTAMP is read in the session time zone and the
      // instants subtracted (Globalization Support Guide, "Datetime and Interval Arithmetic and Time Zones"), which is
      // the session's wall clock of now minus the TIMESTAMP
      ...(end === i + 1 && isKw(t, "SYSTIMESTAMP", "CURRENT_TIMESTAMP") ? { sessionWall: "ora_localtimestamp()" } : {}),
      text, date: isDateUnit(toks, i, end, tr.ctx.dateColumns) || dateBind || dateResult || shiftedTimestamp || operandKind !== undefined, interval, yearMonth, timestamp: tr.isTimestampAt(i, end) || tr.bindIs(tr.ctx.timestampBind, i, end) || shiftedTimestamp || operandKind === "timestamp",
      binary: binaryKindOf(toks, i, end, tr.ctx.binaryColumns) ?? tr.binaryBindAt(i, end), exact,
      numeric: tr.exactNumericRange(i, end), ...(datetime !== undefined ? { datetime } : {}), ...(exactInterval !== undefined ? { exactInterval } : {}),
      day: tr.isDayAt(i, end) || dateResult || operandKind === "date", character: tr.isCharacterAt(i, end),
      // (also a NUMBER(p,s) column, whose DuckDB text keeps the scale's zeros: `1.50`, TO_CHAR's `1.5`)
      numberText: (end === i + 1 && t.kind === "num" && !/[fFdD]$/.test(t.text)) || /^\(+ora_(?:date_diff|div)\(/.test(text) ||
        (column !== undefined && tr.ctx.boundedNumberColumns?.has(column) === true && tr.ctx.characterColumns?.has(column) !== true),
      ...(end === i + 1 && t.kind === "num" && !/[fFdD]$/.test(t.text) ? { literal: t.value } : {}),
      // a TIMESTAMP column's declared fractional precision, which FF prints (catText)
      ...(fsp !== undefined && !tr.isLocalZoneColumn(i, end) ? { fsp } : {})
    }
    i = end
    return node
  }
  const term = (): Node | undefined => {
    let left = unit()
    while (left !== undefined && i < to && (isOp(toks[i], "*") || isOp(toks[i], "/"))) {
      const op = toks[i]!.value
      i++
      const operand = unit()
      if (operand === undefined) return undefined
      const right = asNumber(operand, left)
      left = asNumber(left, operand)
      // native floating-point division follows IEEE 754 (x/0 is ±Inf or NaN; "IEEE 754 exceptions are not raised",
      // Database Concepts, "Floating-Point Numbers"); NUMBER division by zero raises ORA-01476 (ora_div)
      const plain = (n: Node) => !n.interval && !n.date && n.datetime === undefined
      if (left.exactInterval !== undefined && plain(right)) {
        left = { text: exactIntervalScaled(op === "*" ? "*" : "/", left.text, left.exactInterval, right.text), date: false, interval: true, exactInterval: left.exactInterval }
        continue
      }
      if (op === "*" && right.exactInterval !== undefined && plain(left)) {
        left = { text: exactIntervalScaled("*", right.text, right.exactInterval, left.text), date: false, interval: true, exactInterval: right.exactInterval }
        continue
      }
      // a DuckDB INTERVAL times or divided by a number is an interval (`d + INTERVAL '1' HOUR * n` adds it)
      if ((left.interval && plain(right)) || (op === "*" && right.interval && plain(left))) {
        const [interval, number] = left.interval ? [left, right] : [right, left]
        // YEAR TO MONTH times a number is YEAR TO MONTH (SQL Language Reference, "Datetime/Interval Arithmetic":
        // interval * / numeric gives an interval of the operand's kind), computed on its months in exact storage (the
        // engine's INTERVAL times a number spills fractions of a month into 30-day months)
        if (interval.yearMonth === true) {
          left = { text: exactIntervalScaled(op === "*" ? "*" : "/", `ora_ym_of_duck(${interval.text})`, "yearToMonth", number.text), date: false, interval: true, exactInterval: "yearToMonth" }
          continue
        }
        // as a DOUBLE whatever it is: a parenthesised NUMBER column `(n)` is no exact column reference, yet its text
        left = { text: `(${interval.text} ${op} CAST(${number.text} AS DOUBLE))`, date: false, interval: true }
        continue
      }
      const binary = binaryOf(left, right)
      const numeric = left.numeric === true && right.numeric === true
      left =
        exactArithmetic(op, left, right) ??
        (op === "/"
          ? { text: binary !== undefined ? `(${left.text} / ${right.text})` : `ora_div(${floating(left, binary)}, ${floating(right, binary)})`, date: false, interval: false, binary, numberText: binary === undefined }
          : { text: `(${floating(left, binary)} * ${floating(right, binary)})`, date: false, interval: false, binary, numeric, numberText: binary === undefined && !numeric })
    }
    return left
  }
  let left = term()
  while (left !== undefined && i < to && (isOp(toks[i], "+") || isOp(toks[i], "-") || isOp(toks[i], "||"))) {
    const op = toks[i]!.value
    i++
    let right = term()
    if (right === undefined) return undefined
    if (op !== "||") {
      const operand = right
      right = asNumber(right, left)
      left = asNumber(left, operand)
    }
    // datetime ± an interval in exact storage: the interval as a DuckDB INTERVAL (not its stored number as days)
    const datetimeOperand = (n: Node) => n.date || n.datetime !== undefined
    // TIMESTAMP ± DAY TO SECOND(7-9): every digit added (a DATE drops the fraction below, as on Oracle)
    const exactSeconds = (d: Node, n: Node) => n.exactInterval === "dayToSecond" && datetimeOperand(d) && d.day !== true
    if ((op === "+" || op === "-") && exactSeconds(left, right)) {
      const zoned = left.datetime === "zoned"
      left = { text: datetimePlusExactSeconds(left.text, zoned, zoneArgument("zoned"), op, right.text), date: true, interval: false, datetime: zoned ? "zoned" : "wall" }
      continue
    }
    if (op === "+" && exactSeconds(right, left)) {
      const zoned = right.datetime === "zoned"
      left = { text: datetimePlusExactSeconds(right.text, zoned, zoneArgument("zoned"), op, left.text), date: true, interval: false, datetime: zoned ? "zoned" : "wall" }
      continue
    }
    const asDuration = (n: Node, d: Node): Node =>
      n.exactInterval === undefined ? n : { text: durationOfExact(n.text, n.exactInterval, d.day === true), date: false, interval: true }
    if (op !== "||" && datetimeOperand(left)) right = asDuration(right, left)
    if (op !== "||" && datetimeOperand(right)) left = asDuration(left, right)
    // interval ± interval with an exact one: both in exact storage (interval-exprs.ts)
    const sum = (op === "+" || op === "-") && left.interval && right.interval ? exactIntervalSum(op, { text: left.text, exact: left.exactInterval }, { text: right.text, exact: right.exactInterval }) : undefined
    if (sum !== undefined) {
      left = { text: sum.text, date: false, interval: true, exactInterval: sum.kind }
      continue
    }
    // DATE ± INTERVAL is a DATE (SQL Language Reference, "Datetime/Interval Arithmetic"), DuckDB's TIMESTAMP_S
    const day = (left.day === true && right.interval) || (right.day === true && left.interval && op === "+")
    const exact = op === "||" ? undefined : exactArithmetic(op, left, right)
    const datetime = op === "||" ? undefined : textDatetimeArithmetic(op, left, right)
    if (exact !== undefined) left = exact
    else if (datetime !== undefined) left = datetime
    else if (op === "||") {
      // a chain `a || b || c` is one `nullif(concat(a, b, c), '')` (NULL only when every operand is NULL or ''), not
      // nested ora_cat calls: each nullif repeats its argument, so nesting them grew the SQL exponentially
      const catParts = [...(left.catParts ?? [catText(left)]), catText(right)]
      left = { text: `nullif(concat(${catParts.join(", ")}), '')`, date: false, interval: false, catParts }
    }
    else if (op === "+" && left.date && !right.interval && !right.date) left = { text: `ora_date_add(${left.text}, ${floating(right, "double")})`, date: true, interval: false }
    else if (op === "+" && right.date && !left.interval && !left.date) left = { text: `ora_date_add(${right.text}, ${floating(left, "double")})`, date: true, interval: false }
    // a TIMESTAMP minus a datetime (or a datetime minus one) is an INTERVAL DAY TO SECOND, only DATE - DATE a number of
    // days (SQL Language Reference, "Datetime/Interval Arithmetic": "You can subtract one datetime value from
    // another"; its matrix gives TIMESTAMP - TIMESTAMP, DATE - TIMESTAMP and TIMESTAMP - DATE as INTERVAL:
    // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html)
    else if (op === "-" && (left.date || left.timestamp === true) && (right.date || right.timestamp === true) && (left.timestamp === true || right.timestamp === true))
      left = { text: `ora_ts_diff(${left.sessionWall ?? left.text}, ${right.sessionWall ?? right.text})`, date: false, interval: true }
    else if (op === "-" && left.date && right.date) left = { text: `ora_date_diff(${left.text}, ${right.text})`, date: false, interval: false, numberText: true }
    else if (op === "-" && left.date && !right.interval) left = { text: `ora_date_add(${left.text}, -(${floating(right, "double")}))`, date: true, interval: false }
    else {
      const binary = binaryOf(left, right)
      const numeric = left.numeric === true && right.numeric === true
      const shifted = left.date && right.interval ? [left.text, op === "-" ? `-(${right.text})` : right.text] : right.date && left.interval && op === "+" ? [right.text, left.text] : undefined
      const text = shifted !== undefined ? `ora_datetime_add(${shifted[0]}, ${shifted[1]})` : `(${floating(left, binary)} ${op} ${floating(right, binary)})`
      const numberText = (left.numberText === true || right.numberText === true) && binary === undefined && !left.date && !right.date && !left.interval && !right.interval && shifted === undefined
      left = { text: day ? `CAST(${text} AS TIMESTAMP_S)` : text, date: left.date || right.date, interval: left.interval && right.interval, binary, numeric, day, numberText }
    }
  }
  return left !== undefined && i === to ? left.text : undefined
}

/** True when translated `text` is one `CAST(... AS TIMESTAMP_S)`: how the translator writes a value that is a DATE. */
const isDateResult = (text: string): boolean => {
  if (!text.startsWith("CAST(") || !text.endsWith(" AS TIMESTAMP_S)")) return false
  // the first parenthesis closes at the end (not `CAST(a AS TIMESTAMP_S) + CAST(b AS TIMESTAMP_S)`), strings skipped
  let depth = 0
  for (let k = 4, quoted = false; k < text.length; k++) {
    const c = text[k]
    if (c === "'") quoted = !quoted
    else if (quoted) continue
    else if (c === "(") depth++
    else if (c === ")" && --depth === 0) return k === text.length - 1
  }
  return false
}

/**
 * A `||` operand: a datetime in the session's NLS format (nls-formats.ts; a DuckDB datetime through ora_to_char, which
 * picks the format by its type), a native number (a literal, a date difference, arithmetic: `numberText`) as TO_CHAR
 * prints it (`(DATE '2024-01-06' - DATE '2024-01-01') || 'x'` is `5x`, not DuckDB's `5.0x`), anything else as it is
 * (never a `||` result again: ora_to_char repeats its argument, so nesting it would grow the SQL exponentially).
 */
const catText = (n: { readonly text: string; readonly date: boolean; readonly datetime?: TextDatetimeKind; readonly numberText?: boolean; readonly literal?: string; readonly fsp?: number }): string => {
  const difference = timestampDifferenceTypeOfText(n.text)
  return difference !== undefined ? intervalToChar(n.text, difference) : n.datetime === "zoned" ? nlsText("timestampTz", n.text, "getvariable('ora_session_tz')", n.fsp ?? 6) : n.datetime === "wall" ? nlsText("timestamp", n.text, "''", n.fsp ?? 9) : n.fsp !== undefined ? nlsText("timestamp", n.text, "''", n.fsp) : n.date ? `ora_to_char(${n.text})` : n.literal !== undefined ? literalNumberText(n.literal) : n.numberText === true ? `ora_num_char(${n.text})` : n.text
}
