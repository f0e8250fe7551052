/**
 * Evaluates PL/SQL expressions: a literal, name or whole-number arithmetic directly (names.ts, fast-eval.ts), a
 * collection constructor, anything else as `SELECT expr` on the engine; calls of local and stored functions in an
 * expression are made first and their values bound.
 */
import { getPostProcessedSource } from "./dbms-preprocessor.ts"
import { settleFormatValues } from "../format-model-sites.ts"
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import { isKw, isOp, splitTopLevel, type Tok } from "../lexer.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import { synonymTarget } from "../synonym-resolution.ts"
import { oracleName } from "../translate.ts"
import type { Expr, TypeSpec } from "./ast.ts"
import { PlsqlCollection } from "./collections.ts"
import { dbmsLobCallAt, dbmsLobFunction } from "./dbms-lob-functions.ts"
import { dbmsLockFunction } from "./dbms-lock.ts"
import type { Collection, Frame, Value } from "./context.ts"
import { coerce } from "./conversion.ts"
import { PlsCompileError, sqlerrmOf, valueError } from "./errors.ts"
import { fastEvaluate } from "./fast-eval.ts"
import { inlineMultisets } from "./multisets.ts"
import { closingParen, nameValue } from "./names.ts"
import { PlsqlJson } from "./json-dom.ts"
import { jsonTypeCall } from "./json-object-types.ts"
import { objectMethodCall } from "./object-methods.ts"
import { declaredInPackage, packagedFunction } from "./package-instances.ts"
import { PlsqlRecord } from "./records.ts"
import { columnsOf, isCharExpression, render } from "./render.ts"
import { schemaCollectionType } from "./schema-collections.ts"
import { isCursorValue, RowReader } from "./row-reader.ts"
import { lookup, packageVariable } from "./scope.ts"
import { innerCases, isAvoidableRead, isShortCircuitable, shortCircuit } from "./short-circuit.ts"
import { resultKind } from "./sql-functions.ts"
import { kindOfType, type ValueKind } from "./value-kinds.ts"

/** Evaluates an expression (a single literal or name directly, anything else as `SELECT expr`). */
export async function evaluate(ctx: Frame, expr: Expr): Promise<DuckDBValue> {
  const v = await evaluateValue(ctx, expr)
  if (isCursorValue(v) || v instanceof PlsqlRecord || v instanceof PlsqlCollection || v instanceof PlsqlJson) throw new PlsCompileError(ctx.source, expr[0]?.pos ?? 0, 382, "expression is of wrong type")
  return v
}

/** Evaluates an expression to any PL/SQL value (a record, collection or cursor too). */
export async function evaluateValue(ctx: Frame, source: Expr): Promise<Value> {
  // a call in an AND / OR operand (or a CASE branch) that the operands before it decide is not made: "PL/SQL stops
  // evaluating a logical expression as soon as it can determine the result" (PL/SQL Language Reference,
  // "Short-Circuit Evaluation"), so `x IS NOT NULL AND f(x) > 0` never calls f with NULL
  if (isShortCircuitable(source) && (await hasCalls(ctx, source))) {
    const v = await shortCircuit(source, (operand) => evaluateValue(ctx, operand))
    if (v !== undefined) return v
  }
  const { toks, release } = await inlineCalls(ctx, source)
  try {
    const multisets = await inlineMultisets(ctx, toks, (constructor) => evaluateInlined(ctx, constructor))
    try {
      return await evaluateShortCircuit(ctx, multisets.toks)
    } finally {
      multisets.release()
    }
  } finally {
    release()
  }
}

/**
 * Evaluates an expression whose function calls inlineCalls has made; when it fails on a missing element that
 * short-circuit evaluation would not have read (short-circuit.ts), its top-level AND / OR operands or searched CASE
 * are evaluated one by one, or else each CASE inside it first, alone, its value bound in its place.
 */
