/**
 * Oracle's regular expression functions (SQL Language Reference 23ai, "REGEXP_LIKE Condition", "REGEXP_SUBSTR",
 * "REGEXP_INSTR", "REGEXP_COUNT", "REGEXP_REPLACE"; Appendix D, "Oracle Regular Expression Support") computed with
 * JavaScript regular expressions: POSIX bracket classes (`[[:alpha:]]`, `[[:digit:]]`, ...) are rewritten into their
 * ranges, Perl-influenced extensions (`\d`, `\w`, `\s`, non-greedy quantifiers) are JavaScript's own. Positions and
 * occurrences count from 1; `match_param` takes `i` (case-insensitive), `c` (case-sensitive, the default), `n` (`.`
 * matches a newline), `m` (`^` / `$` at each line) and `x` (whitespace in the pattern ignored), the last of `i` / `c`
 * winning. REGEXP_REPLACE replaces every occurrence unless one is named, `\1`..`\9` in the replacement naming groups.
 * A NULL source or pattern gives NULL (REGEXP_LIKE: no match), a NULL replacement removes the matches.
 */
import { BIGINT, BOOLEAN, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: "A-Za-z",
  digit: "0-9",
  alnum: "A-Za-z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  cntrl: "\\x00-\\x1f\\x7f",
  print: "\\x20-\\x7e",
  graph: "\\x21-\\x7e"
}

const cache = new Map<string, RegExp>()

/** Oracle's error for a pattern JavaScript refuses (Database Error Messages ORA-12722 .. ORA-12733). */
const patternError = (reason: string): OraError => {
  if (/Unterminated group|Unmatched '\)'/.test(reason)) return new OraError(12725, "unmatched parentheses in regular expression")
  if (/Unterminated character class|Lone quantifier brackets/.test(reason)) return new OraError(12726, "unmatched bracket in regular expression")
  if (/escape|reference/i.test(reason)) return new OraError(12727, "invalid back reference in regular expression")
  if (/Range out of order/.test(reason)) return new OraError(12728, "invalid range in regular expression")
  if (/quantifier/i.test(reason)) return new OraError(12732, "invalid interval value in regular expression")
  return new OraError(12722, "regular expression internal error")
}

/** The JavaScript expression of an Oracle pattern and match parameter (global: every match can be walked). */
const compile = (pattern: string, matchParam: string): RegExp => {
  const key = `${matchParam}\u0000${pattern}`
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  let caseless = false
  let flags = "gu"
  for (const p of matchParam) {
    if (p === "i") caseless = true
    else if (p === "c") caseless = false
    else if (p === "n") flags += flags.includes("s") ? "" : "s"
    else if (p === "m") flags += flags.includes("m") ? "" : "m"
    else if (p !== "x") throw new OraError(1760, "illegal argument for function")
  }
  let source = pattern.replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX_CLASSES[name] ?? whole)
  if (matchParam.includes("x")) source = source.replace(/\s+/g, "")
  let re: RegExp
  try {
    re = new RegExp(source, flags + (caseless ? "i" : ""))
  } catch (e) {
    throw patternError(e instanceof Error ? e.message : String(e))
  }
  cache.set(key, re)
  return re
}

/** The matches of `pattern` in `source` from character `position` (1-based), in order. */
const matches = (source: string, pattern: string, position: number, matchParam: string): Array<RegExpExecArray> => {
  if (position < 1) throw new OraError(1428, `argument '${position}' is out of range`)
  const re = compile(pattern, matchParam)
  re.lastIndex = Math.min(source.length, Math.floor(position) - 1)
  const out: Array<RegExpExecArray> = []
  for (let m = re.exec(source); m !== null; m = re.exec(source)) {
    out.push(m)
    if (m[0].length === 0) re.lastIndex++
  }
  return out
}

/** REGEXP_SUBSTR: the `occurrence`th match (or its group `subexpr`), NULL when there is none. */
export const regexpSubstr = (source: string, pattern: string, position: number, occurrence: number, matchParam: string, subexpr: number): string | null => {
  if (occurrence < 1) throw new OraError(1428, `argument '${occurrence}' is out of range`)
  const m = matches(source, pattern, position, matchParam)[Math.floor(occurrence) - 1]
  const text = m?.[Math.floor(subexpr)]
  return text === undefined || text === "" ? null : text
}

/** REGEXP_INSTR: where the `occurrence`th match starts (or, `returnOption` 1, the character after it), 0 when none. */
export const regexpInstr = (source: string, pattern: string, position: number, occurrence: number, returnOption: number, matchParam: string, subexpr: number): number => {
  if (occurrence < 1) throw new OraError(1428, `argument '${occurrence}' is out of range`)
  const m = matches(source, pattern, position, matchParam)[Math.floor(occurrence) - 1]
  if (m === undefined) return 0
  if (subexpr === 0) return m.index + 1 + (returnOption === 0 ? 0 : m[0].length)
  const group = m[Math.floor(subexpr)]
  if (group === undefined) return 0
  // the group's own offset within the match
  const at = m.index + m[0].indexOf(group)
  return at + 1 + (returnOption === 0 ? 0 : group.length)
}

