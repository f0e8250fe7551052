/** EXECUTE IMMEDIATE (INTO, BULK COLLECT, USING, RETURNING) and FORALL, which runs a DML or EXECUTE IMMEDIATE once per element. */
import type { DuckDBValue } from "@duckdb/node-api"
import { ora, OraError } from "../errors.ts"
import { significantTokensOf } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import { assign, assignBulk, assignReturnedBulk, assignRow } from "./assignment.ts"
import type { Expr, Stmt } from "./ast.ts"
import { initialized } from "./collections.ts"
import type { Collection, Frame } from "./context.ts"
import { YIELD_EVERY, yieldToBreaks } from "./control.ts"
import { collectionVar } from "./conversion.ts"
import { expandRecords, oneSequenceValue, runDml, singleRowDml } from "./embedded-sql.ts"
import { checkMutating } from "./mutating-tables.ts"
import { refuseLocalCollectionsInDml } from "./local-collection-dml.ts"
import { PlsCompileError } from "./errors.ts"
import { evaluate, evaluateValue } from "./expressions.ts"
import { PlsqlRecord, recordElementAt } from "./records.ts"
import { RowReader } from "./row-reader.ts"

/**
 * `FORALL i IN lo..hi dml` / `INDICES OF c dml`: the DML once per subscript, i bound; SQL%ROWCOUNT the sum and
 * SQL%BULK_ROWCOUNT(i) each one's count. An iteration that fails undoes only its own statement and raises: the
 * earlier iterations' changes stay (the PL/SQL Language Reference, "Handling FORALL Exceptions Immediately").
 */
export async function forall(ctx: Frame, st: Extract<Stmt, { k: "forall" }>): Promise<void> {
  if (st.execute === undefined) refuseLocalCollectionsInDml(ctx, st.dml)
  let keys: Array<number | string>
  const of = st.indicesOf ?? st.valuesOf
  if (of !== undefined) {
    const found = of.length === 1 ? collectionVar(ctx, oracleName(of[0]!)) : undefined
    if (found === undefined) throw new PlsCompileError(ctx.source, of[0]?.pos ?? st.pos, 382, "expression is of wrong type")
    const c = initialized(found.slot.value as Collection | null)
    // VALUES OF: the index takes the elements' values, in the order of their subscripts
    keys = st.valuesOf !== undefined ? c.keys().map((k) => c.get(k) as number) : c.keys()
  } else {
    const low = Math.round(Number(await evaluate(ctx, st.low!)))
    const high = Math.round(Number(await evaluate(ctx, st.high!)))
    keys = []
    for (let n = low; n <= high; n++) keys.push(n)
  }
  ctx.bulkRowCounts = new Map()
  ctx.bulkExceptions = []
  let total = 0
  const outer = ctx.scope
  try {
    for (const [iteration, key] of keys.entries()) {
      if (++ctx.steps % YIELD_EVERY === 0) await yieldToBreaks(ctx)
      ctx.scope = { names: new Map([[st.index, { k: "var", value: key, type: { kind: "named", name: "PLS_INTEGER" }, constant: true }]]), ...(outer === undefined ? {} : { parent: outer }) }
      let count: number
      try {
        if (st.execute !== undefined) {
          await executeImmediate(ctx, st.execute)
          count = ctx.sqlRowCount ?? 0
        } else count = await runDml(ctx, await oneSequenceValue(ctx, expandRecords(ctx, await elementAsRecord(ctx, st.dml))))
      } catch (e) {
        // SAVE EXCEPTIONS: the failed iteration's statement is undone, its error kept, the next iteration runs
        if (!st.saveExceptions || !(e instanceof OraError) || e instanceof PlsCompileError || e.code === 3001 || e.code === 1013) throw e
        ctx.bulkExceptions.push({ index: iteration + 1, code: e.code })
        count = 0
      }
      ctx.bulkRowCounts.set(key, count)
      total += count
    }
  } finally {
    ctx.scope = outer
    ctx.sqlRowCount = total
  }
  // ORA-24381 once every iteration ran (PL/SQL Language Reference, "Handling FORALL Exceptions After FORALL Completes")
  if (ctx.bulkExceptions.length > 0) throw new OraError(24381, "error(s) in array DML")
}

