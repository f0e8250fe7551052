/**
 * HANA's regular-expression functions and predicate, as the SAP HANA SQL Reference describes them ("LOCATE_REGEXPR
 * Function (String)", "SUBSTRING_REGEXPR Function (String)", "REPLACE_REGEXPR Function (String)",
 * "OCCURRENCES_REGEXPR Function (String)", "LIKE_REGEXPR Predicate"; SAP-docs/sap-hana-cloud-hana-database,
 * docs/sql-ref):
 *
 * - `LOCATE_REGEXPR([START | AFTER] pattern [FLAG f] IN s [FROM p] [OCCURRENCE n] [GROUP g])` is the INTEGER position
 *   of the n-th match (or of its group g) at or after character p, or the position after its end with AFTER; 0 when
 *   nothing matches, or p or n is not positive, or g is negative.
 * - `SUBSTR[ING]_REGEXPR(pattern [FLAG f] IN s [FROM p] [OCCURRENCE n] [GROUP g])` is that match's (or group's) text,
 *   NULL when nothing matches or p or n is not positive.
 * - `REPLACE_REGEXPR(pattern [FLAG f] IN s [WITH r] [FROM p] [OCCURRENCE n | ALL])` replaces the n-th match (every
 *   match by default) at or after p with r (default ''), where `\1` … `\9` stand for the groups; a negative n leaves
 *   s unchanged, a p that is not positive gives NULL.
 * - `OCCURRENCES_REGEXPR(pattern [FLAG f] IN s [FROM p])` is the INTEGER count of matches at or after p, -1 for a
 *   p that is not positive.
 * - `s [NOT] LIKE_REGEXPR pattern [FLAG f]` is true when the pattern matches somewhere in s.
 *
 * Any NULL argument gives NULL (UNKNOWN for the predicate). Patterns are PCRE; they run here as JavaScript regular
 * expressions after the PCRE-only syntax is translated: POSIX classes (`[[:digit:]]`), `\A`, `\z`, `\Z`, `(?P<n>…)`,
 * a leading `(?imsx)`, and the flags i, m, s, x (extended: blanks and `#` comments dropped) and U (ungreedy:
 * quantifiers swap greediness). Positions count UTF-16 code units, as HANA counts the characters of its CESU-8 text.
 *
 * The calls are rewritten on the statement text (as text-search.ts does for CONTAINS) into the scalar functions
 * below, keeping the arguments in their written order so that `?` parameters bind in the order the client sends them.
 */
import { BIGINT, BOOLEAN, INTEGER, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBScalarFunction } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { HanaError, INVALID_REGEX } from "./errors.ts"
import { matching, sig, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { columnName, unaliasedItem } from "./call-rewrites.ts"
import { operandEnd } from "./operands.ts"

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: "\\s",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  word: "\\w",
  cntrl: "\\x00-\\x1f\\x7f",
  print: "\\x20-\\x7e",
  graph: "\\x21-\\x7e"
}

