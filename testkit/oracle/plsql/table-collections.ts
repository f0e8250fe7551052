/**
 * `TABLE(collection)` in a block's queries (PL/SQL Language Reference 23ai, "Querying a Collection"): each
 * `TABLE(name)` whose name holds a collection becomes an inline query of its elements in subscript order, one row
 * each, bound by value: `COLUMN_VALUE` for a collection of scalars, one column per field for a collection of records.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { isKw, isOp, tokenize, type Tok } from "../lexer.ts"
import type { PlsqlCollection } from "./collections.ts"

/** The fields of a record element, by name; undefined for a scalar. */
export type ElementFields = (element: unknown) => ReadonlyMap<string, DuckDBValue> | undefined

/**
 * `toks` with each `TABLE(name)` over a collection (`resolve`) replaced by the query of its elements, each element
 * value a bind token made by `bind(value)` (the caller keeps the values until the query is rendered); undefined when
 * there is none.
 */
export const inlineTableCollections = (
  toks: ReadonlyArray<Tok>,
  resolve: (name: Tok) => PlsqlCollection<unknown> | null | undefined,
  fieldsOf: ElementFields,
  bind: (value: DuckDBValue) => string
): Array<Tok> | undefined => {
  let out: Array<Tok> | undefined
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const name = toks[k + 2]
    const collection = isKw(t, "TABLE") && isOp(toks[k + 1], "(") && isOp(toks[k + 3], ")") && name !== undefined && !isOp(toks[k - 1], ".") ? resolve(name) : undefined
    if (collection === undefined) {
      out?.push(t)
      continue
    }
    out ??= toks.slice(0, k)
    const values: Array<DuckDBValue> = []
    const param = (v: DuckDBValue) => {
      values.push(v)
      return `:P${values.length}`
    }
    const elements = collection === null ? [] : collection.keys().map((i) => collection.get(i))
    const rows = elements.map((e) => {
      const fields = fieldsOf(e)
      return fields === undefined ? `SELECT ${param(e as DuckDBValue)} AS COLUMN_VALUE FROM dual` : `SELECT ${[...fields].map(([f, v]) => `${param(v)} AS "${f}"`).join(", ")} FROM dual`
    })
    const text = `(${rows.length === 0 ? "SELECT NULL AS COLUMN_VALUE FROM dual WHERE 1 = 0" : rows.join(" UNION ALL ")})`
    let n = 0
    for (const x of tokenize(text)) {
      if (x.kind === "ws") continue
      out.push(x.kind === "bind" ? { ...x, text: ":t", value: bind(values[n++] ?? null), pos: t.pos } : { ...x, pos: t.pos })
    }
    k += 3
  }
  return out
}

