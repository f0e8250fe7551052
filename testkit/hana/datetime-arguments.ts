/**
 * String literals given where a HANA datetime function expects a date (`ADD_DAYS('1582-10-04', 1)`). HANA converts
 * such a literal implicitly with its default formats (DATE: 'YYYY-MM-DD', SAP HANA SQL and System Views Reference,
 * SPS 08, "Data Types") and fails with 303 "invalid DATE, TIME or TIMESTAMP value" when it does not parse
 * (L. Breddemann, "Be careful with dates and timestamps", lbreddemann.org: HANA "tries to apply its default formats
 * to convert the text", and a text in another format fails with "[303]: invalid DATE, TIME or TIMESTAMP value").
 * A string literal would not choose among the typed overloads behind them (datetime-functions.ts), so the translator
 * types the literal instead: a bare date becomes a DATE, anything else a TIMESTAMP, whose cast fails for text that
 * is no datetime (errors.ts maps that failure to 303). Which type HANA gives the result for a literal argument is
 * not confirmed (README, "Differences").
 *
 * A character value that is no literal (a column, an expression) cannot be typed by its text before it runs: the
 * date functions take it as a TIMESTAMP (`hana_text_ld`, below), as ADD_SECONDS, which works on TIMESTAMPs, does,
 * so ADD_DAYS, ADD_MONTHS and ADD_YEARS of a character column are TIMESTAMPs with all seven fraction digits. HANA's
 * result type for a character argument is not confirmed either (its reference gives the argument as a date only).
 */
import { matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

/** The positions of the date arguments of each datetime function that converts a string literal there. */
const DATE_ARGUMENTS: ReadonlyMap<string, ReadonlyArray<number>> = new Map([
  ["ADD_DAYS", [0]],
  ["ADD_SECONDS", [0]],
  ["ADD_MONTHS", [0]],
  ["ADD_YEARS", [0]],
  ["DAYS_BETWEEN", [0, 1]]
])

const BARE_DATE = /^\s*\d{1,4}-\d{1,2}-\d{1,2}\s*$/

/**
 * The functions whose date argument, when it is a character value that is no literal, is taken as a TIMESTAMP
 * (`hana_text_ld`, below; ADD_SECONDS works on TIMESTAMPs itself). An argument holding a parameter is left alone:
 * the macro would repeat the parameter, whose type DuckDB then no longer infers.
 */
const TEXT_AS_TIMESTAMP = new Set(["ADD_DAYS", "ADD_MONTHS", "ADD_YEARS"])

/** `CAST('…' AS DATE|TIMESTAMP)` as tokens, for a string literal at a date argument; `CAST(? AS TIMESTAMP)` for a bare parameter. */
const typedLiteral = (literal: Token): Token[] => [
  { t: "word", v: "CAST" },
  { t: "op", v: "(" },
  literal,
  { t: "word", v: "AS" },
  { t: "word", v: literal.t === "string" && BARE_DATE.test(literal.v) ? "DATE" : "TIMESTAMP" },
  { t: "op", v: ")" }
]

/**
 * Casts each string literal that is a whole date argument of ADD_DAYS, ADD_SECONDS, ADD_MONTHS, ADD_YEARS or
 * DAYS_BETWEEN to DATE (a bare 'YYYY-MM-DD') or TIMESTAMP (anything else), as HANA converts it implicitly.
 * A bare parameter there is cast to TIMESTAMP: the session macros tell ticks by typeof, which leaves it untyped.
 * Any other date argument of ADD_DAYS, ADD_MONTHS and ADD_YEARS is wrapped in `hana_text_ld` (a character value as a TIMESTAMP).
 */
export const typeDateArguments = (tokens: readonly Token[]): readonly Token[] => {
  if (!tokens.some((t) => t.t === "string" || t.t === "param" || TEXT_AS_TIMESTAMP.has(upper(t)))) return tokens
  const out: Token[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    const positions = DATE_ARGUMENTS.get(upper(t))
    const open = tokens[i + 1]
    if (positions === undefined || open?.t !== "op" || open.v !== "(" || tokens[i - 1]?.v === ".") {
      out.push(t)
      i++
      continue
    }
    const close = matching(tokens, i + 1)
    const args = splitTopLevel(tokens.slice(i + 2, close)).map((arg, n) =>
      arg.length === 1 && (arg[0]!.t === "string" || arg[0]!.t === "param") && positions.includes(n)
        ? typedLiteral(arg[0]!)
        : n === 0 && TEXT_AS_TIMESTAMP.has(upper(t)) && !arg.some((a) => a.t === "param")
          ? [{ t: "word" as const, v: "hana_text_ld" }, { t: "op" as const, v: "(" }, ...typeDateArguments(arg), { t: "op" as const, v: ")" }]
          : typeDateArguments(arg)
    )
    out.push(t, open)
    args.forEach((arg, n) => {
      if (n > 0) out.push({ t: "op", v: "," })
      out.push(...arg)
    })
    out.push(tokens[close]!)
    i = close + 1
  }
  return out
}

/**
 * `hana_text_ld(x)`: a character value as a TIMESTAMP's ticks (longdate.ts `hana_ld`, 303 for a text that is no
 * datetime), any other value as it is, with its own type. The choice is a `struct_extract` key folded from `typeof`
 * at bind time, as in datetime-mixing.ts (x inside each field's CASE, so the macro binds when it is created).
 */
export const DATETIME_ARGUMENT_MACROS: readonly string[] = [
  "CREATE OR REPLACE TEMP MACRO hana_text_ld(x) AS struct_extract({'t': CASE WHEN typeof(x) = 'VARCHAR' THEN hana_ld(x) END, " +
    "'x': CASE WHEN typeof(x) = 'VARCHAR' THEN NULL ELSE x END}, CASE WHEN typeof(x) = 'VARCHAR' THEN 't' ELSE 'x' END)"
]
