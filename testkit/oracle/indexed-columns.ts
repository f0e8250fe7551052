/**
 * The columns of a table that a DuckDB index covers: those of its primary key, unique and foreign key constraints
 * (DuckDB indexes a foreign key's referencing columns too) and of its CREATE [UNIQUE] INDEX keys, a function-based
 * key's columns included. DuckDB (1.5) writes an UPDATE assigning such a column, even its own value, as a delete and
 * an insert: the row gets a new row id (in-place-updates.ts leaves such a column out of a row's write when its value
 * stays).
 */
import type { Catalog, ObjectMeta, TableMeta } from "./catalog.ts"
import { indexedTableOwner } from "./catalog.ts"
import { tokenize } from "./lexer.ts"

/** The catalog's indexes by table (`OWNER\0NAME`), rebuilt when the catalog changed. */
const indexesByTable = new WeakMap<Catalog, { readonly version: number; readonly tables: Map<string, Array<ObjectMeta>> }>()

const indexesOf = (catalog: Catalog, meta: TableMeta): ReadonlyArray<ObjectMeta> => {
  let known = indexesByTable.get(catalog)
  if (known === undefined || known.version !== catalog.version) {
    const tables = new Map<string, Array<ObjectMeta>>()
    for (const o of catalog.allObjects()) {
      if (o.type !== "INDEX" || o.tableName === undefined) continue
      const key = `${indexedTableOwner(o)}\u0000${o.tableName}`
      tables.set(key, [...(tables.get(key) ?? []), o])
    }
    known = { version: catalog.version, tables }
    indexesByTable.set(catalog, known)
  }
  return known.tables.get(`${meta.owner}\u0000${meta.name}`) ?? []
}

/**
 * The columns (Oracle names) of `meta` some DuckDB index covers; a function-based index key counts every column whose
 * name it mentions (matched without regard to case: one column too many only writes a row as the engine would).
 */
export const indexedColumns = (catalog: Catalog, meta: TableMeta | undefined): ReadonlyArray<string> => {
  if (meta === undefined || meta.kind !== "TABLE") return []
  const out = new Set(meta.constraints.filter((c) => c.type !== "C").flatMap((c) => c.columns))
  const byUpper = new Map(meta.columns.map((c) => [c.name.toUpperCase(), c.name]))
  for (const index of indexesOf(catalog, meta))
    for (const key of index.indexColumns ?? []) {
      if (meta.columns.some((c) => c.name === key.name)) out.add(key.name)
      else
        for (const t of tokenize(key.name)) {
          const column = t.kind === "ident" || t.kind === "qident" ? byUpper.get(t.value.toUpperCase()) : undefined
          if (column !== undefined) out.add(column)
        }
    }
  return [...out]
}
