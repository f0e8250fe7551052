/**
 * Format models and NLS parameters that are expressions (`TO_CHAR(d, fmt_col)`, `TO_DATE(t, LOWER(f))`), evaluated
 * per row as Oracle does (SQL Language Reference, "TO_CHAR (datetime)": "fmt ... can be a character expression").
 *
 * How: the translator compiles a format model it has as a literal into engine SQL (format-model-binds.ts writes binds
 * in as literals), so a call whose format model or NLS parameter is another expression becomes a CASE over the
 * format values the statement has met, each branch the call with those values as literals:
 *
 *     CASE ORA_FORMAT_KEY('site', 'keys of the branches', fmt_col) WHEN 'key of DD.MM' THEN TO_CHAR(d, 'DD.MM') ... END
 *
 * `ora_format_key` answers the key of a value the CASE has a branch for (NULL for NULL: the call is NULL, "Nulls in
 * SQL Functions"); other values are noted and fail the run, which {@link settleFormatSites} runs again with them. The values are kept
 * per statement text, so a statement run again with the values it met runs once; a statement with literal format
 * models is not touched. A statement whose runs have side effects (DML, a query taking NEXTVAL) first learns its
 * values from a query that has none ({@link formatProbe}, {@link probeFormatValues}), so that it runs once.
 *
 * Why not a function formatting by a model given at run time: the translator compiles a model into engine SQL that
 * depends on the model and on what it knows of the value (an exact NUMBER, a zoned or text datetime, a column's
 * declared fraction digits, a model's validity checked when the statement is parsed); the CASE reuses that
 * compilation as it is, where such a function would have to repeat every path in JavaScript.
 */
