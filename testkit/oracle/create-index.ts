/**
 * CREATE [UNIQUE] INDEX i ON t (key [ASC | DESC], ...): a DuckDB index of the same keys, recorded in the catalog (the
 * USER_INDEXES / USER_IND_COLUMNS rows). A key is a column or, for a function-based index (SQL Language Reference
 * 23ai, "CREATE INDEX", column_expression: "an expression built from columns of table, constants, SQL functions, and
 * user-defined functions"), an expression such as `UPPER(name)`: DuckDB indexes expressions too, and a unique one
 * refuses rows whose expression values repeat, as Oracle's does (ORA-00001).
 */
import type { ColumnMeta } from "./catalog.ts"
import { isZonedColumn, type TableDdl } from "./ddl-tables.ts"
import { OraError } from "./errors.ts"
import { headingOf } from "./expression-names.ts"
import { isKw, matchParen, splitTopLevel, type Tok } from "./lexer.ts"
import { duckIdent } from "./names.ts"
import { oracleName } from "./translate.ts"

/**
 * A column of a unique key as DuckDB indexes it: a TIMESTAMP WITH TIME ZONE column by its instant, as Oracle compares
 * such values (datetime-groups.ts), so `12:00 +01:00` and `11:00 +00:00` are one key; others as they are.
 */
const uniqueKeyColumn = (columns: ReadonlyArray<ColumnMeta>, name: string): string =>
  isZonedColumn(columns, name) ? `(ora_tstz_key(CAST(${duckIdent(name)} AS VARCHAR), ''))` : duckIdent(name)

/** What CREATE INDEX needs of the session's DDL (ddl.ts). */
export interface IndexDdl extends TableDdl {
  /** A query (with no binds) as the DuckDB SQL that runs it. */
  duckSelect(selectSql: string): string
}

/** CREATE [UNIQUE] INDEX (`toks`: the statement, `at` on INDEX). */
export const createIndex = async (ddl: IndexDdl, toks: ReadonlyArray<Tok>, at: number): Promise<void> => {
  const unique = isKw(toks[at - 1], "UNIQUE")
  const q = ddl.qualified(toks, at + 1)
  if (!isKw(toks[q.next], "ON")) throw new OraError(969, "missing ON keyword")
  const tq = ddl.qualified(toks, q.next + 1)
  const open = tq.next
  const close = matchParen(toks, open)
  const parts = splitTopLevel(toks.slice(open + 1, close))
  const keys = parts.map((p) => ({ name: isIndexExpression(p) ? headingOf(p.filter((t) => !isKw(t, "ASC", "DESC"))) : oracleName(p[0]!), descending: isKw(p[p.length - 1], "DESC") }))
  const catalog = ddl.s.db.catalog
  const tableColumns = catalog.getTable(tq.schema, tq.name)?.columns ?? []
  const column = (p: ReadonlyArray<Tok>, name: string) =>
    isIndexExpression(p) ? `(${indexExpressionSql(p, `${tq.schema}.${tq.name}`, (sql) => ddl.duckSelect(sql))})` : unique ? uniqueKeyColumn(tableColumns, name) : duckIdent(name)
  const cols = keys.map((k, i) => `${column(parts[i]!, k.name)}${k.descending ? " DESC" : ""}`)
  await ddl.runDdl(`CREATE ${unique ? "UNIQUE " : ""}INDEX ${duckIdent(q.name)} ON ${duckIdent(tq.schema)}.${duckIdent(tq.name)} (${cols.join(", ")})`)
  catalog.putObject({ owner: q.schema, name: q.name, type: "INDEX", objectId: catalog.newObjectId(), created: new Date(), tableName: tq.name, ...(tq.schema === q.schema ? {} : { tableOwner: tq.schema }), indexColumns: keys, unique })
}

/** Whether an index key (its tokens, no blanks) is an expression rather than `column [ASC | DESC]`. */
export const isIndexExpression = (key: ReadonlyArray<Tok>): boolean => {
  const sig = key.filter((t) => t.kind !== "ws" && !isKw(t, "ASC", "DESC"))
  return sig.length !== 1
}

/**
 * The DuckDB SQL of index key expression `key` over `table` (`OWNER.NAME`), computed as a query's select item
 * (`translate`: a query as DuckDB SQL), its column names unqualified as DuckDB's CREATE INDEX takes them.
 */
export const indexExpressionSql = (key: ReadonlyArray<Tok>, table: string, translate: (sql: string) => string): string => {
  const expr = key
    .filter((t) => !isKw(t, "ASC", "DESC"))
    .map((t) => t.text)
    .join(" ")
  const sql = translate(`SELECT ${expr} FROM ${table}`)
  const m = /^SELECT\s+([\s\S]*?)\s+FROM\s/i.exec(sql)
  if (m === null) throw new Error(`index expression not translated: ${expr}`)
  // `x AS "UPPER(S)"`: the heading the translator gives the item is no part of the key
  return m[1]!.replace(/\s+AS\s+"[^"]*"\s*$/i, "")
}
