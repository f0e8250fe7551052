/**
 * Runs parsed PL/SQL (ast.ts). A frame (context.ts, Frame) holds a running unit's state; the modules of this folder
 * act on it by role: statements.ts (blocks, control flow), declarations.ts, expressions.ts (with names.ts and
 * render.ts), assignment.ts, cursors.ts, embedded-sql.ts and dynamic-sql.ts (SQL inside a block), subprograms.ts and
 * package-instances.ts (calls), exception-handling.ts. Expressions are SQL expressions, evaluated by the server's
 * SQL engine as `SELECT expr` with the PL/SQL names they use bound as parameters.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { asCharacter } from "./character-targets.ts"
import { OraError } from "../errors.ts"
import type { Tok } from "../lexer.ts"
import type { LobSource } from "../plsql-lobs.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import type { QueryResult } from "../statement.ts"
import type { Block, Expr } from "./ast.ts"
import type { BindEnv, Frame, PlsqlValue, Scope, Slot, Value } from "./context.ts"
import { PlsqlException } from "./errors.ts"
import type { PlsqlHost } from "./host.ts"
import { asRestrictedCall } from "./restricted-calls.ts"
import { assign } from "./assignment.ts"
import { LoopContinue, LoopExit, ReturnSignal } from "./control.ts"
import { runDml } from "./embedded-sql.ts"
import { evaluate, evaluateValue } from "./expressions.ts"
import { declaredLobKind } from "./lob-locators.ts"
import { valueOf } from "./names.ts"
import type { RowReader } from "./row-reader.ts"
import { argumentValue, resultKind } from "./sql-functions.ts"
import { runBlock } from "./statements.ts"
import { invalidFromSql } from "./compile-errors.ts"
import { callLocal, invoke } from "./subprograms.ts"
import { revalidated } from "./unit-compilation.ts"
import type { ValueKind } from "./value-kinds.ts"

export { rowsOfQuery } from "./row-reader.ts"

/** One frame of PL/SQL execution: an anonymous block or a stored procedure's body. */
export class Interpreter implements Frame {
  readonly lobs = new Map<string, LobSource>()
  unit: string | undefined
  scope: Scope | undefined
  sqlRowCount: number | null = null
  bulkRowCounts = new Map<number | string, number>()
  bulkExceptions: Array<{ readonly index: number; readonly code: number }> = []
  handling: Array<PlsqlException> = []
  piped: Array<Value> | undefined = undefined
  pos = 0
  steps = 0
  readonly callResults = new Map<string, { value: Value; kind?: ValueKind | undefined; char?: true }>()
  calls = 0
  readonly readers = new WeakMap<QueryResult, RowReader>()

  constructor(
    public host: PlsqlHost,
    readonly source: string,
    readonly binds: BindEnv,
    readonly implicit: Array<QueryResult>
  ) {}

  evaluate(expr: Expr): Promise<DuckDBValue> {
    return evaluate(this, expr)
  }

  evaluateValue(expr: Expr): Promise<Value> {
    return evaluateValue(this, expr)
  }

  evaluateText(expr: Expr): Promise<DuckDBValue> {
    return evaluate(this, asCharacter(this, expr))
  }

  valueOf(expr: Expr): PlsqlValue | undefined {
    return valueOf(this, expr)
  }

  assign(target: Expr, value: Value): void {
    assign(this, target, value)
  }

  lobKindOf(target: Expr): "clob" | "blob" {
    return declaredLobKind(this, target)
  }

  runDml(toks: Expr): Promise<number> {
    return runDml(this, toks)
  }

  runBlock(block: Block, init?: (names: Map<string, Slot>) => void): Promise<void> {
    return runBlock(this, block, init)
  }

  callLocal(slot: Extract<Slot, { k: "subprogram" }>, args: ReadonlyArray<Expr>): Promise<Value> {
    return callLocal(this, slot, args)
  }