import { createHash } from "node:crypto"
import { BIGINT, DuckDBScalarFunction, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api"
import { OraError } from "./errors.ts"
import { formatArguments } from "./format-model-binds.ts"
import { findTopLevel, isKw, isOp, matchParen, significant, splitTopLevel, sqlString, tokenize, type Tok } from "./lexer.ts"
import { headingOf } from "./expression-names.ts"

/** The name of the scalar function a rewritten call keys its branches with. */
export const FORMAT_KEY_FUNCTION = "ORA_FORMAT_KEY"

/** Per call site (`<statement hash>#<call>`), the format values met, by key. */
const known = new Map<string, Map<string, ReadonlyArray<string>>>()
/** Per call site, values a run met that were not known yet. */
const pending = new Map<string, Map<string, ReadonlyArray<string>>>()
/** Sites kept before the oldest are forgotten (a statement then meets its values again). */
const SITE_LIMIT = 10_000

const statementId = (statement: string): string => createHash("sha1").update(statement).digest("base64url").slice(0, 16)

/**
 * A call site's name within its statement: a hash of the call as written (its inner rewritten calls as they were
 * written, a sequence's NEXTVAL and a probe's stand-in for it alike), so that a probe whose calls come in another
 * order than the statement's (a MERGE's ON condition) hands each call's values to the same call of the statement,
 * and a call written twice in a statement meets its values once.
 */
const siteName = (callText: string): string => createHash("sha1").update(callText.replace(SEQUENCE_VALUE, "NEXTVAL")).digest("base64url").slice(0, 12)

/**
 * A row's sequence value as a call's text may name it: `[schema .] seq . NEXTVAL` (or CURRVAL), a probe's stand-in
 * `ORA_PROBE_NEXTVAL ( )`, or the column sequence-rows.ts reads it from (`x . "__SEQ_ROW_1"`).
 */
const SEQUENCE_VALUE = /\bORA_PROBE_NEXTVAL \( \)|(?:(?:"[^"]*"|[A-Za-z_][\w$#]*) \. )?(?:(?:"[^"]*"|[A-Za-z_][\w$#]*) \. (?:NEXTVAL|CURRVAL)\b|"__SEQ_ROW_\d+")/gi

/** The first token of a CASE a call was rewritten to, with the CASE's token count and the call's text as written. */
const rewrittenCalls = new WeakMap<Tok, { readonly length: number; readonly text: string }>()

/** The call `toks[from..close]` as written: its significant tokens' texts, a rewritten inner call as it was written. */
const callText = (toks: ReadonlyArray<Tok>, from: number, close: number): string => {
  const out: Array<string> = []
  for (let k = from; k <= close; k++) {
    const inner = rewrittenCalls.get(toks[k]!)
    if (inner !== undefined) {
      out.push(inner.text)
      k += inner.length - 1
    } else if (toks[k]!.kind !== "ws") out.push(toks[k]!.text)
  }
  return out.join(" ")
}

/** The message of a run that met format values not known yet (the run is repeated, the client never sees it). */
const PENDING = "ORA-03001: unimplemented feature: format model values not met yet"

/** A format value's key: plain letters and digits, which no rewrite of the statement's text mistakes for SQL. */
const keyOf = (tuple: ReadonlyArray<string>): string => Buffer.from(JSON.stringify(tuple)).toString("base64url")

/** The keys a CASE has branches for, as its `ora_format_key` call lists them ('*' for none), parsed once each. */
const branchKeys = new Map<string, ReadonlySet<string>>()
const keysOf = (list: string): ReadonlySet<string> => {
  let keys = branchKeys.get(list)
  if (keys === undefined) {
    if (branchKeys.size >= SITE_LIMIT) branchKeys.clear()
    branchKeys.set(list, (keys = new Set(list === "*" ? [] : list.split(","))))
  }
  return keys
}

const keyFunction = (arity: number): DuckDBScalarFunction =>
  DuckDBScalarFunction.create({
    name: FORMAT_KEY_FUNCTION.toLowerCase(),
    parameterTypes: Array.from({ length: arity + 2 }, () => VARCHAR),
    returnType: VARCHAR,
    volatile: true,
    mainFunction: (info, input, output) => {
      const vectors = Array.from({ length: input.columnCount }, (_, c) => input.getColumnVector(c))
      let missing = false
      for (let row = 0; row < input.rowCount; row++) {
        const [site, list, ...values] = vectors.map((v) => v.getItem(row) as DuckDBValue)
        // '' is NULL to Oracle (SQL Language Reference, "Nulls")
        if (values.some((v) => v === null || v === "")) {
          output.setItem(row, null)
          continue
        }
        const tuple = values.map(String)
        const key = keyOf(tuple)
        // the values the CASE has a branch for (another session may have met more since it was written)
        if (keysOf(String(list)).has(key)) output.setItem(row, key)
        else {
          missing = true
          let met = pending.get(String(site))
          if (met === undefined) pending.set(String(site), (met = new Map()))
          met.set(key, tuple)
          output.setItem(row, null)
        }
      }
      if (missing) info.setError(PENDING)
      else output.flush()
    }
  })

/** The function a probe (see {@link formatProbe}) calls where the statement takes a sequence's NEXTVAL. */
const PROBE_NEXTVAL = "ORA_PROBE_NEXTVAL"

/** Stand-in values of a probe's NEXTVAL: distinct (keys stay unique), below any a sequence gives by default. */
let probeValue = 0n

/** A sequence's state a probe reads its next values from: the next value, the increment, how many values it took. */
interface SequencePeek {
  readonly next: bigint
  readonly step: bigint
  taken: bigint
}

/**
 * The sequences a probe whose format expression depends on NEXTVAL takes its values from, by engine name
 * (`SCHEMA.NAME`, encoded), and the schema of an unqualified one; empty between probes. One probe's at a time: another
 * session's probe meanwhile reads stand-ins, and its statement may then run again for the values it did not learn.
 */
let peeks: { readonly schema: string; readonly states: ReadonlyMap<string, SequencePeek> } = { schema: "", states: new Map() }

/** The engine's sequences as a probe peeks at them: their next value and increment, by `SCHEMA.NAME` (encoded). */
export type SequenceStates = ReadonlyMap<string, { readonly next: bigint; readonly step: bigint }>

/** The function a probe's engine SQL calls for `nextval('name')` when its format expression depends on NEXTVAL. */
const PROBE_PEEK = "ora_probe_peek"

/** A probe's engine SQL (see {@link formatProbe}, `peeks`) reading the sequences' next values without taking them. */
export const peekingSql = (duckSql: string): string => duckSql.replace(/\bnextval\s*\(/gi, `${PROBE_PEEK}(`)

/** Registers `ora_format_key(site, keys, value [, value])`, `ora_probe_nextval()` and `ora_probe_peek(name)` in the database `connection` belongs to. */
export const registerFormatSiteFunctions = (connection: DuckDBConnection): void => {
  for (const arity of [1, 2]) connection.registerScalarFunction(keyFunction(arity))
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: PROBE_PEEK,
      parameterTypes: [VARCHAR],
      returnType: BIGINT,
      volatile: true,
      mainFunction: (_info, input, output) => {
        const names = input.getColumnVector(0)
        for (let row = 0; row < input.rowCount; row++) {
          const name = String(names.getItem(row))
          const peek = peeks.states.get(name.includes(".") ? name : `${peeks.schema}.${name}`)
          output.setItem(row, peek === undefined ? (probeValue = probeValue <= -(2n ** 62n) ? -1n : probeValue - 1n) : peek.next + peek.step * peek.taken++)
        }
        output.flush()
      }
    })
  )
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: PROBE_NEXTVAL.toLowerCase(),
      parameterTypes: [],
      returnType: BIGINT,
      volatile: true,
      mainFunction: (_info, input, output) => {
        for (let row = 0; row < input.rowCount; row++) output.setItem(row, (probeValue = probeValue <= -(2n ** 62n) ? -1n : probeValue - 1n))
        output.flush()
      }
    })
  )
}

