/**
 * Named types of one database: user-defined OBJECT, VARRAY and nested TABLE types (CREATE / DROP TYPE), the
 * predefined MDSYS.SDO_GEOMETRY family and SYS.XMLTYPE; columns of those types, their constructors in SQL, and the
 * type-description call node-oracledb thin makes to learn a type (dbms_pickler.get_type_shape).
 *
 * Values are stored in DuckDB as VARCHAR: XMLType as its document text, the others as extended JSON text of their
 * value tree (an object as the array of its attribute values, a collection as the array of its elements; see
 * pickle.ts), which is also what a constructor call such as `SDO_GEOMETRY(2001, NULL, SDO_POINT_TYPE(1, 2, NULL),
 * NULL, NULL)` becomes (DuckDB `json_array`).
 */
import * as crypto from "node:crypto"
import type { DuckDBValue } from "@duckdb/node-api"
import type { Session as EngineSession } from "../engine/index.ts"
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, splitTopLevel, sqlString, tokenize, type Tok } from "./lexer.ts"
import { headingOf } from "./expression-names.ts"
import { boundObjectText } from "./bound-object-text.ts"
import { constructorArgument } from "./constructor-arguments.ts"
import { fromExtendedJson } from "./extended-json.ts"
import { attributeChainAt, attributeExtraction } from "./object-attributes.ts"
import type { MethodSpec } from "./type-shapes.ts"
import { type Attribute, type Member, type NamedType, packImage, supportedMember, typeDescriptor, writeDbObject, xmlImage } from "./pickle.ts"
import type { BindSpec, PlsqlResult, QueryResult, ResultColumn } from "./statement.ts"
import { inHierarchy, inheritanceOf, notInstantiable, sentType, typeTag, underClause } from "./type-inheritance.ts"
import { charType, Dty, numberType, parseOracleType, rawType, type OraType } from "./types.ts"
import type { ReadBuffer, WriteBuffer } from "./wire.ts"

/** Every named type by OID (hex): bind values name their type only by its TOID. */
const typesByOid = new Map<string, NamedType>()

/** The named type a bind's TOID names (plsql/client-table-collections.ts reads collection binds by it). */
export const namedTypeOfOid = (oid: Buffer): NamedType | undefined => typesByOid.get(oid.toString("hex"))

const register = (t: NamedType): NamedType => {
  typesByOid.set(t.oid.toString("hex"), t)
  return t
}

/** Registers a PL/SQL type no package declares (a `TABLE%ROWTYPE` record: plsql/package-type-binds.ts) so that bind values name it by OID. */
export const registerPlsqlType = (t: NamedType): NamedType => register(t)

/** The package declaring a PL/SQL type registered by {@link registerNamedType}. */
const packageOfType = new WeakMap<NamedType, string>()
/** The registered package types, by `OWNER.PACKAGE.NAME` (the latest description of each). */
const packageTypes = new Map<string, { readonly type: NamedType; readonly packageName: string }>()

/**
 * Registers a package's record or collection type (plsql/package-type-binds.ts) so that bind values name it by OID,
 * as the types of CREATE TYPE are.
 */
export const registerNamedType = (t: NamedType, packageName: string): NamedType => {
  packageOfType.set(t, packageName)
  packageTypes.set(`${t.schema}.${packageName}.${t.name}`, { type: t, packageName })
  return register(t)
}

/** The package types described so far (ALL_PLSQL_COLL_TYPES lists their collections: type-dictionary.ts). */
export const describedPackageTypes = (): ReadonlyArray<{ readonly type: NamedType; readonly packageName: string }> => [...packageTypes.values()]

/** The package that declares a described PL/SQL type; undefined for a schema type. */
export const packageOfNamedType = (t: NamedType): string | undefined => packageOfType.get(t)

const fixedOid = (fqn: string) => crypto.createHash("md5").update(fqn).digest()

const NUMBER = numberType()

// Oracle Spatial's definitions ("2.2 SDO_GEOMETRY Object Type", Oracle Spatial Developer's Guide 23,
// https://docs.oracle.com/en/database/oracle/oracle-database/23/spatl/sdo_geometry-object-type.html)
const sdoPointType = register({
  schema: "MDSYS",
  name: "SDO_POINT_TYPE",
  oid: fixedOid("MDSYS.SDO_POINT_TYPE"),
  kind: "object",
  attributes: ["X", "Y", "Z"].map((name) => ({ name, member: { scalar: NUMBER } })),
  element: undefined,
  limit: 0
})
const sdoArray = (name: string) =>
  register({ schema: "MDSYS", name, oid: fixedOid(`MDSYS.${name}`), kind: "varray", attributes: [], element: { scalar: NUMBER }, limit: 1048576 })
