/**
 * Column references that name a CHAR / NCHAR column where Oracle resolves them, in their own query block
 * (char-expressions.ts), marked on their tokens. The translator's NUMBER rewrites know columns by name across the whole
 * statement: a name that is CHAR in one table and NUMBER without precision in another would be computed on as a NUMBER
 * in the block where it is the CHAR (ORA-01722); a marked token is left alone there.
 */
import type { Tok } from "./lexer.ts"

const marked = new WeakSet<Tok>()

/** Marks `tok`, the last name of a column reference, as naming a CHAR / NCHAR column. */
export const markCharReference = (tok: Tok): void => {
  marked.add(tok)
}

/** Whether `tok` was marked by {@link markCharReference}. */
export const isCharReference = (tok: Tok | undefined): boolean => tok !== undefined && marked.has(tok)