/** Whether the format argument `arg` (significant token indices) is an expression this module evaluates per row. */
const isExpression = (toks: ReadonlyArray<Tok>, arg: ReadonlyArray<number>): boolean => {
  if (arg.length === 1 && (toks[arg[0]!]!.kind === "str" || toks[arg[0]!]!.kind === "bind" || isKw(toks[arg[0]!], "NULL"))) return false
  return true
}

/** A statement rewritten by {@link dynamicFormatModels}. */
export interface DynamicFormatModels {
  readonly toks: ReadonlyArray<Tok>
  /** Per bind of `toks` in order, the position of the bind of the original statement it repeats. */
  readonly bindOrigins: ReadonlyArray<number>
}

/**
 * `toks` (a client's statement `statement`) with each conversion call whose format model or NLS parameter is an
 * expression rewritten as a CASE over the values met (see the module comment); undefined when there is none. Calls
 * inside such a call's argument are rewritten first, the enclosing call then repeats their CASE in each branch.
 * `describeOnly` (a describe without running): the CASE of no value, NULL typed as the call.
 */
export const dynamicFormatModels = (toks: ReadonlyArray<Tok>, statement: string, describeOnly = false): DynamicFormatModels | undefined => {
  if (!hasFormatExpressions(toks)) return undefined
  const id = statementId(statement)
  const positionOf = new Map(toks.filter((t) => t.kind === "bind").sort((a, b) => a.pos - b.pos).map((t, position) => [t, position]))
  // a token repeated in a CASE has no heading of its own (the CASE's first token has the call's); one copy per
  // token, so that a bind repeated stays one bind
  const copies = new Map<Tok, Tok>()
  const made = new Set<Tok>()
  const quiet = (t: Tok): Tok => {
    if (made.has(t)) return t
    let q = copies.get(t)
    if (q === undefined) {
      q = { ...t, heading: "" }
      copies.set(t, q)
      made.add(q)
      if (positionOf.has(t)) positionOf.set(q, positionOf.get(t)!)
    }
    return q
  }
  let current = toks
  let sites = 0
  for (;;) {
    const pass = rewritePass(current, () => id, quiet, describeOnly)
    if (pass === undefined) break
    current = pass.toks
    sites += pass.sites
  }
  if (sites === 0) return undefined
  return { toks: current, bindOrigins: current.flatMap((t) => (t.kind === "bind" ? [positionOf.get(t)!] : [])) }
}

/**
 * One pass of {@link dynamicFormatModels}: the calls with an expression as format argument and no such call inside
 * (`probe`: only whether there is one).
 */
