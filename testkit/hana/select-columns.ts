/**
 * The table column behind each result column of a query, as HANA reports it in the result metadata: a plain
 * column item names its table through its qualifier (or the first FROM item that has the column), and a `*` or
 * `q.*` item stands for the columns of every FROM item (or of `q`) in FROM order and column order, each under its
 * own table, so that `SELECT * FROM A JOIN B` reports A's ID under A and B's ID under B.
 */
import type { Session } from "../engine/index.ts"
import { HANA_TYPE } from "./catalog.ts"
import type { FromItem, SelectItemSource } from "./select-items.ts"

/** A table column with its declared HANA type (the column comment, else one made from the DuckDB type). */
export interface SourceColumn {
  readonly schema: string
  readonly table: string
  readonly column: string
  readonly type: string
  readonly nullable: boolean
  /** Read from the optional side of an outer join. */
  readonly optional: boolean
}

/** The columns of each FROM item that is a table (temporary tables first, as DuckDB resolves unqualified names). */
const fromColumns = async (session: Session, items: ReadonlyArray<FromItem | undefined>): Promise<Array<SourceColumn[] | undefined>> => {
  const tables = [...new Set(items.flatMap((i) => (i === undefined ? [] : [i.table])))]
  if (tables.length === 0) return items.map(() => undefined)
  const rows = await session.queryAll(
    `SELECT c.database_name = 'temp', c.schema_name, c.table_name, c.column_name, ${HANA_TYPE}, c.is_nullable, c.schema_name = current_schema()
     FROM duckdb_columns() c WHERE c.table_name IN (${tables.map(() => "?").join(", ")}) ORDER BY c.column_index`,
    tables
  )
  return items.map((item) => {
    if (item === undefined) return undefined
    const mine = rows.filter(([, schema, table]) => table === item.table && (item.schema === undefined || schema === item.schema))
    // Unqualified: a local temporary table, else the current schema's table.
    const chosen = item.schema !== undefined ? mine : mine.some(([temp]) => temp === true) ? mine.filter(([temp]) => temp === true) : mine.filter((r) => r[6] === true)
    return chosen.map(([, schema, table, column, type, nullable]) => ({
      schema: String(schema), table: String(table), column: String(column), type: String(type), nullable: nullable !== false, optional: false
    }))
  })
}

/**
 * The source column of each of `count` result columns (undefined for expressions and what cannot be told), or
 * undefined when the select list does not account for exactly `count` columns.
 */
export const sourceColumns = async (
  session: Session,
  count: number,
  sources: ReadonlyArray<SelectItemSource>,
  items: ReadonlyArray<FromItem | undefined>
): Promise<Array<SourceColumn | undefined> | undefined> => {
  const columns = await fromColumns(session, items)
  const out: Array<SourceColumn | undefined> = []
  for (const source of sources) {
    if (source === undefined) out.push(undefined)
    else if ("star" in source) {
      const picked = source.star === undefined ? columns : columns.filter((_, k) => items[k]?.name === source.star)
      if (picked.length === 0 || picked.some((c) => c === undefined)) return undefined
      const owners = source.star === undefined ? items : items.filter((i) => i?.name === source.star)
      picked.forEach((c, k) => out.push(...c!.map((x) => ({ ...x, optional: owners[k]?.optional === true }))))
    } else {
      const k = source.qualifier === undefined
        ? columns.findIndex((c) => c?.some((x) => x.column === source.column) === true)
        : items.findIndex((i) => i?.name === source.qualifier)
      const found = k < 0 ? undefined : columns[k]?.find((x) => x.column === source.column)
      out.push(found === undefined ? undefined : { ...found, optional: source.optional })
    }
  }
  return out.length === count ? out : undefined
}
