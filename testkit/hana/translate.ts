/**
 * HANA SQL → DuckDB SQL translation for the accepted subset (testkit/hana/README.md): tokenizes, folds unquoted
 * identifiers to upper case, encodes every identifier with {@link encodeName}, maps HANA types/functions/special
 * values, and classifies the statement (function code, transaction control, session commands).
 */
import { LITERAL_WRITE_MACROS } from "./literal-writes.ts"
import { parseIdentityStatement } from "./identity/statements.ts"
import { CURRENT_IDENTITY_MACRO, identityDefault } from "./identity-values.ts"
import type { IdentityCommand } from "./identity/statements.ts"
import { typeDateArguments } from "./datetime-arguments.ts"
import { DATE_OUT_OF_RANGE, HanaError, VALUE_TOO_LARGE } from "./errors.ts"
import { joinedRows } from "./join-locks.ts"
import { assignmentsOf, type KeyTarget } from "./key-locks.ts"
import { BUILTIN_FUNCTION_MACROS, BUILTIN_FUNCTIONS, callsBuiltinKeyword } from "./builtin-functions.ts"
import { EXTRACT_FIELDS, KEYWORD_FUNCTIONS, TYPED_FUNCTION_MACROS, TYPED_FUNCTIONS } from "./function-types.ts"
import { alterTableClauses, recordTableOptions, tableOptions, withoutColumnClauses } from "./table-clauses.ts"
import { identOf, matching, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { type ForUpdateWait, forUpdateWait, type LockSlices, type LockTarget, selectedRows, writtenRows } from "./row-locks.ts"
import { encodeName, quoteName, quoteString } from "./names.ts"
import { duckType, hanaType, TYPE_NAMES, typeText } from "./types.ts"
import type { HanaType } from "./types.ts"
import { rewriteSpatial } from "./spatial.ts"
import { rewriteContains } from "./text-search.ts"
import { VECTOR_TYPES, vectorTypeUnsupported } from "./vector-types.ts"

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
  ["NOW", "now"],
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
  ...BUILTIN_FUNCTIONS
])

/** The session macro a divisor is wrapped in: it raises "division by zero undefined" (error 304) for 0. */
export const DIVISOR_GUARD = "hana_divisor"

/** DuckDB's names of the types a HANA datetime is stored in (`typeof`), as a SQL list. */
const DUCKDB_DATETIME_TYPES = ["DATE", "TIME", "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"].map((t) => `'${t}'`).join(", ")

/**
 * Per-session DuckDB macros backing {@link FUNCTIONS} (TEMP macros, so every schema search path finds them).
 * `hana_sleep(s)` busy-waits s seconds inside DuckDB so a statement can be cancelled while it runs.
 */
export const SESSION_MACROS = [
  CURRENT_IDENTITY_MACRO,
  // A datetime with a format prints in it (datetime-formats.ts). A TIMESTAMP without one prints as HANA's default
  // 'YYYY-MM-DD HH24:MI:SS.FF7' (SAP HANA SQL Reference, "Datetime Data Types"); DuckDB's text drops a zero fraction
  // and trailing zeros. Other values ignore a format.
  `CREATE OR REPLACE TEMP MACRO hana_to_varchar(x, f := NULL) AS CASE WHEN f IS NOT NULL AND typeof(x) IN (${DUCKDB_DATETIME_TYPES}) THEN hana_format_datetime(CAST(x AS VARCHAR), f) WHEN typeof(x) = 'TIMESTAMP' THEN rpad(CAST(x AS VARCHAR) || CASE WHEN contains(CAST(x AS VARCHAR), '.') THEN '' ELSE '.' END, 27, '0') ELSE CAST(x AS VARCHAR) END`,
  "CREATE OR REPLACE TEMP MACRO hana_to_integer(x) AS CAST(x AS INTEGER)",
  "CREATE OR REPLACE TEMP MACRO hana_to_bigint(x) AS CAST(x AS BIGINT)",
  "CREATE OR REPLACE TEMP MACRO hana_to_double(x) AS CAST(x AS DOUBLE)",
  "CREATE OR REPLACE TEMP MACRO hana_to_decimal(x, p := 34, s := 10) AS CAST(x AS DECIMAL(34, 10))",
  // Text with a format is read in it (datetime-formats.ts); anything else converts as a CAST does.
  "CREATE OR REPLACE TEMP MACRO hana_to_date(x, f := NULL) AS CASE WHEN f IS NOT NULL AND typeof(x) = 'VARCHAR' THEN hana_parse_date(CAST(x AS VARCHAR), f) ELSE CAST(x AS DATE) END",
  "CREATE OR REPLACE TEMP MACRO hana_to_timestamp(x, f := NULL) AS CASE WHEN f IS NOT NULL AND typeof(x) = 'VARCHAR' THEN hana_parse_timestamp(CAST(x AS VARCHAR), f) ELSE CAST(x AS TIMESTAMP) END",
  // Day arithmetic is in datetime-functions.ts; these convert the arguments as the former SQL versions did.
  "CREATE OR REPLACE TEMP MACRO hana_add_days(d, n) AS hana_shift_days(d, CAST(n AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_add_seconds(d, n) AS hana_shift_seconds(CAST(d AS TIMESTAMP), CAST(n AS DECIMAL(38, 7)))",
  "CREATE OR REPLACE TEMP MACRO hana_add_nano100(d, n) AS hana_shift_nano100(CAST(d AS TIMESTAMP), CAST(n AS BIGINT))",
  "CREATE OR REPLACE TEMP MACRO hana_nano100_between(a, b) AS hana_nano100_span(CAST(a AS TIMESTAMP), CAST(b AS TIMESTAMP))",
  "CREATE OR REPLACE TEMP MACRO hana_days_between(a, b) AS hana_day_span(CAST(a AS DATE), CAST(b AS DATE))",
  "CREATE OR REPLACE TEMP MACRO hana_weekday(d) AS hana_day_of_week(CAST(d AS DATE))",
  "CREATE OR REPLACE TEMP MACRO hana_seconds_between(a, b) AS datediff('second', CAST(a AS TIMESTAMP), CAST(b AS TIMESTAMP))",
  "CREATE OR REPLACE TEMP MACRO hana_add_months(d DATE, n) AS CAST(d + to_months(CAST(n AS INTEGER)) AS DATE), (d TIMESTAMP_S, n) AS CAST(d + to_months(CAST(n AS INTEGER)) AS TIMESTAMP_S), (d TIMESTAMP, n) AS d + to_months(CAST(n AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_add_years(d DATE, n) AS CAST(d + to_years(CAST(n AS INTEGER)) AS DATE), (d TIMESTAMP_S, n) AS CAST(d + to_years(CAST(n AS INTEGER)) AS TIMESTAMP_S), (d TIMESTAMP, n) AS d + to_years(CAST(n AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_bintohex(b) AS upper(hex(b))",
  "CREATE OR REPLACE TEMP MACRO hana_to_binary(x) AS encode(CAST(x AS VARCHAR))",
  "CREATE OR REPLACE TEMP MACRO hana_to_tinyint(x) AS CAST(x AS UTINYINT)",
  "CREATE OR REPLACE TEMP MACRO hana_to_smallint(x) AS CAST(x AS SMALLINT)",
  "CREATE OR REPLACE TEMP MACRO hana_to_real(x) AS CAST(x AS FLOAT)",
  "CREATE OR REPLACE TEMP MACRO hana_newuid() AS unhex(replace(CAST(gen_random_uuid() AS VARCHAR), '-', ''))",
  "CREATE OR REPLACE TEMP MACRO series_generate_integer(inc, mn, mx) AS TABLE SELECT CAST(i AS BIGINT) AS GENERATED_PERIOD_START, CAST(i + inc AS BIGINT) AS GENERATED_PERIOD_END, CAST((i - mn) / inc + 1 AS BIGINT) AS ELEMENT_NUMBER, CAST((i - mn) / (mx - mn) AS DOUBLE) AS FRACTION_OF_MIN_MAX_RANGE FROM range(mn, mx, inc) t(i)",
  // HANA fails a division by zero with error 304 "division by zero undefined" where DuckDB returns NULL.
  `CREATE OR REPLACE TEMP MACRO ${DIVISOR_GUARD}(d) AS CASE WHEN d = 0 THEN error('division by zero undefined') ELSE d END`,
  // SLEEP_SECONDS(s) lasts s seconds of wall clock, busy inside DuckDB (so a cancel interrupts it): rows are scanned
  // until one is read past the deadline. A fixed row count lasted 0.4 s for SLEEP_SECONDS(3) on an idle machine.
  "CREATE OR REPLACE TEMP MACRO hana_sleep(s) AS (SELECT count(*) FROM (SELECT i FROM range(9223372036854775807) t(i) WHERE hana_clock_ms(i) >= (SELECT hana_clock_ms(0)) + s * 1000 LIMIT 1))",
  ...TYPED_FUNCTION_MACROS,
  ...BUILTIN_FUNCTION_MACROS,
  ...LITERAL_WRITE_MACROS
].join("; ")

