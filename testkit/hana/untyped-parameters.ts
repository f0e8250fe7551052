/**
 * Preparing statements whose parameters have no type DuckDB can infer (`SELECT ? AS A FROM DUMMY`).
 *
 * DuckDB leaves such a parameter (and every result column depending on it) unresolved, which the node API reports
 * as "Unexpected type id: 0". Real HANA describes an untyped placeholder as NVARCHAR: "in certain cases a place
 * holder will default to `nvarchar`" (https://github.com/cap-js/cds-dbs/pull/671, the SAP CAP HANA adapter, which
 * converts every value for such placeholders to a string for that reason). The test server does the same by
 * casting the unresolved parameters to VARCHAR (described to the client as NVARCHAR(5000)); a statement that still
 * cannot be typed fails with a HANA SQL error instead of an internal message.
 */
import { DuckDBTypeId } from "@duckdb/node-api"
import type { Prepared, Session } from "../engine/index.ts"
import { typeArithmeticParameters } from "./arithmetic-parameters.ts"
import { HanaError } from "./errors.ts"

const UNRESOLVED = /Unexpected type id/

/** Whether `e` is DuckDB's "a parameter (or a column derived from one) has no type" failure. */
const isUnresolved = (e: unknown): boolean => e instanceof Error && UNRESOLVED.test(e.message)

/**
 * Offsets of the `?` placeholders of a translated (DuckDB) statement, skipping string literals, quoted identifiers
 * and comments.
 */
export const placeholderOffsets = (sql: string): number[] => {
  const out: number[] = []
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]
    if (c === "'" || c === '"') {
      const close = sql.indexOf(c, i + 1)
      i = close < 0 ? sql.length : close
      // a doubled quote inside a literal ('it''s') reopens it on the next iteration
    } else if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i)
      i = nl < 0 ? sql.length : nl
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2)
      i = end < 0 ? sql.length : end + 1
    } else if (c === "?") {
      out.push(i)
    }
  }
  return out
}

/** How the translator writes a parameter read as a TIMESTAMP's ticks (`CAST(? AS TIMESTAMP)`, longdate.ts). */
const TICKS_CAST_OPEN = "CAST("
const TICKS_CAST_CLOSE = " AS UBIGINT)"

/** Whether the placeholder at `offset` of `sql` is written `CAST(? AS UBIGINT)`: a parameter read as a TIMESTAMP. */
const isTicksCast = (sql: string, offset: number): boolean =>
  sql.slice(offset - TICKS_CAST_OPEN.length, offset).toUpperCase() === TICKS_CAST_OPEN &&
  sql.slice(offset + 1, offset + 1 + TICKS_CAST_CLOSE.length).toUpperCase() === TICKS_CAST_CLOSE

/**
 * The indexes (0-based, in text order) of the placeholders of a translated statement written `CAST(? AS UBIGINT)`,
 * a parameter the HANA statement reads as a TIMESTAMP (`CAST(? AS TIMESTAMP)`, or a date argument of ADD_SECONDS & co.).
 */
export const ticksPlaceholders = (sql: string): ReadonlySet<number> =>
  new Set(placeholderOffsets(sql).flatMap((offset, n) => (isTicksCast(sql, offset) ? [n] : [])))

/**
 * `sql` with the placeholders at the given indexes (0-based, in text order) wrapped in `CAST(? AS VARCHAR)`. A
 * placeholder read as a TIMESTAMP's ticks (`CAST(? AS UBIGINT)`) becomes `hana_ld(CAST(? AS VARCHAR))`: its value
 * (hdb's TIMESTAMP, or a datetime text) is text then, which only hana_ld reads as ticks (a cast to UBIGINT fails on it).
 */
export const castPlaceholders = (sql: string, indexes: ReadonlySet<number>, integers: ReadonlySet<number> = new Set()): string => {
  const offsets = placeholderOffsets(sql)
  let out = ""
  let from = 0
  offsets.forEach((offset, n) => {
    if (integers.has(n)) {
      out += `${sql.slice(from, offset)}CAST(? AS INTEGER)`
      from = offset + 1
      return
    }
    if (!indexes.has(n)) return
    if (isTicksCast(sql, offset)) {
      out += `${sql.slice(from, offset - TICKS_CAST_OPEN.length)}hana_ld(CAST(? AS VARCHAR))`
      from = offset + 1 + TICKS_CAST_CLOSE.length
      return
    }
    out += `${sql.slice(from, offset)}CAST(? AS VARCHAR)`
    from = offset + 1
  })
  return out + sql.slice(from)
}

