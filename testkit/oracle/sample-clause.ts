/**
 * Oracle's sample_clause on a table of a query's FROM clause, `table SAMPLE [BLOCK] (percent) [SEED (n)] [alias]`
 * (SQL Language Reference, "SELECT", sample_clause): each row is kept with the given probability, or each block for
 * SAMPLE BLOCK; SEED makes the sample repeatable. It runs as DuckDB's `table [alias] TABLESAMPLE percent%
 * (bernoulli | system [, seed])`, which samples rows, or vectors of rows for BLOCK. A percentage outside
 * [0.000001, 100) is ORA-30562 "SAMPLE percentage must be in the range [0.000001,100)" (Database Error Messages).
 */
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, significant, type Tok, tokenize } from "./lexer.ts"

/** Words that end a table reference: after `SAMPLE (...)` any other name is the table's alias. */
const AFTER_TABLE = new Set(
  ("WHERE GROUP ORDER HAVING CONNECT START UNION MINUS INTERSECT EXCEPT FETCH FOR JOIN INNER LEFT RIGHT FULL CROSS " +
    "NATURAL OUTER ON USING OFFSET MODEL PARTITION WINDOW").split(" ")
)


const percentError = () => new OraError(30562, "SAMPLE percentage must be in the range [0.000001,100)")

/** The statement with each sample clause written as DuckDB's TABLESAMPLE (the text itself when it has none). */
export const rewriteSampleClauses = (sql: string): string => {
  if (!/\bSAMPLE\b/i.test(sql)) return sql
  const toks = significant(tokenize(sql))
  const edits: Array<{ from: number; to: number; text: string }> = []
  for (let k = 1; k < toks.length; k++) {
    if (!isKw(toks[k], "SAMPLE") || !(isName(toks[k - 1]) || isOp(toks[k - 1], ")"))) continue
    const block = isKw(toks[k + 1], "BLOCK")
    const open = block ? k + 2 : k + 1
    if (!isOp(toks[open], "(")) continue
    const close = matchParen(toks, open)
    const percent = toks[open + 1]
    if (close !== open + 2 || percent?.kind !== "num") throw percentError()
    const value = Number(percent.value)
    if (!(value >= 0.000001 && value < 100)) throw percentError()
    let end = close
    let seed: string | undefined
    if (isKw(toks[end + 1], "SEED") && isOp(toks[end + 2], "(") && toks[end + 3]?.kind === "num" && isOp(toks[end + 4], ")")) {
      seed = toks[end + 3]!.value
      end += 4
    }
    const aliasTok = toks[end + 1]
    const alias = isName(aliasTok) && !AFTER_TABLE.has(aliasTok.value.toUpperCase()) ? aliasTok : undefined
    const last = alias ?? toks[end]!
    const sample = `TABLESAMPLE ${percent.text}% (${block ? "system" : "bernoulli"}${seed !== undefined ? `, ${seed}` : ""})`
    edits.push({ from: toks[k]!.pos, to: last.pos + last.text.length, text: alias !== undefined ? `${alias.text} ${sample}` : sample })
  }
  let out = sql
  for (const e of edits.reverse()) out = out.slice(0, e.from) + e.text + out.slice(e.to)
  return out
}
