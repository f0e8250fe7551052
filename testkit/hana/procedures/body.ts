/**
 * The body of a SQLScript procedure parsed into the statement tree the interpreter (procedures/interpreter.ts) runs:
 * simple statements (DECLARE, assignments, SELECT [INTO], DML, SIGNAL / RESIGNAL) and the control flow of SQLScript's
 * imperative logic: nested `BEGIN … END` blocks, `IF … THEN … ELSEIF … ELSE … END IF`, `WHILE … DO … END WHILE`,
 * `FOR i IN [REVERSE] a..b DO … END FOR`, `FOR row AS cursor[(args)] DO … END FOR`, `BREAK`, `CONTINUE`, `RETURN`,
 * `DECLARE CURSOR`, `DECLARE name CONDITION [FOR SQL_ERROR_CODE n]` and `DECLARE EXIT HANDLER FOR … <statement>`.
 *
 * Syntax: SAP HANA SQLScript Reference, "Imperative SQLScript Logic" (Conditionals, While Loop, For Loop, Break and
 * Continue, Cursors / Looping over Result Sets) and "Exception Handling" (DECLARE EXIT HANDLER FOR
 * `<condition_value> ::= SQL_ERROR_CODE <n> | <condition_name> | SQLEXCEPTION`, DECLARE CONDITION, SIGNAL,
 * RESIGNAL, `::SQL_ERROR_CODE` / `::SQL_ERROR_MESSAGE`), as SAP's blog "Exception Handling of SAP HANA SQLScript
 * Procedure" (blogs.sap.com, 2014-06-24) quotes it; user-defined error codes 10000–19999 (SAP learning, "SAP HANA
 * SQLScript Basics and Advanced", "Trapping Errors").
 */
import { HanaError } from "../errors.ts"
import { identOf, sig, splitTopLevel, tokenize, upper } from "../lexer.ts"
import type { Token } from "../lexer.ts"
import { hanaType } from "../types.ts"
import type { HanaType } from "../types.ts"
import { VECTOR_TYPES, vectorTypeUnsupported } from "../vector-types.ts"

/** SQL text of a statement with the positions of its `:name` references, ready for substitution. */
export interface StatementText {
  readonly sql: string
  readonly tokens: readonly Token[]
}

/** What an exit handler catches. */
export type HandledCondition =
  | { readonly kind: "sqlexception" }
  | { readonly kind: "code"; readonly code: number }
  | { readonly kind: "condition"; readonly name: string }

/** Which error SIGNAL / RESIGNAL raises: a code, or a declared condition. */
export type SignalTarget = { readonly kind: "code"; readonly code: number } | { readonly kind: "condition"; readonly name: string }

/** A statement of a procedure body, as the interpreter runs it. */
export type BodyStatement =
  | { readonly kind: "declare"; readonly name: string; readonly type: HanaType; readonly init: StatementText | undefined }
  | { readonly kind: "assign"; readonly name: string; readonly value: StatementText }
  | { readonly kind: "table"; readonly name: string; readonly query: StatementText }
  | { readonly kind: "selectInto"; readonly query: StatementText; readonly targets: readonly string[] }
  | { readonly kind: "resultSet"; readonly query: StatementText }
  | { readonly kind: "dml"; readonly statement: StatementText }
  | { readonly kind: "signal"; readonly target: SignalTarget; readonly message: StatementText | undefined }
  | { readonly kind: "resignal"; readonly target: SignalTarget | undefined; readonly message: StatementText | undefined }
  | { readonly kind: "condition"; readonly name: string; readonly code: number | undefined }
  | { readonly kind: "cursor"; readonly name: string; readonly parameters: ReadonlyArray<{ readonly name: string; readonly type: HanaType }>; readonly query: StatementText }
  | { readonly kind: "handler"; readonly conditions: readonly HandledCondition[]; readonly action: BodyStatement }
  | { readonly kind: "block"; readonly body: readonly BodyStatement[] }
  | { readonly kind: "if"; readonly branches: ReadonlyArray<{ readonly condition: StatementText; readonly body: readonly BodyStatement[] }>; readonly otherwise: readonly BodyStatement[] }
  | { readonly kind: "while"; readonly condition: StatementText; readonly body: readonly BodyStatement[] }
  | { readonly kind: "forRange"; readonly variable: string; readonly from: StatementText; readonly to: StatementText; readonly reverse: boolean; readonly body: readonly BodyStatement[] }
  | { readonly kind: "forCursor"; readonly row: string; readonly cursor: string; readonly args: readonly StatementText[]; readonly body: readonly BodyStatement[] }
  | { readonly kind: "break" }
  | { readonly kind: "continue" }
  | { readonly kind: "return" }