const sdoElemInfoArray = sdoArray("SDO_ELEM_INFO_ARRAY")
const sdoOrdinateArray = sdoArray("SDO_ORDINATE_ARRAY")
const sdoGeometry = register({
  schema: "MDSYS",
  name: "SDO_GEOMETRY",
  oid: fixedOid("MDSYS.SDO_GEOMETRY"),
  kind: "object",
  attributes: [
    { name: "SDO_GTYPE", member: { scalar: NUMBER } },
    { name: "SDO_SRID", member: { scalar: NUMBER } },
    { name: "SDO_POINT", member: { named: sdoPointType } },
    { name: "SDO_ELEM_INFO", member: { named: sdoElemInfoArray } },
    { name: "SDO_ORDINATES", member: { named: sdoOrdinateArray } }
  ],
  element: undefined,
  limit: 0
})
// the Data Cartridge's list types, as DESCRIBE shows them on a database: SYS.ODCINUMBERLIST VARRAY(32767) OF NUMBER,
// SYS.ODCIVARCHAR2LIST VARRAY(32767) OF VARCHAR2(4000), SYS.ODCIDATELIST VARRAY(32767) OF DATE (Data Cartridge
// Developer's Guide, "Extensibility Constants, Types, and Mappings")
const odciList = (name: string, element: OraType) => register({ schema: "SYS", name, oid: fixedOid(`SYS.${name}`), kind: "varray", attributes: [], element: { scalar: element }, limit: 32767 })
// and SYS.JSON_KEY_LIST VARRAY(32767) OF VARCHAR2(4000), what JSON_OBJECT_T.get_keys returns (PL/SQL Packages and
// Types Reference, "JSON Data Structures": "JSON_KEY_LIST Type")
const odciLists = [odciList("ODCINUMBERLIST", NUMBER), odciList("ODCIVARCHAR2LIST", charType("VARCHAR2", 4000)), odciList("ODCIDATELIST", parseOracleType("DATE")!), odciList("JSON_KEY_LIST", charType("VARCHAR2", 4000))]
const xmlType = register({ schema: "SYS", name: "XMLTYPE", oid: fixedOid("SYS.XMLTYPE"), kind: "xmltype", attributes: [], element: undefined, limit: 0 })

/** Types every schema sees through public synonyms. */
const PUBLIC_TYPES: ReadonlyArray<NamedType> = [sdoPointType, sdoElemInfoArray, sdoOrdinateArray, sdoGeometry, xmlType, ...odciLists]

/**
 * A method declaration of an OBJECT type's attribute list (`[NOT] OVERRIDING | FINAL | INSTANTIABLE ...  MEMBER |
 * STATIC | CONSTRUCTOR | MAP MEMBER | ORDER MEMBER  FUNCTION | PROCEDURE name [(params)] ...`); undefined for an attribute.
 */
const methodSpec = (part: ReadonlyArray<Tok>): MethodSpec | undefined => {
  let k = 0
  let notInstantiable = false
  for (; isKw(part[k], "NOT", "OVERRIDING", "FINAL", "INSTANTIABLE"); k++) if (isKw(part[k], "NOT") && isKw(part[k + 1], "INSTANTIABLE")) notInstantiable = true
  const comparison = isKw(part[k], "MAP", "ORDER") && isKw(part[k + 1], "MEMBER") ? (part[k]!.value.toUpperCase() as "MAP" | "ORDER") : undefined
  if (comparison !== undefined) k++
  if (!isKw(part[k], "MEMBER", "STATIC", "CONSTRUCTOR") || !isKw(part[k + 1], "FUNCTION", "PROCEDURE") || part[k + 2] === undefined) return undefined
  const kind = part[k]!.value as MethodSpec["kind"]
  const open = isOp(part[k + 3], "(") ? k + 3 : -1
  const params = open < 0 ? [] : splitTop(part.slice(open + 1, matchParen(part, open))).filter((p) => !(p[0] !== undefined && identName(p[0]) === "SELF"))
  return { name: identName(part[k + 2]!), kind, isFunction: isKw(part[k + 1], "FUNCTION"), arity: params.length, ...(comparison === undefined ? {} : { comparison }), ...(notInstantiable ? { notInstantiable: true as const } : {}) }
}

