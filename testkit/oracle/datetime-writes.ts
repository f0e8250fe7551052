/**
 * Values written into TIMESTAMP WITH TIME ZONE and WITH LOCAL TIME ZONE columns take their zone when they are
 * written: "The session time zone also takes effect when a TIMESTAMP value is converted to the TIMESTAMP WITH TIME
 * ZONE or TIMESTAMP WITH LOCAL TIME ZONE datatype" (Oracle Database Globalization Support Guide, "Setting the Session
 * Time Zone"), and a LOCAL TIME ZONE value is stored as its instant ("Data stored in the database is normalized to
 * the database time zone", Oracle Database Utilities, "TIMESTAMP WITH LOCAL TIME ZONE"). So a TIMESTAMP stored by
 * one session is read back by every other as that session's instant. An INSERT, UPDATE or MERGE therefore has each
 * value it writes into such a column wrapped in `CAST(... AS TIMESTAMP WITH [LOCAL] TIME ZONE)`, which the translator
 * renders in the session time zone of the writing statement (a value with its own zone keeps it). Values written into
 * TIMESTAMP(7-9) columns, which are kept as text, are cast to TIMESTAMP(9) so that text which is no datetime is refused;
 * values written into TIMESTAMP(0-5) columns are cast to the column's type, which rounds their fraction.
 */
import type { TableMeta } from "./catalog.ts"
import { expandedInsertSelectStars } from "./insert-select-stars.ts"
import { isKw, isName, isOp, type Tok } from "./lexer.ts"
import { castWrites, type TableLookup } from "./number-writes.ts"
import type { OraType } from "./types.ts"
import { quoteDuck } from "./names.ts"

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
  const text = castWrites(localText, lookup, columnsWhere((t) => t.kind === "timestamp" && t.duck === "VARCHAR"), ["TIMESTAMP", "(", "9", ")"])
  // TIMESTAMP(0-5): the fraction rounded to the column's precision when written, as Oracle rounds a value with more
  // fractional digits than the column stores ("If you try to add a row with more digits in your fractional second than
  // your TIMESTAMP can store, your fraction is rounded", Oracle Database 10g SQL, Oracle Press, quoted by java2s.com
  // "Use timestamps"), so that fetches, FF and comparisons see it
  let out = text
  for (let p = 0; p <= 5; p++) out = castWrites(out, lookup, columnsWhere((t) => t.kind === "timestamp" && t.duck !== "VARCHAR" && t.scale === p), ["TIMESTAMP", "(", String(p), ")"])
  return out
}

/**
 * `all` with the items an `INSERT ... SELECT` writes into DATE and TIMESTAMP(0-6) columns (DuckDB datetimes) cast to
 * the column's type, which the translator renders for a TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9) item as its own wall
 * clock (Oracle drops the zone converting to TIMESTAMP or DATE, "Datetime Data Types and Time Zone Support"), with or
 * without a column list and whatever the source columns are named; other statements unchanged (INSERT ... VALUES
 * and binds keep their column-wise path; a `SELECT *` from one table is first written as its columns,
 * {@link expandedInsertStar}, and stars over joins and subqueries too, insert-select-stars.ts, also into a table with
 * a TIMESTAMP(0-5) column, whose items are then cast to round; a star neither handles is left to DuckDB's conversion).
 */
export const datetimeInsertSelects = (source: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  const all = expandedInsertSelectStars(expandedInsertStar(source, lookup), lookup, roundsFractions(source, lookup))
  const sig = all.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "INSERT") || !sig.some((t) => isKw(t, "SELECT")) || sig.some((t) => isKw(t, "VALUES"))) return all
  // a `*` select list has no item per column to cast (left to DuckDB's own conversion)
  if (sig.some((t, k) => isOp(t, "*") && (isKw(sig[k - 1], "SELECT", "DISTINCT", "UNIQUE") || isOp(sig[k - 1], ".")))) return all
  let out = castWrites(all, lookup, columnsWhere((t) => t.kind === "date"), ["DATE"])
  for (let p = 0; p <= 6; p++) out = castWrites(out, lookup, columnsWhere((t) => t.kind === "timestamp" && t.duck !== "VARCHAR" && t.scale === p), ["TIMESTAMP", "(", String(p), ")"])
  return out
}

/** True when `all` is an INSERT into a table with a TIMESTAMP(0-5) column, whose values its items are cast to round. */
const roundsFractions = (all: ReadonlyArray<Tok>, lookup: TableLookup): boolean => {
  const sig = all.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "INSERT") || !isKw(sig[1], "INTO") || !isName(sig[2])) return false
  const meta = isOp(sig[3], ".") && isName(sig[4]) ? lookup(sig[2]!.value, sig[4]!.value) : lookup(undefined, sig[2]!.value)
  return meta?.columns.some((c) => c.type.kind === "timestamp" && c.type.duck !== "VARCHAR" && c.type.scale < 6) ?? false
}

/**
 * `INSERT INTO t [(cols)] SELECT * FROM u [alias] ...` with a TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9) column in `u`
 * (kept as text) written as `SELECT u's columns`, so that each is converted as its target column takes it (the
 * wall clock into DATE and TIMESTAMP, DuckDB's own conversion refusing a value with a region); `all` unchanged for
 * other statements (a join, a subquery or a qualified `t.*` in the FROM or select list).
 */
const expandedInsertStar = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  const sig = all.map((t, k) => ({ t, k })).filter(({ t }) => t.kind !== "ws")
  const select = sig.findIndex(({ t }) => isKw(t, "SELECT"))
  if (!isKw(sig[0]?.t, "INSERT") || select < 0 || !isOp(sig[select + 1]?.t, "*") || !isKw(sig[select + 2]?.t, "FROM")) return all
  // FROM name [alias] | FROM schema.name [alias], then the end or a clause
  let k = select + 3
  const names: Array<string> = []
  if (!isName(sig[k]?.t)) return all
  names.push(sig[k]!.t.value)
  k++
  if (isOp(sig[k]?.t, ".") && isName(sig[k + 1]?.t)) {
    names.push(sig[k + 1]!.t.value)
    k += 2
  }
  if (isName(sig[k]?.t) && !isKw(sig[k]?.t, "WHERE", "GROUP", "ORDER", "FETCH", "OFFSET", "UNION", "INTERSECT", "MINUS", "CONNECT", "START", "LOG")) k++
  if (k < sig.length && !isKw(sig[k]?.t, "WHERE", "GROUP", "ORDER", "FETCH", "OFFSET", "CONNECT", "START", "LOG")) return all
  const meta = names.length === 2 ? lookup(names[0], names[1]!) : lookup(undefined, names[0]!)
  if (meta === undefined || !meta.columns.some((c) => c.type.kind === "timestamptz" || (c.type.duck === "VARCHAR" && (c.type.kind === "timestamp" || c.type.kind === "timestampltz"))))
    return all
  const star = sig[select + 1]!
  const items: Array<Tok> = meta.columns.flatMap((c, n) => [
    ...(n === 0 ? [] : [{ kind: "op" as const, text: ",", value: ",", pos: star.t.pos }]),
    { kind: "qident" as const, text: `${quoteDuck(c.name)}`, value: c.name, pos: star.t.pos }
  ])
  return [...all.slice(0, star.k), ...items, ...all.slice(star.k + 1)]
}