/** The name a FORALL iteration gives the record element it writes (`VALUES v(i)`, `SET ROW = v(i)`). */
const ELEMENT = "FORALL$ROW"

/**
 * `dml` with a collection element written as a record (`INSERT ... VALUES v(i)`, `SET ROW = v(i)`) replaced by a name
 * of the iteration's scope holding that element, which record DML then expands to its fields.
 */
async function elementAsRecord(ctx: Frame, dml: Expr): Promise<Expr> {
  const at = recordElementAt(dml)
  if (at === undefined) return dml
  const value = await evaluateValue(ctx, dml.slice(at[0], at[1]))
  if (!(value instanceof PlsqlRecord)) return dml
  ctx.scope!.names.set(ELEMENT, { k: "var", value, type: undefined, constant: true })
  const pos = dml[at[0]]!.pos
  return [...dml.slice(0, at[0]), { kind: "ident", text: ELEMENT, value: ELEMENT, pos }, ...dml.slice(at[1])]
}

/** EXECUTE IMMEDIATE text [INTO | BULK COLLECT INTO] [USING ...] [RETURNING INTO]: run as the client runs the text. */
export async function executeImmediate(ctx: Frame, st: Extract<Stmt, { k: "execute" }>): Promise<void> {
  const text = await evaluate(ctx, st.expr)
  if (text === null || String(text).trim() === "") throw new OraError(900, "invalid SQL statement")
  const sql = String(text)
  // a row trigger's dynamic SQL is held to the mutating-table restriction as its static SQL is
  const toks = significantTokensOf(sql)
  if (toks !== undefined) checkMutating(ctx.host, toks, (schema, name) => ctx.host.lookupTable(schema, name))
  const values: Array<DuckDBValue> = []
  for (const u of st.using) values.push(u.mode === "OUT" ? null : await evaluate(ctx, u.expr))
  if (st.returning !== undefined) {
    // EXECUTE IMMEDIATE 'dml RETURNING ... INTO :a' USING ... RETURNING [BULK COLLECT] INTO targets
    const row = [...values, ...st.returning.into.map(() => null)]
    if (st.returning.bulk) {
      const result = await ctx.host.execute(sql, [row], [], { batchErrors: false, dmlRowCounts: false })
      if (result.kind !== "dml") throw ora.invalidSql()
      ctx.sqlRowCount = result.rowCount
      return assignReturnedBulk(ctx, st.returning.into, result.returning ?? [], result.rowCount)
    }
    const result = await singleRowDml(ctx, sql, row)
    ctx.sqlRowCount = result.rowCount
    st.returning.into.forEach((t, i) => assign(ctx, t, (result.returning?.[i]?.[0] ?? null) as DuckDBValue))
    return
  }
  const result = await ctx.host.execute(sql, [values], [], { batchErrors: false, dmlRowCounts: false })
  switch (result.kind) {
    case "query": {
      if (st.into.length === 0) {
        result.cursor.close()
        return
      }
      const reader = new RowReader(result, ctx.host)
      if (st.bulk) {
        try {
          const rows = await reader.take(Infinity)
          assignBulk(ctx, st.into, reader.names, rows)
          ctx.sqlRowCount = rows.length
        } finally {
          reader.close()
        }
        return
      }
      try {
        const row = await reader.next()
        if (row === undefined) throw ora.noDataFound()
        if ((await reader.next()) !== undefined) throw new OraError(1422, "exact fetch returns more than requested number of rows")
        assignRow(ctx, st.into, reader.names, row)
      } finally {
        reader.close()
      }
      ctx.sqlRowCount = 1
      return
    }
    case "dml":
      ctx.sqlRowCount = result.rowCount
      return
    case "plsql":
      st.using.forEach((u, i) => {
        if (u.mode !== "IN") assign(ctx, u.expr, result.values[i] ?? null)
      })
      return
    default:
      ctx.sqlRowCount = 0
  }
}