/** The named types of one database. */
export class NamedTypes {
  private readonly types = new Map<string, NamedType>(PUBLIC_TYPES.map((t) => [`${t.schema}.${t.name}`, t]))

  /** Resolves a type name as seen from `schema`: its own types, then the public synonyms. */
  lookup(schema: string, owner: string | undefined, name: string): NamedType | undefined {
    if (owner !== undefined) return this.types.get(`${owner}.${name}`)
    return this.types.get(`${schema}.${name}`) ?? PUBLIC_TYPES.find((t) => t.name === name)
  }

  /** Every type, in creation order. */
  all(): Array<NamedType> {
    return [...this.types.values()]
  }

  /** Whether any type (visible or not) has this simple name: a cheap test before rewriting SQL. */
  hasName(name: string): boolean {
    for (const t of this.types.values()) if (t.name === name) return true
    return false
  }

  /** CREATE [OR REPLACE] TYPE name [FORCE] AS|IS OBJECT (...) [NOT FINAL] | UNDER t (...) | VARRAY(n) OF t | VARYING ARRAY(n) OF t | TABLE OF t. */
  create(schema: string, toks: ReadonlyArray<Tok>, at: number, orReplace: boolean, columnUses: (t: NamedType) => boolean): void {
    const sig = toks.filter((t) => t.kind !== "ws")
    let k = sig.indexOf(toks[at]!)
    const first = sig[k]
    if (first === undefined || (first.kind !== "ident" && first.kind !== "qident")) throw new OraError(902, "invalid datatype")
    let owner = schema
    let name = identName(first)
    if (isOp(sig[k + 1], ".")) {
      owner = name
      name = identName(sig[k + 2]!)
      k += 2
    }
    k++
    if (isKw(sig[k], "FORCE")) k++
    const under = isKw(sig[k], "UNDER") ? underClause(sig, k, (o, n) => this.lookup(schema, o, n)) : undefined
    if (under === undefined && !isKw(sig[k], "AS", "IS")) throw compilationError()
    k = under?.listAt ?? k + 1
    const key = `${owner}.${name}`
    const existing = this.types.get(key)
    if (existing !== undefined && (!orReplace || PUBLIC_TYPES.includes(existing))) throw new OraError(955, "name is already used by an existing object")
    if (existing !== undefined && (columnUses(existing) || this.hasTypeDependents(existing)))
      throw new OraError(2303, "cannot drop or replace a type with type or table dependents")
    const oid = existing?.oid ?? crypto.randomBytes(16)
    let type: NamedType
    if (under !== undefined || isKw(sig[k], "OBJECT")) {
      if (!isOp(sig[k + 1], "(")) throw compilationError()
      const close = matchParen(sig, k + 1)
      const attributes: Array<Attribute> = [...(under?.parent.attributes ?? [])]
      const methods: Array<MethodSpec> = []
      for (const part of splitTop(sig.slice(k + 2, close))) {
        const method = methodSpec(part)
        if (method !== undefined) {
          methods.push(method)
          continue
        }
        const attrName = part[0]
        if (attrName === undefined || (attrName.kind !== "ident" && attrName.kind !== "qident")) throw compilationError()
        if (attributes.some((a) => a.name === identName(attrName))) throw compilationError()
        attributes.push({ name: identName(attrName), member: this.member(schema, part.slice(1)) })
      }
      if (attributes.length === 0) throw compilationError()
      const inheritance = inheritanceOf(sig, close, under?.parent, methods, this.all())
      type = { schema: owner, name, oid, kind: "object", attributes, element: undefined, limit: 0, ...(methods.length > 0 ? { methods } : {}), ...inheritance }
    } else if (isKw(sig[k], "VARRAY") || (isKw(sig[k], "VARYING") && isKw(sig[k + 1], "ARRAY"))) {
      if (isKw(sig[k], "VARYING")) k++
      if (!isOp(sig[k + 1], "(") || sig[k + 2]?.kind !== "num" || !isOp(sig[k + 3], ")") || !isKw(sig[k + 4], "OF")) throw compilationError()
      const limit = Number(sig[k + 2]!.value)
      type = { schema: owner, name, oid, kind: "varray", attributes: [], element: this.member(schema, stripNotNull(sig.slice(k + 5))), limit }
    } else if (isKw(sig[k], "TABLE") && isKw(sig[k + 1], "OF")) {
      type = { schema: owner, name, oid, kind: "table", attributes: [], element: this.member(schema, stripNotNull(sig.slice(k + 2))), limit: 0 }
    } else throw compilationError()
    this.types.set(key, register(type))
  }

