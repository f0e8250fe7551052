/**
 * Bound format models: `TO_CHAR(x, :fmt)`, `TO_DATE(:d, :fmt)`, `TO_NUMBER(:t, :fmt, :nls)` and the like take their
 * format model (and NLS parameter) from a bind as readily as from a literal (SQL Language Reference, "TO_CHAR
 * (number)": "fmt ... can be a character expression"). The translator compiles a format model into engine SQL, so a
 * bound one is written into the statement as the literal it is, and its bind leaves the bind rows.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { headingOf } from "./expression-names.ts"
import { isOp, matchParen, sqlString, tokenize, type Tok } from "./lexer.ts"
import { OraError } from "./errors.ts"
import type { BindSpec, StatementResult } from "./statement.ts"

/** The conversion functions whose second and third arguments are a format model and an NLS parameter string. */
const FORMAT_FUNCTIONS = new Set(["TO_CHAR", "TO_NCHAR", "TO_DATE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ", "TO_NUMBER", "TO_BINARY_DOUBLE", "TO_BINARY_FLOAT"])

/** A format model or NLS parameter argument (the second or third) of a conversion function call. */
interface FormatArgument {
  /** The function's name, upper case. */
  readonly fn: string
  /** The token indices of the call's name and of its closing parenthesis. */
  readonly call: readonly [number, number]
  /** The argument's significant tokens (by index). */
  readonly tokens: ReadonlyArray<number>
  /** Whether it is the format model (else the NLS parameter). */
  readonly model: boolean
}

/** Each format model or NLS parameter argument of a conversion function in `toks`, the calls in source order. */
const formatArguments = (toks: ReadonlyArray<Tok>): Array<FormatArgument> => {
  const found: Array<FormatArgument> = []
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  for (let s = 0; s + 1 < sig.length; s++) {
    const name = toks[sig[s]!]!
    if (name.kind !== "ident" || !FORMAT_FUNCTIONS.has(name.value.toUpperCase()) || !isOp(toks[sig[s + 1]!], "(")) continue
    const close = matchParen(toks, sig[s + 1]!)
    // the argument list's top-level commas
    let depth = 0
    let argument = 0
    let start = sig[s + 1]! + 1
    for (let k = start; k <= close; k++) {
      const t = toks[k]!
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")") && depth > 0) depth--
      else if (k === close || (depth === 0 && isOp(t, ","))) {
        if (argument >= 1 && argument <= 2) found.push({ fn: name.value.toUpperCase(), call: [sig[s]!, close], tokens: toks.slice(start, k).flatMap((x, i) => (x.kind === "ws" ? [] : [start + i])), model: argument === 1 })
        argument++
        start = k + 1
      }
    }
  }
  return found
}

/**
 * The binds of `toks` (by token index) that are the whole format model or NLS parameter argument (the second or
 * third) of a conversion function.
 */
export const formatArgumentBinds = (toks: ReadonlyArray<Tok>): Array<number> =>
  formatArguments(toks).flatMap(({ tokens }) => (tokens.length === 1 && toks[tokens[0]!]!.kind === "bind" ? [tokens[0]!] : []))

/**
 * The binds of `toks` (by token index) that are a conversion function's format model or NLS parameter, each with
 * the text every row binds there, and every bind's token index in source order (binds are positional, a name used
 * twice is two binds). Empty when the rows bind different texts there (formatBindRuns).
 */
const formatBinds = (toks: ReadonlyArray<Tok>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>) => {
  const binds = toks.flatMap((t, k) => (t.kind === "bind" ? [k] : [])).sort((a, b) => toks[a]!.pos - toks[b]!.pos)
  const inlined = new Map<number, string>()
  if (binds.length === 0 || rows.length === 0) return { binds, inlined }
  for (const k of formatArgumentBinds(toks)) {
    const position = binds.indexOf(k)
    const value = rows[0]![position]
    if (typeof value === "string" && rows.every((r) => r[position] === value)) inlined.set(k, value)
  }
  return { binds, inlined }
}

/** `xs` without the entries at the positions of the inlined binds. */
const withoutInlined = <T>(xs: ReadonlyArray<T>, binds: ReadonlyArray<number>, inlined: ReadonlyMap<number, string>): Array<T> => {
  const dropped = new Set(binds.flatMap((k, position) => (inlined.has(k) ? [position] : [])))
  return xs.filter((_, position) => !dropped.has(position))
}

/** A statement with its bound format models written in as literals. */
export interface InlinedFormatBinds {
  readonly sql: string
  readonly rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  readonly specs: ReadonlyArray<BindSpec>
}

/**
 * A DML statement's text with each bound format model written in as a string literal, its bind removed from every
 * row; undefined when there is none. RETURNING ... INTO's out binds come back by expression, so they are unaffected.
 */