async function evaluateShortCircuit(ctx: Frame, toks: Expr): Promise<Value> {
  try {
    return await evaluateInlined(ctx, toks)
  } catch (e) {
    if (!isAvoidableRead(e)) throw e
    const v = await shortCircuit(toks, (operand) => evaluateShortCircuit(ctx, operand))
    if (v !== undefined) return v
    const cases = innerCases(toks)
    if (cases.length === 0) throw e
    const made: Array<string> = []
    try {
      const out: Array<Tok> = []
      let from = 0
      for (const [start, end] of cases) {
        out.push(...toks.slice(from, start))
        const key = `\u0000F${++ctx.calls}`
        made.push(key)
        ctx.callResults.set(key, { value: await evaluateShortCircuit(ctx, toks.slice(start, end + 1)) })
        out.push({ kind: "bind", text: ":f", value: key, pos: toks[start]!.pos })
        from = end + 1
      }
      out.push(...toks.slice(from))
      return await evaluateShortCircuit(ctx, out)
    } finally {
      made.forEach((key) => ctx.callResults.delete(key))
    }
  }
}

/** Evaluates an expression whose function calls inlineCalls has made. */
async function evaluateInlined(ctx: Frame, expr: Expr): Promise<Value> {
  const single = expr.length === 1 ? expr[0]! : undefined
  if (single?.kind === "num" && /^\d{1,15}$/.test(single.value)) return Number(single.value)
  if (single?.kind === "str" && !/^[nN]/.test(single.text)) return single.value === "" ? null : single.value
  if (single !== undefined && isKw(single, "NULL")) return null
  if (single !== undefined && isKw(single, "TRUE", "FALSE") && lookup(ctx, single.value) === undefined) return single.value === "TRUE"
  const constructed = await construct(ctx, expr)
  if (constructed !== undefined) return constructed
  const direct = nameValue(ctx, expr, 0)
  if (direct !== undefined && direct.width === expr.length) return direct.value
  const fast = fastEvaluate(expr, (toks, at) => nameValue(ctx, toks, at))
  if (fast !== undefined) return fast
  // a format model that is an expression meets its values as it runs (format-model-sites.ts): run again for new ones
  return settleFormatValues(async () => {
    const { sql, params } = render(ctx, expr, false, false)
    const result = await ctx.host.queryDuck(`SELECT ${sql}`, params).catch((e: unknown) => {
      throw asPlsqlError(ctx, e, expr)
    })
    const reader = new RowReader(result, ctx.host)
    try {
      const row = await reader.next().catch((e: unknown) => {
        throw asPlsqlError(ctx, e, expr)
      })
      return row?.[0] ?? null
    } finally {
      reader.close()
    }
  })
}

/** `[SYS.]DBMS_LOCK.REQUEST | CONVERT | RELEASE (` at `k`: the function's name and the index of its name token. */
const builtinLockCall = (expr: Expr, k: number): { readonly name: string; readonly end: number } | undefined => {
  const at = isKw(expr[k], "SYS") && isOp(expr[k + 1], ".") && !isOp(expr[k - 1], ".") ? k + 2 : k
  if (!isKw(expr[at], "DBMS_LOCK") || (at === k && isOp(expr[k - 1], ".")) || !isOp(expr[at + 1], ".") || !isOp(expr[at + 3], "(")) return undefined
  const name = expr[at + 2]?.value
  return name === "REQUEST" || name === "CONVERT" || name === "RELEASE" ? { name, end: at + 2 } : undefined
}

/** A call inlineCalls makes: the index of its name's last token, how to run it with its arguments, its result's kind. */
interface Callee {
  readonly end: number
  readonly run: (args: ReadonlyArray<Expr>) => Promise<Value>
  /** what the translator needs to know of the result (a NUMBER held as decimal text is computed on exactly) */
  readonly kind?: ValueKind
  /** declared to return CHAR / NCHAR: compared blank-padded (char-operands.ts) */
  readonly char?: true
}

