/** Runs a block and its statements: control flow (IF, CASE, loops, EXIT / CONTINUE, RETURN), handlers, and dispatch of every other statement to its module. */
import { ora } from "../errors.ts"
import { isKw } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import { assign, assignBulk, assignRow, notNullTarget } from "./assignment.ts"
import type { Block, Stmt } from "./ast.ts"
import { runAutonomously } from "./autonomous.ts"
import { asCharacter, isCharacterTarget } from "./character-targets.ts"
import type { Frame, Slot } from "./context.ts"
import { GotoSignal, LoopContinue, LoopExit, ReturnSignal, YIELD_EVERY, yieldToBreaks } from "./control.ts"
import { checkFetchedRow, open, openCursor, readerOf } from "./cursors.ts"
import { declare } from "./declarations.ts"
import { executeImmediate, forall } from "./dynamic-sql.ts"
import { compiledSql, openQuery, sqlStatement } from "./embedded-sql.ts"
import { ignoredAt, PlsCompileError, PlsqlException, predefined } from "./errors.ts"
import { at, matches, raise } from "./exception-handling.ts"
import { condition, equals, evaluate, evaluateValue } from "./expressions.ts"
import { isCharExpression } from "./render.ts"
import { packageMember, targetPackage } from "./package-instances.ts"
import { pipeRow } from "./pipelined.ts"
import { columnKinds, PlsqlRecord } from "./records.ts"
import { RowReader } from "./row-reader.ts"
import { reassignedLocator } from "./lob-locators.ts"
import { line, lookup } from "./scope.ts"
import { call } from "./subprograms.ts"

/** Runs a block: its declarations, then its statements with its handlers around them. */
export async function runBlock(ctx: Frame, block: Block, init?: (names: Map<string, Slot>) => void): Promise<void> {
  if (block.autonomous === true) return runAutonomously(ctx, () => runBlockHere(ctx, block, init))
  return runBlockHere(ctx, block, init)
}

async function runBlockHere(ctx: Frame, block: Block, init?: (names: Map<string, Slot>) => void): Promise<void> {
  const outer = ctx.scope
  const names = new Map<string, Slot>()
  init?.(names)
  ctx.scope = block.label === undefined ? { names, ...(outer === undefined ? {} : { parent: outer }) } : { label: block.label, names, ...(outer === undefined ? {} : { parent: outer }) }
  try {
    for (const d of block.decls) {
      await at(ctx, d.pos, () => declare(ctx, names, d)).catch((e: unknown) => {
        throw ignoredAt(ctx.source, d.pos, e, "Item")
      })
    }
    try {
      await statements(ctx, block.body)
    } catch (e) {
      if (!(e instanceof PlsqlException)) throw e
      let handler: (typeof block.handlers)[number] | undefined
      for (const h of block.handlers) {
        for (const n of h.names) if (handler === undefined && (await matches(ctx, n, e))) handler = h
        if (handler !== undefined) break
      }
      if (handler === undefined) throw e
      ctx.handling.push(e)
      try {
        await statements(ctx, handler.body)
      } finally {
        ctx.handling.pop()
      }
    }
  } finally {
    ctx.scope = outer
  }
}

/** Runs statements in order, each at its own line, looking at the socket every YIELD_EVERY statements. */
async function statements(ctx: Frame, list: ReadonlyArray<Stmt>): Promise<void> {
  let from = 0
  for (;;) {
    try {
      for (let k = from; k < list.length; k++) {
        const st = list[k]!
        if (++ctx.steps % YIELD_EVERY === 0) await yieldToBreaks(ctx)
        await at(ctx, st.pos, () => statement(ctx, st)).catch((e: unknown) => {
          throw ignoredAt(ctx.source, st.pos, e, "Statement")
        })
      }
      return
    } catch (e) {
      // GOTO a label of this list (goto-targets.ts allowed only those of enclosing lists): on from the label
      const target = e instanceof GotoSignal ? list.findIndex((st) => st.k === "label" && st.name === e.label) : -1
      if (target < 0) throw e
      from = target + 1
    }
  }
}

// --- statements --------------------------------------------------------------------------------------------------

