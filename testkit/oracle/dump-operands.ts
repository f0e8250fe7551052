/**
 * What DUMP (and VSIZE, which reads DUMP's length) needs to know of its operand beyond the engine's storage type: a
 * CHAR / NCHAR column is Oracle's type 96 (stored as VARCHAR like VARCHAR2's type 1), a NUMBER column without
 * precision is type 2 with NUMBER's internal bytes (stored as its decimal text): SQL Language Reference, "DUMP", and
 * "Data Types" (the internal type codes). The columns it knows are session-translate.ts's `blankPaddedColumnsOf`. A
 * datetime computed rather than read from a column (SYSDATE, SYSTIMESTAMP, CURRENT_TIMESTAMP, a DATE or TIMESTAMP
 * literal, a built-in date function's DATE) has a type of its own, 13, 187 or 188 (the Stack Overflow question "Meaning of Oracle's
 * dump(systimestamp) bytes", as copied at https://e-learn.cn/topic/492887); a TIMESTAMP(7-9) column (kept as text) is 180, a LOCAL TIME ZONE column 231.
 */
import { findTopLevel, isKw, isOp, matchParen } from "./lexer.ts"
import { asTextDatetime, datetimeArgument, inSessionZone } from "./translate-datetime-sql.ts"
import { binaryKindOf, oracleName } from "./expression-names.ts"
import type { TranslatorCore } from "./translate-core.ts"

/** Whether the call argument [from, to) is a reference to a CHAR / NCHAR column (`c`, `q.c`) of the statement's tables. */
export const isBlankPaddedColumn = (tr: TranslatorCore, from: number, to: number): boolean => {
  const toks = tr.toks
  const last = toks[to - 1]
  if (last === undefined || (last.kind !== "ident" && last.kind !== "qident")) return false
  if (!(to === from + 1 || (to === from + 3 && isOp(toks[from + 1], ".")))) return false
  return tr.ctx.blankPaddedColumns?.has(oracleName(last)) === true
}

/**
 * Whether tokens [from, to) are one call of a built-in date function returning a DATE (TO_DATE, ADD_MONTHS, LAST_DAY,
 * NEXT_DAY, TRUNC / ROUND of a datetime): its result is a computed date, Typ=13 Len=8 as SYSDATE's, not a column's
 * Typ=12 (TO_DATE: Tom Kyte, comp.databases.oracle.misc 1999-10-14 "Re: Date datatype",
 * http://www.orafaq.com/usenet/comp.databases.oracle.misc/1999/10/14/2020.htm, and the Stack Overflow answer "How are
 * dates stored in Oracle?" 13568348: "Type 13 - Date returned by internal date functions"; TRUNC(dt, 'DD'): "The
 * dark side of the date: the type 13", https://what.thedailywtf.com/topic/4023).
 */
const isDateFunctionCall = (tr: TranslatorCore, from: number, to: number): boolean => {
  const toks = tr.toks
  if (!isOp(toks[from + 1], "(") || matchParen(toks, from + 1) !== to - 1) return false
  if (isKw(toks[from], "TO_DATE", "ADD_MONTHS", "LAST_DAY", "NEXT_DAY")) return true
  return isKw(toks[from], "TRUNC", "ROUND") && tr.datetimeOperandAt(from, to) === "date"
}

/**
 * The computed datetime that arithmetic tokens [from, to) give, terms joined by top-level `+` / `-` with exactly one a
 * DATE or zoneless TIMESTAMP: without an interval term a DATE (`d + 1`, `ts - 1/24`), with one a TIMESTAMP of a
 * TIMESTAMP (`ts + INTERVAL '1' HOUR`). Such results are computed values, Typ=13 and Typ=187 as SYSDATE's and a
 * TIMESTAMP literal's ("Oracle Datetime (5) - SQL Arithmetic",
 * http://ksun-oracle.blogspot.com/2017/05/oracle-datetime-5-sql-arithmetic_2.html: `timestp_base + num` dumps as
 * Typ=13 SQLT_DATE, `timestp_base + intv` as Typ=187 SQLT_TIMESTAMP; Tom Kyte, above: type 13 "is used for date
 * calculations").
 */
const arithmeticResultAt = (tr: TranslatorCore, from: number, to: number): "date" | "timestamp" | undefined => {
  const toks = tr.toks
  const terms: Array<[number, number]> = []
  for (let start = from; start < to; ) {
    const op = findTopLevel(toks, start + 1, to, (t) => isOp(t, "+") || isOp(t, "-"))
    const end = op < 0 ? to : op
    terms.push([start, end])
    start = end + 1
  }
  if (terms.length < 2) return undefined
  const datetimes: Array<string> = []
  let intervals = 0
  for (const [a, b] of terms) {
    if (tr.textDatetimeAt(a, b) !== undefined) return undefined
    if (isKw(toks[a], "INTERVAL") || tr.intervalTypeAt(a, b) !== undefined) intervals++
    else {
      const kind = tr.datetimeOperandAt(a, b)
      if (kind !== undefined) datetimes.push(kind)
    }
  }
  if (datetimes.length !== 1) return undefined
  return intervals === 0 ? "date" : datetimes[0] === "timestamp" ? "timestamp" : undefined
}

