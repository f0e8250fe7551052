/**
 * DuckDB scalar functions over intervals in both storages (intervals.ts): DuckDB INTERVALs for DAY TO SECOND(0-6) and
 * YEAR(0-8) TO MONTH, exact numbers for DAY TO SECOND(7-9) (DECIMAL(38,9) seconds) and YEAR(9) TO MONTH (BIGINT
 * months). The translator (interval-exprs.ts) routes MIN / MAX, comparisons and arithmetic between the two storages,
 * EXTRACT, TO_CHAR and CAST of exact intervals through them, so that they behave as Oracle's INTERVAL types do.
 *
 * Results that are intervals in exact storage are typed with the aliases {@link EXACT_DS_ALIAS} (DECIMAL(38,9)) and
 * {@link EXACT_YM_ALIAS} (BIGINT), which describe them as INTERVAL DAY(9) TO SECOND(9) and INTERVAL YEAR(9) TO MONTH.
 */
import { BIGINT, DuckDBBigIntType, DuckDBDecimalType, DuckDBVarCharType, INTEGER, INTERVAL, VARCHAR, decimalValue, intervalValue } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBIntervalValue, DuckDBScalarFunction, DuckDBValue } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { ora, OraError } from "./errors.ts"
import { nanosOfDuckInterval } from "./intervals.ts"
import { WALL_ALIAS, ZONED_ALIAS } from "./datetime-functions.ts"
import { addToNanos, atInstant, datetimeText, parseDatetimeText, utcNanos } from "./datetime.ts"
import { EXACT_NUMBER_ALIAS } from "./number-functions.ts"

/** Alias of the DECIMAL(38,9) type exact DAY TO SECOND results are typed (described as INTERVAL DAY(9) TO SECOND(9)). */
export const EXACT_DS_ALIAS = "ORA_INTERVAL_DS"
/** Alias of the BIGINT type exact YEAR TO MONTH results are typed (described as INTERVAL YEAR(9) TO MONTH). */
export const EXACT_YM_ALIAS = "ORA_INTERVAL_YM"

const exactDs = new DuckDBDecimalType(38, 9, EXACT_DS_ALIAS)
const exactYm = new DuckDBBigIntType(EXACT_YM_ALIAS)
const exactNumber = new DuckDBVarCharType(EXACT_NUMBER_ALIAS)

const NS_PER_SECOND = 1_000_000_000n
/** The limits of INTERVAL DAY(9) TO SECOND(9) and YEAR(9) TO MONTH (SQL Language Reference, "Interval Literals"). */
const MAX_DS_NANOS = 999_999_999n * 86_400n * NS_PER_SECOND + 86_399n * NS_PER_SECOND + 999_999_999n
const MAX_YM_MONTHS = 999_999_999n * 12n + 11n

/** Nanoseconds of DECIMAL seconds given as text (`-93784.123456789`). */
const nanosOfSeconds = (text: DuckDBValue): bigint => {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(String(text).trim())
  if (m === null) throw ora.inconsistentTypes(`INTERVAL DAY TO SECOND value ${String(text)}`)
  const n = BigInt(m[2] || "0") * NS_PER_SECOND + BigInt((m[3] ?? "").padEnd(9, "0").slice(0, 9))
  return m[1] === "-" ? -n : n
}

/** ORA-01873 beyond the largest leading precision, as Oracle raises for an interval result out of range. */
const checked = (value: bigint, max: bigint): bigint => {
  if (value > max || value < -max) throw new OraError(1873, "the leading precision of the interval is too small")
  return value
}

/** A text datetime's instant (its wall clock when zoneless) in nanoseconds; ORA-01861 for text that is none. */
const datetimeNanos = (text: DuckDBValue, zone: DuckDBValue | undefined): bigint => {
  const z = zone === null || zone === undefined ? "" : String(zone)
  const v = parseDatetimeText(String(text), z === "" ? undefined : z)
  if (v === undefined) throw new OraError(1861, "literal does not match format string")
  return utcNanos(v)
}

const dsValue = (nanos: bigint) => decimalValue(checked(nanos, MAX_DS_NANOS), 38, 9)
const ymValue = (months: bigint) => checked(months, MAX_YM_MONTHS)

