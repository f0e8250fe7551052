/**
 * Object type inheritance in CREATE TYPE (Object-Relational Developer's Guide, "Inheritance in SQL Object Types";
 * PL/SQL Language Reference, "CREATE TYPE Statement"): `CREATE TYPE t AS OBJECT (...) NOT FINAL` lets subtypes be
 * derived, `CREATE TYPE s UNDER t (attrs)` makes s with t's attributes followed by its own. A subtype of a FINAL type
 * (PLS-00590 "attempting to create a subtype UNDER a FINAL type") or of no object type is a compilation error.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import type { NamedType } from "./type-shapes.ts"

const nameOf = (t: Tok | undefined): string | undefined =>
  t === undefined || (t.kind !== "ident" && t.kind !== "qident") ? undefined : t.kind === "qident" ? t.value : t.value.toUpperCase()

/**
 * The `UNDER [owner.]t (` clause at significant token `k` (UNDER): the supertype and the index of the token before
 * the attribute list's `(`; ORA-24344 (a specification Oracle compiles with errors) for a FINAL or unknown supertype.
 */
export const underClause = (sig: ReadonlyArray<Tok>, k: number, lookup: (owner: string | undefined, name: string) => NamedType | undefined): { readonly parent: NamedType; readonly listAt: number } => {
  const qualified = isOp(sig[k + 2], ".")
  const owner = qualified ? nameOf(sig[k + 1]) : undefined
  const name = nameOf(sig[qualified ? k + 3 : k + 1])
  const listAt = qualified ? k + 3 : k + 1
  const parent = name === undefined ? undefined : lookup(owner, name)
  if (parent?.kind !== "object" || parent.notFinal !== true || !isOp(sig[listAt + 1], "(")) throw new OraError(24344, "success with compilation error")
  return { parent, listAt }
}

/** Whether the type specification ends (after its attribute list, closing at `close`) with NOT FINAL. */
export const declaredNotFinal = (sig: ReadonlyArray<Tok>, close: number): boolean => {
  for (let k = close + 1; k < sig.length; k++) if (isKw(sig[k], "NOT") && isKw(sig[k + 1], "FINAL")) return true
  return false
}
