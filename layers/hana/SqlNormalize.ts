/**
 * SQL normalization before execution:
 *
 * 1. A top-level SELECT without a FROM clause gets `FROM DUMMY` (HANA requires a FROM; `DUMMY` is its one-row
 *    table). Each SELECT of a top-level UNION/INTERSECT/EXCEPT/MINUS chain is treated alike, and `FROM DUMMY` goes
 *    before the first top-level WHERE/GROUP BY/HAVING/ORDER BY/LIMIT/OFFSET/FOR/INTO of that SELECT.
 * 2. Unquoted `TIMESTAMP(n)` and `TIME(n)` (any case, optional blanks before the parenthesis) lose their precision
 *    suffix, which HANA does not accept.
 * 3. String literals, quoted identifiers and comments are never changed. This is a lexical pass, not a SQL parse.
 *
 * @since 0.1.0
 */

/** A lexical piece of SQL text. */
interface Token {
  readonly kind: "code" | "string" | "ident" | "comment"
  readonly text: string
}

/**
 * Splits SQL into code, `'string'` literals (`''` escapes), `"quoted identifiers"` (`""` escapes), `-- line` and
 * `/* block *\/` comments. An unterminated literal or comment runs to the end of the text.
 */
const tokenize = (sql: string): Array<Token> => {
  const tokens: Array<Token> = []
  let start = 0
  let i = 0
  const n = sql.length
  const flushCode = (end: number) => {
    if (end > start) tokens.push({ kind: "code", text: sql.slice(start, end) })
  }
  while (i < n) {
    const c = sql[i]!
    if (c === "'" || c === "\"") {
      flushCode(i)
      let j = i + 1
      for (;;) {
        if (j >= n) break
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            j += 2
            continue
          }
          j++
          break
        }
        j++
      }
      tokens.push({ kind: c === "'" ? "string" : "ident", text: sql.slice(i, j) })
      i = start = j
    } else if (c === "-" && sql[i + 1] === "-") {
      flushCode(i)
      let j = sql.indexOf("\n", i)
      j = j < 0 ? n : j
      tokens.push({ kind: "comment", text: sql.slice(i, j) })
      i = start = j
    } else if (c === "/" && sql[i + 1] === "*") {
      flushCode(i)
      let j = sql.indexOf("*/", i + 2)
      j = j < 0 ? n : j + 2
      tokens.push({ kind: "comment", text: sql.slice(i, j) })
      i = start = j
    } else {
      i++
    }
  }
  flushCode(n)
  return tokens
}

