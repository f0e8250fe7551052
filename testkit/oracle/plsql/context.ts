/**
 * What a built-in package (one module each: dbms-sql.ts, dbms-lob.ts, ...) sees of the running block: its
 * arguments' values, assignment to variables, SQL with the block's variables bound, the implicit results.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { LobSource } from "../plsql-lobs.ts"
import type { QueryResult } from "../statement.ts"
import type { Expr } from "./ast.ts"
import type { PlsqlHost } from "./host.ts"

/** A value a PL/SQL variable or bind holds: a scalar, or a cursor (a query's rows). */
export type PlsqlValue = DuckDBValue | QueryResult

/** The running block, as a built-in procedure reaches it. */
export interface CallContext {
  readonly host: PlsqlHost
  /** Evaluates an expression of the block. */
  evaluate(expr: Expr): Promise<DuckDBValue>
  /** The value a variable or bind names as it is (a cursor too), undefined when the expression is no such name. */
  valueOf(expr: Expr): PlsqlValue | undefined
  /** Assigns to a variable or bind (`expr` is the target's tokens). */
  assign(target: Expr, value: PlsqlValue): void
  /** Runs a DML statement with the block's variables bound; its row count. */
  runDml(toks: Expr): Promise<number>
  /** Cursors passed to DBMS_SQL.RETURN_RESULT, in order. */
  readonly implicit: Array<QueryResult>
  /** LOB variables' rows, for the DBMS_LOB writes (plsql-lobs.ts). */
  readonly lobs: Map<string, LobSource>
  /** "OWNER.PACKAGE" of the package whose subprogram is running, if one is (DBMS_SESSION.SET_CONTEXT's trust). */
  readonly unit: string | undefined
}

/** A built-in package: runs `procedure` with `args`, or returns false when it has no such procedure. */
export type BuiltinPackage = (ctx: CallContext, procedure: string, args: ReadonlyArray<Expr>) => Promise<boolean>