/** Total months of a DuckDB INTERVAL (its days and time count nothing: a YEAR TO MONTH value has none). */
const monthsOfDuck = (v: DuckDBIntervalValue): bigint => BigInt(v.months)

/** The fields of a DAY TO SECOND value, each with the value's sign (as EXTRACT and node-oracledb read them). */
const dsFields = (nanos: bigint) => {
  const sign = nanos < 0n ? -1n : 1n
  const a = nanos * sign
  const days = a / (86_400n * NS_PER_SECOND)
  const inDay = a % (86_400n * NS_PER_SECOND)
  return { sign, days, hours: inDay / (3600n * NS_PER_SECOND), minutes: (inDay / (60n * NS_PER_SECOND)) % 60n, nanos: inDay % (60n * NS_PER_SECOND) }
}

const pad = (n: bigint, width: number) => n.toString().padStart(width, "0")

/**
 * EXTRACT(field FROM interval): DAY, HOUR, MINUTE as integers, SECOND with its fraction, YEAR and MONTH, each carrying
 * the interval's sign (SQL Language Reference, "EXTRACT (datetime)": "If DAY is requested, then expr must evaluate to
 * an expression of data type ... INTERVAL DAY TO SECOND"; other fields ORA-30076).
 */
const extractDs = (field: string, nanos: bigint): string => {
  const f = dsFields(nanos)
  const signText = f.sign < 0n ? "-" : ""
  switch (field) {
    case "DAY":
      return f.days === 0n ? "0" : signText + f.days.toString()
    case "HOUR":
      return f.hours === 0n ? "0" : signText + f.hours.toString()
    case "MINUTE":
      return f.minutes === 0n ? "0" : signText + f.minutes.toString()
    case "SECOND": {
      if (f.nanos === 0n) return "0"
      const whole = f.nanos / NS_PER_SECOND
      const fraction = pad(f.nanos % NS_PER_SECOND, 9).replace(/0+$/, "")
      return `${signText}${whole}${fraction === "" ? "" : "." + fraction}`
    }
    default:
      throw new OraError(30076, "invalid extract field for extract source")
  }
}

const extractYm = (field: string, months: bigint): string => {
  const sign = months < 0n ? "-" : ""
  const a = months < 0n ? -months : months
  const v = field === "YEAR" ? a / 12n : field === "MONTH" ? a % 12n : undefined
  if (v === undefined) throw new OraError(30076, "invalid extract field for extract source")
  return v === 0n ? "0" : sign + v.toString()
}

/**
 * TO_CHAR(interval): Oracle's interval text, `+DD HH:MI:SS.FFFFFF` with the days padded to the leading precision and
 * the fraction to the fractional seconds precision (`+000000001 02:03:04.123456789` for DAY(9) TO SECOND(9)), and
 * `+YY-MM` for YEAR TO MONTH (`+000000005-03` for YEAR(9)), the format of the interval literals (SQL Language Reference,
 * "Interval Literals"; TO_CHAR (character) takes an interval and returns it in that form).
 */
const dsText = (nanos: bigint, lead: number, fsp: number): string => {
  const f = dsFields(nanos)
  const seconds = f.nanos / NS_PER_SECOND
  const fraction = fsp === 0 ? "" : "." + pad(f.nanos % NS_PER_SECOND, 9).slice(0, fsp)
  return `${f.sign < 0n ? "-" : "+"}${pad(f.days, lead)} ${pad(f.hours, 2)}:${pad(f.minutes, 2)}:${pad(seconds, 2)}${fraction}`
}

const ymText = (months: bigint, lead: number): string => {
  const a = months < 0n ? -months : months
  return `${months < 0n ? "-" : "+"}${pad(a / 12n, lead)}-${pad(a % 12n, 2)}`
}

/**
 * A datetime (its text, read in `zone`; '' for a zoneless wall clock) plus exact DAY TO SECOND nanoseconds: a zoned
 * value moves by its UTC instant, its zone kept ("Oracle Database performs all timestamp arithmetic in UTC time",
 * Database Globalization Support Guide, "Datetime and Interval Arithmetic and Time Zones"), a wall clock by itself;
 * every digit of the interval is added, as Oracle adds an INTERVAL DAY TO SECOND(9) to a TIMESTAMP.
 */
