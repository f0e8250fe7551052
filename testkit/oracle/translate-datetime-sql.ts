/**
 * The DuckDB SQL the translator writes for datetimes: text datetimes (TIMESTAMP WITH TIME ZONE and TIMESTAMP(7-9),
 * datetime-functions.ts) as arguments, keys and extremes, TO_CHAR of zoned values, ROUND of dates, exact intervals as
 * durations, and Oracle datetime format models as strftime formats.
 */
import { SESSION_DATE_LANGUAGE } from "./date-language.ts"
import { sqlString } from "./lexer.ts"
import { CALENDAR_ELEMENTS, YEAR_MARK } from "./datetime-functions.ts"
import type { ExactIntervalKind, TextDatetimeKind, ZonedOperand } from "./translate-types.ts"

/** The zone datetime-functions.ts reads zoneless operands in: the session's where a zoned value is involved. */
export const zoneArgument = (kind: TextDatetimeKind): string => (kind === "zoned" ? "getvariable('ora_session_tz')" : "''")

/** The text datetime kind of translated text that is a call of datetime-functions.ts giving one. */
export const textDatetimeOfText = (text: string): TextDatetimeKind | undefined =>
  /^\(*(?:coalesce\()?ora_tstz(?:_add|_at|_add_exact)?\(/.test(text) ? "zoned" : /^\(*(?:coalesce\()?ora_ts(?:_add|_add_exact)?\(/.test(text) ? "wall" : undefined

/** A text datetime operand as the functions of datetime-functions.ts take it. */
export const datetimeArgument = (text: string, kind: TextDatetimeKind): string => `CAST(${text} AS VARCHAR), ${zoneArgument(kind)}`

/** Oracle's datetime format elements the server formats itself for text datetimes (datetime-functions.ts formatElement). */
export const TEXT_DATETIME_ELEMENT = /TZH:TZM|TZH|TZM|TZR|TZD|FF[1-9]?/i

/** A text datetime's own wall clock as a DuckDB TIMESTAMP (Oracle drops the zone converting to TIMESTAMP or DATE). */
export const wallClockOf = (text: string, kind: TextDatetimeKind): string => `ora_tstz_local(${datetimeArgument(text, kind)})`

/** A zoned text datetime seen in the session time zone: how a LOCAL TIME ZONE value kept as text is shown. */
export const inSessionZone = (text: string): string => `ora_tstz_at(${datetimeArgument(text, "zoned")}, getvariable('ora_session_tz'))`

/** MIN / MAX of a text datetime: the value with the least or greatest instant (zoned) or wall clock, its zone kept. */
export const textDatetimeExtreme = (v: "MIN" | "MAX", text: string, kind: TextDatetimeKind): string => {
  const pick = `${v === "MIN" ? "arg_min" : "arg_max"}(CAST(${text} AS VARCHAR), ora_tstz_key(${datetimeArgument(text, kind)}))`
  return kind === "zoned" ? `ora_tstz(${pick}, getvariable('ora_session_tz'))` : `ora_ts(${pick})`
}

/**
 * ROUND(datetime, unit) of a DuckDB TIMESTAMP `operand` as a DATE ("The value returned is always of data type DATE",
 * SQL Language Reference, "ROUND (date)"; "ROUND and TRUNC Date Functions": a year rounds up on July 1, a month on
 * the 16th day, a quarter on the 16th day of its second month, a day at noon, an hour at 30 minutes, a minute at 30
 * seconds); undefined for weeks, which the server does not round.
 */
export const roundedDatetime = (operand: string, unit: string): string | undefined => {
  const up = (part: string, after: string) => `CAST(date_trunc('${part}', ${operand} + ${after}) AS TIMESTAMP_S)`
  if (unit === "year") return up("year", "INTERVAL 6 MONTH")
  if (unit === "month") return `CAST(date_trunc('month', ${operand}) + CASE WHEN day(${operand}) >= 16 THEN INTERVAL 1 MONTH ELSE INTERVAL 0 MONTH END AS TIMESTAMP_S)`
  // a quarter rounds up on the sixteenth day of its second month ("ROUND and TRUNC Date Functions": "Q Quarter
  // (rounds up on the sixteenth day of the second month of the quarter)")
  if (unit === "quarter")
    return `CAST(date_trunc('quarter', ${operand}) + CASE WHEN (month(${operand}) - 1) % 3 = 2 OR ((month(${operand}) - 1) % 3 = 1 AND day(${operand}) >= 16) THEN INTERVAL 3 MONTH ELSE INTERVAL 0 MONTH END AS TIMESTAMP_S)`
  if (unit === "day") return up("day", "INTERVAL 12 HOUR")
  if (unit === "hour") return up("hour", "INTERVAL 30 MINUTE")
  if (unit === "minute") return up("minute", "INTERVAL 30 SECOND")
  return undefined
}


/** A datetime as a text datetime of `kind` (a DuckDB datetime by its rendering, a TIMESTAMP in the session time zone). */
export const asTextDatetime = (text: string, kind: TextDatetimeKind): string =>
  kind === "zoned" ? `ora_tstz(${datetimeArgument(text, kind)})` : `ora_ts(CAST(${text} AS VARCHAR))`

/** TO_CHAR(text datetime, format): its own wall clock, zone and fraction digits. */
export const textDatetimeToChar = (operand: string, kind: TextDatetimeKind, format: string): string => {
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
export const fillModeBefore = (format: string, rest: string, length: number): string => {
  const done = format.slice(0, format.length - rest.length).replace(/"[^"]*"?/g, "")
  const on = ((done.match(/FM/gi) ?? []).length & 1) === 1
  return (on ? "FM" : "") + rest.slice(0, length)
}

/**
 * An interval in exact storage as the DuckDB INTERVAL datetime arithmetic takes (datetime-functions.ts; ORA-00932
 * where it has nanoseconds DuckDB cannot carry, which a DATE operand (`forDate`) drops): Oracle adds the interval to a DATE or TIMESTAMP (SQL Language
 * Reference, "Datetime/Interval Arithmetic": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
 */
export const durationOfExact = (text: string, kind: ExactIntervalKind, forDate: boolean): string =>
  kind === "dayToSecond" ? `ora_ds_duration(CAST(${text} AS VARCHAR), ${forDate})` : `ora_ym_duration(CAST(${text} AS BIGINT))`

/** Oracle's time zone format elements (SQL Language Reference, "Datetime Format Elements"). */
export const ZONE_ELEMENT = /TZH:TZM|TZH|TZM|TZR|TZD/i

/**
 * TO_CHAR(datetime, format) of a value with a known zone: the wall clock there, TZH:TZM / TZH / TZM its offset there,
 * TZR the zone as the session or literal names it.
 */
export const zonedToChar = (operand: ZonedOperand, format: string): string => {
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

export const localText = (local: string, fmt: string): string =>
  withOracleYears(fmt.includes("%n") ? strftimeNs(fmt, (f) => `strftime(CAST(${local} AS TIMESTAMP_NS), ${sqlString(f)})`) : `strftime(${local}, ${sqlString(fmt)})`, fmt)

/**
 * A strftime format with `%n` (nanoseconds) as SQL: DuckDB garbles any text after `%n` in one format (it writes nine
 * digits where it reserved six), so each `%n` is formatted on its own and the pieces are concatenated.
 */
export const strftimeNs = (fmt: string, call: (f: string) => string): string =>
  fmt.split(/(?<!%)%n/).flatMap((piece, k) => [...(k > 0 ? [call("%n")] : []), ...(piece === "" ? [] : [call(piece)])]).join(" || ")

/**
 * The SQL of a strftime call `sql` whose format came from {@link convertDateFormat} with `output`: its year marks
 * turned into Oracle's YYYY / SYYYY text (datetime-functions.ts ora_year_text).
 */
export const withOracleYears = (sql: string, fmt: string, language = SESSION_DATE_LANGUAGE): string =>
  fmt.includes(YEAR_MARK.name) ? `ora_year_text(${sql}, ${language})` : fmt.includes(YEAR_MARK.end) ? `ora_year_text(${sql})` : sql

/** Elements ora_year_text prints as written (the last Y of a YEAR is no element: the spelled year is not printed). */
const CASED_ELEMENT = /^(?:[AaPp]\.[Mm]\.|[AaPp][Mm]|[Aa]\.[Dd]\.|[Bb]\.[Cc]\.|[Aa][Dd]|[Bb][Cc]|[Rr][Mm]|[Yy]{3}(?!Y)|[Yy](?![Yy]|EAR))/i

/** YEAR / SYEAR (the year spelled), SCC (the signed century) and E / EE (the era), printed by ora_year_text as written. */
const SPELLED_ELEMENT = /^(?:S?YEAR|SCC|EE|E)/i

/**
 * The number elements a TH / SP / SPTH / THSP suffix may follow, and the suffix ("Datetime Format Element Suffixes",
 * SQL Language Reference: TH ordinal number, SP spelled number, SPTH or THSP spelled ordinal number).
 */
const SUFFIXED_ELEMENT = /^(SSSSS|SYYYY|YYYY|IYYY|RRRR|HH24|HH12|DDD|YYY|IYY|HH|DD|MM|MI|SS|YY|RR|IY|CC|WW|IW|J|D|Q|W|Y)(SPTH|THSP|SP|TH)/i

/**
 * DL, DS and TS in the AMERICA territory (the server's). "Datetime Format Elements": DL "in the AMERICAN_AMERICA
 * locale, this is equivalent to specifying the format 'fmDay, Month dd, yyyy'", DS "'MM/DD/RRRR'", TS the short time
 * format. Published transcripts of real servers show the day of DL with its leading zero (`Friday, January 04, 2013`),
 * DS without leading zeros (`1/4/2013`, `2/28/500`: sqlsnippets.com "Date Format Elements" under AMERICAN / AMERICA)
 * and TS as `10:18:59 AM`, which these models give. **Unconfirmed:** the year of DL below 1000 and the hour of TS
 * below 10 (with their zeros here); Oracle's restriction that DL and DS be used only with TS is not enforced.
 */
const TERRITORY_FORMATS = { DL: "FMDay, Month FMDD, FMYYYY", DS: "FMMM/DD/YYYY", TS: "HH:MI:SS AM" } as const

/**
 * Converts an Oracle datetime format model to a strftime/strptime format; for TO_CHAR (`output`), FM is read as the
 * fill mode switch and YYYY / SYYYY are marked for {@link withOracleYears}.
 */
export const convertDateFormat = (fmt: string, output = false): string => {
  const map: Array<[RegExp, string]> = [
    [/^YYYY/i, "%Y"],
    [/^RRRR/i, "%Y"],
    // RR prints the year's last two digits, as YY ("Datetime Format Elements": RR "Lets you store 20th century dates
    // in the 21st century using only two digits"; the round-trip rule applies to reading)
    [/^RR/i, "%y"],
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
    // X: the local radix character ("Datetime Format Elements"), '.' in the AMERICA territory
    [/^X/i, "."],
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
    // a number element with a suffix (`DDTH`, `DDSP`, `DdSPTH`), computed by ora_year_text (datetime-spelling.ts)
    const suffixed = output ? SUFFIXED_ELEMENT.exec(s) : null
    if (suffixed !== null) {
      out += `${YEAR_MARK.calendar}${suffixed[1]}#${suffixed[2]}${fm ? "F" : "-"}|%Y|%m|%d|%H|%M|%S${YEAR_MARK.end}`
      s = s.slice(suffixed[0].length)
      continue
    }
    // DL, DS, TS: the territory's long and short date and short time formats, each with its own fill mode
    const territory = output ? /^(?:DL|DS|TS)/i.exec(s)?.[0].toUpperCase() : undefined
    if (territory !== undefined) {
      out += convertDateFormat(TERRITORY_FORMATS[territory as keyof typeof TERRITORY_FORMATS], true)
      s = s.slice(2)
      continue
    }
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
    // Q, WW, IW, D, J, CC, SSSSS, ...: computed from the date by ora_year_text (datetime-functions.ts); YYY, Y, RM,
    // AD / BC and AM / PM as written, their capitalisation and periods kept
    const cased = output ? (CASED_ELEMENT.exec(s) ?? SPELLED_ELEMENT.exec(s))?.[0] : undefined
    const calendar = cased ?? (output ? CALENDAR_ELEMENTS.find((e) => s.toUpperCase().startsWith(e) && !(e === "D" && /^D[DAYLS]/i.test(s))) : undefined)
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
