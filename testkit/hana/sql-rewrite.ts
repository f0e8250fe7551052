/**
 * HANA expressions → DuckDB SQL: identifiers folded and encoded, HANA types in CAST and functions mapped to DuckDB's
 * or to session macros (session-macros.ts), special values (CURRENT_USER, CURRENT_TIMESTAMP, …) substituted, and
 * every divisor guarded so a division by zero fails as in HANA.
 */
import { typeDateArguments } from "./datetime-arguments.ts"
import { COMPARISONS, DATETIME_TEXT, comparedOnce, typeDatetimeComparisons } from "./datetime-comparisons.ts"
import { widenDatetimeMixing } from "./datetime-mixing.ts"
import { guardTimestampArithmetic } from "./timestamp-arithmetic.ts"
import { nowTicks } from "./longdate.ts"
import { HanaError } from "./errors.ts"
import { BUILTIN_FUNCTIONS, callsBuiltinKeyword } from "./builtin-functions.ts"
import { EXTRACT_FIELDS, KEYWORD_FUNCTIONS, TYPED_FUNCTIONS } from "./function-types.ts"
import { CALENDAR_FUNCTIONS } from "./calendar-functions.ts"
import { MISC_FUNCTIONS } from "./misc-functions.ts"
import { STRING_FUNCTIONS } from "./string-functions.ts"
import { REFERENCE_FUNCTIONS } from "./reference-functions.ts"
import { FACTORY_CALENDAR_FUNCTIONS } from "./factory-calendar.ts"
import { matching, splitTopLevel, upper } from "./lexer.ts"
import { operandEnd, operandStart } from "./operands.ts"
import type { Token } from "./lexer.ts"
import { quoteName, quoteString } from "./names.ts"
import type { SessionValues } from "./translated.ts"
import { typeAt } from "./type-syntax.ts"
import { TYPE_NAMES } from "./types.ts"
import { VECTOR_TYPES, vectorTypeUnsupported } from "./vector-types.ts"

/** The side words of `TRIM(<side> … FROM …)`, keywords only there. */
const TRIM_SIDES = new Set(["LEADING", "TRAILING", "BOTH"])

/** SQL keywords kept verbatim (everything else that is a bare word is an identifier). */
const KEYWORDS = new Set(
  (
    "ADD ALL ALTER AND ANY AS ASC BETWEEN BY CASCADE CASE CAST CHECK COLUMN CONSTRAINT CREATE CROSS CURRENT DEFAULT " +
    "DELETE DESC DISTINCT DROP ELSE END ESCAPE EXCEPT EXISTS FALSE FETCH FIRST FOLLOWING FOR FOREIGN FROM FULL GROUP " +
    "HAVING IF IN INNER INSERT INTERSECT INTERVAL INTO IS JOIN KEY LEFT LIKE LIMIT MINUS NATURAL NEXT NO NOT NULL NULLS " +
    "OFFSET ON ONLY OR ORDER OUTER OVER PARTITION PRECEDING PRIMARY RANGE RECURSIVE REFERENCES RESTRICT RIGHT ROW ROWS " +
    "SELECT SET SOME TABLE THEN TO TRUE UNBOUNDED UNION UNIQUE UNKNOWN UPDATE USING VALUES VIEW WHEN WHERE WITH " +
    "ACTION RENAME TEMPORARY TEMP LOCAL GLOBAL SCHEMA TRUNCATE COMMENT SECOND MINUTE HOUR DAY MONTH YEAR " +
    "LATERAL FILTER WITHIN INDEX SEQUENCE START INCREMENT MAXVALUE MINVALUE CYCLE LAST ASYMMETRIC SYMMETRIC SIMILAR ILIKE GLOB ANTI SEMI POSITIONAL QUALIFY WINDOW GROUPING CUBE ROLLUP SETS TIES"
  ).split(" ")
)

