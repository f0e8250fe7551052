/**
 * Bound format models: `TO_CHAR(x, :fmt)`, `TO_DATE(:d, :fmt)`, `TO_NUMBER(:t, :fmt, :nls)` and the like take their
 * format model (and NLS parameter) from a bind as readily as from a literal (SQL Language Reference, "TO_CHAR
 * (number)": "fmt ... can be a character expression"). The translator compiles a format model into engine SQL, so a
 * bound one is written into the statement as the literal it is, and its bind leaves the bind rows.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { headingOf } from "./expression-names.ts"
import { isKw, isOp, matchParen, sqlString, tokenize, type Tok } from "./lexer.ts"
import { OraError } from "./errors.ts"
import type { BindSpec, LobSource, StatementResult } from "./statement.ts"

/** The conversion functions whose second and third arguments are a format model and an NLS parameter string. */
const FORMAT_FUNCTIONS = new Set(["TO_CHAR", "TO_NCHAR", "TO_DATE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ", "TO_NUMBER", "TO_BINARY_DOUBLE", "TO_BINARY_FLOAT"])

/** A format model or NLS parameter argument (the second or third) of a conversion function call. */
export interface FormatArgument {
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
export const formatArguments = (toks: ReadonlyArray<Tok>): Array<FormatArgument> => {
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

/** The bind tokens of `toks` (by index) in source order: binds are positional, a name used twice is two binds. */
const bindsInOrder = (toks: ReadonlyArray<Tok>): Array<number> => toks.flatMap((t, k) => (t.kind === "bind" ? [k] : [])).sort((a, b) => toks[a]!.pos - toks[b]!.pos)

/** The binds of `toks` (by token index) inside a conversion function's format model or NLS parameter argument. */
export const formatArgumentBinds = (toks: ReadonlyArray<Tok>): Array<number> => formatArguments(toks).flatMap(({ tokens }) => tokens.filter((k) => toks[k]!.kind === "bind"))

/** The bind positions of `toks` inside a format model or NLS parameter argument. */
const formatBindPositions = (toks: ReadonlyArray<Tok>): Array<number> => {
  const binds = bindsInOrder(toks)
  return formatArgumentBinds(toks).map((k) => binds.indexOf(k))
}

/** A statement with its bound format models written in as literals. */
export interface InlinedFormatBinds {
  readonly sql: string
  readonly rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  readonly specs: ReadonlyArray<BindSpec>
}

/** Conversion calls that may have a format model to write in: a bind, NULL or `''` after a `TO_...(`. */
const MAY_WRITE_IN = /\bTO_[A-Z_]+\s*\([^]*(?::|\bNULL\b|'')/i

/**
 * A DML statement's text with each bound (or NULL) format model written in as a string literal (or the call as a
 * NULL), its binds removed from every row; undefined when there is none, or when the rows bind different values there
 * (formatBindRuns splits those). RETURNING ... INTO's out binds come back by expression, so they are unaffected.
 */
export const inlineFormatBinds = (sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>): InlinedFormatBinds | undefined => {
  if (rows.length === 0 || !MAY_WRITE_IN.test(sql)) return undefined
  const toks = tokenize(sql)
  const positions = formatBindPositions(toks)
  if (!rows.every((r) => positions.every((p) => r[p] === rows[0]![p]))) return undefined
  const written = clientFormatModels(toks, (p) => rows[0]![p])
  if (written === undefined) return undefined
  const kept = <T>(xs: ReadonlyArray<T>) => xs.filter((_, p) => !written.dropped.has(p))
  return { sql: written.toks.map((t) => t.text).join(""), rows: rows.map(kept), specs: kept(specs) }
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
 * A query described without its values (parse only): each TO_CHAR / TO_NCHAR whose format model or NLS parameter is
 * a bind (the other a bind, a literal or a `||` chain of them) reads as TO_CHAR(x), its VARCHAR2 result the same; any
 * other conversion function with such a format model as a NULL of its result type (DESCRIBED_TYPES), its binds
 * dropped. The column heading is the call as written.
 */
const describedFormatBinds = (toks: ReadonlyArray<Tok>, params: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>) => {
  const binds = bindsInOrder(toks)
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
    // the first top-level comma, and after it only binds, literals, NULL, `||` and commas, a bind among them
    let depth = 0
    const comma = inside.find((k) => (isOp(toks[k], "(") ? (depth++, false) : isOp(toks[k], ")") ? (depth--, false) : depth === 0 && isOp(toks[k], ",")))
    if (comma === undefined) continue
    const rest = inside.filter((k) => k >= comma)
    if (!rest.every((k) => isOp(toks[k], ",") || isOp(toks[k], "||") || isKw(toks[k], "NULL") || toks[k]!.kind === "bind" || toks[k]!.kind === "str") || !rest.some((k) => toks[k]!.kind === "bind")) continue
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
  const written = clientFormatModels(toks, (p) => params[p])
  if (written === undefined) return { toks, params, specs }
  const kept = <T>(xs: ReadonlyArray<T>) => xs.filter((_, p) => !written.dropped.has(p))
  return { toks: [...written.toks], params: kept(params), specs: kept(specs) }
}

/** The literal NULL or `''`, which Oracle reads as NULL ("Nulls": a character value of length zero is null). */
const isNullLiteral = (t: Tok): boolean => isKw(t, "NULL") || (t.kind === "str" && t.value === "")

/**
 * `toks` with each format model or NLS parameter that is a bind, NULL, or a `||` chain of binds, NULL and string
 * literals, written in as the string literal it evaluates to, each bind's value from `valueOf` (a client's bind, or a
 * PL/SQL statement's bind or variable, known when the statement runs). A format model or NLS parameter that is NULL
 * (or `''`, which Oracle reads as NULL: SQL Language Reference, "Nulls",
 * https://docs.oracle.com/cd/B19306_01/server.102/b14200/sql_elements005.htm) makes the whole call a NULL of its
 * result type ("Nulls in SQL Functions": most scalar functions return null when given a null argument,
 * https://docs.oracle.com/database/122/SQLRF/About-SQL-Functions.htm). One whose value is not text stays.
 */
export const formatModelsAsLiterals = (toks: ReadonlyArray<Tok>, valueOf: (bind: Tok) => DuckDBValue | undefined): ReadonlyArray<Tok> => {
  const replaced = new Map<number, ReadonlyArray<Tok>>()
  const removed = new Set<number>()
  for (const { fn, call, tokens: arg } of formatArguments(toks)) {
    if (removed.has(call[0]) || replaced.has(call[0])) continue
    const parts = arg.filter((_, i) => i % 2 === 0).map((k) => toks[k]!)
    if (!arg.every((k, i) => (i % 2 === 1 ? isOp(toks[k], "||") : toks[k]!.kind === "str" || toks[k]!.kind === "bind" || isKw(toks[k], "NULL"))) || arg.length % 2 === 0) continue
    if (arg.length === 1 && parts[0]!.kind === "str" && parts[0]!.value !== "") continue
    // NULL in a concatenation is the empty string (SQL Language Reference, "Concatenation Operator")
    const values = parts.map((t) => (t.kind === "str" ? t.value : t.kind === "bind" ? valueOf(t) : null))
    if (!values.every((v) => typeof v === "string" || v === null)) continue
    const value = values.join("")
    const [from, to] = value === "" ? call : [arg[0]!, arg[arg.length - 1]!]
    const heading = headingOf(toks.slice(from, to + 1).filter((t) => t.kind !== "ws"))
    replaced.set(
      from,
      value === ""
        ? tokenize(`CAST(NULL AS ${DESCRIBED_TYPES[fn] ?? "VARCHAR2(4000)"})`).map((t, i) => ({ ...t, pos: toks[from]!.pos, heading: i === 0 ? heading : "" }))
        : [{ kind: "str", text: sqlString(value), value, pos: toks[from]!.pos, heading }]
    )
    for (let k = from + 1; k <= to; k++) removed.add(k)
  }
  if (replaced.size === 0) return toks
  return toks.flatMap((t, k) => (removed.has(k) ? [] : (replaced.get(k) ?? [t])))
}

/**
 * A client's statement with its format models and NLS parameters written in (formatModelsAsLiterals), each bind's
 * value by its position (`valueAt`); the positions of the binds that left the statement. Undefined when nothing was
 * written in.
 */
const clientFormatModels = (toks: ReadonlyArray<Tok>, valueAt: (position: number) => DuckDBValue | undefined): { toks: ReadonlyArray<Tok>; dropped: ReadonlySet<number> } | undefined => {
  const binds = bindsInOrder(toks)
  const positionOf = new Map(binds.map((k, position) => [toks[k]!, position]))
  const out = formatModelsAsLiterals(toks, (t) => {
    const position = positionOf.get(t)
    return position === undefined ? undefined : valueAt(position)
  })
  if (out === toks) return undefined
  const kept = new Set(out)
  return { toks: out, dropped: new Set(binds.flatMap((k, position) => (kept.has(toks[k]!) ? [] : [position]))) }
}

/**
 * The consecutive runs of an executeMany's rows ([first, end) offsets) that bind the same values inside format models
 * and NLS parameters, when the rows bind more than one (Oracle evaluates a format model per row); undefined when they
 * all agree.
 */
export const formatBindRuns = (sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Array<readonly [number, number]> | undefined => {
  if (rows.length < 2 || !/\bTO_[A-Z_]+\s*\([^]*:/i.test(sql)) return undefined
  const positions = formatBindPositions(tokenize(sql))
  if (positions.length === 0) return undefined
  const differ = (a: ReadonlyArray<DuckDBValue>, b: ReadonlyArray<DuckDBValue>) => positions.some((p) => a[p] !== b[p])
  const runs: Array<readonly [number, number]> = []
  let first = 0
  for (let i = 1; i <= rows.length; i++) if (i === rows.length || differ(rows[i]!, rows[first]!)) runs.push([first, i]), (first = i)
  return runs.length > 1 ? runs : undefined
}

/**
 * An executeMany run as `runs` of rows, each executed by `execute`, answered as the one statement it is: row counts
 * summed and listed, batch errors and a failing row's offset counted from the first row, RETURNING ... INTO's values
 * (one list per returned expression over all rows) and returned LOBs' rows in row order.
 */
export const executeRuns = async (runs: ReadonlyArray<readonly [number, number]>, execute: (first: number, end: number) => Promise<StatementResult>): Promise<StatementResult> => {
  let rowCount = 0
  const rowCounts: Array<number> = []
  const batchErrors: Array<{ readonly offset: number; readonly error: OraError }> = []
  let returning: Array<Array<unknown>> | undefined
  const returningPerRow: Array<number> = []
  let returningLobs: Array<{ source: LobSource; rowids: Array<bigint> } | undefined> | undefined
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
    if (result.returning !== undefined) {
      returning ??= result.returning.map(() => [])
      result.returning.forEach((values, k) => returning![k]!.push(...values))
      returningPerRow.push(...(result.returningPerRow ?? [result.returning[0]?.length ?? 0]))
    }
    if (result.returningLobs !== undefined) {
      returningLobs ??= result.returningLobs.map((l) => (l === undefined ? undefined : { source: l.source, rowids: [] }))
      result.returningLobs.forEach((l, k) => returningLobs![k]?.rowids.push(...(l?.rowids ?? [])))
    }
  }
  return { kind: "dml", rowCount, rowCounts, batchErrors, ...(returning !== undefined && { returning, returningPerRow }), ...(returningLobs !== undefined && { returningLobs }) }
}
