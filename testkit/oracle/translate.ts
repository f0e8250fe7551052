/**
 * Oracle SQL -> DuckDB SQL translation for the accepted subset (see README.md): identifiers through the
 * reversible name mapping, binds to DuckDB positional parameters, '' as NULL, Oracle functions and
 * pseudo-columns, FETCH FIRST/ROWNUM limits, CAST target types, and the select-list shape used to
 * report declared column types.
 */
import { decimalOf } from "./decimal.ts"
import { checkInputFormat, checkOutputFormat } from "./datetime-format-checks.ts"
import { ora, OraError } from "./errors.ts"
import { findTopLevel, isKw, isOp, matchParen, sqlString, type Tok } from "./lexer.ts"
import { constructedType } from "./named-types.ts"
import { encodeName, quoteDuck } from "./names.ts"
import { type CallArgument, CHECKED_RANGE, EXACT_CALLS, EXACT_RESULT, exactCallSql, isExactNumeric, numberFormatSql } from "./number-sql.ts"
import { checkRowidComparison } from "./rowid-literals.ts"
import { checkSetOperationLiterals } from "./set-operation-types.ts"
import { checkIncompleteExpressions } from "./incomplete-expressions.ts"
import { stringLiteralType } from "./literal-types.ts"
import { numberDescription, type NumberDescription } from "./number-describe.ts"
import { fromRefs } from "./subquery-shapes.ts"
import { type BinaryKind, binaryKindOf, headingOf, oracleName } from "./expression-names.ts"

export { type BinaryKind, binaryKindOf, headingOf, oracleName }
import { instantGrouping, type InstantGrouping, instantSetOperations, type SetBranch } from "./datetime-groups.ts"
import { CALENDAR_ELEMENTS, YEAR_MARK } from "./datetime-functions.ts"
import { zoneFunctionSql } from "./zone-functions.ts"
import { binaryConversionSql } from "./binary-conversions.ts"
import { intervalCastTypeAt } from "./interval-compounds.ts"
import { datetimePlusExactSeconds, exactIntervalAggregate, exactIntervalExpressionCast, exactIntervalExtract, exactIntervalOfText, exactIntervalOrderKey, exactIntervalTypeOfText, intervalBindFit, exactIntervalScaled, exactIntervalSum, intervalCast, intervalToChar, negatedExactInterval } from "./interval-exprs.ts"
import { binaryDoubleType, floatDecimalDigits, intervalDsType, intervalYmType, numberType, parseOracleType, timestampType, type OraType } from "./types.ts"

/** A select-list item, as far as type resolution cares. */
export type SelectItem =
  | { readonly kind: "star"; readonly qualifier?: string }
  | { readonly kind: "col"; readonly qualifier?: string; readonly column: string }
  | { readonly kind: "rowid" }
  /**
   * Any other expression; `binary` when it is of a native floating-point type, `params` the binds it uses,
   * `number` how Oracle describes it when it is a NUMBER (number-describe.ts; results.ts applies it).
   */
  | { readonly kind: "expr"; readonly binary?: BinaryKind; readonly params?: ReadonlyArray<number>; readonly number?: NumberDescription }
  /** COUNT / SUM / AVG over the whole item: a NUMBER computed over columns (number-describe.ts). */
  | { readonly kind: "aggregate"; readonly binary?: BinaryKind; readonly params?: ReadonlyArray<number> }
  /** A bind variable as the whole item (`$param` after translation): described with the bind's own type. */
  | { readonly kind: "bind"; readonly param: number }
  /** An expression whose Oracle type the DuckDB result type cannot tell (an INTERVAL YEAR TO MONTH literal). */
  | { readonly kind: "typed"; readonly type: OraType }

/** A table reference of the top-level FROM clause. */
export interface FromRef {
  readonly schema?: string
  readonly table: string
  readonly alias?: string
  /** A subquery's select-list shape with its items' output names (subquery-shapes.ts); `table` is then empty. */
  readonly query?: QueryShape & { readonly names: ReadonlyArray<string | undefined> }
}

/** Shape of a top-level query used to map result columns to declared table columns. */
export interface QueryShape {
  readonly items: ReadonlyArray<SelectItem>
  readonly from: ReadonlyArray<FromRef>
  /** `FOR UPDATE`: the rows the query selects are locked in its FROM tables (or the `OF` columns' tables). */
  readonly lock?: RowLockClause
}

/** `FOR UPDATE [OF ...] [NOWAIT | WAIT n | SKIP LOCKED]` of a query. */
export interface RowLockClause {
  /** The `OF` columns: only the tables they belong to are locked (all FROM tables without OF). */
  readonly of: ReadonlyArray<{ readonly qualifier?: string; readonly column: string }>
  /** How long to wait for rows another transaction locked: "nowait", seconds, or undefined (until the lock is free). */
  readonly wait: "nowait" | "skip" | number | undefined
  /** The query's translated `FROM ... [WHERE ...]` (without ROWNUM limits), selecting the rows to lock. */
  readonly source: string
}

/** Translation context. */
export interface TranslateContext {
  /** Called for each bind placeholder when rendered (possibly more than once per token); returns the parameter text. */
  readonly bind: (name: string, tok: Tok) => string
  /** DBTIMEZONE text, e.g. "+00:00". */
  readonly dbTimeZone: string
  /** Names of DATE/TIMESTAMP columns of the tables the statement mentions (for date arithmetic and TRUNC). */
  readonly dateColumns?: ReadonlySet<string>
  /** Names of the NUMBER columns without precision (stored as exact decimal text) of the tables the statement mentions. */
  readonly exactNumberColumns?: ReadonlySet<string>
  /**
   * Names of the NUMBER(p[,s]) columns of the tables the statement mentions (DuckDB DECIMAL / integers, on which
   * DuckDB computes `+ - *` exactly): their `/` and AVG go through number-functions.ts (see {@link exactNumericRange}).
   */
  readonly boundedNumberColumns?: ReadonlySet<string>
  /** True when the bind rendered as `$param` is sent as a NUMBER (an exact number, see {@link boundedNumberColumns}). */
  readonly numberBind?: (param: number) => boolean
  /** True when the bind rendered as `$param` holds an exact NUMBER as decimal text (a PL/SQL NUMBER variable's quotient). */
  readonly exactBind?: (param: number) => boolean
  /** True when the bind rendered as `$param` is a DATE or TIMESTAMP value (PL/SQL variables and binds: `d + n` adds days). */
  readonly dateBind?: (param: number) => boolean
  /** True when the bind rendered as `$param` is an INTERVAL DAY TO SECOND in exact storage (DECIMAL seconds, intervals.ts). */
  readonly exactSecondsBind?: (param: number) => boolean
  /** The text datetime kind of the bind rendered as `$param` (a TIMESTAMP WITH TIME ZONE bind is zoned text, params.ts). */
  readonly datetimeBind?: (param: number) => TextDatetimeKind | undefined
  /**
   * Interval kinds whose columns in the tables the statement mentions are all stored exactly (intervals.ts): their
   * literals are written in that storage (DECIMAL seconds, BIGINT months), since DuckDB casts no INTERVAL to it.
   */
  readonly exactIntervals?: ExactIntervals
  /** Names of the DATE columns of the tables the statement mentions (DATE ± INTERVAL is a DATE). */
  readonly dayColumns?: ReadonlySet<string>
  /** Names of the interval columns of the tables the statement mentions, however stored (datetime ± them adds them). */
  readonly intervalColumns?: ReadonlySet<string>
  /** The interval columns stored exactly (DAY TO SECOND(7-9), YEAR(9) TO MONTH) of the tables the statement mentions. */
  readonly exactIntervalColumns?: ReadonlyMap<string, ExactIntervalKind>
  /** The interval columns of the tables the statement mentions, with their declared types (interval-exprs.ts). */
  readonly intervalColumnTypes?: ReadonlyMap<string, OraType>
  /** Names of TIMESTAMP WITH LOCAL TIME ZONE columns of the tables the statement mentions (shown in the session zone). */
  readonly localZoneColumns?: ReadonlySet<string>
  /** Names of the character columns of the tables the statement mentions: arithmetic converts them to NUMBER. */
  readonly characterColumns?: ReadonlySet<string>
  /** True when the bind rendered as `$param` is sent as character text (arithmetic converts it to NUMBER). */
  readonly textBind?: (param: number) => boolean
  /** The native floating-point type of the bind rendered as `$param`, when it is sent as BINARY_DOUBLE / BINARY_FLOAT. */
  readonly binaryBind?: (param: number) => BinaryKind | undefined
  /** SESSIONTIMEZONE text (an offset or a region): CURRENT_TIMESTAMP's zone. */
  readonly sessionTimeZone?: string
  /** BINARY_DOUBLE / BINARY_FLOAT columns of the tables the statement mentions, by name (IEEE arithmetic). */
  readonly binaryColumns?: ReadonlyMap<string, BinaryKind>
  /**
   * Names of the datetime columns of the tables the statement mentions that are stored as text (datetime-functions.ts):
   * TIMESTAMP WITH TIME ZONE ("zoned") and TIMESTAMP(7-9) ("wall").
   */
  readonly textDatetimeColumns?: ReadonlyMap<string, TextDatetimeKind>
}

/** A datetime kept as text (datetime-functions.ts): with its own time zone, or a zoneless wall clock. */
export type TextDatetimeKind = "zoned" | "wall"

/** The zone datetime-functions.ts reads zoneless operands in: the session's where a zoned value is involved. */
const zoneArgument = (kind: TextDatetimeKind): string => (kind === "zoned" ? "getvariable('ora_session_tz')" : "''")