/** HANA functions renamed for DuckDB (others pass through; DuckDB's namesakes mostly match). */
const FUNCTIONS = new Map([
  ["NOW", "hana_now"],
  ["TO_VARCHAR", "hana_to_varchar"],
  ["TO_NVARCHAR", "hana_to_varchar"],
  ["TO_CHAR", "hana_to_varchar"],
  ["TO_INTEGER", "hana_to_integer"],
  ["TO_INT", "hana_to_integer"],
  ["TO_BIGINT", "hana_to_bigint"],
  ["TO_DOUBLE", "hana_to_double"],
  ["TO_DECIMAL", "hana_to_decimal"],
  ["TO_DATE", "hana_to_date"],
  ["TO_TIMESTAMP", "hana_to_timestamp"],
  ["ADD_DAYS", "hana_add_days"],
  ["ADD_SECONDS", "hana_add_seconds"],
  ["ADD_NANO100", "hana_add_nano100"],
  ["NANO100_BETWEEN", "hana_nano100_between"],
  ["DAYS_BETWEEN", "hana_days_between"],
  ["NVL", "coalesce"],
  ["CONCAT", "hana_concat"],
  ["LCASE", "lower"],
  ["UCASE", "upper"],
  ["SUBSTR", "substring"],
  ["SLEEP_SECONDS", "hana_sleep"],
  ["SECONDS_BETWEEN", "hana_seconds_between"],
  ["ADD_MONTHS", "hana_add_months"],
  ["ADD_YEARS", "hana_add_years"],
  ["BINTOHEX", "hana_bintohex"],
  ["HEXTOBIN", "unhex"],
  ["TO_BINARY", "hana_to_binary"],
  ["TO_TINYINT", "hana_to_tinyint"],
  ["TO_SMALLINT", "hana_to_smallint"],
  ["TO_REAL", "hana_to_real"],
  ["TO_NCLOB", "hana_to_varchar"],
  ["TO_CLOB", "hana_to_varchar"],
  ["WEEKDAY", "hana_weekday"],
  ["NEWUID", "hana_newuid"],
  ...TYPED_FUNCTIONS,
  ...BUILTIN_FUNCTIONS,
  ...MISC_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...REFERENCE_FUNCTIONS,
  ...FACTORY_CALENDAR_FUNCTIONS,
  ...CALENDAR_FUNCTIONS
])

/** True when the FROM at `at` is inside an `EXTRACT(` or `TRIM(` call (a value follows it, not a table). */
const inValueFrom = (tokens: readonly Token[], at: number): boolean => {
  let depth = 0
  for (let k = at - 1; k >= 0; k--) {
    const t = tokens[k]!
    if (t.t === "op" && t.v === ")") depth++
    else if (t.t === "op" && t.v === "(" && depth-- === 0) return ["EXTRACT", "TRIM"].includes(upper(tokens[k - 1]))
  }
  return false
}

/** The session macro a divisor is wrapped in: it raises "division by zero undefined" (error 304) for 0. */
export const DIVISOR_GUARD = "hana_divisor"

const hexLiteral = (hex: string): string => {
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) throw HanaError.syntax("invalid binary literal", 0)
  return `from_hex('${hex}')`
}

/**
 * Wraps the divisor of every `/` in `hana_divisor( … )`, which raises "division by zero undefined" for 0 (mapped to
 * error 304 in errors.ts). `/` binds tighter than `+`/`-`, so its divisor is the single operand after it. Bind
 * parameters are left to PREPARE, which types and wraps them (arithmetic-parameters.ts), and non-zero number
 * literals are left as they are, as they cannot be 0.
 */
