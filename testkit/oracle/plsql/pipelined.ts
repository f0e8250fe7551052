/**
 * Pipelined table functions (PL/SQL Language Reference 23ai, "PIPE ROW Statement", "Pipelined Table Functions"): a
 * function declared PIPELINED gives its rows by `PIPE ROW (expr)` and ends with `RETURN;`; its caller gets the rows
 * piped as one collection of its return type (read by `TABLE(f(args))`: client-table-collections.ts). PIPE ROW
 * anywhere else is PLS-00629, as Oracle refuses it when the block compiles.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { isOp, matchParen } from "../lexer.ts"
import type { Expr } from "./ast.ts"
import { PlsqlCollection, type CollectionType } from "./collections.ts"
import type { Collection, Frame, Value } from "./context.ts"
import { PlsCompileError } from "./errors.ts"
import { evaluateValue } from "./expressions.ts"
import { PlsqlRecord } from "./records.ts"

/** `PIPE ROW (expr)`: the row goes to the running pipelined function's rows. */
export async function pipeRow(ctx: Frame, expr: Expr): Promise<void> {
  if (ctx.piped === undefined) throw new PlsCompileError(ctx.source, ctx.pos, 629, "PIPE statement cannot be used in non-pipelined functions")
  // PIPE ROW (r): the row is what the parentheses hold (a record variable is no SQL expression)
  const inner = isOp(expr[0], "(") && matchParen(expr, 0) === expr.length - 1 ? expr.slice(1, -1) : expr
  const v = await evaluateValue(ctx, inner)
  // a record piped is copied: the function goes on changing its variable
  ctx.piped.push(v instanceof PlsqlRecord ? v.copy() : v)
}

/** Whether a stored function's source declares it PIPELINED (`RETURN type PIPELINED IS`). */
export const isPipelinedSource = (source: string): boolean => /\bRETURN\s+[\w$#."]+(\s*\([^)]*\))?\s+PIPELINED\b/i.test(source)

/** The rows a pipelined function piped, as a collection of `type` (an ad hoc nested table when the type is a schema type). */
export const pipedCollection = (type: CollectionType | undefined, name: string, rows: ReadonlyArray<Value>): Collection => {
  const c: Collection = new PlsqlCollection(type ?? { name, kind: "table", element: { kind: "named", name: "VARCHAR2" } })
  // a row is a scalar or a record (a collection or cursor piped is no row of a table function)
  for (const r of rows) c.push(r instanceof PlsqlCollection || (r !== null && typeof r === "object" && "kind" in r) ? null : (r as DuckDBValue | PlsqlRecord))
  return c
}

/**
 * Runs `body` (a function's call on `frame`) with `frame` taking PIPE ROW rows when `pipelined`; the rows piped, or
 * undefined for a function that is not pipelined. The frame's own rows (a pipelined caller's) are kept aside.
 */
export async function collectingPipedRows<T>(frame: Frame, pipelined: boolean, body: () => Promise<T>): Promise<{ result: T; piped: Array<Value> | undefined }> {
  const saved = frame.piped
  frame.piped = pipelined ? [] : undefined
  try {
    const result = await body()
    return { result, piped: frame.piped }
  } finally {
    frame.piped = saved
  }
}
