/** A frame's scopes: the names its blocks declare, found innermost first, and where a statement is (its line). */
import { SOURCE_LINES_T } from "./source-lines.ts"
import type { Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Frame, Slot } from "./context.ts"
import { lineColumn, PlsCompileError } from "./errors.ts"
import { findPackage, instancesOf } from "./stored-packages.ts"

/** The source line of position `pos` (the running statement's by default). */
export function line(ctx: Frame, pos = ctx.pos): number {
  return lineColumn(ctx.source, pos).line
}

/** PLS-00201 for a name no scope declares. */
export function notDeclared(ctx: Frame, t: Tok): never {
  throw new PlsCompileError(ctx.source, t.pos, 201, `identifier '${oracleName(t)}' must be declared`)
}

/** What `name` stands for in the innermost scope that declares it. */
export function lookup(ctx: Frame, name: string): Slot | undefined {
  for (let s = ctx.scope; s !== undefined; s = s.parent) {
    const slot = s.names.get(name)
    if (slot !== undefined) return slot
  }
  return undefined
}

/** `name` as the block labelled `label` declares it (`label.name`). */
export function labelled(ctx: Frame, label: string, name: string): Slot | undefined {
  for (let s = ctx.scope; s !== undefined; s = s.parent) if (s.label === label) return s.names.get(name)
  return undefined
}

/** `pkg.name` of a package the session already has an instance of (expressions name it after inlineCalls made it). */
export function packageVariable(ctx: Frame, pkg: string, name: string): Slot | undefined {
  // DBMS_PREPROCESSOR.SOURCE_LINES_T, a built-in package's type
  if (pkg === "DBMS_PREPROCESSOR" && name === "SOURCE_LINES_T" && findPackage(ctx.host, undefined, pkg) === undefined) return { k: "type", type: SOURCE_LINES_T }
  const def = findPackage(ctx.host, undefined, pkg)
  if (def === undefined || !def.publicNames.has(name)) return undefined
  const instance = instancesOf(ctx.host).get(`${def.owner}.${def.name}`)
  return instance?.def === def ? (instance.names as Map<string, Slot>).get(name) : undefined
}