const isOp = (t: Token | undefined, v: string): boolean => t !== undefined && t.t === "op" && t.v === v

/** The text the tokens span, tokenized again on its own (positions relative to it). */
export const textOf = (sql: string, tokens: readonly Token[]): StatementText => {
  const first = tokens[0]
  const last = tokens[tokens.length - 1]
  if (first?.pos === undefined || last?.end === undefined) return { sql: "", tokens: [] }
  return { sql: sql.slice(first.pos, last.end), tokens: sig(tokenize(sql.slice(first.pos, last.end))) }
}

/** A scalar type at tokens[i] (`NVARCHAR(20)`, `DECIMAL(10,2)`, `INTEGER`): [type, tokens used]. */
export const scalarTypeAt = (tokens: readonly Token[], i: number): [HanaType, number] => {
  const name = upper(tokens[i])
  let used = 1
  const args: number[] = []
  if (isOp(tokens[i + 1], "(")) {
    let close = i + 1
    while (close < tokens.length && !isOp(tokens[close], ")")) close++
    for (const t of tokens.slice(i + 2, close)) if (t.t === "number") args.push(Number(t.v))
    used = close - i + 1
  }
  if (name === "DOUBLE" && upper(tokens[i + used]) === "PRECISION") used++
  const type = hanaType(name, args)
  if (type === undefined && VECTOR_TYPES.has(name)) throw vectorTypeUnsupported(name)
  // As a column type (type-syntax.ts).
  if (type === undefined) throw HanaError.syntax(`invalid datatype: ${tokens[i]?.v ?? "<end>"}`, tokens[i]?.pos ?? 0)
  return [type, used]
}

const ACCEPTED =
  "DECLARE (variables, CONDITION, CURSOR, EXIT HANDLER), assignments (x = expr, t = SELECT …), SELECT … INTO, SELECT, INSERT, UPDATE, DELETE, UPSERT, " +
  "IF, WHILE, FOR, BREAK, CONTINUE, RETURN, SIGNAL, RESIGNAL, BEGIN … END"

const unsupported = (what: string): HanaError => HanaError.unsupported(`${what} in a procedure body of the test server (accepted: ${ACCEPTED})`)

const depthAt = (tokens: readonly Token[], index: number): number => {
  let depth = 0
  for (let k = 0; k < index; k++) {
    if (isOp(tokens[k], "(")) depth++
    else if (isOp(tokens[k], ")")) depth--
  }
  return depth
}

