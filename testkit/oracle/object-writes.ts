/**
 * Values written straight into an OBJECT, VARRAY or nested TABLE column. Such a column holds its value's JSON text
 * here (named-types.ts), so a character literal written into it (`INSERT INTO t VALUES (1, '[1,"x"]')`) would be
 * stored unchecked. Oracle has no implicit conversion from a character or numeric type to a user-defined type
 * ("Implicit Data Conversion", SQL Language Reference: the conversion matrix lists built-in types only) and refuses
 * the statement with ORA-00932 "inconsistent datatypes: expected <type> got CHAR" (or NUMBER); XMLType is left out,
 * since Oracle converts character data into it. Only values whose type the text shows are checked: character and
 * number literals and concatenations (`'a' || 'b'`). A constructor call of an object type neither the column's type
 * nor one of its subtypes is refused the same way, "expected <type> got <type>": a column of type t holds instances of
 * t and of t's subtypes only (Object-Relational Developer's Guide, "Substituting Types in a Type Hierarchy"), and a
 * NOT SUBSTITUTABLE or IS OF TYPE (ONLY s) column instances of t, or of s, only (substitutable-columns.ts).
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isOp, matchParen, splitTopLevel, type Tok } from "./lexer.ts"
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

/** A column group's types: the type its columns hold, and the one type they are restricted to (substitutable-columns.ts). */
interface Group {
  readonly type: NamedType
  readonly only: NamedType | undefined
  /** NOT SUBSTITUTABLE AT ALL LEVELS: the objects' object attributes hold their declared types only too. */
  readonly allLevels: boolean
  readonly columns: Set<string>
}

/** Columns of a table by the named (non-XMLType) type they hold and the type they are restricted to. */
const objectColumns = (meta: TableMeta): Map<string, Group> => {
  const out = new Map<string, Group>()
  for (const c of meta.columns) {
    const named = c.type.named
    if (named === undefined || named.kind === "xmltype") continue
    const only = c.substitution?.only
    const key = `${named.schema}.${named.name}/${only === undefined ? "" : `${only.schema}.${only.name}`}/${c.substitution?.allLevels === true}`
    if (!out.has(key)) out.set(key, { type: named, only, allLevels: c.substitution?.allLevels === true, columns: new Set() })
    out.get(key)!.columns.add(c.name)
  }
  return out
}

/** Whether an instance of `constructed` may go into a column of type `type` restricted to `only`. */
const admits = (constructed: NamedType, type: NamedType, only: NamedType | undefined): boolean =>
  only === undefined ? isSubtypeOf(constructed, type) : sameType(constructed, only)

const sameType = (a: NamedType, b: NamedType): boolean => a.schema === b.schema && a.name === b.name

/**
 * The first constructor call nested in constructor call `value` (of object type `type`) that puts an instance of
 * another type than an object attribute's own into it, with that attribute's type: what NOT SUBSTITUTABLE AT ALL LEVELS
 * forbids ("embedded attributes ... cannot hold subtype instances either", Object-Relational Developer's Guide,
 * "Turning Off Substitutability in a New Table").
 */
const substitutedAttribute = (value: ReadonlyArray<Tok>, type: NamedType, lookupType: (name: string) => NamedType | undefined): { expected: NamedType; got: NamedType } | undefined => {
  const open = isOp(value[1], ".") ? 3 : 1
  const args = splitTopLevel(value.slice(open + 1, matchParen(value, open)))
  for (const [k, arg] of args.entries()) {
    const member = type.attributes[k]?.member
    const declared = member !== undefined && "named" in member && member.named.kind === "object" ? member.named : undefined
    const inner = declared === undefined ? undefined : constructedType(arg.filter((t) => t.kind !== "ws"), lookupType)
    if (declared === undefined || inner === undefined) continue
    if (!sameType(inner, declared)) return { expected: declared, got: inner }
    const deeper = substitutedAttribute(arg.filter((t) => t.kind !== "ws"), inner, lookupType)
    if (deeper !== undefined) return deeper
  }
  return undefined
}

/**
 * ORA-00932 for a character or number literal, or a constructor of an unrelated object type (`lookupType` resolves
 * type names), an INSERT, UPDATE or MERGE writes into an object or collection column.
 */
export const refuseLiteralObjectWrites = (
  all: ReadonlyArray<Tok>,
  lookup: TableLookup,
  lookupType: (name: string) => NamedType | undefined = () => undefined,
  /** The object type of a DbObject bind (by its TOID), checked against restricted columns (substitutable-columns.ts). */
  bindType: (bind: Tok) => NamedType | undefined = () => undefined
): void => {
  let groups: ReturnType<typeof objectColumns> | undefined
  writtenValueTokens(all, lookup, (meta) => ((groups = objectColumns(meta)), new Set()))
  for (const { type, only, allLevels, columns } of (groups ?? new Map<string, Group>()).values()) {
    for (const value of writtenValueTokens(all, lookup, () => columns)) {
      const bound = only !== undefined && value.length === 1 && value[0]!.kind === "bind" ? bindType(value[0]!) : undefined
      const constructed = bound ?? (type.kind === "object" ? constructedType(value, lookupType) : undefined)
      const got = literalType(value) ?? (constructed !== undefined && !admits(constructed, type, only) ? `${constructed.schema}.${constructed.name}` : undefined)
      if (got !== undefined) throw new OraError(932, `inconsistent datatypes: expected ${(only ?? type).schema}.${(only ?? type).name} got ${got}`)
      const nested = allLevels && constructed !== undefined && bound === undefined ? substitutedAttribute(value, constructed, lookupType) : undefined
      if (nested !== undefined) throw new OraError(932, `inconsistent datatypes: expected ${nested.expected.schema}.${nested.expected.name} got ${nested.got.schema}.${nested.got.name}`)
    }
  }
}

/**
 * The object type of each DbObject bind of `toks`, by its TOID in `specs` (binds in the order they appear, as the
 * client sends them), among `types`.
 */
export const dbObjectBindTypes = (toks: ReadonlyArray<Tok>, specs: ReadonlyArray<{ readonly oid?: Buffer }> | undefined, types: () => ReadonlyArray<NamedType>) => {
  const specOf = bindSpecsByToken(toks, specs)
  return (bind: Tok): NamedType | undefined => {
    const oid = specOf(bind)?.oid
    return oid === undefined ? undefined : types().find((t) => t.kind === "object" && t.oid.equals(oid))
  }
}

/** The spec in `specs` of each bind token of `toks` (binds in the order they appear, as the client sends them). */
export const bindSpecsByToken = <S>(toks: ReadonlyArray<Tok>, specs: ReadonlyArray<S> | undefined) => {
  let ordinals: ReadonlyMap<Tok, number> | undefined
  return (bind: Tok): S | undefined => {
    ordinals ??= new Map(toks.filter((t) => t.kind === "bind").sort((a, b) => a.pos - b.pos).map((t, n) => [t, n] as const))
    return specs?.[ordinals.get(bind) ?? -1]
  }
}
