/**
 * The DECLARE-section half of the PL/SQL parser: variables and constants, cursors, exceptions and PRAGMA
 * EXCEPTION_INIT, TYPE (records, collections, REF CURSOR), SUBTYPE, and local subprograms, whose bodies the statement
 * half (parser.ts) parses.
 */
import { ora } from "../errors.ts"
import { isKw, isOp, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Block, Decl, Expr, Param, TypeSpec } from "./ast.ts"
import type { RecordField } from "./records.ts"
import { TokenParser } from "./parser-tokens.ts"

/** Reserved words that cannot stand in a declared type. */
const RESERVED = ["IS", "AS", "SELECT", "FROM", "WHERE", "BEGIN", "END", "DECLARE", "CURSOR", "EXCEPTION", "IF", "THEN", "LOOP", "INTO", "VALUES"]

/** What {@link DeclarationParser} reads PRAGMA AUTONOMOUS_TRANSACTION as: a mark on the block, no declaration. */
const AUTONOMOUS = Symbol("autonomous")

/** Parses declarations; parser.ts adds the statements (a subprogram's body) by implementing afterDeclarations. */
export abstract class DeclarationParser extends TokenParser {
  /** `SUBTYPE name IS type` declarations seen so far: a declaration of type `name` gets `type`. */
  protected readonly subtypes = new Map<string, TypeSpec>()

  /** `BEGIN statements [EXCEPTION handlers] END [label];` */
  protected abstract afterDeclarations(label: string | undefined, at: number): Omit<Block, "decls">

  /** Whether the declarations {@link declarations} read last hold PRAGMA AUTONOMOUS_TRANSACTION. */
  protected autonomous = false

  protected declarations(): Array<Decl> {
    const out: Array<Decl> = []
    let autonomous = false
    while (this.tok !== undefined && !this.kw("BEGIN")) {
      const d = this.declaration()
      if (d === AUTONOMOUS) autonomous = true
      else if (d !== undefined) out.push(d)
    }
    this.autonomous = autonomous
    return out
  }

  /** A block of `decls` and the rest, marked autonomous when the declarations said so (read before the rest is parsed). */
  protected withDeclarations(decls: Array<Decl>, autonomous: boolean, rest: Omit<Block, "decls">): Block {
    return autonomous ? { ...rest, decls, autonomous } : { ...rest, decls }
  }

