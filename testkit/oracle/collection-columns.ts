/**
 * `TABLE(alias.column)` in a FROM clause over a nested table or VARRAY column (SQL Language Reference 23ai, "TABLE
 * Collection Expressions": "The collection_expression can be a subquery, a column, a function, or a collection
 * constructor"; it is laterally joined with the FROM items before it, one row per element, `COLUMN_VALUE` for a scalar
 * element type and one column per attribute for an object element type; a NULL or empty collection gives no row).
 * The column holds its collection as JSON text (scalars as JSON values, objects as arrays of attribute values in
 * declared order: named-types.ts), so the expression becomes a JSON_TABLE over it (json-table.ts then rewrites it):
 * `JSON_TABLE(t.col, '$[*]' COLUMNS (COLUMN_VALUE type PATH '$'))`, or `"A" type PATH '$[0]', ...` per attribute.
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, sqlString, tokenize, type Tok } from "./lexer.ts"
import { oracleName } from "./translate.ts"
import type { Member, OraType } from "./type-shapes.ts"
import { quoteDuck } from "./names.ts"

const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))

/** The JSON_TABLE column type that reads an element or attribute of `t` back as that type. */
const columnTypeText = (t: OraType): string => {
  switch (t.kind) {
    case "number":
      return t.dictPrecision !== null ? `NUMBER(${t.dictPrecision}, ${t.dictScale ?? 0})` : "NUMBER"
    case "float":
    case "double":
      return "BINARY_DOUBLE"
    case "date":
      return "DATE"
    case "timestamp":
      return "TIMESTAMP"
    case "varchar":
    case "nvarchar":
      return `VARCHAR2(${Math.max(1, t.charSize)})`
    default:
      return "VARCHAR2(4000)"
  }
}

const scalarOf = (m: Member | undefined, what: string): OraType => {
  if (m === undefined || !("scalar" in m)) throw new OraError(3001, `unimplemented feature: TABLE() over a collection column whose ${what} is an object or collection type`)
  return m.scalar
}

/** The tables the FROM items of `sig` name, by the alias (or name) they are known by in the statement. */
const fromItems = (sig: ReadonlyArray<Tok>, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): Map<string, TableMeta> => {
  const out = new Map<string, TableMeta>()
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (t.kind !== "ident" && t.kind !== "qident") continue
    if (isOp(sig[k - 1], ".")) continue
    const qualified = isOp(sig[k + 1], ".") && (sig[k + 2]?.kind === "ident" || sig[k + 2]?.kind === "qident")
    const meta = qualified ? lookup(oracleName(t), oracleName(sig[k + 2]!)) : lookup(undefined, oracleName(t))
    if (meta === undefined) continue
    const after = sig[qualified ? k + 3 : k + 1]
    const alias = after !== undefined && (after.kind === "ident" || after.kind === "qident") && !isKw(after, "WHERE", "JOIN", "ON", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "GROUP", "ORDER", "UNION", "CONNECT", "START", "SET", "VALUES") ? oracleName(after) : meta.name
    out.set(alias, meta)
  }
  return out
}

/**
 * The column of a `TABLE(c) e` item over objects holding each element whole, type element included, which a call
 * `e.f()` dispatched on the element's most specific type reads (plsql/object-methods.ts); the item has it only when
 * the statement names it.
 */
export const ELEMENT_COLUMN = "ORA$ELEMENT"

/** `toks` with each `TABLE(alias.column)` over a collection column of the statement's tables as a JSON_TABLE. */
export const rewriteCollectionColumns = (toks: ReadonlyArray<Tok>, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && t.value === "TABLE")) return toks
  const sig = toks.filter((t) => t.kind !== "ws")
  let items: Map<string, TableMeta> | undefined
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    let open = k + 1
    while (toks[open]?.kind === "ws") open++
    if (t.kind !== "ident" || t.value !== "TABLE" || !isOp(toks[open], "(") || isOp(out.filter((x) => x.kind !== "ws").at(-1), ".")) {
      out.push(t)
      continue
    }
    const close = matchParen(toks, open)
    const inner = toks.slice(open + 1, close).filter((x) => x.kind !== "ws")
    const named = (x: Tok | undefined) => x?.kind === "ident" || x?.kind === "qident"
    const qualifier = inner.length === 3 && named(inner[0]) && isOp(inner[1], ".") && named(inner[2]) ? oracleName(inner[0]!) : undefined
    const column = inner.length === 3 ? inner[2] : inner.length === 1 && named(inner[0]) ? inner[0] : undefined
    items ??= fromItems(sig, lookup)
    const tables = qualifier !== undefined ? [items.get(qualifier)] : [...items.values()]
    const meta = column === undefined || close < 0 ? undefined : tables.find((m) => m?.columns.some((c) => c.name === oracleName(column)))
    const type = meta?.columns.find((c) => c.name === oracleName(column!))?.type.named
    if (type === undefined || (type.kind !== "table" && type.kind !== "varray")) {
      out.push(t)
      continue
    }
    const element = type.element
    const columns =
      element !== undefined && "named" in element && element.named.kind === "object"
        ? [
            ...element.named.attributes.map((a, i) => `${quoteDuck(a.name)} ${columnTypeText(scalarOf(a.member, `attribute ${a.name}`))} PATH '$[${i}]'`),
            ...(namesElementColumn(toks, close) ? [`"${ELEMENT_COLUMN}" VARCHAR2(32767) FORMAT JSON PATH '$'`] : [])
          ]
        : [`COLUMN_VALUE ${columnTypeText(scalarOf(element, "element type"))} PATH '$'`]
    const source = toks.slice(open + 1, close).map((x) => x.text).join("")
    out.push(...generated(`JSON_TABLE(${source}, ${sqlString("$[*]")} COLUMNS (${columns.join(", ")}))`, t.pos))
    k = close
  }
  return out
}

/** Whether the statement reads the element column (ELEMENT_COLUMN) of the `TABLE(...) alias` item closing at `close`. */
const namesElementColumn = (toks: ReadonlyArray<Tok>, close: number): boolean => {
  let k = close + 1
  while (toks[k]?.kind === "ws") k++
  const alias = toks[k]
  if (alias === undefined || (alias.kind !== "ident" && alias.kind !== "qident")) return false
  const name = oracleName(alias)
  return toks.some((t, j) => t.kind === "qident" && t.value === ELEMENT_COLUMN && isOp(toks[j - 1], ".") && (toks[j - 2]?.kind === "ident" || toks[j - 2]?.kind === "qident") && oracleName(toks[j - 2]!) === name)
}