/** Whether a function declared `RETURN type` returns CHAR / NCHAR. */
const returnsChar = (returns: TypeSpec | string | undefined): boolean =>
  /^(N?CHAR|CHARACTER)$/i.test(typeof returns === "string" ? returns : returns?.kind === "named" ? returns.name : "")

/** The call of a local, packaged, stored or DBMS_LOCK function or an object method starting at `expr[k]`; undefined when none starts there. */
async function calleeAt(ctx: Frame, expr: Expr, k: number, sql: boolean, keepStored: boolean, columns: () => Set<string>): Promise<Callee | undefined> {
  const t = expr[k]!
  const json = jsonTypeCall(ctx, expr, k)
  if (json !== undefined) return json
  const lobFunction = sql ? undefined : dbmsLobCallAt(ctx, expr, k)
  if (lobFunction !== undefined) return { end: lobFunction.end, run: (args) => dbmsLobFunction(ctx, lobFunction.name, args) }
  const packaged = await packagedFunction(ctx, expr, k)
  const lockFunction = builtinLockCall(expr, k)
  const method = packaged === undefined && lockFunction === undefined ? await objectMethodCall(ctx, expr, k) : undefined
  if (method !== undefined) return method
  if (lockFunction !== undefined) return { end: lockFunction.end, run: async (args) => (await dbmsLockFunction(ctx, lockFunction.name, args)) ?? null }
  if (isKw(t, "DBMS_PREPROCESSOR") && isOp(expr[k + 1], ".") && isKw(expr[k + 2], "GET_POST_PROCESSED_SOURCE") && isOp(expr[k + 3], "(") && !isOp(expr[k - 1], ".") && lookup(ctx, "DBMS_PREPROCESSOR") === undefined) {
    return {
      end: k + 2,
      run: async (args) => {
        const values: Array<unknown> = []
        for (const a of args) values.push(await evaluate(ctx, a))
        return getPostProcessedSource(ctx.host, values)
      }
    }
  }
  // SQLERRM(n) of PL/SQL; "A SQL statement cannot invoke SQLERRM" (PL/SQL Language Reference, "SQLERRM Function")
  if (!sql && isKw(t, "SQLERRM") && isOp(expr[k + 1], "(") && !isOp(expr[k - 1], ".") && lookup(ctx, "SQLERRM") === undefined) {
    return {
      end: k,
      run: async (args) => {
        if (args.length !== 1) throw new PlsCompileError(ctx.source, t.pos, 306, "wrong number or types of arguments in call to 'SQLERRM'")
        return sqlerrmOf(Math.trunc(Number(await evaluate(ctx, args[0]!))))
      }
    }
  }
  if (packaged !== undefined) return keepStored ? undefined : { end: packaged.end, run: (args) => ctx.callLocal(packaged.slot, args), kind: kindOfType(packaged.slot.sub.returns), ...(returnsChar(packaged.slot.sub.returns) ? { char: true } : {}) }
  const callable = (t.kind === "ident" || t.kind === "qident") && !isOp(expr[k - 1], ".") && !isOp(expr[k + 1], ".") && !isOp(expr[k + 1], "%")
  const slot = callable ? lookup(ctx, oracleName(t)) : undefined
  const local = slot?.k === "subprogram" && slot.sub.returns !== undefined ? slot : undefined
  const stored = callable && slot === undefined ? (ctx.host.db.procedures.get(`${ctx.host.schema}.${oracleName(t)}`) ?? storedThroughSynonym(ctx, oracleName(t))) : undefined
  // in a SQL statement a column of its tables wins over a function of the same name called without arguments
  const column = sql && !isOp(expr[k + 1], "(") && (local !== undefined || stored?.isFunction === true) && columns().has(oracleName(t))
  // a function declared in a block is not callable from SQL (PLS-00231); a package's are (sql-functions.ts)
  if (local !== undefined && !column && sql && !declaredInPackage(ctx, oracleName(t), local)) {
    throw new PlsCompileError(ctx.source, t.pos, 231, `function '${oracleName(t)}' may not be used in SQL`)
  }
  if (local !== undefined && !column) return { end: k, run: (args) => ctx.callLocal(local, args), kind: kindOfType(local.sub.returns), ...(returnsChar(local.sub.returns) ? { char: true } : {}) }
  if (stored?.isFunction === true && !column && !keepStored) return { end: k, run: (args) => ctx.invoke(stored, args), kind: resultKind(stored.returns) === "number" ? "number" : undefined, ...(returnsChar(stored.returns) ? { char: true } : {}) }
  return undefined
}

