/**
 * Calls: local functions and procedures (in the scope they were declared in, a package's in a frame of the package's
 * source), stored ones in a frame of their own, built-in packages (packages.ts); arguments by position or name,
 * defaults, OUT and IN OUT values copied back, ORA-06512 frames on the way out.
 */
import { revalidated } from "./unit-compilation.ts"
import { currentUserOf, mayExecute } from "../execute-privileges.ts"
import { synonymTarget } from "../synonym-resolution.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import { OraError } from "../errors.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, tokenize } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import { assign, collectionMethod } from "./assignment.ts"
import type { Block, Expr, Stmt, Subprogram, TypeSpec } from "./ast.ts"
import { PlsqlCollection } from "./collections.ts"
import type { Frame, Slot, Value } from "./context.ts"
import { ReturnSignal } from "./control.ts"
import { coerce, collectionType, resolveType } from "./conversion.ts"
import { PlsCompileError, PlsqlException } from "./errors.ts"
import { outParameterValue } from "./declarations.ts"
import { evaluateValue } from "./expressions.ts"
import { chainedProcedureCall, jsonProcedureCall } from "./json-object-types.ts"
import { objectProcedureCall } from "./object-methods.ts"
import { packageMember, packageOwning } from "./package-instances.ts"
import { typeSpec } from "./declaration-parser.ts"
import { PACKAGES, UNQUALIFIED } from "./packages.ts"
import { positionalBuiltinArguments } from "./builtin-parameters.ts"
import { parseProcedureBody } from "./parser.ts"
import { collectingPipedRows, isPipelinedSource, pipedCollection } from "./pipelined.ts"
import { line, lookup } from "./scope.ts"
import { rightsOwner } from "./definer-rights.ts"

/**
 * Runs a local function or procedure in the scope it was declared in, parameters bound (named notation and
 * defaults too); OUT and IN OUT values copied back; a function's RETURN value (ORA-06503 when it ends without one).
 */
export async function callLocal(ctx: Frame, slot: Extract<Slot, { k: "subprogram" }>, args: ReadonlyArray<Expr>): Promise<Value> {
  const sub = slot.overloads?.find((o) => args.length <= o.params.length && args.length >= o.params.filter((p) => p.default === undefined).length) ?? slot.sub
  const wrong = () => new PlsCompileError(ctx.source, ctx.pos, 306, `wrong number or types of arguments in call to '${sub.name}'`)
  if (sub.body === undefined) throw new PlsCompileError(ctx.source, ctx.pos, 328, `A subprogram body must be defined for the forward declaration of ${sub.name}.`)
  const actual = actualArguments(sub.params, args, wrong)
  // arguments are computed in the caller's scope, their types named in the subprogram's
  const given: Array<Value> = []
  for (let i = 0; i < sub.params.length; i++) {
    const p = sub.params[i]!
    const a = actual[i] ?? (p.mode === "IN" ? p.default : undefined)
    if (a === undefined) throw wrong()
    given.push(p.mode === "OUT" ? null : await evaluateValue(ctx, a))
  }
  const pos = ctx.pos
  // a package's subprogram runs in a frame of the package's source: its errors name the package's lines
  // (`ORA-06512: at "OWNER.PKG", line n`, then the line of the call)
  const owner = packageOwning(ctx, slot)
  let outcome: { readonly params: Map<string, Slot>; readonly returned: ReturnSignal | undefined }
  let piped: Array<Value> | undefined
  if (owner === undefined) {
    try {
      ;({ result: outcome, piped } = await collectingPipedRows(ctx, sub.pipelined === true, () => runSubprogram(ctx, slot, sub, given)))
    } catch (e) {
      // the subprogram's own line, then the call's
      if (e instanceof PlsqlException) {
        e.frames.push(`at line ${e.line}`)
        e.line = line(ctx, pos)
      }
      throw e
    }
  } else {
    const frame = ctx.frame(owner.body?.source ?? owner.spec.source)
    frame.unit = `${owner.owner}.${owner.name}`
    try {
      // with the package's owner's rights unless its specification says AUTHID CURRENT_USER
      ;({ result: outcome, piped } = await ctx.host.runAs(rightsOwner(owner.spec, owner.owner), () => collectingPipedRows(frame, sub.pipelined === true, () => runSubprogram(frame, slot, sub, given))))
    } catch (e) {
      if (e instanceof PlsqlException) {
        e.frames.push(`at "${owner.owner}.${owner.name}", line ${e.line}`)
        e.line = line(ctx, pos)
      }
      throw e
    }
  }
  const { params, returned } = outcome
  sub.params.forEach((p, i) => {
    const slotOf = params.get(p.name)
    if (p.mode !== "IN" && slotOf?.k === "var") assign(ctx, actual[i]!, slotOf.value)
  })
  if (sub.returns === undefined) return null
  const resolved = resolveType(ctx, sub.returns, pos)
  if (returned?.value === undefined && piped !== undefined) return pipedCollection(collectionType(ctx, resolved), sub.returns.kind === "named" ? sub.returns.name : "", piped)
  if (returned?.value === undefined) throw new OraError(6503, "PL/SQL: Function returned without value")
  return coerce(ctx, resolved, returned.value)
}

