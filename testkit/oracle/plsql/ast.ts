/**
 * The syntax tree of a PL/SQL block as parser.ts builds it. Expressions and SQL statements stay token ranges: the
 * interpreter hands them to the server's SQL engine with the PL/SQL names they use bound as parameters.
 */
import type { Tok } from "../lexer.ts"

/** Tokens of an expression or of a SQL statement. */
export type Expr = ReadonlyArray<Tok>

/** Where a statement starts (token position in the source text), for ORA-06512 "at line n". */
export interface At {
  readonly pos: number
}

/** A variable's declared type: its words (`VARCHAR2(10)`, `NUMBER`), or `%TYPE` / `%ROWTYPE` of a name. */
export type TypeSpec =
  | {
      readonly kind: "named"
      readonly name: string
      /** VARCHAR2(n) / NUMBER(p,s) size or precision; `chars` for VARCHAR2(n CHAR); `scale` of NUMBER(p,s). */
      readonly size?: number
      readonly scale?: number
      readonly chars?: boolean
      /** A constrained subtype's `NOT NULL` (or a variable's), and its `RANGE low..high`. */
      readonly notNull?: boolean
      readonly range?: readonly [number, number]
      /** A strong REF CURSOR type's `RETURN` type, the rows it may be opened for. */
      readonly cursorReturns?: TypeSpec
    }
  | { readonly kind: "typeOf"; readonly of: ReadonlyArray<string> }
  | { readonly kind: "rowtypeOf"; readonly of: ReadonlyArray<string> }

/** One declaration of a DECLARE section (or of a procedure's IS section). */
export type Decl = At &
  (
    | { readonly k: "var"; readonly name: string; readonly type: TypeSpec; readonly constant: boolean; readonly notNull: boolean; readonly init?: Expr }
    | { readonly k: "cursor"; readonly name: string; readonly params: ReadonlyArray<string>; readonly query: Expr }
    | { readonly k: "exception"; readonly name: string }
    | { readonly k: "exceptionInit"; readonly name: string; readonly code: number }
    | { readonly k: "collectionType"; readonly type: CollectionType }
    | { readonly k: "recordType"; readonly type: RecordType }
    | { readonly k: "subprogram"; readonly sub: Subprogram }
    | { readonly k: "subtype"; readonly name: string; readonly type: TypeSpec }
  )

/** A parameter of a local function or procedure: `name [IN | OUT | IN OUT] [NOCOPY] type [:= | DEFAULT expr]`. */
export interface Param {
  readonly name: string
  readonly mode: "IN" | "OUT" | "IN OUT"
  readonly type: TypeSpec
  readonly default?: Expr
}

/** A function or procedure declared in a DECLARE section (`returns` for a function); no body for a forward declaration. */
export interface Subprogram {
  readonly name: string
  readonly params: ReadonlyArray<Param>
  readonly returns?: TypeSpec
  readonly body?: Block
  /** Declared PIPELINED: returns the rows its PIPE ROW statements give (pipelined.ts). */
  readonly pipelined?: boolean
}

/** `WHEN a OR b THEN statements` of an EXCEPTION section (`OTHERS` is a name here). */
export interface Handler {
  readonly names: ReadonlyArray<string>
  readonly body: ReadonlyArray<Stmt>
}

/** `[<<label>>] [DECLARE ...] BEGIN ... [EXCEPTION ...] END [label];` */
export interface Block extends At {
  readonly label?: string
  readonly decls: ReadonlyArray<Decl>
  /** Declared PRAGMA AUTONOMOUS_TRANSACTION: runs in a transaction of its own (autonomous.ts). */
  readonly autonomous?: boolean
  readonly body: ReadonlyArray<Stmt>
  readonly handlers: ReadonlyArray<Handler>
}

/** `USING [IN | OUT | IN OUT] expr` of EXECUTE IMMEDIATE. */
export interface UsingArg {
  readonly mode: "IN" | "OUT" | "IN OUT"
  readonly expr: Expr
}

