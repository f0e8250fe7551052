/**
 * The data dictionary views of named types (ALL_ / USER_ / DBA_TYPES, TYPE_ATTRS, COLL_TYPES): their columns and the
 * rows a database's types (named-types.ts) give them.
 */
import type { Member, NamedType } from "./type-shapes.ts"
import { charType, numberType, rawType, type OraType } from "./types.ts"

const NUMBER = numberType()
const dictColumn = (name: string, type: OraType): { name: string; type: OraType; nullable: boolean; defaultText: null } => ({ name, type, nullable: true, defaultText: null })
const v128 = charType("VARCHAR2", 128)

/**
 * ALL_TYPES, ALL_TYPE_ATTRS and ALL_COLL_TYPES (a subset of each view's columns, named as in the Oracle Database
 * Reference); node-oracledb thin reads ALL_COLL_TYPES to learn the element type of a collection of objects
 * (lib/thin/connection.js _getElementTypeObj).
 */
export const typeDictionaryShapes = {
  ALL_TYPES: [
    dictColumn("OWNER", v128),
    dictColumn("TYPE_NAME", v128),
    dictColumn("TYPE_OID", rawType(16)),
    dictColumn("TYPECODE", v128),
    dictColumn("ATTRIBUTES", NUMBER),
    dictColumn("METHODS", NUMBER),
    dictColumn("PREDEFINED", charType("VARCHAR2", 3)),
    dictColumn("INCOMPLETE", charType("VARCHAR2", 3)),
    dictColumn("FINAL", charType("VARCHAR2", 3)),
    dictColumn("INSTANTIABLE", charType("VARCHAR2", 3)),
    dictColumn("SUPERTYPE_OWNER", v128),
    dictColumn("SUPERTYPE_NAME", v128)
  ],
  ALL_TYPE_ATTRS: [
    dictColumn("OWNER", v128),
    dictColumn("TYPE_NAME", v128),
    dictColumn("ATTR_NAME", v128),
    dictColumn("ATTR_TYPE_MOD", charType("VARCHAR2", 7)),
    dictColumn("ATTR_TYPE_OWNER", v128),
    dictColumn("ATTR_TYPE_NAME", v128),
    dictColumn("LENGTH", NUMBER),
    dictColumn("PRECISION", NUMBER),
    dictColumn("SCALE", NUMBER),
    dictColumn("CHARACTER_SET_NAME", charType("VARCHAR2", 44)),
    dictColumn("ATTR_NO", NUMBER),
    dictColumn("INHERITED", charType("VARCHAR2", 3))
  ],
  ALL_COLL_TYPES: [
    dictColumn("OWNER", v128),
    dictColumn("TYPE_NAME", v128),
    dictColumn("COLL_TYPE", v128),
    dictColumn("UPPER_BOUND", NUMBER),
    dictColumn("ELEM_TYPE_MOD", charType("VARCHAR2", 7)),
    dictColumn("ELEM_TYPE_OWNER", v128),
    dictColumn("ELEM_TYPE_NAME", v128),
    dictColumn("LENGTH", NUMBER),
    dictColumn("PRECISION", NUMBER),
    dictColumn("SCALE", NUMBER),
    dictColumn("CHARACTER_SET_NAME", charType("VARCHAR2", 44)),
    dictColumn("ELEM_STORAGE", charType("VARCHAR2", 7)),
    dictColumn("NULLS_STORED", charType("VARCHAR2", 3))
  ],
  // the collection types packages declare (a subset of the view's columns, Oracle Database Reference,
  // "ALL_PLSQL_COLL_TYPES"), read by node-oracledb thin for a package collection of records or objects
  ALL_PLSQL_COLL_TYPES: [
    dictColumn("OWNER", v128),
    dictColumn("PACKAGE_NAME", v128),
    dictColumn("TYPE_NAME", v128),
    dictColumn("COLL_TYPE", v128),
    dictColumn("UPPER_BOUND", NUMBER),
    dictColumn("ELEM_TYPE_OWNER", v128),
    dictColumn("ELEM_TYPE_NAME", v128),
    dictColumn("ELEM_TYPE_PACKAGE", v128),
    dictColumn("INDEX_BY", v128)
  ]
}

/** A RAW value as DuckDB BLOB literal text. */
const blobText = (b: Buffer) => [...b].map((x) => `\\x${x.toString(16).padStart(2, "0").toUpperCase()}`).join("")

/** Type name, owner, length, precision, scale and character set of an attribute or element, as the views show them. */
const memberRow = (m: Member): [string | null, string, number | null, number | null, number | null, string | null] => {
  if ("named" in m) return [m.named.schema, m.named.name, null, null, null, null]
  const t = m.scalar
  const chars = t.kind === "varchar" || t.kind === "nvarchar"
  return [
    null,
    t.kind === "number" && t.dictName !== "FLOAT" ? "NUMBER" : t.dictName,
    chars || t.kind === "raw" ? t.charSize : null,
    t.dictPrecision,
    t.kind.startsWith("timestamp") ? t.scale : t.dictScale,
    chars ? (t.csfrm === 2 ? "NCHAR_CS" : "CHAR_CS") : null
  ]
}

/** Rows of the type views, by view name (`types`: the schema types, named-types.ts; `packaged`: the package types described so far). */
export const typeDictionaryRows = (
  types: { all(): ReadonlyArray<NamedType> },
  packaged: ReadonlyArray<{ readonly type: NamedType; readonly packageName: string }> = [],
  packageOf: (t: NamedType) => string | undefined = () => undefined
): ReadonlyArray<readonly [string, Array<Array<unknown>>]> => {
  const all = types.all()
  return [
    [
      "ALL_PLSQL_COLL_TYPES",
      packaged
        .filter((p) => p.type.element !== undefined)
        .map(({ type: t, packageName }) => {
          const [owner, name] = memberRow(t.element!)
          const element = "named" in t.element! ? t.element.named : undefined
          const kind = t.indexed === true ? "PL/SQL INDEX TABLE" : t.kind === "varray" ? "VARYING ARRAY" : "TABLE"
          return [t.schema, packageName, t.name, kind, t.kind === "varray" ? t.limit : null, owner, name, element === undefined ? null : (packageOf(element) ?? null), t.indexed === true ? "PLS_INTEGER" : null]
        })
    ],
    [
      "ALL_TYPES",
      all.map((t) => [
        t.schema,
        t.name,
        blobText(t.oid),
        t.kind === "object" ? "OBJECT" : t.kind === "xmltype" ? "OBJECT" : "COLLECTION",
        t.attributes.length,
        0,
        t.kind === "xmltype" ? "YES" : "NO",
        "NO",
        t.notFinal === true ? "NO" : "YES",
        t.notInstantiable === true ? "NO" : "YES",
        t.supertype?.schema ?? null,
        t.supertype?.name ?? null
      ])
    ],
    [
      "ALL_TYPE_ATTRS",
      all.flatMap((t) =>
        t.attributes.map((a, i) => {
          const [owner, name, length, precision, scale, cs] = memberRow(a.member)
          return [t.schema, t.name, a.name, null, owner, name, length, precision, scale, cs, i + 1, "NO"]
        })
      )
    ],
    [
      "ALL_COLL_TYPES",
      all
        .filter((t) => t.element !== undefined)
        .map((t) => {
          const [owner, name, length, precision, scale, cs] = memberRow(t.element!)
          return [t.schema, t.name, t.kind === "varray" ? "VARYING ARRAY" : "TABLE", t.kind === "varray" ? t.limit : null, null, owner, name, length, precision, scale, cs, "VALUE", "YES"]
        })
    ]
  ]
}
