/**
 * Text datetimes (TIMESTAMP WITH TIME ZONE and TIMESTAMP(7-9), kept as text: datetime-functions.ts) where Oracle
 * expects character data: read as Oracle converts them implicitly, in the session's NLS_TIMESTAMP_TZ_FORMAT /
 * NLS_TIMESTAMP_FORMAT (SQL Language Reference, "Implicit Data Conversion": datetime to VARCHAR2; nls-formats.ts),
 * not as the stored text.
 *
 * One rule for calls: every Oracle SQL function (function-names.ts) reads such an argument as that text, except the
 * functions that take a datetime (or any type) as it is, listed in {@link DATETIME_TAKING} (those compute on the
 * value: the translator's own rewrites). So REPLACE, REVERSE, ASCII, SOUNDEX, TRIM, LISTAGG, ... need no entry.
 * Beside calls: both operands of LIKE, and NVL / NVL2 / DECODE whose type is a character argument's.
 */
import { isKw, isOp } from "./lexer.ts"
import { ORACLE_FUNCTIONS } from "./function-names.ts"
import { defaultFormatText } from "./translate-cast.ts"
import { textDatetimeOfText } from "./translate-datetime-sql.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { Part } from "./translate-types.ts"

/**
 * Oracle's functions whose arguments may be datetimes, or of any type, computed on as such (aggregates and analytic
 * functions, NULL-related and comparison functions, conversion and datetime functions, hashing and dumping, JSON and
 * XML generation), and LENGTH, which converts its argument itself (translate-calls.ts).
 */
const DATETIME_TAKING: ReadonlySet<string> = new Set([
  "ADD_MONTHS", "ANY_VALUE", "APPROX_COUNT", "APPROX_COUNT_DISTINCT", "APPROX_MEDIAN", "APPROX_PERCENTILE", "APPROX_RANK",
  "CARDINALITY", "CAST", "CHECKSUM", "COALESCE", "COLLECT", "COUNT", "CUME_DIST", "DECODE", "DENSE_RANK", "DUMP",
  "EXTRACT", "FIRST", "FIRST_VALUE", "FROM_TZ", "GREATEST", "GROUPING", "GROUPING_ID", "LAG", "LAST", "LAST_DAY",
  "LAST_VALUE", "LEAD", "LEAST", "LENGTH", "LNNVL", "MAX", "MEDIAN", "MIN", "MONTHS_BETWEEN", "NEW_TIME", "NEXT_DAY",
  "NTH_VALUE", "NULLIF", "NVL", "NVL2", "ORA_DST_AFFECTED", "ORA_DST_CONVERT", "ORA_DST_ERROR", "ORA_HASH",
  "PERCENT_RANK", "PERCENTILE_CONT", "PERCENTILE_DISC", "RANK", "ROUND", "ROW_NUMBER", "STANDARD_HASH", "STATS_MODE",
  "SYS_EXTRACT_UTC", "SYS_OP_ZONE_ID", "TIMESTAMP_TO_SCN", "TO_CHAR", "TO_DATE", "TO_NCHAR", "TO_TIMESTAMP",
  "TO_TIMESTAMP_TZ", "TREAT", "TRUNC", "TZ_OFFSET", "VALIDATE_CONVERSION", "VALUE", "VSIZE", "WIDTH_BUCKET"
])

/** True when Oracle's function `name` reads a text datetime argument as its VARCHAR2 text in the NLS format. */
export const readsDatetimeAsText = (name: string): boolean =>
  ORACLE_FUNCTIONS.has(name) && !DATETIME_TAKING.has(name) && !/^(?:JSON|XML|SYS_XML)/.test(name)

/** The tokens [from, to) rendered as `text` as character data: a text datetime's NLS text, else `text` as it is. */
export const characterText = (tr: TranslatorCore, from: number, to: number, text: string): string =>
  (tr.textDatetimeAt(from, to) ?? textDatetimeOfText(text)) === undefined ? text : (defaultFormatText(tr, from, to, text) ?? text)

/**
 * `x [NOT] LIKE pattern [ESCAPE c]` with a text datetime operand: the operand as its NLS text ("LIKE Condition": the
 * operands are character expressions, other types converted to one), where the engine read the stored text.
 */
export function datetimeLikeParts(tr: TranslatorCore, parts: Array<Part>): void {
  parts.forEach((p, j) => {
    if (!p.separator || !isKw(tr.toks[p.from], "LIKE", "LIKEC", "LIKE2", "LIKE4")) return
    const negated = parts[j - 1]?.separator === true && isKw(tr.toks[parts[j - 1]!.from], "NOT")
    for (const q of [parts[negated ? j - 2 : j - 1], parts[j + 1]])
      if (q !== undefined && !q.separator && q.text.length > 0 && !isOp(tr.toks[q.from], ",")) q.text = characterText(tr, q.from, q.to, q.text)
  })
}
