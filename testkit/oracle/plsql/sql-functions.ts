/**
 * Stored PL/SQL functions called from a client's SQL statement (`SELECT f(x) FROM t WHERE g(y) > 1`,
 * `owner.f(x)`), once per row with the row's values as arguments.
 *
 * How: DuckDB calls back into JavaScript per row only through a registered scalar function, and that callback is
 * synchronous (it runs while the engine executes the query), so it cannot run PL/SQL, which itself runs SQL on the
 * session. Each call `f(args)` therefore becomes `ora_plsql_call_<type>('site', args)`: a volatile scalar function
 * that answers from a table of results computed for this statement, by argument values. The statement runs to its
 * end; every argument tuple the function met without a result is noted (and answered NULL meanwhile); those are then
 * computed by the interpreter, one call each, and the statement runs again, until a run meets no new tuple (a call
 * whose arguments depend on another call's result needs one more round). The last run is the client's cursor: it
 * meets only known tuples (a tuple it does not know fails the statement rather than answering NULL). So a query with
 * function calls runs at least twice, and each distinct argument tuple is computed once per statement, where Oracle
 * may call a function once per row (the SQL Language Reference leaves the number of calls open).
 */
import { ANY, BOOLEAN, DOUBLE, DuckDBDecimalValue, DuckDBScalarFunction, DuckDBTimestampSecondsValue, DuckDBTimestampValue, DuckDBVarCharType, FLOAT, TIMESTAMP, TIMESTAMP_S, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBType, DuckDBValue } from "@duckdb/node-api"
import type { Cursor } from "../../engine/index.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import { decimalOf, numberText } from "../decimal.ts"
import { EXACT_NUMBER_ALIAS } from "../number-functions.ts"
import { OraError } from "../errors.ts"
import { isName, isOp, matchParen, splitTopLevel, type Tok } from "../lexer.ts"
import { returningClause } from "../statement.ts"
import { oracleName } from "../translate.ts"
import type { PlsqlHost } from "./host.ts"
import { PlsqlCollection } from "./collections.ts"
import { storedOfCollection } from "./schema-collections.ts"
import { datetimeParameter } from "./value-kinds.ts"
import type { NamedType } from "../pickle.ts"

/**
 * The SQL types a function's result travels in, by the scalar function that carries it. A NUMBER result is the
 * exact decimal text of a NUMBER without precision (typed ORA_NUMBER, README "NUMBER without precision"), which the
 * translator computes on with every digit (number-sql.ts EXACT_RESULT names `ora_plsql_call_number`); BINARY_DOUBLE
 * and BINARY_FLOAT are described as themselves (expression-names.ts binaryKindOf names their carriers).
 */
const RESULT_TYPES: ReadonlyArray<readonly [string, DuckDBType]> = [
  ["number", new DuckDBVarCharType(EXACT_NUMBER_ALIAS)],
  ["varchar", VARCHAR],
  // a CHAR / NCHAR result: text as VARCHAR's, named apart so that comparisons see it is CHAR (char-expressions.ts)
  ["char", VARCHAR],
  ["date", TIMESTAMP_S],
  ["timestamp", TIMESTAMP],
  ["boolean", BOOLEAN],
  ["double", DOUBLE],
  ["float", FLOAT]
]

/** Which of {@link RESULT_TYPES} carries a function declared `RETURN type`. */
export const resultKind = (returns: string | undefined): string => {
  const t = (returns ?? "").toUpperCase()
  if (/^(NUMBER|INTEGER|INT|SMALLINT|PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURALN?|POSITIVEN?|SIGNTYPE|DECIMAL|DEC|NUMERIC|FLOAT|REAL)$/.test(t)) return "number"
  if (t === "DATE") return "date"
  if (t === "TIMESTAMP") return "timestamp"
  if (t === "BOOLEAN") return "boolean"
  if (t === "BINARY_DOUBLE") return "double"
  if (t === "BINARY_FLOAT") return "float"
  if (/^(N?CHAR|CHARACTER)$/.test(t)) return "char"
  return "varchar"
}

/** One call of a function in the statement: its results by argument tuple, and the tuples met without one. */
interface CallSite {
  readonly fn: PlsqlProcedure
  readonly results: Map<string, DuckDBValue>
  readonly missing: Map<string, Array<DuckDBValue>>
  final: boolean
}

/** The call sites of the statements running now, by the id their calls carry. */
const sites = new Map<string, CallSite>()
let nextSite = 0

const tupleKey = (args: ReadonlyArray<DuckDBValue>): string => JSON.stringify(args.map((a) => (a === null ? null : [typeof a, String(a)])))

