/** Explicit cursors and cursor variables: OPEN (static, dynamic, strong REF CURSOR checks), their readers, and `%ROWTYPE` records of a cursor or table. */
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "../errors.ts"
import { rowidText } from "../rowid-bytes.ts"
import { isKw, isOp, type Tok } from "../lexer.ts"
import type { QueryResult } from "../statement.ts"
import { oracleName } from "../translate.ts"
import { assign } from "./assignment.ts"
import type { Expr, Stmt } from "./ast.ts"
import type { Frame, Slot } from "./context.ts"
import { collectionTarget, recordElements, recordType } from "./conversion.ts"
import { compiledSql, openQuery } from "./embedded-sql.ts"
import { forUpdateQuery } from "./current-of.ts"
import { PlsCompileError, predefined } from "./errors.ts"
import { evaluate } from "./expressions.ts"
import { valueOf } from "./names.ts"
import { columnKinds, PlsqlRecord } from "./records.ts"
import { isCursorValue, RowReader } from "./row-reader.ts"
import { line, lookup, notDeclared } from "./scope.ts"

/** A `%ROWTYPE` record of a cursor or table, its fields NULL. */
export async function emptyRecord(ctx: Frame, of: ReadonlyArray<string>, pos: number): Promise<PlsqlRecord> {
  if (of.length === 1) {
    const slot = lookup(ctx, of[0]!)
    if (slot?.k === "cursor") {
      // a cursor's parameters are NULL for the query that only describes its row
      const outer = ctx.scope
      const names = new Map<string, Slot>(slot.decl.params.map((p) => [p, { k: "var", value: null, type: undefined, constant: true }]))
      ctx.scope = { names, ...(outer === undefined ? {} : { parent: outer }) }
      let q
      try {
        q = await openQuery(ctx, slot.decl.query, false, "none")
      } finally {
        ctx.scope = outer
      }
      const rec = new PlsqlRecord(new Map(q.columns.map((c) => [c.name, null])), undefined, columnKinds(q.columns))
      q.cursor.close()
      return rec
    }
  }
  const meta = ctx.host.lookupTable(of.length === 2 ? of[0] : undefined, of[of.length - 1]!)
  if (meta === undefined) throw new PlsCompileError(ctx.source, pos, 201, `identifier '${of.join(".")}' must be declared`)
  return new PlsqlRecord(new Map(meta.columns.map((c) => [c.name, null])), undefined, columnKinds(meta.columns))
}

/** The reader of an open explicit cursor or cursor variable named by `cursor`. */
export function readerOf(ctx: Frame, cursor: Tok): RowReader | undefined {
  if (cursor.kind === "bind") {
    const v = valueOf(ctx, [cursor])
    return isCursorValue(v) ? readerFor(ctx, v) : undefined
  }
  const slot = lookup(ctx, oracleName(cursor))
  if (slot === undefined) notDeclared(ctx, cursor)
  if (slot.k === "cursor") return slot.reader
  if (slot.k === "var" && isCursorValue(slot.value)) return readerFor(ctx, slot.value)
  return undefined
}

/** The reader of a cursor value, made on its first fetch. */
function readerFor(ctx: Frame, q: QueryResult): RowReader {
  let r = ctx.readers.get(q)
  if (r === undefined) {
    r = new RowReader(q, ctx.host)
    ctx.readers.set(q, r)
  }
  return r
}

/** Opens an explicit cursor with its arguments bound to its parameters. */
export async function openCursor(ctx: Frame, slot: Extract<Slot, { k: "cursor" }>, args: ReadonlyArray<Expr>): Promise<RowReader> {
  if (slot.reader !== undefined) throw predefined(6511, line(ctx))
  const names = new Map<string, Slot>()
  for (let i = 0; i < slot.decl.params.length; i++) {
    const a = args[i]
    names.set(slot.decl.params[i]!, { k: "var", value: a === undefined ? null : await evaluate(ctx, a), type: undefined, constant: true })
  }
  const outer = ctx.scope
  ctx.scope = { names, ...(outer === undefined ? {} : { parent: outer }) }
  try {
    const withRowid = forUpdateQuery(slot.decl.query) ? "tables" : false
    slot.reader = new RowReader(await compiledSql(ctx, slot.decl.query, () => openQuery(ctx, slot.decl.query, withRowid, "fetch")), ctx.host)
  } finally {
    ctx.scope = outer
  }
  return slot.reader
}


