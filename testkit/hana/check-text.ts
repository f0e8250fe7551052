/**
 * A CHECK's condition as it was written: the query rewrite wraps a CHECK's values in the server's conversion macros
 * (`hana_dtw` for a TIMESTAMP meeting another datetime, `hana_num` for an arithmetic operand, `hana_ld_cmp` for a
 * datetime text), and DuckDB prints and lists the condition with them. A HANA client sees the condition it wrote, in
 * the 677 error (errors.ts) and in SYS.CONSTRAINTS (catalog.ts).
 */
import { VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"

/** Each macro as DuckDB prints its call, and which of its arguments is the value written. */
const MACROS: ReadonlyArray<readonly [string, number]> = [["hana_dtw(", 0], ["hana_num(", 0], ["hana_ld_cmp(", 1]]

/** The arguments of the call whose `(` ends at `from` - 1 in `text`, and the index of its `)`; undefined when unbalanced. */
const callArguments = (text: string, from: number): { args: string[]; end: number } | undefined => {
  const args: string[] = []
  let depth = 0
  let start = from
  for (let j = from; j < text.length; j++) {
    const ch = text[j]
    if (ch === "'") {
      j = text.indexOf("'", j + 1)
      if (j < 0) return undefined
    } else if (ch === "(") depth++
    else if (ch === ")" && depth > 0) depth--
    else if ((ch === "," || ch === ")") && depth === 0) {
      args.push(text.slice(start, j).trim())
      start = j + 1
      if (ch === ")") return { args, end: j }
    }
  }
  return undefined
}

/** `text` (DuckDB's print of a condition) with each conversion macro call replaced by the value it converts. */
export const checkText = (text: string): string => {
  let out = text
  for (const [call, keep] of MACROS) {
    for (let at = out.indexOf(call); at >= 0; at = out.indexOf(call, at)) {
      const parsed = callArguments(out, at + call.length)
      if (parsed === undefined || parsed.args[keep] === undefined) break
      out = out.slice(0, at) + parsed.args[keep] + out.slice(parsed.end + 1)
    }
  }
  return out
}

/** Registers `hana_check_text(text)`, {@link checkText} for SQL (the catalog's CHECK_CONDITION). */
export const registerCheckTextFunction = (connection: DuckDBConnection): void => {
  connection.registerScalarFunction(fn("hana_check_text", [VARCHAR], VARCHAR, ([t]) => checkText(String(t))))
}