const plusNanos = (text: DuckDBValue, zone: DuckDBValue, nanos: bigint): string => {
  const z = zone === null || zone === undefined ? "" : String(zone)
  const v = parseDatetimeText(String(text), z === "" ? undefined : z)
  if (v === undefined) throw new OraError(1861, "literal does not match format string")
  return datetimeText(v.offsetMinutes === undefined ? { wall: addToNanos(v.wall, 0, nanos) } : atInstant(v, utcNanos(v) + nanos))
}

/** Nanoseconds of a DuckDB INTERVAL's text (`1 year 2 months 3 days -04:05:06.5`; a month counts 30 days). */
const nanosOfDuckText = (text: string): bigint | undefined => {
  let nanos = 0n
  let rest = text.trim()
  for (;;) {
    const m = /^(-?\d+) (year|month|day)s?\s*/.exec(rest)
    if (m === null) break
    const n = BigInt(m[1]!)
    nanos += m[2] === "year" ? n * 360n * 86_400n * NS_PER_SECOND : m[2] === "month" ? n * 30n * 86_400n * NS_PER_SECOND : n * 86_400n * NS_PER_SECOND
    rest = rest.slice(m[0].length)
  }
  if (rest === "") return nanos
  const t = /^(-?)(\d+):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(rest)
  if (t === null) return undefined
  const time = ((BigInt(t[2]!) * 60n + BigInt(t[3]!)) * 60n + BigInt(t[4]!)) * NS_PER_SECOND + BigInt((t[5] ?? "").padEnd(9, "0"))
  return nanos + (t[1] === "-" ? -time : time)
}

/**
 * Nanoseconds of a DAY TO SECOND value given as the text of either storage (DECIMAL seconds, a DuckDB INTERVAL) or
 * in Oracle's literal form (`+000000001 02:03:04.5`): an interval expression of unknown storage brought to exact storage.
 */
const nanosOfAnyDsText = (value: DuckDBValue): bigint => {
  const text = String(value).trim()
  if (/^-?\d*(?:\.\d*)?$/.test(text)) return nanosOfSeconds(text)
  const o = /^([+-]?)(\d+) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,9}))?$/.exec(text)
  if (o !== null) {
    const n = (((BigInt(o[2]!) * 24n + BigInt(o[3]!)) * 60n + BigInt(o[4]!)) * 60n + BigInt(o[5]!)) * NS_PER_SECOND + BigInt((o[6] ?? "").padEnd(9, "0"))
    return o[1] === "-" ? -n : n
  }
  const duck = nanosOfDuckText(text)
  if (duck === undefined) throw ora.inconsistentTypes(`INTERVAL DAY TO SECOND value ${text}`)
  return duck
}

/** Months of a YEAR TO MONTH value given as BIGINT months, a DuckDB INTERVAL's text or Oracle's literal form (`+05-03`). */
const monthsOfAnyYmText = (value: DuckDBValue): bigint => {
  const text = String(value).trim()
  if (/^-?\d+$/.test(text)) return BigInt(text)
  const o = /^([+-]?)(\d+)-(\d{1,2})$/.exec(text)
  if (o !== null) return (o[1] === "-" ? -1n : 1n) * (BigInt(o[2]!) * 12n + BigInt(o[3]!))
  let months = 0n
  for (const m of text.matchAll(/(-?\d+) (year|month)s?/g)) months += BigInt(m[1]!) * (m[2] === "year" ? 12n : 1n)
  return months
}

/** ORA-01873 when `whole` (days or years) needs more digits than the leading field precision `lead`. */
const checkedLead = (whole: bigint, lead: number): void => {
  if ((whole < 0n ? -whole : whole) >= 10n ** BigInt(lead)) throw new OraError(1873, "the leading precision of the interval is too small")
}

/**
 * A DAY TO SECOND value (text of any storage) at DAY(lead) TO SECOND(fsp): the fraction rounded half away from zero
 * to fsp digits ("INTERVAL '30.12345' SECOND(2,4)" is 30.1235 seconds, SQL Language Reference, "Interval
 * Literals"), ORA-01873 when the days need more than lead digits.
 */
