/** Argument checks shared by the built-in packages. */
import { OraError } from "../errors.ts"
import type { Expr } from "./ast.ts"

/** PLS-00306, a call whose arguments do not fit the procedure. */
export const wrongArguments = (procedure: string): OraError =>
  new OraError(6550, `line 1, column 7:\nPLS-00306: wrong number or types of arguments in call to '${procedure}'`)

/** A call's arguments by parameter name: positional ones in `order`, named ones (`p => expr`) by their name. */
export const argumentsByName = (args: ReadonlyArray<Expr>, order: ReadonlyArray<string>): Map<string, Expr> => {
  const out = new Map<string, Expr>()
  args.forEach((a, i) => {
    const named = a.length >= 3 && (a[0]!.kind === "ident" || a[0]!.kind === "qident") && a[1]!.kind === "op" && a[1]!.value === "=>"
    if (named) out.set(a[0]!.value.toUpperCase(), a.slice(2))
    else if (order[i] !== undefined) out.set(order[i]!, a)
  })
  return out
}