/** OPEN cursor [(args)], OPEN c FOR query, OPEN c FOR 'text' [USING ...]. */
export async function open(ctx: Frame, st: Extract<Stmt, { k: "open" }>): Promise<void> {
  if (st.query !== undefined && (st.using !== undefined || !isKw(st.query[0], "SELECT", "WITH") && !isOp(st.query[0], "("))) {
    // OPEN c FOR 'query' [USING binds]: dynamic SQL, bound by position
    const text = await evaluate(ctx, st.query)
    if (text === null || String(text).trim() === "") throw new OraError(900, "invalid SQL statement")
    const values: Array<DuckDBValue> = []
    for (const u of st.using ?? []) values.push(await evaluate(ctx, u.expr))
    // PL/SQL Language Reference, "OPEN FOR Statement": the cursor variable of a dynamic OPEN FOR must be weak
    if ((await strongCursorWidth(ctx, st.cursor)) !== undefined) throw new PlsCompileError(ctx.source, st.cursor.pos, 455, `cursor '${oracleName(st.cursor)}' cannot be used in dynamic SQL OPEN statement`)
    // FOR UPDATE SKIP LOCKED locks the rows as they are fetched, as a static OPEN FOR does (embedded-sql.ts)
    const result = await ctx.host.execute(String(text), [values], [], { batchErrors: false, dmlRowCounts: false, lockAsFetched: true })
    if (result.kind !== "query") throw new OraError(24338, "statement handle not executed")
    assign(ctx, [st.cursor], result)
    return
  }
  if (st.query !== undefined) {
    const width = await strongCursorWidth(ctx, st.cursor)
    const query = st.query
    // its rows locked at OPEN, those of FOR UPDATE SKIP LOCKED as they are fetched (by a FETCH or by the client)
    const result = await compiledSql(ctx, query, () => openQuery(ctx, query, false, "fetch"))
    if (width !== undefined && width !== result.columns.length) {
      // a query whose row does not match a strong cursor's RETURN type does not compile (PLS-00382)
      result.cursor.close()
      throw new PlsCompileError(ctx.source, st.query[0]!.pos, 382, "expression is of wrong type")
    }
    assign(ctx, [st.cursor], result)
    return
  }
  const slot = st.cursor.kind === "bind" ? undefined : lookup(ctx, oracleName(st.cursor))
  if (slot?.k !== "cursor") throw new PlsCompileError(ctx.source, st.cursor.pos, 201, `identifier '${st.cursor.text.toUpperCase()}' must be declared`)
  await openCursor(ctx, slot, st.args)
}

/** The number of columns a strong REF CURSOR variable's RETURN type has; undefined for a weak one. */
async function strongCursorWidth(ctx: Frame, cursor: Tok): Promise<number | undefined> {
  if (cursor.kind === "bind") return undefined
  const slot = lookup(ctx, oracleName(cursor))
  const returns = slot?.k === "var" && slot.type?.kind === "named" ? slot.type.cursorReturns : undefined
  if (returns === undefined) return undefined
  if (returns.kind === "rowtypeOf") return (await emptyRecord(ctx, returns.of, cursor.pos)).fields.size
  return recordType(ctx, returns)?.fields.length
}

/**
 * ROWTYPE_MISMATCH (ORA-06504) for a FETCH from a cursor variable whose rows do not match the INTO list: a cursor
 * variable's query is known only when it runs (PL/SQL Language Reference, "Cursor Variables": "If the return types
 * are not compatible, the error occurs at run time, raising ROWTYPE_MISMATCH"); an explicit cursor's mismatch stays
 * the compile error PLS-00394.
 */
export function checkFetchedRow(ctx: Frame, st: Extract<Stmt, { k: "fetch" }>, width: number): void {
  if (st.cursor.kind !== "bind" && lookup(ctx, oracleName(st.cursor))?.k === "cursor") return
  const single = st.into.length === 1 && st.into[0]!.length === 1 && st.into[0]![0]!.kind !== "bind" ? st.into[0]! : undefined
  let expected = st.into.length
  if (single !== undefined && st.bulk) {
    const found = collectionTarget(ctx, single)
    const elements = found === undefined ? false : recordElements(ctx, found.type)
    if (elements === true) return
    if (elements !== false) expected = elements.fields.length
  } else if (single !== undefined) {
    const slot = lookup(ctx, oracleName(single[0]!))
    if (slot?.k === "var" && slot.value instanceof PlsqlRecord) {
      if (slot.value.type === undefined && slot.value.fields.size === 0) return
      expected = slot.value.type?.fields.length ?? slot.value.fields.size
    }
  }
  if (expected !== width) throw predefined(6504, line(ctx, st.pos))
}
