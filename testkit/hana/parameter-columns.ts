/**
 * The column each `?` of a statement is compared with or assigned to (`col = ?`, `? < t.col`, `SET col = ?`,
 * `col LIKE ?`, `col IN (?, ?)`, `col BETWEEN ? AND ?`), so its parameter metadata can carry the column's declared type (VARCHAR(10), not the NVARCHAR(5000)
 * DuckDB's VARCHAR storage would give), as HANA describes such parameters.
 */
import { tokenize } from "./lexer.ts"

const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="])

type Tok = ReturnType<typeof tokenize>[number]

const columnName = (tok: Tok | undefined): string | undefined =>
  tok?.t === "word" ? tok.v.toUpperCase() : tok?.t === "qident" ? tok.v : undefined

const isComparison = (tok: Tok | undefined): boolean =>
  tok !== undefined && ((tok.t === "op" && COMPARISONS.has(tok.v)) || (tok.t === "word" && tok.v.toUpperCase() === "LIKE"))

/** Per placeholder (in text order) the HANA name of the column it meets, when the statement says so directly. */
export const parameterColumns = (sql: string): Array<string | undefined> => {
  const tokens = tokenize(sql).filter((t) => t.t !== "ws")
  const out: Array<string | undefined> = []
  tokens.forEach((tok, i) => {
    if (tok.t !== "param") return
    // `col LIKE ? || '%'`: the parameter is an operand of an expression, not the compared value itself
    const after = tokens[i + 1]
    if (after?.t === "op" && ["||", "+", "-", "*", "/"].includes(after.v)) {
      out.push(undefined)
      return
    }
    let column: string | undefined
    const word = (k: number) => (tokens[k]?.t === "word" ? tokens[k]!.v.toUpperCase() : undefined)
    if (isComparison(tokens[i - 1]) || word(i - 1) === "BETWEEN") column = columnName(tokens[i - 2])
    // `col BETWEEN ? AND ?`: the second bound
    if (column === undefined && word(i - 1) === "AND" && tokens[i - 2]?.t === "param" && word(i - 3) === "BETWEEN") column = columnName(tokens[i - 4])
    // `col IN (?, ?, …)`
    if (column === undefined && tokens[i - 1]?.t === "op" && (tokens[i - 1]!.v === "(" || tokens[i - 1]!.v === ",")) {
      let k = i - 1
      while (tokens[k]?.t === "op" && tokens[k]!.v === "," && tokens[k - 1]?.t === "param") k -= 2
      if (tokens[k]?.t === "op" && tokens[k]!.v === "(" && word(k - 1) === "IN") column = columnName(tokens[k - 2])
    }
    if (column === undefined && isComparison(tokens[i + 1])) {
      // `? = t.col`: the column is the last word of a dotted name
      let j = i + 2
      while (tokens[j + 1]?.t === "op" && tokens[j + 1]?.v === ".") j += 2
      column = columnName(tokens[j])
    }
    out.push(column)
  })
  return out
}
