/**
 * What a statement is and what it gives back: statement classes (as node-oracledb classifies them), bind
 * metadata, described result columns and the result of each statement class.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { Cursor } from "../engine/index.ts"
import type { OraError } from "./errors.ts"
import { isKw, isOp, tokenize, type Tok } from "./lexer.ts"
import type { OraType } from "./types.ts"

/** A described result column. */
export interface ResultColumn {
  readonly name: string
  readonly type: OraType
  readonly nullable: boolean
  /** A LOB column read straight from a table: its locators can be written back to the row. */
  readonly lobSource?: LobSource
  /** Which of the query's row id columns (after QueryResult.rowidColumn; 0 when absent) holds the LOB's row. */
  readonly lobRowid?: number
  /**
   * Further tables the LOB may come from, row by row (the branches of a UNION ALL: derived-lob-rows.ts): the first
   * of lobSource / these whose row id column holds a row id names the row.
   */
  readonly lobOtherRows?: ReadonlyArray<{ readonly source: LobSource; readonly rowid: number }>
  /** A LOB the query computes (results.ts): a temporary LOB of the session, which the client may write. */
  readonly lobTemporary?: boolean
}

/** The table column a LOB value was read from. */
export interface LobSource {
  readonly owner: string
  readonly table: string
  readonly column: string
}

/**
 * The table row a LOB value of column `c` was read from: the first of its sources (lobSource, lobOtherRows) whose row
 * id column holds a row id in that row (`rowidAt(k)`: the value of the query's k-th row id column).
 */
export const lobRowOf = (c: ResultColumn, rowidAt: (k: number) => unknown): (LobSource & { readonly rowid: bigint }) | undefined => {
  if (c.lobSource === undefined) return undefined
  for (const { source, rowid } of [{ source: c.lobSource, rowid: c.lobRowid ?? 0 }, ...(c.lobOtherRows ?? [])]) {
    const id = rowidAt(rowid)
    if (typeof id === "bigint") return { ...source, rowid: id }
  }
  return undefined
}

/** Rows of a query, not yet sent. */
export interface QueryResult {
  readonly kind: "query"
  readonly columns: ReadonlyArray<ResultColumn>
  readonly cursor: Cursor
  /**
   * Index of the first cursor column (after the described ones) holding each row's DuckDB row id, for LOB locators;
   * a join's further tables' row ids follow it (ResultColumn.lobRowid).
   */
  readonly rowidColumn?: number
  /**
   * Of a query `FOR UPDATE SKIP LOCKED` locking as it is fetched (a PL/SQL cursor's, a client's, a dynamic OPEN FOR's):
   * locks a fetched row (given the row ids from {@link rowidColumn} on) as it is fetched, false for a row another
   * transaction holds, which the fetch leaves out (row-locks.ts).
   */
  readonly claimFetchedRow?: (rowids: ReadonlyArray<bigint | undefined>) => Promise<boolean>
}

/** Outcome of DML. */
export interface DmlResult {
  readonly kind: "dml"
  readonly rowCount: number
  readonly rowCounts: ReadonlyArray<number>
  readonly batchErrors: ReadonlyArray<{ readonly offset: number; readonly error: OraError }>
  /** Values of RETURNING ... INTO binds: one array per returned expression. */
  readonly returning?: ReadonlyArray<ReadonlyArray<unknown>>
  /** Of several bind rows (executeMany): how many of the `returning` values each row gave, in order. */
  readonly returningPerRow?: ReadonlyArray<number>
  /** Per returned expression naming a LOB column an INSERT wrote: the column and each returned row's DuckDB row id. */
  readonly returningLobs?: ReadonlyArray<{ readonly source: LobSource; readonly rowids: ReadonlyArray<bigint> } | undefined>
  /** Per returned expression: true for a computed one (not a plain column), whose LOB value is a temporary LOB. */
  readonly returningTemporary?: ReadonlyArray<boolean>
}

