/**
 * What a built-in package (one module each: dbms-sql.ts, dbms-lob.ts, ...) sees of the running block: its
 * arguments' values, assignment to variables, SQL with the block's variables bound, the implicit results; and the
 * frame the interpreter's own modules share (Frame).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { LobSource } from "../plsql-lobs.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import type { BindSpec, QueryResult } from "../statement.ts"
import type { Block, Decl, Expr, Subprogram, TypeSpec } from "./ast.ts"
import type { CollectionType, PlsqlCollection } from "./collections.ts"
import type { PlsqlException, UserException } from "./errors.ts"
import type { PlsqlJson } from "./json-dom.ts"
import type { PlsqlHost } from "./host.ts"
import type { PlsqlRecord, RecordType } from "./records.ts"
import type { RowReader } from "./row-reader.ts"
import type { ValueKind } from "./value-kinds.ts"

/** A value a PL/SQL variable or bind holds: a scalar, or a cursor (a query's rows). */
export type PlsqlValue = DuckDBValue | QueryResult

/** The running block, as a built-in procedure reaches it. */
export interface CallContext {
  readonly host: PlsqlHost
  /** Evaluates an expression of the block. */
  evaluate(expr: Expr): Promise<DuckDBValue>
  /** Evaluates an expression passed as VARCHAR2 (an interval as its text: character-targets.ts). */
  evaluateText(expr: Expr): Promise<DuckDBValue>
  /** The value a variable or bind names as it is (a cursor too), undefined when the expression is no such name. */
  valueOf(expr: Expr): PlsqlValue | undefined
  /** Assigns to a variable or bind (`expr` is the target's tokens). */
  assign(target: Expr, value: PlsqlValue): void
  /** Runs a DML statement with the block's variables bound; its row count. */
  runDml(toks: Expr): Promise<number>
  /** Cursors passed to DBMS_SQL.RETURN_RESULT, in order. */
  readonly implicit: Array<QueryResult>
  /** The LOB type a variable or bind is declared with (DBMS_LOB.CREATETEMPORARY's new LOB: lob-locators.ts). */
  lobKindOf(target: Expr): "clob" | "blob"
  /** LOB variables' rows, for the DBMS_LOB writes (plsql-lobs.ts). */
  readonly lobs: Map<string, LobSource>
  /** "OWNER.PACKAGE" of the package whose subprogram is running, if one is (DBMS_SESSION.SET_CONTEXT's trust). */
  readonly unit: string | undefined
}

/** A built-in package: runs `procedure` with `args`, or returns false when it has no such procedure. */
export type BuiltinPackage = (ctx: CallContext, procedure: string, args: ReadonlyArray<Expr>) => Promise<boolean>

/** A collection variable's value. */
export type Collection = PlsqlCollection<DuckDBValue | PlsqlRecord>

/** What a PL/SQL variable holds: a scalar or cursor, a record, a collection, an instance of a JSON object type. */
export type Value = PlsqlValue | PlsqlRecord | Collection | PlsqlJson

/** A name declared in a block. */
export type Slot =
  | { readonly k: "var"; value: Value; readonly type: TypeSpec | undefined; readonly constant: boolean }
  | { readonly k: "cursor"; readonly decl: Extract<Decl, { k: "cursor" }>; reader?: RowReader }
  | { readonly k: "exception"; readonly ex: UserException }
  | { readonly k: "type"; readonly type: CollectionType }
  | { readonly k: "recordType"; readonly type: RecordType }
  | { readonly k: "subtype"; readonly type: TypeSpec }
  | { readonly k: "subprogram"; readonly sub: Subprogram; readonly scope: Scope | undefined; overloads?: Array<Subprogram> }

/** One block's names (a loop's index, a subprogram's parameters), inside its enclosing ones. */
export interface Scope {
  readonly label?: string
  readonly names: Map<string, Slot>
  readonly parent?: Scope
}

/** The client's binds of the top-level block. */
export interface BindEnv {
  readonly binds: Map<string, number>
  readonly values: Array<PlsqlValue>
  /** The binds' types, by index (a TIMESTAMP WITH TIME ZONE bind is computed on as zoned text, datetime-binds.ts). */
  readonly specs?: ReadonlyArray<BindSpec> | undefined
  readonly assigned: Set<number>
  readonly read: Set<number>
}

/**
 * One frame of PL/SQL execution (an anonymous block, a stored procedure's body, a package's code): the state the
 * interpreter's modules (statements.ts, expressions.ts, embedded-sql.ts, ...) share. interpreter.ts implements it;
 * the methods here are the ones a module calls on a module that imports it (so no module imports back).
 */
export interface Frame extends CallContext {
  /** The session the frame's SQL runs on: an autonomous routine's own while it runs (autonomous.ts). */
  host: PlsqlHost
  /** The PL/SQL source of the running unit: compile errors and ORA-06512 lines point into it. */
  readonly source: string
  readonly binds: BindEnv
  /** "OWNER.PACKAGE" when this frame runs a package's subprogram or initialization. */
  unit: string | undefined
  scope: Scope | undefined
  sqlRowCount: number | null
  /** SQL%BULK_ROWCOUNT of the last FORALL, by subscript. */
  bulkRowCounts: Map<number | string, number>
  /** SQL%BULK_EXCEPTIONS of the last FORALL ... SAVE EXCEPTIONS: the failed iterations (from 1) and their error codes. */
  bulkExceptions: Array<{ readonly index: number; readonly code: number }>
  /** Exceptions being handled (innermost last): SQLCODE, SQLERRM and `RAISE;` read the last. */
  handling: Array<PlsqlException>
  /** The rows a running pipelined function piped so far (pipelined.ts); undefined outside one. */
  piped: Array<Value> | undefined
  /** Where the running statement starts in `source`. */
  pos: number
  /** Statements run so far (a look at the socket every YIELD_EVERY: control.ts). */
  steps: number
  /** Values of local function calls an expression made, by the bind token that stands for each. */
  readonly callResults: Map<string, { value: Value; kind?: ValueKind | undefined; char?: true }>
  calls: number
  /** Readers of REF CURSOR values being fetched from in this block. */
  readonly readers: WeakMap<QueryResult, RowReader>
  assign(target: Expr, value: Value): void
  /** Runs a block: its declarations, then its statements with its handlers around them (statements.ts). */
  runBlock(block: Block, init?: (names: Map<string, Slot>) => void): Promise<void>
  /** Evaluates an expression of the block to any PL/SQL value (a record, collection or JSON object type instance too). */
  evaluateValue(expr: Expr): Promise<Value>
  /** Runs a local or package subprogram (subprograms.ts). */
  callLocal(slot: Extract<Slot, { k: "subprogram" }>, args: ReadonlyArray<Expr>): Promise<Value>
  /** Runs a stored procedure or function (subprograms.ts). */
  invoke(proc: PlsqlProcedure, args: ReadonlyArray<Expr>): Promise<Value>
  /** A new frame on the same session for code of `source` (a package's, a stored unit's), sharing the implicit results. */
  frame(source: string): Frame
  /** Runs a stored function for a SQL statement of the block, once per row (sql-functions.ts). */
  callFromSql(fn: PlsqlProcedure, args: ReadonlyArray<DuckDBValue>): Promise<unknown>
}