  /** DROP TYPE name [FORCE]. */
  drop(schema: string, toks: ReadonlyArray<Tok>, at: number, columnUses: (t: NamedType) => boolean): void {
    const sig = toks.filter((t) => t.kind !== "ws")
    const k = sig.indexOf(toks[at]!)
    const qualified = isOp(sig[k + 1], ".")
    const owner = qualified ? identName(sig[k]!) : schema
    const name = identName(sig[qualified ? k + 2 : k]!)
    const type = this.types.get(`${owner}.${name}`)
    if (type === undefined || PUBLIC_TYPES.includes(type)) throw new OraError(4043, `object ${name} does not exist`)
    const force = isKw(sig[qualified ? k + 3 : k + 1], "FORCE")
    if (!force && (this.hasTypeDependents(type) || columnUses(type))) throw new OraError(2303, "cannot drop or replace a type with type or table dependents")
    this.types.delete(`${owner}.${name}`)
  }

  /** Whether another type has an attribute or element of type `type`. */
  private hasTypeDependents(type: NamedType): boolean {
    return [...this.types.values()].some((t) => t !== type && (t.supertype === type || [...t.attributes.map((a) => a.member), ...(t.element ? [t.element] : [])].some((m) => "named" in m && m.named === type)))
  }

  private member(schema: string, typeToks: ReadonlyArray<Tok>): Member {
    // a negative scale's sign joined to its digits (`NUMBER(4, -2)`)
    const text = typeToks.map((t) => t.text).join(" ").replace(/-\s+(?=\d)/g, "-")
    const scalar = parseOracleType(text)
    if (scalar !== undefined) {
      if (!supportedMember(scalar)) throw new OraError(22800, `invalid user-defined type: ${scalar.dictName} attributes are not supported by the test server`)
      return { scalar }
    }
    const named = this.resolveTokens(schema, typeToks)
    if (named === undefined) throw new OraError(902, "invalid datatype")
    if (named.kind === "xmltype") throw new OraError(22800, "invalid user-defined type: XMLTYPE attributes are not supported by the test server")
    return { named }
  }

  private resolveTokens(schema: string, typeToks: ReadonlyArray<Tok>): NamedType | undefined {
    const sig = typeToks.filter((t) => t.kind !== "ws")
    if (sig.length === 1 && (sig[0]!.kind === "ident" || sig[0]!.kind === "qident")) return this.lookup(schema, undefined, identName(sig[0]!))
    if (sig.length === 3 && isOp(sig[1], ".")) return this.lookup(schema, identName(sig[0]!), identName(sig[2]!))
    return undefined
  }

  /** The type a type name used in CREATE TABLE names, or undefined when it names none. */
  named(schema: string, typeText: string): NamedType | undefined {
    return this.resolveTokens(schema, tokenize(typeText))
  }

  /** The column type of a type name used in CREATE TABLE, or undefined when it names no type. */
  columnType(schema: string, typeText: string): OraType | undefined {
    const named = this.resolveTokens(schema, tokenize(typeText))
    return named === undefined ? undefined : namedColumnType(named)
  }

  /**
   * Rewrites constructor calls (`TYPE(args)`, `SCHEMA.TYPE(args)`) into the JSON text of their value tree,
   * `concat('[', ora_json_item(arg), ',', ..., ']')`, and `XMLTYPE(x)` into `(x)`. A nested constructor's text goes in
   * as it is: DuckDB's JSON functions would parse it again and read its numbers as doubles.
   */
  rewriteConstructors(schema: string, toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> {
    if (!toks.some((t) => (t.kind === "ident" || t.kind === "qident") && this.hasName(t.value))) return toks
    return this.rewrite(schema, toks, false)
  }

  /** The constructor call starting at token `i`: its type and the index of its opening parenthesis. */
  private constructorAt(schema: string, toks: ReadonlyArray<Tok>, i: number, prev: Tok | undefined): { type: NamedType; open: number } | undefined {
    const t = toks[i]
    if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) return undefined
    let j = i + 1
    let owner: string | undefined
    let name = identName(t)
    if (isOp(toks[j], ".") && (toks[j + 1]?.kind === "ident" || toks[j + 1]?.kind === "qident")) {
      owner = name
      name = identName(toks[j + 1]!)
      j += 2
    }
    while (toks[j]?.kind === "ws") j++
    // `UNDER t (attrs)` of CREATE TYPE names a supertype, no constructor
    const type = isOp(toks[j], "(") && !isOp(prev, ".") && !isKw(prev, "UNDER") ? this.lookup(schema, owner, name) : undefined
    return type === undefined ? undefined : { type, open: j }
  }

