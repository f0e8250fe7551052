/**
 * The text a DATE, TIMESTAMP or TIMESTAMP WITH TIME ZONE bind gets written into a VARCHAR2 / NVARCHAR2 column, for
 * executeMany's column-wise paths (bulk-insert.ts, bind-row-decoder.ts): the session's format read once per request,
 * each value formatted as the general path's `TO_CHAR(:b)` formats it (datetime-text-writes.ts; SQL Language
 * Reference, "Implicit Data Conversion", "TO_CHAR (datetime)"): a DATE in NLS_DATE_FORMAT, a TIMESTAMP in
 * NLS_TIMESTAMP_FORMAT and a TIMESTAMP WITH TIME ZONE in NLS_TIMESTAMP_TZ_FORMAT, FF giving six digits (nine for a
 * value with digits below the microsecond), as the engine's TIMESTAMP / TIMESTAMP_NS values print them.
 */
import { DuckDBTimestampNanosecondsValue, DuckDBTimestampValue } from "@duckdb/node-api"
import type { DuckDBValue } from "@duckdb/node-api"
import { parseDatetimeText, type DatetimeValue } from "./datetime.ts"
import { formatterOfModel, type NlsFormats } from "./nls-formats.ts"
import { Dty } from "./types.ts"

/** A datetime's text in one of the session's formats. */
export type DatetimeText = (v: DatetimeValue) => string

/** The text of a bind of type `dty` written into a character column; undefined for other binds. */
export type DatetimeBindTexts = (dty: number) => DatetimeText | undefined

/** The texts a request remembers per type: rows often repeat a date, and a request's values are bounded in number. */
const REMEMBERED = 65_536

/** `text` remembering its texts by value (the wall clock, with the zone for a zoned value). */
const remembering = (text: DatetimeText): DatetimeText => {
  const texts = new Map<bigint | string, string>()
  return (v) => {
    const key = v.offsetMinutes === undefined ? v.wall : `${v.wall} ${v.offsetMinutes} ${v.region ?? ""}`
    let found = texts.get(key)
    if (found === undefined) {
      found = text(v)
      if (texts.size < REMEMBERED) texts.set(key, found)
    }
    return found
  }
}

/**
 * The session's {@link DatetimeBindTexts} for its `formats` and NLS_DATE_LANGUAGE `language`; taken once per request,
 * it remembers the texts of the values it formatted.
 */
export const datetimeBindTexts = (formats: NlsFormats, language: string): DatetimeBindTexts => {
  const date = remembering(formatterOfModel(formats.date, 0, language))
  const micros = formatterOfModel(formats.timestamp, 6, language)
  const nanos = formatterOfModel(formats.timestamp, 9, language)
  const timestamp: DatetimeText = remembering((v) => (v.wall % 1000n === 0n ? micros(v) : nanos(v)))
  const zoned = remembering(formatterOfModel(formats.timestampTz, 6, language))
  return (dty) => (dty === Dty.DATE ? date : dty === Dty.TIMESTAMP ? timestamp : dty === Dty.TIMESTAMP_TZ ? zoned : undefined)
}

/** Whether a bind of type `dty` is one {@link DatetimeBindTexts} gives a text. */
export const isTextedDatetimeBind = (dty: number | undefined): boolean => dty === Dty.DATE || dty === Dty.TIMESTAMP || dty === Dty.TIMESTAMP_TZ

/** A decoded DATE / TIMESTAMP / TIMESTAMP WITH TIME ZONE bind value (params.ts readBind) as a datetime, else undefined. */
export const datetimeOfBindValue = (v: DuckDBValue): DatetimeValue | undefined => {
  if (v instanceof DuckDBTimestampValue) return { wall: v.micros * 1000n }
  if (v instanceof DuckDBTimestampNanosecondsValue) return { wall: v.nanos }
  return typeof v === "string" ? parseDatetimeText(v) : undefined
}