const fitDs = (value: DuckDBValue, lead: DuckDBValue, fsp: DuckDBValue): bigint => {
  const nanos = nanosOfAnyDsText(value)
  const unit = 10n ** BigInt(9 - Number(fsp))
  const magnitude = (((nanos < 0n ? -nanos : nanos) + unit / 2n) / unit) * unit
  const rounded = nanos < 0n ? -magnitude : magnitude
  checkedLead(rounded / (86_400n * NS_PER_SECOND), Number(lead))
  return rounded
}

/** A YEAR TO MONTH value (text of any storage) at YEAR(lead) TO MONTH: ORA-01873 when the years need more than lead digits. */
const fitYm = (value: DuckDBValue, lead: DuckDBValue): bigint => {
  const months = monthsOfAnyYmText(value)
  checkedLead(months / 12n, Number(lead))
  return months
}

/**
 * An interval as an ISO 8601 duration, as SQL/JSON generation writes an interval value (its JSON scalar's string form,
 * "Returns this interval as an ISO 8601 String", oracle.sql.json OracleJsonIntervalDS / OracleJsonIntervalYM; the
 * duration syntax `[-]P[nY][nM][nD][T[nH][nM][n[.f]S]]` of JSON Developer's Guide, "ISO 8601 Date, Time, and
 * Duration Support"). Which zero fields real Oracle leaves out is unconfirmed: here every zero field is, PT0S / P0M
 * for zero.
 */
const isoDurationDs = (nanos: bigint): string => {
  const sign = nanos < 0n ? "-" : ""
  let n = nanos < 0n ? -nanos : nanos
  const days = n / (86_400n * NS_PER_SECOND)
  n -= days * 86_400n * NS_PER_SECOND
  const hours = n / (3600n * NS_PER_SECOND)
  n -= hours * 3600n * NS_PER_SECOND
  const minutes = n / (60n * NS_PER_SECOND)
  n -= minutes * 60n * NS_PER_SECOND
  const fraction = (n % NS_PER_SECOND).toString().padStart(9, "0").replace(/0+$/, "")
  const seconds = n === 0n ? "" : `${n / NS_PER_SECOND}${fraction === "" ? "" : `.${fraction}`}S`
  const time = `${hours === 0n ? "" : `${hours}H`}${minutes === 0n ? "" : `${minutes}M`}${seconds}`
  const date = days === 0n ? "" : `${days}D`
  return date === "" && time === "" ? "PT0S" : `${sign}P${date}${time === "" ? "" : `T${time}`}`
}

/** A YEAR TO MONTH value's months as an ISO 8601 duration (`P1Y2M`, `-P3M`, `P0M`); see isoDurationDs. */
const isoDurationYm = (months: bigint): string => {
  const m = months < 0n ? -months : months
  const years = m / 12n
  const rest = m % 12n
  if (m === 0n) return "P0M"
  return `${months < 0n ? "-" : ""}P${years === 0n ? "" : `${years}Y`}${rest === 0n ? "" : `${rest}M`}`
}

