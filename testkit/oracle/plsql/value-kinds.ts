/**
 * What the SQL translator needs to know about a PL/SQL value it sees as a bind: a NUMBER (divided on every digit,
 * as Oracle's decimal NUMBER arithmetic does), a NUMBER held as exact decimal text (a quotient with more digits than
 * a double keeps), or a DATE / TIMESTAMP (`d + n` adds n days: "Datetime/Interval Arithmetic", SQL Language
 * Reference). Taken from a variable's declared type or a host bind's type.
 */
import { DuckDBIntervalValue, DuckDBTimestampValue, type DuckDBValue, intervalValue } from "@duckdb/node-api"
import { decimalOf, fixedText } from "../decimal.ts"
import { intervalDsBind, intervalYmBind, nanosOfDuckInterval, parseDuckInterval } from "../intervals.ts"
import { bindSpecType } from "../results.ts"
import type { BindSpec } from "../statement.ts"
import type { OraType } from "../type-shapes.ts"
import type { TypeSpec } from "./ast.ts"

/** The kind of a bound PL/SQL value the translator treats specially; undefined for others. */
export type ValueKind = "number" | "datetime" | "timestamp" | "exactSeconds" | "intervalds" | "intervalym" | "zoned" | undefined

const DECIMAL_NUMBER = /^(NUMBER|INTEGER|INT|SMALLINT|PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURAL|NATURALN|POSITIVE|POSITIVEN|SIGNTYPE|DECIMAL|DEC|NUMERIC|FLOAT|REAL|DOUBLE PRECISION)$/
const DATETIME = /^(DATE|TIMESTAMP)$/
const INTERVAL_DS = /^INTERVAL DAY\b/
const INTERVAL_YM = /^INTERVAL YEAR\b/

/** The kind of a variable of declared type `type`. */
export const kindOfType = (type: TypeSpec | undefined): ValueKind =>
  type?.kind !== "named" ? undefined : DECIMAL_NUMBER.test(type.name) ? "number" : DATETIME.test(type.name) ? "datetime" : INTERVAL_DS.test(type.name) ? "intervalds" : INTERVAL_YM.test(type.name) ? "intervalym" : undefined

/**
 * The kind of a value read from a column of type `type` (a cursor's row, a `%ROWTYPE` field); "zoned" for a TIMESTAMP
 * WITH TIME ZONE column, whose values are text with their offset (computed on as such a variable's: plsql/render.ts),
 * "timestamp" for a TIMESTAMP one (a datetime whose difference with another is an interval, as a TIMESTAMP variable's).
 */
export const kindOfColumn = (type: OraType): ValueKind =>
  type.kind === "number" ? "number" : type.kind === "date" ? "datetime" : type.kind === "timestamp" ? "timestamp" : type.kind === "intervalds" || type.kind === "intervalym" ? type.kind : type.kind === "timestamptz" ? "zoned" : undefined

/** The kind of a host bind of `spec`. */
export const kindOfSpec = (spec: BindSpec | undefined): ValueKind => {
  const kind = spec === undefined ? undefined : bindSpecType(spec)?.kind
  return kind === "number" ? "number" : kind === "date" || kind === "timestamp" ? "datetime" : undefined
}

/**
 * A NUMBER value as the engine parameter SQL computes on: a fraction held as a double goes as the decimal text it
 * stands for (the double's shortest text), so that `a * 3` of 0.1 is .3 as Oracle's decimal NUMBER gives, not the
 * double's .30000000000000004; whole numbers and other values as they are.
 */
export const numberParameter = (value: DuckDBValue): DuckDBValue =>
  typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value) ? fixedText(decimalOf(String(value))) : value

/** An exact NUMBER's decimal text (not a double): a value of a NUMBER kind held as a string. */
export const isExactNumberText = (kind: ValueKind, value: DuckDBValue): boolean => kind === "number" && typeof value === "string"

/**
 * A value assigned to an unconstrained NUMBER variable: a number with more digits than a double keeps stays decimal
 * text (so `q := a / b` keeps Oracle's 40 digits, also where the double would round to a whole number, as
 * `.9999999999999999999999999999999999999999` does), other numbers and whole numbers a double holds exactly are
 * doubles as before.
 */
export const numberOfText = (text: string): number | string => {
  const n = Number(text)
  const digits = text.replace(/^[-+]?0*\.?0*/, "").replace(/[eE].*$/, "").replace(".", "").replace(/0+$/, "")
  return digits.length > 15 && Number.isFinite(n) && !(Number.isSafeInteger(n) && /^\s*[-+]?\d+\s*$/.test(text)) ? text : n
}

const DATETIME_TEXT = /^(-?\d{4,})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?)?$/

/**
 * A DATE / TIMESTAMP value (wall-clock text as variables hold it, or a JavaScript Date) as a typed engine parameter,
 * so that every function sees a datetime (`ADD_MONTHS(v, 1)`, `EXTRACT(YEAR FROM v)`), not text; other values as
 * they are; a value with digits below the microsecond stays text (the engine's TIMESTAMP would cut them).
 */
export const datetimeParameter = (value: DuckDBValue | Date): DuckDBValue => {
  if (value instanceof Date) return new DuckDBTimestampValue(BigInt(value.getTime()) * 1000n)
  if (typeof value !== "string") return value
  const m = DATETIME_TEXT.exec(value)
  // digits below the microsecond stay in the text, which the nanosecond-exact paths read
  if (m === null || /[1-9]/.test((m[7] ?? "").slice(6))) return value
  const at = new Date(0)
  at.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  at.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), 0)
  const micros = Number((m[7] ?? "").padEnd(6, "0").slice(0, 6))
  return new DuckDBTimestampValue(BigInt(at.getTime()) * 1000n + BigInt(micros))
}

const NS_PER_DAY = 86_400_000_000_000n

/**
 * An INTERVAL variable's value (the engine's interval text as a query gives it, or a DuckDB INTERVAL) as a typed
 * engine parameter, so that the translator computes on an interval (`v * 1.5`, `d + v`, `EXTRACT(HOUR FROM v)`), not
 * on text: DAY TO SECOND as days and the microseconds of the last day (hours below 24, as EXTRACT reads them), YEAR TO
 * MONTH as months; other values as they are. `bound`: as a client's bound interval (intervals.ts), which a statement
 * with exact-storage interval columns brings to the storage of the column it meets (`WHERE d9 >= v`) before it runs.
 */
export const intervalParameter = (value: DuckDBValue, kind: "intervalds" | "intervalym", bound = false): DuckDBValue => {
  const parts = value instanceof DuckDBIntervalValue ? value : typeof value === "string" && /\d/.test(value) ? parseDuckInterval(value) : undefined
  if (parts === undefined) return value
  if (kind === "intervalym") return bound ? intervalYmBind(parts.months + Math.trunc(parts.days / 30)) : intervalValue(parts.months + Math.trunc(parts.days / 30), 0, 0n)
  const nanos = nanosOfDuckInterval(parts.months, parts.days, parts.micros)
  if (bound) return intervalDsBind(nanos)
  const days = nanos / NS_PER_DAY
  return intervalValue(0, Number(days), (nanos - days * NS_PER_DAY) / 1000n)
}