/**
 * An argument as a PL/SQL variable holds it: a DECIMAL, or the text of a NUMBER without precision (stored as exact
 * text) passed to a numeric parameter, as a JS number when it has at most 15 digits, else its text (as the
 * interpreter reads a fetched decimal); BIGINTs likewise.
 */
export const argumentValue = (v: DuckDBValue, numeric: boolean): DuckDBValue => {
  if (v instanceof DuckDBDecimalValue || (numeric && typeof v === "string" && /^-?\d*\.?\d+$/.test(v))) {
    const text = String(v)
    return text.replace(/^-|\.|^0+/g, "").length <= 15 ? Number(text) : text
  }
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  return v
}

/** `f` written for the scalar function carrying `kind`: the result of a known tuple, NULL (noted) for another. */
const callFunction = (kind: string, type: DuckDBType): DuckDBScalarFunction =>
  DuckDBScalarFunction.create({
    name: `ora_plsql_call_${kind}`,
    parameterTypes: [VARCHAR],
    varArgsType: ANY,
    returnType: type,
    volatile: true,
    specialHandling: true,
    mainFunction: (info, input, output) => {
      // a bare NULL argument is a vector of DuckDB's SQLNULL type, which the API does not read: all NULLs
      const vectors = Array.from({ length: input.columnCount }, (_, c) => {
        try {
          return input.getColumnVector(c)
        } catch {
          return { getItem: () => null }
        }
      })
      try {
        for (let row = 0; row < input.rowCount; row++) {
          const site = sites.get(String(vectors[0]!.getItem(row)))
          if (site === undefined) throw new Error("ORA-06575: Package or function is in an invalid state")
          const args = vectors.slice(1).map((v) => v.getItem(row))
          const key = tupleKey(args)
          if (site.results.has(key)) output.setItem(row, site.results.get(key)!)
          else if (site.final) throw new Error(`ORA-06575: Package or function ${site.fn.name} is in an invalid state`)
          else {
            site.missing.set(key, args)
            output.setItem(row, null)
          }
        }
        output.flush()
      } catch (e) {
        info.setError(e instanceof Error ? e.message : String(e))
      }
    }
  })

/** Registers the call functions in the database `connection` belongs to. */
export const registerSqlCallFunctions = (connection: DuckDBConnection): void => {
  for (const [kind, type] of RESULT_TYPES) connection.registerScalarFunction(callFunction(kind, type))
}

/** A function's result as its carrier type holds it. */
const carried = (kind: string, v: unknown): DuckDBValue => {
  if (v === null || v === undefined) return null
  switch (kind) {
    case "number":
      // the interpreter's NUMBER: a double, or decimal text where a double would lose digits (value-kinds.ts)
      return numberText(decimalOf(String(v)))
    case "double":
    case "float":
      return Number(v)
    case "boolean":
      return v === true
    case "date": {
      const micros = microsOf(v)
      return micros === undefined ? null : new DuckDBTimestampSecondsValue((micros - (((micros % 1_000_000n) + 1_000_000n) % 1_000_000n)) / 1_000_000n)
    }
    case "timestamp": {
      const micros = microsOf(v)
      return micros === undefined ? null : new DuckDBTimestampValue(micros)
    }
    default:
      // a schema collection result as its stored text
      return v instanceof PlsqlCollection ? (storedOfCollection(v) ?? String(v)) : String(v)
  }
}

/**
 * A DATE / TIMESTAMP value as the interpreter holds it (an engine timestamp, a JavaScript Date, or wall-clock text,
 * digits below the microsecond cut) in microseconds since 1970; undefined for anything else.
 */
const microsOf = (v: unknown): bigint | undefined => {
  const value = typeof v === "string" ? datetimeParameter(v.replace(/(\.\d{6})\d+$/, "$1")) : v instanceof Date ? datetimeParameter(v) : v
  if (value instanceof DuckDBTimestampSecondsValue) return value.seconds * 1_000_000n
  if (value instanceof DuckDBTimestampValue) return value.micros
  return undefined
}

/** Runs one function call with argument values, as the interpreter does (interpreter.ts `callStoredWith`). */
export type StoredCaller = (fn: PlsqlProcedure, args: ReadonlyArray<DuckDBValue>) => Promise<unknown>

/** A statement's calls of stored functions, rewritten; {@link StatementCalls.settle} runs it. */
export interface StatementCalls {
  /** The statement's tokens with each call going through its call site. */
  readonly toks: Array<Tok>
  /**
   * Runs the statement (`run`) until it meets no argument tuple without a result, computing those with `call`
   * between runs; the last run's cursor, which frees the call sites once read or closed.
   */
  settle(run: () => Promise<Cursor>, call: StoredCaller): Promise<Cursor>
  /**
   * For a write (INSERT / UPDATE / DELETE / MERGE), which must not run twice: `probe` runs it and undoes it, until a
   * probe meets no argument tuple without a result (the tuples computed with `call` between probes); then `write`
   * runs it once with every call answered. A failed write frees the call sites; a write that succeeded hands their
   * release to `hold`, as its logged text, replayed when the transaction recovers from a later failure, still calls
   * them (the session releases them when the transaction ends).
   */
  settleWrite<T>(probe: () => Promise<void>, write: () => Promise<T>, call: StoredCaller, hold: (release: () => void) => void): Promise<T>
}