/** One PL/SQL statement. */
export type Stmt = At &
  (
    | { readonly k: "assign"; readonly target: Expr; readonly expr: Expr }
    | { readonly k: "if"; readonly branches: ReadonlyArray<{ readonly cond: Expr; readonly body: ReadonlyArray<Stmt> }>; readonly otherwise?: ReadonlyArray<Stmt> }
    | { readonly k: "case"; readonly selector?: Expr; readonly whens: ReadonlyArray<{ readonly when: Expr; readonly body: ReadonlyArray<Stmt> }>; readonly otherwise?: ReadonlyArray<Stmt> }
    | { readonly k: "loop"; readonly label?: string; readonly body: ReadonlyArray<Stmt> }
    | { readonly k: "while"; readonly label?: string; readonly cond: Expr; readonly body: ReadonlyArray<Stmt> }
    | { readonly k: "for"; readonly label?: string; readonly index: string; readonly reverse: boolean; readonly low: Expr; readonly high: Expr; readonly body: ReadonlyArray<Stmt> }
    | { readonly k: "cursorFor"; readonly label?: string; readonly record: string; readonly query?: Expr; readonly cursor?: string; readonly args: ReadonlyArray<Expr>; readonly body: ReadonlyArray<Stmt> }
    | { readonly k: "exit" | "continue"; readonly label?: string; readonly when?: Expr }
    | { readonly k: "null" }
    /** `<<name>>` before a statement: where a GOTO name continues (the next statement of its list). */
    | { readonly k: "label"; readonly name: string }
    | { readonly k: "goto"; readonly label: string }
    | { readonly k: "return"; readonly expr?: Expr }
    /** `PIPE ROW (expr)` of a pipelined function (pipelined.ts). */
    | { readonly k: "pipeRow"; readonly expr: Expr }
    | { readonly k: "sql"; readonly toks: Expr }
    | { readonly k: "commit" }
    | { readonly k: "rollback" }
    | { readonly k: "open"; readonly cursor: Tok; readonly args: ReadonlyArray<Expr>; readonly query?: Expr; readonly using?: ReadonlyArray<UsingArg> }
    | { readonly k: "fetch"; readonly cursor: Tok; readonly into: ReadonlyArray<Expr>; readonly bulk: boolean; readonly limit?: Expr }
    | { readonly k: "close"; readonly cursor: Tok }
    | {
        readonly k: "execute"
        readonly expr: Expr
        readonly into: ReadonlyArray<Expr>
        readonly bulk: boolean
        readonly using: ReadonlyArray<UsingArg>
        /** `RETURNING [BULK COLLECT] INTO targets` after USING. */
        readonly returning?: { readonly into: ReadonlyArray<Expr>; readonly bulk: boolean }
      }
    | {
        readonly k: "forall"
        readonly index: string
        readonly low?: Expr
        readonly high?: Expr
        readonly indicesOf?: Expr
        readonly valuesOf?: Expr
        readonly saveExceptions: boolean
        readonly dml: Expr
        /** FORALL of EXECUTE IMMEDIATE. */
        readonly execute?: Extract<Stmt, { k: "execute" }>
      }
    | { readonly k: "raise"; readonly name?: string }
    | {
        readonly k: "call"
        readonly name: ReadonlyArray<string>
        readonly nameTok: Tok
        readonly args: ReadonlyArray<Expr>
        /** `e.p(args);` of a method of what expression `e` returns (`o.get_object('a').put('b', 1);`): e, and `p` as name. */
        readonly self?: Expr
      }
    | { readonly k: "block"; readonly block: Block }
  )

/** A collection type of a DECLARE section. */
export interface CollectionType {
  readonly name: string
  readonly kind: "table" | "varray" | "assoc"
  readonly element: TypeSpec
  /** A VARRAY's maximum size. */
  readonly limit?: number
  /** An associative array indexed by VARCHAR2 (or STRING, LONG), not by an integer type. */
  readonly indexedByText?: boolean
}

/** A field of a record type. */
export interface RecordField {
  readonly name: string
  readonly type: TypeSpec
  readonly notNull: boolean
  readonly init?: Expr
}

/** A record type of a DECLARE section or package. */
export interface RecordType {
  readonly name: string
  readonly fields: ReadonlyArray<RecordField>
}