/** Runs a subprogram's body in the scope it was declared in, its parameters bound from `given`. */
async function runSubprogram(
  ctx: Frame,
  slot: Extract<Slot, { k: "subprogram" }>,
  sub: Subprogram,
  given: ReadonlyArray<Value>
): Promise<{ readonly params: Map<string, Slot>; readonly returned: ReturnSignal | undefined }> {
  const caller = ctx.scope
  const pos = ctx.pos
  let returned: ReturnSignal | undefined
  const params = new Map<string, Slot>()
  ctx.scope = slot.scope
  try {
    for (const [i, p] of sub.params.entries()) {
      const type = resolveType(ctx, p.type, pos)
      const value: Value = p.mode !== "OUT" ? coerce(ctx, type, given[i] ?? null) : await outParameterValue(ctx, type, pos)
      params.set(p.name, { k: "var", value, type, constant: p.mode === "IN" })
    }
    await ctx.runBlock(sub.body!, (names) => {
      for (const [k, v] of params) names.set(k, v)
    })
  } catch (e) {
    if (!(e instanceof ReturnSignal)) throw e
    returned = e
  } finally {
    ctx.scope = caller
    ctx.pos = pos
  }
  return { params, returned }
}

/** A procedure call statement: a built-in package's, a package member, a local or stored procedure, a collection method. */
export async function call(ctx: Frame, st: Extract<Stmt, { k: "call" }>): Promise<void> {
  const parts = st.name[0] === "SYS" && st.name.length === 3 ? st.name.slice(1) : st.name
  if (parts.length === 2) {
    const pkg = PACKAGES.get(parts[0]!)
    if (pkg !== undefined && (await pkg(ctx, parts[1]!, positionalBuiltinArguments(parts[0]!, parts[1]!, st.args)))) return
  }
  if (st.self !== undefined) return chainedProcedureCall(ctx, st.self, st.name[0]!, st.args, st.nameTok)
  if (await jsonProcedureCall(ctx, parts, st.args, st.nameTok)) return
  if (await objectProcedureCall(ctx, parts, st.args, st.nameTok)) return
  const member = parts.length >= 2 && lookup(ctx, parts[0]!) === undefined ? await packageMember(ctx, parts.slice(0, -1), parts[parts.length - 1]!, st.nameTok) : undefined
  if (member?.k === "subprogram") {
    if (member.sub.returns !== undefined) throw notProcedure(ctx, st)
    await callLocal(ctx, member, st.args)
    return
  }
  if (await collectionMethod(ctx, parts, st.args)) return
  const local = parts.length === 1 ? lookup(ctx, parts[0]!) : undefined
  if (local?.k === "subprogram") {
    if (local.sub.returns !== undefined) throw notProcedure(ctx, st)
    await callLocal(ctx, local, st.args)
    return
  }
  if (parts.length === 1 && (await UNQUALIFIED(ctx, parts[0]!, st.args))) return
  const owner = parts.length > 1 ? parts[0]! : ctx.host.schema
  const pname = parts[parts.length - 1]!
  const viaSynonym = () => {
    const target = synonymTarget(ctx.host.db, ctx.host.schema, parts.length > 1 ? owner : undefined, pname)
    return target === undefined ? undefined : ctx.host.db.procedures.get(`${target.owner}.${target.name}`)
  }
  const named = ctx.host.db.procedures.get(`${owner}.${pname}`) ?? ctx.host.db.procedures.get(`${ctx.host.schema}.${pname}`) ?? viaSynonym()
  // compiled again first when a table it depends on changed (unit-compilation.ts)
  const proc = named === undefined ? undefined : revalidated(ctx.host, named)
  // another schema's unit without EXECUTE on it is reported as undeclared (execute-privileges.ts)
  const as = currentUserOf(ctx.unit, ctx.host.info.user)
  if (proc === undefined || !mayExecute(ctx.host.db, as.user, proc.owner, proc.name, as.withRoles))
    throw new PlsCompileError(ctx.source, st.nameTok.pos, 201, `identifier '${st.name.join(".")}' must be declared`)
  if (proc.isFunction === true) throw notProcedure(ctx, st)
  if (proc.errors !== undefined) throw new PlsCompileError(ctx.source, st.nameTok.pos, 905, `object ${proc.owner}.${proc.name} is invalid`)
  await invoke(ctx, proc, st.args)
}