/** `SIGNAL` / `RESIGNAL` operands from tokens[i]: the condition (if any) and the MESSAGE_TEXT expression. */
const signalParts = (sql: string, tokens: readonly Token[], i: number): { target: SignalTarget | undefined; message: StatementText | undefined } => {
  let target: SignalTarget | undefined
  if (upper(tokens[i]) === "SQL_ERROR_CODE") {
    const code = tokens[i + 1]?.t === "number" ? Number(tokens[i + 1]!.v) : NaN
    // User-defined codes are 10000–19999 (SAP learning, "Trapping Errors").
    if (!(code >= 10000 && code <= 19999)) throw HanaError.syntax("SIGNAL SQL_ERROR_CODE <10000..19999> [SET MESSAGE_TEXT = '…'] expected", tokens[i]?.pos ?? 0)
    target = { kind: "code", code }
    i += 2
  } else if (tokens[i] !== undefined && upper(tokens[i]) !== "SET") {
    const name = identOf(tokens[i])
    if (name === undefined) throw HanaError.syntax(`condition name expected near ${tokens[i]!.v}`, tokens[i]!.pos ?? 0)
    target = { kind: "condition", name }
    i++
  }
  let message: StatementText | undefined
  if (upper(tokens[i]) === "SET") {
    if (upper(tokens[i + 1]) !== "MESSAGE_TEXT" || !isOp(tokens[i + 2], "=")) throw HanaError.syntax("SET MESSAGE_TEXT = <expression> expected", tokens[i]!.pos ?? 0)
    message = textOf(sql, tokens.slice(i + 3))
    if (message.tokens.length === 0) throw HanaError.syntax("message text expected", tokens[i]!.pos ?? 0)
  } else if (tokens[i] !== undefined) throw HanaError.syntax(`incorrect syntax near "${tokens[i]!.v}"`, tokens[i]!.pos ?? 0)
  return { target, message }
}

const declareOf = (sql: string, tokens: readonly Token[]): BodyStatement => {
  const rest = (from: number): StatementText => textOf(sql, tokens.slice(from))
  if (upper(tokens[1]) === "CONTINUE" && upper(tokens[2]) === "HANDLER") throw unsupported("DECLARE CONTINUE HANDLER")
  if (upper(tokens[1]) === "CURSOR") {
    const name = identOf(tokens[2])
    if (name === undefined) throw HanaError.syntax("cursor name expected after DECLARE CURSOR", tokens[2]?.pos ?? 0)
    let i = 3
    const parameters: Array<{ name: string; type: HanaType }> = []
    if (isOp(tokens[i], "(")) {
      let close = i
      let depth = 0
      for (; close < tokens.length; close++) {
        if (isOp(tokens[close], "(")) depth++
        else if (isOp(tokens[close], ")") && --depth === 0) break
      }
      for (const item of splitTopLevel(tokens.slice(i + 1, close))) {
        const pname = identOf(item[0])
        if (pname === undefined) throw HanaError.syntax("cursor parameter name expected", item[0]?.pos ?? 0)
        parameters.push({ name: pname, type: scalarTypeAt(item, 1)[0] })
      }
      i = close + 1
    }
    if (upper(tokens[i]) !== "FOR" || (upper(tokens[i + 1]) !== "SELECT" && upper(tokens[i + 1]) !== "WITH")) {
      throw HanaError.syntax("DECLARE CURSOR <name> [(<parameters>)] FOR <select> expected", tokens[i]?.pos ?? 0)
    }
    return { kind: "cursor", name, parameters, query: rest(i + 1) }
  }
  const name = identOf(tokens[1])
  if (name === undefined) throw HanaError.syntax("variable name expected after DECLARE", tokens[1]?.pos ?? 0)
  let i = 2
  if (upper(tokens[i]) === "CONDITION") {
    if (tokens[i + 1] === undefined) return { kind: "condition", name, code: undefined }
    const code = tokens[i + 3]?.t === "number" ? Number(tokens[i + 3]!.v) : NaN
    if (upper(tokens[i + 1]) !== "FOR" || upper(tokens[i + 2]) !== "SQL_ERROR_CODE" || !Number.isInteger(code) || tokens[i + 4] !== undefined) {
      throw HanaError.syntax("DECLARE <name> CONDITION [FOR SQL_ERROR_CODE <n>] expected", tokens[i]!.pos ?? 0)
    }
    return { kind: "condition", name, code }
  }
  if (upper(tokens[i]) === "CONSTANT") i++
  if (upper(tokens[i]) === "TABLE" || upper(tokens[i]) === "CURSOR") throw unsupported(`DECLARE … ${upper(tokens[i])}`)
  const [type, used] = scalarTypeAt(tokens, i)
  i += used
  if (upper(tokens[i]) === "NOT" && upper(tokens[i + 1]) === "NULL") i += 2
  let init: StatementText | undefined
  if (upper(tokens[i]) === "DEFAULT" || isOp(tokens[i], "=")) init = rest(i + 1)
  else if (isOp(tokens[i], ":") && isOp(tokens[i + 1], "=")) init = rest(i + 2)
  else if (tokens[i] !== undefined) throw HanaError.syntax(`incorrect syntax near "${tokens[i]!.v}"`, tokens[i]!.pos ?? 0)
  return { kind: "declare", name, type, init }
}

