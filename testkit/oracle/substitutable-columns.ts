/**
 * The substitutable_column_clause of CREATE TABLE (SQL Language Reference, CREATE TABLE, "object_type_col_properties"
 * and "substitutable_column_clause"), after the relational properties: `COLUMN c [NOT] SUBSTITUTABLE AT ALL LEVELS`
 * and `COLUMN c IS OF [TYPE] (ONLY t)`. An object column of a NOT FINAL type is substitutable by default (it holds
 * instances of its type's subtypes); NOT SUBSTITUTABLE restricts it to instances of its declared type, IS OF TYPE
 * (ONLY t) to instances of t, a subtype of the declared type (Object-Relational Developer's Guide, "Turning Off
 * Substitutability in a New Table", "Constraining Substitutability"). A constructor of another type written into the
 * column is then refused (object-writes.ts) with ORA-00932, as R. Nyffenegger's example of IS OF TYPE (ONLY ...)
 * shows (http://www.adp-gmbh.ch/ora/sql/clauses/subst_col.html).
 */
import type { ColumnMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, type Tok } from "./lexer.ts"
import { oracleName } from "./translate.ts"
import type { NamedType } from "./type-shapes.ts"
import { isSubtypeOf } from "./type-inheritance.ts"


/**
 * `columns` with the restriction each `COLUMN c ...` clause of `rest` (the tokens after the column list) puts on
 * object column c (`substitution`); ORA-00904 for a column the table lacks or that holds no object, ORA-00902 for a type
 * name that is no object type, ORA-00932 for a type that is not the column's or one of its subtypes
 * (**unconfirmed:** the code Oracle gives for those last two).
 */
export const withSubstitutableClauses = (rest: ReadonlyArray<Tok>, columns: ReadonlyArray<ColumnMeta>, lookupType: (owner: string | undefined, name: string) => NamedType | undefined): Array<ColumnMeta> => {
  const sig = rest.filter((t) => t.kind !== "ws")
  const out = [...columns]
  for (let k = 0; k < sig.length; k++) {
    if (!isKw(sig[k], "COLUMN") || !isName(sig[k + 1])) continue
    const name = oracleName(sig[k + 1]!)
    let n = k + 2
    const negated = isKw(sig[n], "NOT")
    if (negated) n++
    const substitutable = isKw(sig[n], "SUBSTITUTABLE") && isKw(sig[n + 1], "AT") && isKw(sig[n + 2], "ALL") && isKw(sig[n + 3], "LEVELS")
    const element = !negated && isKw(sig[n], "ELEMENT")
    if (element) n++
    const isOf = !negated && isKw(sig[n], "IS") && isKw(sig[n + 1], "OF")
    if (!substitutable && !isOf) continue
    const at = out.findIndex((c) => c.name === name)
    const declared = out[at]?.type.named
    // ELEMENT IS OF TYPE constrains a collection's elements: not taken here
    if (element) continue
    if (declared?.kind !== "object") throw new OraError(904, `"${name}": invalid identifier`)
    if (substitutable) {
      if (negated) out[at] = { ...out[at]!, substitution: { only: declared, allLevels: true } }
      k = n + 3
      continue
    }
    n += 2
    if (isKw(sig[n], "TYPE")) n++
    if (!isOp(sig[n], "(") || !isKw(sig[n + 1], "ONLY")) throw new OraError(905, "missing keyword")
    n += 2
    const qualified = isOp(sig[n + 1], ".")
    const typeName = sig[qualified ? n + 2 : n]
    const only = isName(typeName) ? lookupType(qualified ? oracleName(sig[n]!) : undefined, oracleName(typeName)) : undefined
    if (only?.kind !== "object") throw new OraError(902, "invalid datatype")
    if (!isSubtypeOf(only, declared)) throw new OraError(932, `inconsistent datatypes: expected ${declared.schema}.${declared.name} got ${only.schema}.${only.name}`)
    out[at] = { ...out[at]!, substitution: { only, allLevels: false } }
    k = qualified ? n + 3 : n + 1
  }
  return out
}