  private rewrite(schema: string, toks: ReadonlyArray<Tok>, inConstructor: boolean): Array<Tok> {
    const out: Array<Tok> = []
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i]!
      if (t.kind !== "ident" && t.kind !== "qident") {
        out.push(t)
        continue
      }
      // RAW attributes are held as hex text, so HEXTORAW inside a constructor keeps its argument's text
      if (t.value === "HEXTORAW" && inConstructor) {
        out.push({ kind: "ident", text: "upper", value: "UPPER", pos: t.pos })
        continue
      }
      const call = this.constructorAt(schema, toks, i, out.filter((x) => x.kind !== "ws").at(-1))
      if (call === undefined) {
        out.push(t)
        continue
      }
      const { type, open } = call
      checkArguments(type, toks, open)
      if (type.kind === "xmltype") {
        out.push({ kind: "ident", text: "", value: "", pos: t.pos, heading: t.heading ?? t.text.toUpperCase(), constructs: type } as ConstructorTok)
        i = open - 1
        continue
      }
      const close = matchParen(toks, open)
      if (close < 0) throw new OraError(907, "missing right parenthesis")
      const at = (kind: Tok["kind"], text: string): Tok => ({ kind, text, value: kind === "str" ? text.slice(1, -1) : text.toUpperCase(), pos: t.pos })
      // `type(args).attribute[.attribute...]`: the attribute of the object constructed
      const chain = type.kind === "object" ? attributeChainAt(toks, close) : undefined
      const [start, from] = [out.length, i]
      out.push({ ...at("ident", "concat"), constructs: type } as ConstructorTok, at("op", "("), at("str", "'['"))
      splitTop(toks.slice(open + 1, close)).forEach((arg, k) => {
        if (k > 0) out.push(at("op", ","), at("str", "','"))
        out.push(at("op", ","))
        const sig = arg.filter((x) => x.kind !== "ws")
        const nested = this.constructorAt(schema, sig, 0, undefined)
        const whole = nested !== undefined && nested.type.kind !== "xmltype" && matchParen(sig, nested.open) === sig.length - 1
        if (whole) out.push(...this.rewrite(schema, arg, true))
        else out.push(...constructorArgument(memberAt(type, k), this.rewrite(schema, arg, true), t.pos, type.kind === "object" ? type.attributes[k]?.name : undefined))
      })
      // an instance of a hierarchy's type ends with the element naming its type (type-inheritance.ts typeTag)
      out.push(at("op", ","), at("str", inHierarchy(type) ? `',${typeTag(type)}]'` : "']'"), at("op", ")"))
      i = close
      // an unaliased item is headed by the call as written (`NUMTAB(1,2)`), not by the engine text it became
      const heading = chain === undefined ? headingOf(toks.slice(from, close + 1).filter((x) => x.kind !== "ws")) : undefined
      if (heading !== undefined) for (let k = start; k < out.length; k++) out[k] = { ...out[k]!, heading: k === start ? heading : "" }
      if (chain !== undefined) {
        const value = out.splice(start).map((x, k) => (k === 0 ? { ...x, constructs: undefined } : x))
        const heading = headingOf(toks.slice(from, chain.end + 1).filter((x) => x.kind !== "ws"))
        const ref = chain.names.map((x) => `"${x.value}"`).join(".")
        out.push(...attributeExtraction(type, chain.names, ref, value, t.pos, heading))
        i = chain.end
      }
    }
    return out
  }
}

