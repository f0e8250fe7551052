/**
 * Recursive-descent parser for PL/SQL blocks over the server's SQL tokens (lexer.ts). Statements and declarations
 * become ast.ts nodes; expressions and embedded SQL stay token ranges. A statement it cannot parse fails as Oracle's
 * compiler does, PLS-00103 inside ORA-06550 with the line and column of the offending symbol.
 */
import { ora } from "../errors.ts"
import { isKw, isOp, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Block, Decl, Expr, Handler, Param, Stmt, TypeSpec, UsingArg } from "./ast.ts"
import type { RecordField } from "./records.ts"
import { unexpectedSymbol } from "./errors.ts"

/** Words that end a statement list (the next clause of the enclosing statement). */
const LIST_END = ["END", "ELSIF", "ELSE", "EXCEPTION", "WHEN"]
/** Statements the interpreter does not run yet (ORA-03001). */
const NOT_YET: ReadonlyMap<string, string> = new Map([
  ["GOTO", "GOTO"],
  ["PIPE", "PIPE ROW"]
])
/** Reserved words that cannot stand in a declared type. */
const RESERVED = ["IS", "AS", "SELECT", "FROM", "WHERE", "BEGIN", "END", "DECLARE", "CURSOR", "EXCEPTION", "IF", "THEN", "LOOP", "INTO", "VALUES"]
const SQL_HEADS = ["SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE", "LOCK", "SAVEPOINT", "SET"]

class Parser {
  private i = 0
  /** `SUBTYPE name IS type` declarations seen so far: a declaration of type `name` gets `type`. */
  private readonly subtypes = new Map<string, TypeSpec>()
  constructor(
    private readonly source: string,
    private readonly toks: ReadonlyArray<Tok>
  ) {}

  private get tok(): Tok | undefined {
    return this.toks[this.i]
  }

  private fail(expected: ReadonlyArray<string>, at = this.tok): never {
    const pos = at?.pos ?? this.source.trimEnd().length
    throw unexpectedSymbol(this.source, pos, at === undefined ? "end-of-file" : at.kind === "str" ? at.text : at.text.toUpperCase(), expected)
  }

  private kw(...words: Array<string>): boolean {
    return isKw(this.tok, ...words)
  }

  private expectKw(word: string): Tok {
    if (!this.kw(word)) this.fail([word.toLowerCase()])
    return this.toks[this.i++]!
  }

  private expectOp(op: string): void {
    if (!isOp(this.tok, op)) this.fail([op])
    this.i++
  }

