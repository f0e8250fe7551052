/**
 * Tokenizer for the Oracle SQL and PL/SQL subset the test server accepts. Bind placeholders are recognised
 * the way node-oracledb's thin statement parser does (lib/thin/statement.js Parser): `:name`, `:1`, `:"Quoted"`,
 * not inside strings, comments or quoted identifiers.
 */
import { OraError } from "./errors.ts"

/** Token kinds. */
export type TokKind = "ws" | "ident" | "qident" | "str" | "num" | "bind" | "op"

/** One token: `text` is the source text, `value` the normalised value (upper-cased identifier, string body, bind name). */
export interface Tok {
  readonly kind: TokKind
  readonly text: string
  readonly value: string
  readonly pos: number
  /** What the token stands for in a column heading, when a rewrite made it from other source text. */
  readonly heading?: string
  /**
   * The heading of the unaliased select item the token was written in (expression-names.ts withWrittenHeadings),
   * which rewrites copying the token carry along, so the item keeps the heading of its text as written.
   */
  readonly written?: WrittenHeading
}

/** An unaliased select item's heading as the statement wrote it, and the parenthesis depth of its select list. */
export interface WrittenHeading {
  readonly heading: string
  readonly depth: number
}

const isIdentStart = (c: string) => /[\p{L}_]/u.test(c)
const isIdentPart = (c: string) => /[\p{L}\p{N}_$#]/u.test(c)
const TWO_CHAR_OPS = new Set(["||", "<=", ">=", "<>", "!=", "=>", ":=", "..", "**"])

/** Splits SQL text into tokens; comments become whitespace tokens. */
export const tokenize = (sql: string): Array<Tok> => {
  const out: Array<Tok> = []
  let i = 0
  const n = sql.length
  while (i < n) {
    const c = sql[i]!
    const start = i
    if (/\s/.test(c)) {
      while (i < n && /\s/.test(sql[i]!)) i++
      out.push({ kind: "ws", text: sql.slice(start, i), value: " ", pos: start })
      continue
    }
    if (c === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n") i++
      out.push({ kind: "ws", text: " ", value: " ", pos: start })
      continue
    }
    if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2)
      i = end < 0 ? n : end + 2
      out.push({ kind: "ws", text: " ", value: " ", pos: start })
      continue
    }
    // q'[...]' quoting and N'...' national literals
    if ((c === "q" || c === "Q") && sql[i + 1] === "'") {
      const open = sql[i + 2] ?? ""
      const close = open === "[" ? "]" : open === "{" ? "}" : open === "(" ? ")" : open === "<" ? ">" : open
      const end = sql.indexOf(close + "'", i + 3)
      if (end < 0) throw new OraError(1756, "quoted string not properly terminated", start)
      out.push({ kind: "str", text: sql.slice(start, end + 2), value: sql.slice(i + 3, end), pos: start })
      i = end + 2
      continue
    }
    if ((c === "n" || c === "N") && sql[i + 1] === "'") i++
    if (sql[i] === "'") {
      let v = ""
      i++
      for (;;) {
        if (i >= n) throw new OraError(1756, "quoted string not properly terminated", start)
        const ch = sql[i]!
        if (ch === "'") {
          if (sql[i + 1] === "'") {
            v += "'"
            i += 2
            continue
          }
          i++
          break
        }
        v += ch
        i++
      }
      out.push({ kind: "str", text: sql.slice(start, i), value: v, pos: start })
      continue
    }
    if (c === '"') {
      const end = sql.indexOf('"', i + 1)
      if (end < 0) throw new OraError(1740, "missing double quote in identifier", start)
      const v = sql.slice(i + 1, end)
      if (v.length === 0) throw new OraError(1741, "illegal zero-length identifier", start)
      out.push({ kind: "qident", text: sql.slice(start, end + 1), value: v, pos: start })
      i = end + 1
      continue
    }
    if (c === ":" && sql[i + 1] !== "=") {
      let j = i + 1
      while (j < n && /\s/.test(sql[j]!)) j++
      const d = sql[j] ?? ""
      if (d === '"') {
        const end = sql.indexOf('"', j + 1)
        if (end > 0) {
          out.push({ kind: "bind", text: sql.slice(start, end + 1), value: sql.slice(j + 1, end), pos: start })
          i = end + 1
          continue
        }
      } else if (/\p{N}/u.test(d)) {
        let k = j
        while (k < n && /\p{N}/u.test(sql[k]!)) k++
        out.push({ kind: "bind", text: sql.slice(start, k), value: sql.slice(j, k), pos: start })
        i = k
        continue
      } else if (/\p{L}/u.test(d)) {
        let k = j
        while (k < n && isIdentPart(sql[k]!)) k++
        out.push({ kind: "bind", text: sql.slice(start, k), value: sql.slice(j, k).toUpperCase(), pos: start })
        i = k
        continue
      }
    }
    if (isIdentStart(c)) {
      while (i < n && isIdentPart(sql[i]!)) i++
      const text = sql.slice(start, i)
      out.push({ kind: "ident", text, value: text.toUpperCase(), pos: start })
      continue
    }
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      while (i < n && /[0-9]/.test(sql[i]!)) i++
      if (sql[i] === "." && sql[i + 1] !== ".") {
        i++
        while (i < n && /[0-9]/.test(sql[i]!)) i++
      }
      if ((sql[i] === "e" || sql[i] === "E") && /[-+0-9]/.test(sql[i + 1] ?? "")) {
        i += 2
        while (i < n && /[0-9]/.test(sql[i]!)) i++
      }
      // Oracle numeric suffixes f/d (BINARY_FLOAT/BINARY_DOUBLE literals)
      if (/[fFdD]/.test(sql[i] ?? "") && !isIdentPart(sql[i + 1] ?? " ")) i++
      const text = sql.slice(start, i)
      out.push({ kind: "num", text, value: text.replace(/[fFdD]$/, ""), pos: start })
      continue
    }
    const two = sql.slice(i, i + 2)
    // `^=` and `~=` are Oracle's other spellings of `!=` (SQL Language Reference, "Comparison Conditions"; PL/SQL
    // Language Reference, "Relational Operators"): one token, read and written as `!=`
    if (two === "^=" || two === "~=") {
      out.push({ kind: "op", text: "!=", value: "!=", pos: start })
      i += 2
      continue
    }
    if (TWO_CHAR_OPS.has(two)) {
      out.push({ kind: "op", text: two, value: two, pos: start })
      i += 2
      continue
    }
    out.push({ kind: "op", text: c, value: c, pos: start })
    i++
  }
  return out
}