/** DuckDB macros of constructor calls: one argument's JSON text (`null` for NULL). */
export const NAMED_VALUE_MACROS: ReadonlyArray<string> = [
  `ora_json_item(x) AS coalesce(CAST(to_json(x) AS VARCHAR), 'null')`,
  // an object or collection argument: its stored (JSON) text as it is
  `ora_object_json(x) AS coalesce(CAST(x AS VARCHAR), 'null')`,
  // a VARCHAR2 / NVARCHAR2 attribute's value, refused when longer than its size (bytes, or characters when national)
  `ora_attribute_text(x, maxlen, isnational, attr) AS CASE WHEN x IS NULL OR (CASE WHEN isnational THEN length(x) ELSE strlen(x) END) <= maxlen THEN x
    ELSE error(concat('ORA-12899: value too large for column ', attr, ' (actual: ', CASE WHEN isnational THEN length(x) ELSE strlen(x) END, ', maximum: ', maxlen, ')')) END`,
  // a CHAR / NCHAR attribute's or column's value blank-padded to its size (bytes, or characters when national or
  // declared `n CHAR`); a longer value is left as it is, for the length check to refuse (char-writes.ts)
  `ora_attribute_char(x, size, isnational) AS CASE WHEN x IS NULL THEN x ELSE x || repeat(' ', CAST(greatest(0, size - CASE WHEN isnational THEN length(x) ELSE strlen(x) END) AS BIGINT)) END`
]

/** The token a constructor call's name becomes, remembering the type it constructs (for describing select items). */
interface ConstructorTok extends Tok {
  readonly constructs: NamedType
}

/** The attribute (object) or element (collection) type argument `k` of a constructor call goes into. */
const memberAt = (type: NamedType, k: number): Member | undefined => (type.kind === "object" ? type.attributes[k]?.member : type.element)

/** Refuses constructor calls Oracle refuses: of a NOT INSTANTIABLE type (ORA-22826), a wrong number of attributes, more elements than a VARRAY's limit. */
const checkArguments = (type: NamedType, toks: ReadonlyArray<Tok>, open: number): void => {
  if (type.notInstantiable === true) throw notInstantiable()
  const close = matchParen(toks, open)
  const count = splitTop(toks.slice(open + 1, close < 0 ? toks.length : close)).length
  if ((type.kind === "object" && count !== type.attributes.length) || (type.kind === "xmltype" && count !== 1)) throw ora2()
  if (type.kind === "varray" && type.limit > 0 && count > type.limit) throw new OraError(22909, "exceeded maximum VARRAY limit")
}

/**
 * The column type of a select item that is one constructor call (`point_t(1, 2) [AS] [alias]`), described as the
 * named type it constructs, as Oracle does, or a call a rewrite marked `describedAs` a type (a REF: object-references.ts).
 */
export const constructedType = (item: ReadonlyArray<Tok>): OraType | undefined => {
  const part = item.filter((t) => t.kind !== "ws")
  const call = part[0] as (Partial<ConstructorTok> & { readonly describedAs?: OraType }) | undefined
  if ((call?.constructs === undefined && call?.describedAs === undefined) || !isOp(part[1], "(")) return undefined
  let k = matchParen(part, 1) + 1
  if (k === 0) return undefined
  if (isKw(part[k], "AS")) k++
  if (k < part.length - 1 || (k === part.length - 1 && part[k]!.kind !== "ident" && part[k]!.kind !== "qident")) return undefined
  return call.describedAs ?? namedColumnType(call.constructs!)
}

/** A type specification Oracle would compile with errors (the type is then unusable); here it is not created. */
const compilationError = () => new OraError(24344, "success with compilation error")
const ora2 = () => new OraError(2315, "incorrect number of arguments for default constructor")
const identName = (t: Tok): string => (t.kind === "qident" ? t.value : t.value.toUpperCase())
const stripNotNull = (toks: ReadonlyArray<Tok>) => {
  const k = toks.findIndex((t) => isKw(t, "NOT"))
  return k >= 0 && isKw(toks[k + 1], "NULL") ? toks.slice(0, k) : toks
}

/** Top-level comma-separated parts that hold more than blanks. */
const splitTop = (toks: ReadonlyArray<Tok>): Array<Array<Tok>> => splitTopLevel(toks).filter((p) => p.some((t) => t.kind !== "ws"))

const databases = new WeakMap<object, NamedTypes>()

/** The named types of a database. */
export const namedTypesOf = (db: object): NamedTypes => {
  let n = databases.get(db)
  if (n === undefined) {
    n = new NamedTypes()
    databases.set(db, n)
  }
  return n
}

/** The column type of the OBJECT type `name` names in `schema` of `db` (what its constructor builds), if any. */
export const objectColumnTypeOf = (db: object, schema: string) => (name: string): OraType | undefined => {
  const type = namedTypesOf(db).lookup(schema, undefined, name)
  return type?.kind === "object" ? namedColumnType(type) : undefined
}

