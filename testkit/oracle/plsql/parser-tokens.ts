/**
 * The token cursor the PL/SQL parser (parser.ts, declaration-parser.ts) reads with: the current token, expected words
 * and symbols, token ranges up to a stop word, argument lists, labels. A symbol it does not expect fails as Oracle's
 * compiler does, PLS-00103 inside ORA-06550 with the line and column of the offending symbol.
 */
import { isKw, isOp, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Expr, Param } from "./ast.ts"
import { PlsCompileError, unexpectedSymbol } from "./errors.ts"

const BLOCK_WORDS = ["END", "BEGIN", "DECLARE", "ELSIF", "EXCEPTION"]

/**
 * PLS-00103 at a block word that stands where an expression could go on (`n := 2` then `END IF;` without the `;`):
 * what may continue an expression, and where a `;` ends the statement, the note that the compiler put one there, as
 * Oracle's compiler words it ("The symbol \";\" was substituted for \"END\" to continue.").
 */
const expressionEnd = (source: string, at: Tok, expected: ReadonlyArray<string>): PlsCompileError => {
  const symbol = at.text.toUpperCase()
  const operators = ["* & = - + ; < / > at in is mod remainder not rem", "<an exponent (**)> <> or != or ~= >= <= <> and or like like2", "like4 likec between || multiset member submultiset"]
  const words = expected.filter((w) => w !== ";")
  const list = [...operators, ...(words.length > 0 ? [words.join(" ")] : [])].map((l) => `   ${l}`).join("\n")
  const note = expected.includes(";") ? `\nThe symbol ";" was substituted for "${symbol}" to continue.` : ""
  return new PlsCompileError(source, at.pos, 103, `Encountered the symbol "${symbol}" when expecting one of the following:\n\n${list}${note}\n`)
}

/** A position in a PL/SQL unit's significant tokens (`source` is the text their positions point into). */
export abstract class TokenParser {
  protected i = 0
  constructor(
    protected readonly source: string,
    protected readonly toks: ReadonlyArray<Tok>
  ) {}

  protected get tok(): Tok | undefined {
    return this.toks[this.i]
  }

  protected fail(expected: ReadonlyArray<string>, at = this.tok): never {
    const pos = at?.pos ?? this.source.trimEnd().length
    throw unexpectedSymbol(this.source, pos, at === undefined ? "end-of-file" : at.kind === "str" ? at.text : at.text.toUpperCase(), expected)
  }

  protected kw(...words: Array<string>): boolean {
    return isKw(this.tok, ...words)
  }

  protected expectKw(word: string): Tok {
    if (!this.kw(word)) this.fail([word.toLowerCase()])
    return this.toks[this.i++]!
  }

  protected expectOp(op: string): void {
    if (!isOp(this.tok, op)) this.fail([op])
    this.i++
  }

  protected name(): string {
    const t = this.tok
    if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) this.fail(["<an identifier>"])
    this.i++
    return oracleName(t)
  }

  /**
   * Tokens up to (not including) the first top-level token `stop` accepts: outside parentheses and CASE ... END.
   * A `;` that comes first is a syntax error naming what was expected.
   */
  protected until(stop: (t: Tok) => boolean, expected: ReadonlyArray<string>): Expr {
    const start = this.i
    let depth = 0
    let cases = 0
    for (;;) {
      const t = this.tok
      if (t === undefined) this.fail(expected)
      if (depth === 0 && cases === 0 && stop(t)) break
      if (depth === 0 && cases === 0 && isOp(t, ";")) this.fail(expected)
      // a word that ends or starts a block cannot continue an expression: the `;` before it is missing
      if (depth === 0 && cases === 0 && this.i > start && isKw(t, ...BLOCK_WORDS)) throw expressionEnd(this.source, t, expected)
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (isKw(t, "CASE")) cases++
      else if (isKw(t, "END") && cases > 0) cases--
      this.i++
    }
    if (this.i === start) this.fail(["<an expression>"])
    return this.toks.slice(start, this.i)
  }

  protected untilKw(...words: Array<string>): Expr {
    return this.until((t) => isKw(t, ...words), words.map((w) => w.toLowerCase()))
  }

  /** Tokens to the next top-level `;`, which is consumed. */
  protected toSemicolon(): Expr {
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
  protected exprList(end: (t: Tok) => boolean): Array<Expr> {
    const out: Array<Expr> = []
    for (;;) {
      out.push(this.until((t) => isOp(t, ",") || end(t), [",", ";"]))
      if (!isOp(this.tok, ",")) return out
      this.i++
    }
  }

  /** `(a, b)` arguments, or none. */
  protected args(): Array<Expr> {
    if (!isOp(this.tok, "(")) return []
    this.i++
    const out = this.exprList((t) => isOp(t, ")"))
    this.expectOp(")")
    return out
  }

  protected label(): string | undefined {
    if (!(isOp(this.tok, "<") && isOp(this.toks[this.i + 1], "<"))) return undefined
    this.i += 2
    const name = this.name()
    this.expectOp(">")
    this.expectOp(">")
    return name
  }

  protected qualifiedName(): string {
    const parts = [this.name()]
    while (isOp(this.tok, ".")) {
      this.i++
      parts.push(this.name())
    }
    return parts.join(".")
  }

  /** `IN`, `OUT` or `IN OUT` of a parameter or USING argument, consumed; IN when none is written. */
  protected mode(): Param["mode"] {
    if (this.kw("IN") && isKw(this.toks[this.i + 1], "OUT")) {
      this.i += 2
      return "IN OUT"
    }
    if (this.kw("IN", "OUT")) return this.toks[this.i++]!.value as "IN" | "OUT"
    return "IN"
  }
}
