/**
 * `WHERE CURRENT OF cursor` in a block's UPDATE / DELETE: the cursors it may name (FOR UPDATE) and the row id of the
 * row the cursor fetched last.
 */
import { OraError } from "../errors.ts"
import { isKw, isOp } from "../lexer.ts"
import { rowidText } from "../rowid-bytes.ts"
import { oracleName } from "../translate.ts"
import type { FromRef, RowLockClause } from "../translate-types.ts"
import type { Expr } from "./ast.ts"
import type { Frame } from "./context.ts"
import { PlsCompileError } from "./errors.ts"
import { lookup, notDeclared } from "./scope.ts"

/**
 * Whether a cursor's query is `SELECT ... FOR UPDATE` (of one table or a join, not a set operation): its tables' row
 * ids are read along, which `WHERE CURRENT OF` needs.
 */
export const forUpdateQuery = (query: Expr): boolean => {
  let depth = 0
  let from = -1
  let forUpdate = false
  let setOperation = false
  for (let k = 0; k < query.length; k++) {
    const t = query[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth !== 0) continue
    if (isKw(t, "FROM") && from < 0) from = k
    else if (isKw(t, "FOR") && isKw(query[k + 1], "UPDATE")) forUpdate = true
    else if (isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) setOperation = true
  }
  return forUpdate && from > 0 && !setOperation
}

/**
 * `WHERE CURRENT OF c` of an UPDATE or DELETE as `WHERE ROWID = '<row id>'` of the row cursor `c` fetched last (PL/SQL
 * Language Reference, "CURRENT OF Clause": the cursor must be open, declared FOR UPDATE, and have fetched a row);
 * the same tokens when the statement has none. Of a join's cursor it is the row of the statement's table the cursor
 * fetched last ("SELECT FOR UPDATE and FOR UPDATE Cursors": with FOR UPDATE OF only the named tables' rows are locked;
 * a table the cursor does not lock, or does not read, has no current row: ORA-01410).
 */
export function currentOfRow(ctx: Frame, toks: Expr): Expr {
  const at = toks.findIndex((t, k) => isKw(t, "CURRENT") && isKw(toks[k + 1], "OF") && isKw(toks[k - 1], "WHERE"))
  const cursor = toks[at + 2]
  if (at < 0 || cursor === undefined) return toks
  const slot = cursor.kind === "bind" ? undefined : lookup(ctx, oracleName(cursor))
  if (slot?.k !== "cursor") notDeclared(ctx, cursor)
  if (!forUpdateQuery(slot.decl.query)) throw new PlsCompileError(ctx.source, cursor.pos, 404, `cursor '${oracleName(cursor)}' must be declared with FOR UPDATE to use with CURRENT OF`)
  const reader = slot.reader
  if (reader === undefined) throw new OraError(1001, "invalid cursor")
  // no row fetched yet, or the last fetch found none: no row is current (ORA-01410 invalid ROWID)
  const rowid = reader.result.rowidTables === undefined ? reader.rowid : reader.rowids[targetTable(ctx, toks, reader.result.rowidTables, reader.result.rowLock)]
  if (rowid === undefined) throw new OraError(1410, "invalid ROWID")
  const text = rowidText(rowid)
  const pos = toks[at]!.pos
  return [
    ...toks.slice(0, at),
    { kind: "ident", text: "ROWID", value: "ROWID", pos },
    { kind: "op", text: "=", value: "=", pos },
    { kind: "str", text: `'${text}'`, value: text, pos },
    ...toks.slice(at + 3)
  ]
}

/**
 * Which of a cursor's row id tables the UPDATE / DELETE `toks` writes: one its FOR UPDATE clause locks (every table,
 * or those of its OF columns: row-locks.ts lockedTables); -1 when none is.
 */
function targetTable(ctx: Frame, toks: Expr, tables: ReadonlyArray<FromRef>, lock: RowLockClause | undefined): number {
  const k = isKw(toks[0], "DELETE") && isKw(toks[1], "FROM") ? 2 : 1
  const first = toks[k]
  const dotted = isOp(toks[k + 1], ".") ? toks[k + 2] : undefined
  if (first === undefined) return -1
  const schema = dotted === undefined ? ctx.host.schema : oracleName(first)
  const table = oracleName(dotted ?? first)
  return tables.findIndex((ref) => {
    if (ref.table !== table || (ref.schema ?? ctx.host.schema) !== schema) return false
    const meta = ctx.host.lookupTable(ref.schema, ref.table)
    const named = (q: string | undefined) => q === undefined || q === (ref.alias ?? ref.table)
    return lock === undefined || lock.of.length === 0 || lock.of.some((c) => named(c.qualifier) && meta?.columns.some((m) => m.name === c.column) === true)
  })
}