/** The column type of a named type: data type code 109 (internal named type), stored as VARCHAR. */
export const namedColumnType = (named: NamedType): OraType => ({
  kind: "object",
  dty: Dty.INT_NAMED,
  csfrm: 0,
  maxSize: 2000,
  charSize: 0,
  precision: 0,
  scale: 0,
  dictName: named.name,
  dictPrecision: null,
  dictScale: null,
  duck: "VARCHAR",
  named
})

// ------------------------------------------------------------------------------------------------ values

/**
 * Writes a stored named-type value (or NULL) as a column value; TIMESTAMP WITH LOCAL TIME ZONE attributes in the
 * database time zone (`dbTzOffsetMinutes` east of UTC).
 */
export const writeNamedValue = (w: WriteBuffer, t: NamedType, stored: string | null, dbTzOffsetMinutes: number): void => {
  if (stored === null) return writeDbObject(w, t, null)
  if (t.kind === "xmltype") return writeDbObject(w, t, xmlImage(stored))
  const value = fromExtendedJson(stored)
  if (value.kind === "null") return writeDbObject(w, t, null)
  const sent = sentType(t, value, typesByOid.values())
  writeDbObject(w, sent, packImage(sent, value, dbTzOffsetMinutes))
}

/** Writes an OUT bind value of the named type the bind's metadata names (by OID). */
export const writeNamedOutValue = (w: WriteBuffer, spec: BindSpec, stored: string | null, dbTzOffsetMinutes: number): void => {
  const type = spec.oid === undefined ? undefined : typesByOid.get(spec.oid.toString("hex"))
  if (type === undefined) throw new OraError(22303, "type not found")
  writeNamedValue(w, type, stored, dbTzOffsetMinutes)
}

/** Reads a named-type bind value (writeDbObject layout) into its stored text (bound-object-text.ts); null for an atomically null value. */
export const readNamedBind = (r: ReadBuffer, dbTzOffsetMinutes: number): DuckDBValue => {
  const toid = r.ub() > 0 ? r.bytesWithLength() : null
  if (r.ub() > 0) r.bytesWithLength() // OID
  if (r.ub() > 0) r.bytesWithLength() // snapshot
  r.ub() // version
  const length = r.ub()
  r.ub() // flags
  const image = length > 0 ? r.bytesWithLength() : null
  if (image === null || toid === null) return null
  const type = typesByOid.get(Buffer.from(toid).subarray(4, 20).toString("hex"))
  if (type === undefined) throw new OraError(22303, "type not found")
  return boundObjectText(type, image, dbTzOffsetMinutes)
}

// ------------------------------------------------------------------------------------------------ type description

/** The attribute cursor of get_type_shape: one row per attribute (none for collections). */
const ATTRIBUTE_COLUMNS: ReadonlyArray<ResultColumn> = [
  { name: "ATTR_NO", type: NUMBER, nullable: true },
  { name: "ATTR_NAME", type: charType("VARCHAR2", 128), nullable: true },
  { name: "ATTR_TYPE_MOD", type: charType("VARCHAR2", 7), nullable: true },
  { name: "ATTR_TYPE_NAME", type: charType("VARCHAR2", 128), nullable: true },
  { name: "ATTR_TYPE_OWNER", type: charType("VARCHAR2", 128), nullable: true },
  { name: "ATTR_TYPE_PACKAGE", type: charType("VARCHAR2", 128), nullable: true },
  { name: "ATTR_TYPE_OID", type: rawType(16), nullable: true }
]

/** The type name node-oracledb maps back to a type (lib/types.js column type names). */
const attributeTypeName = (t: OraType): string => {
  switch (t.kind) {
    case "timestamp":
      return "TIMESTAMP"
    case "timestamptz":
      return "TIMESTAMP WITH TIME ZONE"
    case "timestampltz":
      return "TIMESTAMP WITH LOCAL TIME ZONE"
    default:
      return t.dictName
  }
}

const sqlText = (v: string | null) => (v === null ? "CAST(NULL AS VARCHAR)" : sqlString(v))

/**
 * Answers the anonymous block node-oracledb thin runs to describe a type (lib/thin/connection.js
 * _populateDbObjectTypeInfo: `:ret_val := dbms_pickler.get_type_shape(:full_name, :oid, :version, :tds, ...,
 * :attrs_rc, ...)` followed by lookups of the owner and name in ALL_TYPES), or returns undefined for any other block.
 */