/** REGEXP_COUNT: how many times the pattern matches from `position`. */
export const regexpCount = (source: string, pattern: string, position: number, matchParam: string): number => matches(source, pattern, position, matchParam).length

/** REGEXP_REPLACE: every match from `position` (or only the `occurrence`th, when not 0) replaced by `replacement`. */
export const regexpReplace = (source: string, pattern: string, replacement: string, position: number, occurrence: number, matchParam: string): string | null => {
  if (occurrence < 0) throw new OraError(1428, `argument '${occurrence}' is out of range`)
  const found = matches(source, pattern, position, matchParam)
  let out = ""
  let last = 0
  found.forEach((m, i) => {
    if (occurrence !== 0 && i !== Math.floor(occurrence) - 1) return
    out += source.slice(last, m.index) + replacement.replace(/\\(\d)/g, (_, n: string) => m[Number(n)] ?? "")
    last = m.index + m[0].length
  })
  const result = out + source.slice(last)
  return result === "" ? null : result
}

/** REGEXP_LIKE: whether the pattern matches anywhere in `source`. */
export const regexpLike = (source: string, pattern: string, matchParam: string): boolean => matches(source, pattern, 1, matchParam).length > 0

const str = (v: unknown): string => String(v)
const num = (v: unknown): number => Number(v)

/** Registers `ora_regexp_substr`, `ora_regexp_instr`, `ora_regexp_count`, `ora_regexp_replace` and `ora_regexp_like` (every argument given). */
export const registerRegexpFunctions = (connection: DuckDBConnection): void => {
  for (const f of [
    fn("ora_regexp_substr", [VARCHAR, VARCHAR, BIGINT, BIGINT, VARCHAR, BIGINT], VARCHAR, ([s, p, pos, occ, m, sub]) => regexpSubstr(str(s), str(p), num(pos), num(occ), str(m), num(sub))),
    fn("ora_regexp_instr", [VARCHAR, VARCHAR, BIGINT, BIGINT, BIGINT, VARCHAR, BIGINT], BIGINT, ([s, p, pos, occ, ret, m, sub]) => BigInt(regexpInstr(str(s), str(p), num(pos), num(occ), num(ret), str(m), num(sub)))),
    fn("ora_regexp_count", [VARCHAR, VARCHAR, BIGINT, VARCHAR], BIGINT, ([s, p, pos, m]) => BigInt(regexpCount(str(s), str(p), num(pos), str(m)))),
    fn("ora_regexp_replace", [VARCHAR, VARCHAR, VARCHAR, BIGINT, BIGINT, VARCHAR], VARCHAR, ([s, p, r, pos, occ, m]) => regexpReplace(str(s), str(p), str(r), num(pos), num(occ), str(m))),
    fn("ora_regexp_like", [VARCHAR, VARCHAR, VARCHAR], BOOLEAN, ([s, p, m]) => regexpLike(str(s), str(p), str(m)))
  ])
    connection.registerScalarFunction(f)
}

/**
 * The DuckDB call of Oracle regular expression function `name` with its translated arguments `args`, the omitted
 * ones given their defaults; undefined for another name.
 */
export const regexpCall = (name: string, args: ReadonlyArray<string>): string | undefined => {
  const text = (k: number) => `CAST(${args[k]} AS VARCHAR)`
  const int = (k: number, fallback: number) => (args[k] === undefined ? String(fallback) : `CAST(${args[k]} AS BIGINT)`)
  const param = (k: number) => (args[k] === undefined ? "''" : `coalesce(CAST(${args[k]} AS VARCHAR), '')`)
  if (name.startsWith("REGEXP_") && args.length < 2) throw new OraError(938, "not enough arguments for function")
  switch (name) {
    case "REGEXP_LIKE":
      if (args.length > 3) throw new OraError(939, "too many arguments for function")
      return `ora_regexp_like(${text(0)}, ${text(1)}, ${param(2)})`
    case "REGEXP_SUBSTR":
      if (args.length > 6) throw new OraError(939, "too many arguments for function")
      return `ora_regexp_substr(${text(0)}, ${text(1)}, ${int(2, 1)}, ${int(3, 1)}, ${param(4)}, ${int(5, 0)})`
    case "REGEXP_INSTR":
      if (args.length > 7) throw new OraError(939, "too many arguments for function")
      return `ora_regexp_instr(${text(0)}, ${text(1)}, ${int(2, 1)}, ${int(3, 1)}, ${int(4, 0)}, ${param(5)}, ${int(6, 0)})`
    case "REGEXP_COUNT":
      if (args.length > 4) throw new OraError(939, "too many arguments for function")
      return `ora_regexp_count(${text(0)}, ${text(1)}, ${int(2, 1)}, ${param(3)})`
    case "REGEXP_REPLACE":
      if (args.length > 6) throw new OraError(939, "too many arguments for function")
      return `ora_regexp_replace(${text(0)}, ${text(1)}, ${args[2] === undefined ? "''" : `coalesce(CAST(${args[2]} AS VARCHAR), '')`}, ${int(3, 1)}, ${int(4, 0)}, ${param(5)})`
    default:
      return undefined
  }
}
