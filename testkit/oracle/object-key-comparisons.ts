/**
 * The translation pass that compares objects of types without a MAP or ORDER method by their keys (object-keys.ts) in
 * `a [NOT] IN (b, c)`, `a [NOT] IN (SELECT b ...)`, DISTINCT, GROUP BY (object-comparisons.ts) and UNION / INTERSECT /
 * MINUS (object-set-operations.ts): attribute by attribute, as Oracle compares them (Object-Relational Developer's
 * Guide, "Comparing Objects"), a TIMESTAMP WITH TIME ZONE attribute at any depth as its instant. Objects compared by
 * a MAP or ORDER method are rewritten before, with the stored function calls (plsql/object-methods.ts); `a = b` of
 * objects is nested-table-equality.ts's, MEMBER OF and IS A SET multiset-conditions.ts's.
 */
import type { TableMeta } from "./catalog.ts"
import type { Tok } from "./lexer.ts"
import { statementTables } from "./object-attributes.ts"
import { rewriteObjectComparisons } from "./object-comparisons.ts"
import { objectKey } from "./object-keys.ts"
import { rewriteObjectSetOperations } from "./object-set-operations.ts"
import type { NamedType } from "./type-shapes.ts"

/**
 * `toks` with those comparisons rewritten; `lookupTable` finds a table, `lookupType` an object type by name, `types`
 * gives the schema's types (the same tokens when none of them has a key).
 */
export const rewriteObjectKeyComparisons = (
  toks: ReadonlyArray<Tok>,
  lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined,
  lookupType: (name: string) => NamedType | undefined,
  types: () => Iterable<NamedType>
): ReadonlyArray<Tok> => {
  if (![...types()].some((t) => objectKey(t, "") !== undefined)) return toks
  let tables: Map<string, TableMeta> | undefined
  const statement = () => (tables ??= statementTables(toks, lookupTable))
  return rewriteObjectSetOperations(rewriteObjectComparisons(toks, statement, lookupType, "key"), statement, lookupType, "key")
}
