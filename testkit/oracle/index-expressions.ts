/**
 * Function-based indexes (SQL Language Reference 23ai, "CREATE INDEX", column_expression: "an expression built from
 * columns of table, constants, SQL functions, and user-defined functions"): `CREATE [UNIQUE] INDEX i ON t
 * (UPPER(name))`. DuckDB indexes expressions too, and a unique one refuses rows whose expression values repeat, as
 * Oracle's does (ORA-00001), so the key is the expression as DuckDB computes it.
 */
import { isKw, type Tok } from "./lexer.ts"

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