  private name(): string {
    const t = this.tok
    if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) this.fail(["<an identifier>"])
    this.i++
    return oracleName(t)
  }

  /**
   * Tokens up to (not including) the first top-level token `stop` accepts: outside parentheses and CASE ... END.
   * A `;` that comes first is a syntax error naming what was expected.
   */
  private until(stop: (t: Tok) => boolean, expected: ReadonlyArray<string>): Expr {
    const start = this.i
    let depth = 0
    let cases = 0
    for (;;) {
      const t = this.tok
      if (t === undefined) this.fail(expected)
      if (depth === 0 && cases === 0 && stop(t)) break
      if (depth === 0 && cases === 0 && isOp(t, ";")) this.fail(expected)
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (isKw(t, "CASE")) cases++
      else if (isKw(t, "END") && cases > 0) cases--
      this.i++
    }
    if (this.i === start) this.fail(["<an expression>"])
    return this.toks.slice(start, this.i)
  }

  private untilKw(...words: Array<string>): Expr {
    return this.until((t) => isKw(t, ...words), words.map((w) => w.toLowerCase()))
  }

  /** Tokens to the next top-level `;`, which is consumed. */
  private toSemicolon(): Expr {
    const start = this.i
    let depth = 0
    for (;;) {
      const t = this.tok
      if (t === undefined) this.fail([";"])
      if (depth === 0 && isOp(t, ";")) break
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      this.i++
    }
    const out = this.toks.slice(start, this.i)
    this.i++
    return out
  }

  /** A comma-separated list of expressions, each ending at a top-level comma or a word of `end`. */
  private exprList(end: (t: Tok) => boolean): Array<Expr> {
    const out: Array<Expr> = []
    for (;;) {
      out.push(this.until((t) => isOp(t, ",") || end(t), [",", ";"]))
      if (!isOp(this.tok, ",")) return out
      this.i++
    }
  }

  /** `(a, b)` arguments, or none. */
  private args(): Array<Expr> {
    if (!isOp(this.tok, "(")) return []
    this.i++
    const out = this.exprList((t) => isOp(t, ")"))
    this.expectOp(")")
    return out
  }

  private label(): string | undefined {
    if (!(isOp(this.tok, "<") && isOp(this.toks[this.i + 1], "<"))) return undefined
    this.i += 2
    const name = this.name()
    this.expectOp(">")
    this.expectOp(">")
    return name
  }

  /** The whole text: `[<<label>>] [DECLARE ...] BEGIN ... END [label];` and nothing after it. */
  anonymous(): Block {
    const label = this.label()
    if (!this.kw("DECLARE", "BEGIN")) this.fail(["begin", "declare"])
    const block = this.block(label)
    if (this.tok !== undefined && !isOp(this.tok, "/")) this.fail(["end-of-file"])
    return block
  }

  /** A stored procedure's body after IS / AS: declarations, BEGIN ... END [name]; and nothing after it. */
  procedureBody(): Block {
    const at = this.tok?.pos ?? 0
    const decls = this.declarations()
    const rest = this.afterDeclarations(undefined, at)
    if (this.tok !== undefined && !isOp(this.tok, "/")) this.fail(["end-of-file"])
    return { ...rest, decls }
  }

  private block(label: string | undefined): Block {
    const at = this.tok!.pos
    let decls: Array<Decl> = []
    if (this.kw("DECLARE")) {
      this.i++
      decls = this.declarations()
    }
    return { ...this.afterDeclarations(label, at), decls }
  }

  /** `BEGIN statements [EXCEPTION handlers] END [label];` */
  private afterDeclarations(label: string | undefined, at: number): Omit<Block, "decls"> {
    this.expectKw("BEGIN")
    const body = this.statements()
    const handlers: Array<Handler> = []
    if (this.kw("EXCEPTION")) {
      this.i++
      while (this.kw("WHEN")) {
        this.i++
        const names = [this.qualifiedName()]
        while (this.kw("OR")) {
          this.i++
          names.push(this.qualifiedName())
        }
        this.expectKw("THEN")
        handlers.push({ names, body: this.statements() })
      }
      if (handlers.length === 0) this.fail(["when"])
    }
    this.expectKw("END")
    if (this.tok?.kind === "ident" || this.tok?.kind === "qident") this.i++
    this.expectOp(";")
    return label === undefined ? { pos: at, body, handlers } : { pos: at, label, body, handlers }
  }

  private qualifiedName(): string {
    const parts = [this.name()]
    while (isOp(this.tok, ".")) {
      this.i++
      parts.push(this.name())
    }
    return parts.join(".")
  }

  private declarations(): Array<Decl> {
    const out: Array<Decl> = []
    while (this.tok !== undefined && !this.kw("BEGIN")) out.push(this.declaration())
    return out
  }

  private declaration(): Decl {
    const pos = this.tok!.pos
    if (this.kw("PRAGMA")) {
      this.i++
      if (!this.kw("EXCEPTION_INIT")) {
        this.toSemicolon()
        return this.declaration()
      }
      this.i++
      this.expectOp("(")
      const name = this.name()
      this.expectOp(",")
      const negative = isOp(this.tok, "-")
      if (negative) this.i++
      if (this.tok?.kind !== "num") this.fail(["<an integer>"])
      const code = Number(this.tok.value) * (negative ? -1 : 1)
      this.i++
      this.expectOp(")")
      this.expectOp(";")
      return { pos, k: "exceptionInit", name, code }
    }
    if (this.kw("CURSOR")) {
      this.i++
      const name = this.name()
      const params: Array<string> = []
      if (isOp(this.tok, "(")) {
        this.i++
        for (;;) {
          params.push(this.name())
          this.until((t) => isOp(t, ",") || isOp(t, ")"), [",", ")"])
          if (isOp(this.tok, ")")) break
          this.i++
        }
        this.i++
      }
      if (this.kw("RETURN")) this.untilKw("IS")
      this.expectKw("IS")
      return { pos, k: "cursor", name, params, query: this.toSemicolon() }
    }
    if (this.kw("TYPE")) return this.typeDeclaration()
    if (this.kw("PROCEDURE", "FUNCTION")) return this.subprogram()
    if (this.kw("SUBTYPE")) return this.subtypeDeclaration(pos)
    const name = this.name()
    if (this.kw("EXCEPTION")) {
      this.i++
      this.expectOp(";")
      return { pos, k: "exception", name }
    }
    const constant = this.kw("CONSTANT")
    if (constant) this.i++
    const typeToks = this.until((t) => isOp(t, ":=") || isKw(t, "DEFAULT", "NOT") || isOp(t, ";"), [":=", ";", "not", "default"])
    const misplaced = typeToks.find((t) => isKw(t, ...RESERVED) || t.kind === "str" || t.kind === "bind")
    if (misplaced !== undefined) this.fail([":=", ".", "(", "@", "%", ";", "not", "null", "range", "default", "character"], misplaced)
    const type = this.typeOf(typeToks)
    const { notNull, init } = this.notNullAndInit((t) => isOp(t, ";"), [";"])
    if (init === undefined && constant) this.fail([":="])
    this.expectOp(";")
    return init === undefined ? { pos, k: "var", name, type, constant, notNull } : { pos, k: "var", name, type, constant, notNull, init }
  }

  /** `[NOT NULL] [:= | DEFAULT expr]` after a declared type, the expression up to a token `end` accepts. */
  private notNullAndInit(end: (t: Tok) => boolean, expected: ReadonlyArray<string>): { notNull: boolean; init: Expr | undefined } {
    let notNull = false
    if (this.kw("NOT")) {
      this.i++
      this.expectKw("NULL")
      notNull = true
    }
    let init: Expr | undefined
    if (isOp(this.tok, ":=") || this.kw("DEFAULT")) {
      this.i++
      init = this.until(end, expected)
    }
    return { notNull, init }
  }

  /** A declared type, a subtype's name standing for its base type. */
  private typeOf(toks: Expr): TypeSpec {
    const t = typeSpec(toks)
    return t.kind === "named" ? (this.subtypes.get(t.name) ?? t) : t
  }

  /**
   * `SUBTYPE name IS base_type [NOT NULL] [RANGE low..high];`: later declarations of type `name` take the base type
   * and its size (NOT NULL and RANGE of the subtype are not enforced).
   */
  private subtypeDeclaration(pos: number): Decl {
    this.i++
    const name = this.name()
    this.expectKw("IS")
    let type = this.typeOf(this.until((t) => isOp(t, ";") || isKw(t, "NOT", "RANGE"), [";", "not", "range"]))
    if (this.kw("RANGE") && type.kind === "named") {
      this.i++
      const low = this.signedNumber()
      this.expectOp("..")
      type = { ...type, range: [low, this.signedNumber()] }
    }
    if (this.kw("NOT") && type.kind === "named") {
      this.i++
      this.expectKw("NULL")
      type = { ...type, notNull: true }
    }
    this.expectOp(";")
    this.subtypes.set(name, type)
    return { pos, k: "subtype", name, type }
  }

  /** `[-]n` of a RANGE. */
  private signedNumber(): number {
    const minus = isOp(this.tok, "-")
    if (minus) this.i++
    if (this.tok?.kind !== "num") this.fail(["<a number>"])
    const n = Number(this.tok.value)
    this.i++
    return minus ? -n : n
  }

  /** `RECORD (field type [NOT NULL] [:= | DEFAULT expr], ...)` of `TYPE name IS`. */
  private recordType(pos: number, name: string): Decl {
    this.i++
    this.expectOp("(")
    const fields: Array<RecordField> = []
    for (;;) {
      const field = this.name()
      const type = this.typeOf(this.until((t) => isOp(t, ",") || isOp(t, ")") || isOp(t, ":=") || isKw(t, "DEFAULT", "NOT"), [",", ")"]))
      const { notNull, init } = this.notNullAndInit((t) => isOp(t, ",") || isOp(t, ")"), [",", ")"])
      fields.push(init === undefined ? { name: field, type, notNull } : { name: field, type, notNull, init })
      if (isOp(this.tok, ")")) break
      this.expectOp(",")
    }
    this.i++
    this.expectOp(";")
    return { pos, k: "recordType", type: { name, fields } }
  }

  /** `REF CURSOR [RETURN type]` of `TYPE name IS`: a SYS_REFCURSOR whose RETURN type OPEN ... FOR checks. */
  private refCursorType(pos: number, name: string): Decl {
    this.i++
    this.expectKw("CURSOR")
    let returns: TypeSpec | undefined
    if (this.kw("RETURN")) {
      this.i++
      returns = this.typeOf(this.until((t) => isOp(t, ";"), [";"]))
    }
    this.expectOp(";")
    const type: TypeSpec = returns === undefined ? { kind: "named", name: "SYS_REFCURSOR" } : { kind: "named", name: "SYS_REFCURSOR", cursorReturns: returns }
    this.subtypes.set(name, type)
    return { pos, k: "subtype", name, type }
  }

  /** `PROCEDURE name [(params)] IS|AS ... END [name];`, `FUNCTION name [(params)] RETURN type IS|AS ...`, or a forward declaration. */
  private subprogram(): Decl {
    const pos = this.tok!.pos
    const isFunction = this.kw("FUNCTION")
    this.i++
    const name = this.name()
    const params: Array<Param> = []
    if (isOp(this.tok, "(")) {
      this.i++
      for (;;) {
        const pname = this.name()
        const mode = this.mode()
        if (this.kw("NOCOPY")) this.i++
        const type = this.typeOf(this.until((t) => isOp(t, ",") || isOp(t, ")") || isOp(t, ":=") || isKw(t, "DEFAULT"), [",", ")"]))
        let dflt: Expr | undefined
        if (isOp(this.tok, ":=") || this.kw("DEFAULT")) {
          this.i++
          dflt = this.until((t) => isOp(t, ",") || isOp(t, ")"), [",", ")"])
        }
        params.push(dflt === undefined ? { name: pname, mode, type } : { name: pname, mode, type, default: dflt })
        if (isOp(this.tok, ")")) break
        this.expectOp(",")
      }
      this.i++
    }
    let returns: TypeSpec | undefined
    if (isFunction) {
      this.expectKw("RETURN")
      returns = this.typeOf(this.until((t) => isOp(t, ";") || isKw(t, "IS", "AS", "DETERMINISTIC", "PIPELINED", "RESULT_CACHE"), ["is", "as", ";"]))
      while (this.kw("DETERMINISTIC", "RESULT_CACHE")) this.i++
    }
    const head = { name, params, ...(returns === undefined ? {} : { returns }) }
    if (isOp(this.tok, ";")) {
      this.i++
      return { pos, k: "subprogram", sub: head }
    }
    if (!this.kw("IS", "AS")) this.fail(["is", "as", ";"])
    this.i++
    const at = this.tok?.pos ?? pos
    const decls = this.declarations()
    const rest = this.afterDeclarations(undefined, at)
    return { pos, k: "subprogram", sub: { ...head, body: { ...rest, decls } } }
  }

  /** `TYPE name IS TABLE OF type [NOT NULL] [INDEX BY type]` or `IS VARRAY | VARYING ARRAY (n) OF type`. */
  private typeDeclaration(): Decl {
    const pos = this.tok!.pos
    this.i++
    const name = this.name()
    this.expectKw("IS")
    let kind: "table" | "varray" | "assoc" = "table"
    let limit: number | undefined
    if (this.kw("TABLE")) this.i++
    else if (this.kw("VARRAY", "VARYING")) {
      if (this.kw("VARYING")) this.i++
      if (!this.kw("VARRAY", "ARRAY")) this.fail(["array"])
      this.i++
      this.expectOp("(")
      if (this.tok?.kind !== "num") this.fail(["<an integer>"])
      limit = Number(this.tok.value)
      this.i++
      this.expectOp(")")
      kind = "varray"
    } else if (this.kw("RECORD")) return this.recordType(pos, name)
    else if (this.kw("REF")) return this.refCursorType(pos, name)
    else this.fail(["table", "varray", "record", "ref"])
    this.expectKw("OF")
    const element = this.typeOf(this.until((t) => isOp(t, ";") || isKw(t, "INDEX", "NOT"), [";", "index", "not"]))
    if (this.kw("NOT")) {
      this.i++
      this.expectKw("NULL")
    }
    if (this.kw("INDEX")) {
      if (kind === "varray") this.fail([";"])
      this.i++
      this.expectKw("BY")
      this.until((t) => isOp(t, ";"), [";"])
      kind = "assoc"
    }
    this.expectOp(";")
    return { pos, k: "collectionType", type: { name, kind, element, ...(limit === undefined ? {} : { limit }) } }
  }

  private statements(): Array<Stmt> {
    const out: Array<Stmt> = []
    while (this.tok !== undefined && !this.kw(...LIST_END)) out.push(this.statement())
    if (out.length === 0) this.fail(["begin", "case", "declare", "exit", "for", "goto", "if", "loop", "null", "raise", "return", "select", "update", "while", "with", "<an identifier>"])
    return out
  }

  private loopBody(): Array<Stmt> {
    this.expectKw("LOOP")
    const body = this.statements()
    this.expectKw("END")
    this.expectKw("LOOP")
    if (this.tok?.kind === "ident") this.i++
    this.expectOp(";")
    return body
  }

  private statement(): Stmt {
    const label = this.label()
    const head = this.tok
    if (head === undefined) this.fail(["begin"])
    const pos = head.pos
    if (label !== undefined && !isKw(head, "LOOP", "WHILE", "FOR", "BEGIN", "DECLARE", "<")) this.fail(["begin", "declare", "for", "loop", "while"])
    if (head.kind === "ident") {
      const notYet = NOT_YET.get(head.value)
      if (notYet !== undefined) throw ora.unimplemented(`${notYet} in PL/SQL`)
      switch (head.value) {
        case "BEGIN":
        case "DECLARE":
          return { pos, k: "block", block: this.block(label) }
        case "IF":
          return this.ifStatement()
        case "CASE":
          return this.caseStatement()
        case "LOOP": {
          const body = this.loopBody()
          return label === undefined ? { pos, k: "loop", body } : { pos, k: "loop", label, body }
        }
        case "WHILE": {
          this.i++
          const cond = this.untilKw("LOOP")
          const body = this.loopBody()
          return label === undefined ? { pos, k: "while", cond, body } : { pos, k: "while", label, cond, body }
        }
        case "FOR":
          return this.forStatement(label)
        case "FORALL":
          return this.forallStatement()
        case "EXIT":
        case "CONTINUE": {
          this.i++
          const k = head.value === "EXIT" ? "exit" : "continue"
          const target = this.tok?.kind === "ident" && !this.kw("WHEN") ? this.name() : undefined
          let when: Expr | undefined
          if (this.kw("WHEN")) {
            this.i++
            when = this.until((t) => isOp(t, ";"), [";"])
          }
          this.expectOp(";")
          return { pos, k, ...(target === undefined ? {} : { label: target }), ...(when === undefined ? {} : { when }) }
        }
        case "NULL":
          if (isOp(this.toks[this.i + 1], ";")) {
            this.i += 2
            return { pos, k: "null" }
          }
          break
        case "RETURN":
          this.i++
          if (isOp(this.tok, ";")) {
            this.i++
            return { pos, k: "return" }
          }
          return { pos, k: "return", expr: this.toSemicolon() }
        case "RAISE": {
          this.i++
          const name = isOp(this.tok, ";") ? undefined : this.qualifiedName()
          this.expectOp(";")
          return name === undefined ? { pos, k: "raise" } : { pos, k: "raise", name }
        }
        case "OPEN": {
          this.i++
          const cursor = this.cursorTok()
          const args = this.args()
          let query: Expr | undefined
          let using: Array<UsingArg> | undefined
          if (this.kw("FOR")) {
            this.i++
            query = this.until((t) => isOp(t, ";") || isKw(t, "USING"), [";"])
            if (this.kw("USING")) using = this.usingList()
          }
          this.expectOp(";")
          return query === undefined ? { pos, k: "open", cursor, args } : { pos, k: "open", cursor, args, query, ...(using === undefined ? {} : { using }) }
        }
        case "FETCH": {
          this.i++
          const cursor = this.cursorTok()
          const bulk = this.bulkCollect()
          this.expectKw("INTO")
          const into = this.exprList((t) => isOp(t, ";") || (bulk && isKw(t, "LIMIT")))
          let limit: Expr | undefined
          if (bulk && this.kw("LIMIT")) {
            this.i++
            limit = this.until((t) => isOp(t, ";"), [";"])
          }
          this.expectOp(";")
          return limit === undefined ? { pos, k: "fetch", cursor, into, bulk } : { pos, k: "fetch", cursor, into, bulk, limit }
        }
        case "CLOSE": {
          this.i++
          const cursor = this.cursorTok()
          this.expectOp(";")
          return { pos, k: "close", cursor }
        }
        case "EXECUTE":
          if (isKw(this.toks[this.i + 1], "IMMEDIATE")) return this.executeImmediate()
          break
        case "COMMIT":
          this.toSemicolon()
          return { pos, k: "commit" }
        case "ROLLBACK":
          if (isKw(this.toks[this.i + 1], "TO") || isKw(this.toks[this.i + 2], "TO")) return { pos, k: "sql", toks: this.toSemicolon() }
          this.toSemicolon()
          return { pos, k: "rollback" }
      }
      if (SQL_HEADS.includes(head.value)) {
        return { pos, k: "sql", toks: this.toSemicolon() }
      }
    }
    if (isOp(head, "(") && isKw(this.toks[this.i + 1], "SELECT", "WITH")) return { pos, k: "sql", toks: this.toSemicolon() }
    return this.assignmentOrCall()
  }

  /** `IN`, `OUT` or `IN OUT` of a parameter or USING argument, consumed; IN when none is written. */
  private mode(): Param["mode"] {
    if (this.kw("IN") && isKw(this.toks[this.i + 1], "OUT")) {
      this.i += 2
      return "IN OUT"
    }
    if (this.kw("IN", "OUT")) return this.toks[this.i++]!.value as "IN" | "OUT"
    return "IN"
  }

  /** `BULK COLLECT` before INTO, consumed; whether it was there. */
  private bulkCollect(): boolean {
    if (!this.kw("BULK")) return false
    this.i++
    this.expectKw("COLLECT")
    return true
  }

  /** `FORALL i IN lo..hi | INDICES OF c | VALUES OF c [SAVE EXCEPTIONS] dml | EXECUTE IMMEDIATE ...;` */
  private forallStatement(): Stmt {
    const pos = this.tok!.pos
    this.i++
    const index = this.name()
    this.expectKw("IN")
    const dmlStart = (t: Tok) => isKw(t, "INSERT", "UPDATE", "DELETE", "MERGE", "EXECUTE", "SAVE")
    const expected = ["insert", "update", "delete", "merge", "execute", "save"]
    let bounds: { low: Expr; high: Expr } | { indicesOf: Expr } | { valuesOf: Expr }
    if (this.kw("INDICES", "VALUES")) {
      const values = this.kw("VALUES")
      this.i++
      this.expectKw("OF")
      const of = this.until(dmlStart, expected)
      bounds = values ? { valuesOf: of } : { indicesOf: of }
    } else {
      const low = this.until((t) => isOp(t, ".."), [".."])
      this.i++
      bounds = { low, high: this.until(dmlStart, expected) }
    }
    const saveExceptions = this.kw("SAVE")
    if (saveExceptions) {
      this.i++
      this.expectKw("EXCEPTIONS")
    }
    if (this.kw("EXECUTE")) {
      const execute = this.executeImmediate() as Extract<Stmt, { k: "execute" }>
      return { pos, k: "forall", index, ...bounds, saveExceptions, dml: [], execute }
    }
    return { pos, k: "forall", index, ...bounds, saveExceptions, dml: this.toSemicolon() }
  }

  private cursorTok(): Tok {
    const t = this.tok
    if (t === undefined || (t.kind !== "ident" && t.kind !== "qident" && t.kind !== "bind")) this.fail(["<an identifier>", "<a bind variable>"])
    this.i++
    return t
  }

  private ifStatement(): Stmt {
    const pos = this.tok!.pos
    const branches: Array<{ cond: Expr; body: Array<Stmt> }> = []
    let otherwise: Array<Stmt> | undefined
    this.i++
    for (;;) {
      const cond = this.untilKw("THEN")
      this.i++
      branches.push({ cond, body: this.statements() })
      if (this.kw("ELSIF")) {
        this.i++
        continue
      }
      if (this.kw("ELSE")) {
        this.i++
        otherwise = this.statements()
      }
      break
    }
    this.expectKw("END")
    this.expectKw("IF")
    this.expectOp(";")
    return otherwise === undefined ? { pos, k: "if", branches } : { pos, k: "if", branches, otherwise }
  }

  private caseStatement(): Stmt {
    const pos = this.tok!.pos
    this.i++
    const selector = this.kw("WHEN") ? undefined : this.untilKw("WHEN")
    const whens: Array<{ when: Expr; body: Array<Stmt> }> = []
    while (this.kw("WHEN")) {
      this.i++
      const when = this.untilKw("THEN")
      this.i++
      whens.push({ when, body: this.statements() })
    }
    let otherwise: Array<Stmt> | undefined
    if (this.kw("ELSE")) {
      this.i++
      otherwise = this.statements()
    }
    this.expectKw("END")
    this.expectKw("CASE")
    if (this.tok?.kind === "ident") this.i++
    this.expectOp(";")
    return { pos, k: "case", whens, ...(selector === undefined ? {} : { selector }), ...(otherwise === undefined ? {} : { otherwise }) }
  }

  private forStatement(label: string | undefined): Stmt {
    const pos = this.tok!.pos
    this.i++
    const index = this.name()
    this.expectKw("IN")
    const reverse = this.kw("REVERSE")
    if (reverse) this.i++
    const labelled = label === undefined ? {} : { label }
    if (isOp(this.tok, "(") && isKw(this.toks[this.i + 1], "SELECT", "WITH")) {
      this.i++
      const query = this.until((t) => isOp(t, ")"), [")"])
      this.i++
      return { pos, k: "cursorFor", ...labelled, record: index, query, args: [], body: this.loopBody() }
    }
    const save = this.i
    const range = this.until((t) => isOp(t, "..") || isKw(t, "LOOP"), ["..", "loop"])
    if (isOp(this.tok, "..")) {
      this.i++
      const high = this.untilKw("LOOP")
      return { pos, k: "for", ...labelled, index, reverse, low: range, high, body: this.loopBody() }
    }
    this.i = save
    let cursor = this.name()
    // a package's cursor: pkg.cursor
    while (isOp(this.tok, ".")) {
      this.i++
      cursor += `.${this.name()}`
    }
    const args = this.args()
    return { pos, k: "cursorFor", ...labelled, record: index, cursor, args, body: this.loopBody() }
  }

  private executeImmediate(): Stmt {
    const pos = this.tok!.pos
    this.i += 2
    const expr = this.until((t) => isOp(t, ";") || isKw(t, "INTO", "USING", "BULK", "RETURNING", "RETURN"), [";"])
    let into: Array<Expr> = []
    let using: Array<UsingArg> = []
    const bulk = this.bulkCollect()
    if (bulk && !this.kw("INTO")) this.fail(["into"])
    if (this.kw("INTO")) {
      this.i++
      into = this.exprList((t) => isOp(t, ";") || isKw(t, "USING"))
    }
    if (this.kw("USING")) using = this.usingList()
    if (this.kw("RETURNING", "RETURN")) {
      this.i++
      const returningBulk = this.bulkCollect()
      this.expectKw("INTO")
      const targets = this.exprList((t) => isOp(t, ";"))
      this.expectOp(";")
      return { pos, k: "execute", expr, into, bulk, using, returning: { into: targets, bulk: returningBulk } }
    }
    this.expectOp(";")
    return { pos, k: "execute", expr, into, bulk, using }
  }

  /** `USING [IN | OUT | IN OUT] expr, ...` of EXECUTE IMMEDIATE and OPEN ... FOR. */
  private usingList(): Array<UsingArg> {
    this.i++
    const using: Array<UsingArg> = []
    for (;;) {
      const mode = this.mode()
      using.push({ mode, expr: this.until((t) => isOp(t, ",") || isOp(t, ";") || isKw(t, "RETURNING", "RETURN"), [",", ";"]) })
      if (!isOp(this.tok, ",")) break
      this.i++
    }
    return using
  }

  private assignmentOrCall(): Stmt {
    const start = this.i
    const pos = this.tok!.pos
    const target = this.until((t) => isOp(t, ":=") || isOp(t, ";"), [":=", ";"])
    if (isOp(this.tok, ":=")) {
      this.i++
      const expr = this.until((t) => isOp(t, ";"), [";"])
      this.i++
      return { pos, k: "assign", target, expr }
    }
    // a call: name[.name...] [(args)];
    this.i = start
    const nameTok = this.tok!
    if (nameTok.kind !== "ident" && nameTok.kind !== "qident") this.fail(["begin", "case", "declare", "exit", "for", "if", "loop", "null", "raise", "<an identifier>"])
    const name = [this.name()]
    while (isOp(this.tok, ".")) {
      this.i++
      name.push(this.name())
    }
    const args = this.args()
    if (!isOp(this.tok, ";")) this.fail([":=", ".", "(", ";"])
    this.i++
    return { pos, k: "call", name, nameTok, args }
  }
}