const guardDivisors = (tokens: readonly Token[]): readonly Token[] => {
  if (!tokens.some((t) => t.t === "op" && t.v === "/")) return tokens
  const out: Token[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    out.push(t)
    i++
    if (t.t !== "op" || t.v !== "/") continue
    const end = operandEnd(tokens, i)
    const only = end === i + 1 ? tokens[i]! : undefined
    if (end === undefined || only?.t === "param" || (only?.t === "number" && Number(only.v) !== 0)) continue
    out.push({ t: "word", v: DIVISOR_GUARD }, { t: "op", v: "(" }, ...guardDivisors(tokens.slice(i, end)), { t: "op", v: ")" })
    i = end
  }
  return out
}

/**
 * Rewrites a token sequence to DuckDB SQL: identifiers encoded, types and functions mapped, special values
 * substituted. Tokens are significant tokens (no whitespace) joined with spaces.
 */
export const rewrite = (input: readonly Token[], session: SessionValues): string =>
  rewritten(guardDivisors(textConcatenations(widenDatetimeMixing(typeDatetimeOperands(typeDatetimeComparisons(guardTimestampArithmetic(typeDateArguments(input))))))), session)

/** Keywords and functions whose value is a date or timestamp (a TIMESTAMP's as ticks, longdate.ts). */
const DATETIME_VALUES = new Set([
  "CURRENT_DATE", "CURRENT_TIMESTAMP", "CURRENT_UTCTIMESTAMP", "NOW", "ADD_DAYS", "ADD_MONTHS", "ADD_YEARS", "ADD_SECONDS",
  "ADD_NANO100", "ADD_WORKDAYS", "TO_DATE", "TO_TIMESTAMP", "TO_SECONDDATE", "LAST_DAY", "NEXT_DAY"
])
const ARITHMETIC = new Set(["+", "-", "*", "/", "||"])

/**
 * A comparison with a datetime keyword, function or text on one side (`NOW() >= CURRENT_DATE`, `ts < ADD_DAYS(
 * CURRENT_DATE, 1)`, `ADD_DAYS(ts, 1) > '2024-01-01'`, `HAVING MAX(ts) > '2024-01-01'`) compares as HANA converts (SAP HANA SQL Reference, "Data Type Conversion"):
 * `a op b` becomes `hana_ld_cmp(b, a) op hana_ld_cmp(a, b)`, so a TIMESTAMP's ticks meet the other side as ticks and
 * any other pair of values is left as it was. Only whole operands next to the operator are taken (a literal, a name,
 * a call), never part of an arithmetic expression, and never a bare parameter (the macro would type it).
 */
const typeDatetimeOperands = (tokens: readonly Token[]): readonly Token[] => {
  const isDatetime = (t: Token | undefined) =>
    (t?.t === "word" && DATETIME_VALUES.has(upper(t))) || (t?.t === "string" && DATETIME_TEXT.test(t.v))
  if (!tokens.some(isDatetime)) return tokens
  const out: Token[] = []
  const isOpIn = (t: Token | undefined, set: ReadonlySet<string>) => t?.t === "op" && set.has(t.v)
  const wrap = (c: readonly Token[], s: readonly Token[]): Token[] =>
    [{ t: "word", v: "hana_ld_cmp" }, { t: "op", v: "(" }, ...c, { t: "op", v: "," }, ...s, { t: "op", v: ")" }]
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    const start = isOpIn(t, COMPARISONS) ? operandStart(out, out.length - 1) : undefined
    const end = start !== undefined ? operandEnd(tokens, i + 1) : undefined
    if (start === undefined || end === undefined || isOpIn(out[start - 1], ARITHMETIC) || isOpIn(tokens[end], ARITHMETIC) || isOpIn(tokens[i + 1], ARITHMETIC)) {
      out.push(t)
      i++
      continue
    }
    const left = out.slice(start)
    const right = tokens.slice(i + 1, end)
    const single = (x: readonly Token[]) => x.length === 1 && x[0]!.t === "param"
    // `SET a = …, b = …` assigns, it does not compare
    const assigns = t.v === "=" && (upper(out[start - 1]) === "SET" || (out[start - 1]?.t === "op" && out[start - 1]!.v === ","))
    if (assigns || single(left) || single(right) || !(isDatetime(left[0]) || isDatetime(right[0]))) {
      out.push(t)
      i++
      continue
    }
    out.splice(start)
    if (left.some((x) => x.t === "param") || right.some((x) => x.t === "param")) out.push(...comparedOnce("hana_ld_cmp", t.v, left, right))
    else out.push(...wrap(right, left), t, ...wrap(left, right))
    i = end
  }
  return out
}