/** Whether tokens [from, to) are one call of `name`, TO_TIMESTAMP or TO_TIMESTAMP_TZ: a computed value, Typ=187 / 188 (ksun-oracle, above). */
const isTimestampFunctionCall = (toks: TranslatorCore["toks"], from: number, to: number, name: "TO_TIMESTAMP" | "TO_TIMESTAMP_TZ"): boolean =>
  isKw(toks[from], name) && isOp(toks[from + 1], "(") && matchParen(toks, from + 1) === to - 1

/**
 * The `ora_dump(x, fmt, start, length, computed)` call (builtin-functions.ts) for a DUMP whose operand, tokens [from,
 * to), is not what its storage says (`arg(k)` renders argument k); undefined where the storage says it.
 */
export const dumpOperandCall = (tr: TranslatorCore, from: number, to: number, arg: (k: number) => string): string | undefined => {
  const call = (x: string, flag: string) => `ora_dump(${x}, ${arg(1)}, ${arg(2)}, ${arg(3)}, ${flag})`
  const toks = tr.toks
  const one = to === from + 1 ? toks[from] : undefined
  const literal = to === from + 2 && toks[from + 1]?.kind === "str" ? toks[from] : undefined
  // an interval in exact storage (interval-functions.ts: months, or seconds with nine decimals) by its text, not as
  // the NUMBER its storage resembles
  const exact = tr.exactIntervalAt(from, to, arg(0))
  if (exact !== undefined) return `ora_dump_exact_interval(CAST(${arg(0)} AS VARCHAR), ${arg(1)}, ${arg(2)}, ${arg(3)}, ${exact === "yearToMonth" ? "TRUE" : "FALSE"})`
  // a NUMBER column without precision: its NUMBER bytes (Typ=2), not its stored text; a CHAR column: Typ=96
  if (tr.exactColumnAt(from, to) !== undefined) return call(`ora_number(${arg(0)})`, arg(4))
  if (isBlankPaddedColumn(tr, from, to)) return call(arg(0), "TRUE")
  // BINARY_DOUBLE / BINARY_FLOAT (Typ=101 / 100), not NUMBER; an interval by its column's or literal's kind (182 / 183)
  const binary = binaryKindOf(toks, from, to, tr.binaryColumns)
  if (binary !== undefined) return binary === "double" ? call(`CAST(${arg(0)} AS DOUBLE)`, "TRUE") : call(`CAST(${arg(0)} AS FLOAT)`, "FALSE")
  const interval = tr.intervalTypeAt(from, to)?.kind
  if (interval !== undefined) return call(arg(0), interval === "intervalym" ? "TRUE" : "FALSE")
  if (isKw(toks[from], "INTERVAL")) return call(arg(0), toks.slice(from, to).some((t) => isKw(t, "YEAR", "MONTH")) ? "TRUE" : "FALSE")
  if (isKw(one, "SYSTIMESTAMP") || isTimestampFunctionCall(toks, from, to, "TO_TIMESTAMP_TZ")) return call(asTextDatetime(arg(0), "zoned"), "TRUE")
  if (isKw(one, "CURRENT_TIMESTAMP")) return call(inSessionZone(arg(0)), "TRUE")
  if (isKw(one, "SYSDATE", "CURRENT_DATE") || isKw(literal, "DATE") || isDateFunctionCall(tr, from, to) || arithmeticResultAt(tr, from, to) === "date") return call(`CAST(${arg(0)} AS TIMESTAMP_S)`, "TRUE")
  const kind = tr.textDatetimeAt(from, to)
  // a LOCAL TIME ZONE column: flagged as one (Typ=231), as an instant where it is kept as text
  if (tr.isLocalZoneColumn(from, to)) return call(kind === undefined ? arg(0) : `ora_tstz_utc(${datetimeArgument(arg(0), kind)})`, "TRUE")
  // a zoned or TIMESTAMP(7-9) value kept as text (a column, a bind, a literal, a scalar subquery of one): its bytes, not its text
  const computed = isKw(literal, "TIMESTAMP") || isTimestampFunctionCall(toks, from, to, "TO_TIMESTAMP")
  if (kind !== undefined) return call(asTextDatetime(arg(0), kind), computed ? "TRUE" : "FALSE")
  if (computed || arithmeticResultAt(tr, from, to) === "timestamp") return call(`CAST(${arg(0)} AS TIMESTAMP)`, "TRUE")
  return undefined
}