/** Session values substituted into SQL. */
export interface SessionValues {
  readonly schema: string
  readonly user: string
  readonly connectionId: number
  /** Session context variables (set by the client's CLIENT_INFO part, e.g. APPLICATION), read by SESSION_CONTEXT. */
  readonly context?: ReadonlyMap<string, string>
}

/** A column declared by CREATE TABLE, remembered as the DuckDB column comment. */
export interface DeclaredColumn {
  readonly name: string
  readonly type: HanaType
}

/** What a statement is, after translation. */
export type Translated =
  | {
      readonly kind: "query"
      readonly sql: string
      readonly params: number
      readonly forUpdate: boolean
      /** SELECT ... FOR UPDATE: the rows it locks, one target per table (row-locks.ts, join-locks.ts). */
      readonly lockRows?: LockTarget | ReadonlyArray<LockTarget>
      /** HANA's names of the result columns that are expressions (the select item's text), by position. */
      readonly columnNames?: ReadonlyArray<string | undefined>
      /** The table columns plain column items read, by position (result nullability). */
      readonly columnSources?: ReadonlyArray<SelectItemSource>
      /** The top-level FROM items in order (undefined entries: subqueries and other unnamed items). */
      readonly fromItems?: ReadonlyArray<FromItem | undefined>
    }
  | {
      readonly kind: "dml"
      readonly functionCode: 2 | 3 | 4
      readonly sql: string
      readonly params: number
      /** UPDATE / DELETE of one table: the rows it writes and locks (row-locks.ts). */
      readonly lockRows?: LockTarget
      /** `INSERT INTO t [(cols)] VALUES (...)`: the keys it writes and locks (key-locks.ts). */
      readonly lockKeys?: KeyTarget
      /** For `INSERT INTO t [(cols)] VALUES (?, ...)`: the target and the column of each `?`, in order. */
      readonly insert?: {
        readonly schema: string | undefined
        readonly table: string
        readonly columns: readonly string[] | undefined
        /** DuckDB SQL before `VALUES`, for multi-row batch statements. */
        readonly prefix: string
      }
    }
  | {
      readonly kind: "ddl"
      readonly sql: string
      readonly params: number
      /** CREATE TABLE … LIKE: copy the declared column types (comments) from this DuckDB table to the new one. */
      readonly copyTypes?: { readonly from: string; readonly to: string }
      /**
       * CREATE VIEW (and CREATE TABLE … AS query): the new object and its query, so the declared types of plain
       * column references carry over.
       */
      readonly view?: { readonly target: string; readonly query: string }
      /**
       * ALTER TABLE … ADD and CREATE TABLE … AS / LIKE make columns DuckDB cannot give a CHECK: their declared
       * lengths are enforced afterwards (declared-lengths.ts) for these columns (absent: all).
       */
      readonly declaredLengths?: { readonly table: string; readonly columns?: readonly string[] }
    }
  | { readonly kind: "commit" }
  /** SET TRANSACTION LOCK WAIT TIMEOUT <ms> (row-locks.ts). */
  | { readonly kind: "lockWaitTimeout"; readonly ms: number }
  | { readonly kind: "rollback" }
  | { readonly kind: "savepoint"; readonly action: "set" | "rollback" | "release"; readonly name: string }
  | { readonly kind: "setSchema"; readonly schema: string }
  | { readonly kind: "cancelSession"; readonly connectionId: number; readonly disconnect: boolean }
  | { readonly kind: "createUser"; readonly user: string; readonly password: string }
  | { readonly kind: "dropUser"; readonly user: string }
  /** Security administration (PSEs, certificates, providers, user identities): identity/statements.ts. */
  | { readonly kind: "identity"; readonly command: IdentityCommand }
  | { readonly kind: "ddlAutocommit"; readonly on: boolean }
  | { readonly kind: "noop" }

const savepointOf = (action: "set" | "rollback" | "release", name: Token | undefined, wellFormed: boolean): Translated => {
  const ident = identOf(name)
  if (!wellFormed || ident === undefined) throw HanaError.syntax(`savepoint name expected`, 0)
  return { kind: "savepoint", action, name: ident }
}

const hexLiteral = (hex: string): string => {
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) throw HanaError.syntax("invalid binary literal", 0)
  return `from_hex('${hex}')`
}

/**
 * Rewrites a token sequence to DuckDB SQL: identifiers encoded, types and functions mapped, special values
 * substituted. Tokens are significant tokens (no whitespace) joined with spaces.
 */