/** The macro giving a TIMESTAMP's ticks as its text (longdate.ts) and any other value unchanged. */
const LD_TEXT = "hana_ld_text"

/**
 * Each operand of `||` wrapped in `hana_ld_text( … )`: a TIMESTAMP's ticks (longdate.ts) concatenate as its text,
 * anything else as it is. Only whole operands (a literal, a name, a call, a group) are wrapped, so the parse is unchanged.
 */
const textConcatenations = (tokens: readonly Token[]): readonly Token[] => {
  if (!tokens.some((t) => t.t === "op" && t.v === "||")) return tokens
  const out: Token[] = []
  // a bare parameter is left alone: the macro around it would type it as ticks
  const wrapped = (operand: readonly Token[]): Token[] =>
    (operand[0]?.t === "word" && operand[0].v === LD_TEXT) || (operand.length === 1 && operand[0]!.t === "param")
      ? [...operand]
      : [{ t: "word", v: LD_TEXT }, { t: "op", v: "(" }, ...operand, { t: "op", v: ")" }]
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    if (!(t.t === "op" && t.v === "||")) {
      out.push(t)
      i++
      continue
    }
    const start = operandStart(out, out.length - 1)
    if (start !== undefined) out.push(...wrapped(out.splice(start)))
    out.push(t)
    const end = operandEnd(tokens, i + 1)
    if (end === undefined || (tokens[i + 1]?.t === "op" && ["-", "+"].includes(tokens[i + 1]!.v))) {
      i++
      continue
    }
    out.push(...wrapped(tokens.slice(i + 1, end)))
    i = end
  }
  return out
}