/** A PCRE pattern with HANA's flags as a JavaScript RegExp (global, so matches can be walked; with group offsets). */
const compile = (pattern: string, flags: string): RegExp => {
  for (const f of flags) if (!"imsxU".includes(f)) throw new Error(`${INVALID_REGEX}unknown flag ${f}`)
  let options = flags
  let source = pattern
  const inline = /^\(\?([imsxU]+)\)/.exec(source)
  if (inline !== null) {
    options += inline[1]
    source = source.slice(inline[0].length)
  }
  const extended = options.includes("x")
  const ungreedy = options.includes("U")
  let out = ""
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === "\\") {
      const next = source[i + 1] ?? ""
      i++
      if (!inClass && next === "A") out += "(?<![\\s\\S])"
      else if (!inClass && next === "z") out += "(?![\\s\\S])"
      else if (!inClass && next === "Z") out += "(?=\\n?(?![\\s\\S]))"
      else out += c + next
      continue
    }
    if (inClass) {
      const posix = c === "[" ? /^\[:(\^?)([a-z]+):\]/.exec(source.slice(i)) : null
      if (posix !== null) {
        const set = POSIX_CLASSES[posix[2]!]
        if (set === undefined || posix[1] === "^") throw new Error(`${INVALID_REGEX}unknown POSIX class ${posix[0]}`)
        out += set
        i += posix[0].length - 1
        continue
      }
      if (c === "]") inClass = false
      out += c
      continue
    }
    if (c === "[") {
      inClass = true
      out += c
      // a `]` right after `[` or `[^` is a literal member
      if (source[i + 1] === "^") out += source[++i]
      if (source[i + 1] === "]") out += "\\" + source[++i]
      continue
    }
    if (extended && /\s/.test(c)) continue
    if (extended && c === "#") {
      while (i + 1 < source.length && source[i + 1] !== "\n") i++
      continue
    }
    if (c === "(" && source.startsWith("?P<", i + 1)) {
      out += "(?<"
      i += 3
      continue
    }
    const quantifier = c === "*" || c === "+" || c === "?" ? c : c === "{" ? /^\{\d+(,\d*)?\}/.exec(source.slice(i))?.[0] : undefined
    // `?` right after `(` opens a group form, not a quantifier
    if (quantifier !== undefined && !(c === "?" && out.endsWith("(") && !out.endsWith("\\("))) {
      out += quantifier
      i += quantifier.length - 1
      const lazy = source[i + 1] === "?"
      if (lazy) i++
      if (lazy !== ungreedy) out += "?"
      continue
    }
    out += c
  }
  const js = "gd" + [..."ims"].filter((f) => options.includes(f)).join("")
  try {
    return new RegExp(out, js)
  } catch (e) {
    throw new Error(`${INVALID_REGEX}${pattern}`)
  }
}

const cache = new Map<string, RegExp>()
const regex = (pattern: string, flags: string): RegExp => {
  const key = `${flags}\u0000${pattern}`
  let r = cache.get(key)
  if (r === undefined) {
    r = compile(pattern, flags)
    if (cache.size > 500) cache.clear()
    cache.set(key, r)
  }
  r.lastIndex = 0
  return r
}

/** Every match of `r` in `s` from offset `from` (0-based), in order; an empty match advances by one. */
function* matches(r: RegExp, s: string, from: number): Generator<RegExpExecArray> {
  r.lastIndex = from
  for (;;) {
    if (r.lastIndex > s.length) return
    const m = r.exec(s)
    if (m === null) return
    yield m
    if (m[0].length === 0) r.lastIndex = m.index + 1
  }
}

/** The n-th match (1-based) of `r` in `s` from 1-based character `from`. */
const nth = (r: RegExp, s: string, from: number, n: number): RegExpExecArray | undefined => {
  let k = 0
  for (const m of matches(r, s, from - 1)) if (++k === n) return m
  return undefined
}

/** Start (0-based) and text of group `g` of match `m`, undefined when the group did not take part or does not exist. */
const group = (m: RegExpExecArray, g: number): { start: number; text: string } | undefined => {
  const span = m.indices?.[g]
  return span === undefined ? undefined : { start: span[0], text: m[g]! }
}

const int = (v: unknown): number => Number(v)

const locate = (pattern: string, flags: string, s: string, from: number, n: number, g: number, after: boolean): number => {
  if (from < 1 || n < 1 || g < 0) return 0
  const m = nth(regex(pattern, flags), s, from, n)
  const hit = m === undefined ? undefined : group(m, g)
  return hit === undefined ? 0 : hit.start + 1 + (after ? hit.text.length : 0)
}

const substr = (pattern: string, flags: string, s: string, from: number, n: number, g: number): string | null => {
  if (from < 1 || n < 1 || g < 0) return null
  const m = nth(regex(pattern, flags), s, from, n)
  return m === undefined ? null : (group(m, g)?.text ?? null)
}