/** Position of a top-level `RETURNING|RETURN exprs INTO binds` clause and the number of INTO binds. */
export const returningClause = (toks: ReadonlyArray<Tok>): { at: number; into: number; outs: number } | undefined => {
  let depth = 0
  let at = -1
  for (let k = 0; k < toks.length; k++) {
    const x = toks[k]!
    if (isOp(x, "(")) depth++
    else if (isOp(x, ")")) depth--
    else if (depth === 0 && at < 0 && isKw(x, "RETURNING", "RETURN")) at = k
    else if (depth === 0 && at >= 0 && isKw(x, "INTO")) {
      const outs = toks.slice(k + 1).filter((y) => y.kind === "bind").length
      return { at, into: k, outs }
    }
  }
  return undefined
}

/** For DML with RETURNING INTO: which binds (in order) are return binds, which the client does not send values for. */
export const returnBindFlags = (sql: string, count: number): Array<boolean> | undefined => {
  if (classify(sql) !== "dml") return undefined
  const toks = tokenize(sql).filter((x) => x.kind !== "ws")
  const ret = returningClause(toks)
  if (ret === undefined) return undefined
  return Array.from({ length: count }, (_, i) => i >= count - ret.outs)
}

/** Outcome of DDL, ALTER SESSION and transaction control. */
export interface DoneResult {
  readonly kind: "done"
  /** A CREATE of PL/SQL that compiled with errors: success with the warning ORA-24344 (plsql/stored-code.ts). */
  readonly compileWarning?: boolean
}

/** Any statement outcome. */
export type StatementResult = QueryResult | DmlResult | DoneResult | PlsqlResult

/** Statement classes, as node-oracledb's parser classifies them (lib/thin/statement.js). */
export type StatementClass = "query" | "dml" | "ddl" | "plsql" | "commit" | "rollback" | "other"

/** Classifies SQL by its first keyword. */
export const classify = (sql: string): StatementClass => {
  // a block may start with labels (`<<outer>> BEGIN`, PL/SQL Language Reference, "Block"); Oracle parses the text
  // and runs it as PL/SQL, although node-oracledb thin classifies such text as "other" by its first word
  const m = sql.match(/^[\s(]*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*|<<\s*[A-Za-z][\w$#]*\s*>>\s*)*([A-Za-z]+)/)
  const kw = (m?.[1] ?? "").toUpperCase()
  switch (kw) {
    case "SELECT":
    case "WITH":
      return "query"
    case "INSERT":
    case "UPDATE":
    case "DELETE":
    case "MERGE":
      return "dml"
    case "CREATE":
    case "DROP":
    case "ALTER":
    case "TRUNCATE":
    case "COMMENT":
    case "GRANT":
    case "REVOKE":
    case "ANALYZE":
    case "AUDIT":
    case "RENAME":
    case "PURGE":
      return "ddl"
    case "BEGIN":
    case "DECLARE":
    case "CALL":
      return "plsql"
    case "COMMIT":
      return "commit"
    case "ROLLBACK":
      return "rollback"
    default:
      return "other"
  }
}

/** Options of one execution. */
export interface ExecuteOptions {
  readonly batchErrors: boolean
  readonly dmlRowCounts: boolean
  /** A query FOR UPDATE SKIP LOCKED locks its rows as they are fetched (a client's query, a dynamic OPEN FOR): session-queries.ts. */
  readonly lockAsFetched?: boolean
}

/** Bind types as declared by the client's bind metadata. */
export interface BindSpec {
  readonly dty: number
  readonly csfrm: number
  readonly maxSize: number
  /** Of a LOB column's define: how much of each LOB's data to send with its locator (CLOB characters, BLOB bytes). */
  readonly lobPrefetch?: number
  /** Of a PL/SQL index-by table bind (oracledb's array binds): the most elements it takes (maxArraySize). */
  readonly maxArrayElements?: number
  /** Type OID of a named-type (OBJECT, collection) bind. */
  readonly oid?: Buffer
}

/** Outcome of a PL/SQL block. */
export interface PlsqlResult {
  readonly kind: "plsql"
  /** Direction of each bind, in the client's bind order. */
  readonly directions: ReadonlyArray<number>
  /** Final values of all binds (OUT and IN OUT ones are sent back). */
  readonly values: ReadonlyArray<DuckDBValue | QueryResult>
  /** Cursors passed to DBMS_SQL.RETURN_RESULT, in order. */
  readonly implicit: ReadonlyArray<QueryResult>
}

/** Removes a trailing ";" (not inside PL/SQL). */
export const stripTerminator = (sql: string): string => sql.replace(/;\s*$/, "")