/** True for a name token: an identifier, plain or quoted. */
export const isName = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === "ident" || t.kind === "qident")

/** Tokens without whitespace. */
export const significant = (toks: ReadonlyArray<Tok>): Array<Tok> => toks.filter((t) => t.kind !== "ws")

/** The significant tokens of `sql`, or undefined when it does not lex (a check then leaves the statement to the engine). */
export const significantTokensOf = (sql: string): Array<Tok> | undefined => {
  try {
    return significant(tokenize(sql))
  } catch {
    return undefined
  }
}

/** True when the token is the given keyword (identifier, case-insensitive). */
export const isKw = (t: Tok | undefined, ...kws: Array<string>): boolean =>
  t !== undefined && t.kind === "ident" && kws.includes(t.value)

/** True when the token is the given operator/punctuation. */
export const isOp = (t: Tok | undefined, op: string): boolean => t !== undefined && t.kind === "op" && t.value === op

/**
 * The 1-based number, in source order, of each bind token of `toks`: one number per source position, as a rewrite may
 * repeat a bind's token (quantified-lists.ts puts `:n` of `:n > ANY (a, b)` beside each element).
 */
export const bindNumbers = (toks: ReadonlyArray<Tok>): Map<Tok, number> => {
  const positions = [...new Set(toks.flatMap((t) => (t.kind === "bind" ? [t.pos] : [])))].sort((a, b) => a - b)
  const numberAt = new Map(positions.map((pos, i) => [pos, i + 1]))
  return new Map(toks.flatMap((t) => (t.kind === "bind" ? [[t, numberAt.get(t.pos)!] as const] : [])))
}

/** Index of the token closing the parenthesis opened at `open` (in a significant-token array). */
export const matchParen = (toks: ReadonlyArray<Tok>, open: number): number => {
  let depth = 0
  for (let i = open; i < toks.length; i++) {
    if (isOp(toks[i], "(")) depth++
    else if (isOp(toks[i], ")")) {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}

/** Index of the token opening the parenthesis closed at `close`, searching no further back than `from`; -1 when none does. */
export const openingParen = (toks: ReadonlyArray<Tok>, close: number, from = 0): number => {
  for (let depth = 0, k = close; k >= from; k--) {
    if (isOp(toks[k], ")")) depth++
    else if (isOp(toks[k], "(") && --depth === 0) return k
  }
  return -1
}

/**
 * The first index in [from, to) at parenthesis depth 0 whose token `match` accepts, or -1 (also when a parenthesis
 * closes the range's enclosing one first).
 */
export const findTopLevel = (toks: ReadonlyArray<Tok>, from: number, to: number, match: (t: Tok) => boolean): number => {
  let depth = 0
  for (let k = from; k < to; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && match(toks[k]!)) return k
    if (depth < 0) return -1
  }
  return -1
}

/**
 * The SELECT that opens the query block holding index `at` (searching back at parenthesis depth 0 from `at`), or -1
 * when the enclosing parenthesis opens first.
 */
export const blockSelectBefore = (toks: ReadonlyArray<Tok>, at: number): number => {
  for (let k = at, depth = 0; k >= 0; k--) {
    if (isOp(toks[k], ")")) depth++
    else if (isOp(toks[k], "(")) depth--
    if (depth === 0 && isKw(toks[k], "SELECT")) return k
    if (depth < 0) return -1
  }
  return -1
}

/** Splits a token range at top-level commas. */
export const splitTopLevel = (toks: ReadonlyArray<Tok>, sep = ","): Array<Array<Tok>> => {
  const parts: Array<Array<Tok>> = [[]]
  let depth = 0
  for (const t of toks) {
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth === 0 && isOp(t, sep)) {
      parts.push([])
      continue
    }
    parts[parts.length - 1]!.push(t)
  }
  return parts
}

/** `s` as a SQL string literal (single quotes doubled). */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`