const rewritePass = (toks: ReadonlyArray<Tok>, id: () => string, quiet: (t: Tok) => Tok, describeOnly: boolean, probe = false): { toks: Array<Tok>; sites: number } | undefined => {
  const calls = new Map<number, { close: number; args: Array<ReadonlyArray<number>> }>()
  for (const a of formatArguments(toks)) {
    const call = calls.get(a.call[0]) ?? { close: a.call[1], args: [] }
    call.args.push(a.tokens)
    calls.set(a.call[0], call)
  }
  const dynamic = [...calls].filter(([, c]) => c.args.every((arg) => arg.length > 0) && c.args.some((arg) => isExpression(toks, arg)))
  const innermost = dynamic.filter(([from, c]) => !dynamic.some(([f, d]) => f > from && d.close < c.close))
  if (innermost.length === 0) return undefined
  if (probe) return { toks: [], sites: innermost.length }
  const replaced = new Map<number, Array<Tok>>()
  const removed = new Set<number>()
  innermost.forEach(([from, c]) => {
    const written = callText(toks, from, c.close)
    const site = `${id()}#${siteName(written)}`
    const pos = toks[from]!.pos
    const gen = (text: string): Array<Tok> => tokenize(text).map((t) => ({ ...t, pos, heading: "" }))
    const copy = (a: number, b: number): Array<Tok> => toks.slice(a, b).map(quiet)
    const dynamicArgs = c.args.filter((arg) => isExpression(toks, arg))
    const last = (arg: ReadonlyArray<number>) => arg[arg.length - 1]!
    const firstArg = c.args[0]!
    let comma = firstArg[0]! - 1
    while (!isOp(toks[comma], ",")) comma--
    // the call with one literal per dynamic argument
    const branch = (values: ReadonlyArray<string>): Array<Tok> => {
      const out: Array<Tok> = copy(from, firstArg[0]!)
      let v = 0
      c.args.forEach((arg, k) => {
        if (k > 0) out.push(...copy(last(c.args[k - 1]!) + 1, arg[0]!))
        out.push(...(dynamicArgs.includes(arg) ? [{ kind: "str" as const, text: sqlString(values[v]!), value: values[v++]!, pos, heading: "" }] : copy(arg[0]!, last(arg) + 1)))
      })
      out.push(...copy(last(c.args[c.args.length - 1]!) + 1, c.close + 1))
      return out
    }
    const met = describeOnly ? [] : [...(known.get(site) ?? new Map<string, ReadonlyArray<string>>())]
    const keys = met.length === 0 ? "*" : met.map(([key]) => key).join(",")
    const out: Array<Tok> = gen(describeOnly ? "CASE NULL" : `CASE ${FORMAT_KEY_FUNCTION}(${sqlString(site)}, ${sqlString(keys)}`)
    if (!describeOnly) {
      for (const arg of dynamicArgs) out.push(...gen(", "), ...copy(arg[0]!, last(arg) + 1))
      out.push(...gen(")"))
    }
    // with no value met yet, a branch never taken ('*' is no key) keeps the call's result type: the call without
    // its format arguments
    if (met.length === 0) out.push(...gen(" WHEN '*' THEN "), ...copy(from, comma), ...gen(")"))
    for (const [key, values] of met) out.push(...gen(` WHEN ${sqlString(key)} THEN `), ...branch(values))
    out.push(...gen(" END"))
    out[0] = { ...out[0]!, heading: headingOf(toks.slice(from, c.close + 1).filter((t) => t.kind !== "ws")) }
    rewrittenCalls.set(out[0], { length: out.length, text: written })
    replaced.set(from, out)
    for (let k = from + 1; k <= c.close; k++) removed.add(k)
  })
  return { toks: toks.flatMap((t, k) => (removed.has(k) ? [] : (replaced.get(k) ?? [t]))), sites: innermost.length }
}

/** Whether `toks` call a conversion function whose format model or NLS parameter is an expression (no rewrite made). */
export const hasFormatExpressions = (toks: ReadonlyArray<Tok>): boolean => rewritePass(toks, () => "", (t) => t, false, true) !== undefined

/**
 * ORA-03001 for a statement with a format model that is an expression, where this module does not evaluate it per
 * row (a PL/SQL block's SQL, a view's or CREATE TABLE ... AS SELECT's query): the translator would ignore the model.
 */