/** A function called as a statement: PLS-00221 (Error Messages, PLS-00221). */
function notProcedure(ctx: Frame, st: Extract<Stmt, { k: "call" }>): PlsCompileError {
  return new PlsCompileError(ctx.source, st.nameTok.pos, 221, `'${st.name[st.name.length - 1]}' is not a procedure or is undefined`)
}

/** Runs a stored procedure's or function's body in a frame of its own, parameters bound; OUT values copied back; a function's RETURN value. */
export async function invoke(ctx: Frame, called: PlsqlProcedure, args: ReadonlyArray<Expr>): Promise<Value> {
  const proc = revalidated(ctx.host, called)
  // PLS-00905 for a unit created with compile errors (Error Messages, PLS-00905)
  if (proc.errors !== undefined) throw new PlsCompileError(ctx.source, ctx.pos, 905, `object ${proc.owner}.${proc.name} is invalid`)
  const wrong = () => new PlsCompileError(ctx.source, ctx.pos, 306, `wrong number or types of arguments in call to '${proc.name}'`)
  const actual = actualArguments(proc.params, args, wrong)
  const values = new Map<string, Slot>()
  for (let i = 0; i < proc.params.length; i++) {
    const p = proc.params[i]!
    const a = actual[i] ?? (p.mode === "IN" ? p.default : undefined)
    if (a === undefined) throw wrong()
    // the parameter's declared type: an index-by array bind becomes a collection of it, values convert to it
    const declared = parameterTypes(proc)[i]
    const packaged = declared?.kind === "named" ? /^(\S+) \. (\S+)$/.exec(declared.name) : null
    if (packaged !== null) await packageMember(ctx, [packaged[1]!], packaged[2]!, { kind: "ident", text: packaged[2]!, value: packaged[2]!, pos: ctx.pos })
    const type = declared === undefined ? undefined : resolveType(ctx, declared, ctx.pos)
    const value: Value = p.mode !== "OUT" ? coerce(ctx, type, await evaluateValue(ctx, a)) : await outParameterValue(ctx, type, ctx.pos)
    values.set(p.name, { k: "var", value, type, constant: p.mode === "IN" })
  }
  const body = procedureBlock(proc)
  const frame = ctx.frame(proc.source)
  // the unit runs with its owner's privileges (definer's rights)
  frame.unit = `${proc.owner}.${proc.name}`
  let result: Map<string, Slot> | undefined
  let returned: ReturnSignal | undefined
  const pipelined = proc.isFunction === true && isPipelinedSource(proc.source)
  if (pipelined) frame.piped = []
  try {
    // its SQL with its owner's rights unless it says AUTHID CURRENT_USER
    await ctx.host.runAs(rightsOwner(proc, proc.owner), () =>
      frame.runBlock(body, (names) => {
        for (const [k, v] of values) names.set(k, v)
        result = names
      })
    )
  } catch (e) {
    if (e instanceof ReturnSignal) returned = e
    else if (e instanceof PlsqlException) {
      e.frames.push(`at "${proc.owner}.${proc.name}", line ${e.line}`)
      e.line = line(ctx)
      throw e
    } else throw e
  }
  for (let i = 0; i < proc.params.length; i++) {
    const p = proc.params[i]!
    if (p.mode === "IN") continue
    const slot = result?.get(p.name)
    assign(ctx, actual[i]!, slot?.k === "var" ? slot.value : null)
  }
  if (proc.isFunction !== true) return null
  if (returned?.value === undefined && pipelined) return pipedCollection(undefined, proc.returns ?? "", frame.piped ?? [])
  if (returned?.value === undefined) throw new OraError(6503, "PL/SQL: Function returned without value")
  return returned.value
}