const functions = (): Array<DuckDBScalarFunction> => [
  // an interval value of either storage (its text) in SQL/JSON generation: a JSON string holding its ISO 8601 duration
  fn("ora_json_ds", [VARCHAR], VARCHAR, ([s]) => JSON.stringify(isoDurationDs(nanosOfAnyDsText(s!)))),
  fn("ora_json_ym", [VARCHAR], VARCHAR, ([s]) => JSON.stringify(isoDurationYm(monthsOfAnyYmText(s!)))),
  // an engine INTERVAL of an expression, whose Oracle type the translator did not know: months alone are YEAR TO MONTH
  // (its text, as the macro over any type can pass every value)
  fn("ora_json_duck_interval", [VARCHAR], VARCHAR, ([v]) => {
    const text = String(v).trim()
    return JSON.stringify(/^(?:-?\d+ years?)?\s*(?:-?\d+ months?)?$/.test(text) && text !== "" ? isoDurationYm(monthsOfAnyYmText(text)) : isoDurationDs(nanosOfAnyDsText(text)))
  }),
  fn("ora_tstz_add_exact", [VARCHAR, VARCHAR, VARCHAR], new DuckDBVarCharType(ZONED_ALIAS), ([t, z, s]) => plusNanos(t!, z!, nanosOfSeconds(s!))),
  fn("ora_ts_add_exact", [VARCHAR, VARCHAR], new DuckDBVarCharType(WALL_ALIAS), ([t, s]) => plusNanos(t!, "", nanosOfSeconds(s!))),
  // an exact interval as a result of its kind (MIN / MAX / arithmetic of exact storage, described as an interval)
  fn("ora_ds_exact", [VARCHAR], exactDs, ([s]) => dsValue(nanosOfSeconds(s!))),
  fn("ora_ym_exact", [BIGINT], exactYm, ([m]) => ymValue(BigInt(m as bigint))),
  // the difference of two text datetimes (datetime-functions.ts: a value and its zone argument each), to the
  // nanosecond: of their instants, or of their wall clocks when zoneless
  fn("ora_ds_between", [VARCHAR, VARCHAR, VARCHAR, VARCHAR], exactDs, ([a, za, b, zb]) => dsValue(datetimeNanos(a!, za) - datetimeNanos(b!, zb))),
  // a DuckDB INTERVAL in exact storage (comparisons, arithmetic and CAST between the storages)
  fn("ora_ds_of_duck", [INTERVAL], exactDs, ([v]) => {
    const i = v as DuckDBIntervalValue
    return dsValue(nanosOfDuckInterval(i.months, i.days, i.micros))
  }),
  fn("ora_ym_of_duck", [INTERVAL], exactYm, ([v]) => ymValue(monthsOfDuck(v as DuckDBIntervalValue))),
  // an interval expression of either storage (its text) in exact storage: CAST of an expression to an exact interval
  fn("ora_ds_of_text", [VARCHAR], exactDs, ([s]) => dsValue(nanosOfAnyDsText(s!))),
  // a bound value written into (cast to) an interval type of given precisions, in that type's storage
  fn("ora_ds_fit_exact", [VARCHAR, INTEGER, INTEGER], exactDs, ([s, lead, fsp]) => dsValue(fitDs(s!, lead!, fsp!))),
  fn("ora_ds_fit_duck", [VARCHAR, INTEGER, INTEGER], INTERVAL, ([s, lead, fsp]) => {
    const nanos = fitDs(s!, lead!, fsp!)
    const days = nanos / (86_400n * NS_PER_SECOND)
    return intervalValue(0, Number(days), (nanos - days * 86_400n * NS_PER_SECOND) / 1000n)
  }),
  fn("ora_ym_fit_exact", [VARCHAR, INTEGER], exactYm, ([s, lead]) => ymValue(fitYm(s!, lead!))),
  fn("ora_ym_fit_duck", [VARCHAR, INTEGER], INTERVAL, ([s, lead]) => intervalValue(Number(fitYm(s!, lead!)), 0, 0n)),
  fn("ora_ym_of_text", [VARCHAR], exactYm, ([s]) => ymValue(monthsOfAnyYmText(s!))),
  fn("ora_ds_extract", [VARCHAR, VARCHAR], exactNumber, ([field, s]) => extractDs(String(field), nanosOfSeconds(s!))),
  fn("ora_ym_extract", [VARCHAR, BIGINT], exactNumber, ([field, m]) => extractYm(String(field), BigInt(m as bigint))),
  fn("ora_ds_text", [VARCHAR, INTEGER, INTEGER], VARCHAR, ([s, lead, fsp]) => dsText(nanosOfSeconds(s!), Number(lead), Number(fsp))),
  fn("ora_ym_text", [BIGINT, INTEGER], VARCHAR, ([m, lead]) => ymText(BigInt(m as bigint), Number(lead))),
  // a DuckDB INTERVAL as Oracle's text (TO_CHAR of a DAY TO SECOND(0-6) / YEAR(0-8) TO MONTH value)
  fn("ora_ds_duck_text", [INTERVAL, INTEGER, INTEGER], VARCHAR, ([v, lead, fsp]) => {
    const i = v as DuckDBIntervalValue
    return dsText(nanosOfDuckInterval(i.months, i.days, i.micros), Number(lead), Number(fsp))
  }),
  fn("ora_ym_duck_text", [INTERVAL, INTEGER], VARCHAR, ([v, lead]) => ymText(monthsOfDuck(v as DuckDBIntervalValue), Number(lead)))
]

/** Registers the functions in the database `connection` belongs to. */
export const registerIntervalFunctions = (connection: DuckDBConnection): void => {
  for (const f of functions()) connection.registerScalarFunction(f)
}