/** Character types: a CAST of a TIMESTAMP's ticks to one of them is the TIMESTAMP's text (longdate.ts). */
const TEXT_TYPES = new Set(["VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "ALPHANUM", "SHORTTEXT", "CLOB", "NCLOB", "TEXT"])

/**
 * `CAST(e AS type)` at tokens[i] (the CAST), with a TIMESTAMP's ticks (longdate.ts) converted: to TIMESTAMP it is
 * `hana_ld(e)` (ticks), to a character type the TIMESTAMP's text, to anything else from DuckDB's microsecond
 * TIMESTAMP. Undefined when the call is not `CAST(… AS <HANA type>)`.
 */
const castAt = (tokens: readonly Token[], i: number, session: SessionValues): { sql: string; end: number } | undefined => {
  const close = matching(tokens, i + 1)
  let depth = 0
  let as = -1
  for (let j = i + 2; j < close; j++) {
    const t = tokens[j]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0 && upper(t) === "AS") as = j
  }
  const typeName = upper(tokens[as + 1])
  if (as < 0 || !TYPE_NAMES.has(typeName)) return undefined
  const [text, consumed, type] = typeAt(tokens, as + 1)
  if (as + 1 + consumed !== close) return undefined
  const inner = rewritten(tokens.slice(i + 2, as), session)
  // A bare parameter is typed by the cast (hana_ld's CASE on typeof(x) would leave it untyped), and binding.ts sends ticks.
  const bareParameter = as === i + 3 && tokens[i + 2]!.t === "param"
  if (type.name === "TIMESTAMP") return { sql: bareParameter ? `CAST(${inner} AS UBIGINT)` : `hana_ld(${inner})`, end: close }
  // HANA cuts what a CAST to SECONDDATE, TIME / SECONDTIME, DECIMAL(p,s) or an integer type drops, where DuckDB's
  // cast rounds or keeps it (literal-writes.ts); a bare parameter arrives cut (binding.ts) and takes its type from the CAST.
  const hasParameter = tokens.slice(i + 2, as).some((t) => t.t === "param")
  const cut = bareParameter
    ? undefined
    : type.name === "SECONDDATE"
      ? `hana_cut_seconds(${inner})`
      : type.name === "DECIMAL" && type.scale >= 0
        ? `hana_cut_decimal(${inner}, ${type.scale})`
        : ["TINYINT", "SMALLINT", "INTEGER", "BIGINT"].includes(type.name) && !hasParameter
          ? `hana_cut_integer(${inner})`
          : type.name === "TIME" && !hasParameter
            ? `hana_cut_time(${inner})`
            : undefined
  if (cut !== undefined) return { sql: `CAST(${cut} AS ${text})`, end: close }
  // A parameter takes its type from the CAST (a macro around it would type it as ticks): it is never ticks itself.
  if (hasParameter) return undefined
  const value = TEXT_TYPES.has(type.name) ? `hana_ld_text(${inner})` : `hana_as(${inner}, CAST(NULL AS ${text}))`
  return { sql: `CAST(${value} AS ${text})`, end: close }
}

const rewritten = (tokens: readonly Token[], session: SessionValues): string => {
  const parts: string[] = []
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!
    const prev = tokens[i - 1]
    const next = tokens[i + 1]
    switch (tok.t) {
      case "string":
        parts.push(quoteString(tok.v))
        break
      case "hex":
        parts.push(hexLiteral(tok.v))
        break
      case "number":
      case "param":
        parts.push(tok.v)
        break
      case "op":
        parts.push(tok.v === "!=" ? "<>" : tok.v)
        break
      case "qident":
        parts.push(quoteName(tok.v))
        break
      case "ws":
        break
      case "word": {
        const U = tok.v.toUpperCase()
        const qualified = prev?.t === "op" && prev.v === "."
        if (qualified && (U === "NEXTVAL" || U === "CURRVAL")) {
          // seq.NEXTVAL → nextval('"SEQ"'): drop the already emitted "SEQ" and "."
          parts.pop()
          const seq = parts.pop() ?? ""
          const owner = tokens[i - 3]?.t === "op" && tokens[i - 3]!.v === "." ? parts.splice(-2, 2)[0] + "." : ""
          parts.push(`${U.toLowerCase()}(${quoteString(owner + seq)})`)
          break
        }
        const call = next?.t === "op" && next.v === "("
        // a FROM inside EXTRACT( … FROM x) or TRIM( … FROM x) is no table position: a call after it is a function
        const prevWord = upper(prev) === "FROM" && inValueFrom(tokens, i - 1) ? "" : upper(prev)
        // TIMESTAMP '…' (LONGDATE '…'): the literal as ticks (longdate.ts), all seven fraction digits kept.
        if (!qualified && (U === "TIMESTAMP" || U === "LONGDATE") && next?.t === "string") {
          parts.push(`hana_ld(${quoteString(next.v)})`)
          i++
          break
        }
        const cast = !qualified && call && U === "CAST" ? castAt(tokens, i, session) : undefined
        if (cast !== undefined) {
          parts.push(cast.sql)
          i = cast.end
          break
        }
        if (!qualified && U === "AS" && next !== undefined && next.t === "word" && VECTOR_TYPES.has(next.v.toUpperCase()) && castContext(tokens, i)) {
          throw vectorTypeUnsupported(next.v.toUpperCase())
        }
        if (!qualified && U === "AS" && next !== undefined && next.t === "word" && TYPE_NAMES.has(next.v.toUpperCase()) && castContext(tokens, i)) {
          const [text, consumed] = typeAt(tokens, i + 1)
          parts.push("AS", text)
          i += consumed
          break
        }
        if (!qualified && call && U === "SESSION_CONTEXT") {
          // SESSION_CONTEXT('KEY') → the value the client set (CLIENT_INFO) as a literal, else NULL.
          const key = tokens[i + 2]
          if (key?.t !== "string" || tokens[i + 3]?.v !== ")") throw HanaError.unsupported("SESSION_CONTEXT needs a literal key")
          const value = session.context?.get(key.v.toUpperCase())
          parts.push(value === undefined ? "CAST(NULL AS VARCHAR)" : `CAST(${quoteString(value)} AS VARCHAR)`)
          i += 3
          break
        }
        // EXTRACT(YEAR FROM d) → hana_year ( d ): INTEGER as in HANA (function-types.ts).
        const field = !qualified && call && U === "EXTRACT" && upper(tokens[i + 3]) === "FROM" ? EXTRACT_FIELDS.get(upper(tokens[i + 2])) : undefined
        if (field !== undefined) {
          parts.push(field, "(")
          i += 3
          break
        }
        // AVG(x) → hana_avg(x), HANA's DECIMAL(p,6) of an integer (function-types.ts); the window form, DISTINCT and
        // ALL stay DuckDB's.
        if (!qualified && call && U === "AVG" && !["DISTINCT", "ALL"].includes(upper(tokens[i + 2])) && upper(tokens[matching(tokens, i + 1) + 1]) !== "OVER") {
          parts.push("hana_avg")
          break
        }
        // TO_DECIMAL(x, p, s) → CAST(x AS DECIMAL(p, s)): a macro cannot take its result type from its arguments. The
        // digits beyond s are cut, as a CAST to DECIMAL(p,s) cuts them (SAP HANA SQL Reference, "TO_DECIMAL Function":
        // "Unnecessary least significant digits … are truncated", TO_DECIMAL(7654321.888888, 10, 3) = 7654321.888).
        // Without a scale it is 0 ("If scale is not specified, then the default is 0").
        const close = !qualified && call && U === "TO_DECIMAL" ? matching(tokens, i + 1) : -1
        const args = close > 0 ? splitTopLevel(tokens.slice(i + 2, close)) : []
        const numberArg = (k: number): string | undefined => (args[k]?.length === 1 && args[k]![0]!.t === "number" ? args[k]![0]!.v : undefined)
        const precision = args.length === 2 || args.length === 3 ? numberArg(1) : undefined
        const scale = args.length === 3 ? numberArg(2) : "0"
        if (precision !== undefined && scale !== undefined) {
          const value = rewrite(args[0]!, session)
          const bareParameter = args[0]!.length === 1 && args[0]![0]!.t === "param"
          const cut = bareParameter ? value : `hana_cut_decimal(${value}, ${scale})`
          parts.push(`CAST(${cut} AS DECIMAL(${precision}, ${scale}))`)
          i = close
          break
        }
        if (!qualified && call && (KEYWORD_FUNCTIONS.has(U) || callsBuiltinKeyword(tokens, i, U))) {
          parts.push(FUNCTIONS.get(U)!)
          break
        }
        if (!qualified && call && !KEYWORDS.has(U) && !["INTO", "TABLE", "REFERENCES", "VIEW", "EXISTS", "UPDATE", "JOIN", "FROM"].includes(prevWord)) {
          parts.push(FUNCTIONS.get(U) ?? U.toLowerCase())
          break
        }
        if (!qualified) {
          const special = specialValue(U, session)
          if (special !== undefined) {
            parts.push(special)
            break
          }
          // DUMMY is both the table and its column: only a table position (after FROM/JOIN) means SYS.DUMMY.
          if (U === "DUMMY" && (prevWord === "FROM" || prevWord === "JOIN") && !(next?.t === "op" && next.v === ".")) {
            parts.push('"SYS"."DUMMY"')
            break
          }
          // TRIM([LEADING | TRAILING | BOTH] [c] FROM s) (SAP HANA SQL Reference, "TRIM Function (String)"): DuckDB reads the same form
          if (TRIM_SIDES.has(U) && upper(tokens[i - 2]) === "TRIM" && tokens[i - 1]?.t === "op" && tokens[i - 1]!.v === "(") {
            parts.push(U)
            break
          }
          // CONSTRAINT not followed by a constraint's name is SYS.INDEXES' column of that name
          const constraintColumn = U === "CONSTRAINT" && next?.t !== "qident" && !(next?.t === "word" && !KEYWORDS.has(next.v.toUpperCase()))
          if (KEYWORDS.has(U) && !constraintColumn) {
            parts.push(U)
            break
          }
        }
        parts.push(quoteName(U))
        break
      }
    }
  }
  return parts.join(" ").replace(/ \. /g, ".")
}