/** A call's arguments by parameter position (positional, then `name => value`); undefined where none was given. */
const actualArguments = (params: ReadonlyArray<{ readonly name: string }>, args: ReadonlyArray<Expr>, wrong: () => Error): Array<Expr | undefined> => {
  const actual: Array<Expr | undefined> = params.map(() => undefined)
  if (args.length > params.length) throw wrong()
  args.forEach((a, i) => {
    if (a.length >= 3 && isOp(a[1], "=>")) {
      const pi = params.findIndex((p) => p.name === oracleName(a[0]!))
      if (pi < 0) throw wrong()
      actual[pi] = a.slice(2)
    } else actual[i] = a
  })
  return actual
}

const parsedBodies = new WeakMap<PlsqlProcedure, Block>()

/** A stored procedure's body, parsed once. */
const procedureBlock = (proc: PlsqlProcedure): Block => {
  let block = parsedBodies.get(proc)
  if (block === undefined) {
    block = parseProcedureBody(proc.source, proc.body)
    parsedBodies.set(proc, block)
  }
  return block
}

const parsedParameterTypes = new WeakMap<PlsqlProcedure, Array<TypeSpec | undefined>>()

/** A stored unit's parameters' declared types, read once from its source (`name [IN | OUT | IN OUT] [NOCOPY] type [:= | DEFAULT x]`). */
const parameterTypes = (proc: PlsqlProcedure): Array<TypeSpec | undefined> => {
  let types = parsedParameterTypes.get(proc)
  if (types !== undefined) return types
  types = []
  const toks = significant(tokenize(proc.source))
  const head = toks.findIndex((t) => isKw(t, "PROCEDURE", "FUNCTION"))
  const open = toks.findIndex((t, k) => k > head && (isOp(t, "(") || isKw(t, "IS", "AS", "RETURN")))
  if (head >= 0 && isOp(toks[open], "(")) {
    for (const p of splitTopLevel(toks.slice(open + 1, matchParen(toks, open)))) {
      let k = 1
      while (isKw(p[k], "IN", "OUT", "NOCOPY")) k++
      const end = p.findIndex((t, j) => j >= k && (isOp(t, ":=") || isKw(t, "DEFAULT")))
      const typeToks = p.slice(k, end < 0 ? p.length : end)
      types.push(typeToks.length === 0 ? undefined : typeSpec(typeToks))
    }
  }
  parsedParameterTypes.set(proc, types)
  return types
}
