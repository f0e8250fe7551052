/**
 * Recursive-descent parser for PL/SQL blocks over the server's SQL tokens (lexer.ts). Statements and declarations
 * become ast.ts nodes; expressions and embedded SQL stay token ranges. A statement it cannot parse fails as Oracle's
 * compiler does, PLS-00103 inside ORA-06550 with the line and column of the offending symbol. This module parses
 * blocks and statements; declaration-parser.ts the DECLARE section, parser-tokens.ts is the token cursor both read with.
 */
import { ora } from "../errors.ts"
import { isKw, isOp, type Tok } from "../lexer.ts"
import type { Block, Decl, Expr, Handler, Stmt, UsingArg } from "./ast.ts"
import { DeclarationParser } from "./declaration-parser.ts"
import { PlsCompileError } from "./errors.ts"
import { checkGotos } from "./goto-targets.ts"

/** Words that end a statement list (the next clause of the enclosing statement). */
const LIST_END = ["END", "ELSIF", "ELSE", "EXCEPTION", "WHEN"]
/** Statements the interpreter does not run yet (ORA-03001). */
const NOT_YET: ReadonlyMap<string, string> = new Map([])
const SQL_HEADS = ["SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE", "LOCK", "SAVEPOINT", "SET"]

class Parser extends DeclarationParser {
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
    const autonomous = this.autonomous
    const rest = this.afterDeclarations(undefined, at)
    if (this.tok !== undefined && !isOp(this.tok, "/")) this.fail(["end-of-file"])
    return this.withDeclarations(decls, autonomous, rest)
  }

  private block(label: string | undefined): Block {
    const at = this.tok!.pos
    let decls: Array<Decl> = []
    let autonomous = false
    if (this.kw("DECLARE")) {
      this.i++
      decls = this.declarations()
      autonomous = this.autonomous
    }
    return this.withDeclarations(decls, autonomous, this.afterDeclarations(label, at))
  }

  /** `BEGIN statements [EXCEPTION handlers] END [label];` */
  protected afterDeclarations(label: string | undefined, at: number): Omit<Block, "decls"> {
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

  private statements(): Array<Stmt> {
    const out: Array<Stmt> = []
    while (this.tok !== undefined && !this.kw(...LIST_END)) {
      // a label is also a GOTO target: a marker before the statement it labels (which still sees it, a loop's or block's)
      const at = this.i
      const label = this.label()
      if (label !== undefined) out.push({ pos: this.toks[at]!.pos, k: "label", name: label })
      this.i = at
      out.push(this.statement())
    }
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
    // a label must precede an executable statement (PL/SQL Language Reference, "GOTO Statement")
    if (label !== undefined && isKw(head, ...LIST_END)) this.fail(["begin", "declare", "for", "goto", "if", "loop", "null", "while"])
    if (head.kind === "ident") {
      const notYet = NOT_YET.get(head.value)
      if (notYet !== undefined) throw ora.unimplemented(`${notYet} in PL/SQL`)
      switch (head.value) {
        case "BEGIN":
        case "DECLARE": {
          const block = this.block(label)
          // "Schema-level (not nested) anonymous PL/SQL block" only (PL/SQL Language Reference, "AUTONOMOUS_TRANSACTION
          // Pragma"); the code, PLS-00710, is **unconfirmed**
          if (block.autonomous === true) throw new PlsCompileError(this.source, pos, 710, "Pragma AUTONOMOUS_TRANSACTION cannot be specified here")
          return { pos, k: "block", block }
        }
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
        case "GOTO": {
          this.i++
          const target = this.name()
          this.expectOp(";")
          return { pos, k: "goto", label: target }
        }
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
        case "PIPE":
          if (!isKw(this.toks[this.i + 1], "ROW")) break
          this.i += 2
          return { pos, k: "pipeRow", expr: this.toSemicolon() }
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
    if (isOp(this.tok, ".")) return this.chainedCall(start, pos)
    if (!isOp(this.tok, ";")) this.fail([":=", ".", "(", ";"])
    this.i++
    return { pos, k: "call", name, nameTok, args }
  }

  /** `e.p(args);` whose `e` is a call (`o.get_object('a').put('b', 1);`): p a member procedure of what e returns. */
  private chainedCall(start: number, pos: number): Stmt {
    let dot = this.i
    let method: Tok = this.tok!
    let args: Array<Expr> = []
    let name = ""
    while (isOp(this.tok, ".")) {
      dot = this.i
      this.i++
      method = this.tok!
      name = this.name()
      args = this.args()
    }
    if (!isOp(this.tok, ";")) this.fail([":=", ".", "(", ";"])
    this.i++
    return { pos, k: "call", name: [name], nameTok: method, args, self: this.toks.slice(start, dot) }
  }
}

/** Parses an anonymous block's significant tokens (`source` is the text their positions point into). */
export const parseAnonymousBlock = (source: string, toks: ReadonlyArray<Tok>): Block => checkGotos(source, new Parser(source, toks).anonymous())

/** Parses a stored procedure's body: the tokens after IS / AS. */
export const parseProcedureBody = (source: string, toks: ReadonlyArray<Tok>): Block => checkGotos(source, new Parser(source, toks).procedureBody())