/**
 * The calls of stored functions in a client's statement (`f(args)`, `owner.f(args)`, `f` with no arguments when no
 * column has its name), rewritten; undefined when it has none. `lookup(owner, name)` finds a stored function.
 */
export const storedFunctionCalls = (
  toks: ReadonlyArray<Tok>,
  schema: string,
  lookup: (owner: string, name: string) => PlsqlProcedure | undefined,
  isColumn: (name: string) => boolean,
  namedResult?: (fn: PlsqlProcedure) => NamedType | undefined
): StatementCalls | undefined => {
  const made: Array<string> = []
  const free = () => made.forEach((id) => sites.delete(id))
  let out: Array<Tok> | undefined
  try {
    out = rewriteCalls(toks, schema, lookup, isColumn, made, namedResult)
  } catch (e) {
    free()
    throw e
  }
  if (out === undefined) return undefined
  const mine = made.map((id) => sites.get(id)!)
  /** Computes the argument tuples the last run met without a result; false when there were none. */
  const computePending = async (call: StoredCaller): Promise<boolean> => {
    const pending = mine.filter((s) => s.missing.size > 0)
    for (const site of pending) {
      for (const [key, args] of site.missing) site.results.set(key, carried(resultKind(site.fn.returns), await call(site.fn, args)))
      site.missing.clear()
    }
    return pending.length > 0
  }
  return {
    toks: out,
    settle: async (run, call) => {
      try {
        for (;;) {
          const cursor = await run()
          try {
            while ((await cursor.next()) !== null) {}
          } finally {
            cursor.close()
          }
          if (!(await computePending(call))) break
        }
        for (const s of mine) s.final = true
        return freeing(await run(), free)
      } catch (e) {
        free()
        throw e
      }
    },
    settleWrite: async (probe, write, call, hold) => {
      try {
        for (;;) {
          await probe()
          if (!(await computePending(call))) break
        }
        for (const s of mine) s.final = true
        const out = await write()
        hold(free)
        return out
      } catch (e) {
        free()
        throw e
      }
    }
  }
}

/**
 * `toks` with each call of a stored function going through a new call site (its id added to `made`), also inside
 * the named arguments and defaults it puts in order; undefined when there is no call.
 */
