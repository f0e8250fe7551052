/**
 * Values written straight into an OBJECT, VARRAY or nested TABLE column. Such a column holds its value's JSON text
 * here (named-types.ts), so a character literal written into it (`INSERT INTO t VALUES (1, '[1,"x"]')`) would be
 * stored unchecked. Oracle has no implicit conversion from a character or numeric type to a user-defined type
 * ("Implicit Data Conversion", SQL Language Reference: the conversion matrix lists built-in types only) and refuses
 * the statement with ORA-00932 "inconsistent datatypes: expected <type> got CHAR" (or NUMBER); XMLType is left out,
 * since Oracle converts character data into it. Only values whose type the text shows are checked: character and
 * number literals and concatenations (`'a' || 'b'`).
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isOp, type Tok } from "./lexer.ts"
import { type TableLookup, writtenValueTokens } from "./number-writes.ts"

/** The built-in type a written value's text shows, when it is a literal or a concatenation. */
const literalType = (value: ReadonlyArray<Tok>): "CHAR" | "NUMBER" | undefined => {
  if (value.length === 1 && value[0]!.kind === "str") return "CHAR"
  if (value.length === 1 && value[0]!.kind === "num") return "NUMBER"
  if (value.length === 2 && isOp(value[0], "-") && value[1]!.kind === "num") return "NUMBER"
  const concatenation = value.length >= 3 && value.every((t, k) => (k % 2 === 0 ? t.kind === "str" : isOp(t, "||")))
  return concatenation ? "CHAR" : undefined
}

/** Columns of a table by the named (non-XMLType) type they hold, keyed by the type's qualified name. */
const objectColumns = (meta: TableMeta): Map<string, Set<string>> => {
  const out = new Map<string, Set<string>>()
  for (const c of meta.columns) {
    const named = c.type.named
    if (named === undefined || named.kind === "xmltype") continue
    const key = `${named.schema}.${named.name}`
    out.set(key, (out.get(key) ?? new Set()).add(c.name))
  }
  return out
}

/** ORA-00932 for a character or number literal an INSERT, UPDATE or MERGE writes into an object or collection column. */
export const refuseLiteralObjectWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup): void => {
  let groups: Map<string, Set<string>> | undefined
  writtenValueTokens(all, lookup, (meta) => ((groups = objectColumns(meta)), new Set()))
  for (const [typeName, columns] of groups ?? []) {
    for (const value of writtenValueTokens(all, lookup, () => columns)) {
      const got = literalType(value)
      if (got !== undefined) throw new OraError(932, `inconsistent datatypes: expected ${typeName} got ${got}`)
    }
  }
}