/** Runs one statement. */
async function statement(ctx: Frame, st: Stmt): Promise<void> {
  switch (st.k) {
    case "null":
    case "label":
      return
    case "goto":
      throw new GotoSignal(st.label)
    case "assign":
      if (st.expr.length === 1 && isKw(st.expr[0], "NULL") && notNullTarget(ctx, st.target)) throw new PlsCompileError(ctx.source, st.expr[0]!.pos, 382, "expression is of wrong type")
      await targetPackage(ctx, st.target)
      // (an interval assigned to a character variable or bind: its text as TO_CHAR gives it)
      assign(ctx, st.target, await evaluateValue(ctx, isCharacterTarget(ctx, st.target) ? asCharacter(ctx, st.expr) : st.expr))
      return reassignedLocator(ctx, st.target, st.expr)
    case "block":
      return runBlock(ctx, st.block)
    case "if": {
      for (const b of st.branches) if (await condition(ctx, b.cond)) return statements(ctx, b.body)
      if (st.otherwise !== undefined) await statements(ctx, st.otherwise)
      return
    }
    case "case": {
      const selector = st.selector === undefined ? undefined : await evaluate(ctx, st.selector)
      const selectorChar = st.selector !== undefined && typeof selector === "string" && isCharExpression(ctx, st.selector)
      for (const w of st.whens) {
        const hit = st.selector === undefined ? await condition(ctx, w.when) : selector !== null && selector !== undefined && (await equals(ctx, selector, w.when, selectorChar))
        if (hit) return statements(ctx, w.body)
      }
      if (st.otherwise === undefined) throw predefined(6592, line(ctx, st.pos))
      return statements(ctx, st.otherwise)
    }
    case "loop":
      for (;;) if (!(await iteration(ctx, st.label, st.body))) return
    case "while":
      while (await condition(ctx, st.cond)) if (!(await iteration(ctx, st.label, st.body))) return
      return
    case "for": {
      const low = Math.round(Number(await evaluate(ctx, st.low)))
      const high = Math.round(Number(await evaluate(ctx, st.high)))
      for (let n = st.reverse ? high : low; st.reverse ? n >= low : n <= high; n += st.reverse ? -1 : 1) {
        const index = new Map<string, Slot>([[st.index, { k: "var", value: n, type: { kind: "named", name: "PLS_INTEGER" }, constant: true }]])
        if (!(await iteration(ctx, st.label, st.body, index))) return
      }
      return
    }
    case "cursorFor":
      return cursorFor(ctx, st)
    case "exit":
    case "continue": {
      if (st.when !== undefined && !(await condition(ctx, st.when))) return
      throw st.k === "exit" ? new LoopExit(st.label) : new LoopContinue(st.label)
    }
    case "pipeRow":
      return pipeRow(ctx, st.expr)
    case "return":
      throw new ReturnSignal(st.expr === undefined ? undefined : await evaluateValue(ctx, st.expr))
    case "commit":
      return ctx.host.commit()
    case "rollback":
      return ctx.host.rollback()
    case "sql":
      return sqlStatement(ctx, st.toks)
    case "open":
      return open(ctx, st)
    case "fetch": {
      const reader = readerOf(ctx, st.cursor)
      if (reader === undefined) throw ora.invalidCursor()
      for (const target of st.into) await targetPackage(ctx, target)
      if (st.bulk) {
        const limit = st.limit === undefined ? Infinity : Number(await evaluate(ctx, st.limit))
        checkFetchedRow(ctx, st, reader.names.length)
        const rows = await reader.take(limit)
        assignBulk(ctx, st.into, reader.names, rows)
        return
      }
      const row = await reader.next()
      if (row !== undefined) checkFetchedRow(ctx, st, row.length)
      if (row !== undefined) assignRow(ctx, st.into, reader.names, row)
      return
    }
    case "close": {
      if (st.cursor.kind !== "bind") {
        const slot = lookup(ctx, oracleName(st.cursor))
        if (slot?.k === "cursor") {
          if (slot.reader === undefined) throw ora.invalidCursor()
          slot.reader.close()
          delete slot.reader
          return
        }
      }
      const reader = readerOf(ctx, st.cursor)
      if (reader === undefined) throw ora.invalidCursor()
      reader.close()
      return
    }
    case "execute":
      return executeImmediate(ctx, st)
    case "forall":
      return forall(ctx, st)
    case "raise":
      return raise(ctx, st)
    case "call":
      return call(ctx, st)
  }
}

/** One pass of a loop body; false when the loop ends (EXIT of ctx loop). */
async function iteration(ctx: Frame, label: string | undefined, body: ReadonlyArray<Stmt>, names?: Map<string, Slot>): Promise<boolean> {
  const outer = ctx.scope
  if (names !== undefined) ctx.scope = { names, ...(outer === undefined ? {} : { parent: outer }) }
  try {
    await statements(ctx, body)
    return true
  } catch (e) {
    if (e instanceof LoopExit && (e.label === undefined || e.label === label)) return false
    if (e instanceof LoopContinue && (e.label === undefined || e.label === label)) return true
    throw e
  } finally {
    ctx.scope = outer
  }
}

/** FOR rec IN cursor | (query) LOOP: one iteration per row, the cursor closed after. */
async function cursorFor(ctx: Frame, st: Extract<Stmt, { k: "cursorFor" }>): Promise<void> {
  let reader: RowReader
  let slot: Extract<Slot, { k: "cursor" }> | undefined
  if (st.query !== undefined) reader = new RowReader(await compiledSql(ctx, st.query, () => openQuery(ctx, st.query!, false, "fetch")), ctx.host)
  else {
    const dotted = st.cursor!.split(".")
    const found = dotted.length > 1 ? await packageMember(ctx, dotted.slice(0, -1), dotted[dotted.length - 1]!, { kind: "ident", text: st.cursor!, value: st.cursor!, pos: st.pos }) : lookup(ctx, st.cursor!)
    if (found?.k !== "cursor") throw new PlsCompileError(ctx.source, st.pos, 201, `identifier '${st.cursor!}' must be declared`)
    slot = found
    reader = await openCursor(ctx, found, st.args)
  }
  const kinds = columnKinds(reader.result.columns)
  try {
    for (;;) {
      const row = await reader.next()
      if (row === undefined) return
      const record = new PlsqlRecord(new Map(reader.names.map((n, i) => [n, row[i] ?? null])), undefined, kinds)
      const names = new Map<string, Slot>([[st.record, { k: "var", value: record, type: undefined, constant: false }]])
      if (!(await iteration(ctx, st.label, st.body, names))) return
    }
  } finally {
    reader.close()
    if (slot !== undefined) delete slot.reader
  }
}