const rewriteCalls = (
  toks: ReadonlyArray<Tok>,
  schema: string,
  lookup: (owner: string, name: string) => PlsqlProcedure | undefined,
  isColumn: (name: string) => boolean,
  made: Array<string>,
  namedResult?: (fn: PlsqlProcedure) => NamedType | undefined
): Array<Tok> | undefined => {
  // positions of the significant tokens (the statement keeps its blanks, which the translator reads)
  const sig = toks.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  const at = (j: number): Tok | undefined => (j >= 0 && j < sig.length ? toks[sig[j]!] : undefined)
  let out: Array<Tok> | undefined
  let copied = 0
  for (let j = 0; j < sig.length; j++) {
    const t = at(j)!
    if (!isName(t) || isOp(at(j - 1), ".")) continue
    const qualified = isOp(at(j + 1), ".") && isName(at(j + 2))
    const nameAt = qualified ? j + 2 : j
    const fn = qualified ? lookup(oracleName(t), oracleName(at(j + 2)!)) : lookup(schema, oracleName(t))
    const open = isOp(at(nameAt + 1), "(")
    // without parentheses a qualified name is a function (`pkg.f`, `owner.f`) unless its qualifier names a table or
    // alias of the statement (a name standing on its own, not before a dot): a column reference wins
    const qualifierNamesTable = () => sig.some((_, k) => k !== j && isName(at(k)) && oracleName(at(k)!) === oracleName(t) && !isOp(at(k + 1), "."))
    if (fn?.isFunction !== true || isOp(at(nameAt + 1), ".") || (!open && (qualified ? qualifierNamesTable() : isColumn(fn.name) || isOp(at(j + 1), "=>")))) continue
    out ??= []
    out.push(...toks.slice(copied, sig[j]))
    const id = `${++nextSite}`
    made.push(id)
    sites.set(id, { fn, results: new Map(), missing: new Map(), final: false })
    // a call a rewrite made inside a select item it heads itself (plsql/method-dispatch.ts) keeps the heading it was given
    const heading = toks[sig[j]!]!.heading ?? sig.slice(j, nameAt + 1).map((i) => toks[i]!).map((x) => (x.kind === "qident" ? x.value : x.text.toUpperCase())).join("")
    const kind = resultKind(fn.returns)
    const pos = t.pos
    const site: Tok = { kind: "str", text: `'${id}'`, value: id, pos, heading: "" }
    // an object or collection result is described as its type, as a constructor call is (named-types.ts constructedType)
    const named = namedResult?.(fn)
    out.push({ kind: "ident", text: `ora_plsql_call_${kind}`, value: `ORA_PLSQL_CALL_${kind.toUpperCase()}`, pos, heading, ...(named !== undefined ? { constructs: named } : {}) } as Tok)
    if (open) {
      const close = matchParen(toks, sig[nameAt + 1]!)
      const positional = inPositionalOrder(fn, toks.slice(sig[nameAt + 1]! + 1, close), pos)
      if (positional !== undefined) {
        // named notation (`f(p => x)`): the arguments in the parameters' order, defaults for the ones left out
        out.push(toks[sig[nameAt + 1]!]!, site)
        for (const a of positional) out.push({ kind: "op", text: ",", value: ",", pos, heading: "" }, { kind: "ws", text: " ", value: " ", pos }, ...(rewriteCalls(a, schema, lookup, isColumn, made, namedResult) ?? a))
        copied = close
        j = sig.indexOf(close) - 1
        continue
      }
      const empty = toks.slice(sig[nameAt + 1]! + 1, close).every((x) => x.kind === "ws")
      out.push(toks[sig[nameAt + 1]!]!, site)
      if (!empty) out.push({ kind: "op", text: ",", value: ",", pos, heading: "" })
      copied = sig[nameAt + 1]! + 1
      j = nameAt + 1
      continue
    }
    out.push({ kind: "op", text: "(", value: "(", pos, heading: "" }, site, { kind: "op", text: ")", value: ")", pos, heading: "" })
    copied = sig[nameAt]! + 1
    j = nameAt
  }
  if (out !== undefined) out.push(...toks.slice(copied))
  return out
}

/**
 * A call's arguments in the order of the function's parameters when some are given by name (`p => x`), a left-out
 * parameter taking its default; undefined when none is named. A parameter neither given nor defaulted, or a name the
 * function does not have, is ORA-06553 PLS-00306 as Oracle reports a wrong call from SQL.
 */
const inPositionalOrder = (fn: PlsqlProcedure, args: ReadonlyArray<Tok>, pos: number): Array<Array<Tok>> | undefined => {
  const parts = splitTopLevel(args).map((a) => a.filter((t) => t.kind !== "ws"))
  const named = (a: ReadonlyArray<Tok>) => a.length >= 3 && (a[0]!.kind === "ident" || a[0]!.kind === "qident") && isOp(a[1], "=>")
  if (!parts.some(named)) return undefined
  const wrong = () => new OraError(6553, `PLS-306: wrong number or types of arguments in call to '${fn.name}'`)
  const given: Array<ReadonlyArray<Tok> | undefined> = fn.params.map(() => undefined)
  parts.forEach((a, i) => {
    const at = named(a) ? fn.params.findIndex((p) => p.name === oracleName(a[0]!)) : i
    if (at < 0 || at >= fn.params.length || given[at] !== undefined) throw wrong()
    given[at] = named(a) ? a.slice(2) : a
  })
  const out: Array<Array<Tok>> = []
  for (const [i, p] of fn.params.entries()) {
    const a = given[i] ?? p.default
    if (a === undefined) {
      if (given.slice(i).some((g) => g !== undefined)) throw wrong()
      break
    }
    out.push(a.map((t) => ({ ...t, pos })))
  }
  return out
}

/** `cursor`, calling `free` once it is read to its end or closed. */
const freeing = (cursor: Cursor, free: () => void): Cursor => ({
  columns: cursor.columns,
  next: async () => {
    const chunk = await cursor.next()
    if (chunk === null) free()
    return chunk
  },
  close: () => {
    cursor.close()
    free()
  }
})

/**
 * The engine text a probe of a write runs (StatementCalls.settleWrite): the translated statement without its
 * RETURNING clause, whose INTO targets are the client's.
 */
export const writeProbe = (toks: ReadonlyArray<Tok>, text: (from: number, to: number) => string): string => text(0, returningClause(toks)?.at ?? toks.length)

/** The error a DuckDB run reports for a call site's failure, as the client sees it. */
export const callSiteError = (message: string): OraError | undefined => {
  const m = /ORA-(\d{5}): (.*)/.exec(message)
  return m === null ? undefined : new OraError(Number(m[1]), m[2]!)
}