/** The text datetime kind of translated text that is a call of datetime-functions.ts giving one. */
const textDatetimeOfText = (text: string): TextDatetimeKind | undefined =>
  /^\(*(?:coalesce\()?ora_tstz(?:_add|_at|_add_exact)?\(/.test(text) ? "zoned" : /^\(*(?:coalesce\()?ora_ts(?:_add|_add_exact)?\(/.test(text) ? "wall" : undefined

/** A text datetime operand as the functions of datetime-functions.ts take it. */
const datetimeArgument = (text: string, kind: TextDatetimeKind): string => `CAST(${text} AS VARCHAR), ${zoneArgument(kind)}`

/** Oracle's datetime format elements the server formats itself for text datetimes (datetime-functions.ts formatElement). */
const TEXT_DATETIME_ELEMENT = /TZH:TZM|TZH|TZM|TZR|TZD|FF[1-9]?/i

/** A text datetime's own wall clock as a DuckDB TIMESTAMP (Oracle drops the zone converting to TIMESTAMP or DATE). */
const wallClockOf = (text: string, kind: TextDatetimeKind): string => `ora_tstz_local(${datetimeArgument(text, kind)})`

/** A zoned text datetime seen in the session time zone: how a LOCAL TIME ZONE value kept as text is shown. */
const inSessionZone = (text: string): string => `ora_tstz_at(${datetimeArgument(text, "zoned")}, getvariable('ora_session_tz'))`

/** MIN / MAX of a text datetime: the value with the least or greatest instant (zoned) or wall clock, its zone kept. */
const textDatetimeExtreme = (v: "MIN" | "MAX", text: string, kind: TextDatetimeKind): string => {
  const pick = `${v === "MIN" ? "arg_min" : "arg_max"}(CAST(${text} AS VARCHAR), ora_tstz_key(${datetimeArgument(text, kind)}))`
  return kind === "zoned" ? `ora_tstz(${pick}, getvariable('ora_session_tz'))` : `ora_ts(${pick})`
}

/**
 * ROUND(datetime, unit) of a DuckDB TIMESTAMP `operand` as a DATE ("The value returned is always of data type DATE",
 * SQL Language Reference, "ROUND (date)"; "ROUND and TRUNC Date Functions": a year rounds up on July 1, a month on
 * the 16th day, a day at noon, an hour at 30 minutes, a minute at 30 seconds); undefined for other units (quarters,
 * weeks), which the server does not round.
 */
const roundedDatetime = (operand: string, unit: string): string | undefined => {
  const up = (part: string, after: string) => `CAST(date_trunc('${part}', ${operand} + ${after}) AS TIMESTAMP_S)`
  if (unit === "year") return up("year", "INTERVAL 6 MONTH")
  if (unit === "month") return `CAST(date_trunc('month', ${operand}) + CASE WHEN day(${operand}) >= 16 THEN INTERVAL 1 MONTH ELSE INTERVAL 0 MONTH END AS TIMESTAMP_S)`
  if (unit === "day") return up("day", "INTERVAL 12 HOUR")
  if (unit === "hour") return up("hour", "INTERVAL 30 MINUTE")
  if (unit === "minute") return up("minute", "INTERVAL 30 SECOND")
  return undefined
}

/** The argument indexes of DECODE's results (`DECODE(expr, search, result, ..., default)`) among `count` arguments. */
const decodeResults = (count: number): Array<number> => Array.from({ length: count }, (_, k) => k).filter((k) => k > 1 && (k % 2 === 0 || k === count - 1))

/** A datetime as a text datetime of `kind` (a DuckDB datetime by its rendering, a TIMESTAMP in the session time zone). */
const asTextDatetime = (text: string, kind: TextDatetimeKind): string =>
  kind === "zoned" ? `ora_tstz(${datetimeArgument(text, kind)})` : `ora_ts(CAST(${text} AS VARCHAR))`

/** TO_CHAR(text datetime, format): its own wall clock, zone and fraction digits. */
const textDatetimeToChar = (operand: string, kind: TextDatetimeKind, format: string): string => {
  const args = datetimeArgument(operand, kind)
  const pieces: Array<string> = []
  let rest = format
  const local = (fmt: string) => {
    const f = convertDateFormat(fmt, true)
    return withOracleYears(`strftime(ora_tstz_local(${args}), ${sqlString(f)})`, f)
  }
  for (let m = TEXT_DATETIME_ELEMENT.exec(rest); m !== null; m = TEXT_DATETIME_ELEMENT.exec(rest)) {
    if (m.index > 0) pieces.push(local(fillModeBefore(format, rest, m.index)))
    // FF alone is the value's precision; the server shows 6 digits, as for other timestamps
    const element = m[0].toUpperCase() === "FF" ? "FF6" : m[0].toUpperCase()
    pieces.push(`ora_tstz_format(${args}, '${element}')`)
    rest = rest.slice(m.index + m[0].length)
  }
  if (rest !== "" || pieces.length === 0) pieces.push(local(fillModeBefore(format, rest, rest.length)))
  return `(${pieces.join(" || ")})`
}

/**
 * The first `length` characters of `rest` (the unformatted end of `format`) as a format of their own, led by FM when
 * fill mode is on where they start: FM switches it for the rest of the whole model, not of one piece.
 */
const fillModeBefore = (format: string, rest: string, length: number): string => {
  const done = format.slice(0, format.length - rest.length).replace(/"[^"]*"?/g, "")
  const on = ((done.match(/FM/gi) ?? []).length & 1) === 1
  return (on ? "FM" : "") + rest.slice(0, length)
}

/** Which interval kinds a statement's literals are written in exact storage. */
export interface ExactIntervals {
  readonly dayToSecond: boolean
  readonly yearToMonth: boolean
}

/** An interval kind stored exactly (intervals.ts): DECIMAL(38,9) seconds or BIGINT months. */
export type ExactIntervalKind = keyof ExactIntervals

/**
 * An interval in exact storage as the DuckDB INTERVAL datetime arithmetic takes (datetime-functions.ts; ORA-00932
 * where it has nanoseconds DuckDB cannot carry, which a DATE operand (`forDate`) drops): Oracle adds the interval to a DATE or TIMESTAMP (SQL Language
 * Reference, "Datetime/Interval Arithmetic": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
 */
const durationOfExact = (text: string, kind: ExactIntervalKind, forDate: boolean): string =>
  kind === "dayToSecond" ? `ora_ds_duration(CAST(${text} AS VARCHAR), ${forDate})` : `ora_ym_duration(CAST(${text} AS BIGINT))`

const DUCK_KEYWORDS_NEEDING_QUOTES = new Set(["ROW", "KEY", "VALUE", "TYPE"])
/** Oracle's BINARY_DOUBLE / BINARY_FLOAT constants (SQL Language Reference, "Floating-Point Conditions"). */
const BINARY_CONSTANTS: Record<string, string> = {
  BINARY_DOUBLE_NAN: "CAST('NaN' AS DOUBLE)",
  BINARY_DOUBLE_INFINITY: "CAST('Infinity' AS DOUBLE)",
  BINARY_FLOAT_NAN: "CAST('NaN' AS FLOAT)",
  BINARY_FLOAT_INFINITY: "CAST('Infinity' AS FLOAT)"
}

const NOT_ALIAS = new Set(["END", "NULL", "TRUE", "FALSE", "ASC", "DESC", "SYSDATE", "SYSTIMESTAMP", "ROWNUM", "LEVEL", "USER", "UID", "DBTIMEZONE", "SESSIONTIMEZONE", "CURRENT_DATE", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", ...Object.keys(BINARY_CONSTANTS)])

const SEPARATORS = new Set([
  "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "THEN", "ELSE", "WHEN", "END", "AS", "ON", "IN", "IS", "BETWEEN", "LIKE",
  "ORDER", "GROUP", "BY", "HAVING", "UNION", "MINUS", "INTERSECT", "EXCEPT", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER",
  "FULL", "CROSS", "USING", "VALUES", "SET", "INTO", "DISTINCT", "ALL", "ASC", "DESC", "NULLS", "FETCH", "OFFSET", "ROWS",
  "ROW", "ONLY", "RETURNING", "RETURN", "WITH", "ESCAPE", "DEFAULT", "FOR", "OVER", "PARTITION", "WITHIN", "EXISTS",
  "ANY", "SOME", "LIMIT", "UPDATE", "DELETE", "INSERT", "MERGE", "MATCHED", "TABLE", "CREATE", "VIEW", "REPLACE", "OPEN"
])
const isSeparator = (t: Tok): boolean =>
  (t.kind === "ident" && SEPARATORS.has(t.value)) ||
  (t.kind === "op" && [",", "=", "<>", "!=", "<", ">", "<=", ">=", ";", ":=", "=>"].includes(t.value))

const isName = (t: Tok | undefined): boolean => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** The token naming select item [a, b) (its alias left out): its alias, else the column's name when it is a `column`. */
const selectItemName = (toks: ReadonlyArray<Tok>, [a, b]: readonly [number, number], column: boolean): Tok | undefined =>
  isKw(toks[b], "AS") ? toks[b + 1] : isName(toks[b]) && !isKw(toks[b], "FROM") ? toks[b] : column ? toks[b - 1] : undefined

/** A translated range's pieces: top-level separators and the segments between them. */
interface Part {
  text: string
  readonly from: number
  readonly to: number
  readonly separator: boolean
}
/** The clause each part of a translated range stands in: a SET list, the ORDER BY items, or another. */
const clausesOf = (parts: ReadonlyArray<Part>, toks: ReadonlyArray<Tok>): Array<"set" | "order" | "other"> => {
  let clause: "set" | "order" | "other" = "other"
  return parts.map((p, j) => {
    const t = toks[p.from]!
    if (!p.separator) return clause
    if (isKw(t, "SET")) clause = "set"
    else if (isKw(t, "BY") && j > 0 && isKw(toks[parts[j - 1]!.from], "ORDER")) clause = "order"
    else if (clause === "set" && isKw(t, "WHERE", "RETURNING", "RETURN", "WHEN", "FROM")) clause = "other"
    else if (clause === "order" && !isOp(t, ",") && !isKw(t, "ASC", "DESC", "NULLS")) clause = "other"
    return clause
  })
}
const EXACT_OPERATIONS: Record<string, string> = { "+": "add", "-": "sub", "*": "mul", "/": "div" }
const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="])

const DATE_WORDS = new Set(["SYSDATE", "CURRENT_DATE", "SYSTIMESTAMP", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP"])
const DATE_FUNCTIONS = new Set(["TO_DATE", "TO_TIMESTAMP", "ADD_MONTHS", "LAST_DAY", "NEXT_DAY"])
const isDateWord = (t: Tok | undefined): boolean => t !== undefined && t.kind === "ident" && DATE_WORDS.has(t.value)
/** True when tokens ending at `i` close a DATE/TIMESTAMP literal or a date function call. */
const isDateLiteralEnd = (toks: ReadonlyArray<Tok>, i: number): boolean => {
  const t = toks[i]
  if (t === undefined) return false
  if (t.kind === "str" && isKw(toks[i - 1], "DATE", "TIMESTAMP")) return true
  if (isOp(t, ")")) {
    let depth = 0
    for (let k = i; k >= 0; k--) {
      if (isOp(toks[k], ")")) depth++
      else if (isOp(toks[k], "(")) {
        depth--
        if (depth === 0) return toks[k - 1]?.kind === "ident" && DATE_FUNCTIONS.has(toks[k - 1]!.value)
      }
    }
  }
  return false
}
/** True when the operand starting at `i` (ending before `end`) is recognisably a date/timestamp. */
const isDateUnit = (toks: ReadonlyArray<Tok>, i: number, end: number, dateColumns?: ReadonlySet<string>): boolean => {
  const t = toks[i]!
  if (isDateWord(t) && !isOp(toks[i + 1], "(")) return true
  if (isKw(t, "DATE", "TIMESTAMP") && toks[i + 1]?.kind === "str") return true
  if (t.kind === "ident" && DATE_FUNCTIONS.has(t.value) && isOp(toks[i + 1], "(")) return true
  // a (possibly qualified) column of a DATE/TIMESTAMP type
  const last = toks[end - 1]
  if (dateColumns !== undefined && last !== undefined && (last.kind === "ident" || last.kind === "qident") && !isOp(toks[end], "(")) {
    for (let k = i; k < end - 1; k += 2) if (!(toks[k]?.kind === "ident" || toks[k]?.kind === "qident") || !isOp(toks[k + 1], ".")) return false
    return dateColumns.has(oracleName(last))
  }
  return false
}

/**
 * True when `toks[i, end)` is a DATE (never a TIMESTAMP) by its text alone: SYSDATE, CURRENT_DATE, a DATE literal or
 * a call of TO_DATE, ADD_MONTHS, LAST_DAY, NEXT_DAY.
 */
const isDateOnly = (toks: ReadonlyArray<Tok>, i: number, end: number): boolean => {
  const t = toks[i]
  if (end - i === 1) return isKw(t, "SYSDATE", "CURRENT_DATE")
  if (end - i === 2) return isKw(t, "DATE") && toks[i + 1]?.kind === "str"
  return isKw(t, "TO_DATE", "ADD_MONTHS", "LAST_DAY", "NEXT_DAY") && isOp(toks[i + 1], "(") && matchParen(toks, i + 1) === end - 1
}

/**
 * A numeric literal DuckDB would read as a DOUBLE (a DECIMAL precision above 38: integer digits plus every fraction
 * digit, so also a small value such as 0.000...0123 with 38 significant digits, or an exponent with more than 15
 * significant digits) as an exact NUMBER (number-functions.ts), so that no digit is lost; others as written.
 */
const numberLiteral = (text: string): string => {
  const [mantissa = "", exponent] = text.split(/[eE]/)
  const [whole = "", fraction = ""] = mantissa.replace(/[^\d.]/g, "").split(".")
  const digits = (whole + fraction).replace(/^0+/, "")
  const significant = digits.replace(/0+$/, "").length
  // beyond NUMBER's range a literal fails as on Oracle (ORA-01426), not when the stored text is read back
  if (exponent !== undefined) decimalOf(text)
  return whole.replace(/^0+/, "").length + fraction.length > 38 || (exponent !== undefined && significant > 15) ? `ora_number('${text}')` : text
}

/** Renders an Oracle identifier token for DuckDB. */
export const identOut = (t: Tok): string => {
  if (t.kind === "qident") return quoteDuck(encodeName(t.value))
  if (/[$#]/.test(t.text) || DUCK_KEYWORDS_NEEDING_QUOTES.has(t.value)) return quoteDuck(encodeName(t.value))
  return t.text
}


const INTERVAL_FIELDS = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"] as const

/**
 * Renders an Oracle interval literal (`INTERVAL '-1 02:03:04.5' DAY TO SECOND`, `INTERVAL '1-2' YEAR TO MONTH`,
 * `INTERVAL '90' MINUTE`) as a DuckDB interval: DuckDB has no `X TO Y` qualifiers and no sign inside the string.
 * Field order and separators follow Oracle's SQL Language Reference, "Interval Literals":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Literals.html
 */
const intervalLiteral = (text: string, units: ReadonlyArray<string>, exactStorage?: ExactIntervals, storage?: "exact" | "duck"): string => {
  const lead = INTERVAL_FIELDS.indexOf(units[0] as (typeof INTERVAL_FIELDS)[number])
  const trailIdx = units.indexOf("TO")
  const trail = trailIdx >= 0 ? INTERVAL_FIELDS.indexOf(units[trailIdx + 1] as (typeof INTERVAL_FIELDS)[number]) : lead
  const body = text.trim()
  const negative = body.startsWith("-")
  const values = body.replace(/^[+-]/, "").split(/[\s:-]+/)
  if (lead < 0 || trail < lead || values.length !== trail - lead + 1 || values.some((x) => !/^\d+(\.\d*)?$/.test(x))) {
    throw ora.unimplemented(`interval literal '${text}' ${units.join(" ")}`)
  }
  const always = storage === "exact" || (lead <= 1 ? exactStorage?.yearToMonth : exactStorage?.dayToSecond) === true
  const exact = storage === "duck" ? undefined : exactIntervalLiteral(values, lead, negative, always)
  if (exact !== undefined) return exact
  const parts = values.map((x, n) => `${x} ${INTERVAL_FIELDS[lead + n]!.toLowerCase()}s`)
  return `(${negative ? "-" : ""}INTERVAL ${sqlString(parts.join(" "))})`
}

/** The text and qualifier words of the interval literal that tokens [from, to) are exactly, else undefined. */
const intervalLiteralIn = (toks: ReadonlyArray<Tok>, from: number, to: number): { text: string; units: Array<string> } | undefined => {
  const sig = toks.slice(from, to).filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "INTERVAL") || sig[1]?.kind !== "str") return undefined
  const units: Array<string> = []
  for (let k = 2; k < sig.length; k++) {
    const t = sig[k]!
    if (isKw(t, "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO")) units.push(t.value)
    else if (isOp(t, "(") && sig[k + 1]?.kind === "num" && isOp(sig[k + 2], ")")) k += 2
    else return undefined
  }
  return units.length === 0 ? undefined : { text: sig[1].value, units }
}

/**
 * An interval literal in the exact storage of intervals.ts (DECIMAL(38,9) seconds or BIGINT months): when DuckDB's
 * INTERVAL cannot hold it (nanosecond digits, more than 2^31 months) or `always` (the statement's columns of its kind
 * are stored so); undefined for the others.
 */
const exactIntervalLiteral = (values: ReadonlyArray<string>, lead: number, negative: boolean, always: boolean): string | undefined => {
  const sign = negative ? "-" : ""
  if (lead <= 1) {
    const months = values.reduce((acc, x, n) => acc + BigInt(x) * (lead + n === 0 ? 12n : 1n), 0n)
    return always || months > 2_147_483_647n ? `CAST(${sign}${months} AS BIGINT)` : undefined
  }
  const last = values[values.length - 1]!
  const seconds = INTERVAL_FIELDS[lead + values.length - 1] === "SECOND"
  const fraction = seconds && last.includes(".") ? last.slice(last.indexOf(".") + 1) : ""
  if (!always && !/[1-9]/.test(fraction.slice(6, 9))) return undefined
  const unitSeconds = [86_400n, 3_600n, 60n, 1n]
  const whole = values.reduce((acc, x, n) => acc + BigInt(x.split(".")[0]!) * unitSeconds[lead + n - 2]!, 0n)
  return `CAST('${sign}${whole}.${fraction.padEnd(9, "0").slice(0, 9)}' AS DECIMAL(38,9))`
}

/**
 * Renders `TIMESTAMP '<datetime> [<offset> | <region>]'`. Oracle accepts a time zone offset (`+05:30`) or a region name
 * (`Europe/Paris`, optionally followed by an abbreviation such as `CEST`) after the time and then the literal is a
 * TIMESTAMP WITH TIME ZONE (Oracle SQL Language Reference, "Datetime Literals":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Literals.html), kept as text with its zone.
 */
const timestampLiteral = (text: string): string => {
  const m = /^\s*(-?\d{1,4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{1,2}(?::\d{1,2}(?:\.\d{1,9})?)?)?)\s*(.*?)\s*$/.exec(text)
  // nanoseconds as the text TIMESTAMP(7-9) columns hold (DuckDB's TIMESTAMP_NS covers only 1677-2262)
  if (m === null || m[2] === "") return /\.\d{7,}/.test(text) ? `ora_ts(${sqlString(text)})` : `TIMESTAMP ${sqlString(text)}`
  // a zoned literal keeps its zone as text (datetime-functions.ts), as a TIMESTAMP WITH TIME ZONE column stores it
  return `ora_tstz(${sqlString(text)}, '')`
}

/** A datetime with the time zone TO_CHAR shows: its wall clock there, the offset there in minutes, the zone's name. */
interface ZonedOperand {
  readonly local: string
  readonly offsetMinutes: string
  readonly region: string
}

/** Oracle's time zone format elements (SQL Language Reference, "Datetime Format Elements"). */
const ZONE_ELEMENT = /TZH:TZM|TZH|TZM|TZR|TZD/i

/**
 * TO_CHAR(datetime, format) of a value with a known zone: the wall clock there, TZH:TZM / TZH / TZM its offset there,
 * TZR the zone as the session or literal names it.
 */
const zonedToChar = (operand: ZonedOperand, format: string): string => {
  const pieces: Array<string> = []
  let rest = format
  const offset = `ora_offset_text(${operand.offsetMinutes})`
  for (let m = ZONE_ELEMENT.exec(rest); m !== null; m = ZONE_ELEMENT.exec(rest)) {
    if (m.index > 0) pieces.push(localText(operand.local, convertDateFormat(fillModeBefore(format, rest, m.index), true)))
    const element = m[0].toUpperCase()
    pieces.push(element === "TZR" ? operand.region : element === "TZD" ? `ora_zone_abbreviation(${operand.region}, ${operand.local}, ${operand.offsetMinutes})` : element === "TZH" ? `substr(${offset}, 1, 3)` : element === "TZM" ? `substr(${offset}, 5, 2)` : offset)
    rest = rest.slice(m.index + m[0].length)
  }
  if (rest !== "" || pieces.length === 0) pieces.push(localText(operand.local, convertDateFormat(fillModeBefore(format, rest, rest.length), true)))
  return `(${pieces.join(" || ")})`
}

const localText = (local: string, fmt: string): string =>
  withOracleYears(fmt.includes("%n") ? strftimeNs(fmt, (f) => `strftime(CAST(${local} AS TIMESTAMP_NS), ${sqlString(f)})`) : `strftime(${local}, ${sqlString(fmt)})`, fmt)

/**
 * A strftime format with `%n` (nanoseconds) as SQL: DuckDB garbles any text after `%n` in one format (it writes nine
 * digits where it reserved six), so each `%n` is formatted on its own and the pieces are concatenated.
 */
const strftimeNs = (fmt: string, call: (f: string) => string): string =>
  fmt.split(/(?<!%)%n/).flatMap((piece, k) => [...(k > 0 ? [call("%n")] : []), ...(piece === "" ? [] : [call(piece)])]).join(" || ")

/**
 * The SQL of a strftime call `sql` whose format came from {@link convertDateFormat} with `output`: its year marks
 * turned into Oracle's YYYY / SYYYY text (datetime-functions.ts ora_year_text).
 */
const withOracleYears = (sql: string, fmt: string): string => (fmt.includes(YEAR_MARK.end) ? `ora_year_text(${sql})` : sql)

/**
 * Converts an Oracle datetime format model to a strftime/strptime format; for TO_CHAR (`output`), FM is read as the
 * fill mode switch and YYYY / SYYYY are marked for {@link withOracleYears}.
 */
export const convertDateFormat = (fmt: string, output = false): string => {
  const map: Array<[RegExp, string]> = [
    [/^YYYY/i, "%Y"],
    [/^RRRR/i, "%Y"],
    [/^YY/i, "%y"],
    [/^MONTH/i, "%B"],
    [/^MON/i, "%b"],
    [/^MM/i, "%m"],
    [/^DDD/i, "%j"],
    [/^DD/i, "%d"],
    [/^DY/i, "%a"],
    [/^DAY/i, "%A"],
    [/^HH24/i, "%H"],
    [/^HH12/i, "%I"],
    [/^HH/i, "%I"],
    [/^MI/i, "%M"],
    [/^SS/i, "%S"],
    [/^FF[7-9]/i, "%n"],
    [/^FF[1-3]/i, "%g"],
    [/^FF[4-6]?/i, "%f"],
    [/^AM|^PM/i, "%p"],
    // datetimes held as DuckDB instants (SYSTIMESTAMP, expressions the server does not recognise) are in UTC; zoned
    // columns and literals are formatted with their own zone (textDatetimeToChar)
    [/^TZH:TZM/i, "+00:00"],
    [/^TZR/i, "+00:00"],
    // an offset has no abbreviation (as formatElement's TZD of a value given with an offset)
    [/^TZD/i, ""],
    [/^TZH/i, "+00"],
    [/^TZM/i, "00"]
  ]
  let out = ""
  let s = fmt
  let fm = false
  while (s.length > 0) {
    const year = output ? /^(FM|S?YYYY)/i.exec(s)?.[0].toUpperCase() : undefined
    if (year !== undefined) {
      if (year === "FM") fm = !fm
      else out += `${year === "YYYY" ? (fm ? YEAR_MARK.absoluteFm : YEAR_MARK.absolute) : fm ? YEAR_MARK.signedFm : YEAR_MARK.signed}%Y${YEAR_MARK.end}`
      s = s.slice(year.length)
      continue
    }
    if (s.startsWith('"')) {
      const end = s.indexOf('"', 1)
      out += s.slice(1, end < 0 ? undefined : end).replace(/%/g, "%%")
      s = end < 0 ? "" : s.slice(end + 1)
      continue
    }
    // FF1-FF9 in TO_CHAR: that many digits, cut from strftime's 3, 6 or 9 (datetime-functions.ts ora_year_text)
    const fraction = output ? /^FF([1-9])/i.exec(s) : null
    if (fraction !== null) {
      const n = Number(fraction[1])
      const wider = n <= 3 ? "%g" : n <= 6 ? "%f" : "%n"
      out += n === 3 || n === 6 || n === 9 ? wider : `${YEAR_MARK.fraction}${n}${wider}${YEAR_MARK.end}`
      s = s.slice(3)
      continue
    }
    // month and day names in the element's capitalisation, MONTH and DAY blank-padded without FM (ora_year_text)
    const name = output ? /^(?:MONTH|MON|DAY|DY)/i.exec(s)?.[0] : undefined
    if (name !== undefined) {
      const kind = /^[A-Z]{2}/.test(name) ? "U" : /^[A-Z]/.test(name) ? "I" : "L"
      const width = !fm && name.length > 2 && !/^MON$/i.test(name) ? 9 : 0
      out += `${YEAR_MARK.name}${kind}${width}${/^MON/i.test(name) ? (name.length === 5 ? "%B" : "%b") : name.length === 3 ? "%A" : "%a"}${YEAR_MARK.end}`
      s = s.slice(name.length)
      continue
    }
    // Q, WW, IW, D, J, CC, SSSSS, ...: computed from the date by ora_year_text (datetime-functions.ts)
    const calendar = output ? CALENDAR_ELEMENTS.find((e) => s.toUpperCase().startsWith(e) && !(e === "D" && /^D[DAYLS]/i.test(s))) : undefined
    if (calendar !== undefined) {
      out += `${YEAR_MARK.calendar}${calendar}${fm ? "F" : "-"}|%Y|%m|%d|%H|%M|%S${YEAR_MARK.end}`
      s = s.slice(calendar.length)
      continue
    }
    const hit = map.find(([re]) => re.test(s))
    if (hit !== undefined) {
      const m = s.match(hit[0])!
      // FM: number elements without their leading zeros (strftime's `%-d`)
      out += output && fm && /^%[dmjHIMSy]$/.test(hit[1]) ? `%-${hit[1].slice(1)}` : hit[1]
      s = s.slice(m[0].length)
    } else {
      out += s[0] === "%" ? "%%" : s[0]
      s = s.slice(1)
    }
  }
  return out
}

/**
 * Translates a token list (significant tokens with their "space before" flags) to DuckDB SQL text.
 */
export class Translator {
  constructor(
    private readonly toks: ReadonlyArray<Tok>,
    private readonly spaced: ReadonlyArray<boolean>,
    private readonly ctx: TranslateContext
  ) {}

  /** The BINARY_DOUBLE / BINARY_FLOAT columns of the statement's tables (see {@link binaryKindOf}). */
  get binaryColumns(): ReadonlyMap<string, BinaryKind> | undefined {
    return this.ctx.binaryColumns
  }

  /** The zone of CURRENT_TIMESTAMP (the session's) and SYSTIMESTAMP (the database's), when known. */
  zoneOf(word: "CURRENT_TIMESTAMP" | "SYSTIMESTAMP"): string | undefined {
    return word === "SYSTIMESTAMP" ? this.ctx.dbTimeZone : this.ctx.sessionTimeZone
  }

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
      const grouped = this.groupedExpression(segStart, end)
      if (grouped !== undefined) {
        parts.push({ text: grouped, from: segStart, to: end, separator: false })
        return
      }
      const caseEnd = caseUnits && !(wholeCase && segStart === from) ? this.caseEnd(segStart, end) : -1
      const alias = this.toks[end - 1]
      const text =
        isOp(toks[segStart], "(") && matchParen(toks, segStart) === end - 1
          ? (this.subquerySetOperationByInstant(segStart)?.[0] ?? `(${this.range(segStart + 1, end - 1)})`)
          : isOp(toks[segStart], "(") && isKw(toks[segStart + 1], "SELECT", "WITH") && matchParen(toks, segStart) === end - 2 && (alias?.kind === "ident" || alias?.kind === "qident") && !NOT_ALIAS.has(alias.value)
            ? `${this.subquerySetOperationByInstant(segStart)?.[0] ?? `(${this.range(segStart + 1, end - 2)})`} ${identOut(alias)}`
          : caseEnd === end
            ? this.range(segStart, end)
            : caseEnd === end - 1 && alias !== undefined && (alias.kind === "ident" || alias.kind === "qident") && !NOT_ALIAS.has(alias.value)
              ? `${this.range(segStart, end - 1)} ${identOut(alias)}`
              : this.needsOperatorRewrite(segStart, end) || this.mentionsAtZone(segStart, end)
            ? (this.expression(segStart, end) ?? this.aliasedExpression(segStart, end) ?? this.plain(segStart, end))
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
      else if (depth === 0 && isSeparator(t) && !(isKw(t, "OVER", "WITHIN") && isOp(toks[i - 1], ")")) && !(isKw(t, "GROUP") && isKw(toks[i - 1], "WITHIN"))) {
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
    this.exactNumberParts(parts)
    this.textDatetimeCaseParts(parts)
    this.textDatetimeAtZone(parts)
    this.textDatetimeInsertTargets(parts)
    this.textDatetimeParts(parts)
    return parts
      .map((p) => p.text)
      .filter((text) => text.length > 0)
      .join(" ")
  }

  /** Whether tokens [from, to) are joined to a neighbour by an arithmetic or concatenation operator. */
  private isOperandAt(from: number, to: number): boolean {
    const operator = (t: Tok | undefined) => isOp(t, "||") || isOp(t, "+") || isOp(t, "-") || isOp(t, "*") || isOp(t, "/")
    return operator(this.toks[from - 1]) || operator(this.toks[to])
  }

  /** The index after the END of the `CASE` at `i` (before `to`), or -1 when `i` starts no complete CASE expression. */
  private caseEnd(i: number, to: number): number {
    if (!isKw(this.toks[i], "CASE")) return -1
    let depth = 0
    for (let k = i; k < to; k++) {
      if (isKw(this.toks[k], "CASE")) depth++
      else if (isKw(this.toks[k], "END") && --depth === 0) return k + 1
    }
    return -1
  }

  /** `expression alias` (a select item aliased without AS), when the expression alone is one `expression` rewrites. */
  private aliasedExpression(from: number, to: number): string | undefined {
    const alias = this.toks[to - 1]
    if (to - from < 2 || alias === undefined || (alias.kind !== "ident" && alias.kind !== "qident") || NOT_ALIAS.has(alias.value)) return undefined
    const text = this.expression(from, to - 1)
    return text === undefined ? undefined : `${text} ${identOut(alias)}`
  }

  /**
   * Comparisons and ORDER BY items over exact NUMBER values (columns without precision, stored as decimal text, and
   * results of number-functions.ts): compared with `ora_number_cmp` and ordered by `ora_number_key`, never as text.
   */
  private exactNumberParts(parts: Array<Part>): void {
    let inSet = false
    let inOrder = false
    for (let j = 0; j < parts.length; j++) {
      const p = parts[j]!
      const tok = this.toks[p.from]!
      if (p.separator) {
        if (isKw(tok, "SET")) inSet = true
        else if (isKw(tok, "WHERE", "RETURNING", "RETURN", "WHEN", "FROM")) inSet = false
        if (isKw(tok, "BY") && j > 0 && isKw(this.toks[parts[j - 1]!.from], "ORDER")) inOrder = true
        else if (!isOp(tok, ",") && !isKw(tok, "ASC", "DESC", "NULLS")) inOrder = false
        const left = parts[j - 1]
        const right = parts[j + 1]
        if (inSet || !(tok.kind === "op" && COMPARISONS.has(tok.value)) || left === undefined || right === undefined || left.separator || right.separator) continue
        if (!this.isExactPart(left) && !this.isExactPart(right)) continue
        // a NUMBER compared with a DATE: Oracle converts neither (ORA-00932)
        if (isDateOnly(this.toks, left.from, left.to)) throw new OraError(932, "inconsistent datatypes: expected DATE got NUMBER")
        if (isDateOnly(this.toks, right.from, right.to)) throw new OraError(932, "inconsistent datatypes: expected NUMBER got DATE")
        left.text = `ora_number_cmp(${this.exactArgument(left)}, ${this.exactArgument(right)})`
        right.text = "0"
        j++
      } else if (inOrder && this.isExactPart(p)) p.text = `ora_number_key(${this.exactArgument(p)})`
      else if (inOrder && exactIntervalOfText(p.text) !== undefined) p.text = exactIntervalOrderKey(p.text)
      else if (inOrder && p.to === p.from + 1 && this.exactOrderItems.has(this.toks[p.from]!.value))
        p.text = `ora_number_key(CAST(${this.exactOrderItems.get(this.toks[p.from]!.value)} AS VARCHAR))`
      else if (p.text.length > 0 && this.isExactPart(p)) this.exactOperand(parts, j)
    }
    this.exactCaseParts(parts)
  }

  /**
   * `CASE ... END` with an exact NUMBER among its results: every result converted to it ("Oracle uses short-circuit
   * evaluation ... and the return values must all be of the same data type group", the first result's: SQL Language
   * Reference, "CASE Expressions"), and the simple form's operand and comparison values compared as numbers.
   */
  private exactCaseParts(parts: Array<Part>): void {
    // a nested CASE is one part here (range renders it on its own first)
    for (let j = 0; j < parts.length; j++) {
      const head = parts[j]!
      if (head.separator || !isKw(this.toks[head.from], "CASE") || this.caseEnd(head.from, head.to) > 0) continue
      const end = parts.findIndex((q, k) => k > j && q.separator && isKw(this.toks[q.from], "END"))
      if (end < 0) continue
      const own = Array.from({ length: end - j - 1 }, (_, k) => j + 1 + k)
      const after = (word: string) => own.filter((k) => !parts[k]!.separator && isKw(this.toks[parts[k - 1]!.from], word))
      if (head.to > head.from + 1 && this.exactColumnAt(head.from + 1, head.to) !== undefined) {
        head.text = `CASE ora_number_key(CAST(${this.range(head.from + 1, head.to)} AS VARCHAR))`
        for (const k of after("WHEN")) parts[k]!.text = `ora_number_key(CAST(${parts[k]!.text} AS VARCHAR))`
      }
      const results = [...after("THEN"), ...after("ELSE")]
      if (!results.some((k) => this.isExactPart(parts[k]!)) || this.toks[parts[results[0]!]!.from]?.kind === "str") continue
      for (const k of results) if (!this.isExactPart(parts[k]!)) parts[k]!.text = `CAST(${parts[k]!.text} AS VARCHAR)`
      head.text = `ora_number(CAST(${head.text}`
      parts[end]!.text = `${parts[end]!.text} AS VARCHAR))`
    }
  }

  /**
   * `CASE ... END` whose first non-NULL result is a text datetime: a value of that kind (every result as text, the
   * whole read as that kind), so that it is described, compared and formatted as one ("the return values must all be
   * of the same data type group", SQL Language Reference, "CASE Expressions").
   */
  private textDatetimeCaseParts(parts: Array<Part>): void {
    const opens = (p: Part) => !p.separator && isKw(this.toks[p.from], "CASE") && this.caseEnd(p.from, p.to) < 0
    // a simple CASE over a zoned operand or WHEN value: compared by instant (`CASE t WHEN TIMESTAMP '...' THEN ...`)
    for (let j = 0; j < parts.length; j++) {
      const head = parts[j]!
      if (!opens(head) || head.to <= head.from + 1) continue
      const whens: Array<Part> = []
      for (let depth = 1, k = j + 1; k < parts.length; k++) {
        const q = parts[k]!
        if (opens(q)) depth++
        else if (q.separator && isKw(this.toks[q.from], "END") && --depth === 0) break
        else if (depth === 1 && !q.separator && parts[k - 1]!.separator && isKw(this.toks[parts[k - 1]!.from], "WHEN")) whens.push(q)
      }
      const operand = this.range(head.from + 1, head.to)
      const zoned = (this.textDatetimeAt(head.from + 1, head.to) ?? textDatetimeOfText(operand)) === "zoned" || whens.some((q) => this.textDatetimeOfPart(q) === "zoned")
      if (!zoned || this.toks.slice(head.from, head.to).some((t) => t.kind === "bind")) continue
      head.text = `CASE ora_tstz_key(${datetimeArgument(operand, "zoned")})`
      for (const q of whens) q.text = `ora_tstz_key(${datetimeArgument(q.text, "zoned")})`
    }
    for (let j = 0; j < parts.length; j++) {
      if (!opens(parts[j]!)) continue
      const results: Array<Part> = []
      let depth = 1
      let end = j + 1
      for (; end < parts.length; end++) {
        const q = parts[end]!
        if (opens(q)) depth++
        else if (q.separator && isKw(this.toks[q.from], "END") && --depth === 0) break
        else if (depth === 1 && !q.separator && parts[end - 1]!.separator && isKw(this.toks[parts[end - 1]!.from], "THEN", "ELSE")) results.push(q)
      }
      const first = results.find((q) => !(q.to === q.from + 1 && isKw(this.toks[q.from], "NULL")))
      const kind = first === undefined || end >= parts.length ? undefined : this.textDatetimeOfPart(first)
      if (kind === undefined) continue
      for (const q of results) q.text = `CAST(${q.text} AS VARCHAR)`
      parts[j]!.text = kind === "zoned" ? `ora_tstz(CAST(${parts[j]!.text}` : `ora_ts(CAST(${parts[j]!.text}`
      parts[end]!.text = `${parts[end]!.text} AS VARCHAR)${kind === "zoned" ? `, ${zoneArgument(kind)}` : ""})`
    }
  }

  /**
   * An exact NUMBER segment `parts[j]` as the operand of BETWEEN or IN, or as an item of a nested query's select list
   * (kept typed ORA_NUMBER, so that the outer query still describes and computes it as NUMBER).
   */
  private exactOperand(parts: Array<Part>, j: number): void {
    const p = parts[j]!
    const at = (k: number) => (parts[k]?.separator === true ? this.toks[parts[k]!.from] : undefined)
    const negated = isKw(at(j + 1), "NOT") ? 1 : 0
    const lo = parts[j + 2 + negated]
    const hi = parts[j + 4 + negated]
    if (isKw(at(j + 1 + negated), "BETWEEN") && isKw(at(j + 3 + negated), "AND") && lo !== undefined && hi !== undefined && !lo.separator && !hi.separator) {
      const v = this.exactArgument(p)
      p.text = `${negated === 1 ? "NOT " : ""}(ora_number_cmp(${v}, ${this.exactArgument(lo)}) >= 0 AND ora_number_cmp(${v}, ${this.exactArgument(hi)}) <= 0)`
      for (let k = j + 1; k <= j + 4 + negated; k++) parts[k]!.text = ""
      return
    }
    const list = parts[j + 2 + negated]
    if (isKw(at(j + 1 + negated), "IN") && list !== undefined && isOp(this.toks[list.from], "(") && !isKw(this.toks[list.from + 1], "SELECT", "WITH")) {
      const { parts: items } = this.args(list.from)
      p.text = `ora_number_key(${this.exactArgument(p)})`
      list.text = `(${items.map(([a, b]) => `ora_number_key(CAST(${this.range(a, b)} AS VARCHAR))`).join(", ")})`
      return
    }
    // IN / NOT IN / comparison ANY|SOME|ALL of a subquery: both sides compared by their exact order keys, as Oracle
    // compares a NUMBER with whatever number type the subquery gives
    const quantified = ["=", "<>", "!=", "<", ">", "<=", ">="].some((op) => isOp(at(j + 1), op)) && isKw(at(j + 2), "ANY", "SOME", "ALL")
    const sub = parts[j + (quantified ? 3 : 2 + negated)]
    if ((quantified || isKw(at(j + 1 + negated), "IN")) && sub !== undefined && !sub.separator && isOp(this.toks[sub.from], "(") && isKw(this.toks[sub.from + 1], "SELECT", "WITH") && this.exactColumnAt(p.from, p.to) !== undefined) {
      p.text = `ora_number_key(${this.exactArgument(p)})`
      sub.text = `(SELECT ora_number_key(CAST(ora_q.ora_c AS VARCHAR)) FROM ${sub.text} AS ora_q(ora_c))`
      return
    }
    const before = at(j - 1)
    const after = at(j + 1)
    const column = this.exactColumnAt(p.from, p.to)
    if (column !== undefined && (isKw(before, "SELECT", "DISTINCT", "UNIQUE", "ALL") || isOp(before, ",")) && (isKw(after, "FROM", "INTO") || isOp(after, ",")) && this.inSelectList(parts, j)) {
      p.text = `ora_number(${this.exactArgument(p)}) AS ${identOut(this.toks[p.to - 1]!)}`
    }
  }

  /**
   * A text datetime column that is a whole item of a subquery's select list (or of a later branch of a set
   * operation), rendered as a value typed ORA_TSTZ / ORA_TS (datetime-functions.ts), so that the enclosing query
   * describes it as TIMESTAMP WITH TIME ZONE / TIMESTAMP(9) rather than as the VARCHAR2 it is stored as; true when
   * `parts[j]` was such an item.
   */
  private nestedSelectItem(parts: Array<Part>, j: number): boolean {
    const p = parts[j]!
    if (p.separator || p.text.length === 0) return false
    const at = (k: number) => (parts[k]?.separator === true ? this.toks[parts[k]!.from] : undefined)
    const before = at(j - 1)
    const after = at(j + 1)
    if (!(isKw(before, "SELECT", "DISTINCT", "UNIQUE", "ALL") || isOp(before, ",")) || !(isKw(after, "FROM", "AS") || isOp(after, ","))) return false
    let select = j - 1
    while (select >= 0 && !(parts[select]!.separator && isKw(this.toks[parts[select]!.from], "SELECT"))) {
      const t = at(select)
      if (t !== undefined && !isOp(t, ",") && !isKw(t, "DISTINCT", "UNIQUE", "ALL")) return false
      select--
    }
    const opener = select < 0 ? undefined : this.toks[parts[select]!.from - 1]
    if (!(isOp(opener, "(") || isKw(opener, "UNION", "ALL", "INTERSECT", "MINUS", "EXCEPT"))) return false
    // the column alone, or followed by its alias (`ts t`); an `AS alias` part keeps its own
    const whole = this.columnNameAt(p.from, p.to) !== undefined
    if (!whole && (this.columnNameAt(p.from, p.to - 1) === undefined || p.to - p.from < 2)) return false
    const end = whole ? p.to : p.to - 1
    const kind = this.textDatetimeAt(p.from, end)
    if (kind === undefined || textDatetimeOfText(p.text) !== undefined) return false
    const name = isKw(after, "AS") ? "" : ` AS ${identOut(this.toks[p.to - 1]!)}`
    p.text = `${asTextDatetime(this.range(p.from, end), kind)}${name}`
    return true
  }

  /**
   * The order key of ORDER BY item `tok` (a position or an alias) of a subquery, or of a set operation in one, when it
   * names a text datetime item of the (first) select list: its instant or wall clock, as Oracle orders such values;
   * undefined otherwise (the top-level query's items are translateQuery's, datetimeOrderItems).
   */
  private nestedOrderKey(parts: ReadonlyArray<Part>, tok: Tok): string | undefined {
    const toks = this.toks
    const selects = parts.filter((q) => q.separator && isKw(toks[q.from], "SELECT"))
    const first = selects[0]
    if (first === undefined || !isOp(toks[first.from - 1], "(") || (tok.kind !== "num" && tok.kind !== "ident" && tok.kind !== "qident")) return undefined
    const items = distinctItems(toks, isKw(toks[first.from + 1], "DISTINCT", "UNIQUE", "ALL") ? first.from + 2 : first.from + 1)
    if (items === undefined) return undefined
    const nameOf = (item: [number, number]) => selectItemName(toks, item, this.columnNameAt(item[0], item[1]) !== undefined)
    const index = tok.kind === "num" ? Number(tok.value) - 1 : items.findIndex((item) => { const n = nameOf(item); return n !== undefined && oracleName(n) === oracleName(tok) })
    const item = items[index]
    if (item === undefined || toks.slice(item[0], item[1]).some((t) => t.kind === "bind")) return undefined
    const text = this.range(item[0], item[1])
    const kind = this.textDatetimeAt(item[0], item[1]) ?? textDatetimeOfText(text)
    const name = nameOf(item)
    if (kind === undefined || (selects.length > 1 && name === undefined)) return undefined
    // a set operation's ORDER BY names the result's columns
    return `ora_tstz_key(${datetimeArgument(selects.length > 1 ? identOut(name!) : text, kind)})`
  }

  /** True when segment `j` lies between a SELECT and its FROM/INTO at this level. */
  private inSelectList(parts: ReadonlyArray<Part>, j: number): boolean {
    for (let k = j - 1; k >= 0; k--) {
      const q = parts[k]!
      if (!q.separator) continue
      const t = this.toks[q.from]!
      if (isKw(t, "SELECT")) return true
      if (!isOp(t, ",") && !isKw(t, "DISTINCT", "UNIQUE", "ALL")) return false
    }
    return false
  }

  /** Select-list items that are text datetimes, by the position or name ORDER BY may call them (their expression). */
  private datetimeOrderItems: ReadonlyMap<string, { readonly text: string; readonly kind: TextDatetimeKind }> = new Map()

  /** Sets the select list's text datetime items that ORDER BY may name by position or alias (see translateQuery). */
  orderByDatetimeItems(items: ReadonlyMap<string, { readonly text: string; readonly kind: TextDatetimeKind }>): void {
    this.datetimeOrderItems = items
  }

  /** Select-list positions and names of exact NUMBER columns, by what ORDER BY may call them (their column text). */
  private exactOrderItems: ReadonlyMap<string, string> = new Map()

  /** Sets the select list's exact NUMBER columns that ORDER BY may name by position or alias (see translateQuery). */
  orderByExactItems(items: ReadonlyMap<string, string>): void {
    this.exactOrderItems = items
  }

  private isExactPart(p: Part): boolean {
    return this.exactColumnAt(p.from, p.to) !== undefined || EXACT_RESULT.test(p.text)
  }

  /** A value as number-functions.ts takes it: its (exact or DuckDB) decimal text, typed plain VARCHAR. */
  private exactArgument(p: Part): string {
    return `CAST(${p.text} AS VARCHAR)`
  }

  /** The column when tokens [from, to) are one (possibly qualified) exact NUMBER column reference. */
  exactColumnAt(from: number, to: number): { readonly qualifier?: string; readonly column: string } | undefined {
    const names = this.ctx.exactNumberColumns
    const toks = this.toks
    const last = toks[to - 1]
    if (names === undefined || to <= from || last === undefined || (last.kind !== "ident" && last.kind !== "qident") || isOp(toks[to], "(")) return undefined
    for (let k = from; k < to - 1; k += 2)
      if (!(toks[k]?.kind === "ident" || toks[k]?.kind === "qident") || !isOp(toks[k + 1], ".")) return undefined
    if (!names.has(oracleName(last))) return undefined
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
      if (binaryColumns?.has(name) === true || dateColumns?.has(name) === true || textDatetimeColumns?.has(name) === true) return false
      return boundedNumberColumns?.has(name) === true || exactNumberColumns?.has(name) === true
    })
  }

  /** True when tokens [from, to) are one bind whose parameter `test` holds for. */
  private bindIs(test: ((param: number) => boolean) | undefined, from: number, to: number): boolean {
    const t = this.toks[from]
    if (test === undefined || to !== from + 1 || t?.kind !== "bind") return false
    const param = /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
    return param !== undefined && test(Number(param))
  }

  /** True when the range names an exact NUMBER column anywhere, or has a literal held as an exact NUMBER. */
  private mentionsExactNumber(from: number, to: number): boolean {
    const names = this.ctx.exactNumberColumns
    for (let i = from; i < to; i++) {
      const t = this.toks[i]!
      if (t.kind === "num" && !/[fFdD]$/.test(t.text) && numberLiteral(t.value).startsWith("ora_number(")) return true
      if ((t.kind === "ident" || t.kind === "qident") && names?.has(oracleName(t)) === true && !isOp(this.toks[i + 1], "(")) return true
      if (this.isExactConversion(i)) return true
    }
    return false
  }

  /** True when tokens at `i` start `TO_NUMBER(x)` or `CAST(x AS NUMBER)`: exact NUMBER values (number-functions.ts). */
  private isExactConversion(i: number): boolean {
    const t = this.toks[i]
    if (!isKw(t, "TO_NUMBER", "CAST") || !isOp(this.toks[i + 1], "(")) return false
    const close = matchParen(this.toks, i + 1)
    if (t!.value === "CAST") return isKw(this.toks[close - 1], "NUMBER") && isKw(this.toks[close - 2], "AS")
    return findTopLevel(this.toks, i + 2, close, (x) => isOp(x, ",")) < 0
  }

  /** Token-by-token translation. */
  private plain(from: number, to: number): string {
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

  /** True when the range has a `||` or `/` operator, or `+`/`-` next to an obvious date value, at its top level. */
  private needsOperatorRewrite(from: number, to: number): boolean {
    const toks = this.toks
    let depth = 0
    let arithmetic = false
    for (let i = from; i < to; i++) {
      const t = toks[i]!
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
      // a negated aggregate of an exact interval column (`-MAX(col)`)
      if (depth === 0 && isOp(t, "-") && isKw(toks[i + 1], "MIN", "MAX", "SUM", "AVG") && isOp(toks[i + 2], "(") && this.isExactIntervalTok(toks[i + 3])) return true
      // arithmetic on an exact interval column (interval-exprs.ts)
      // the difference of two datetimes cast WITH TIME ZONE (local-zone-arithmetic.ts): an interval of the instants
      if (depth === 0 && isOp(t, "-") && isOp(toks[i - 1], ")") && isKw(toks[i + 1], "CAST") && isKw(toks[i - 2], "ZONE")) return true
      // ... also on a parenthesised or CAST operand holding one (`(d9 + d6) * 2`, interval-compounds.ts)
      if (depth === 0 && t.kind === "op" && "+-*".includes(t.value) && (isOp(toks[i - 1], ")") || isOp(toks[i + 1], "(") || isKw(toks[i + 1], "CAST")) && toks.slice(from, to).some((x) => this.isExactIntervalTok(x))) return true
      if (depth === 0 && t.kind === "op" && "+-*".includes(t.value) && (this.isExactIntervalTok(toks[i - 1]) || this.isExactIntervalTok(toks[i + 1]) || this.bindIs(this.ctx.exactSecondsBind, i - 1, i) || this.bindIs(this.ctx.exactSecondsBind, i + 1, i + 2))) return true
    }
    // a nested quotient or AVG may be an exact NUMBER (exactNumericRange) the arithmetic must compute on, and so is a
    // call computed in decimal on any NUMBER (number-sql.ts CHECKED_RANGE: `4 * ATAN(1)`)
    return arithmetic && (this.mentionsExactNumber(from, to) || toks.slice(from, to).some((t, k) => isOp(t, "/") || (isKw(t, "AVG") && isOp(toks[from + k + 1], "(")) || (t.kind === "ident" && CHECKED_RANGE.has(t.value) && isOp(toks[from + k + 1], "("))))
  }

  /** True when tokens [from, to) are one column reference (`c` or `t.c`) to a LOCAL TIME ZONE column. */
  private isLocalZoneColumn(from: number, to: number): boolean {
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
   * A datetime operand whose time zone TO_CHAR shows: a LOCAL TIME ZONE column or CURRENT_TIMESTAMP (the session time
   * zone, Oracle Database Globalization Support Guide, "TIMESTAMP WITH LOCAL TIME ZONE Data Type":
   * https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html)
   * (zoned literals and columns are text datetimes, see textDatetimeAt); undefined for others.
   */
  private zonedOperand(from: number, to: number): ZonedOperand | undefined {
    const t = this.toks[from]
    const textCast = this.localZoneCastAt(from, to)?.duck === "VARCHAR"
    if (to - from === 1 && isKw(t, "CURRENT_TIMESTAMP") || (this.isLocalZoneColumn(from, to) && this.textDatetimeAt(from, to) === undefined && !textCast)) {
      const x = this.range(from, to)
      return { local: `ora_session_local(${x})`, offsetMinutes: `ora_session_offset(${x})`, region: "getvariable('ora_session_tz')" }
    }
    return undefined
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
      return items?.length === 1 ? this.textDatetimeAt(items[0]![0], items[0]![1]) : undefined
    }
    const name = this.columnNameAt(from, to)
    return name === undefined ? undefined : this.ctx.textDatetimeColumns?.get(name)
  }

  /** True when tokens [from, to) are a reference to an interval column. */
  private isIntervalColumnAt(from: number, to: number): boolean {
    const name = this.columnNameAt(from, to)
    return name !== undefined && this.ctx.intervalColumns?.has(name) === true
  }

  /** True when tokens [from, to) are a DATE: a DATE column or literal. */
  private isDayAt(from: number, to: number): boolean {
    if (to - from === 2 && isKw(this.toks[from], "DATE") && this.toks[from + 1]?.kind === "str") return true
    const name = this.columnNameAt(from, to)
    return name !== undefined && this.ctx.dayColumns?.has(name) === true
  }

  /** The column name tokens [from, to) are a (possibly qualified) reference to, else undefined. */
  private columnNameAt(from: number, to: number): string | undefined {
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
  private exactIntervalAt(from: number, to: number, text: string): ExactIntervalKind | undefined {
    if (isKw(this.toks[from], "INTERVAL")) return /^CAST\(.* AS BIGINT\)$/.test(text) ? "yearToMonth" : /^CAST\(.* AS DECIMAL\(38,9\)\)$/.test(text) ? "dayToSecond" : undefined
    const produced = exactIntervalOfText(text)
    if (produced !== undefined) return produced
    const name = this.columnNameAt(from, to)
    return name === undefined ? undefined : this.ctx.exactIntervalColumns?.get(name)
  }

  /** The declared type of the interval column tokens [from, to) name, if they name one. */
  private intervalTypeAt(from: number, to: number): OraType | undefined {
    const name = this.columnNameAt(from, to)
    return name === undefined ? undefined : this.ctx.intervalColumnTypes?.get(name)
  }

  /** True when the range names a text datetime column or has a zoned TIMESTAMP literal. */
  private mentionsTextDatetime(from: number, to: number): boolean {
    for (let i = from; i < to; i++) {
      const t = this.toks[i]!
      if ((t.kind === "ident" || t.kind === "qident") && this.ctx.textDatetimeColumns?.has(oracleName(t)) === true && !isOp(this.toks[i + 1], "(")) return true
      if (isKw(t, "TIMESTAMP") && this.textDatetimeAt(i, i + 2) !== undefined) return true
      if (t.kind === "bind" && this.bindDatetime(t) !== undefined) return true
    }
    return false
  }

  /** True when the range has `AT TIME ZONE` or `AT LOCAL` (rendered by textDatetimeAtZone). */
  private mentionsAtZone(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (isKw(this.toks[i], "AT") && (isKw(this.toks[i + 1], "LOCAL") || (isKw(this.toks[i + 1], "TIME") && isKw(this.toks[i + 2], "ZONE")))) return true
    return false
  }

  /**
   * `datetime AT TIME ZONE zone` and `datetime AT LOCAL`: the same instant in that zone, a TIMESTAMP WITH TIME ZONE
   * (SQL Language Reference, "Datetime Expressions"). Any datetime operand: a text datetime, a TIMESTAMP or DATE (read in
   * the session time zone: "The session time zone also takes effect when a TIMESTAMP value is converted to the TIMESTAMP
   * WITH TIME ZONE or TIMESTAMP WITH LOCAL TIME ZONE datatype", Database Globalization Support Guide, "Setting the
   * Session Time Zone") or a LOCAL TIME ZONE value (DuckDB renders its instant with offset +00).
   */
  private textDatetimeAtZone(parts: Array<Part>): void {
    for (const p of parts) {
      if (p.separator) continue
      let depth = 0
      // from the part's first token: an AT inside a leading parenthesis is the parenthesis's own (rendered within it)
      for (let i = p.from; i < p.to && depth >= 0; i++) {
        const t = this.toks[i]!
        if (isOp(t, "(")) depth++
        else if (isOp(t, ")")) depth--
        if (depth !== 0 || i === p.from || !isKw(t, "AT")) continue
        const local = isKw(this.toks[i + 1], "LOCAL") && i + 2 === p.to
        if (!local && !(isKw(this.toks[i + 1], "TIME") && isKw(this.toks[i + 2], "ZONE") && i + 3 < p.to)) continue
        const operand = this.range(p.from, i)
        const zone = local ? "getvariable('ora_session_tz')" : `CAST(${this.range(i + 3, p.to)} AS VARCHAR)`
        p.text = `ora_tstz_at(${datetimeArgument(operand, "zoned")}, ${zone})`
        break
      }
    }
  }

  /**
   * `INSERT INTO t (cols) SELECT items ...`: a text datetime item whose target column is a DuckDB datetime (DATE,
   * TIMESTAMP(0-6), WITH LOCAL TIME ZONE) as that column takes it: its own wall clock, as Oracle converts TIMESTAMP WITH
   * TIME ZONE to TIMESTAMP or DATE (the zone dropped), or its instant for a LOCAL TIME ZONE column; into a text datetime
   * column of the other kind, as that kind (`asTextDatetime`: a TIMESTAMP(7-9) zoned in the session time zone).
   */
  private textDatetimeInsertTargets(parts: Array<Part>): void {
    const toks = this.toks
    const sep = (k: number, ...words: Array<string>) => parts[k]?.separator === true && isKw(toks[parts[k]!.from], ...words)
    const target = parts[2]
    if (!sep(0, "INSERT") || !sep(1, "INTO") || target === undefined || target.separator || !sep(3, "SELECT")) return
    const open = toks.findIndex((t, k) => k >= target.from && k < target.to && isOp(t, "("))
    if (open < 0) return
    const columns = this.args(open).parts.map(([a, b]) => (b - a === 1 ? oracleName(toks[a]!) : ""))
    for (let k = 4, item = 0; k < parts.length && !(parts[k]!.separator && !isOp(toks[parts[k]!.from], ",")); k++) {
      const p = parts[k]!
      if (p.separator) {
        item++
        continue
      }
      const kind = this.textDatetimeOfPart(p)
      const column = columns[item] ?? ""
      const columnKind = this.ctx.textDatetimeColumns?.get(column)
      if (kind === undefined || columnKind === kind || this.ctx.dateColumns?.has(column) !== true) continue
      if (columnKind !== undefined) p.text = asTextDatetime(p.text, columnKind)
      else p.text = this.ctx.localZoneColumns?.has(column) === true ? `ora_tstz_utc(${datetimeArgument(p.text, "zoned")})` : wallClockOf(p.text, kind)
    }
  }

  /**
   * The results (argument indexes `results`) of a DECODE / NVL2 call as one text datetime when its result is one: its
   * type is the first non-NULL result's ("Oracle automatically converts the return value to the same data type as the
   * first result", SQL Language Reference, "DECODE"; NVL2 returns expr2's type, "NVL2"). `arg` renders each result as
   * text and `wrap` makes the call's value a text datetime again, so it is described, compared and formatted as one.
   */
  private textDatetimeResult(parts: ReadonlyArray<[number, number]>, results: ReadonlyArray<number>, arg: (k: number) => string) {
    const first = results.find((k) => { const p = parts[k]; return p !== undefined && !(p[1] === p[0] + 1 && isKw(this.toks[p[0]], "NULL")) })
    const p = first === undefined ? undefined : parts[first]
    const kind = p === undefined ? undefined : (this.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(arg(first!)))
    return {
      arg: (k: number) => (kind === undefined ? arg(k) : `CAST(${arg(k)} AS VARCHAR)`),
      wrap: (text: string) => (kind === undefined ? text : asTextDatetime(text, kind))
    }
  }

  /** The text datetime kind of a translated part: by its tokens or by the function its text calls. */
  private textDatetimeOfPart(p: Part): TextDatetimeKind | undefined {
    return this.textDatetimeAt(p.from, p.to) ?? textDatetimeOfText(p.text)
  }

  /**
   * Comparisons, BETWEEN and ORDER BY items over text datetimes: by `ora_tstz_key`, which orders zoned values by their
   * UTC instant and zoneless ones by their wall clock, to the nanosecond. Oracle compares TIMESTAMP WITH TIME ZONE
   * values by instant, and a TIMESTAMP with one in the session time zone (Database Globalization Support Guide,
   * "Datetime Comparisons":
   * https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html).
   */
  private textDatetimeParts(parts: Array<Part>): void {
    const clauses = clausesOf(parts, this.toks)
    const key = (p: Part, kind: TextDatetimeKind) => `ora_tstz_key(${datetimeArgument(p.text, kind)})`
    for (let j = 0; j < parts.length; j++) {
      const p = parts[j]!
      const tok = this.toks[p.from]!
      if (p.separator) {
        const left = parts[j - 1]
        const right = parts[j + 1]
        const comparison = tok.kind === "op" && COMPARISONS.has(tok.value) && clauses[j] !== "set"
        if (!comparison || left === undefined || right === undefined || left.separator || right.separator) continue
        const kinds = [this.textDatetimeOfPart(left), this.textDatetimeOfPart(right)]
        if (kinds[0] === undefined && kinds[1] === undefined) continue
        const kind = kinds.includes("zoned") ? "zoned" : "wall"
        left.text = key(left, kind)
        right.text = key(right, kind)
        j++
        continue
      }
      const item = clauses[j] === "order" && p.to === p.from + 1 ? this.datetimeOrderItems.get(tok.value) : undefined
      if (item !== undefined) {
        p.text = `ora_tstz_key(${datetimeArgument(item.text, item.kind)})`
        continue
      }
      const nestedKey = clauses[j] === "order" && p.to === p.from + 1 ? this.nestedOrderKey(parts, tok) : undefined
      if (nestedKey !== undefined) {
        p.text = nestedKey
        continue
      }
      if (this.nestedSelectItem(parts, j)) continue
      const kind = this.textDatetimeOfPart(p)
      if (kind === undefined || p.text.length === 0) continue
      if (clauses[j] === "order") {
        p.text = key(p, kind)
        continue
      }
      const at = (k: number) => (parts[k]?.separator === true ? this.toks[parts[k]!.from] : undefined)
      const negated = isKw(at(j + 1), "NOT") ? 1 : 0
      const lo = parts[j + 2 + negated]
      const hi = parts[j + 4 + negated]
      if (isKw(at(j + 1 + negated), "BETWEEN") && isKw(at(j + 3 + negated), "AND") && lo !== undefined && hi !== undefined && !lo.separator && !hi.separator) {
        const all = [kind, this.textDatetimeOfPart(lo), this.textDatetimeOfPart(hi)].includes("zoned") ? "zoned" : "wall"
        p.text = `${negated === 1 ? "NOT " : ""}(${key(p, all)} BETWEEN ${key(lo, all)} AND ${key(hi, all)})`
        for (let k = j + 1; k <= j + 4 + negated; k++) parts[k]!.text = ""
        continue
      }
      const list = parts[j + 2 + negated]
      const quantified = parts[j + 3]
      const comparedTo = at(j + 1)
      if (comparedTo?.kind === "op" && COMPARISONS.has(comparedTo.value) && isKw(at(j + 2), "ANY", "SOME", "ALL") && quantified !== undefined && isOp(this.toks[quantified.from], "(") && isKw(this.toks[quantified.from + 1], "SELECT", "WITH")) {
        // `zoned op ANY | SOME | ALL (subquery)`: its column by the same instant key, as `IN (subquery)` below
        p.text = key(p, kind)
        quantified.text = `(SELECT ora_tstz_key(CAST("ora$in"."v" AS VARCHAR), ${zoneArgument(kind)}) FROM ${quantified.text} AS "ora$in"("v"))`
        continue
      }
      if (isKw(at(j + 1 + negated), "IN") && list !== undefined && isOp(this.toks[list.from], "(") && !isKw(this.toks[list.from + 1], "SELECT", "WITH")) {
        const items = this.args(list.from).parts.map(([a, b]) => ({ text: this.range(a, b), from: a, to: b, separator: false }))
        const all = [kind, ...items.map((item) => this.textDatetimeOfPart(item))].includes("zoned") ? "zoned" : "wall"
        p.text = key(p, all)
        list.text = `(${items.map((item) => key(item, all)).join(", ")})`
      } else if (isKw(at(j + 1 + negated), "IN") && list !== undefined && isOp(this.toks[list.from], "(")) {
        // `IN (subquery)`: its one column by the same key (a TIMESTAMP in the session time zone when `p` is zoned)
        const column = `CAST("ora$in"."v" AS VARCHAR), ${zoneArgument(kind)}`
        p.text = key(p, kind)
        list.text = `(SELECT ora_tstz_key(${column}) FROM ${list.text} AS "ora$in"("v"))`
      }
    }
  }

  /**
   * EXTRACT(field FROM text datetime): of a zoned value the UTC fields ("When extracting from a datetime with a time
   * zone value, the value returned is in UTC", SQL Language Reference, "EXTRACT (datetime)":
   * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/EXTRACT-datetime.html), its zone's offset,
   * region and abbreviation; SECOND with its fraction digits. Undefined for other operands.
   */
  private textDatetimeExtract(p: [number, number] | undefined): string | undefined {
    const toks = this.toks
    if (p === undefined || !isKw(toks[p[0] + 1], "FROM") || toks[p[0]]?.kind !== "ident") return undefined
    const kind = this.textDatetimeAt(p[0] + 2, p[1]) ?? textDatetimeOfText(this.range(p[0] + 2, p[1]))
    if (kind === undefined) return undefined
    const args = datetimeArgument(this.range(p[0] + 2, p[1]), kind)
    const field = toks[p[0]]!.value
    const element = (e: string) => `ora_tstz_format(${args}, '${e}')`
    switch (field) {
      case "TIMEZONE_HOUR":
        return `CAST(${element("TZH")} AS INTEGER)`
      case "TIMEZONE_MINUTE":
        return `(CASE WHEN ${element("TZH")} LIKE '-%' THEN -1 ELSE 1 END * CAST(${element("TZM")} AS INTEGER))`
      case "TIMEZONE_REGION":
        return element("TZR")
      case "TIMEZONE_ABBR":
        return element("TZD")
    }
    const point = kind === "zoned" ? `ora_tstz_utc(${args})` : `ora_tstz_local(${args})`
    if (field === "SECOND") return `(CAST(extract(second FROM ${point}) AS DECIMAL(11,9)) + CAST('0.' || ${element("FF9")} AS DECIMAL(11,9)))`
    return `extract(${field.toLowerCase()} FROM ${point})`
  }

  /**
   * True when tokens [from, to) are one character operand: a text literal, a character column (not also a number or
   * datetime column of another table) or a character bind. Oracle converts such an operand of arithmetic to NUMBER
   * (SQL Language Reference, "Implicit Data Conversion": "In arithmetic operations between CHAR/VARCHAR2 and NCHAR/
   * NVARCHAR2, Oracle converts to a NUMBER"; ORA-01722 for text that is no number).
   */
  private isCharacterAt(from: number, to: number): boolean {
    if (to === from + 1 && this.toks[from]?.kind === "str") return !isKw(this.toks[from - 1], "DATE", "TIMESTAMP", "INTERVAL")
    const name = this.columnNameAt(from, to)
    if (name !== undefined)
      return this.ctx.characterColumns?.has(name) === true && this.ctx.exactNumberColumns?.has(name) !== true && this.ctx.boundedNumberColumns?.has(name) !== true && this.ctx.dateColumns?.has(name) !== true && this.ctx.binaryColumns?.has(name) !== true
    return this.bindIs(this.ctx.textBind, from, to)
  }

  /** The native floating-point type of a bind sent as BINARY_DOUBLE / BINARY_FLOAT at [from, to), if it is one. */
  private binaryBindAt(from: number, to: number): BinaryKind | undefined {
    const t = this.toks[from]
    if (this.ctx.binaryBind === undefined || to !== from + 1 || t?.kind !== "bind") return undefined
    const param = /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
    return param === undefined ? undefined : this.ctx.binaryBind(Number(param))
  }

  private isDateColumnTok(t: Tok | undefined): boolean {
    if (t?.kind === "bind") return this.bindDatetime(t) !== undefined
    return t !== undefined && (t.kind === "ident" || t.kind === "qident") && this.ctx.dateColumns?.has(oracleName(t)) === true
  }

  private isExactIntervalTok(t: Tok | undefined): boolean {
    return t !== undefined && (t.kind === "ident" || t.kind === "qident") && this.ctx.exactIntervalColumns?.has(oracleName(t)) === true
  }

  /** The text datetime kind of bind token `t`, when the context knows it (datetime-binds.ts). */
  private bindDatetime(t: Tok): TextDatetimeKind | undefined {
    if (this.ctx.datetimeBind === undefined) return undefined
    const param = /^\$(\d+)$/.exec(this.ctx.bind(t.value, t))?.[1]
    return param === undefined ? undefined : this.ctx.datetimeBind(Number(param))
  }

  /** End (exclusive) of the operand starting at `i`. */
  private unitEnd(i: number, to: number): number {
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
      if (isOp(toks[k - 1], ")") && isKw(toks[k], "OVER") && isOp(toks[k + 1], "(")) k = matchParen(toks, k + 1) + 1
      return k
    }
    return i + 1
  }

  /**
   * Renders an arithmetic/concatenation expression with Oracle semantics: `a || b` ignores NULL operands
   * (`ora_cat`), `a / 0` raises ORA-01476 (`ora_div`), `date + n` / `date - n` add days and `date - date` gives
   * days (for operands that are recognisably dates). Returns undefined when the range is not a plain expression.
   */
  private expression(from: number, to: number): string | undefined {
    const toks = this.toks
    /** `exact`: the text is an exact NUMBER's decimal text (number-functions.ts computes on it). */
    /** `numeric`: of exact numbers only (exactNumericRange), which DuckDB computes exactly except in division. */
    type Node = { text: string; date: boolean; interval: boolean; binary?: BinaryKind | undefined; exact?: boolean; numeric?: boolean; datetime?: TextDatetimeKind; exactInterval?: ExactIntervalKind; day?: boolean; character?: boolean }
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
      const datetimeNode = (n: Node) => n.date || (n.datetime === "zoned" && /^ora_tstz\(/.test(n.text))
      if (op !== "-" || !datetimeNode(a) || !datetimeNode(b)) return undefined
      const kind = a.datetime === "zoned" || b.datetime === "zoned" ? "zoned" : "wall"
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
        return inner === undefined ? undefined : { text: `(${t.value}${inner.text})`, date: false, interval: inner.interval, binary: inner.binary, numeric: inner.numeric === true }
      }
      const end = this.unitEnd(i, to)
      if (end > to || end <= i) return undefined
      const dateBind = this.bindIs(this.ctx.dateBind, i, end)
      const rendered = isOp(t, "(") ? `(${this.range(i + 1, end - 1)})` : isKw(t, "CASE") ? this.range(i, end) : this.plain(i, end)
      // a PL/SQL DATE / TIMESTAMP value may be held as its text
      const text = dateBind ? `CAST(${rendered} AS TIMESTAMP)` : rendered
      const exact = this.exactColumnAt(i, end) !== undefined || EXACT_RESULT.test(text) || this.bindIs(this.ctx.exactBind, i, end)
      const datetime = this.textDatetimeAt(i, end) ?? textDatetimeOfText(text)
      const exactInterval = this.exactIntervalAt(i, end, text) ?? (this.bindIs(this.ctx.exactSecondsBind, i, end) ? "dayToSecond" : undefined)
      const node = {
        text, date: isDateUnit(toks, i, end, this.ctx.dateColumns) || dateBind, interval: isKw(t, "INTERVAL") || this.isIntervalColumnAt(i, end) || exactInterval !== undefined, binary: binaryKindOf(toks, i, end, this.ctx.binaryColumns) ?? this.binaryBindAt(i, end), exact,
        numeric: this.exactNumericRange(i, end), ...(datetime !== undefined ? { datetime } : {}), ...(exactInterval !== undefined ? { exactInterval } : {}),
        day: this.isDayAt(i, end), character: this.isCharacterAt(i, end)
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
        const binary = binaryOf(left, right)
        const numeric = left.numeric === true && right.numeric === true
        left =
          exactArithmetic(op, left, right) ??
          (op === "/"
            ? { text: binary !== undefined ? `(${left.text} / ${right.text})` : `ora_div(${floating(left, binary)}, ${floating(right, binary)})`, date: false, interval: false, binary }
            : { text: `(${floating(left, binary)} * ${floating(right, binary)})`, date: false, interval: false, binary, numeric })
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
      else if (op === "||") left = { text: `ora_cat(${left.text}, ${right.text})`, date: false, interval: false }
      else if (op === "+" && left.date && !right.interval && !right.date) left = { text: `ora_date_add(${left.text}, ${floating(right, "double")})`, date: true, interval: false }
      else if (op === "+" && right.date && !left.interval && !left.date) left = { text: `ora_date_add(${right.text}, ${floating(left, "double")})`, date: true, interval: false }
      else if (op === "-" && left.date && right.date) left = { text: `ora_date_diff(${left.text}, ${right.text})`, date: false, interval: false }
      else if (op === "-" && left.date && !right.interval) left = { text: `ora_date_add(${left.text}, -(${floating(right, "double")}))`, date: true, interval: false }
      else {
        const binary = binaryOf(left, right)
        const numeric = left.numeric === true && right.numeric === true
        const shifted = left.date && right.interval ? [left.text, op === "-" ? `-(${right.text})` : right.text] : right.date && left.interval && op === "+" ? [right.text, left.text] : undefined
        const text = shifted !== undefined ? `ora_datetime_add(${shifted[0]}, ${shifted[1]})` : `(${floating(left, binary)} ${op} ${floating(right, binary)})`
        left = { text: day ? `CAST(${text} AS TIMESTAMP_S)` : text, date: left.date || right.date, interval: left.interval && right.interval, binary, numeric, day }
      }
    }
    return left !== undefined && i === to ? left.text : undefined
  }

  private one(i: number, to: number): [string, number] {
    const grouped = this.groupedByInstant(i) ?? this.subqueryDistinctByInstant(i) ?? this.subquerySetOperationByInstant(i)
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
        return [this.ctx.bind(t.value, t), i + 1]
      case "qident":
        return [identOut(t), i + 1]
      case "op":
        if (t.value === "(" && isOp(toks[i + 1], "+") && isOp(toks[i + 2], ")"))
          throw ora.unimplemented("Oracle outer join operator (+)")
        return [t.value, i + 1]
      case "ws":
        return [" ", i + 1]
      case "ident":
        return this.windowed(this.ident(i, to), i)
    }
  }

  private instantGrouping: InstantGrouping | undefined
  /** Starts of the grouped expressions being rendered by {@link groupedExpression} (their own rendering is plain). */
  private readonly groupedRendering = new Set<number>()

  /**
   * A zoned expression that groups by instant (datetime-groups.ts `expressionKeys`): tokens [from, to) as a GROUP BY
   * item, COUNT(DISTINCT ...) operand or PARTITION BY item by its instant key, and as an occurrence of a grouped one
   * in the select list, HAVING or ORDER BY (optionally with an alias) as the group's least value by instant, its own
   * zone kept. Undefined for other ranges and for expressions whose value is not zoned (TRUNC, EXTRACT, ...).
   */
  private groupedExpression(from: number, to: number): string | undefined {
    const columns = this.ctx.textDatetimeColumns
    if (columns === undefined || columns.size === 0 || this.groupedRendering.has(from)) return undefined
    this.instantGrouping ??= instantGrouping(this.toks, (name) => columns.get(name) === "zoned")
    const { expressionKeys, expressionRepresentatives } = this.instantGrouping
    const alias = this.toks[to - 1]
    const aliased = expressionRepresentatives.get(from) === to - 1 && (alias?.kind === "ident" || alias?.kind === "qident") && !NOT_ALIAS.has(alias.value)
    const key = expressionKeys.get(from) === to
    if (!key && !aliased && expressionRepresentatives.get(from) !== to) return undefined
    const end = aliased ? to - 1 : to
    this.groupedRendering.add(from)
    let text: string
    try {
      text = this.range(from, end)
    } finally {
      this.groupedRendering.delete(from)
    }
    if ((this.textDatetimeAt(from, end) ?? textDatetimeOfText(text)) !== "zoned") return undefined
    if (key) return `ora_tstz_key(${datetimeArgument(text, "zoned")})`
    const least = textDatetimeExtreme("MIN", text, "zoned")
    return aliased ? `${least} ${identOut(alias!)}` : least
  }

  /**
   * A zoned column reference starting at `i` that groups by instant (datetime-groups.ts): a GROUP BY item or COUNT
   * (DISTINCT ...) operand as its instant key, a grouped reference outside aggregates as its group's least value by
   * instant (arg_min: one of the group's values, as DuckDB picks among equal instants), with the index after it.
   */
  private groupedByInstant(i: number): [string, number] | undefined {
    const columns = this.ctx.textDatetimeColumns
    if (columns === undefined || columns.size === 0) return undefined
    this.instantGrouping ??= instantGrouping(this.toks, (name) => columns.get(name) === "zoned")
    const reference = (end: number) => this.toks.slice(i, end).map((t) => (t.kind === "op" ? t.value : identOut(t))).join("")
    const keyEnd = this.instantGrouping.keys.get(i)
    if (keyEnd !== undefined) return [`ora_tstz_key(${datetimeArgument(reference(keyEnd), "zoned")})`, keyEnd]
    const representative = this.instantGrouping.representatives.get(i)
    if (representative === undefined) return undefined
    const least = textDatetimeExtreme("MIN", reference(representative.end), "zoned")
    const rolled = representative.rolledKey
    const keyText = (from: number, to: number) => `ora_tstz_key(${datetimeArgument(this.toks.slice(from, to).map((t) => (t.kind === "op" ? t.value : identOut(t))).join(""), "zoned")})`
    const text = rolled === undefined ? least : `CASE WHEN grouping(${keyText(rolled[0], rolled[1])}) = 1 THEN NULL ELSE ${least} END`
    return [representative.item ? `${text} AS ${identOut(this.toks[representative.end - 1]!)}` : text, representative.end]
  }

  /**
   * `SELECT DISTINCT` of a subquery whose select list has a zoned column: `DISTINCT ON (...)` with that column's instant
   * key, so that one instant in several zones is one row (the top-level query's DISTINCT is translateQuery's); other
   * items are their own keys. Undefined without a zoned item, or with a bind among the items.
   */
  private subqueryDistinctByInstant(i: number): [string, number] | undefined {
    const toks = this.toks
    if (!isKw(toks[i], "DISTINCT", "UNIQUE") || !isKw(toks[i - 1], "SELECT") || !isOp(toks[i - 2], "(")) return undefined
    const items = distinctItems(toks, i + 1)
    if (items === undefined) return undefined
    const keys: Array<string> = []
    let zoned = false
    // every item is rendered once more for its key: not with binds, which count their renderings
    if (items.some(([from, to]) => toks.slice(from, to).some((t) => t.kind === "bind"))) return undefined
    for (const [from, to] of items) {
      const text = this.range(from, to)
      const kind = this.textDatetimeAt(from, to) ?? textDatetimeOfText(text)
      zoned ||= kind === "zoned"
      // a constant is the same in every row (and DuckDB refuses it as a key)
      if (to === from + 1 && (toks[from]!.kind === "str" || toks[from]!.kind === "num" || isKw(toks[from], "NULL"))) continue
      keys.push(kind === "zoned" ? `ora_tstz_key(${datetimeArgument(text, "zoned")})` : text)
    }
    return zoned ? [`DISTINCT ON (${keys.join(", ")})`, i + 1] : undefined
  }

  /**
   * A parenthesised query with UNION / INTERSECT / MINUS whose first select list has a zoned column, compared by
   * instant as at the top level (setOperationByInstant); undefined for others.
   */
  private subquerySetOperationByInstant(i: number): [string, number] | undefined {
    const toks = this.toks
    if (!isOp(toks[i], "(") || !isKw(toks[i + 1], "SELECT")) return undefined
    const close = matchParen(toks, i)
    if (findTopLevel(toks, i + 1, close, (t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) < 0) return undefined
    const listStart = isKw(toks[i + 2], "DISTINCT", "UNIQUE", "ALL") ? i + 3 : i + 2
    const fromAt = findTopLevel(toks, listStart, close, (t) => isKw(t, "FROM"))
    const items = distinctItems(toks, listStart)
    if (fromAt < 0 || items === undefined) return undefined
    const pieces = items.map(([from, to]) => this.range(from, to))
    // ORDER BY a position or name of a text datetime item: by the result column's instant or wall clock
    const datetimes = new Map<string, { kind: TextDatetimeKind; output: string }>()
    for (const [k, item] of items.entries()) {
      const kind = this.textDatetimeAt(item[0], item[1]) ?? textDatetimeOfText(pieces[k]!)
      const name = selectItemName(toks, item, this.columnNameAt(item[0], item[1]) !== undefined)
      if (kind === undefined || name === undefined) continue
      datetimes.set(String(k + 1), { kind, output: identOut(name) }).set(name.value, { kind, output: identOut(name) })
    }
    const combined = setOperationByInstant(toks, this, items, pieces, fromAt, close, (at) => exactSetOrder(toks, this, at, close, new Map(), datetimes)?.order)
    return combined === undefined ? undefined : [`(${combined(this.range(i + 1, fromAt))})`, close + 1]
  }

  /** A rendered call `[text, next]` with the `OVER (...)` window that follows it, if any. */
  private windowed([text, next]: [string, number], at: number): [string, number] {
    if (!isKw(this.toks[next], "OVER") || !isOp(this.toks[next + 1], "(") || !isOp(this.toks[next - 1], ")")) return [text, next]
    const close = matchParen(this.toks, next + 1)
    const window = `OVER (${this.range(next + 2, close)})`
    return [this.zonedWindowCall(at, text, window) ?? `${text} ${window}`, close + 1]
  }

  /**
   * `f(zoned, ...) OVER (...)` of a window function returning its argument's values (LAG, LEAD, FIRST_VALUE,
   * LAST_VALUE, NTH_VALUE) as a zoned value, so that it is described as TIMESTAMP WITH TIME ZONE; MIN / MAX OVER by
   * instant (the value with the least / greatest instant, its zone kept). Undefined for other calls.
   */
  private zonedWindowCall(at: number, text: string, window: string): string | undefined {
    const toks = this.toks
    const name = toks[at]!.value
    if (toks[at]!.kind !== "ident" || !isOp(toks[at + 1], "(") || !["LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE", "MIN", "MAX"].includes(name)) return undefined
    const first = this.args(at + 1).parts[0]
    if (first === undefined || toks.slice(first[0], first[1]).some((t) => t.kind === "bind")) return undefined
    const operand = this.range(first[0], first[1])
    if ((this.textDatetimeAt(first[0], first[1]) ?? textDatetimeOfText(operand)) !== "zoned") return undefined
    if (name === "MIN" || name === "MAX")
      return `ora_tstz(${name === "MIN" ? "arg_min" : "arg_max"}(CAST(${operand} AS VARCHAR), ora_tstz_key(${datetimeArgument(operand, "zoned")})) ${window}, getvariable('ora_session_tz'))`
    return `ora_tstz(CAST(${text} ${window} AS VARCHAR), getvariable('ora_session_tz'))`
  }

  private args(open: number): { parts: Array<[number, number]>; close: number } {
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

  private ident(i: number, to: number): [string, number] {
    const toks = this.toks
    const t = toks[i]!
    const v = t.value
    const next = toks[i + 1]
    // `SELECT (3+5)`, `SELECT DISTINCT (a)`: the keyword before a parenthesised select item is no function call
    const call = isOp(next, "(") && !isKw(t, "SELECT", "DISTINCT", "UNIQUE", "ALL")
    // sequence pseudo-columns: seq.NEXTVAL / schema.seq.NEXTVAL
    if (isOp(next, ".") && isKw(toks[i + 2], "NEXTVAL", "CURRVAL") && !isOp(toks[i - 1], ".")) {
      return [`${toks[i + 2]!.value === "NEXTVAL" ? "nextval" : "currval"}(${sqlString(encodeName(oracleName(t)))})`, i + 3]
    }
    if (
      isOp(next, ".") &&
      (toks[i + 2]?.kind === "ident" || toks[i + 2]?.kind === "qident") &&
      isOp(toks[i + 3], ".") &&
      isKw(toks[i + 4], "NEXTVAL", "CURRVAL")
    ) {
      const name = `${encodeName(oracleName(t))}.${encodeName(oracleName(toks[i + 2]!))}`
      return [`${toks[i + 4]!.value === "NEXTVAL" ? "nextval" : "currval"}(${sqlString(name)})`, i + 5]
    }
    if (isOp(toks[i - 1], ".")) return [identOut(t), i + 1]
    if (v === "ROWID" && !call) {
      checkRowidComparison(toks, i)
      return ["ora_rowid(rowid)", i + 1]
    }
    // a window frame's `CURRENT ROW` (not a column named ROW)
    if (v === "ROW" && isKw(toks[i - 1], "CURRENT")) return ["ROW", i + 1]
    if (v === "TIMESTAMP" && next?.kind === "str") return [timestampLiteral(next.value), i + 2]
    if (v === "INTERVAL" && next?.kind === "str") {
      let k = i + 2
      const units: string[] = []
      while (k < to && (isKw(toks[k], "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO") || isOp(toks[k], "(") || toks[k]!.kind === "ws")) {
        if (toks[k]!.kind === "ident") units.push(toks[k]!.value)
        k = isOp(toks[k], "(") ? matchParen(toks, k) + 1 : k + 1
      }
      return [intervalLiteral(next.value, units, this.ctx.exactIntervals), k]
    }
    if (!call) {
      switch (v) {
        case "SYSDATE":
          return ["ora_sysdate()", i + 1]
        case "BINARY_DOUBLE_NAN":
        case "BINARY_DOUBLE_INFINITY":
        case "BINARY_FLOAT_NAN":
        case "BINARY_FLOAT_INFINITY":
          return [BINARY_CONSTANTS[v]!, i + 1]
        case "CURRENT_DATE":
          return ["ora_current_date()", i + 1]
        case "SYSTIMESTAMP":
        case "CURRENT_TIMESTAMP":
          // a function call, not `current_timestamp`: DuckDB would resolve that word to an earlier select-list alias
          return ["get_current_timestamp()", i + 1]
        case "LOCALTIMESTAMP":
          return ["ora_localtimestamp()", i + 1]
        case "USER":
          return ["ora_user()", i + 1]
        case "UID":
          return ["ora_uid()", i + 1]
        case "DBTIMEZONE":
          return [sqlString(this.ctx.dbTimeZone), i + 1]
        case "SESSIONTIMEZONE":
          return ["getvariable('ora_session_tz')", i + 1]
        case "MINUS":
          return ["EXCEPT", i + 1]
        case "ROWNUM":
          throw ora.unimplemented("ROWNUM outside a top-level 'WHERE ROWNUM <= n' predicate")
        case "FETCH": {
          // FETCH FIRST|NEXT n ROW|ROWS ONLY -> LIMIT n
          if (isKw(toks[i + 1], "FIRST", "NEXT")) {
            let k = i + 2
            const count = toks[k]
            if (count !== undefined && (count.kind === "num" || count.kind === "bind")) k++
            if (isKw(toks[k], "ROW", "ROWS")) k++
            if (isKw(toks[k], "ONLY")) k++
            const n = count !== undefined && (count.kind === "num" || count.kind === "bind") ? this.range(i + 2, i + 3) : "1"
            return [`LIMIT ${n}`, k]
          }
          break
        }
        case "OFFSET": {
          if (isKw(toks[i + 2], "ROW", "ROWS")) return [`OFFSET ${this.range(i + 1, i + 2)}`, i + 3]
          break
        }
      }
      return [identOut(t), i + 1]
    }
    const { parts, close } = this.args(i + 1)
    // each argument rendered once (a bind callback may count its calls)
    const rendered: Array<string | undefined> = []
    const arg = (k: number) => {
      const p = parts[k]
      return p === undefined ? "NULL" : (rendered[k] ??= this.range(p[0], p[1]))
    }
    // MIN / MAX / SUM / AVG of an exact interval column (interval-exprs.ts), also as a window function
    const intervalType = parts.length === 1 ? this.intervalTypeAt(parts[0]![0], parts[0]![1]) : undefined
    const windowed = intervalType !== undefined && isKw(this.toks[close + 1], "OVER") && isOp(this.toks[close + 2], "(")
    const windowClose = windowed ? matchParen(this.toks, close + 2) : close
    const intervalAggregate = intervalType === undefined ? undefined : exactIntervalAggregate(v, arg(0), intervalType, windowed ? ` OVER (${this.range(close + 3, windowClose)})` : "")
    if (intervalAggregate !== undefined) return [intervalAggregate, windowClose + 1]
    const exactAggregate = this.exactAggregate(v, parts, close)
    if (exactAggregate !== undefined) return exactAggregate
    const exactCall = EXACT_CALLS.has(v) ? exactCallSql(v, parts.map(([a, b], k) => this.callArgument(a, b, arg(k)))) : undefined
    // DECODE / NVL2 with exact NUMBER operands (compared as numbers there) may still give a text datetime
    const conditional = v === "DECODE" ? decodeResults(parts.length) : v === "NVL2" ? [1, 2] : undefined
    if (exactCall !== undefined) return [conditional === undefined ? exactCall : this.textDatetimeResult(parts, conditional, arg).wrap(exactCall), close + 1]
    const zoneCall = zoneFunctionSql(v, parts.map((_, k) => arg(k)), (k) => (this.textDatetimeAt(parts[k]![0], parts[k]![1]) ?? textDatetimeOfText(arg(k))) === "zoned")
    if (zoneCall !== undefined) return [zoneCall, close + 1]
    const binaryCall = binaryConversionSql(v, parts.map((_, k) => arg(k)))
    if (binaryCall !== undefined) return [binaryCall, close + 1]
    switch (v) {
      case "NVL":
      case "COALESCE": {
        // with a text datetime among the arguments, each as one (Oracle converts them to the first one's type)
        const texts = parts.map((_, k) => arg(k))
        const kinds = parts.map(([a, b], k) => this.textDatetimeAt(a, b) ?? textDatetimeOfText(texts[k]!))
        const kind = kinds.includes("zoned") ? "zoned" : kinds.includes("wall") ? "wall" : undefined
        const args = texts.map((text) => (kind === undefined ? text : asTextDatetime(text, kind)))
        if (v === "NVL" || kind !== undefined) return [`coalesce(${args.join(", ")})`, close + 1]
        break
      }
      case "NVL2": {
        // a text datetime result makes the whole call one (zoned-results.ts)
        const result = this.textDatetimeResult(parts, [1, 2], arg)
        return [result.wrap(`(CASE WHEN (${arg(0)}) IS NOT NULL THEN ${result.arg(1)} ELSE ${result.arg(2)} END)`), close + 1]
      }
      case "DECODE": {
        if (parts.length < 3) throw new OraError(938, "not enough arguments for function")
        const result = this.textDatetimeResult(parts, decodeResults(parts.length), arg)
        // a zoned expression or search value: compared by instant, as Oracle compares them
        const searches = [0, ...Array.from({ length: Math.floor((parts.length - 1) / 2) }, (_, n) => 1 + 2 * n)]
        const byInstant = searches.some((n) => (this.textDatetimeAt(parts[n]![0], parts[n]![1]) ?? textDatetimeOfText(arg(n))) === "zoned")
        const compared = (n: number) => (byInstant ? `ora_tstz_key(${datetimeArgument(arg(n), "zoned")})` : `(${arg(n)})`)
        let s = `(CASE`
        let k = 1
        for (; k + 1 < parts.length; k += 2) s += ` WHEN ${compared(0)} IS NOT DISTINCT FROM ${compared(k)} THEN ${result.arg(k + 1)}`
        if (k < parts.length) s += ` ELSE ${result.arg(k)}`
        return [result.wrap(s + " END)"), close + 1]
      }
      case "CAST": {
        // CAST(expr AS type)
        const p = parts[0]
        if (p === undefined) throw ora.missingExpression()
        let asAt = -1
        let depth = 0
        for (let k = p[0]; k < p[1]; k++) {
          if (isOp(toks[k], "(")) depth++
          else if (isOp(toks[k], ")")) depth--
          else if (depth === 0 && isKw(toks[k], "AS")) asAt = k
        }
        if (asAt < 0) throw ora.missingExpression()
        const typeText = toks
          .slice(asAt + 1, p[1])
          .map((x) => x.text)
          .join(" ")
        const ot = parseOracleType(typeText)
        const duckType = ot !== undefined ? ot.duck : typeText
        // an interval literal cast to an interval type (as values written into interval columns are, interval-writes.ts)
        // is written in that type's storage, whatever the statement's other interval columns
        const literal = ot?.kind === "intervalds" || ot?.kind === "intervalym" ? intervalLiteralIn(toks, p[0], asAt) : undefined
        if (literal !== undefined) return [`CAST(${intervalLiteral(literal.text, literal.units, undefined, ot!.duck === "INTERVAL" ? "duck" : "exact")} AS ${duckType})`, close + 1]
        const operand = this.range(p[0], asAt)
        const bindFit = ot !== undefined && asAt === p[0] + 1 && toks[p[0]]?.kind === "bind" ? intervalBindFit(operand, ot) : undefined
        if (bindFit !== undefined) return [bindFit, close + 1]
        const fromInterval = ot === undefined ? undefined : this.intervalTypeAt(p[0], asAt)
        const crossed = fromInterval === undefined ? undefined : intervalCast(operand, fromInterval, ot!, (x) => durationOfExact(x, fromInterval.kind === "intervalds" ? "dayToSecond" : "yearToMonth", false))
        if (crossed !== undefined) return [crossed, close + 1]
        // an interval expression (not one bind, text or NULL, which take the exact storage as they are)
        const expression = ot === undefined || fromInterval !== undefined || asAt - p[0] < 2 ? undefined : exactIntervalExpressionCast(operand, ot)
        if (expression !== undefined) return [expression, close + 1]
        // NUMBER without precision keeps every digit of the value (number-functions.ts)
        if (ot?.kind === "number" && ot.duck === "VARCHAR")
          return [ot.dictName === "FLOAT" ? `ora_number_digits(CAST(${operand} AS VARCHAR), ${floatDecimalDigits(ot.precision)})` : `ora_number(CAST(${operand} AS VARCHAR))`, close + 1]
        // a TIMESTAMP WITH TIME ZONE is text with its zone (a TIMESTAMP is read in the session time zone); a text
        // datetime cast to TIMESTAMP or DATE keeps its own wall clock (Oracle drops the zone), to LOCAL TIME ZONE its instant
        const textKind = this.textDatetimeAt(p[0], asAt) ?? textDatetimeOfText(operand)
        if (ot?.kind === "timestamptz") return [`ora_tstz(${datetimeArgument(operand, "zoned")})`, close + 1]
        if (ot?.kind === "timestamp" && ot.duck === "VARCHAR" && !this.isLocalZoneColumn(p[0], asAt)) return [`ora_ts(CAST(${operand} AS VARCHAR))`, close + 1]
        if (ot?.kind === "timestampltz" && ot.duck === "VARCHAR") return [`ora_tstz_at(${datetimeArgument(operand, "zoned")}, '+00:00')`, close + 1]
        if (textKind !== undefined && (ot?.kind === "timestamp" || ot?.kind === "date")) {
          const shown = this.isLocalZoneColumn(p[0], asAt) ? inSessionZone(operand) : operand
          return [`CAST(ora_tstz_local(${datetimeArgument(shown, textKind)}) AS ${duckType})`, close + 1]
        }
        if (textKind !== undefined && ot?.kind === "timestampltz") return [`CAST(ora_tstz_utc(${datetimeArgument(operand, "zoned")}) AS ${duckType})`, close + 1]
        // LOCAL TIME ZONE values read as the session's wall clock; a TIMESTAMP becomes zoned in the session time zone
        if (this.isLocalZoneColumn(p[0], asAt) && (ot?.kind === "timestamp" || ot?.kind === "date"))
          return [`CAST(ora_session_local(${operand}) AS ${duckType})`, close + 1]
        // any other value by its text: an instant (DuckDB renders it at +00) or a zoned text as it is, a TIMESTAMP or
        // DATE in the session time zone
        if (ot?.kind === "timestampltz") return [`CAST(ora_tstz_utc(${datetimeArgument(operand, "zoned")}) AS ${duckType})`, close + 1]
        return [`CAST(${operand} AS ${duckType})`, close + 1]
      }
      case "TO_CHAR":
        if (parts.length >= 2 && toks[parts[1]![0]]?.kind === "str")
        {
          const [from, to] = parts[0]!
          const argument = this.callArgument(from, to, arg(0))
          const number = numberFormatSql(v, arg(0), toks[parts[1]![0]]!.value, argument.exact || argument.binary || this.exactNumericRange(from, to), this.stringArgument(parts[2]))
          if (number !== undefined) return [number, close + 1]
          const zoned = this.zonedOperand(parts[0]![0], parts[0]![1])
          if (zoned !== undefined) return [zonedToChar(zoned, toks[parts[1]![0]]!.value), close + 1]
          const textKind = this.textDatetimeAt(parts[0]![0], parts[0]![1]) ?? textDatetimeOfText(arg(0))
          // a LOCAL TIME ZONE value kept as text (TIMESTAMP(7-9)) is shown in the session time zone
          const shown = this.isLocalZoneColumn(parts[0]![0], parts[0]![1]) ? inSessionZone(arg(0)) : arg(0)
          if (textKind !== undefined) return [textDatetimeToChar(shown, textKind, toks[parts[1]![0]]!.value), close + 1]
          checkOutputFormat(toks[parts[1]![0]]!.value)
          const fmt = convertDateFormat(toks[parts[1]![0]]!.value, true)
          // nanoseconds need TIMESTAMP_NS, whose range (1677-2262) is too small for every DATE: only when asked for
          if (!fmt.includes("%n")) return [withOracleYears(`ora_to_char_fmt(${arg(0)}, ${sqlString(fmt)})`, fmt), close + 1]
          const x = arg(0)
          return [withOracleYears(`(${strftimeNs(fmt, (f) => `ora_to_char_fmt_ns(${x}, ${sqlString(f)})`)})`, fmt), close + 1]
        }
        if (parts[0] !== undefined && (this.exactColumnAt(parts[0][0], parts[0][1]) !== undefined || EXACT_RESULT.test(arg(0))))
          return [`CAST(ora_number(CAST(${arg(0)} AS VARCHAR)) AS VARCHAR)`, close + 1]
        {
          const intervalType = parts.length === 1 ? (this.intervalTypeAt(parts[0]![0], parts[0]![1]) ?? intervalCastTypeAt(toks, parts[0]![0], parts[0]![1]) ?? exactIntervalTypeOfText(arg(0))) : undefined
          if (intervalType !== undefined) return [intervalToChar(arg(0), intervalType), close + 1]
        }
        return [`ora_to_char(${arg(0)})`, close + 1]
      case "TO_DATE":
      case "TO_TIMESTAMP":
        if (parts.length >= 2 && toks[parts[1]![0]]?.kind === "str") {
          const format = toks[parts[1]![0]]!.value
          checkInputFormat(format)
          // RR, J and FX, which strptime lacks, read as TO_TIMESTAMP_TZ reads them (datetime-parse.ts)
          if (/RR|J|FX/i.test(format.replace(/"[^"]*"?/g, "")))
            return [`CAST(ora_tstz_local(ora_datetime_of_format(CAST(${arg(0)} AS VARCHAR), ${sqlString(format)}), '') AS ${v === "TO_DATE" ? "TIMESTAMP_S" : "TIMESTAMP"})`, close + 1]
          // strptime reads year 0000 as 1 BC, a year Oracle refuses to read (ORA-01841)
          return [`ora_nonzero_year(CAST(strptime(${arg(0)}, ${sqlString(convertDateFormat(format))}) AS ${v === "TO_DATE" ? "TIMESTAMP_S" : "TIMESTAMP"}))`, close + 1]
        }
        return [`CAST(${arg(0)} AS ${v === "TO_DATE" ? "TIMESTAMP_S" : "TIMESTAMP"})`, close + 1]
      case "TO_TIMESTAMP_TZ":
        // a text with its own zone, else the session's (datetime-parse.ts reads the format model)
        if (parts.length >= 2 && toks[parts[1]![0]]?.kind === "str")
          return [`ora_tstz(${datetimeArgument(`ora_datetime_of_format(CAST(${arg(0)} AS VARCHAR), ${sqlString(toks[parts[1]![0]]!.value)})`, "zoned")})`, close + 1]
        return [`ora_tstz(${datetimeArgument(arg(0), "zoned")})`, close + 1]
      case "TO_NUMBER":
        // without a format model: the exact NUMBER of the text (ORA-01722 for text that is no number)
        if (parts.length === 1) return [`ora_number(CAST(${arg(0)} AS VARCHAR))`, close + 1]
        // with a format model: the number the text shows in it (number-format.ts)
        if (toks[parts[1]![0]]?.kind === "str") return [numberFormatSql(v, arg(0), toks[parts[1]![0]]!.value, false, this.stringArgument(parts[2]))!, close + 1]
        return [`CAST(${arg(0)} AS DOUBLE)`, close + 1]
      case "MIN":
      case "MAX": {
        // of text datetimes: the value with the least or greatest instant (zoned) or wall clock, its zone kept
        const p = parts[0]
        const kind = p === undefined || parts.length !== 1 || isKw(toks[close + 1], "OVER") ? undefined : (this.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(arg(0)))
        if (kind === undefined) break
        return [textDatetimeExtreme(v, arg(0), kind), close + 1]
      }
      case "EXTRACT": {
        const p = parts[0]
        // a DATE has no time zone, and Oracle reads no time field from it either (ORA-30076)
        if (p !== undefined && isKw(toks[p[0]], "HOUR", "MINUTE", "SECOND", "TIMEZONE_HOUR", "TIMEZONE_MINUTE", "TIMEZONE_REGION", "TIMEZONE_ABBR") && isKw(toks[p[0] + 1], "FROM") && isDateOnly(toks, p[0] + 2, p[1]))
          throw new OraError(30076, "invalid extract field for extract source")
        const intervalType = p !== undefined && isKw(toks[p[0] + 1], "FROM") ? this.intervalTypeAt(p[0] + 2, p[1]) : undefined
        const fromInterval = intervalType === undefined ? undefined : exactIntervalExtract(toks[p![0]]!.value, this.range(p![0] + 2, p![1]), intervalType)
        if (fromInterval !== undefined) return [fromInterval, close + 1]
        const extracted = this.textDatetimeExtract(parts[0])
        if (extracted !== undefined) return [extracted, close + 1]
        break
      }
      case "ORA_JSON_OF":
        // json-sql.ts: an exact NUMBER (decimal text to DuckDB) is a JSON number, not a string
        if (parts[0] !== undefined && this.callArgument(parts[0][0], parts[0][1], arg(0)).exact) return [`ora_json_number(CAST(${arg(0)} AS VARCHAR))`, close + 1]
        break
      case "SUBSTR":
        if (parts.length > 3) throw new OraError(939, "too many arguments for function")
        if (parts.length < 2) throw new OraError(938, "not enough arguments for function")
        return [`substr(${parts.map((_, k) => arg(k)).join(", ")})`, close + 1]
      case "LENGTHB":
        return [`octet_length(CAST(${arg(0)} AS BLOB))`, close + 1]
      case "MOD":
        // "Returns n2 if n1 is 0" (SQL Language Reference, MOD)
        return [`ora_mod(${arg(0)}, ${arg(1)})`, close + 1]
      case "SYS_GUID":
        return [`unhex(replace(CAST(gen_random_uuid() AS VARCHAR), '-', ''))`, close + 1]
      case "ADD_MONTHS":
        return [`CAST((${arg(0)}) + to_months(CAST(${arg(1)} AS INTEGER)) AS TIMESTAMP)`, close + 1]
      case "EMPTY_CLOB":
        return ["''", close + 1]
      case "EMPTY_BLOB":
        return ["CAST('' AS BLOB)", close + 1]
      case "TO_CLOB":
      case "TO_NCLOB":
        return [`CAST(${arg(0)} AS VARCHAR)`, close + 1]
      case "HEXTORAW":
        return [`unhex(${arg(0)})`, close + 1]
      case "RAWTOHEX":
        return [`upper(hex(${arg(0)}))`, close + 1]
      case "LISTAGG": {
        // `WITHIN GROUP (ORDER BY ...)` orders the list (DuckDB: an ORDER BY inside the aggregate call)
        const within = this.withinGroup(close + 1)
        return [`string_agg(${arg(0)}, ${parts.length > 1 ? arg(1) : "''"}${within.order === "" ? "" : ` ${within.order}`})`, within.next]
      }
      case "REGEXP_LIKE":
        return [`regexp_matches(${arg(0)}, ${arg(1)})`, close + 1]
      case "SYS_CONTEXT":
        return [`sys_context(${arg(0)}, ${arg(1)})`, close + 1]
      case "REPLACE":
        // Oracle: a NULL (or '') replacement removes the search string
        return [`replace(${arg(0)}, ${arg(1)}, coalesce(${parts.length > 2 ? arg(2) : "NULL"}, ''))`, close + 1]
      case "INSTR":
        if (parts.length === 3) return [`ora_instr_nth(${arg(0)}, ${arg(1)}, ${arg(2)}, 1)`, close + 1]
        if (parts.length === 4) return [`ora_instr_nth(${arg(0)}, ${arg(1)}, ${arg(2)}, ${arg(3)})`, close + 1]
        break
      case "TRUNC":
      case "ROUND": {
        // TRUNC/ROUND of a date (recognisable operand or a datetime format model) -> date_trunc
        const p0 = parts[0]
        const fmtTok = parts[1] !== undefined ? toks[parts[1][0]] : undefined
        const unitOf: Record<string, string> = { YYYY: "year", YEAR: "year", Y: "year", YY: "year", RRRR: "year", Q: "quarter", MM: "month", MON: "month", MONTH: "month", RM: "month", WW: "week", IW: "week", DD: "day", DDD: "day", J: "day", HH: "hour", HH12: "hour", HH24: "hour", MI: "minute" }
        const fmt = fmtTok?.kind === "str" ? unitOf[fmtTok.value.toUpperCase()] : undefined
        // the argument is a date when its first operand is one (`hired`, `hired + 1`, `SYSDATE - 7`)
        const dateArg = p0 !== undefined && p0[1] - p0[0] >= 1 && isDateUnit(toks, p0[0], Math.min(p0[1], this.unitEnd(p0[0], p0[1])), this.ctx.dateColumns)
        // of a text datetime, its own wall clock (TRUNC returns a DATE, SQL Language Reference, "TRUNC (date)")
        const textKind = p0 === undefined ? undefined : (this.textDatetimeAt(p0[0], p0[1]) ?? textDatetimeOfText(arg(0)))
        const operand = textKind === undefined ? `CAST(${arg(0)} AS TIMESTAMP)` : wallClockOf(arg(0), textKind)
        if (v === "TRUNC" && p0 !== undefined && (fmt !== undefined || ((dateArg || textKind !== undefined) && parts.length === 1)))
          return [`CAST(date_trunc('${fmt ?? "day"}', ${operand}) AS TIMESTAMP_S)`, close + 1]
        const rounded = v === "ROUND" && p0 !== undefined && (dateArg || textKind !== undefined) && (fmt !== undefined || parts.length === 1) ? roundedDatetime(operand, fmt ?? "day") : undefined
        if (rounded !== undefined) return [rounded, close + 1]
        break
      }
    }
    return [`${identOut(t)}(${parts.map((_, k) => arg(k)).join(", ")})`, close + 1]
  }

  /** The text of a call's argument [from, to) when it is a character literal. */
  private stringArgument(part: readonly [number, number] | undefined): string | undefined {
    const t = part === undefined || part[1] !== part[0] + 1 ? undefined : this.toks[part[0]]
    return t?.kind === "str" ? t.value : undefined
  }

  /** A call's argument in tokens [from, to), rendered, with what number-sql.ts needs to know of its type. */
  private callArgument(from: number, to: number, text: string): CallArgument {
    return {
      text,
      exact: this.exactColumnAt(from, to) !== undefined || EXACT_RESULT.test(text),
      binary: binaryKindOf(this.toks, from, to, this.ctx.binaryColumns) !== undefined,
      textLiteral: to === from + 1 && this.toks[from]!.kind === "str"
    }
  }

  /**
   * SUM / AVG / MIN / MAX of an exact NUMBER, also as window functions (`OVER (...)`): SUM and AVG on every digit
   * over the group's (or window frame's) list of values, MIN and MAX by the order key; with the index after the call,
   * or undefined for other calls.
   */
  private exactAggregate(name: string, parts: ReadonlyArray<[number, number]>, close: number): [string, number] | undefined {
    if (!["SUM", "AVG", "MIN", "MAX"].includes(name) || parts.length !== 1) return undefined
    const [start, end] = parts[0]!
    const distinct = isKw(this.toks[start], "DISTINCT")
    const from = distinct ? start + 1 : start
    const value = this.range(from, end)
    // AVG of exact numbers divides on every digit (DuckDB's AVG of DECIMALs is a DOUBLE)
    if (this.exactColumnAt(from, end) === undefined && !EXACT_RESULT.test(value) && !(name === "AVG" && this.exactNumericRange(from, end))) return undefined
    const text = `CAST(${value} AS VARCHAR)`
    const windowed = isKw(this.toks[close + 1], "OVER") && isOp(this.toks[close + 2], "(")
    const windowClose = windowed ? matchParen(this.toks, close + 2) : close
    const over = windowed ? ` OVER (${this.range(close + 3, windowClose)})` : ""
    if (name === "MIN" || name === "MAX") return [`ora_number(${name === "MIN" ? "arg_min" : "arg_max"}(${text}, ora_number_key(${text}))${over})`, windowClose + 1]
    return [`ora_number_${name.toLowerCase()}(list(${distinct ? "DISTINCT " : ""}${text})${over})`, windowClose + 1]
  }

  /** The translated `ORDER BY ...` of a `WITHIN GROUP (...)` at `k` ("" when there is none) and the index after it. */
  private withinGroup(k: number): { readonly order: string; readonly next: number } {
    if (isKw(this.toks[k], "WITHIN") && isKw(this.toks[k + 1], "GROUP") && isOp(this.toks[k + 2], "(")) {
      const close = matchParen(this.toks, k + 2)
      return { order: this.range(k + 3, close), next: close + 1 }
    }
    return { order: "", next: k }
  }
}

/**
 * The ORDER BY of a set operation (UNION / MINUS / INTERSECT) that names exact NUMBER columns of the result by
 * position or name, ordered by their numbers: DuckDB orders a set operation's result only by plain columns, so the
 * set operation (`query`, from its first FROM up to the ORDER BY) becomes a subquery the `order` clause sorts.
 * Undefined when the ORDER BY names no such column.
 */
const exactSetOrder = (
  toks: ReadonlyArray<Tok>,
  tr: Translator,
  fromAt: number,
  end: number,
  outputs: ReadonlyMap<string, string>,
  /** Text datetime items by position and name: ordered by their result column's instant or wall clock. */
  datetimes: ReadonlyMap<string, { readonly kind: TextDatetimeKind; readonly output: string }> = new Map()
): { readonly query: string; readonly order: string } | undefined => {
  let orderAt = -1
  let depth = 0
  for (let k = fromAt; k < end; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "ORDER") && isKw(toks[k + 1], "BY")) orderAt = k
  }
  if (orderAt < 0 || (outputs.size === 0 && datetimes.size === 0)) return undefined
  let itemsEnd = end
  depth = 0
  for (let k = orderAt + 2; k < end; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "FETCH", "OFFSET")) {
      itemsEnd = k
      break
    }
  }
  const items: Array<string> = []
  let exact = false
  let start = orderAt + 2
  for (let k = orderAt + 2; k <= itemsEnd; k++) {
    if (k < itemsEnd && !isOp(toks[k], ",")) {
      if (isOp(toks[k], "(")) k = matchParen(toks, k)
      continue
    }
    const ref = toks[start]
    const named = ref !== undefined && (ref.kind === "num" || ref.kind === "ident" || ref.kind === "qident")
    const refKey = ref === undefined ? "" : ref.kind === "num" ? ref.value : oracleName(ref)
    const output = named ? outputs.get(refKey) : undefined
    const datetime = named && (ref.kind === "num" || ref.kind === "ident") ? datetimes.get(ref.value) : undefined
    const tail = start + 1 < k ? ` ${tr.range(start + 1, k)}` : ""
    if (output !== undefined) {
      exact = true
      items.push(`ora_number_key(CAST(${output} AS VARCHAR))${tail}`)
    } else if (datetime !== undefined) {
      exact = true
      items.push(`ora_tstz_key(${datetimeArgument(datetime.output, datetime.kind)})${tail}`)
    } else items.push(tr.range(start, k))
    start = k + 1
  }
  if (!exact) return undefined
  return { query: tr.range(fromAt, orderAt), order: `ORDER BY ${items.join(", ")}${itemsEnd < end ? ` ${tr.range(itemsEnd, end)}` : ""}` }
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

/** The column when tokens [from, to) are one (possibly qualified) text datetime column: described as the column is. */
const textDatetimeColumnAt = (toks: ReadonlyArray<Tok>, tr: Translator, from: number, to: number): { qualifier?: string; column: string } | undefined => {
  const last = toks[to - 1]
  if (last === undefined || (last.kind !== "ident" && last.kind !== "qident") || tr.textDatetimeAt(from, to) === undefined) return undefined
  return to - from === 3 ? { qualifier: oracleName(toks[from]!), column: oracleName(last) } : { column: oracleName(last) }
}

/**
 * The select-list items that are text datetime columns, by their position ("1") and output name, with their expression:
 * ORDER BY naming them orders by instant or wall clock (`ora_tstz_key`), not by their text.
 */
const datetimeOrderItems = (toks: ReadonlyArray<Tok>, tr: Translator, itemRanges: ReadonlyArray<[number, number]>) => {
  const out = new Map<string, { text: string; kind: TextDatetimeKind; output: string }>()
  for (const [k, [from, to]] of itemRanges.entries()) {
    const last = toks[to - 1]!
    const alias = isKw(toks[to - 2], "AS") ? 2 : 1
    const bare = tr.textDatetimeAt(from, to)
    const kind = bare ?? tr.textDatetimeAt(from, to - alias)
    if (kind === undefined) continue
    // a bare column is its own name; a grouped one renders as `value AS name` (datetime-groups.ts)
    const text = tr.range(from, bare !== undefined ? to : to - alias).replace(/ AS (?:"(?:[^"]|"")*"|[A-Za-z_][\w$#]*)$/, "")
    out.set(String(k + 1), { text, kind, output: identOut(last) }).set(last.value, { text, kind, output: identOut(last) })
  }
  return out
}

/**
 * The expression ranges (aliases left out) of the select list starting at `start` up to its FROM, or undefined when
 * an item is `*` or the list has no FROM at its depth.
 */
const distinctItems = (toks: ReadonlyArray<Tok>, start: number): Array<[number, number]> | undefined => {
  const out: Array<[number, number]> = []
  let itemStart = start
  for (let k = start; k < toks.length; k++) {
    if (isOp(toks[k], "(")) k = matchParen(toks, k)
    else if (isOp(toks[k], ")")) return undefined
    else if (isOp(toks[k], ",") || isKw(toks[k], "FROM")) {
      let end = k
      if (isKw(toks[end - 2], "AS")) end -= 2
      else if (end - itemStart >= 2 && (toks[end - 1]!.kind === "qident" || (toks[end - 1]!.kind === "ident" && !NOT_ALIAS.has(toks[end - 1]!.value))) && !isOp(toks[end - 2], ".")) end -= 1
      if (end <= itemStart || isOp(toks[end - 1], "*")) return undefined
      out.push([itemStart, end])
      if (isKw(toks[k], "FROM")) return out
      itemStart = k + 1
    }
  }
  return undefined
}

/**
 * A top-level chain of UNION / INTERSECT / MINUS whose select list has a TIMESTAMP WITH TIME ZONE item, compared by
 * instant (datetime-groups.ts instantSetOperations): the SQL given the first branch's rendered select list; undefined
 * when no item is zoned. A trailing ORDER BY / FETCH / OFFSET applies to the whole result.
 */
const setOperationByInstant = (
  toks: ReadonlyArray<Tok>, tr: Translator, itemRanges: ReadonlyArray<[number, number]>, pieces: ReadonlyArray<string>, fromAt: number, end: number,
  /** The trailing ORDER BY starting at a token, ordering the result's columns by their keys (exactSetOrder). */
  orderOf: (from: number) => string | undefined = () => undefined
): ((selectList: string) => string) | undefined => {
  const kinds = itemRanges.map(([from, to], k) => tr.textDatetimeAt(from, to) ?? tr.textDatetimeAt(from, to - 1) ?? tr.textDatetimeAt(from, to - 2) ?? textDatetimeOfText(pieces[k] ?? ""))
  if (!kinds.includes("zoned") || pieces.some((p) => /\*\s*$/.test(p))) return undefined
  const operators: Array<{ at: number; op: SetBranch["op"]; next: number }> = []
  let trailing = end
  let depth = 0
  for (let k = fromAt; k < end; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "UNION", "INTERSECT", "MINUS", "EXCEPT")) {
      const all = isKw(toks[k], "UNION") && isKw(toks[k + 1], "ALL")
      operators.push({ at: k, op: all ? "UNION ALL" : isKw(toks[k], "UNION") ? "UNION" : isKw(toks[k], "INTERSECT") ? "INTERSECT" : "MINUS", next: all ? k + 2 : k + 1 })
      trailing = end
    } else if (depth === 0 && operators.length > 0 && trailing === end && ((isKw(toks[k], "ORDER") && isKw(toks[k + 1], "BY")) || isKw(toks[k], "FETCH", "OFFSET"))) trailing = k
  }
  if (operators.length === 0) return undefined
  const branches = operators.map((o, n) => ({ op: o.op, sql: tr.range(o.next, n + 1 < operators.length ? operators[n + 1]!.at : trailing) }))
  const keys = kinds.map((kind, k) => (kind === "zoned" ? `ora_tstz_key(${datetimeArgument(`#${k + 1}`, "zoned")})` : `#${k + 1}`))
  const rest = trailing < end ? ` ${orderOf(trailing) ?? tr.range(trailing, end)}` : ""
  return (selectList) => {
    const combined = instantSetOperations(`${selectList} ${tr.range(fromAt, operators[0]!.at)}`, branches, keys)
    return rest === "" ? combined : `SELECT * FROM (${combined})${rest}`
  }
}

/**
 * The `DISTINCT ON` keys of a `SELECT DISTINCT` list with a TIMESTAMP WITH TIME ZONE item: every item by its output
 * name, a zoned one by its instant, so that values at one instant in different zones are one row, as Oracle compares
 * them (datetime-groups.ts); undefined when no item is zoned or an item is `*`.
 */
const distinctByInstant = (tr: Translator, itemRanges: ReadonlyArray<[number, number]>, pieces: ReadonlyArray<string>): string | undefined => {
  const keys: Array<string> = []
  let zoned = false
  for (const [k, [from, to]] of itemRanges.entries()) {
    const piece = pieces[k] ?? ""
    const name = /("(?:[^"]|"")*"|[A-Za-z_][\w$#]*)\s*$/.exec(piece)?.[1]
    if (name === undefined || /\*\s*$/.test(piece)) return undefined
    const kind = tr.textDatetimeAt(from, to) ?? tr.textDatetimeAt(from, to - 1) ?? tr.textDatetimeAt(from, to - 2) ?? textDatetimeOfText(piece)
    zoned ||= kind === "zoned"
    keys.push(kind === "zoned" ? `ora_tstz_key(${datetimeArgument(name, "zoned")})` : name)
  }
  return zoned ? keys.join(", ") : undefined
}

/**
 * Translates a top-level query: adds Oracle column headings as aliases, rewrites a trailing
 * `WHERE ... ROWNUM <= n` into LIMIT, and reports the select-list shape.
 */
export const translateQuery = (
  toks: ReadonlyArray<Tok>,
  tr: Translator,
  /** Adds the row id of the (single) FROM table as a last, undescribed column (LOB locators that write back). */
  withRowid = false
): { sql: string; shape: QueryShape } => {
  checkSetOperationLiterals(toks)
  checkIncompleteExpressions(toks)
  // locate the top-level SELECT that produces the result columns (skip WITH ... AS (...) blocks)
  let selectAt = 0
  if (isKw(toks[0], "WITH")) {
    let depth = 0
    for (let k = 0; k < toks.length; k++) {
      if (isOp(toks[k], "(")) depth++
      else if (isOp(toks[k], ")")) depth--
      else if (depth === 0 && isKw(toks[k], "SELECT")) {
        selectAt = k
        break
      }
    }
  }
  let listStart = selectAt + 1
  if (isKw(toks[listStart], "DISTINCT", "UNIQUE", "ALL")) listStart++
  let fromAt = -1
  let depth = 0
  for (let k = listStart; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "FROM")) {
      fromAt = k
      break
    }
  }
  if (fromAt < 0) throw new OraError(923, "FROM keyword not found where expected")
  // split the select list
  const items: Array<SelectItem> = []
  const pieces: Array<string> = []
  /** Exact NUMBER columns of the select list by position ("1") and name, with their column text. */
  const exactOrder = new Map<string, string>()
  /** Exact NUMBER columns of the select list by position and name, with their output column name (set operations). */
  const exactOutputs = new Map<string, string>()
  let start = listStart
  depth = 0
  /** `INTERVAL '...' YEAR[(p)] [TO MONTH]` or `... MONTH`, optionally aliased: DuckDB has one INTERVAL type. */
  const yearMonthLiteral = (part: ReadonlyArray<Tok>): OraType | undefined => {
    if (!isKw(part[0], "INTERVAL") || part[1]?.kind !== "str" || !isKw(part[2], "YEAR", "MONTH")) return undefined
    let k = 3
    let lead = 2
    if (isOp(part[k], "(") && part[k + 1]?.kind === "num" && isOp(part[k + 2], ")")) {
      lead = Number(part[k + 1]!.value)
      k += 3
    }
    if (isKw(part[k], "TO") && isKw(part[k + 1], "MONTH")) k += 2
    if (isKw(part[k], "AS")) k++
    if (k < part.length - 1 || (k === part.length - 1 && part[k]!.kind !== "ident" && part[k]!.kind !== "qident")) return undefined
    return intervalYmType(lead)
  }
  /** `INTERVAL '...' DAY|HOUR|MINUTE|SECOND ...` with nanosecond digits as the whole item: DuckDB holds it as DECIMAL seconds. */
  const dayTimeNanosLiteral = (part: ReadonlyArray<Tok>): OraType | undefined => {
    if (!isKw(part[0], "INTERVAL") || part[1]?.kind !== "str" || !isKw(part[2], "DAY", "HOUR", "MINUTE", "SECOND")) return undefined
    const fraction = /\.(\d+)\s*$/.exec(part[1].value)?.[1] ?? ""
    if (!/[1-9]/.test(fraction.slice(6, 9))) return undefined
    let k = 3
    while (k < part.length && (isKw(part[k], "DAY", "HOUR", "MINUTE", "SECOND", "TO") || part[k]!.kind === "num" || isOp(part[k], "(") || isOp(part[k], ")") || isOp(part[k], ","))) k++
    if (isKw(part[k], "AS")) k++
    if (k < part.length - 1 || (k === part.length - 1 && part[k]!.kind !== "ident" && part[k]!.kind !== "qident")) return undefined
    return intervalDsType(9, 9)
  }
  /**
   * CURRENT_TIMESTAMP or SYSTIMESTAMP, optionally aliased, as the whole item: all its values are in one known zone. A
   * zoned TIMESTAMP literal with more than 6 fraction digits: TIMESTAMP(9) WITH TIME ZONE (others are described by the
   * type alias of their text, datetime-functions.ts, as TIMESTAMP(6) WITH TIME ZONE).
   */
  const zonedLiteral = (part: ReadonlyArray<Tok>): OraType | undefined => {
    if (isKw(part[0], "CURRENT_TIMESTAMP", "SYSTIMESTAMP")) {
      // CURRENT_TIMESTAMP is in the session time zone, SYSTIMESTAMP in the database's
      const zone = tr.zoneOf(part[0]!.value as "CURRENT_TIMESTAMP" | "SYSTIMESTAMP")
      const k = isKw(part[1], "AS") ? 2 : 1
      const whole = part.length === k || (part.length === k + 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
      return whole && zone !== undefined ? { ...timestampType(6, "tz"), zone } : undefined
    }
    if (!isKw(part[0], "TIMESTAMP") || part[1]?.kind !== "str" || tr.textDatetimeAt(start, start + 2) !== "zoned" || !/\.\d{7,}/.test(part[1].value)) return undefined
    const k = isKw(part[2], "AS") ? 3 : 2
    const whole = part.length === k || (part.length === k + 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
    return whole ? timestampType(9, "tz") : undefined
  }
  /** `COUNT|SUM|AVG(...) [OVER (...)] [[AS] alias]` as the whole item. */
  const isAggregate = (part: ReadonlyArray<Tok>): boolean => {
    if (!isKw(part[0], "COUNT", "SUM", "AVG") || !isOp(part[1], "(")) return false
    let k = matchParen(part, 1) + 1
    if (isKw(part[k], "OVER") && isOp(part[k + 1], "(")) k = matchParen(part, k + 1) + 1
    if (isKw(part[k], "AS")) k++
    return k === part.length || (k === part.length - 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
  }
  /** True when `part` ends at `k` or holds only an alias (`[AS] name`) from there. */
  const aliasOnlyFrom = (part: ReadonlyArray<Tok>, k: number): boolean => {
    if (isKw(part[k], "AS")) k++
    return k === part.length || (k === part.length - 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
  }
  /** `[-]BINARY_DOUBLE_NAN|INFINITY` or `CAST(... AS BINARY_DOUBLE)` as the whole item: DuckDB's DOUBLE alone reads as NUMBER. */
  const binaryDouble = (part: ReadonlyArray<Tok>): boolean => {
    let k = isOp(part[0], "-") ? 1 : 0
    if (isKw(part[k], "BINARY_DOUBLE_NAN", "BINARY_DOUBLE_INFINITY")) k++
    else if (isKw(part[k], "CAST") && isOp(part[k + 1], "(")) {
      const close = matchParen(part, k + 1)
      if (!isKw(part[close - 1], "BINARY_DOUBLE") || !isKw(part[close - 2], "AS")) return false
      k = close + 1
    } else return false
    return aliasOnlyFrom(part, k)
  }
  /**
   * A signed or unsigned NUMBER literal (`1`, `1.5`, `-2e3`; not `1.5d` / `1.5f`) as the whole item: a constant, which
   * Oracle describes as NUMBER with precision 0 and scale -127 whatever its digits (DuckDB's DECIMAL(2,1) of `1.5`
   * would say NUMBER(2,1)); see results.ts, "expr", for the sources.
   */
  const numberLiteral = (part: ReadonlyArray<Tok>): boolean => {
    const k = isOp(part[0], "-") || isOp(part[0], "+") ? 1 : 0
    const t = part[k]
    return t?.kind === "num" && !/[fFdD]$/.test(t.text) && aliasOnlyFrom(part, k + 1)
  }
  /** `:bind [[AS] alias]` as the whole item: the parameter number it was rendered as. */
  const bindParam = (part: ReadonlyArray<Tok>, text: string): number | undefined => {
    if (part[0]?.kind !== "bind") return undefined
    let k = 1
    if (isKw(part[k], "AS")) k++
    if (k < part.length - 1 || (k === part.length - 1 && part[k]!.kind !== "ident" && part[k]!.kind !== "qident")) return undefined
    const m = /^\s*\$(\d+)/.exec(text)
    return m === null ? undefined : Number(m[1])
  }
  const exprItem = (part: ReadonlyArray<Tok>, ym: OraType | undefined, text: string): SelectItem => {
    const param = bindParam(part, text)
    return param !== undefined ? { kind: "bind", param } : valueItem(part, ym, text)
  }
  const valueItem = (part: ReadonlyArray<Tok>, ym: OraType | undefined, text: string): SelectItem => {
    const constructed = constructedType(part)
    return constructed !== undefined ? { kind: "typed", type: constructed } : literalItem(part, ym, text)
  }
  const literalItem = (part: ReadonlyArray<Tok>, ym: OraType | undefined, text: string): SelectItem => {
    if (ym !== undefined) return { kind: "typed", type: ym }
    if (binaryDouble(part)) return { kind: "typed", type: binaryDoubleType }
    const localZone = aliasOnlyFrom(part, isOp(part[1], "(") ? matchParen(part, 1) + 1 : part.length) ? tr.localZoneCastAt(start, start + (isOp(part[1], "(") ? matchParen(part, 1) + 1 : 0)) : undefined
    if (localZone !== undefined) return { kind: "typed", type: localZone }
    if (numberLiteral(part)) return { kind: "typed", type: numberType() }
    const literal = toks.some((t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) ? undefined : stringLiteralType(part)
    if (literal !== undefined) return { kind: "typed", type: literal }
    // the numeric type of the operands (results.ts describes the item with it when DuckDB's result is a float)
    const binary = binaryKindOf(part, 0, part.length, tr.binaryColumns)
    const params = [...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]))
    const typing = { ...(binary !== undefined ? { binary } : {}), ...(params.length > 0 ? { params } : {}) }
    if (isAggregate(part)) return { kind: "aggregate", ...typing }
    return { kind: "expr", ...typing, number: numberDescription(part) }
  }
  /** The DuckDB row id expression of an aliased ROWID item (`ROWID [AS] a`, `q.ROWID [AS] a`), or undefined. */
  const aliasedRowid = (part: ReadonlyArray<Tok>): string | undefined => {
    const expression = isKw(part[part.length - 2], "AS") ? part.slice(0, -2) : part.slice(0, -1)
    const isRowid = (t: Tok | undefined) => t?.kind === "ident" && t.value === "ROWID"
    if (expression.length === 1 && isRowid(expression[0])) return "rowid"
    if (expression.length === 3 && isOp(expression[1], ".") && isRowid(expression[2])) return `${identOut(expression[0]!)}.rowid`
    return undefined
  }
  /** Token ranges of the select-list items. */
  const itemRanges: Array<[number, number]> = []
  const flush = (end: number) => {
    itemRanges.push([start, end])
    const part = toks.slice(start, end)
    const ym = yearMonthLiteral(part) ?? dayTimeNanosLiteral(part) ?? zonedLiteral(part)
    if (part.length === 0) throw ora.missingExpression()
    const last = part[part.length - 1]!
    const prev = part[part.length - 2]
    const text = tr.range(start, end)
    if (part.length === 1 && isOp(last, "*")) {
      items.push({ kind: "star" })
      pieces.push(text)
    } else if (part.length === 3 && isOp(part[1], ".") && isOp(last, "*")) {
      items.push({ kind: "star", qualifier: oracleName(part[0]!) })
      pieces.push(text)
    } else if (part.length === 1 && (last.kind === "ident" || last.kind === "qident") && !NOT_ALIAS.has(last.value)) {
      items.push(last.kind === "ident" && last.value === "ROWID" ? { kind: "rowid" } : { kind: "col", column: oracleName(last) })
      if (tr.exactColumnAt(start, end) !== undefined) {
        exactOrder.set(oracleName(last), text).set(String(items.length), text)
        exactOutputs.set(oracleName(last), identOut(last)).set(String(items.length), identOut(last))
      }
      pieces.push(last.kind === "ident" && last.value === "ROWID" ? `rowid AS "ROWID"` : text)
    } else if (part.length === 3 && isOp(part[1], ".") && isKw(last, "NEXTVAL", "CURRVAL")) {
      items.push({ kind: "expr" })
      pieces.push(`${text} AS ${quoteDuck(encodeName(last.value))}`)
    } else if (part.length === 3 && isOp(part[1], ".") && (last.kind === "ident" || last.kind === "qident")) {
      items.push(last.kind === "ident" && last.value === "ROWID" ? { kind: "rowid" } : { kind: "col", qualifier: oracleName(part[0]!), column: oracleName(last) })
      if (tr.exactColumnAt(start, end) !== undefined) exactOutputs.set(oracleName(last), identOut(last)).set(String(items.length), identOut(last))
      pieces.push(last.kind === "ident" && last.value === "ROWID" ? `${identOut(part[0]!)}.rowid AS "ROWID"` : text)
    } else if (
      part.length >= 2 &&
      (last.kind === "ident" || last.kind === "qident") &&
      !NOT_ALIAS.has(last.value) &&
      prev !== undefined &&
      !isOp(prev, ".") &&
      (prev.kind !== "op" || isOp(prev, ")")) || (part.length >= 2 && isKw(prev, "AS") && (last.kind === "ident" || last.kind === "qident"))
    ) {
      // explicit alias
      const rowid = aliasedRowid(part)
      if (rowid !== undefined) {
        // `ROWID r` / `t.ROWID AS r`: still the pseudocolumn, whose values "have the data type ROWID" (Oracle SQL
        // Language Reference, "ROWID Pseudocolumn"), described as type 11 like the bare item
        items.push({ kind: "rowid" })
        pieces.push(`${rowid} AS ${identOut(last)}`)
      } else {
        const columnEnd = end - (isKw(prev, "AS") ? 2 : 1)
        const aliased = tr.exactColumnAt(start, columnEnd) ?? textDatetimeColumnAt(toks, tr, start, columnEnd)
        items.push(aliased !== undefined ? { kind: "col", ...aliased } : exprItem(part, ym, text))
        const expression = tr.range(start, columnEnd)
        if (aliased !== undefined || EXACT_RESULT.test(expression)) {
          exactOrder.set(oracleName(last), expression).set(String(items.length), expression)
          exactOutputs.set(oracleName(last), identOut(last)).set(String(items.length), identOut(last))
        }
        pieces.push(text)
      }
    } else {
      items.push(exprItem(part, ym, text))
      pieces.push(`${text} AS ${quoteDuck(encodeName(headingOf(part)))}`)
      if (EXACT_RESULT.test(text)) {
        exactOrder.set(String(items.length), text)
        exactOutputs.set(String(items.length), quoteDuck(encodeName(headingOf(part))))
      }
    }
  }
  for (let k = listStart; k < fromAt; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isOp(toks[k], ",")) {
      flush(k)
      start = k + 1
    }
  }
  flush(fromAt)
  // ORDER BY a position or alias of an exact NUMBER column orders by its number (not with set operations, whose
  // ORDER BY names the combined result's columns)
  const setOperation = toks.some((t, k) => k > fromAt && isKw(t, "UNION", "MINUS", "INTERSECT", "EXCEPT"))
  if (!setOperation) tr.orderByExactItems(exactOrder)
  const datetimeItems = datetimeOrderItems(toks, tr, itemRanges)
  if (!setOperation) tr.orderByDatetimeItems(datetimeItems)
  // FROM list: table references and subqueries with their shapes (subquery-shapes.ts)
  const from = fromRefs(toks, fromAt + 1, toks.length, tr.binaryColumns)
  // FOR UPDATE [OF ...] [NOWAIT | WAIT n | SKIP LOCKED]: the session locks the selected rows (sqlsession.ts)
  let end = toks.length
  let lockWait: RowLockClause["wait"] | null = null
  const lockOf: Array<{ qualifier?: string; column: string }> = []
  depth = 0
  for (let j = fromAt; j < toks.length; j++) {
    if (isOp(toks[j], "(")) depth++
    else if (isOp(toks[j], ")")) depth--
    else if (depth === 0 && isKw(toks[j], "FOR") && isKw(toks[j + 1], "UPDATE")) {
      end = j
      const nowait = toks.findIndex((x, n) => n > j && isKw(x, "NOWAIT"))
      const wait = toks.findIndex((x, n) => n > j && isKw(x, "WAIT"))
      const skip = toks.findIndex((x, n) => n > j && isKw(x, "SKIP"))
      lockWait = nowait > 0 ? "nowait" : skip > 0 ? "skip" : wait > 0 && toks[wait + 1]?.kind === "num" ? Number(toks[wait + 1]!.value) : undefined
      if (isKw(toks[j + 2], "OF"))
        for (let m = j + 3; m < toks.length && !isKw(toks[m], "NOWAIT", "WAIT", "SKIP"); m++) {
          const t = toks[m]!
          if ((t.kind !== "ident" && t.kind !== "qident") || isOp(toks[m + 1], ".")) continue
          const qualified = isOp(toks[m - 1], ".") && (toks[m - 2]?.kind === "ident" || toks[m - 2]?.kind === "qident")
          lockOf.push({ ...(qualified ? { qualifier: oracleName(toks[m - 2]!) } : {}), column: oracleName(t) })
        }
      break
    }
  }
  // ROWNUM limit at top level: WHERE [..AND] ROWNUM <(=) n [AND ..]
  let limit: string | undefined
  const rest: Array<[number, number]> = []
  let whereAt = -1
  depth = 0
  for (let j = fromAt; j < end; j++) {
    if (isOp(toks[j], "(")) depth++
    else if (isOp(toks[j], ")")) depth--
    else if (depth === 0 && isKw(toks[j], "WHERE")) whereAt = j
  }
  let body: string | undefined
  if (whereAt >= 0) {
    depth = 0
    for (let j = whereAt + 1; j < end; j++) {
      if (isOp(toks[j], "(")) depth++
      else if (isOp(toks[j], ")")) depth--
      else if (depth === 0 && isKw(toks[j], "ROWNUM")) {
        const op = toks[j + 1]
        const n = toks[j + 2]
        if (op === undefined || n === undefined || (n.kind !== "num" && n.kind !== "bind")) throw ora.unimplemented("ROWNUM predicate")
        const nText = tr.range(j + 2, j + 3)
        if (isOp(op, "<=")) limit = nText
        else if (isOp(op, "<")) limit = `(${nText}) - 1`
        else if (isOp(op, "=") && n.kind === "num" && n.value === "1") limit = "1"
        else throw ora.unimplemented("ROWNUM predicate")
        // remove "ROWNUM op n" together with an adjacent AND
        let from0 = j
        let to0 = j + 3
        if (isKw(toks[j - 1], "AND")) from0 = j - 1
        else if (isKw(toks[j + 3], "AND")) to0 = j + 4
        rest.push([from0, to0])
        break
      }
    }
    if (rest.length > 0) {
      const [a, b] = rest[0]!
      let left = tr.range(fromAt, a)
      const right = tr.range(b, end)
      if (a === whereAt + 1 && (b >= end || !isKw(toks[b - 1], "AND"))) {
        // the predicate was the whole WHERE clause
        const whereOnly = b >= end || isKw(toks[b], "GROUP", "ORDER", "UNION")
        if (whereOnly) left = tr.range(fromAt, whereAt)
      }
      body = `${left} ${right}`
    }
  }
  const distinctOn = isKw(toks[listStart - 1], "DISTINCT", "UNIQUE") ? distinctByInstant(tr, itemRanges, pieces) : undefined
  const head = distinctOn === undefined ? tr.range(0, listStart) : `${tr.range(0, listStart - 1)} DISTINCT ON (${distinctOn})`
  const instantSet = setOperation && body === undefined && lockWait === null && !withRowid ? setOperationByInstant(toks, tr, itemRanges, pieces, fromAt, end, (at) => exactSetOrder(toks, tr, at, end, exactOutputs, datetimeItems)?.order) : undefined
  if (instantSet !== undefined) return { sql: instantSet(`${head} ${pieces.join(", ")}`), shape: { items, from } }
  const setOrder = setOperation && body === undefined && lockWait === null && !withRowid ? exactSetOrder(toks, tr, fromAt, end, exactOutputs, datetimeItems) : undefined
  if (setOrder !== undefined) return { sql: `SELECT * FROM (${head} ${pieces.join(", ")} ${setOrder.query}) ${setOrder.order}`, shape: { items, from } }
  body ??= tr.range(fromAt, end)
  let sql = `${head} ${[...pieces, ...(withRowid ? [`rowid AS "ora$lob_rowid"`] : [])].join(", ")} ${body}`
  if (limit !== undefined) sql = `${sql} LIMIT ${limit}`
  const lock = lockWait === null ? undefined : { wait: lockWait, of: lockOf, source: tr.range(fromAt, end) }
  return { sql, shape: { items, from, ...(lock !== undefined ? { lock } : {}) } }
}