/** `r` with `\0` … `\9` standing for the match and its groups, and `\\` for a backslash. */
const substitute = (replacement: string, m: RegExpExecArray): string =>
  replacement.replace(/\\(\d|\\)/g, (_, d: string) => (d === "\\" ? "\\" : (m[Number(d)] ?? "")))

const replace = (pattern: string, flags: string, s: string, r: string, from: number, n: number, all: boolean): string | null => {
  if (from < 1) return null
  if (!all && n < 1) return s
  let out = ""
  let at = 0
  let k = 0
  for (const m of matches(regex(pattern, flags), s, from - 1)) {
    k++
    if (!all && k !== n) continue
    out += s.slice(at, m.index) + substitute(r, m)
    at = m.index + m[0].length
    if (!all) break
  }
  return out + s.slice(at)
}

const occurrences = (pattern: string, flags: string, s: string, from: number): number => {
  if (from < 1) return -1
  let k = 0
  for (const _ of matches(regex(pattern, flags), s, from - 1)) k++
  return k
}

/** Registers the scalar functions the rewritten calls use. */
export const registerRegexprFunctions = (connection: DuckDBConnection): void => {
  const functions: DuckDBScalarFunction[] = [
    fn("hana_locate_regexpr", [VARCHAR, VARCHAR, VARCHAR, BIGINT, BIGINT, BIGINT, BOOLEAN], INTEGER, ([p, f, s, from, n, g, after]) =>
      locate(String(p), String(f), String(s), int(from), int(n), int(g), after === true)),
    fn("hana_substr_regexpr", [VARCHAR, VARCHAR, VARCHAR, BIGINT, BIGINT, BIGINT], VARCHAR, ([p, f, s, from, n, g]) =>
      substr(String(p), String(f), String(s), int(from), int(n), int(g))),
    fn("hana_replace_regexpr", [VARCHAR, VARCHAR, VARCHAR, VARCHAR, BIGINT, BIGINT, BOOLEAN], VARCHAR, ([p, f, s, r, from, n, all]) =>
      replace(String(p), String(f), String(s), String(r), int(from), int(n), all === true)),
    fn("hana_occurrences_regexpr", [VARCHAR, VARCHAR, VARCHAR, BIGINT], INTEGER, ([p, f, s, from]) =>
      occurrences(String(p), String(f), String(s), int(from))),
    fn("hana_like_regexpr", [VARCHAR, VARCHAR, VARCHAR], BOOLEAN, ([s, p, f]) => regex(String(p), String(f)).test(String(s)))
  ]
  for (const f of functions) connection.registerScalarFunction(f)
}

const FUNCTIONS = new Set(["LOCATE_REGEXPR", "SUBSTR_REGEXPR", "SUBSTRING_REGEXPR", "REPLACE_REGEXPR", "OCCURRENCES_REGEXPR"])
const CLAUSES = ["FLAG", "IN", "WITH", "FROM", "OCCURRENCE", "GROUP"] as const
type Clause = (typeof CLAUSES)[number]

const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v

const textOf = (sql: string, tokens: readonly Token[]): string =>
  tokens.length === 0 ? "" : rewriteRegexpr(sql.slice(tokens[0]!.pos!, tokens[tokens.length - 1]!.end!))

