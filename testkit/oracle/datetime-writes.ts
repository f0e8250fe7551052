/**
 * Values written into TIMESTAMP WITH TIME ZONE and WITH LOCAL TIME ZONE columns take their zone when they are
 * written: "The session time zone also takes effect when a TIMESTAMP value is converted to the TIMESTAMP WITH TIME
 * ZONE or TIMESTAMP WITH LOCAL TIME ZONE datatype" (Oracle Database Globalization Support Guide, "Setting the Session
 * Time Zone"), and a LOCAL TIME ZONE value is stored as its instant ("Data stored in the database is normalized to
 * the database time zone", Oracle Database Utilities, "TIMESTAMP WITH LOCAL TIME ZONE"). So a TIMESTAMP stored by
 * one session is read back by every other as that session's instant. An INSERT, UPDATE or MERGE therefore has each
 * value it writes into such a column wrapped in `CAST(... AS TIMESTAMP WITH [LOCAL] TIME ZONE)`, which the translator
 * renders in the session time zone of the writing statement (a value with its own zone keeps it). Values written into
 * TIMESTAMP(7-9) columns, which are kept as text, are cast to TIMESTAMP(9) so that text which is no datetime is refused.
 */
import type { TableMeta } from "./catalog.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { castWrites, type TableLookup } from "./number-writes.ts"
import type { OraType } from "./types.ts"

const columnsWhere = (keep: (type: OraType) => boolean) => (meta: TableMeta): ReadonlySet<string> =>
  new Set(meta.columns.filter((c) => keep(c.type)).map((c) => c.name))

const LOCAL_ZONE = ["WITH", "LOCAL", "TIME", "ZONE"]

/** `all` with the values an INSERT, UPDATE or MERGE writes into zoned or text timestamp columns cast to the column's kind. */
export const sessionZoneWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  const zoned = castWrites(all, lookup, columnsWhere((t) => t.kind === "timestamptz"), ["TIMESTAMP", "WITH", "TIME", "ZONE"])
  // TIMESTAMP(7-9) WITH LOCAL TIME ZONE keeps its nanoseconds over Oracle's whole range as text (types.ts)
  const local = castWrites(zoned, lookup, columnsWhere((t) => t.kind === "timestampltz" && t.duck !== "VARCHAR"), ["TIMESTAMP", ...LOCAL_ZONE])
  const localText = castWrites(local, lookup, columnsWhere((t) => t.kind === "timestampltz" && t.duck === "VARCHAR"), ["TIMESTAMP", "(", "9", ")", ...LOCAL_ZONE])
  // TIMESTAMP(7-9) is kept as text too: the cast (translate.ts `ora_ts`) refuses text that is no datetime with
  // ORA-01861, as the other datetime columns refuse it, instead of storing text a SELECT then shows as NULL
  return castWrites(localText, lookup, columnsWhere((t) => t.kind === "timestamp" && t.duck === "VARCHAR"), ["TIMESTAMP", "(", "9", ")"])
}

/**
 * `all` with the items an `INSERT ... SELECT` writes into DATE and TIMESTAMP(0-6) columns (DuckDB datetimes) cast to
 * the column's type, which the translator renders for a TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9) item as its own wall
 * clock (Oracle drops the zone converting to TIMESTAMP or DATE, "Datetime Data Types and Time Zone Support"), with or
 * without a column list and whatever the source columns are named; other statements unchanged (INSERT ... VALUES
 * and binds keep their column-wise path, a `SELECT *` is left to DuckDB's conversion).
 */
export const datetimeInsertSelects = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "INSERT") || !sig.some((t) => isKw(t, "SELECT")) || sig.some((t) => isKw(t, "VALUES"))) return all
  // a `*` select list has no item per column to cast (left to DuckDB's own conversion)
  if (sig.some((t, k) => isOp(t, "*") && (isKw(sig[k - 1], "SELECT", "DISTINCT", "UNIQUE") || isOp(sig[k - 1], ".")))) return all
  let out = castWrites(all, lookup, columnsWhere((t) => t.kind === "date"), ["DATE"])
  for (let p = 0; p <= 6; p++) out = castWrites(out, lookup, columnsWhere((t) => t.kind === "timestamp" && t.duck !== "VARCHAR" && t.precision === p), ["TIMESTAMP", "(", String(p), ")"])
  return out
}
