/**
 * LOB locators of DML RETURNING INTO: an INSERT, UPDATE or MERGE that returns a LOB column of its table gives the client a
 * locator of that row's LOB, which it may write (node-oracledb documentation, "Using CLOB, NCLOB and BLOB Data": the
 * `INSERT ... VALUES (EMPTY_CLOB()) RETURNING c INTO :lob` idiom, UPDATE likewise; node-oracledb's example
 * https://github.com/oracle/node-oracledb/blob/main/examples/lobinsert2.js). The DML locked the row, so no
 * FOR UPDATE is needed (Oracle SecureFiles and Large Objects Developer's Guide, "LOB Locators").
 *
 * DuckDB's RETURNING has no row id. The rows one INSERT adds are the transaction's newest rows of the table, which
 * have the highest row ids; the rows an UPDATE changed are found after it by the primary key values it returns, or
 * without a primary key by the values of all its columns but the LOBs.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "./catalog.ts"
import { isKw, isOp, splitTopLevel, type Tok } from "./lexer.ts"
import { duckIdent } from "./names.ts"
import type { LobSource } from "./statement.ts"
import { oracleName } from "./translate.ts"

/** How a DML RETURNING LOB columns finds the rows it returned. */
export interface ReturningLobPlan {
  /** Per returned expression: the LOB column of the DML's table it names, else undefined. */
  readonly columns: ReadonlyArray<LobSource | undefined>
  /** DuckDB RETURNING items appended after the statement's own (the key columns of an UPDATE), "" for none. */
  readonly extraReturning: string
  /** The number of appended RETURNING items. */
  readonly extraCount: number
  /** The row ids of the rows one execution returned, given each returned row's appended values. */
  rowIds(query: RowIdQuery, extras: ReadonlyArray<ReadonlyArray<unknown>>): Promise<Array<bigint>>
}

/** Runs DuckDB SQL whose one column is a row id. */
export type RowIdQuery = (sql: string, params: ReadonlyArray<DuckDBValue>) => Promise<Array<bigint>>

/** Whether a RETURNING expression is a plain column (`c` or `t.c`), not a value computed from columns. */
export const isPlainColumn = (e: ReadonlyArray<Tok>): boolean => {
  const last = e[e.length - 1]
  return (e.length === 1 || (e.length === 3 && isOp(e[1], "."))) && last !== undefined && (last.kind === "ident" || last.kind === "qident")
}

const isLobColumn = (meta: TableMeta, name: string) =>
  meta.columns.find((c) => c.name === name && (c.type.kind === "clob" || c.type.kind === "nclob" || c.type.kind === "blob"))

/**
 * The plan of a DML (tokens `toks`, RETURNING expressions `exprs`) writing `meta`, or undefined when it returns no
 * LOB column whose row can be found (a DELETE never: its rows are gone). A MERGE's rows, updated or inserted, are
 * found by key as an UPDATE's are.
 */
export const returningLobPlan = (toks: ReadonlyArray<Tok>, exprs: ReadonlyArray<Tok>, meta: TableMeta | undefined): ReturningLobPlan | undefined => {
  if (meta === undefined || meta.kind !== "TABLE" || !isKw(toks[0], "INSERT", "UPDATE", "MERGE")) return undefined
  const columns = splitTopLevel(exprs).map((e): LobSource | undefined => {
    const last = e[e.length - 1]
    const plain = e.length === 1 || (e.length === 3 && isOp(e[1], "."))
    if (!plain || last === undefined || (last.kind !== "ident" && last.kind !== "qident")) return undefined
    const col = isLobColumn(meta, oracleName(last))
    return col === undefined ? undefined : { owner: meta.owner, table: meta.name, column: col.name }
  })
  if (!columns.some((s) => s !== undefined)) return undefined
  const table = `${duckIdent(meta.owner)}.${duckIdent(meta.name)}`
  if (isKw(toks[0], "INSERT"))
    return {
      columns,
      extraReturning: "",
      extraCount: 0,
      rowIds: (query, extras) =>
        query(`SELECT rowid FROM (SELECT rowid FROM ${table} ORDER BY rowid DESC LIMIT ${extras.length}) ORDER BY rowid`, [])
    }
  // the primary key, else every column but the LOBs (equal rows are told apart by taking each row id once)
  const primary = meta.constraints.find((c) => c.type === "P")?.columns
  const key = primary !== undefined && primary.length > 0 ? primary : meta.columns.filter((c) => isLobColumn(meta, c.name) === undefined).map((c) => c.name)
  if (key.length === 0) return undefined
  const lookup = `SELECT rowid FROM ${table} WHERE ${key.map((k, i) => `${duckIdent(k)} IS NOT DISTINCT FROM $${i + 1}`).join(" AND ")} ORDER BY rowid`
  return {
    columns,
    extraReturning: key.map((k) => `, ${duckIdent(k)}`).join(""),
    extraCount: key.length,
    rowIds: async (query, extras) => {
      const out: Array<bigint> = []
      for (const values of extras) {
        const found = (await query(lookup, values as ReadonlyArray<DuckDBValue>)).find((id) => !out.includes(id))
        if (found !== undefined) out.push(found)
      }
      return out
    }
  }
}

/** DuckDB SQL writing a LOB column of one row: parameters the new value and the row id. */
export const rowLobUpdateSql = (source: LobSource): string =>
  `UPDATE ${duckIdent(source.owner)}.${duckIdent(source.table)} SET ${duckIdent(source.column)} = $1 WHERE rowid = $2`