  invoke(proc: PlsqlProcedure, args: ReadonlyArray<Expr>): Promise<Value> {
    return invoke(this, proc, args)
  }

  frame(source: string): Frame {
    return new Interpreter(this.host, source, { binds: new Map(), values: [], assigned: new Set(), read: new Set() }, this.implicit)
  }

  callFromSql(fn: PlsqlProcedure, args: ReadonlyArray<DuckDBValue>): Promise<unknown> {
    return callFromSql(this.host, fn, args)
  }
}

/** Runs a top-level block; an exception nobody handled reaches the client as Oracle reports it (ORA-06512 lines). */
export const runTopLevel = async (interp: Interpreter, block: Block): Promise<void> => {
  try {
    await interp.runBlock(block)
  } catch (e) {
    if (e instanceof ReturnSignal) return
    if (e instanceof PlsqlException) throw e.toClient()
    if (e instanceof LoopExit || e instanceof LoopContinue) throw new OraError(6550, "line 1, column 1:\nPLS-00376: illegal EXIT/CONTINUE statement; it must appear inside a loop")
    throw e
  }
}

/**
 * Runs stored function `fn` with argument values for a SQL statement: its result; NULL for an unhandled
 * NO_DATA_FOUND, which SQL takes as "no row" (https://talkapex.com/nodatafound-exceptions-in-plsql-functions-called-in-queries);
 * another exception as the client sees it from SQL, with the function's ORA-06512 lines and no block line.
 */
export const callFromSql = (host: PlsqlHost, fn: PlsqlProcedure, args: ReadonlyArray<DuckDBValue>): Promise<unknown> =>
  asRestrictedCall(host, () => runFunctionForSql(host, fn, args))

const runFunctionForSql = async (host: PlsqlHost, fn: PlsqlProcedure, args: ReadonlyArray<DuckDBValue>): Promise<unknown> => {
  const names = args.map((_, i) => `A${i + 1}`)

  const values = args.map((a, i) => argumentValue(a, resultKind(fn.params[i]?.type) === "number"))
  const env: BindEnv = { binds: new Map(names.map((n, i) => [n, i])), values, assigned: new Set(), read: new Set() }
  if (revalidated(host, fn).errors !== undefined) throw new OraError(6575, invalidFromSql(fn.name))
  const argToks = names.map((n): Array<Tok> => [{ kind: "bind", text: `:${n}`, value: n, pos: 0 }])
  try {
    const interp = new Interpreter(host, "", env, [])
    if (fn.package === undefined) return await interp.invoke(fn, argToks)
    // a packaged function runs in the session's instance of its package, as `owner.pkg.f(args)` of a block
    const call = [`"${fn.owner}"`, ".", `"${fn.package}"`, ".", `"${fn.name}"`].map((text, i): Tok => (i % 2 === 1 ? { kind: "op", text, value: text, pos: 0 } : { kind: "qident", text, value: text.slice(1, -1), pos: 0 }))
    const separated = argToks.flatMap((a, i): Array<Tok> => (i === 0 ? a : [{ kind: "op", text: ",", value: ",", pos: 0 }, ...a]))
    // evaluated as a value: a collection result (TABLE(pkg.f(args)): client-table-collections.ts) stays one
    return await evaluateValue(interp, [...call, { kind: "op", text: "(", value: "(", pos: 0 }, ...separated, { kind: "op", text: ")", value: ")", pos: 0 }])
  } catch (e) {
    if (e instanceof PlsqlException) {
      if (e.code === 1403 && e.user === undefined) return null
      const err = e.toClient()
      throw new OraError(err.code, err.detail.replace(/\nORA-06512: at line \d+$/, ""))
    }
    // SQL reports a call that matches no parameter list as ORA-06553 (Error Messages, ORA-06553)
    if (e instanceof OraError && e.code === 6550 && /PLS-00306/.test(e.detail)) throw new OraError(6553, `PLS-306: wrong number or types of arguments in call to '${fn.name}'`)
    throw e
  }
}
