/**
 * Names under which a statement's own queries pass BINARY_DOUBLE / BINARY_FLOAT values on: the aliases of select-list
 * items of a native floating-point type (`SELECT bd AS x FROM t`, `SELECT bd * 2 y FROM t` in a subquery or WITH
 * block, read as `x` by the enclosing query). The translator divides such names in IEEE 754 as it divides the columns
 * themselves (`1 / x` of a zero is Inf, not ORA-01476: "IEEE 754 exceptions are not raised", Database Concepts,
 * "Floating-Point Numbers"); number-aliases.ts does the same for exact NUMBERs.
 */
import type { Tok } from "./lexer.ts"
import { visitAliasedItems } from "./select-aliases.ts"
import { type BinaryKind, binaryKindOf, oracleName } from "./translate.ts"

/** `binary` with the aliases of every select list of the significant tokens `toks` whose item is of a native floating-point type. */
export const withBinaryAliases = (toks: ReadonlyArray<Tok>, binary: ReadonlyMap<string, BinaryKind>): ReadonlyMap<string, BinaryKind> => {
  const out = new Map(binary)
  visitAliasedItems(toks, (from, to, alias) => {
    const name = oracleName(alias)
    const kind = binaryKindOf(toks, from, to, out)
    if (kind === undefined || out.get(name) === kind) return false
    out.set(name, kind)
    return true
  })
  return out
}