/** End (exclusive) of the operand starting at `i`: a literal, a `( … )` group, a CASE … END, or a name with its call. */
export const operandEnd = (tokens: readonly Token[], i: number): number | undefined => {
  const t = tokens[i]
  if (t === undefined) return undefined
  const closing = (open: number, opens: (t: Token) => boolean, closes: (t: Token) => boolean): number | undefined => {
    let depth = 0
    for (let j = open; j < tokens.length; j++) {
      if (opens(tokens[j]!)) depth++
      else if (closes(tokens[j]!) && --depth === 0) return j + 1
    }
    return undefined
  }
  const isOp = (v: string) => (x: Token) => x.t === "op" && x.v === v
  if (t.t === "op" && (t.v === "-" || t.v === "+")) return operandEnd(tokens, i + 1)
  if (t.t === "op" && t.v === "(") return closing(i, isOp("("), isOp(")"))
  if (t.t === "number" || t.t === "string" || t.t === "hex" || t.t === "param") return i + 1
  if (upper(t) === "CASE") return closing(i, (x) => upper(x) === "CASE", (x) => upper(x) === "END")
  if (t.t !== "word" && t.t !== "qident") return undefined
  let end = i + 1
  while (tokens[end] !== undefined && isOp(".")(tokens[end]!) && (tokens[end + 1]?.t === "word" || tokens[end + 1]?.t === "qident")) end += 2
  return tokens[end]?.t === "op" && tokens[end]!.v === "(" ? closing(end, isOp("("), isOp(")")) : end
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

const rewrite = (input: readonly Token[], session: SessionValues): string => {
  const tokens = guardDivisors(typeDateArguments(input))
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
        const prevWord = upper(prev)
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
        // TO_DECIMAL(x, p, s) → CAST(x AS DECIMAL(p, s)): a macro cannot take its result type from its arguments.
        const close = !qualified && call && U === "TO_DECIMAL" ? matching(tokens, i + 1) : -1
        if (close > 0 && tokens[close - 1]?.t === "number" && tokens[close - 2]?.v === "," && tokens[close - 3]?.t === "number" && tokens[close - 4]?.v === ",") {
          parts.push(`CAST(${rewrite(tokens.slice(i + 2, close - 4), session)} AS DECIMAL(${tokens[close - 3]!.v}, ${tokens[close - 1]!.v}))`)
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
          if (KEYWORDS.has(U)) {
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
    case "CURRENT_UTCTIMESTAMP":
      return "CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP)"
    case "CURRENT_TIMESTAMP":
      return "CAST(now() AS TIMESTAMP)"
    case "CURRENT_DATE":
    case "CURRENT_TIME":
      return U
    default:
      return undefined
  }
}

/** Result column names DuckDB gives substituted special values, mapped back to HANA's names. */
export const SPECIAL_COLUMN_NAMES: ReadonlyMap<string, string> = new Map([
  ["getvariable('hana_schema')", "CURRENT_SCHEMA"],
  ["getvariable('hana_user')", "CURRENT_USER"],
  ["getvariable('hana_connection_id')", "CURRENT_CONNECTION"],
  ["CAST(now() AS TIMESTAMP)", "CURRENT_TIMESTAMP"],
  ["CAST(main.timezone('UTC', now()) AS TIMESTAMP)", "CURRENT_UTCTIMESTAMP"],
  ["CURRENT_DATE", "CURRENT_DATE"],
  ["CURRENT_TIME", "CURRENT_TIME"]
])

/** Parses a type at tokens[i] (name and optional `(n[,m])`); returns the DuckDB type and tokens consumed. */
const CHARACTER_TYPES = new Set(["VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "ALPHANUM", "SHORTTEXT"])
const BINARY_TYPES = new Set(["VARBINARY", "BINARY"])

/**
 * A CHECK that enforces a declared length (DuckDB's VARCHAR(n) does not), so an over-long value fails as in HANA with
 * 274 "inserted value too large for column" (mapped from the CHECK failure in errors.ts).
 */
/** The CHECK (after a space) enforcing a column's declared length, or "" when its type has none. */
export const lengthCheck = (column: string, type: HanaType): string => {
  if (DATED_TYPES.has(type.name)) {
    // HANA's dates run from 0001-01-01 to 9999-12-31 (SAP HANA SQL Reference, "Datetime Data Types"); DuckDB's go
    // further. The check raises HANA's 303 text (errors.ts DATE_OUT_OF_RANGE).
    const c = quoteName(column)
    return ` CHECK (CASE WHEN ${c} >= DATE '0001-01-01' AND ${c} < DATE '10000-01-01' THEN true ELSE error(${quoteString(DATE_OUT_OF_RANGE)} || CAST(${c} AS VARCHAR)) END)`
  }
  if (type.length <= 0) return ""
  const fn = CHARACTER_TYPES.has(type.name) ? "length" : BINARY_TYPES.has(type.name) ? "octet_length" : undefined
  if (fn === undefined) return ""
  // The check raises HANA's 274 text naming the column and the value (errors.ts valueTooLarge).
  const value = fn === "length" ? quoteName(column) : `upper(hex(${quoteName(column)}))`
  const text = quoteString(`${VALUE_TOO_LARGE}${column}" column with the value '`)
  return ` CHECK (CASE WHEN ${fn}(${quoteName(column)}) <= ${type.length} THEN true ELSE error(${text} || ${value} || ${quoteString("'")}) END)`
}

const typeAt = (tokens: readonly Token[], i: number): [string, number, HanaType] => {
  const [t, consumed] = parseType(tokens, i)
  return [duckType(t), consumed, t]
}

/** Types holding a date, whose year HANA limits to 1..9999. */
const DATED_TYPES = new Set(["DATE", "SECONDDATE", "TIMESTAMP", "LONGDATE", "DAYDATE"])

const DATETIME_TYPES = new Set(["DATE", "TIME", "SECONDDATE", "TIMESTAMP", "LONGDATE", "DAYDATE", "SECONDTIME"])

const parseType = (tokens: readonly Token[], i: number): [HanaType, number] => {
  const nameTok = tokens[i]
  const name = upper(nameTok)
  let consumed = 1
  const args: number[] = []
  if (tokens[i + 1]?.t === "op" && tokens[i + 1]!.v === "(") {
    // HANA's datetime types take no length or precision (SAP HANA SQL Reference, "Datetime Data Types": DATE, TIME,
    // SECONDDATE, TIMESTAMP are declared bare; TIMESTAMP always keeps 7 fractional digits;
    // http://help.sap.com/hana/html/_csql_data_types.html), so `TIMESTAMP(6)` is a
    // syntax error there, as here.
    if (DATETIME_TYPES.has(name)) throw HanaError.syntax(`incorrect syntax near "(": ${name} takes no length or precision`, 0)
    let j = i + 2
    while (j < tokens.length && !(tokens[j]!.t === "op" && tokens[j]!.v === ")")) {
      const t = tokens[j]!
      if (t.t === "number") args.push(Number(t.v))
      else if (!(t.t === "op" && t.v === ",")) throw HanaError.syntax(`invalid type arguments near ${t.v}`, 0)
      j++
    }
    consumed = j - i + 1
  }
  // DOUBLE PRECISION
  if (name === "DOUBLE" && upper(tokens[i + consumed]) === "PRECISION") consumed++
  const t = hanaType(name, args)
  if (t === undefined && VECTOR_TYPES.has(name)) throw vectorTypeUnsupported(name)
  if (t === undefined) throw HanaError.syntax(`invalid datatype: ${nameTok?.v ?? "<end>"}`, 0)
  return [t, consumed]
}

/** Reads a possibly schema-qualified name at tokens[i]; returns [schema, name, tokens consumed]. */
const qualifiedName = (tokens: readonly Token[], i: number): [string | undefined, string, number] => {
  const first = identOf(tokens[i])
  if (first === undefined) throw HanaError.syntax(`identifier expected near ${tokens[i]?.v ?? "<end>"}`, 0)
  if (tokens[i + 1]?.t === "op" && tokens[i + 1]!.v === ".") {
    const second = identOf(tokens[i + 2])
    if (second === undefined) throw HanaError.syntax("identifier expected after '.'", 0)
    return [first, second, 3]
  }
  return [undefined, first, 1]
}

const qualified = (schema: string | undefined, name: string): string =>
  schema === undefined ? quoteName(name) : `${quoteName(schema)}.${quoteName(name)}`

/** The DuckDB row-id query of a statement's lock slices (row-locks.ts). */
const lockTarget = (slices: LockSlices, wait: ForUpdateWait, session: SessionValues): LockTarget => ({
  table: `${slices.schema ?? session.schema}.${slices.table}`,
  sql: `SELECT rowid FROM ${rewrite(slices.from, session)} ${slices.rest.length === 0 ? "" : rewrite(slices.rest, session)}`,
  firstParam: slices.firstParam,
  params: slices.params,
  ...wait
})

const withLockTarget = <T extends Translated>(t: T, slices: LockSlices | undefined, session: SessionValues): T =>
  slices === undefined ? t : { ...t, lockRows: lockTarget(slices, { nowait: false }, session) }

/** UPDATE of one table setting columns: the keys it writes (key-locks.ts; which columns are keys is known at run time). */
const withUpdateKeys = (t: Extract<Translated, { kind: "dml" }>, all: Token[], session: SessionValues): Translated => {
  const slices = writtenRows(all)
  const set = all.findIndex((tok) => upper(tok) === "SET")
  const hint = all.findIndex((tok, k) => k > set && upper(tok) === "WITH" && upper(all[k + 1]) === "HINT")
  const where = slices === undefined || set < 0 ? -1 : slices.rest.length > 0 ? all.indexOf(slices.rest[0]!) : hint < 0 ? all.length : hint
  const parts = where < 0 ? undefined : assignmentsOf(all.slice(set + 1, where))
  if (slices === undefined || parts === undefined) return t
  const values = parts.assignments.map((a) => rewrite([...a.value], session)).join(", ")
  const lockKeys: KeyTarget = {
    table: `${slices.schema ?? session.schema}.${slices.table}`,
    schema: slices.schema ?? session.schema,
    name: slices.table,
    columns: undefined,
    assigned: parts.assignments.map((a) => a.column),
    valuesSql: `SELECT ${values}, * FROM ${rewrite(slices.from, session)} ${slices.rest.length === 0 ? "" : rewrite(slices.rest, session)}`,
    firstParam: countParams(all.slice(0, set + 1)),
    params: countParams(all.slice(set + 1))
  }
  return { ...t, lockKeys }
}

const countParams = (tokens: readonly Token[]): number => tokens.filter((t) => t.t === "param").length

/** Translates one HANA statement. */
export const translate = (hanaSql: string, session: SessionValues): Translated => {
  const sql = rewriteContains(rewriteSpatial(hanaSql))
  const all = sig(tokenize(sql))
  while (all.length > 0 && all[all.length - 1]!.t === "op" && all[all.length - 1]!.v === ";") all.pop()
  if (all.length === 0) throw HanaError.syntax("empty statement", 0)
  if (all.some((t) => t.t === "op" && t.v === ";")) throw HanaError.syntax("multiple statements are not supported", 0)
  const w0 = upper(all[0])
  const w1 = upper(all[1])
  const params = countParams(all)
  const identity = ["CREATE", "DROP", "ALTER", "SET", "UNSET"].includes(w0) ? parseIdentityStatement(all) : undefined
  if (identity !== undefined) return { kind: "identity", command: identity }
  switch (w0) {
    case "SELECT":
    case "WITH":
    case "(":
    case "VALUES":
      return translateQuery(all, session, sql)
    case "":
      if (all[0]!.t === "op" && all[0]!.v === "(") return translateQuery(all, session)
      break
    case "INSERT":
      return translateInsert(all, session)
    case "UPSERT":
    case "REPLACE":
      return translateUpsert(all, session)
    case "UPDATE":
      return withUpdateKeys(withLockTarget({ kind: "dml", functionCode: 3, sql: rewrite(all, session), params }, writtenRows(all), session), all, session)
    case "DELETE":
      return withLockTarget({ kind: "dml", functionCode: 4, sql: rewrite(all, session), params }, writtenRows(all), session)
    case "COMMIT":
      return { kind: "commit" }
    // SAVEPOINT <name>, ROLLBACK TO SAVEPOINT <name>, RELEASE SAVEPOINT <name> (HANA SQL reference, transaction
    // management statements).
    case "SAVEPOINT":
      return savepointOf("set", all[1], all.length === 2)
    case "RELEASE":
      if (w1 === "SAVEPOINT") return savepointOf("release", all[2], all.length === 3)
      break
    case "ROLLBACK":
      if (w1 === "TO") return savepointOf("rollback", all[3], upper(all[2]) === "SAVEPOINT" && all.length === 4)
      return { kind: "rollback" }
    case "SET":
      if (w1 === "SCHEMA") {
        const name = identOf(all[2])
        if (name === undefined || all.length !== 3) throw HanaError.syntax("SET SCHEMA <name> expected", 0)
        return { kind: "setSchema", schema: name }
      }
      if (w1 === "TRANSACTION" && upper(all[2]) === "AUTOCOMMIT" && upper(all[3]) === "DDL") {
        const mode = upper(all[4])
        if (mode !== "ON" && mode !== "OFF") throw HanaError.syntax("SET TRANSACTION AUTOCOMMIT DDL ON|OFF expected", 0)
        return { kind: "ddlAutocommit", on: mode === "ON" }
      }
      if (w1 === "TRANSACTION" && upper(all[2]) === "LOCK" && upper(all[3]) === "WAIT" && upper(all[4]) === "TIMEOUT") {
        if (all[5]?.t !== "number" || all.length !== 6 || !/^\d+$/.test(all[5].v)) {
          throw HanaError.syntax("SET TRANSACTION LOCK WAIT TIMEOUT <milliseconds> expected", 0)
        }
        return { kind: "lockWaitTimeout", ms: Number(all[5].v) }
      }
      if (w1 === "TRANSACTION" || all[1]?.t === "string" || w1 === "PSE") return { kind: "noop" }
      break
    case "ALTER":
      if (w1 === "SYSTEM") {
        const words = all.map(upper)
        const id = all.find((t) => t.t === "string")
        if ((words.includes("CANCEL") || words.includes("DISCONNECT")) && words.includes("SESSION") && id !== undefined) {
          return { kind: "cancelSession", connectionId: Number(id.v), disconnect: words.includes("DISCONNECT") }
        }
      }
      if (w1 === "TABLE") return { kind: "ddl", ...rewriteAlterTable(all, session), params }
      if (w1 === "USER" || isSecurityAdministration(all)) return { kind: "noop" }
      break
    case "CREATE":
    case "DROP":
      // Security administration the identity store does not model (LDAP providers) is accepted and ignored.
      if (isSecurityAdministration(all)) return { kind: "noop" }
      return w0 === "CREATE" ? translateCreate(all, session) : translateDrop(all, session)
    case "TRUNCATE":
      return { kind: "ddl", sql: rewrite(all, session), params }
    case "COMMENT":
      return { kind: "ddl", sql: rewrite(all, session), params }
    case "GRANT":
    case "REVOKE":
      return { kind: "noop" }
    default:
      break
  }
  throw HanaError.syntax(`incorrect syntax near "${all[0]!.v}"`, 1)
}

/** The token range [start, end) of the top-level select list, or undefined when there is none. */
const selectList = (tokens: readonly Token[]): { start: number; end: number } | undefined => {
  let depth = 0
  let start = -1
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0 && upper(t) === "SELECT") {
      start = i + 1
      break
    }
  }
  if (start < 0) return undefined
  if (upper(tokens[start]) === "DISTINCT" || upper(tokens[start]) === "ALL") start++
  let end = tokens.length
  depth = 0
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0 && ["FROM", "UNION", "INTERSECT", "EXCEPT", "MINUS", "ORDER", "LIMIT", "INTO"].includes(upper(t))) {
      end = i
      break
    }
  }
  return { start, end }
}

