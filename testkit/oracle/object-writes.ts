/**
 * Values written straight into an OBJECT, VARRAY or nested TABLE column. Such a column holds its value's JSON text
 * here (named-types.ts), so a character literal written into it (`INSERT INTO t VALUES (1, '[1,"x"]')`) would be
 * stored unchecked. Oracle has no implicit conversion from a character or numeric type to a user-defined type
 * ("Implicit Data Conversion", SQL Language Reference: the conversion matrix lists built-in types only) and refuses
 * the statement with ORA-00932 "inconsistent datatypes: expected <type> got CHAR" (or NUMBER); XMLType is left out,
 * since Oracle converts character data into it. Only values whose type the text shows are checked: character and
 * number literals and concatenations (`'a' || 'b'`). A constructor call of an object type neither the column's type
 * nor one of its subtypes is refused the same way, "expected <type> got <type>": a column of type t holds instances of
 * t and of t's subtypes only (Object-Relational Developer's Guide, "Substituting Types in a Type Hierarchy").
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isOp, matchParen, type Tok } from "./lexer.ts"
import { type TableLookup, writtenValueTokens } from "./number-writes.ts"
import type { NamedType } from "./type-shapes.ts"
import { isSubtypeOf } from "./type-inheritance.ts"

/** The built-in type a written value's text shows, when it is a literal or a concatenation. */
const literalType = (value: ReadonlyArray<Tok>): "CHAR" | "NUMBER" | undefined => {
  if (value.length === 1 && value[0]!.kind === "str") return "CHAR"
  if (value.length === 1 && value[0]!.kind === "num") return "NUMBER"
  if (value.length === 2 && isOp(value[0], "-") && value[1]!.kind === "num") return "NUMBER"
  const concatenation = value.length >= 3 && value.every((t, k) => (k % 2 === 0 ? t.kind === "str" : isOp(t, "||")))
  return concatenation ? "CHAR" : undefined
}

/** The object type a written value's text constructs, when it is one constructor call (`[owner.]t(...)`). */
const constructedType = (value: ReadonlyArray<Tok>, lookupType: (name: string) => NamedType | undefined): NamedType | undefined => {
  const open = isOp(value[1], ".") ? 3 : 1
  const name = value[open - 1]
  if (name === undefined || (name.kind !== "ident" && name.kind !== "qident") || !isOp(value[open], "(") || matchParen(value, open) !== value.length - 1) return undefined
  const type = lookupType(name.kind === "qident" ? name.value : name.value.toUpperCase())
  return type?.kind === "object" ? type : undefined
}

/** Columns of a table by the named (non-XMLType) type they hold, keyed by the type's qualified name. */
const objectColumns = (meta: TableMeta): Map<string, { readonly type: NamedType; readonly columns: Set<string> }> => {
  const out = new Map<string, { readonly type: NamedType; readonly columns: Set<string> }>()
  for (const c of meta.columns) {
    const named = c.type.named
    if (named === undefined || named.kind === "xmltype") continue
    const key = `${named.schema}.${named.name}`
    if (!out.has(key)) out.set(key, { type: named, columns: new Set() })
    out.get(key)!.columns.add(c.name)
  }
  return out
}

/**
 * ORA-00932 for a character or number literal, or a constructor of an unrelated object type (`lookupType` resolves
 * type names), an INSERT, UPDATE or MERGE writes into an object or collection column.
 */
export const refuseLiteralObjectWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup, lookupType: (name: string) => NamedType | undefined = () => undefined): void => {
  let groups: ReturnType<typeof objectColumns> | undefined
  writtenValueTokens(all, lookup, (meta) => ((groups = objectColumns(meta)), new Set()))
  for (const [typeName, { type, columns }] of groups ?? []) {
    for (const value of writtenValueTokens(all, lookup, () => columns)) {
      const constructed = type.kind === "object" ? constructedType(value, lookupType) : undefined
      const got = literalType(value) ?? (constructed !== undefined && !isSubtypeOf(constructed, type) ? `${constructed.schema}.${constructed.name}` : undefined)
      if (got !== undefined) throw new OraError(932, `inconsistent datatypes: expected ${typeName} got ${got}`)
    }
  }
}
