/**
 * The shapes of Oracle column types (OraType) and of the named types (OBJECT, collections, XMLType) that columns and
 * attributes may have: the two refer to each other, so they live here, below types.ts (type mapping) and pickle.ts
 * (pickled images), which both use them.
 */

/** How values of a column are encoded on the wire. */
export type ValueKind =
  | "number"
  | "float"
  | "double"
  | "varchar"
  | "nvarchar"
  | "raw"
  | "date"
  | "timestamp"
  | "timestamptz"
  | "timestampltz"
  | "intervalds"
  | "intervalym"
  | "boolean"
  | "clob"
  | "nclob"
  | "blob"
  | "long"
  | "longraw"
  | "json"
  | "rowid"
  | "urowid"
  | "vector"
  | "object"

/** A column type as Oracle declares and describes it. */
export interface OraType {
  readonly kind: ValueKind
  readonly dty: number
  readonly csfrm: number
  /** Byte size sent as the describe max size. */
  readonly maxSize: number
  /** Size in characters (or bytes for byte-semantics types). */
  readonly charSize: number
  /** NUMBER precision, FLOAT binary precision, TIMESTAMP fractional precision (sent in the scale byte). */
  readonly precision: number
  readonly scale: number
  /** DATA_TYPE as the data dictionary shows it. */
  readonly dictName: string
  /** DATA_PRECISION / DATA_SCALE as the dictionary shows them (null when Oracle shows NULL). */
  readonly dictPrecision: number | null
  readonly dictScale: number | null
  /** DuckDB storage type. */
  readonly duck: string
  /** The named type of an OBJECT, collection or XMLType column (named-types.ts). */
  readonly named?: NamedType
  /** A CHAR / VARCHAR2 declared `(n CHAR)`: its size counts characters, not bytes. */
  readonly charSemantics?: true
  /** TIMESTAMP WITH TIME ZONE values all in one known zone (an offset `+05:30` or a region): sent with that zone. */
  readonly zone?: string
}

/** A user-defined or predefined named type. */
export interface NamedType {
  readonly schema: string
  readonly name: string
  /** Type OID (16 bytes). */
  readonly oid: Buffer
  readonly kind: "object" | "varray" | "table" | "xmltype"
  /** Attributes of an OBJECT type, in declared order. */
  readonly attributes: ReadonlyArray<Attribute>
  /** Element type of a collection. */
  readonly element: Member | undefined
  /** VARRAY limit (0 for nested tables). */
  readonly limit: number
  /** A PL/SQL associative array (kind "table", TDS collection code TNS_OBJ_PLSQL_INDEX_TABLE): elements by subscript. */
  readonly indexed?: boolean
  /** The methods an OBJECT type's specification declares (their bodies are a TYPE BODY's: plsql/type-bodies.ts). */
  readonly methods?: ReadonlyArray<MethodSpec>
  /** The supertype of an OBJECT type created `UNDER` it (type-inheritance.ts). */
  readonly supertype?: NamedType
  /** An OBJECT type declared NOT FINAL: subtypes may be created under it. */
  readonly notFinal?: true
  /** An OBJECT type declared NOT INSTANTIABLE: no constructor makes an instance of it (type-inheritance.ts). */
  readonly notInstantiable?: true
  /** The typeid SYS_TYPEID returns for instances of a hierarchy's type (type-inheritance.ts newTypeId). */
  readonly typeId?: string
}

/** A method an OBJECT type declares: `MEMBER | STATIC | CONSTRUCTOR | MAP MEMBER | ORDER MEMBER  FUNCTION | PROCEDURE name`. */
export interface MethodSpec {
  readonly name: string
  readonly kind: "MEMBER" | "STATIC" | "CONSTRUCTOR"
  readonly isFunction: boolean
  /** Its number of parameters (SELF not counted). */
  readonly arity: number
  /** A MAP or ORDER member function: how objects of the type compare. */
  readonly comparison?: "MAP" | "ORDER"
  /** A method declared NOT INSTANTIABLE: no body; a subtype implements it (type-inheritance.ts). */
  readonly notInstantiable?: true
}

/** The type of an attribute or collection element: a built-in type or another named type. */
export type Member = { readonly scalar: OraType } | { readonly named: NamedType }

/** One attribute of an OBJECT type. */
export interface Attribute {
  readonly name: string
  readonly member: Member
}
