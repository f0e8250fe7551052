/** Exceptions of a running block: which handler catches one, RAISE, and ORA- errors of a statement raised at its line. */
import { OraError } from "../errors.ts"
import type { Stmt } from "./ast.ts"
import type { Frame, Slot } from "./context.ts"
import { packageMember } from "./package-instances.ts"
import { fromOraError, PlsCompileError, PlsqlException, PREDEFINED, predefined } from "./errors.ts"
import { line, lookup } from "./scope.ts"

/**
 * The exception `name` names: a block's, or a package's (`pkg.e`, `owner.pkg.e`: "declared in a package
 * specification ... visible to any user of the package", PL/SQL Language Reference, "User-Defined Exceptions").
 */
async function exceptionNamed(ctx: Frame, name: string, pos: number): Promise<Slot | undefined> {
  const slot = lookup(ctx, name)
  const parts = name.split(".")
  if (slot !== undefined || parts.length < 2 || parts[0] === "STANDARD" || lookup(ctx, parts[0]!) !== undefined) return slot
  const last = parts[parts.length - 1]!
  return packageMember(ctx, parts.slice(0, -1), last, { kind: "ident", text: last, value: last, pos })
}

/** Whether the handler name `name` (OTHERS, a declared, a package's or a predefined exception) catches `e`. */
export async function matches(ctx: Frame, name: string, e: PlsqlException): Promise<boolean> {
  if (name === "OTHERS") return true
  const slot = await exceptionNamed(ctx, name, ctx.pos)
  if (slot?.k === "exception") return slot.ex.code !== undefined ? e.code === slot.ex.code : e.user === slot.ex
  const code = PREDEFINED.get(name.replace(/^STANDARD\./, ""))
  if (code === undefined) throw new PlsCompileError(ctx.source, ctx.pos, 201, `identifier '${name}' must be declared`)
  return e.code === code
}

/** Runs `f` as the statement at `pos`: ORA- errors become PL/SQL exceptions raised at its line. */
export async function at<T>(ctx: Frame, pos: number, f: () => Promise<T>): Promise<T> {
  ctx.pos = pos
  try {
    return await f()
  } catch (e) {
    if (e instanceof OraError && !(e instanceof PlsCompileError) && e.code !== 3001 && e.code !== 1013) throw fromOraError(e, line(ctx, pos))
    throw e
  }
}

/** RAISE [name]: the named exception, or (in a handler) the one being handled again. */
export async function raise(ctx: Frame, st: Extract<Stmt, { k: "raise" }>): Promise<never> {
  const raisedAt = line(ctx, st.pos)
  if (st.name === undefined) {
    const current = ctx.handling.at(-1)
    if (current === undefined) throw new PlsCompileError(ctx.source, st.pos, 367, "a RAISE statement with no exception name must be inside an exception handler")
    current.line = raisedAt
    throw current
  }
  const slot = await exceptionNamed(ctx, st.name, st.pos)
  if (slot?.k === "exception") {
    const code = slot.ex.code
    if (code !== undefined) throw new PlsqlException(code, code >= 20000 && code <= 20999 ? "" : predefined(code, raisedAt).text, raisedAt, slot.ex)
    throw new PlsqlException(0, "", raisedAt, slot.ex)
  }
  const code = PREDEFINED.get(st.name.replace(/^STANDARD\./, ""))
  if (code === undefined) throw new PlsCompileError(ctx.source, st.pos, 201, `identifier '${st.name}' must be declared`)
  throw predefined(code, raisedAt)
}
