/**
 * HANA SQL lexer: splits statement text into tokens (comments become whitespace), with the token helpers the
 * translator (translate.ts) and the parameter describer (parameter-columns.ts) share.
 */
import { HanaError } from "./errors.ts"

/** Kinds of token. */
export type TokenType = "ws" | "word" | "qident" | "string" | "hex" | "number" | "param" | "op"

/** One token of statement text. */
export interface Token {
  readonly t: TokenType
  readonly v: string
  /** Offsets of the token in the original SQL text. */
  readonly pos?: number
  readonly end?: number
  /** Name of a `:name` parameter (upper case). */
  readonly name?: string
}

/** Splits SQL into tokens (comments become whitespace). */
export const tokenize = (sql: string): Token[] => {
  const out: Token[] = []
  let i = 0
  const n = sql.length
  while (i < n) {
    const start = i
    const before = out.length
    scan()
    if (out.length > before) out[out.length - 1] = { ...out[out.length - 1]!, pos: start, end: i }
  }
  return out

  function scan(): void {
    const c = sql[i]!
    if (/\s/.test(c)) {
      let j = i + 1
      while (j < n && /\s/.test(sql[j]!)) j++
      out.push({ t: "ws", v: " " })
      i = j
    } else if (c === "-" && sql[i + 1] === "-") {
      let j = i + 2
      while (j < n && sql[j] !== "\n") j++
      out.push({ t: "ws", v: " " })
      i = j
    } else if (c === "/" && sql[i + 1] === "*") {
      const j = sql.indexOf("*/", i + 2)
      if (j < 0) throw HanaError.syntax("unterminated comment", i)
      out.push({ t: "ws", v: " " })
      i = j + 2
    } else if (c === "'" || ((c === "N" || c === "n" || c === "X" || c === "x") && sql[i + 1] === "'")) {
      const prefix = c === "'" ? "" : c.toUpperCase()
      let j = c === "'" ? i + 1 : i + 2
      let s = ""
      for (;;) {
        if (j >= n) throw HanaError.syntax("unterminated string literal", i)
        if (sql[j] === "'") {
          if (sql[j + 1] === "'") {
            s += "'"
            j += 2
            continue
          }
          break
        }
        s += sql[j]
        j++
      }
      out.push({ t: prefix === "X" ? "hex" : "string", v: s })
      i = j + 1
    } else if (c === '"') {
      let j = i + 1
      let s = ""
      for (;;) {
        if (j >= n) throw HanaError.syntax("unterminated quoted identifier", i)
        if (sql[j] === '"') {
          if (sql[j + 1] === '"') {
            s += '"'
            j += 2
            continue
          }
          break
        }
        s += sql[j]
        j++
      }
      if (s.length === 0) throw HanaError.syntax("zero-length identifier", i)
      out.push({ t: "qident", v: s })
      i = j + 1
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(sql.slice(i))!
      out.push({ t: "number", v: m[0] })
      i += m[0].length
    } else if (/[\p{L}_#$]/u.test(c)) {
      const m = /^[\p{L}\p{N}_#$]+/u.exec(sql.slice(i))!
      out.push({ t: "word", v: m[0] })
      i += m[0].length
    } else if (c === "?") {
      out.push({ t: "param", v: "?" })
      i++
    } else if (c === ":" && /[\p{L}_]/u.test(sql[i + 1] ?? "")) {
      const m = /^:[\p{L}\p{N}_]+/u.exec(sql.slice(i))!
      out.push({ t: "param", v: "?", name: m[0].slice(1).toUpperCase() })
      i += m[0].length
    } else {
      const two = sql.slice(i, i + 2)
      if (["||", "<=", ">=", "<>", "!=", "::"].includes(two)) {
        out.push({ t: "op", v: two })
        i += 2
      } else {
        out.push({ t: "op", v: c })
        i++
      }
    }
  }
}

/** Names of the statement's parameters in order (`:name` → NAME, `?` → undefined). */
export const parameterNames = (sql: string): Array<string | undefined> =>
  tokenize(sql)
    .filter((t) => t.t === "param")
    .map((t) => t.name)


/** The tokens without whitespace. */
export const sig = (tokens: readonly Token[]): Token[] => tokens.filter((t) => t.t !== "ws")

/** Upper-case text of a word token, else "". */
export const upper = (t: Token | undefined): string => (t !== undefined && t.t === "word" ? t.v.toUpperCase() : "")

/** Identifier value of a word or quoted identifier token (words fold to upper case). */
export const identOf = (t: Token | undefined): string | undefined =>
  t === undefined ? undefined : t.t === "word" ? t.v.toUpperCase() : t.t === "qident" ? t.v : undefined

/** Splits tokens on top-level commas. */
export const splitTopLevel = (tokens: readonly Token[]): Token[][] => {
  const out: Token[][] = [[]]
  let depth = 0
  for (const t of tokens) {
    if (t.t === "op" && t.v === "(") depth++
    if (t.t === "op" && t.v === ")") depth--
    if (depth === 0 && t.t === "op" && t.v === ",") out.push([])
    else out[out.length - 1]!.push(t)
  }
  return out
}

/** Index of the `)` matching the `(` at tokens[open]. */
export const matching = (tokens: readonly Token[], open: number): number => {
  let depth = 0
  for (let j = open; j < tokens.length; j++) {
    const t = tokens[j]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") {
      depth--
      if (depth === 0) return j
    }
  }
  throw HanaError.syntax("unbalanced parentheses", 0)
}

/** The HANA name a word or quoted identifier token stands for (undefined for other tokens). */
export const nameOf = (t: Token | undefined): string | undefined => (t === undefined ? undefined : t.t === "qident" ? t.v : t.t === "word" ? t.v.toUpperCase() : undefined)

/** How many `?` parameters the tokens hold. */
export const countParams = (tokens: readonly Token[]): number => tokens.filter((t) => t.t === "param").length