/** A declared type from its tokens: `%TYPE` / `%ROWTYPE` of a name, or the type's words and first size. */
const typeSpec = (toks: Expr): TypeSpec => {
  const pct = toks.findIndex((t) => isOp(t, "%"))
  if (pct > 0) {
    const of = toks.slice(0, pct).filter((t) => !isOp(t, ".")).map(oracleName)
    return isKw(toks[pct + 1], "ROWTYPE") ? { kind: "rowtypeOf", of } : { kind: "typeOf", of }
  }
  const open = toks.findIndex((t) => isOp(t, "("))
  const words = (open < 0 ? toks : toks.slice(0, open)).map((t) => t.value).join(" ")
  if (open < 0 || toks[open + 1]?.kind !== "num") return { kind: "named", name: words }
  const size = Number(toks[open + 1]!.value)
  const scale = isOp(toks[open + 2], ",") ? Number(toks[open + 3]?.value ?? 0) * (isOp(toks[open + 3], "-") ? 0 : 1) : undefined
  const chars = isKw(toks[open + 2], "CHAR")
  return { kind: "named", name: words, size, ...(scale === undefined || Number.isNaN(scale) ? {} : { scale }), ...(chars ? { chars } : {}) }
}

/** Parses an anonymous block's significant tokens (`source` is the text their positions point into). */
export const parseAnonymousBlock = (source: string, toks: ReadonlyArray<Tok>): Block => new Parser(source, toks).anonymous()

/** Parses a stored procedure's body: the tokens after IS / AS. */
export const parseProcedureBody = (source: string, toks: ReadonlyArray<Tok>): Block => new Parser(source, toks).procedureBody()