export const describeTypeBlock = async (
  types: NamedTypes,
  schema: string,
  engine: EngineSession,
  sql: string,
  params: ReadonlyArray<DuckDBValue>,
  /** A package's record or collection type by the name's parts (plsql/package-type-binds.ts). */
  packageType: (parts: ReadonlyArray<string>) => { readonly type: NamedType; readonly packageName: string } | undefined = () => undefined
): Promise<PlsqlResult | undefined> => {
  if (!/dbms_pickler\s*\.\s*get_type_shape/i.test(sql)) return undefined
  // PL/SQL binds are sent once per distinct name, in order of first appearance (lib/thin/statement.js)
  const names: Array<string> = []
  for (const m of sql.matchAll(/:\s*([A-Za-z][\w$#]*)/g)) if (!names.includes(m[1]!.toLowerCase())) names.push(m[1]!.toLowerCase())
  const fullName = String(params[names.indexOf("full_name")] ?? "")
  const parts = nameParts(fullName)
  // a package's type, or a table's %ROWTYPE (`"OWNER"."T"%ROWTYPE`, `T%ROWTYPE`), which no CREATE TYPE made
  const rowtype = /%ROWTYPE$/i.test(fullName)
  const packaged = rowtype || parts.length === 3 || (parts.length === 2 && types.lookup(schema, parts[0], parts[1]!) === undefined) ? packageType(parts) : undefined
  const type = packaged?.type ?? resolveFullName(types, schema, fullName)
  const rows = type === undefined || type.kind !== "object" ? [] : type.attributes
  const select =
    rows.length === 0
      ? `SELECT ${ATTRIBUTE_COLUMNS.map((c, i) => `CAST(NULL AS ${i === 0 ? "INTEGER" : i === 6 ? "BLOB" : "VARCHAR"}) AS "${c.name}"`).join(", ")} WHERE false`
      : rows
          .map((a, i) => {
            const named = "named" in a.member ? a.member.named : undefined
            const cells = [
              String(i + 1),
              sqlText(a.name),
              sqlText(null),
              sqlText(named !== undefined ? named.name : attributeTypeName((a.member as { scalar: OraType }).scalar)),
              sqlText(named?.schema ?? null),
              sqlText(named === undefined ? null : (packageOfType.get(named) ?? null)),
              named === undefined ? "CAST(NULL AS BLOB)" : `unhex('${named.oid.toString("hex")}')`
            ]
            return `SELECT ${cells.map((c, k) => `${c} AS "${ATTRIBUTE_COLUMNS[k]!.name}"`).join(", ")}`
          })
          .join(" UNION ALL ")
  const attrs: QueryResult = { kind: "query", columns: [...ATTRIBUTE_COLUMNS], cursor: await engine.query(`SELECT * FROM (${select}) ORDER BY 1`) }
  // RAW OUT values are written from their bytes (params.ts writeOutValue)
  const raw = (b: Buffer) => b as unknown as DuckDBValue
  const values: Record<string, DuckDBValue | QueryResult> = {
    full_name: fullName,
    ret_val: type === undefined ? 1 : 0,
    oid: type === undefined ? null : raw(type.oid),
    version: 1,
    tds: type === undefined ? null : raw(typeDescriptor(type)),
    attrs_rc: attrs,
    package_name: rowtype ? null : (packaged?.packageName ?? null),
    schema: type?.schema ?? null,
    name: type?.name ?? null
  }
  return {
    kind: "plsql",
    directions: names.map((n) => (n === "full_name" ? 48 : 16)),
    values: names.map((n) => values[n] ?? null),
    implicit: []
  }
}

/** The parts of a dotted type name, quoted ones as written, others upper-cased. */
const nameParts = (fullName: string): Array<string> => [...fullName.matchAll(/"([^"]*)"|([^."]+)/g)].map((m) => (m[1] !== undefined ? m[1] : m[2]!.trim().toUpperCase()))

/** `"SCHEMA"."NAME"`, `SCHEMA.NAME` or `NAME` (current schema, then public synonyms). */
const resolveFullName = (types: NamedTypes, schema: string, fullName: string): NamedType | undefined => {
  const parts = nameParts(fullName)
  if (parts.length === 1) return types.lookup(schema, undefined, parts[0]!)
  if (parts.length === 2) return types.lookup(schema, parts[0], parts[1]!)
  return undefined
}
