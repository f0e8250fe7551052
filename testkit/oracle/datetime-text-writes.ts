/**
 * Datetime expressions and binds written into VARCHAR2 / NVARCHAR2 columns: Oracle converts them as TO_CHAR does
 * without a format model (SQL Language Reference, "Implicit Data Conversion"; "TO_CHAR (datetime)": a DATE in
 * NLS_DATE_FORMAT, a TIMESTAMP in NLS_TIMESTAMP_FORMAT, a TIMESTAMP WITH TIME ZONE in NLS_TIMESTAMP_TZ_FORMAT), where
 * DuckDB's own cast writes `2020-01-04 00:00:00`. character-writes.ts handles a datetime column, literal, current
 * datetime and the calls whose type their name tells; this module the expressions whose type their operands decide
 * (NVL / COALESCE / CASE / DECODE / GREATEST / MIN / MAX of datetimes, TRUNC / ROUND of one: datetime-operand-types.ts,
 * zoned-aliases.ts) and datetime binds, each put through TO_CHAR, which renders the value by its type in the session's
 * format (nls-formats.ts). A DATE bind is cast to DATE first: its DuckDB value is a TIMESTAMP.
 */
import { characterColumns, columnsOfType } from "./character-writes.ts"
import { datetimeOperandOf, nameLeaf, withDatetimeAliases } from "./datetime-operand-types.ts"
import type { Tok } from "./lexer.ts"
import { frameWrites, type TableLookup } from "./number-writes.ts"
import type { BindSpec } from "./statement.ts"
import { Dty } from "./types.ts"
import { isZonedValue } from "./zoned-aliases.ts"

/** The SQL a datetime bind of type `dty` written into a character column is framed in, or undefined for other binds. */
const bindFrame = (dty: number | undefined): readonly [string, string] | undefined =>
  dty === Dty.DATE ? ["TO_CHAR(CAST(", " AS DATE))"] : dty === Dty.TIMESTAMP || dty === Dty.TIMESTAMP_TZ ? ["TO_CHAR(", ")"] : undefined

/**
 * `all` with the datetime expressions and binds (`specs`, by bind number in source order) an INSERT, UPDATE or MERGE
 * writes into character columns put through TO_CHAR; other statements unchanged.
 */
export const datetimeTextWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup, specs?: ReadonlyArray<BindSpec>): ReadonlyArray<Tok> => {
  // the names looked up only when a statement writes a character column
  let names: { readonly days: ReadonlySet<string>; readonly timestamps: ReadonlySet<string>; readonly zoned: ReadonlyMap<string, "zoned"> } | undefined
  const isDatetimeExpression = (sig: ReadonlyArray<Tok>, from: number, to: number): boolean => {
    if (names === undefined) {
      const aliased = withDatetimeAliases(sig, columnsOfType(all, lookup, (t) => t.kind === "date", false), columnsOfType(all, lookup, (t) => t.kind === "timestamp" && t.duck !== "VARCHAR", false))
      names = { ...aliased, zoned: new Map([...columnsOfType(all, lookup, (t) => t.kind === "timestamptz", false)].map((n) => [n, "zoned"] as const)) }
    }
    return datetimeOperandOf(sig, from, to, nameLeaf(sig, names.days, names.timestamps)) !== undefined || isZonedValue(sig, from, to, names.zoned)
  }
  const expressions = frameWrites(all, lookup, characterColumns, "TO_CHAR(", ")", isDatetimeExpression)
  if (specs === undefined || !specs.some((s) => bindFrame(s.dty) !== undefined)) return expressions
  // binds are numbered in source order (session-translate.ts)
  const positions = [...new Set(expressions.filter((t) => t.kind === "bind").map((t) => t.pos))].sort((a, b) => a - b)
  const frameOf = (t: Tok | undefined) => (t?.kind === "bind" ? bindFrame(specs[positions.indexOf(t.pos)]?.dty) : undefined)
  let out = expressions
  for (const dty of [Dty.DATE, Dty.TIMESTAMP]) {
    const [open, close] = bindFrame(dty)!
    out = frameWrites(out, lookup, characterColumns, open, close, (sig, from, to) => to === from + 1 && frameOf(sig[from])?.[0] === open)
  }
  return out
}