  /**
   * One declaration; undefined for a pragma with no effect here (SERIALLY_REUSABLE, which stored-packages.ts reads,
   * INLINE, UDF, ...), AUTONOMOUS for PRAGMA AUTONOMOUS_TRANSACTION.
   */
  protected declaration(): Decl | typeof AUTONOMOUS | undefined {
    const pos = this.tok!.pos
    if (this.kw("PRAGMA")) {
      this.i++
      // the unit runs in a transaction of its own (PL/SQL Language Reference, "AUTONOMOUS_TRANSACTION Pragma",
      // https://docs.oracle.com/database/122/LNPLS/AUTONOMOUS_TRANSACTION-pragma.htm): plsql/autonomous.ts
      if (this.kw("AUTONOMOUS_TRANSACTION")) {
        this.toSemicolon()
        return AUTONOMOUS
      }
      if (!this.kw("EXCEPTION_INIT")) {
        this.toSemicolon()
        return undefined
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
  protected notNullAndInit(end: (t: Tok) => boolean, expected: ReadonlyArray<string>): { notNull: boolean; init: Expr | undefined } {
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
  protected typeOf(toks: Expr): TypeSpec {
    const t = typeSpec(toks)
    return t.kind === "named" ? (this.subtypes.get(t.name) ?? t) : t
  }

  /**
   * `SUBTYPE name IS base_type [NOT NULL] [RANGE low..high];`: later declarations of type `name` take the base type
   * and its size (NOT NULL and RANGE of the subtype are not enforced).
   */
  protected subtypeDeclaration(pos: number): Decl {
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
  protected signedNumber(): number {
    const minus = isOp(this.tok, "-")
    if (minus) this.i++
    if (this.tok?.kind !== "num") this.fail(["<a number>"])
    const n = Number(this.tok.value)
    this.i++
    return minus ? -n : n
  }

  /** `RECORD (field type [NOT NULL] [:= | DEFAULT expr], ...)` of `TYPE name IS`. */
  protected recordType(pos: number, name: string): Decl {
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
  protected refCursorType(pos: number, name: string): Decl {
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
  protected subprogram(): Decl {
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
    let pipelined = false
    if (isFunction) {
      this.expectKw("RETURN")
      returns = this.typeOf(this.until((t) => isOp(t, ";") || isKw(t, "IS", "AS", "DETERMINISTIC", "PIPELINED", "RESULT_CACHE"), ["is", "as", ";"]))
      while (this.kw("DETERMINISTIC", "RESULT_CACHE", "PIPELINED")) if (this.toks[this.i++]!.value === "PIPELINED") pipelined = true
    }
    const head = { name, params, ...(returns === undefined ? {} : { returns }), ...(pipelined ? { pipelined } : {}) }
    if (isOp(this.tok, ";")) {
      this.i++
      return { pos, k: "subprogram", sub: head }
    }
    if (!this.kw("IS", "AS")) this.fail(["is", "as", ";"])
    this.i++
    const at = this.tok?.pos ?? pos
    const decls = this.declarations()
    const autonomous = this.autonomous
    const rest = this.afterDeclarations(undefined, at)
    return { pos, k: "subprogram", sub: { ...head, body: this.withDeclarations(decls, autonomous, rest) } }
  }

  /** `TYPE name IS TABLE OF type [NOT NULL] [INDEX BY type]` or `IS VARRAY | VARYING ARRAY (n) OF type`. */
  protected typeDeclaration(): Decl {
    const pos = this.tok!.pos
    this.i++
    const name = this.name()
    this.expectKw("IS")
    let kind: "table" | "varray" | "assoc" = "table"
    let limit: number | undefined
    let byText = false
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
      byText = this.kw("VARCHAR2", "VARCHAR", "STRING", "LONG")
      this.until((t) => isOp(t, ";"), [";"])
      kind = "assoc"
    }
    this.expectOp(";")
    return { pos, k: "collectionType", type: { name, kind, element, ...(limit === undefined ? {} : { limit }), ...(byText ? { indexedByText: true } : {}) } }
  }
}

/** A declared type from its tokens: `%TYPE` / `%ROWTYPE` of a name, or the type's words and first size. */
export const typeSpec = (toks: Expr): TypeSpec => {
  const pct = toks.findIndex((t) => isOp(t, "%"))
  if (pct > 0) {
    const of = toks.slice(0, pct).filter((t) => !isOp(t, ".")).map(oracleName)
    return isKw(toks[pct + 1], "ROWTYPE") ? { kind: "rowtypeOf", of } : { kind: "typeOf", of }
  }
  const open = toks.findIndex((t) => isOp(t, "("))
  // `TIMESTAMP(n) WITH [LOCAL] TIME ZONE`: the words after the precision name the type too
  const close = open < 0 ? -1 : toks.findIndex((t, k) => k > open && isOp(t, ")"))
  const zone = close > 0 ? toks.slice(close + 1).map((t) => t.value).join(" ") : ""
  const zoned = /^WITH (?:LOCAL )?TIME ZONE$/.test(zone) && isKw(toks[0], "TIMESTAMP")
  const words = zoned ? `TIMESTAMP ${zone}` : (open < 0 ? toks : toks.slice(0, open)).map((t) => t.value).join(" ")
  if (open < 0 || toks[open + 1]?.kind !== "num") return { kind: "named", name: words }
  const size = Number(toks[open + 1]!.value)
  const scale = isOp(toks[open + 2], ",") ? Number(toks[open + 3]?.value ?? 0) * (isOp(toks[open + 3], "-") ? 0 : 1) : undefined
  const chars = isKw(toks[open + 2], "CHAR")
  // `INTERVAL DAY(p) TO SECOND(s)`: s as the scale
  const fraction = words === "INTERVAL DAY" && isKw(toks[close + 1], "TO") && isKw(toks[close + 2], "SECOND") && isOp(toks[close + 3], "(") ? Number(toks[close + 4]?.value) : undefined
  if (fraction !== undefined && !Number.isNaN(fraction)) return { kind: "named", name: words, size, scale: fraction }
  return { kind: "named", name: words, size, ...(scale === undefined || Number.isNaN(scale) ? {} : { scale }), ...(chars ? { chars } : {}) }
}
