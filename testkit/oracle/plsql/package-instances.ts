/**
 * The session's instances of stored packages as a block reaches them: `pkg.member`, the instance made on first use
 * (its declarations, then its body's BEGIN section), and which package a subprogram belongs to.
 */
import { OraError } from "../errors.ts"
import { currentUserOf, mayExecute } from "../execute-privileges.ts"
import { isName, isOp, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Block, Expr } from "./ast.ts"
import type { Frame, Slot } from "./context.ts"
import { PlsCompileError } from "./errors.ts"
import { lookup } from "./scope.ts"
import { findPackage, instancesOf, type PackageDef, recompileBody } from "./stored-packages.ts"
import { isStale } from "./unit-compilation.ts"
import { checkSeriallyReusableUse } from "./restricted-calls.ts"
import { rightsOwner } from "./definer-rights.ts"

/** Whether the subprogram `name` resolves to is a package's (declared in a package instance's scope). */
export function declaredInPackage(ctx: Frame, name: string, slot: Slot): boolean {
  for (let s = ctx.scope; s !== undefined; s = s.parent) {
    if (s.names.get(name) !== slot) continue
    for (const instance of instancesOf(ctx.host).values()) if (instance.names === s.names) return true
    return false
  }
  return false
}

/** The package a subprogram belongs to (declared in a package instance's scope), if any. */
export function packageOwning(ctx: Frame, slot: Extract<Slot, { k: "subprogram" }>): PackageDef | undefined {
  for (const instance of instancesOf(ctx.host).values()) if (instance.names === slot.scope?.names) return instance.def
  return undefined
}

/**
 * The public member `name` of the stored package `path` (`pkg` or `owner.pkg`), the session's instance of the
 * package made first when it has none (its declarations, then its body's BEGIN section); undefined when `path` is
 * no package. PLS-00302 for a name the specification does not declare.
 */
export async function packageMember(ctx: Frame, path: ReadonlyArray<string>, name: string, at: Tok): Promise<Slot | undefined> {
  if (path.length > 2) return undefined
  const def = findPackage(ctx.host, path.length === 2 ? path[0] : undefined, path[path.length - 1]!)
  if (def === undefined) return undefined
  // another schema's package without EXECUTE on it is reported as undeclared (execute-privileges.ts)
  const as = currentUserOf(ctx.unit, ctx.host.info.user)
  if (!mayExecute(ctx.host.db, as.user, def.owner, def.name, as.withRoles)) throw new PlsCompileError(ctx.source, at.pos, 201, `identifier '${[...path, name].join(".")}' must be declared`)
  const names = await packageInstance(ctx, def)
  if (!def.publicNames.has(name)) throw new PlsCompileError(ctx.source, at.pos, 302, `component '${name}' must be declared`)
  return names.get(name)
}

/**
 * Makes the session's instance of the package an assignment or INTO target names (`pkg.v`, `pkg.r.f`, `pkg.c(i)`,
 * `owner.pkg.v`), as reading the package makes it: a block's first reference to a package may be an assignment.
 */
export async function targetPackage(ctx: Frame, target: Expr): Promise<void> {
  const head = target[0]
  if (!isName(head) || !isOp(target[1], ".") || !isName(target[2]) || lookup(ctx, oracleName(head)) !== undefined) return
  const owned = isOp(target[3], ".") && isName(target[4]) && findPackage(ctx.host, oracleName(head), oracleName(target[2])) !== undefined
  if (owned) await packageMember(ctx, [oracleName(head), oracleName(target[2])], oracleName(target[4]!), target[4]!)
  else await packageMember(ctx, [oracleName(head)], oracleName(target[2]), target[2])
}

/** The session's instance of a package (its package-level names), made now when it has none or an older one. */
async function packageInstance(ctx: Frame, named: PackageDef): Promise<Map<string, Slot>> {
  const all = instancesOf(ctx.host)
  const key = `${named.owner}.${named.name}`
  if (named.seriallyReusable === true) checkSeriallyReusableUse(ctx.host, key)
  // compiled again first when a table its body depends on changed (unit-compilation.ts)
  const def = named.body !== undefined && isStale(ctx.host.db, named.body) ? recompileBody(ctx.host, named) : named
  const known = all.get(key)
  if (known !== undefined && known.def === def) return known.names as Map<string, Slot>
  // a body stored with compile errors: the call fails at run time (Error Messages, ORA-04063 and ORA-06508)
  if (def.body?.errors !== undefined) throw new OraError(4063, `package body "${key}" has errors\nORA-06508: PL/SQL: could not find program unit being called: "${key}"`)
  if (def.body === undefined && def.spec.block.decls.some((d) => d.k === "subprogram")) {
    throw new PlsCompileError(ctx.source, ctx.pos, 905, `object ${def.owner}.${def.name} is invalid`)
  }
  const block: Block = def.body === undefined ? def.spec.block : { ...def.body.block, decls: [...def.spec.block.decls, ...def.body.block.decls] }
  const frame = ctx.frame(def.body?.source ?? def.spec.source)
  frame.unit = `${def.owner}.${def.name}`
  let names = new Map<string, Slot>()
  // the instance exists from its declarations on: the BEGIN section may name the package's own members
  await ctx.host.runAs(rightsOwner(def.spec, def.owner), () =>
    frame.runBlock(block, (n) => {
      names = n
      all.set(key, { def, names: n })
    })
  )
  return names
}

/**
 * A call of a packaged function at `k` (`pkg.f`, `pkg.f(args)`, `owner.pkg.f(...)`) with the token where its name
 * ends; also makes the instance of a package whose variable the expression reads (`pkg.v`), so that reading it
 * needs no wait.
 */
export async function packagedFunction(ctx: Frame, expr: Expr, k: number): Promise<{ slot: Extract<Slot, { k: "subprogram" }>; end: number } | undefined> {
  if (!isName(expr[k]) || isOp(expr[k - 1], ".") || !isOp(expr[k + 1], ".") || !isName(expr[k + 2])) return undefined
  if (lookup(ctx, oracleName(expr[k]!)) !== undefined) return undefined
  const three = isOp(expr[k + 3], ".") && isName(expr[k + 4])
  const path = three ? [oracleName(expr[k]!), oracleName(expr[k + 2]!)] : [oracleName(expr[k]!)]
  const end = three ? k + 4 : k + 2
  const member = await packageMember(ctx, path, oracleName(expr[end]!), expr[end]!)
  return member?.k === "subprogram" && member.sub.returns !== undefined ? { slot: member, end } : undefined
}
