/**
 * Datetime expressions and binds written into VARCHAR2 / NVARCHAR2 columns: Oracle converts them as TO_CHAR does
 * without a format model (SQL Language Reference, "Implicit Data Conversion"; "TO_CHAR (datetime)": a DATE in
 * NLS_DATE_FORMAT, a TIMESTAMP in NLS_TIMESTAMP_FORMAT, a TIMESTAMP WITH TIME ZONE in NLS_TIMESTAMP_TZ_FORMAT), where
 * DuckDB's own cast writes `2020-01-04 00:00:00`. character-writes.ts handles a datetime column, literal, current
 * datetime and the calls whose type their name tells; this module the expressions whose type their operands decide
 * (NVL / COALESCE / CASE / DECODE / GREATEST / MIN / MAX of datetimes, TRUNC / ROUND of one: datetime-operand-types.ts,
 * zoned-aliases.ts) and datetime binds, each put through TO_CHAR, which renders the value by its type in the session's
 * format (nls-formats.ts). A DATE bind is cast to DATE first: its DuckDB value is a TIMESTAMP; a TIMESTAMP WITH LOCAL TIME
 * ZONE bind to its type, whose text is the session's wall clock.
 */
import { characterColumns, columnsOfType } from "./character-writes.ts"
import { type DatetimeOperand, datetimeOperandOf, type LeafKind, nameLeaf, withDatetimeAliases } from "./datetime-operand-types.ts"
import type { Tok } from "./lexer.ts"
import { frameWrites, type TableLookup } from "./number-writes.ts"
import type { BindSpec } from "./statement.ts"
import { Dty } from "./types.ts"
import { isZonedValue } from "./zoned-aliases.ts"

/** The TO_CHAR frame of a DATE (cast to DATE first: a DATE bind's, NVL(date, timestamp)'s DuckDB value is a TIMESTAMP). */
const DATE_FRAME = ["TO_CHAR(CAST(", " AS DATE))"] as const

/**
 * The TO_CHAR frame of a TIMESTAMP WITH LOCAL TIME ZONE bind (cast to its type first: its DuckDB value is an instant),
 * which prints the session time zone's wall clock in NLS_TIMESTAMP_FORMAT ("TIMESTAMP WITH LOCAL TIME ZONE Data Type").
 */
const LOCAL_ZONE_FRAME = ["TO_CHAR(CAST(", " AS TIMESTAMP WITH LOCAL TIME ZONE))"] as const

/** The TO_CHAR frame of a TIMESTAMP [WITH TIME ZONE]. */
const TIMESTAMP_FRAME = ["TO_CHAR(", ")"] as const

/** The zoneless datetime a bind of type `dty` is, a TIMESTAMP WITH TIME ZONE as a TIMESTAMP (its frame). */
const bindKind = (dty: number | undefined): DatetimeOperand | undefined =>
  dty === Dty.DATE ? "date" : dty === Dty.TIMESTAMP || dty === Dty.TIMESTAMP_TZ ? "timestamp" : undefined

/** A statement's names of DATE and TIMESTAMP values (select aliases included) and of TIMESTAMP WITH TIME ZONE columns. */
export interface DatetimeNames {
  readonly days: ReadonlySet<string>
  readonly timestamps: ReadonlySet<string>
  readonly zoned: ReadonlyMap<string, "zoned">
}

/** The datetime names of statement `all` (`sig` its significant tokens), each a column of that type in every table of the statement naming it. */
export const datetimeNamesOf = (all: ReadonlyArray<Tok>, sig: ReadonlyArray<Tok>, lookup: TableLookup): DatetimeNames => ({
  ...withDatetimeAliases(sig, columnsOfType(all, lookup, (t) => t.kind === "date", true), columnsOfType(all, lookup, (t) => t.kind === "timestamp" && t.duck !== "VARCHAR", true)),
  zoned: new Map([...columnsOfType(all, lookup, (t) => t.kind === "timestamptz", true)].map((n) => [n, "zoned"] as const))
})

/**
 * `all` with the datetime expressions and binds (`specs`, by bind number in source order) an INSERT, UPDATE or MERGE
 * writes into character columns put through TO_CHAR, a DATE one (by the operand that decides its type: NVL(date,
 * timestamp) is a DATE, "NVL") cast to DATE first; other statements unchanged.
 */
export const datetimeTextWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup, specs?: ReadonlyArray<BindSpec>): ReadonlyArray<Tok> => {
  // binds are numbered in source order (session-translate.ts)
  const positions = specs === undefined ? [] : [...new Set(all.filter((t) => t.kind === "bind").map((t) => t.pos))].sort((a, b) => a - b)
  const kindOfBind = (t: Tok) => bindKind(specs?.[positions.indexOf(t.pos)]?.dty)
  // the names looked up only when a statement writes a character column
  let names: DatetimeNames | undefined
  const kindOf = (sig: ReadonlyArray<Tok>, from: number, to: number): DatetimeOperand | "zoned" | undefined => {
    names ??= datetimeNamesOf(all, sig, lookup)
    const byName = nameLeaf(sig, names.days, names.timestamps)
    const leaf: LeafKind = (a, b) => (b === a + 1 && sig[a]!.kind === "bind" ? kindOfBind(sig[a]!) : byName(a, b))
    return datetimeOperandOf(sig, from, to, leaf) ?? (isZonedValue(sig, from, to, names.zoned) ? "zoned" : undefined)
  }
  const localBind = (sig: ReadonlyArray<Tok>, from: number, to: number) => to === from + 1 && sig[from]!.kind === "bind" && specs?.[positions.indexOf(sig[from]!.pos)]?.dty === Dty.TIMESTAMP_LTZ
  const locals = specs?.some((b) => b?.dty === Dty.TIMESTAMP_LTZ) === true ? frameWrites(all, lookup, characterColumns, ...LOCAL_ZONE_FRAME, localBind) : all
  const dates = frameWrites(locals, lookup, characterColumns, ...DATE_FRAME, (sig, from, to) => kindOf(sig, from, to) === "date")
  return frameWrites(dates, lookup, characterColumns, ...TIMESTAMP_FRAME, (sig, from, to) => kindOf(sig, from, to) !== undefined)
}