/** True when the AS at index i belongs to a CAST( … AS type ). */
const castContext = (tokens: readonly Token[], i: number): boolean => {
  let depth = 0
  for (let j = i - 1; j >= 0; j--) {
    const t = tokens[j]!
    if (t.t === "op" && t.v === ")") depth++
    else if (t.t === "op" && t.v === "(") {
      if (depth === 0) return upper(tokens[j - 1]) === "CAST"
      depth--
    }
  }
  return false
}

const specialValue = (U: string, _s: SessionValues): string | undefined => {
  switch (U) {
    case "CURRENT_SCHEMA":
      return "getvariable('hana_schema')"
    case "CURRENT_USER":
    case "SESSION_USER":
      return "getvariable('hana_user')"
    case "CURRENT_CONNECTION":
      return "getvariable('hana_connection_id')"
    // "CURRENT_TRANSACTION_ISOLATION_LEVEL Function (Miscellaneous)": the level as a string; the server runs every
    // transaction at HANA's default, READ COMMITTED (SET TRANSACTION ISOLATION LEVEL is accepted and ignored)
    case "CURRENT_TRANSACTION_ISOLATION_LEVEL":
      return "'READ COMMITTED'"
    case "CURRENT_UTCTIMESTAMP":
      return nowTicks("CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP)")
    case "CURRENT_TIMESTAMP":
      return nowTicks("CAST(now() AS TIMESTAMP)")
    case "CURRENT_DATE":
    case "CURRENT_TIME":
      return U
    // "SYSUUID Function (Miscellaneous)": a bare word, a new UUID on every call (misc-functions.ts)
    case "SYSUUID":
      return "hana_sysuuid()"
    // calendar-functions.ts
    case "CURRENT_UTCDATE":
    case "CURRENT_UTCTIME":
      return `hana_${U.toLowerCase()}()`
    default:
      return undefined
  }
}

/** Result column names DuckDB gives substituted special values, mapped back to HANA's names. */
export const SPECIAL_COLUMN_NAMES: ReadonlyMap<string, string> = new Map([
  ["getvariable('hana_schema')", "CURRENT_SCHEMA"],
  ["getvariable('hana_user')", "CURRENT_USER"],
  ["getvariable('hana_connection_id')", "CURRENT_CONNECTION"],
  ["'READ COMMITTED'", "CURRENT_TRANSACTION_ISOLATION_LEVEL"],
  ["CAST(((epoch_us(CAST(now() AS TIMESTAMP)) + 62135769600000000) * 10) AS \"UBIGINT\")", "CURRENT_TIMESTAMP"],
  ["CAST(((epoch_us(CAST(main.timezone('UTC', now()) AS TIMESTAMP)) + 62135769600000000) * 10) AS \"UBIGINT\")", "CURRENT_UTCTIMESTAMP"],
  ["CURRENT_DATE", "CURRENT_DATE"],
  ["CURRENT_TIME", "CURRENT_TIME"],
  ["hana_sysuuid()", "SYSUUID"],
  ["hana_current_utcdate()", "CURRENT_UTCDATE"],
  ["hana_current_utctime()", "CURRENT_UTCTIME"]
])