/**
 * Names HANA gives unaliased expression columns: the select item's text with unquoted words in upper case
 * (e.g. `COUNT(*)`). Undefined entries leave DuckDB's name (plain columns, aliases); undefined overall when a `*`
 * makes positions unknowable.
 */
const selectItemNames = (tokens: readonly Token[], sql: string): Array<string | undefined> | undefined => {
  const list = selectList(tokens)
  if (list === undefined) return undefined
  const { start, end } = list
  const names: Array<string | undefined> = []
  for (const item of splitTopLevel(tokens.slice(start, end))) {
    const last = item[item.length - 1]
    if (item.length === 0 || last === undefined) return undefined
    if (last.t === "op" && last.v === "*") return undefined
    const plainColumn = item.every((t, k) => (k % 2 === 0 ? t.t === "word" || t.t === "qident" : t.t === "op" && t.v === "."))
    const aliased = item.length >= 2 && (last.t === "word" || last.t === "qident") && !(item[item.length - 2]!.t === "op")
    if (plainColumn || aliased || item[0]!.pos === undefined || last.end === undefined) {
      names.push(undefined)
      continue
    }
    const text = sql.slice(item[0]!.pos, last.end)
    names.push(text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|[\p{L}_#$][\p{L}\p{N}_#$]*/gu, (m) => (m.startsWith("'") || m.startsWith('"') ? m : m.toUpperCase())))
  }
  return names
}

/** The table column a select item reads (through its alias and table qualifier), as DuckDB names them. */
export interface ColumnSource {
  readonly qualifier?: string
  readonly column: string
  /** The item reads the optional side of an outer join (its values may be NULL whatever the column declares). */
  readonly optional: boolean
}

/** A select item `*` (all FROM items) or `q.*` (the FROM item known as `q`). */
export interface StarSource {
  readonly star: string | undefined
}

/** What a select item reads: a table column, every column of a star, or (undefined) an expression. */
export type SelectItemSource = ColumnSource | StarSource | undefined

/** A top-level FROM item that is a table: the name it is known by (alias, else table name), its table and schema. */
export interface FromItem {
  readonly name: string
  readonly table: string
  readonly schema: string | undefined
  /** On the optional side of an outer join (its columns may be NULL whatever they declare). */
  readonly optional?: boolean
}

const nameOf = (t: Token): string => encodeName(t.t === "qident" ? t.v : t.v.toUpperCase())

/**
 * The table column behind each select item that is a (qualified) column reference, aliased or not: HANA resolves
 * such items to the column (its result metadata names the source table and column beside the display name, as
 * node-hdb's ResultSetMetadata fixtures show: https://github.com/SAP/node-hdb/blob/master/test/fixtures/resultSetMetadata.js),
 * so a NOT NULL column stays mandatory. Undefined entries are expressions; a `*` or `q.*` item is a StarSource
 * (results.ts expands it over the FROM items' columns).
 */
const selectItemSources = (tokens: readonly Token[]): { sources: SelectItemSource[]; from: Array<FromItem | undefined> } | undefined => {
  const list = selectList(tokens)
  if (list === undefined) return undefined
  const optional = outerJoinSides(tokens, list.end)
  const out: SelectItemSource[] = []
  for (const item of splitTopLevel(tokens.slice(list.start, list.end))) {
    const last = item[item.length - 1]
    if (last === undefined) return undefined
    if (last.t === "op" && last.v === "*") {
      if (item.length === 1) out.push({ star: undefined })
      else if (item.length === 3 && item[1]!.t === "op" && item[1]!.v === ".") out.push({ star: nameOf(item[0]!) })
      else return undefined
      continue
    }
    const isName = (t: Token | undefined) => t !== undefined && (t.t === "word" || t.t === "qident")
    const aliased = item.length >= 2 && isName(last) && !(item[item.length - 2]!.t === "op")
    const core = aliased ? item.slice(0, upper(item[item.length - 2]) === "AS" ? -2 : -1) : item
    const chain = core.length % 2 === 1 && core.every((t, k) => (k % 2 === 0 ? isName(t) : t.t === "op" && t.v === "."))
    if (!chain || core.length > 5) {
      out.push(undefined)
      continue
    }
    const qualifier = core.length >= 3 ? nameOf(core[core.length - 3]!) : undefined
    // An unqualified column of an outer join may come from its optional side: nullable, as it may be.
    const opt = optional.all || (qualifier === undefined ? optional.names.size > 0 : optional.names.has(qualifier))
    out.push(qualifier === undefined ? { column: nameOf(core[core.length - 1]!), optional: opt } : { qualifier, column: nameOf(core[core.length - 1]!), optional: opt })
  }
  return { sources: out, from: optional.items }
}

const CLAUSE_ENDS = new Set(["WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "MINUS", "FOR", "WINDOW", "QUALIFY"])
const NOT_ALIASES = new Set(["ON", "USING", "WHERE", "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "OUTER", "NATURAL", "GROUP", "ORDER", "LIMIT", "HAVING", "UNION"])

/** The name (alias, else table name) a FROM item at tokens[k] is known by; undefined for an unaliased `( … )`. */
const fromItemName = (tokens: readonly Token[], k: number): string | undefined => fromItemAt(tokens, k).name

/** The FROM item at tokens[k]: its name (as fromItemName) and, for a table (`[schema.]table`), table and schema. */
const fromItemAt = (tokens: readonly Token[], k: number): { name: string | undefined; item: FromItem | undefined } => {
  let name: Token | undefined
  const parts: Token[] = []
  if (tokens[k]?.t === "op" && tokens[k]!.v === "(") {
    k = matching(tokens, k)
  } else {
    while (tokens[k] !== undefined && (tokens[k]!.t === "word" || tokens[k]!.t === "qident")) {
      name = tokens[k]
      parts.push(name!)
      if (tokens[k + 1]?.t === "op" && tokens[k + 1]!.v === ".") k += 2
      else break
    }
  }
  const next = tokens[k + 1]
  const alias =
    upper(next) === "AS" ? tokens[k + 2] : next !== undefined && (next.t === "qident" || (next.t === "word" && !NOT_ALIASES.has(upper(next)) && !CLAUSE_ENDS.has(upper(next)))) ? next : undefined
  const known = alias ?? name
  const table = parts.length === 1 || parts.length === 2 ? nameOf(parts[parts.length - 1]!) : undefined
  const item = known === undefined || table === undefined || tokens[k + 1]?.v === "(" ? undefined : { name: nameOf(known), table, schema: parts.length === 2 ? nameOf(parts[0]!) : undefined }
  return { name: known === undefined ? undefined : nameOf(known), item }
}

/**
 * The tables (by alias or name) on the optional side of the top-level outer joins after the select list: the right
 * side of LEFT JOIN, every table before a RIGHT JOIN; a FULL join (or a RIGHT JOIN after an unnamed group) makes
 * every table optional (`all`).
 */
const outerJoinSides = (tokens: readonly Token[], from: number): { names: Set<string>; all: boolean; items: Array<FromItem | undefined> } => {
  const names = new Set<string>()
  const items: Array<FromItem | undefined> = []
  const before: Array<string | undefined> = []
  let all = false
  let depth = 0
  let inFrom = false
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    if (depth !== 0) continue
    const w = upper(t)
    if (CLAUSE_ENDS.has(w)) break
    if (w === "FROM" || (inFrom && t.t === "op" && t.v === ",")) {
      inFrom = true
      before.push(fromItemName(tokens, i + 1))
      items.push(fromItemAt(tokens, i + 1).item)
      continue
    }
    if (w !== "JOIN") continue
    let k = i - 1
    if (upper(tokens[k]) === "OUTER") k--
    const kind = upper(tokens[k])
    const item = fromItemName(tokens, i + 1)
    if (kind === "FULL") all = true
    if (kind === "LEFT" && item !== undefined) names.add(item)
    if (kind === "RIGHT") {
      if (before.some((n) => n === undefined)) all = true
      for (const n of before) if (n !== undefined) names.add(n)
    }
    before.push(item)
    items.push(fromItemAt(tokens, i + 1).item)
  }
  return { names, all, items: items.map((item) => (item !== undefined && (all || names.has(item.name)) ? { ...item, optional: true } : item)) }
}

/** `CREATE|ALTER|DROP [X509|JWT|SAML] PROVIDER`, `… PSE`, `… CERTIFICATE`. */
const isSecurityAdministration = (all: readonly Token[]): boolean => {
  const w1 = upper(all[1])
  const w2 = upper(all[2])
  return w1 === "PSE" || w1 === "CERTIFICATE" || (["X509", "JWT", "SAML", "LDAP"].includes(w1) && w2 === "PROVIDER")
}

/** HANA 2.0 requires a FROM clause in every top-level SELECT (`SELECT 1 FROM DUMMY`). */
const requireFrom = (tokens: readonly Token[]): void => {
  let depth = 0
  let open = false
  for (const t of tokens) {
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0) {
      const w = upper(t)
      if (w === "SELECT") {
        if (open) break
        open = true
      } else if (w === "FROM") open = false
      else if ((w === "UNION" || w === "INTERSECT" || w === "EXCEPT" || w === "MINUS") && open) break
    }
  }
  if (open) throw HanaError.syntax("incorrect syntax near end of statement: a SELECT needs a FROM clause (use FROM DUMMY)", 0)
}

const translateQuery = (all: Token[], session: SessionValues, sqlText?: string): Translated => {
  requireFrom(all)
  let tokens = all
  let forUpdate = false
  let lockRows: LockTarget | ReadonlyArray<LockTarget> | undefined
  // SELECT ... FOR UPDATE [NOWAIT]: DuckDB has no row locks; the server locks the rows (row-locks.ts).
  const forIdx = tokens.findIndex((t, i) => upper(t) === "FOR" && upper(tokens[i + 1]) === "UPDATE")
  if (forIdx > 0) {
    const slices = selectedRows(tokens.slice(0, forIdx))
    const wait = forUpdateWait(tokens.slice(forIdx + 2))
    const joined = slices === undefined ? joinedRows(tokens.slice(0, forIdx), tokens.slice(forIdx + 2)) : undefined
    lockRows =
      slices !== undefined
        ? lockTarget(slices, wait, session)
        : joined?.tables.map((j) => ({
            table: `${j.schema ?? session.schema}.${j.table}`,
            sql: `SELECT r FROM (SELECT ${quoteName(j.qualifier)}.rowid AS r FROM ${rewrite(joined.from, session)}) WHERE r IS NOT NULL`,
            firstParam: joined.firstParam,
            params: joined.params,
            ...wait
          }))
    tokens = tokens.slice(0, forIdx)
    forUpdate = true
  }
  // SELECT [DISTINCT] TOP n ... → ... LIMIT n
  let limit: string | undefined
  if (upper(tokens[0]) === "SELECT") {
    const at = upper(tokens[1]) === "DISTINCT" ? 2 : 1
    if (upper(tokens[at]) === "TOP" && (tokens[at + 1]?.t === "number" || tokens[at + 1]?.t === "param")) {
      limit = tokens[at + 1]!.v
      tokens = [...tokens.slice(0, at), ...tokens.slice(at + 2)]
    }
  }
  // WITH HINT (...) is accepted and ignored.
  const hint = tokens.findIndex((t, i) => upper(t) === "WITH" && upper(tokens[i + 1]) === "HINT")
  if (hint > 0 && tokens[hint + 2]?.v === "(") tokens = [...tokens.slice(0, hint), ...tokens.slice(matching(tokens, hint + 2) + 1)]
  let sql = rewrite(tokens, session)
  if (limit !== undefined) sql += ` LIMIT ${limit}`
  const columnNames = sqlText === undefined ? undefined : selectItemNames(tokens, sqlText)
  const selected = selectItemSources(tokens)
  return {
    kind: "query",
    sql,
    params: countParams(tokens),
    forUpdate,
    ...(lockRows === undefined ? {} : { lockRows }),
    ...(columnNames === undefined ? {} : { columnNames }),
    ...(selected === undefined ? {} : { columnSources: selected.sources, fromItems: selected.from })
  }
}

const translateInsert = (all: Token[], session: SessionValues): Translated => {
  const params = countParams(all)
  if (upper(all[1]) !== "INTO") throw HanaError.syntax("INSERT INTO expected", 0)
  const [schema, table, used] = qualifiedName(all, 2)
  let i = 2 + used
  let columns: string[] | undefined
  if (all[i]?.t === "op" && all[i]!.v === "(") {
    const close = matching(all, i)
    columns = splitTopLevel(all.slice(i + 1, close)).map((c) => {
      const name = identOf(c[0])
      if (name === undefined || c.length !== 1) throw HanaError.syntax("column name expected", 0)
      return name
    })
    i = close + 1
  }
  let insert: { schema: string | undefined; table: string; columns: readonly string[] | undefined; prefix: string } | undefined
  if (upper(all[i]) === "VALUES" && all[i + 1]?.v === "(") {
    const close = matching(all, i + 1)
    const items = splitTopLevel(all.slice(i + 2, close))
    if (close === all.length - 1 && items.every((it) => it.length === 1 && it[0]!.t === "param")) {
      insert = { schema, table, columns, prefix: rewrite(all.slice(0, i), session) }
    }
  }
  const sql = rewrite(all, session)
  const values = upper(all[i]) === "VALUES" ? all.slice(i) : undefined
  const lockKeys: KeyTarget | undefined =
    values === undefined
      ? undefined
      : {
          table: `${schema ?? session.schema}.${table}`,
          schema: schema ?? session.schema,
          name: table,
          columns,
          valuesSql: insert === undefined ? `SELECT * FROM (${rewrite(values, session)})` : undefined,
          firstParam: countParams(all.slice(0, i)),
          params: countParams(values)
        }
  return { kind: "dml", functionCode: 2, sql, params, ...(insert === undefined ? {} : { insert }), ...(lockKeys === undefined ? {} : { lockKeys }) }
}

/** `UPSERT t [(cols)] VALUES (...) [WITH PRIMARY KEY]` / `REPLACE ...` → DuckDB `INSERT OR REPLACE INTO`. */
const translateUpsert = (all: Token[], session: SessionValues): Translated => {
  let tokens = all.slice(1)
  if (upper(tokens[0]) === "INTO") tokens = tokens.slice(1)
  const wpk = tokens.findIndex((t, i) => upper(t) === "WITH" && upper(tokens[i + 1]) === "PRIMARY")
  if (wpk >= 0) tokens = tokens.slice(0, wpk)
  if (tokens.some((t) => upper(t) === "WHERE")) throw HanaError.unsupported("UPSERT ... WHERE")
  const translated = translateInsert([{ t: "word", v: "INSERT" }, { t: "word", v: "INTO" }, ...tokens], session)
  if (translated.kind !== "dml") return translated
  return { ...translated, sql: translated.sql.replace(/^INSERT INTO/, "INSERT OR REPLACE INTO") }
}

const translateCreate = (all: Token[], session: SessionValues): Translated => {
  let i = 1
  const w = (k: number): string => upper(all[k])
  if (w(i) === "USER") {
    const user = identOf(all[i + 1])
    const pwIdx = all.findIndex((t) => upper(t) === "PASSWORD")
    const pw = all[pwIdx + 1]
    if (user === undefined || pwIdx < 0 || pw === undefined) throw HanaError.syntax("CREATE USER <name> PASSWORD <password> expected", 0)
    return { kind: "createUser", user, password: pw.t === "string" ? pw.v : pw.t === "qident" ? pw.v : pw.v }
  }
  if (w(i) === "SCHEMA") {
    const name = identOf(all[i + 1])
    if (name === undefined) throw HanaError.syntax("schema name expected", 0)
    return { kind: "ddl", sql: `CREATE SCHEMA ${quoteName(name)}`, params: 0 }
  }
  if (w(i) === "OR" && w(i + 1) === "REPLACE") i += 2
  let temporary = false
  let local = false
  if (w(i) === "GLOBAL" && w(i + 1) === "TEMPORARY") {
    temporary = true
    i += 2
  } else if (w(i) === "LOCAL" && w(i + 1) === "TEMPORARY") {
    temporary = true
    local = true
    i += 2
  }
  if (w(i) === "HISTORY") i++
  const rowStore = w(i) === "ROW"
  if (w(i) === "COLUMN" || w(i) === "ROW") i++
  if (w(i) === "VIEW") {
    const [schema, name, used] = qualifiedName(all, i + 1)
    const as = all.findIndex((t, k) => k > i + used && upper(t) === "AS")
    const sql = rewrite(all, session)
    if (as < 0) return { kind: "ddl", sql, params: 0 }
    return { kind: "ddl", sql, params: 0, view: { target: qualified(schema, name), query: rewrite(all.slice(as + 1), session) } }
  }
  if (w(i) === "SEQUENCE" || w(i) === "INDEX" || (w(i) === "UNIQUE" && w(i + 1) === "INDEX")) {
    return { kind: "ddl", sql: rewrite(all, session), params: 0 }
  }
  if (w(i) !== "TABLE") throw HanaError.syntax(`incorrect syntax near "${all[i]?.v ?? "<end>"}"`, 0)
  const [schema, name, used] = qualifiedName(all, i + 1)
  if (local && (schema !== undefined || !name.startsWith("#"))) {
    throw HanaError.syntax("local temporary table name must start with #", 0)
  }
  if (!local && name.startsWith("#")) throw HanaError.syntax("only local temporary tables can start with #", 0)
  i += 1 + used
  const target = local ? quoteName(name) : qualified(schema, name)
  const create = local ? "CREATE TEMP TABLE" : "CREATE TABLE"
  const rest = all.slice(i)
  if (upper(rest[0]) === "LIKE") {
    const [ls, ln, lu] = qualifiedName(rest, 1)
    const withData = upper(rest[1 + lu]) === "WITH" && upper(rest[2 + lu]) === "DATA"
    const from = qualified(ls, ln)
    return {
      kind: "ddl",
      sql: `${create} ${target} AS SELECT * FROM ${from}${withData ? "" : " LIMIT 0"}`,
      params: 0,
      copyTypes: { from, to: target },
      declaredLengths: { table: target }
    }
  }
  if (upper(rest[0]) === "AS") {
    let q = rest.slice(1)
    let noData = false
    const wi = q.findIndex((t, k) => upper(t) === "WITH" && (upper(q[k + 1]) === "DATA" || (upper(q[k + 1]) === "NO" && upper(q[k + 2]) === "DATA")))
    if (wi >= 0) {
      noData = upper(q[wi + 1]) === "NO"
      q = q.slice(0, wi)
    }
    const query = translateQuery(q, session)
    if (query.kind !== "query") throw HanaError.syntax("query expected", 0)
    return {
      kind: "ddl",
      sql: `${create} ${target} AS ${query.sql}${noData ? " LIMIT 0" : ""}`,
      params: 0,
      view: { target, query: query.sql },
      declaredLengths: { table: target }
    }
  }
  if (!(rest[0]?.t === "op" && rest[0].v === "(")) throw HanaError.syntax("column list expected", 0)
  const close = matching(rest, 0)
  // DuckDB looks an unqualified reference to the table being created up in its own main schema, not the schema the
  // table goes to (the INSERT then fails with "Table … does not exist"), so a self-reference names the schema.
  const selfReferencing = rest.slice(1, close).map((t, k, list) =>
    !local && upper(list[k - 1]) === "REFERENCES" && identOf(t) === name && !(list[k + 1]?.t === "op" && list[k + 1]!.v === ".")
      ? [{ t: "qident" as const, v: schema ?? session.schema }, { t: "op" as const, v: "." }, t]
      : [t]
  )
  const elements = splitTopLevel(selfReferencing.flat())
  const defs: string[] = []
  const declared: DeclaredColumn[] = []
  const sequences: string[] = []
  for (const el of elements) {
    const head = upper(el[0])
    if (["CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK"].includes(head)) {
      defs.push(rewrite(el, session))
      continue
    }
    const colName = identOf(el[0])
    if (colName === undefined) throw HanaError.syntax(`column definition expected near ${el[0]?.v ?? "<end>"}`, 0)
    const [duck, consumed, type] = typeAt(el, 1)
    let tail = withoutColumnClauses(el.slice(1 + consumed))
    const generated = tail.findIndex((t) => upper(t) === "GENERATED")
    if (generated >= 0) {
      // GENERATED {ALWAYS|BY DEFAULT} AS IDENTITY [(START WITH n INCREMENT BY m)] → a sequence-backed default.
      const identity = tail.findIndex((t, k) => k > generated && upper(t) === "IDENTITY")
      if (identity < 0) throw HanaError.unsupported("generated columns other than IDENTITY")
      let end = identity + 1
      let start = "1"
      let increment = "1"
      if (tail[end]?.t === "op" && tail[end]!.v === "(") {
        const close = matching(tail, end)
        const opts = tail.slice(end + 1, close)
        opts.forEach((t, k) => {
          if (upper(t) === "START" && opts[k + 2]?.t === "number") start = opts[k + 2]!.v
          if (upper(t) === "INCREMENT" && opts[k + 2]?.t === "number") increment = opts[k + 2]!.v
        })
        end = close + 1
      }
      const seqName = `${name}_${colName}_IDENTITY`
      const seq = local ? quoteName(seqName) : qualified(schema, seqName)
      sequences.push(`CREATE OR REPLACE ${local ? "TEMP " : ""}SEQUENCE ${seq} START WITH ${start} INCREMENT BY ${increment}`)
      tail = [...tail.slice(0, generated), ...tail.slice(end)]
      defs.push(`${quoteName(colName)} ${duck} DEFAULT ${identityDefault(quoteString(seq))} ${rewrite(tail, session)}`.trimEnd())
    } else {
      defs.push(`${quoteName(colName)} ${duck}${lengthCheck(colName, type)} ${rewrite(tail, session)}`.trimEnd())
    }
    declared.push({ name: colName, type })
  }
  // Column comments record the declared HANA type (DuckDB keeps no type aliases); see testkit/hana/catalog.ts.
  const comments = declared.map((c) => `COMMENT ON COLUMN ${target}.${quoteName(c.name)} IS ${quoteString(typeText(c.type))}`)
  // Row-store tables are remembered by oid so SYS.TABLES can report TABLE_TYPE 'ROW' (catalog.ts).
  const rowMark = rowStore && !temporary
    ? [`INSERT INTO "SYS"."_ROW_TABLES" SELECT table_oid FROM duckdb_tables() WHERE database_name = current_database()
        AND table_name = ${quoteString(encodeName(name))} AND schema_name = ${schema === undefined ? "current_schema()" : quoteString(encodeName(schema))}`]
    : []
  // UNLOAD PRIORITY and PARTITION BY after the column list are kept for SYS.TABLES (table-clauses.ts).
  const options = local ? [] : recordTableOptions(schema, name, tableOptions(rest.slice(close + 1)))
  return { kind: "ddl", sql: [...sequences, `${create} ${target} (${defs.join(", ")})`, ...comments, ...rowMark, ...options].join("; "), params: 0 }
}

const translateDrop = (all: Token[], session: SessionValues): Translated => {
  const w1 = upper(all[1])
  if (w1 === "USER") {
    const user = identOf(all[2])
    if (user === undefined) throw HanaError.syntax("user name expected", 0)
    return { kind: "dropUser", user }
  }
  if (w1 === "SCHEMA") {
    const name = identOf(all[2])
    if (name === undefined) throw HanaError.syntax("schema name expected", 0)
    return { kind: "ddl", sql: `DROP SCHEMA ${quoteName(name)}${upper(all[3]) === "CASCADE" ? " CASCADE" : ""}`, params: 0 }
  }
  if (w1 === "TABLE" || w1 === "VIEW" || w1 === "SEQUENCE" || w1 === "INDEX") {
    const [schema, name] = qualifiedName(all, 2)
    const cascade = all.some((t) => upper(t) === "CASCADE")
    return { kind: "ddl", sql: `DROP ${w1} ${qualified(schema, name)}${cascade ? " CASCADE" : ""}`, params: 0 }
  }
  throw HanaError.syntax(`incorrect syntax near "${all[1]?.v ?? "<end>"}"`, 0)
}

/** ALTER TABLE t ADD (c type, ...) / DROP (c) / RENAME COLUMN — HANA's parenthesized forms become DuckDB's. */
const rewriteAlterTable = (all: Token[], session: SessionValues): { sql: string; declaredLengths?: { table: string; columns: string[] } } => {
  const [schema, name, used] = qualifiedName(all, 2)
  const target = qualified(schema, name)
  const rest = all.slice(2 + used)
  const op = upper(rest[0])
  if ((op === "ADD" || op === "DROP") && rest[1]?.v === "(") {
    const close = matching(rest, 1)
    const items = splitTopLevel(rest.slice(2, close))
    const sized: string[] = []
    const sql = items
      .map((el) => {
        const col = identOf(el[0])
        if (col === undefined) throw HanaError.syntax("column expected", 0)
        if (op === "DROP") return `ALTER TABLE ${target} DROP COLUMN ${quoteName(col)}`
        const [duck, consumed, type] = typeAt(el, 1)
        if (lengthCheck(col, type) !== "") sized.push(encodeName(col))
        return `ALTER TABLE ${target} ADD COLUMN ${quoteName(col)} ${duck} ${rewrite(withoutColumnClauses(el.slice(1 + consumed)), session)}; COMMENT ON COLUMN ${target}.${quoteName(col)} IS ${quoteString(typeText(type))}`
      })
      .join("; ")
    return sized.length > 0 ? { sql, declaredLengths: { table: target, columns: sized } } : { sql }
  }
  const clauses = alterTableClauses(schema, name, rest)
  if (clauses !== undefined) return { sql: clauses === "" ? "SELECT NULL WHERE false" : clauses }
  return { sql: rewrite(all, session) }
}

/** Exposed for tests: the DuckDB identifier of a HANA name. */
export const duckIdentifier = encodeName