/** One statement without control flow (tokens without the closing `;`). */
const simpleStatementOf = (sql: string, tokens: readonly Token[], context: Context): BodyStatement => {
  const head = upper(tokens[0])
  const rest = (from: number): StatementText => textOf(sql, tokens.slice(from))
  if (head === "DECLARE") return declareOf(sql, tokens)
  if (head === "SIGNAL") {
    const { target, message } = signalParts(sql, tokens, 1)
    if (target === undefined) throw HanaError.syntax("SIGNAL needs a condition or SQL_ERROR_CODE", tokens[0]!.pos ?? 0)
    return { kind: "signal", target, message }
  }
  if (head === "RESIGNAL") {
    // RESIGNAL raises the error being handled, so it belongs in an exit handler ("Exception Handling", RESIGNAL).
    if (!context.inHandler) throw HanaError.syntax("RESIGNAL is only allowed in an exception handler", tokens[0]!.pos ?? 0)
    return { kind: "resignal", ...signalParts(sql, tokens, 1) }
  }
  if (head === "BREAK" || head === "CONTINUE") {
    if (tokens.length > 1) throw HanaError.syntax(`incorrect syntax near "${tokens[1]!.v}"`, tokens[1]!.pos ?? 0)
    if (context.loops === 0) throw HanaError.syntax(`${head} is only allowed in a loop`, tokens[0]!.pos ?? 0)
    return { kind: head === "BREAK" ? "break" : "continue" }
  }
  if (head === "RETURN") {
    if (tokens.length > 1) throw HanaError.syntax(`incorrect syntax near "${tokens[1]!.v}"`, tokens[1]!.pos ?? 0)
    return { kind: "return" }
  }
  if (head === "SELECT" || head === "WITH") {
    const into = tokens.findIndex((t, k) => upper(t) === "INTO" && depthAt(tokens, k) === 0)
    if (into < 0) return { kind: "resultSet", query: rest(0) }
    const from = tokens.findIndex((t, k) => k > into && upper(t) === "FROM" && depthAt(tokens, k) === 0)
    const targetTokens = tokens.slice(into + 1, from < 0 ? tokens.length : from)
    const targets = splitTopLevel(targetTokens).map((t) => {
      const n = t.length === 1 ? identOf(t[0]) : undefined
      if (n === undefined) throw HanaError.syntax("variable name expected after INTO", t[0]?.pos ?? 0)
      return n
    })
    // The query without its INTO clause.
    const before = textOf(sql, tokens.slice(0, into)).sql
    const after = from < 0 ? "" : textOf(sql, tokens.slice(from)).sql
    const text = `${before} ${after}`
    return { kind: "selectInto", query: { sql: text, tokens: sig(tokenize(text)) }, targets }
  }
  if (["INSERT", "UPDATE", "DELETE", "UPSERT", "REPLACE", "TRUNCATE"].includes(head)) return { kind: "dml", statement: rest(0) }
  const target = identOf(tokens[0])
  const assignAt = isOp(tokens[1], "=") ? 2 : isOp(tokens[1], ":") && isOp(tokens[2], "=") ? 3 : -1
  if (target !== undefined && assignAt > 0) {
    const rhs = upper(tokens[assignAt])
    if (rhs === "SELECT" || rhs === "WITH") return { kind: "table", name: target, query: rest(assignAt) }
    return { kind: "assign", name: target, value: rest(assignAt) }
  }
  throw unsupported(tokens[0]?.v ?? "statement")
}

/** Where the parser stands: inside how many loops, inside an exit handler. */
interface Context {
  readonly loops: number
  readonly inHandler: boolean
}

/** A recursive-descent reader of the body's tokens. */
class BodyReader {
  i = 0
  constructor(
    private readonly sql: string,
    private readonly tokens: readonly Token[]
  ) {}