/** The stored function or procedure a synonym `name` names (the schema's or a public one); undefined when it names none. */
function storedThroughSynonym(ctx: Frame, name: string): PlsqlProcedure | undefined {
  try {
    const target = synonymTarget(ctx.host.db, ctx.host.schema, undefined, name)
    return target === undefined ? undefined : ctx.host.db.procedures.get(`${target.owner}.${target.name}`)
  } catch {
    // a synonym whose target is gone names nothing callable
    return undefined
  }
}

/** Whether a PL/SQL expression calls a function inlineCalls would make before evaluating it. */
async function hasCalls(ctx: Frame, expr: Expr): Promise<boolean> {
  // cheap first: no name followed by `(` or `.`, none a subprogram, stored function or synonym (loop conditions)
  const maybe = expr.some((t, k) => {
    if (t.kind !== "ident" && t.kind !== "qident") return false
    if (isOp(expr[k + 1], "(") || isOp(expr[k + 1], ".")) return true
    const slot = lookup(ctx, oracleName(t))
    return slot === undefined ? ctx.host.db.procedures.has(`${ctx.host.schema}.${oracleName(t)}`) || storedThroughSynonym(ctx, oracleName(t)) !== undefined : slot.k === "subprogram"
  })
  if (!maybe) return false
  const none = () => new Set<string>()
  for (let k = 0; k < expr.length; k++) if (await calleeAt(ctx, expr, k, false, false, none)) return true
  return false
}

/**
 * The tokens with each call of a local function (`f`, `f(args)`) made now and replaced by a bind token holding its
 * value; the same tokens when there is none. Arguments are PL/SQL expressions (a column of a SQL statement's row is
 * not one: such a call is made once, before the statement).
 */
export async function inlineCalls(ctx: Frame, expr: Expr, sql = false, keepStored = false): Promise<{ toks: Expr; release: () => void }> {
  let out: Array<Tok> | undefined
  let columns: Set<string> | undefined
  const made: Array<string> = []
  const release = () => made.forEach((key) => ctx.callResults.delete(key))
  for (let k = 0; k < expr.length; k++) {
    const t = expr[k]!
    const callee = await calleeAt(ctx, expr, k, sql, keepStored, () => (columns ??= columnsOf(ctx, expr)))
    if (callee === undefined) {
      out?.push(t)
      continue
    }
    out ??= expr.slice(0, k)
    const close = isOp(expr[callee.end + 1], "(") ? closingParen(expr, callee.end + 1) : callee.end
    const args = close > callee.end + 2 ? splitTopLevel(expr.slice(callee.end + 2, close)) : []
    let value: Value
    try {
      value = await callee.run(args)
    } catch (e) {
      release()
      throw e
    }
    const key = `\u0000F${++ctx.calls}`
    made.push(key)
    ctx.callResults.set(key, { value, kind: callee.kind, ...(callee.char === true ? { char: true as const } : {}) })
    out.push({ kind: "bind", text: ":f", value: key, pos: t.pos })
    k = close
  }
  return { toks: out ?? expr, release }
}

