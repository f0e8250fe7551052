/**
 * The comparison key of an object value: the one form every comparison of objects without a MAP or ORDER method reads
 * (`a = b`, MEMBER OF / IS A SET, IN lists and subqueries, DISTINCT, GROUP BY, UNION / INTERSECT / MINUS). Without
 * either method Oracle compares objects attribute by attribute (Object-Relational Developer's Guide, "Comparing
 * Objects"; SQL Language Reference, "Comparison Conditions", "Object Values"), and a TIMESTAMP WITH TIME ZONE
 * attribute as its instant (SQL Language Reference, "Datetime Comparisons" and "TIMESTAMP WITH TIME ZONE Data Type":
 * two values at the same instant in UTC are identical whatever their offsets). An object is stored as the JSON text of
 * its attribute list, each zoned attribute as it was written; its key is that list with each zoned attribute, its own
 * or an object attribute's at any depth (to {@link KEY_DEPTH} object levels), as its instant. Objects whose stored
 * text already compares as Oracle compares them (no zoned attribute, or a MAP or ORDER method deciding) have none.
 */
import { comparisonOf } from "./type-inheritance.ts"
import type { NamedType } from "./type-shapes.ts"

/** How many object levels a key reaches: a zoned attribute deeper down compares as its stored text. */
export const KEY_DEPTH = 10

/**
 * Where an object's zoned attributes are, as the key macros read it (JSON text): `z` the positions (from 1) of its own,
 * `n` the shapes of its object attributes that have some, by position.
 */
interface KeyShape {
  readonly z?: ReadonlyArray<number>
  readonly n?: Readonly<Record<string, KeyShape>>
}

/** The shape of the zoned attributes of objects of `type` within `levels` object levels and how deep it reaches; undefined for none. */
const shapeOf = (type: NamedType, levels: number): { readonly shape: KeyShape; readonly depth: number } | undefined => {
  if (type.kind !== "object" || comparisonOf(type) !== undefined) return undefined
  const z = type.attributes.flatMap((a, k) => ("scalar" in a.member && a.member.scalar.kind === "timestamptz" ? [k + 1] : []))
  const n: Record<string, KeyShape> = {}
  let depth = 1
  if (levels > 1)
    type.attributes.forEach((a, k) => {
      const inner = "named" in a.member ? shapeOf(a.member.named, levels - 1) : undefined
      if (inner === undefined) return
      n[k + 1] = inner.shape
      depth = Math.max(depth, inner.depth + 1)
    })
  const nested = Object.keys(n).length > 0
  if (z.length === 0 && !nested) return undefined
  return { shape: { ...(z.length > 0 ? { z } : {}), ...(nested ? { n } : {}) }, depth }
}

/**
 * An engine expression giving the key of object text `e` (engine text, VARCHAR, named once) of type `type`; undefined
 * when its stored text is its key.
 */
export const objectKey = (type: NamedType, e: string): string | undefined => {
  const found = shapeOf(type, KEY_DEPTH)
  return found === undefined ? undefined : `ora_object_key_${found.depth}(${e}, '${JSON.stringify(found.shape)}')`
}

/** An engine expression giving the keys of the elements of collection text `c` (a JSON array of objects of `type`) as a list; undefined as for {@link objectKey}. */
export const objectKeys = (type: NamedType, c: string): string | undefined => {
  const found = shapeOf(type, KEY_DEPTH)
  return found === undefined ? undefined : `ora_object_keys_${found.depth}(${c}, '${JSON.stringify(found.shape)}')`
}

/** A scalar's text as stored (engine text `e`): a DbObject bind may have stored it as extended JSON (`{"$oracleTimestampTZ": "..."}`). */
export const storedScalarText = (e: string): string => `CASE WHEN starts_with(${e}, '{') THEN regexp_extract(${e}, ':\\s*"([^"]*)"', 1) ELSE ${e} END`

/**
 * A zoned attribute's stored text (engine text `v`) as its instant: microseconds since the epoch (ora_multiset_instant,
 * multiset-conditions.ts), then the three digits of a TIMESTAMP(9)'s fraction past them, which the engine's
 * timestamps do not hold.
 */
const instantKey = (v: string): string => {
  const text = storedScalarText(v)
  return `CAST(epoch_us(ora_multiset_instant(${text})) AS VARCHAR) || '.' || rpad(coalesce(regexp_extract(${text}, '\\.\\d{6}(\\d{1,3})', 1), ''), 3, '0')`
}

/**
 * `ora_object_key_<d>(x, s)`: object text x keyed by shape s (JSON text of a {@link KeyShape}) reaching d levels, each
 * zoned attribute as its instant ({@link instantKey}), each object attribute of `n` by level d - 1;
 * `ora_object_keys_<d>(c, s)` the keys of collection c's elements. Each level's lambda has its own parameter names,
 * which the level below reads through its shape argument.
 */
export const OBJECT_KEY_MACROS: ReadonlyArray<string> = Array.from({ length: KEY_DEPTH }, (_, k) => k + 1).flatMap((d) => {
  const [v, i] = [`ora_kv${d}`, `ora_ki${d}`]
  const inner = `json_extract(s, '$.n."' || ${i} || '"')`
  const nested = d > 1 ? ` WHEN ${inner} IS NOT NULL THEN ora_object_key_${d - 1}(${v}, ${inner})` : ""
  const zoned = `list_contains(from_json(json_extract(s, '$.z'), '["INTEGER"]'), ${i})`
  return [
    `ora_object_key_${d}(x, s) AS CASE WHEN starts_with(x, '[') THEN CAST(list_transform(from_json(x, '["VARCHAR"]'), (${v}, ${i}) -> CASE WHEN ${zoned} THEN ${instantKey(v)}${nested} ELSE ${v} END) AS VARCHAR) ELSE x END`,
    `ora_object_keys_${d}(c, s) AS list_transform(from_json(c, '["VARCHAR"]'), ora_ke -> ora_object_key_${d}(ora_ke, s))`
  ]
})