/** The call `name(inner)` as the scalar function's, the arguments in their written order. */
const callOf = (name: string, inner: readonly Token[], sql: string): string => {
  let after = false
  let at = 0
  if (name === "LOCATE_REGEXPR" && ["START", "AFTER"].includes(upper(inner[0])) && inner.length > 1 && upper(inner[1]) !== "IN") {
    after = upper(inner[0]) === "AFTER"
    at = 1
  }
  const parts = new Map<Clause | "PATTERN", Token[]>([["PATTERN", []]])
  let current: Clause | "PATTERN" = "PATTERN"
  let depth = 0
  for (let i = at; i < inner.length; i++) {
    const t = inner[i]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    const clause = CLAUSES.find((c) => c === upper(t))
    if (depth === 0 && clause !== undefined && !parts.has(clause) && !(clause === "IN" && current === "IN")) {
      parts.set(clause, [])
      current = clause
      continue
    }
    parts.get(current)!.push(t)
  }
  const part = (c: Clause | "PATTERN"): string | undefined => {
    const tokens = parts.get(c)
    if (tokens === undefined) return undefined
    if (tokens.length === 0) throw HanaError.syntax(`${name}: ${c === "PATTERN" ? "pattern" : c} expects a value`, inner[0]?.pos ?? 0)
    return textOf(sql, tokens)
  }
  const text = (c: Clause | "PATTERN", otherwise: string): string => {
    const v = part(c)
    return v === undefined ? otherwise : `CAST(${v} AS NVARCHAR(5000))`
  }
  const number = (c: Clause, otherwise: string): string => {
    const v = part(c)
    return v === undefined ? otherwise : `CAST(${v} AS BIGINT)`
  }
  if (!parts.has("IN")) throw HanaError.syntax(`${name}(<pattern> [FLAG <flag>] IN <string> …) expected`, inner[0]?.pos ?? 0)
  const allowed: Record<string, readonly string[]> = {
    LOCATE_REGEXPR: ["FLAG", "IN", "FROM", "OCCURRENCE", "GROUP"],
    SUBSTR_REGEXPR: ["FLAG", "IN", "FROM", "OCCURRENCE", "GROUP"],
    SUBSTRING_REGEXPR: ["FLAG", "IN", "FROM", "OCCURRENCE", "GROUP"],
    REPLACE_REGEXPR: ["FLAG", "IN", "WITH", "FROM", "OCCURRENCE"],
    OCCURRENCES_REGEXPR: ["FLAG", "IN", "FROM"]
  }
  for (const c of parts.keys()) if (c !== "PATTERN" && !allowed[name]!.includes(c)) throw HanaError.syntax(`${name} has no ${c} clause`, inner[0]?.pos ?? 0)
  const head = [text("PATTERN", ""), text("FLAG", "''"), text("IN", "")]
  switch (name) {
    case "LOCATE_REGEXPR":
      return `hana_locate_regexpr(${[...head, number("FROM", "1"), number("OCCURRENCE", "1"), number("GROUP", "0"), after ? "TRUE" : "FALSE"].join(", ")})`
    case "REPLACE_REGEXPR": {
      const occurrence = parts.get("OCCURRENCE")
      const all = occurrence === undefined || (occurrence.length === 1 && upper(occurrence[0]) === "ALL")
      return `hana_replace_regexpr(${[...head, text("WITH", "''"), number("FROM", "1"), all ? "0" : number("OCCURRENCE", "1"), all ? "TRUE" : "FALSE"].join(", ")})`
    }
    case "OCCURRENCES_REGEXPR":
      return `hana_occurrences_regexpr(${[...head, number("FROM", "1")].join(", ")})`
    default:
      return `hana_substr_regexpr(${[...head, number("FROM", "1"), number("OCCURRENCE", "1"), number("GROUP", "0")].join(", ")})`
  }
}

/** Start of the operand that ends at tokens[end]: a literal, a parameter, a dotted name, a call, or a `( … )` group. */
const operandStart = (tokens: readonly Token[], end: number): number => {
  let i = end
  if (isOp(tokens[i], ")")) {
    let depth = 0
    for (; i >= 0; i--) {
      if (isOp(tokens[i], ")")) depth++
      else if (isOp(tokens[i], "(") && --depth === 0) break
    }
    if (tokens[i - 1]?.t === "word" || tokens[i - 1]?.t === "qident") i--
    else return i
  }
  while (isOp(tokens[i - 1], ".") && (tokens[i - 2]?.t === "word" || tokens[i - 2]?.t === "qident")) i -= 2
  return i
}