/**
 * Prepares `sql`; if DuckDB cannot type a parameter, casts placeholders to VARCHAR one at a time (keeping a cast only
 * while it does not introduce a different error) until the statement prepares. Undefined when no cast helps.
 */
const prepareCasting = async (session: Session, sql: string): Promise<Prepared | undefined> => {
  try {
    return await session.prepare(sql)
  } catch (e) {
    if (!isUnresolved(e)) throw e
  }
  const offsets = placeholderOffsets(sql)
  const cast = new Set<number>()
  const integers = new Set<number>()
  for (let i = 0; i < offsets.length; i++) {
    cast.add(i)
    try {
      return await session.prepare(castPlaceholders(sql, cast, integers))
    } catch (e) {
      if (isUnresolved(e)) continue
      cast.delete(i)
    }
    // `d + ?`, `d - ?` where d is a DATE: no text adds to a date, a number of days does (DuckDB's DATE ± INTEGER)
    if (!ADDEND.test(sql.slice(0, offsets[i]))) continue
    integers.add(i)
    try {
      return await session.prepare(castPlaceholders(sql, cast, integers))
    } catch (e) {
      if (!isUnresolved(e)) integers.delete(i)
    }
  }
  return undefined
}

/** Text ending in a `+` or `-` operator: the placeholder after it is an addend. */
const ADDEND = /[+-]\s*$/

/**
 * `prepared` again with its parameters read as a TIMESTAMP (`CAST(? AS UBIGINT)`) that DuckDB did not type as ticks written
 * `hana_ld(CAST(? AS VARCHAR))` (castPlaceholders): through a macro that repeats its argument (hana_ld, ADD_SECONDS,
 * ADD_MONTHS) DuckDB leaves the parameter untyped (or VARCHAR), binds the datetime text as it comes, and the cast to
 * ticks fails on it.
 */
const readTicksAsText = async (session: Session, sql: string, prepared: Prepared): Promise<Prepared> => {
  const texts = [...ticksPlaceholders(sql)].filter((i) => {
    const type = prepared.parameterType(i)
    return type === undefined || type.typeId === DuckDBTypeId.VARCHAR
  })
  if (texts.length === 0) return prepared
  const again = await prepareCasting(session, castPlaceholders(sql, new Set(texts))).catch(() => undefined)
  if (again === undefined) return prepared
  prepared.close()
  return again
}

/**
 * Prepares `sql` with HANA's parameter types: a parameter of an arithmetic operator typed by the other operand
 * (arithmetic-parameters.ts), any other untyped one as VARCHAR. Where the other operand's type does not fit the
 * operator (`date_column + ?`: DuckDB has no DATE + DATE), the statement is prepared as if it had no such parameter.
 */
export const prepareTyped = async (session: Session, sql: string): Promise<Prepared> => {
  const typed = typeArithmeticParameters(sql)
  if (typed !== undefined) {
    try {
      const prepared = await prepareCasting(session, typed)
      if (prepared !== undefined) return await readTicksAsText(session, typed, prepared)
    } catch {
      // falls back to the statement as written, which reports its own error
    }
  }
  const prepared = await prepareCasting(session, sql)
  if (prepared !== undefined) return await readTicksAsText(session, sql, prepared)
  throw new HanaError(266, "HY000", "inconsistent datatype: the type of a parameter cannot be determined; write CAST(? AS <type>)")
}

/**
 * `sql` with every placeholder replaced by `NULL`: DuckDB's table-name extraction (`getTableNames`) returns nothing
 * for a statement with parameters, which would lose the declared column types of prepared queries.
 */
export const withoutPlaceholders = (sql: string): string => {
  let out = ""
  let from = 0
  for (const offset of placeholderOffsets(sql)) {
    out += `${sql.slice(from, offset)}NULL`
    from = offset + 1
  }
  return out + sql.slice(from)
}
