/**
 * LOB locators of DML RETURNING INTO: an INSERT that returns a LOB column of its table gives the client a locator of
 * the new row's LOB, which it may write (node-oracledb documentation, "Using CLOB, NCLOB and BLOB Data": the
 * `INSERT ... VALUES (EMPTY_CLOB()) RETURNING c INTO :lob` idiom). The DML locked the row, so no FOR UPDATE is
 * needed (Oracle SecureFiles and Large Objects Developer's Guide, "LOB Locators"). DuckDB's RETURNING has no row id:
 * the rows one INSERT adds are the transaction's newest rows of the table, which have the highest row ids.
 */
import type { TableMeta } from "./catalog.ts"
import { isKw, isOp, splitTopLevel, type Tok } from "./lexer.ts"
import { duckIdent } from "./names.ts"
import type { LobSource } from "./statement.ts"
import { oracleName } from "./translate.ts"

/** A returned LOB column and the DuckDB row id of each row returned. */
export interface ReturnedLob {
  readonly source: LobSource
  readonly rowids: Array<bigint>
}

/**
 * For each RETURNING expression (tokens `exprs`) of `INSERT` into `meta`: the LOB column it names (plain or qualified
 * column name), else undefined. Other DML (UPDATE, DELETE, MERGE) gives none.
 */
export const returnedLobColumns = (toks: ReadonlyArray<Tok>, exprs: ReadonlyArray<Tok>, meta: TableMeta | undefined): Array<LobSource | undefined> | undefined => {
  if (meta === undefined || meta.kind !== "TABLE" || !isKw(toks[0], "INSERT")) return undefined
  const out = splitTopLevel(exprs).map((e): LobSource | undefined => {
    const last = e[e.length - 1]
    const plain = e.length === 1 || (e.length === 3 && isOp(e[1], "."))
    if (!plain || last === undefined || (last.kind !== "ident" && last.kind !== "qident")) return undefined
    const name = oracleName(last)
    const col = meta.columns.find((c) => c.name === name)
    if (col === undefined || (col.type.kind !== "clob" && col.type.kind !== "nclob" && col.type.kind !== "blob")) return undefined
    return { owner: meta.owner, table: meta.name, column: col.name }
  })
  return out.some((s) => s !== undefined) ? out : undefined
}

/** DuckDB SQL selecting the row ids of the `n` newest rows of a table (the rows an INSERT just added), oldest first. */
export const newestRowIdsSql = (meta: TableMeta, n: number): string =>
  `SELECT rowid FROM (SELECT rowid FROM ${duckIdent(meta.owner)}.${duckIdent(meta.name)} ORDER BY rowid DESC LIMIT ${Math.max(0, Math.trunc(n))}) ORDER BY rowid`

/** DuckDB SQL writing a LOB column of one row: parameters the new value and the row id. */
export const rowLobUpdateSql = (source: LobSource): string =>
  `UPDATE ${duckIdent(source.owner)}.${duckIdent(source.table)} SET ${duckIdent(source.column)} = $1 WHERE rowid = $2`