const TEMPORAL_PRECISION = /(?<![A-Za-z0-9_$#])(TIMESTAMP|TIME)(\s*)\(\s*\d+\s*\)/i

/** The text of `tokens` as the precision pattern must see it: comments are blanks, literals and quoted names opaque. */
const codeView = (tokens: ReadonlyArray<Token>): string =>
  tokens.map((t) => t.kind === "code" ? t.text : (t.kind === "comment" ? " " : "\u0001").repeat(t.text.length)).join("")

/**
 * Removes precision suffixes until none is left (`TIME (3) (1)` would otherwise leave `TIME (1)` behind), also where
 * comments stand between the keyword and its parenthesis or inside it (SQL reads a comment as a blank); the comments
 * themselves stay, and so do line breaks. A suffix directly followed by a word leaves a blank, so `TIMESTAMP(6)NOT` does
 * not become one word.
 */
const stripTemporalPrecision = (tokens: ReadonlyArray<Token>): Array<Token> => {
  let current = [...tokens]
  for (;;) {
    const view = codeView(current)
    const match = TEMPORAL_PRECISION.exec(view)
    if (match === null) return current
    const from = match.index + match[1]!.length
    const to = match.index + match[0].length
    const blank = /[A-Za-z0-9_$#]/.test(view[to] ?? "") ? " " : ""
    let offset = 0
    current = current.flatMap((token) => {
      const start = offset
      offset += token.text.length
      if (token.kind !== "code") return [token]
      const a = Math.max(from, start) - start
      const b = Math.min(to, offset) - start
      if (a >= b) return [token]
      // line breaks stay: one may end a `--` comment that the suffix enclosed
      const kept = token.text.slice(a, b).replace(/[^\n]/g, "")
      const text = token.text.slice(0, a) + kept + (offset >= to ? blank : "") + token.text.slice(b)
      return text.length > 0 ? [{ kind: "code" as const, text }] : []
    })
  }
}

/** A word of code with its position: token index and offset inside the token. */
interface Word {
  readonly upper: string
  readonly token: number
  readonly start: number
  readonly end: number
  readonly depth: number
}

const SELECT_CLAUSE_END = new Set(["WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "FOR", "INTO"])
const SET_OPERATORS = new Set(["UNION", "INTERSECT", "EXCEPT", "MINUS"])

/** Words and parenthesis depth of the code tokens. */
const wordsOf = (tokens: ReadonlyArray<Token>): { words: Array<Word>; balanced: boolean } => {
  const words: Array<Word> = []
  let depth = 0
  let balanced = true
  tokens.forEach((token, t) => {
    if (token.kind !== "code") return
    const re = /[A-Za-z_][A-Za-z0-9_$#]*|[();]/g
    for (let m = re.exec(token.text); m !== null; m = re.exec(token.text)) {
      if (m[0] === "(") depth++
      else if (m[0] === ")") {
        if (depth === 0) balanced = false
        depth = Math.max(0, depth - 1)
      }
      else words.push({ upper: m[0].toUpperCase(), token: t, start: m.index, end: m.index + m[0].length, depth })
    }
  })
  return { words, balanced: balanced && depth === 0 }
}

/** Position right after the last code character that is not blank or `;` (where a clause can be appended). */
const endOfCode = (tokens: ReadonlyArray<Token>): { token: number; offset: number } | undefined => {
  for (let t = tokens.length - 1; t >= 0; t--) {
    const token = tokens[t]!
    if (token.kind === "comment") continue
    if (token.kind !== "code") return { token: t, offset: token.text.length }
    const trimmed = token.text.replace(/[\s;]+$/, "")
    if (trimmed.length > 0) return { token: t, offset: trimmed.length }
  }
  return undefined
}

/** Whether the first code word (skipping comments and blanks) is SELECT. */
const startsWithSelect = (words: ReadonlyArray<Word>, tokens: ReadonlyArray<Token>): boolean => {
  const first = words[0]
  if (first === undefined || first.upper !== "SELECT" || first.depth !== 0) return false
  // No code other than blanks before it (e.g. not "(SELECT ...)").
  for (let t = 0; t <= first.token; t++) {
    const token = tokens[t]!
    if (token.kind === "comment") continue
    if (token.kind !== "code") return false
    const before = t === first.token ? token.text.slice(0, first.start) : token.text
    if (before.trim() !== "") return false
  }
  return true
}

/** Inserts ` FROM DUMMY` into every top-level SELECT of the statement that has no FROM. */
const addFromDummy = (tokens: Array<Token>): void => {
  const { balanced, words } = wordsOf(tokens)
  // Unbalanced parentheses: not valid SQL, and no safe place for a FROM clause.
  if (!balanced || !startsWithSelect(words, tokens)) return
  // Top-level SELECT blocks: from a SELECT to the next set operator.
  const inserts: Array<{ token: number; offset: number }> = []
  let inSelect = false
  let hasFrom = false
  let insertAt: { token: number; offset: number } | undefined
  const close = (end: { token: number; offset: number } | undefined) => {
    if (inSelect && !hasFrom) {
      const at = insertAt ?? end
      if (at !== undefined) inserts.push(at)
    }
    inSelect = false
  }
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!
    if (w.depth !== 0) continue
    if (w.upper === "SELECT") {
      inSelect = true
      hasFrom = false
      insertAt = undefined
    } else if (inSelect && w.upper === "FROM") {
      hasFrom = true
    } else if (w.upper === ";") {
      close({ token: w.token, offset: w.start })
      break
    } else if (inSelect && SET_OPERATORS.has(w.upper)) {
      close({ token: w.token, offset: w.start })
    } else if (inSelect && insertAt === undefined && SELECT_CLAUSE_END.has(w.upper)) {
      insertAt = { token: w.token, offset: w.start }
    }
  }
  if (inSelect) close(endOfCode(tokens))
  // Apply from the back so earlier positions stay valid.
  inserts.sort((a, b) => b.token - a.token || b.offset - a.offset)
  for (const at of inserts) {
    const token = tokens[at.token]!
    const text = token.text
    const before = text.slice(0, at.offset)
    const after = text.slice(at.offset)
    const needsSpaceBefore = before.length > 0 && !/\s$/.test(before) || (before.length === 0 && at.token > 0)
    const piece = (needsSpaceBefore ? " " : "") + "FROM DUMMY" + (after.length > 0 && !/^[\s;)]/.test(after) ? " " : "")
    if (token.kind === "code") {
      tokens[at.token] = { kind: "code", text: before + piece + after }
    } else {
      // After a literal or quoted identifier ending the statement: add a code token behind it.
      tokens.splice(at.token + 1, 0, { kind: "code", text: " FROM DUMMY" })
    }
  }
}

/**
 * Normalizes SQL for HANA (see the module comment). Idempotent; text inside literals and comments is unchanged.
 *
 * @category normalization
 * @since 0.1.0
 */
export const normalizeSql = (sql: string): string => {
  const tokens = stripTemporalPrecision(tokenize(sql))
  addFromDummy(tokens)
  return tokens.map((t) => t.text).join("")
}

/**
 * The literal, quoted-identifier and comment pieces of `sql`, in order (what normalization must leave untouched).
 *
 * @category normalization
 * @since 0.1.0
 */
export const protectedPieces = (sql: string): Array<string> =>
  tokenize(sql).filter((t) => t.kind !== "code").map((t) => t.text)