  private at(k = 0): Token | undefined {
    return this.tokens[this.i + k]
  }

  private word(k = 0): string {
    return upper(this.at(k))
  }

  private expectWord(...words: string[]): void {
    for (const w of words) {
      if (this.word() !== w) throw HanaError.syntax(`${w} expected near "${this.at()?.v ?? "<end>"}"`, this.at()?.pos ?? this.sql.length)
      this.i++
    }
  }

  private endStatement(): void {
    if (this.at() === undefined) return
    if (!isOp(this.at(), ";")) throw HanaError.syntax(`incorrect syntax near "${this.at()!.v}"`, this.at()!.pos ?? 0)
    this.i++
  }

  /**
   * The tokens up to (not including) the first of `stops` at parenthesis depth 0 and outside CASE … END, so that a
   * CASE expression's THEN does not end an IF condition.
   */
  private until(stops: readonly string[]): Token[] {
    const out: Token[] = []
    let depth = 0
    let cases = 0
    for (; this.i < this.tokens.length; this.i++) {
      const t = this.tokens[this.i]!
      const w = upper(t)
      if (depth === 0 && cases === 0 && (stops.includes(w) || (t.t === "op" && stops.includes(t.v)))) return out
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (w === "CASE") cases++
      else if (w === "END" && cases > 0) cases--
      out.push(t)
    }
    return out
  }

  private textUntil(stops: readonly string[], what: string): StatementText {
    const start = this.at()
    const tokens = this.until(stops)
    if (tokens.length === 0) throw HanaError.syntax(`${what} expected`, start?.pos ?? this.sql.length)
    if (this.at() === undefined) throw HanaError.syntax(`${stops[0]} expected after ${what}`, this.sql.length)
    return textOf(this.sql, tokens)
  }

  /** Statements until END / ELSE / ELSEIF (left for the caller) or the end of the tokens. */
  statements(context: Context): BodyStatement[] {
    const out: BodyStatement[] = []
    for (;;) {
      while (isOp(this.at(), ";")) this.i++
      const w = this.word()
      if (this.at() === undefined || w === "END" || w === "ELSE" || w === "ELSEIF") return out
      out.push(this.statement(context))
    }
  }

  private statement(context: Context): BodyStatement {
    const start = this.at()!
    switch (this.word()) {
      case "BEGIN": {
        this.i++
        const body = this.statements(context)
        this.expectWord("END")
        this.endStatement()
        return { kind: "block", body }
      }
      case "IF": {
        this.i++
        const branches: Array<{ condition: StatementText; body: BodyStatement[] }> = []
        let condition = this.textUntil(["THEN"], "condition")
        this.expectWord("THEN")
        branches.push({ condition, body: this.statements(context) })
        while (this.word() === "ELSEIF") {
          this.i++
          condition = this.textUntil(["THEN"], "condition")
          this.expectWord("THEN")
          branches.push({ condition, body: this.statements(context) })
        }
        let otherwise: BodyStatement[] = []
        if (this.word() === "ELSE") {
          this.i++
          otherwise = this.statements(context)
        }
        this.expectWord("END", "IF")
        this.endStatement()
        return { kind: "if", branches, otherwise }
      }
      case "WHILE": {
        this.i++
        const condition = this.textUntil(["DO"], "condition")
        this.expectWord("DO")
        const body = this.statements({ ...context, loops: context.loops + 1 })
        this.expectWord("END", "WHILE")
        this.endStatement()
        return { kind: "while", condition, body }
      }
      case "FOR":
        return this.forLoop(context)
      case "LOOP":
      case "REPEAT":
      case "OPEN":
      case "FETCH":
      case "CLOSE":
      case "CALL":
      case "EXEC":
      case "EXECUTE":
      case "CASE":
        throw unsupported(start.v.toUpperCase())
      case "DECLARE":
        if (this.word(1) === "EXIT" && this.word(2) === "HANDLER") return this.handler()
    }
    const tokens = this.until([";"])
    this.endStatement()
    return simpleStatementOf(this.sql, tokens, context)
  }