/** Operators that bind tighter than a predicate: the operands they join belong to LIKE_REGEXPR's string or pattern. */
const BINARY = new Set(["||", "+", "-", "*", "/"])

/** Start of the expression ending at tokens[end]: operands joined by {@link BINARY} operators. */
const expressionStart = (tokens: readonly Token[], end: number): number => {
  let start = operandStart(tokens, end)
  while (start >= 2 && tokens[start - 1]?.t === "op" && BINARY.has(tokens[start - 1]!.v)) start = operandStart(tokens, start - 2)
  return start
}

/** End (exclusive) of the expression starting at tokens[start], as {@link expressionStart} reads one. */
const expressionEnd = (tokens: readonly Token[], start: number): number | undefined => {
  let end = operandEnd(tokens, start)
  while (end !== undefined && tokens[end]?.t === "op" && BINARY.has(tokens[end]!.v)) end = operandEnd(tokens, end + 1)
  return end
}

/**
 * Rewrites the regular-expression calls and `LIKE_REGEXPR` predicates of a statement into the scalar functions
 * above; text without them is returned as it is.
 */
export const rewriteRegexpr = (sql: string): string => {
  if (!/_REGEXPR/i.test(sql)) return sql
  const tokens = sig(tokenize(sql))
  const edits: Array<{ from: number; to: number; text: string }> = []
  for (let i = 0; i < tokens.length; i++) {
    const U = upper(tokens[i])
    if (FUNCTIONS.has(U) && isOp(tokens[i + 1], "(") && !isOp(tokens[i - 1], ".")) {
      const close = matching(tokens, i + 1)
      const text = callOf(U, tokens.slice(i + 2, close), sql)
      edits.push({ from: tokens[i]!.pos!, to: tokens[close]!.end!, text: unaliasedItem(tokens, i, close) ? `${text} AS ${columnName(sql.slice(tokens[i]!.pos!, tokens[close]!.end!))}` : text })
      i = close
    } else if (U === "LIKE_REGEXPR") {
      const negated = upper(tokens[i - 1]) === "NOT"
      const leftEnd = negated ? i - 2 : i - 1
      const leftStart = leftEnd < 0 ? -1 : expressionStart(tokens, leftEnd)
      const patternEnd = expressionEnd(tokens, i + 1)
      if (leftStart < 0 || patternEnd === undefined) throw HanaError.syntax("<string> LIKE_REGEXPR <pattern> [FLAG <flag>] expected", tokens[i]!.pos ?? 0)
      let end = patternEnd
      let flag = "''"
      if (upper(tokens[end]) === "FLAG") {
        const flagEnd = operandEnd(tokens, end + 1)
        if (flagEnd === undefined) throw HanaError.syntax("LIKE_REGEXPR … FLAG <flag> expected", tokens[end]!.pos ?? 0)
        flag = `CAST(${textOf(sql, tokens.slice(end + 1, flagEnd))} AS NVARCHAR(5000))`
        end = flagEnd
      }
      // an edit already made inside the left operand (a call in it) is replaced by this one, which rewrites it again
      const from = tokens[leftStart]!.pos!
      while (edits.length > 0 && edits[edits.length - 1]!.from >= from) edits.pop()
      const left = `CAST(${textOf(sql, tokens.slice(leftStart, leftEnd + 1))} AS NVARCHAR(5000))`
      const pattern = `CAST(${textOf(sql, tokens.slice(i + 1, patternEnd))} AS NVARCHAR(5000))`
      edits.push({ from, to: tokens[end - 1]!.end!, text: `${negated ? "NOT " : ""}hana_like_regexpr(${left}, ${pattern}, ${flag})` })
      i = end - 1
    }
  }
  let out = ""
  let at = 0
  for (const e of edits) {
    out += sql.slice(at, e.from) + e.text
    at = e.to
  }
  return out + sql.slice(at)
}
