/**
 * Whose rights a stored unit's code runs with (PL/SQL Language Reference, "Invoker's Rights and Definer's Rights
 * (AUTHID Property)"): a definer's rights unit (the default, or `AUTHID DEFINER`) its owner's, an invoker's rights
 * unit (`AUTHID CURRENT_USER`) those in force where it is called.
 */
import { isKw, significantTokensOf } from "../lexer.ts"

/** ALL_PROCEDURES.AUTHID of a unit: CURRENT_USER when its heading (before IS | AS) says `AUTHID CURRENT_USER`. */
export const authidOf = (source: string): "CURRENT_USER" | "DEFINER" => {
  const toks = significantTokensOf(source) ?? []
  for (let k = 0; k < toks.length && !isKw(toks[k], "IS", "AS"); k++) if (isKw(toks[k], "AUTHID") && isKw(toks[k + 1], "CURRENT_USER")) return "CURRENT_USER"
  return "DEFINER"
}

const invokers = new WeakMap<object, boolean>()

/**
 * The user whose rights the code of stored unit `unit` (a procedure, a function, a package's specification) runs
 * with: `owner` for definer's rights, undefined for invoker's rights (the caller's stay in force).
 */
export const rightsOwner = (unit: { readonly source: string }, owner: string): string | undefined => {
  let invoker = invokers.get(unit)
  if (invoker === undefined) invokers.set(unit, (invoker = authidOf(unit.source) === "CURRENT_USER"))
  return invoker ? undefined : owner
}