export const inlineFormatBinds = (sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>): InlinedFormatBinds | undefined => {
  if (rows.length === 0 || !/\bTO_[A-Z_]+\s*\([^]*:/i.test(sql)) return undefined
  const toks = tokenize(sql)
  const { binds, inlined } = formatBinds(toks, rows)
  if (inlined.size === 0) return undefined
  return {
    sql: toks.map((t, k) => (inlined.has(k) ? sqlString(inlined.get(k)!) : t.text)).join(""),
    rows: rows.map((r) => withoutInlined(r, binds, inlined)),
    specs: withoutInlined(specs, binds, inlined)
  }
}

/** The result types of the conversion functions other than TO_CHAR / TO_NCHAR, as a describe reports them. */
const DESCRIBED_TYPES: Readonly<Record<string, string>> = {
  TO_DATE: "DATE",
  TO_TIMESTAMP: "TIMESTAMP",
  TO_TIMESTAMP_TZ: "TIMESTAMP WITH TIME ZONE",
  TO_NUMBER: "NUMBER",
  TO_BINARY_DOUBLE: "BINARY_DOUBLE",
  TO_BINARY_FLOAT: "BINARY_FLOAT"
}

/**
 * A query described without its values (parse only): each TO_CHAR / TO_NCHAR whose format model (and NLS parameter)
 * are binds reads as TO_CHAR(x), its VARCHAR2 result the same; any other conversion function with a bound format
 * model as a NULL of its result type (DESCRIBED_TYPES), its binds dropped. The column heading is the call as written.
 */
const describedFormatBinds = (toks: ReadonlyArray<Tok>, params: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>) => {
  const binds = toks.flatMap((t, k) => (t.kind === "bind" ? [k] : [])).sort((a, b) => toks[a]!.pos - toks[b]!.pos)
  const dropped = new Set<number>()
  const out = [...toks]
  const spliced = new Map<number, Array<Tok>>()
  const removed = new Set<number>()
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  for (let s = 0; s + 1 < sig.length; s++) {
    const name = toks[sig[s]!]!
    if (name.kind !== "ident" || !FORMAT_FUNCTIONS.has(name.value) || !isOp(toks[sig[s + 1]!], "(")) continue
    const close = matchParen(toks, sig[s + 1]!)
    const inside = sig.filter((k) => k > sig[s + 1]! && k < close)
    // the first top-level comma, and only binds and commas after it
    let depth = 0
    const comma = inside.find((k) => (isOp(toks[k], "(") ? (depth++, false) : isOp(toks[k], ")") ? (depth--, false) : depth === 0 && isOp(toks[k], ",")))
    if (comma === undefined) continue
    const rest = inside.filter((k) => k >= comma)
    if (!rest.every((k) => isOp(toks[k], ",") || toks[k]!.kind === "bind")) continue
    const heading = headingOf(toks.slice(sig[s]!, close + 1).filter((t) => t.kind !== "ws"))
    const typed = DESCRIBED_TYPES[name.value]
    if (typed !== undefined) {
      // the whole call a typed NULL: its value is not needed, and the translator cannot compile a model it lacks
      const pos = toks[sig[s]!]!.pos
      spliced.set(sig[s]!, tokenize(`CAST(NULL AS ${typed})`).map((t, i) => ({ ...t, pos, heading: i === 0 ? heading : "" })))
      for (let k = sig[s]!; k <= close; k++) if (toks[k]!.kind === "bind") dropped.add(binds.indexOf(k))
      for (let k = sig[s]! + 1; k <= close; k++) removed.add(k)
      s = sig.indexOf(close)
      continue
    }
    for (let k = sig[s]!; k <= close; k++) out[k] = { ...toks[k]!, heading: k === sig[s]! ? heading : "" }
    for (let k = comma; k < close; k++) {
      if (toks[k]!.kind === "bind") dropped.add(binds.indexOf(k))
      out[k] = { kind: "ws", text: " ", value: " ", pos: toks[k]!.pos, heading: "" }
    }
  }
  if (dropped.size === 0) return undefined
  return { toks: out.flatMap((t, k) => spliced.get(k) ?? (removed.has(k) ? [] : [t])), params: params.filter((_, n) => !dropped.has(n)), specs: specs.filter((_, n) => !dropped.has(n)) }
}

/**
 * A query's tokens with each bound format model a string literal whose column heading is still the bind's
 * (`TO_CHAR(1,:1)`, as Oracle names the unaliased column), and its bind values without those binds. `describeOnly`
 * (no values yet): a TO_CHAR's bound format model left out (describedFormatBinds).
 */
export const inlineFormatBindTokens = (toks: ReadonlyArray<Tok>, params: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>, describeOnly = false) => {
  if (describeOnly) return describedFormatBinds(toks, params, specs) ?? { toks, params, specs }
  const { binds, inlined } = formatBinds(toks, [params])
  if (inlined.size === 0) return { toks, params, specs }
  return {
    toks: toks.map((t, k): Tok => (inlined.has(k) ? { kind: "str", text: sqlString(inlined.get(k)!), value: inlined.get(k)!, pos: t.pos, heading: t.text.toUpperCase() } : t)),
    params: withoutInlined(params, binds, inlined),
    specs: withoutInlined(specs, binds, inlined)
  }
}

/**
 * `toks` with each format model or NLS parameter that is a bind, or a `||` chain of binds and string literals,
 * written in as the string literal it evaluates to, each bind's value from `valueOf` (a PL/SQL statement's bind or
 * variable, known when the statement runs). A format model that is NULL (or empty) makes the whole call a NULL of
 * its result type ("Nulls in SQL Functions": most scalar functions return null when given a null argument, SQL
 * Language Reference, https://docs.oracle.com/database/122/SQLRF/About-SQL-Functions.htm). One whose value is not
 * text, or a NULL NLS parameter, stays.
 */
export const formatModelsAsLiterals = (toks: ReadonlyArray<Tok>, valueOf: (bind: Tok) => DuckDBValue | undefined): ReadonlyArray<Tok> => {
  const replaced = new Map<number, ReadonlyArray<Tok>>()
  const removed = new Set<number>()
  for (const { fn, call, tokens: arg, model } of formatArguments(toks)) {
    if (removed.has(call[0]) || replaced.has(call[0])) continue
    const parts = arg.filter((_, i) => i % 2 === 0).map((k) => toks[k]!)
    if (!arg.every((k, i) => (i % 2 === 1 ? isOp(toks[k], "||") : toks[k]!.kind === "str" || toks[k]!.kind === "bind")) || arg.length % 2 === 0 || (arg.length === 1 && parts[0]!.kind === "str")) continue
    // NULL in a concatenation is the empty string (SQL Language Reference, "Concatenation Operator")
    const values = parts.map((t) => (t.kind === "str" ? t.value : valueOf(t)))
    if (!values.every((v) => typeof v === "string" || v === null)) continue
    const value = values.join("")
    if (value === "" && !model) continue
    const first = toks[arg[0]!]!
    const [from, to] = value === "" ? call : [arg[0]!, arg[arg.length - 1]!]
    const heading = toks.slice(from, to + 1).flatMap((t) => (t.kind === "ws" ? [] : [t.text.toUpperCase()])).join("")
    replaced.set(
      from,
      value === ""
        ? tokenize(`CAST(NULL AS ${DESCRIBED_TYPES[fn] ?? "VARCHAR2(4000)"})`).map((t, i) => ({ ...t, pos: toks[from]!.pos, heading: i === 0 ? heading : "" }))
        : [{ kind: "str", text: sqlString(value), value, pos: first.pos, heading }]
    )
    for (let k = from + 1; k <= to; k++) removed.add(k)
  }
  if (replaced.size === 0) return toks
  return toks.flatMap((t, k) => (removed.has(k) ? [] : (replaced.get(k) ?? [t])))
}

/**
 * The consecutive runs of an executeMany's rows ([first, end) offsets) that bind the same texts as format models,
 * when the rows bind more than one (Oracle evaluates a format model per row); undefined when they all agree, and
 * with RETURNING ... INTO (its values come back as one list over all rows).
 */
export const formatBindRuns = (sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Array<readonly [number, number]> | undefined => {
  if (rows.length < 2 || !/\bTO_[A-Z_]+\s*\([^]*:/i.test(sql) || /\bRETURN(?:ING)?\b[^]*\bINTO\b/i.test(sql)) return undefined
  const toks = tokenize(sql)
  const binds = toks.flatMap((t, k) => (t.kind === "bind" ? [k] : [])).sort((a, b) => toks[a]!.pos - toks[b]!.pos)
  const positions = formatArgumentBinds(toks).map((k) => binds.indexOf(k))
  const key = (r: ReadonlyArray<DuckDBValue>) => JSON.stringify(positions.map((p) => (typeof r[p] === "string" ? r[p] : null)))
  const runs: Array<readonly [number, number]> = []
  let first = 0
  for (let i = 1; i <= rows.length; i++) if (i === rows.length || key(rows[i]!) !== key(rows[first]!)) runs.push([first, i]), (first = i)
  return runs.length > 1 ? runs : undefined
}

/**
 * An executeMany run as `runs` of rows, each executed by `execute`, answered as the one statement it is: row counts
 * summed and listed, batch errors and a failing row's offset counted from the first row.
 */
export const executeRuns = async (runs: ReadonlyArray<readonly [number, number]>, execute: (first: number, end: number) => Promise<StatementResult>): Promise<StatementResult> => {
  let rowCount = 0
  const rowCounts: Array<number> = []
  const batchErrors: Array<{ readonly offset: number; readonly error: OraError }> = []
  for (const [first, end] of runs) {
    let result: StatementResult
    try {
      result = await execute(first, end)
    } catch (e) {
      if (e instanceof OraError) (e as OraError & { rowOffset?: number }).rowOffset = first + ((e as OraError & { rowOffset?: number }).rowOffset ?? 0)
      throw e
    }
    if (result.kind !== "dml") return result
    rowCount += result.rowCount
    rowCounts.push(...result.rowCounts)
    batchErrors.push(...result.batchErrors.map((b) => ({ offset: first + b.offset, error: b.error })))
  }
  return { kind: "dml", rowCount, rowCounts, batchErrors }
}