export const refuseFormatExpressions = (toks: ReadonlyArray<Tok>, where: string): void => {
  if (hasFormatExpressions(toks)) throw new OraError(3001, `unimplemented feature: a format model expression in ${where}`)
}

/** Counts the values learned (by any statement): a run that failed while another learned some is run again. */
let generation = 0

/** Statements that may call a conversion function with a format model. */
export const MAY_HAVE_FORMAT = /\bTO_[A-Z_]+\s*\(/i

/** Moves the values runs met at the sites of `statement` to the known ones; true when there were any. */
const learn = (statement: string): boolean => learnSites(`${statementId(statement)}#`)

/** Moves the values runs met at the sites whose ids start with `prefix` to the known ones; true when there were any new. */
const learnSites = (prefix: string): boolean => {
  let learned = false
  if (pending.size === 0) return false
  for (const [site, met] of pending) {
    if (!site.startsWith(prefix)) continue
    pending.delete(site)
    if (known.size >= SITE_LIMIT && !known.has(site)) known.delete(known.keys().next().value!)
    const into = known.get(site) ?? new Map<string, ReadonlyArray<string>>()
    for (const [key, tuple] of met) if (!into.has(key)) (into.set(key, tuple), (learned = true))
    known.set(site, into)
  }
  if (learned) generation++
  return learned
}

/** Forgets the values met at the sites of `statement`. */
const forget = (statement: string): void => {
  const prefix = `${statementId(statement)}#`
  for (const site of [...known.keys()]) if (site.startsWith(prefix)) known.delete(site)
}

/** Whether a run of `statement` met format values not known yet. */
export const formatValuesPending = (statement: string): boolean => {
  if (pending.size === 0) return false
  const prefix = `${statementId(statement)}#`
  return [...pending.keys()].some((site) => site.startsWith(prefix))
}

/** A side-effect-free query standing for a statement ({@link formatProbe}); `binds`: per bind it has, the statement's bind. */
export interface FormatProbe {
  readonly sql: string
  readonly binds: ReadonlyArray<number>
  /**
   * A format argument names NEXTVAL or CURRVAL: the probe keeps its NEXTVAL, which its engine SQL reads from the
   * sequence's next values without taking them ({@link peekingSql}), one per row as the statement takes them.
   */
  readonly peeks: boolean
}

/**
 * A query that meets the format values the statement `sql` (a client's) meets, in the same order, without its side
 * effects: a query as itself, `INSERT ... SELECT` as its query, `INSERT ... VALUES (list)` as `SELECT list FROM
 * dual`, `UPDATE t SET c = e, ... [WHERE w]` as `SELECT e, ... FROM t [WHERE w]`, `DELETE FROM t [WHERE w]` as
 * `SELECT 1 FROM t [WHERE w]`, `UPDATE t SET (a, b) = (subquery), c = e [WHERE w]` as `SELECT * FROM t OUTER APPLY
 * (subquery) OUTER APPLY (SELECT e FROM dual) [WHERE w]` (every column selected, so that each is computed), a MERGE
 * as {@link mergeProbe} reads it, each `seq.NEXTVAL` replaced by a stand-in that takes no sequence value; with the
 * statement's binds it keeps (by their place among the statement's binds). Undefined for another statement.
 */
export const formatProbe = (sql: string): FormatProbe | undefined => {
  const toks = significant(tokenize(sql))
  const bindAt = new Map(toks.filter((t) => t.kind === "bind").map((t, i) => [t, i]))
  const binds: Array<number> = []
  const text = (a: number, b: number) => {
    for (const t of toks.slice(a, b)) if (bindAt.has(t)) binds.push(bindAt.get(t)!)
    return toks.slice(a, b).map((t) => t.text).join(" ")
  }
  const end = (from: number) => {
    const at = findTopLevel(toks, from, toks.length, (t) => isKw(t, "RETURNING", "RETURN", "LOG"))
    return at < 0 ? toks.length : at
  }
  let probe: string | undefined
  if (isKw(toks[0], "SELECT", "WITH")) probe = text(0, toks.length)
  else if (isKw(toks[0], "INSERT") && isKw(toks[1], "INTO")) {
    const at = findTopLevel(toks, 2, toks.length, (t) => isKw(t, "SELECT", "WITH", "VALUES"))
    if (at < 0) return undefined
    if (!isKw(toks[at], "VALUES")) probe = text(at, toks.length)
    else if (isOp(toks[at + 1], "(")) probe = `SELECT ${text(at + 2, matchParen(toks, at + 1))} FROM dual`
  } else if (isKw(toks[0], "UPDATE")) {
    const set = findTopLevel(toks, 1, toks.length, (t) => isKw(t, "SET"))
    if (set < 0) return undefined
    const last = end(set + 1)
    const where = findTopLevel(toks, set + 1, last, (t) => isKw(t, "WHERE"))
    const table = text(1, set)
    const items = splitTopLevel(toks.slice(set + 1, where < 0 ? last : where))
    // `SET (a, b) = (subquery)`: each item a row of an OUTER APPLY, so that the subquery's values are met in order
    const rows = items.some((a) => isOp(a[0], "("))
    const exprs: Array<string> = []
    let k = set + 1
    for (const a of items) {
      const eq = a.findIndex((t) => isOp(t, "="))
      if (eq < 1) return undefined
      const expr = text(k + eq + 1, k + a.length)
      exprs.push(!rows ? expr : isOp(a[0], "(") ? `OUTER APPLY ${expr} "__P${exprs.length + 1}"` : `OUTER APPLY (SELECT ${expr} FROM dual) "__P${exprs.length + 1}"`)
      k += a.length + 1
    }
    const filter = where < 0 ? "" : ` ${text(where, last)}`
    probe = rows ? `SELECT * FROM ${table} ${exprs.join(" ")}${filter}` : `SELECT ${exprs.join(", ")} FROM ${table}${filter}`
  } else if (isKw(toks[0], "MERGE")) probe = mergeProbe(toks, text)
  else if (isKw(toks[0], "DELETE")) probe = `SELECT 1 FROM ${text(isKw(toks[1], "FROM") ? 2 : 1, end(1))}`
  if (probe === undefined) return undefined
  // a format value computed from the sequence: the probe meets the values the statement's rows will take
  const peeks = formatArguments(toks).some((a) => a.tokens.some((k) => isKw(toks[k], "NEXTVAL", "CURRVAL")))
  if (peeks) return { sql: probe, binds, peeks }
  return { sql: probe.replace(/(?:(?:"[^"]*"|[A-Za-z_][\w$#]*)\s*\.\s*)?(?:"[^"]*"|[A-Za-z_][\w$#]*)\s*\.\s*NEXTVAL\b/gi, `${PROBE_NEXTVAL}()`), binds, peeks }
}

/**
 * The probe of `MERGE INTO t [a] USING s [b] ON (c) WHEN MATCHED THEN UPDATE SET x = e, ... [WHERE w] [DELETE WHERE
 * w2] WHEN NOT MATCHED THEN INSERT [(cols)] VALUES (v, ...) [WHERE w3]`: `SELECT e, ..., CASE WHEN (w) THEN 1 END,
 * ..., v, ... FROM s b LEFT JOIN t a ON (c)` (every expression over every row: the server's MERGE meets both
 * branches' values on every source row), the source first in a WITH clause when it is a subquery, so that the binds
 * come in the statement's order (`text` collects them in the order it is called); undefined for another shape. The ON
 * condition's calls come last here, first in the statement: a call's values are handed over by its text (`siteName`).
 */
const mergeProbe = (toks: ReadonlyArray<Tok>, text: (a: number, b: number) => string): string | undefined => {
  if (!isKw(toks[1], "INTO")) return undefined
  const using = findTopLevel(toks, 2, toks.length, (t) => isKw(t, "USING"))
  const on = using < 0 ? -1 : findTopLevel(toks, using + 1, toks.length, (t) => isKw(t, "ON"))
  if (on < 0 || !isOp(toks[on + 1], "(")) return undefined
  const condEnd = matchParen(toks, on + 1)
  const target = toks.slice(2, using)
  if (target.length === 0) return undefined
  // every expression over every row: the server's MERGE meets the values of both branches on every source row
  const condition = (t: string) => `CASE WHEN ${t} THEN 1 END`
  // the source: a subquery with a format expression named first
  const subquery = isOp(toks[using + 1], "(") ? matchParen(toks, using + 1) : -1
  const named = subquery > 0 && hasFormatExpressions(toks.slice(using + 1, subquery + 1))
  const withClause = named ? `WITH "__SRC" AS ${text(using + 1, subquery + 1)} ` : ""
  const items: Array<string> = []
  const whens = toks.flatMap((t, k) => (k > condEnd && isKw(t, "WHEN") && (isKw(toks[k + 1], "MATCHED") || (isKw(toks[k + 1], "NOT") && isKw(toks[k + 2], "MATCHED"))) ? [k] : []))
  for (const [n, at] of whens.entries()) {
    const stop = n + 1 < whens.length ? whens[n + 1]! : findTopLevel(toks, at, toks.length, (t) => isKw(t, "LOG")) < 0 ? toks.length : findTopLevel(toks, at, toks.length, (t) => isKw(t, "LOG"))
    const then = isKw(toks[at + 1], "NOT") ? at + 3 : at + 2
    if (!isKw(toks[then], "THEN")) return undefined
    if (isKw(toks[then + 1], "UPDATE") && isKw(toks[then + 2], "SET")) {
      const where = findTopLevel(toks, then + 3, stop, (t) => isKw(t, "WHERE", "DELETE"))
      let k = then + 3
      for (const a of splitTopLevel(toks.slice(then + 3, where < 0 ? stop : where))) {
        const eq = a.findIndex((t) => isOp(t, "="))
        if (eq < 1 || isOp(a[0], "(")) return undefined
        items.push(text(k + eq + 1, k + a.length))
        k += a.length + 1
      }
      for (let w = where; w >= 0 && w < stop; ) {
        const cond = isKw(toks[w], "DELETE") ? w + 2 : w + 1
        if (!isKw(toks[cond - 1], "WHERE")) return undefined
        const next = findTopLevel(toks, cond, stop, (t) => isKw(t, "DELETE"))
        items.push(condition(`(${text(cond, next < 0 ? stop : next)})`))
        w = next
      }
    } else if (isKw(toks[then + 1], "INSERT")) {
      const values = findTopLevel(toks, then + 2, stop, (t) => isKw(t, "VALUES"))
      if (values < 0 || !isOp(toks[values + 1], "(")) return undefined
      const close = matchParen(toks, values + 1)
      let k = values + 2
      for (const a of splitTopLevel(toks.slice(values + 2, close))) {
        items.push(text(k, k + a.length))
        k += a.length + 1
      }
      if (isKw(toks[close + 1], "WHERE")) items.push(condition(`(${text(close + 2, stop)})`))
      else if (close + 1 < stop) return undefined
    } else return undefined
  }
  if (items.length === 0) return undefined
  const source = named ? `"__SRC"${subquery + 1 < on ? ` ${text(subquery + 1, on)}` : ""}` : text(using + 1, on)
  return `${withClause}SELECT ${items.join(", ")} FROM ${source} LEFT JOIN ${text(2, using)} ON ${text(on + 1, condEnd + 1)}`
}

/**
 * Learns the format values the statement `statement` meets by running its side-effect-free `probe` (see
 * {@link formatProbe}) with `read` (which reads all its rows) until a run meets no new value; the values are then
 * `statement`'s, so that it runs once (a sequence it advances advances once per row). A probe failing otherwise
 * leaves the rest to the statement's own runs.
 */
export const probeFormatValues = async (statement: string, probe: FormatProbe, read: (sql: string) => Promise<void>): Promise<void> => {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    try {
      await read(probe.sql)
    } catch {
      // a failure that met new values is run again; another one ends the probing
    }
    if (!learn(probe.sql)) break
  }
  const from = `${statementId(probe.sql)}#`
  const to = statementId(statement)
  for (const [site, values] of [...known]) {
    if (!site.startsWith(from)) continue
    const into = known.get(`${to}#${site.slice(from.length)}`) ?? new Map<string, ReadonlyArray<string>>()
    for (const [key, tuple] of values) into.set(key, tuple)
    known.set(`${to}#${site.slice(from.length)}`, into)
  }
}

/**
 * Learns the format values the statement `sql` (a client's) meets before it runs when it takes NEXTVAL and has a
 * format expression, so that it runs (and advances the sequence) once: its probe ({@link formatProbe}) run once per
 * bind row with the binds it keeps; `read` runs a query with its binds and their specs (`specs` empty when the
 * client sent none) and reads all its rows, its NEXTVAL peeking at `sequences` when a format argument depends on it
 * ({@link FormatProbe}). Nothing for another statement, or one without a probe.
 */
export const probeFormatValuesOnce = async <V, S>(
  sql: string,
  rows: ReadonlyArray<ReadonlyArray<V>>,
  specs: ReadonlyArray<S>,
  read: (sql: string, params: ReadonlyArray<V | null>, specs: ReadonlyArray<S>, peeking: boolean) => Promise<void>,
  sequences: () => Promise<{ readonly schema: string; readonly states: SequenceStates }>
): Promise<void> => {
  if (!/\bNEXTVAL\b/i.test(sql) || !hasFormatExpressions(tokenize(sql))) return
  const probe = formatProbe(sql)
  if (probe === undefined) return
  // the sequences' next values, taken by the rows of one bind row after another: each round starts from its row's
  if (probe.peeks) {
    const { schema, states } = await sequences()
    peeks = { schema, states: new Map([...states].map(([name, state]) => [name, { ...state, taken: 0n }])) }
  }
  try {
    for (const row of rows.length === 0 ? [[]] : rows) {
      const start = new Map([...peeks.states].map(([name, peek]) => [name, peek.taken]))
      await probeFormatValues(sql, probe, (q) => {
        for (const [name, peek] of peeks.states) peek.taken = start.get(name)!
        return read(q, probe.binds.map((i) => row[i] ?? null), specs.length === 0 ? [] : probe.binds.map((i) => specs[i]!), probe.peeks)
      })
    }
  } finally {
    peeks = { schema: "", states: new Map() }
  }
}

/**
 * Runs `body`, a probe whose format expression depends on NEXTVAL (its engine SQL through {@link peekingSql}), with
 * its NEXTVAL reading the next values of the sequences `sequences` gives; `restart` starts a run from the first.
 */
export const peekingAt = async <T>(sequences: () => Promise<{ readonly schema: string; readonly states: SequenceStates }>, body: (restart: () => void) => Promise<T>): Promise<T> => {
  const { schema, states } = await sequences()
  peeks = { schema, states: new Map([...states].map(([name, state]) => [name, { ...state, taken: 0n }])) }
  try {
    return await body(() => peeks.states.forEach((peek) => (peek.taken = 0n)))
  } finally {
    peeks = { schema: "", states: new Map() }
  }
}

/** Moves the values runs of any statement met to the known ones; true when there were any new. */
const learnPending = (): boolean => learnSites("")

/**
 * Runs `run` until it meets no format value it did not know, as {@link settleFormatSites} does, for a statement
 * whose text the caller does not keep (a PL/SQL block's SQL, rewritten as it renders): a failed run after which any
 * statement's runs met new values is run again.
 */
export const settleFormatValues = async <T>(run: () => Promise<T>): Promise<T> => {
  for (let round = 0; ; round++) {
    const before = generation
    try {
      return await run()
    } catch (e) {
      if (round < MAX_ROUNDS && (learnPending() || generation !== before)) continue
      throw e
    }
  }
}

/** Rounds a statement runs at most (each meets new format values) before its failure stands. */
const MAX_ROUNDS = 100

/**
 * Runs `run` (the statement `statement`, rewritten by {@link dynamicFormatModels} on each run) until a run meets no
 * format value it did not know: a failed run that met new values (or while which another session's run learned
 * some) is run again with them.
 */
export const settleFormatSites = async <T>(statement: string, run: () => Promise<T>): Promise<T> => {
  for (let round = 0; ; round++) {
    const before = generation
    try {
      return await run()
    } catch (e) {
      const learned = learn(statement)
      if (round < MAX_ROUNDS && (learned || generation !== before)) continue
      // a value met before may be what fails (a model the translator refuses): met anew by the next run
      forget(statement)
      throw e
    }
  }
}