  private handler(): BodyStatement {
    this.i += 3
    this.expectWord("FOR")
    const conditions: HandledCondition[] = []
    for (;;) {
      const w = this.word()
      if (w === "SQLEXCEPTION") {
        conditions.push({ kind: "sqlexception" })
        this.i++
      } else if (w === "SQL_ERROR_CODE" && this.at(1)?.t === "number") {
        conditions.push({ kind: "code", code: Number(this.at(1)!.v) })
        this.i += 2
      } else {
        const name = identOf(this.at())
        if (name === undefined || w === "BEGIN") throw HanaError.syntax(`condition expected near "${this.at()?.v ?? "<end>"}"`, this.at()?.pos ?? this.sql.length)
        conditions.push({ kind: "condition", name })
        this.i++
      }
      if (!isOp(this.at(), ",")) break
      this.i++
    }
    if (this.at() === undefined) throw HanaError.syntax("handler statement expected", this.sql.length)
    // BREAK / CONTINUE in a handler would leave it for a loop around the block: not accepted.
    const action = this.statement({ loops: 0, inHandler: true })
    return { kind: "handler", conditions, action }
  }

  private forLoop(context: Context): BodyStatement {
    const start = this.at()!
    this.i++
    const variable = identOf(this.at())
    if (variable === undefined) throw HanaError.syntax("loop variable expected after FOR", this.at()?.pos ?? this.sql.length)
    this.i++
    const inner = { ...context, loops: context.loops + 1 }
    if (this.word() === "AS") {
      this.i++
      const cursor = identOf(this.at())
      if (cursor === undefined) throw HanaError.syntax("cursor name expected after AS", this.at()?.pos ?? this.sql.length)
      this.i++
      let args: StatementText[] = []
      if (isOp(this.at(), "(")) {
        this.i++
        const list = this.until([")"])
        this.i++
        args = splitTopLevel(list).filter((a) => a.length > 0).map((a) => textOf(this.sql, a))
      }
      this.expectWord("DO")
      const body = this.statements(inner)
      this.expectWord("END", "FOR")
      this.endStatement()
      return { kind: "forCursor", row: variable, cursor, args, body }
    }
    this.expectWord("IN")
    let reverse = false
    if (this.word() === "REVERSE") {
      reverse = true
      this.i++
    }
    // The lexer reads `1..10` as the numbers `1.` and `.10`, so the range is split in the text at its `..`.
    const range = this.until(["DO"])
    const first = range[0]
    const last = range[range.length - 1]
    if (first?.pos === undefined || last?.end === undefined || this.word() !== "DO") {
      throw HanaError.syntax("FOR <variable> IN [REVERSE] <start>..<end> DO expected", start.pos ?? 0)
    }
    const text = this.sql.slice(first.pos, last.end)
    const dots = text.indexOf("..")
    if (dots < 0) throw HanaError.syntax("FOR <variable> IN [REVERSE] <start>..<end> DO expected", first.pos)
    const part = (s: string): StatementText => {
      const tokens = sig(tokenize(s))
      if (tokens.length === 0) throw HanaError.syntax("loop bound expected", first.pos ?? 0)
      return { sql: s, tokens }
    }
    this.expectWord("DO")
    const body = this.statements(inner)
    this.expectWord("END", "FOR")
    this.endStatement()
    return { kind: "forRange", variable, from: part(text.slice(0, dots)), to: part(text.slice(dots + 2)), reverse, body }
  }
}

/** Parses the tokens between a procedure's `AS BEGIN` and its closing `END` (`sql` is the whole CREATE text). */
export const parseBody = (sql: string, tokens: readonly Token[]): BodyStatement[] => {
  const reader = new BodyReader(sql, tokens)
  const body = reader.statements({ loops: 0, inHandler: false })
  const stray = tokens[reader.i]
  if (stray !== undefined) throw HanaError.syntax(`incorrect syntax near "${stray.v}"`, stray.pos ?? 0)
  return body
}
