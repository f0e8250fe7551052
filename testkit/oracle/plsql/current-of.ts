/**
 * `WHERE CURRENT OF cursor` in a block's UPDATE / DELETE: the cursors it may name (one table, FOR UPDATE) and the row
 * id of the row the cursor fetched last.
 */
import { OraError } from "../errors.ts"
import { isKw, isOp } from "../lexer.ts"
import { rowidText } from "../rowid-bytes.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import type { Frame } from "./context.ts"
import { PlsCompileError } from "./errors.ts"
import { lookup, notDeclared } from "./scope.ts"

/**
 * Whether a cursor's query is `SELECT ... FROM one_table ... FOR UPDATE`: its rows' ids are read along, which
 * `WHERE CURRENT OF` needs (a join's rows have no single row id here).
 */
export const forUpdateOfOneTable = (query: Expr): boolean => {
  let depth = 0
  let from = -1
  let forUpdate = false
  let joined = false
  for (let k = 0; k < query.length; k++) {
    const t = query[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth !== 0) continue
    if (isKw(t, "FROM") && from < 0) from = k
    else if (isKw(t, "FOR") && isKw(query[k + 1], "UPDATE")) forUpdate = true
    else if (from >= 0 && !forUpdate && (isOp(t, ",") || isKw(t, "JOIN", "UNION", "INTERSECT", "MINUS", "EXCEPT"))) joined = true
  }
  return forUpdate && from > 0 && !joined
}

/**
 * `WHERE CURRENT OF c` of an UPDATE or DELETE as `WHERE ROWID = '<row id>'` of the row cursor `c` fetched last (PL/SQL
 * Language Reference, "CURRENT OF Clause": the cursor must be open, declared FOR UPDATE, and have fetched a row);
 * the same tokens when the statement has none.
 */
export function currentOfRow(ctx: Frame, toks: Expr): Expr {
  const at = toks.findIndex((t, k) => isKw(t, "CURRENT") && isKw(toks[k + 1], "OF") && isKw(toks[k - 1], "WHERE"))
  const cursor = toks[at + 2]
  if (at < 0 || cursor === undefined) return toks
  const slot = cursor.kind === "bind" ? undefined : lookup(ctx, oracleName(cursor))
  if (slot?.k !== "cursor") notDeclared(ctx, cursor)
  if (!forUpdateOfOneTable(slot.decl.query)) throw new PlsCompileError(ctx.source, cursor.pos, 404, `cursor '${oracleName(cursor)}' must be declared with FOR UPDATE to use with CURRENT OF`)
  const reader = slot.reader
  if (reader === undefined) throw new OraError(1001, "invalid cursor")
  // no row fetched yet, or the last fetch found none: no row is current (ORA-01410 invalid ROWID)
  if (reader.rowid === undefined) throw new OraError(1410, "invalid ROWID")
  const text = rowidText(reader.rowid)
  const pos = toks[at]!.pos
  return [
    ...toks.slice(0, at),
    { kind: "ident", text: "ROWID", value: "ROWID", pos },
    { kind: "op", text: "=", value: "=", pos },
    { kind: "str", text: `'${text}'`, value: text, pos },
    ...toks.slice(at + 3)
  ]
}