/** `type(a, b, ...)` of a collection type of the block: a new collection; undefined when `expr` is none. */
async function construct(ctx: Frame, expr: Expr): Promise<Collection | undefined> {
  const t = expr[0]
  if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) return undefined
  // `pkg.type(...)`: a collection type of a package
  const open = isOp(expr[1], ".") && expr[2] !== undefined && isOp(expr[3], "(") ? 3 : 1
  if (!isOp(expr[open], "(")) return undefined
  const found = open === 3 ? packageVariable(ctx, oracleName(t), oracleName(expr[2]!)) : lookup(ctx, oracleName(t))
  // a schema collection type's constructor (`nums(1, 2)`, `sys.odcinumberlist(1, 2)`)
  const schemaType = found === undefined ? schemaCollectionType(ctx, open === 3 ? `${oracleName(t)} . ${oracleName(expr[2]!)}` : oracleName(t)) : undefined
  const slot = schemaType !== undefined ? { k: "type" as const, type: schemaType } : found
  if (slot?.k !== "type" || closingParen(expr, open) !== expr.length - 1) return undefined
  if (slot.type.kind === "assoc") throw new PlsCompileError(ctx.source, t.pos, 222, `no function with name '${slot.type.name}' exists in ctx scope`)
  const c: Collection = new PlsqlCollection(slot.type)
  if (expr.length > open + 2) for (const a of splitTopLevel(expr.slice(open + 1, -1))) c.push(coerce(ctx, slot.type.element, await evaluateValue(ctx, a)) as DuckDBValue | PlsqlRecord)
  return c
}

/**
 * In a PL/SQL expression a failed conversion to a number, or a value too large for its type, is VALUE_ERROR, not SQL's
 * INVALID_NUMBER, ORA-12899 or ORA-01438; a name that is
 * neither a variable nor a function is PLS-00201, not SQL's ORA-00904.
 */
function asPlsqlError(ctx: Frame, e: unknown, expr: Expr): unknown {
  if (e instanceof OraError && e.code === 1722) return valueError("character to number conversion error")
  // a value that does not fit an object attribute (a constructor's argument) or a CAST's NUMBER(p,s) is VALUE_ERROR,
  // PL/SQL's "size-constraint error" (PL/SQL Language Reference, "Predefined Exceptions"), not SQL's column errors
  if (e instanceof OraError && e.code === 12899) return valueError("character string buffer too small")
  if (e instanceof OraError && e.code === 1438) return valueError("number precision too large")
  const unknown = e instanceof OraError && e.code === 904 ? /^"+([^"\s]+)/.exec(e.detail)?.[1] : undefined
  if (unknown !== undefined) {
    const at = expr.find((t) => (t.kind === "ident" || t.kind === "qident") && oracleName(t) === unknown)
    return new PlsCompileError(ctx.source, at?.pos ?? expr[0]?.pos ?? 0, 201, `identifier '${unknown}' must be declared`)
  }
  return e
}

/** Whether a condition is TRUE (NULL and FALSE are not). */
export async function condition(ctx: Frame, expr: Expr): Promise<boolean> {
  return (await evaluate(ctx, expr)) === true
}

/**
 * Whether a simple CASE's WHEN value equals the selector; `selectorChar`: the selector is CHAR, so that a CHAR WHEN value
 * is compared with it blank-padded, equal when they differ only in trailing blanks (PL/SQL Language Reference,
 * "Character Comparisons"; SQL Language Reference, "Blank-Padded and Nonpadded Comparison Semantics").
 */
export async function equals(ctx: Frame, selector: DuckDBValue, when: Expr, selectorChar = false): Promise<boolean> {
  const v = await evaluate(ctx, when)
  if (v === null) return false
  if (v === selector || String(v) === String(selector)) return true
  const trimmed = (x: string) => x.replace(/ +$/, "")
  return selectorChar && typeof v === "string" && typeof selector === "string" && trimmed(v) === trimmed(selector) && isCharExpression(ctx, when)
}
