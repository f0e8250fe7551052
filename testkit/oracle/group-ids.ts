/**
 * GROUP_ID() of a query block whose GROUP BY names one grouping set more than once. Oracle numbers the repeats: "If n
 * duplicates exist for a particular grouping, then GROUP_ID returns numbers in the range 0 to n-1" (SQL Language
 * Reference, "GROUP_ID"). The engine repeats a duplicate set's rows too but cannot tell them apart, so the block's
 * GROUP BY is written as the GROUPING SETS it expands to (ROLLUP, CUBE and concatenated groupings included) with the
 * k-th repeat of a set grouped by k more constants, which leave its groups alone; GROUP_ID() then counts the
 * constants a row is grouped by, `N - (GROUPING(c1) + ... + GROUPING(cN))`. Without a repeated set GROUP_ID() stays
 * 0 (newer-functions.ts).
 */
import { blockSelectBefore, isKw, isOp, matchParen, significant, splitTopLevel, tokenize, type Tok } from "./lexer.ts"

/** A grouping set: its expressions, each as its tokens (whitespace included). */
type GroupingSet = ReadonlyArray<ReadonlyArray<Tok>>

/** The constant the k-th (from 1) repeat of a grouping set is grouped by. */
const dummy = (k: number): string => `'ORA$GROUP_ID_${k}'`

/** Leading and trailing whitespace dropped. */
const trimmed = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  let a = 0
  let b = toks.length
  while (a < b && toks[a]!.kind === "ws") a++
  while (b > a && toks[b - 1]!.kind === "ws") b--
  return toks.slice(a, b)
}

/** `( ... )` spanning all of `toks` (whitespace around ignored): its inside, else undefined. */
const parenthesized = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> | undefined => {
  const t = trimmed(toks)
  const s = significant(t)
  if (!isOp(s[0], "(") || matchParen(s, 0) !== s.length - 1) return undefined
  return t.slice(1, -1)
}

/** A grouping element's expressions: a parenthesized list's items (none for `()`), else the expression itself. */
const expressionsOf = (toks: ReadonlyArray<Tok>): GroupingSet => {
  const inner = parenthesized(toks)
  if (inner === undefined) return [trimmed(toks)]
  return significant(inner).length === 0 ? [] : splitTopLevel(inner).map(trimmed)
}

/** The grouping sets one GROUP BY element (or GROUPING SETS item) stands for, in Oracle's order. */
const setsOf = (element: ReadonlyArray<Tok>): Array<GroupingSet> => {
  const t = trimmed(element)
  const s = significant(t)
  const call = (name: string, skip: number) => isKw(s[0], name) && isOp(s[skip], "(") && matchParen(s, skip) === s.length - 1
  const inside = (skip: number) => {
    const open = t.findIndex((x, i) => isOp(x, "(") && significant(t.slice(0, i)).length === skip)
    return t.slice(open + 1, t.length - 1)
  }
  if (call("ROLLUP", 1)) {
    const items = splitTopLevel(inside(1)).map(expressionsOf)
    return items.map((_, n) => items.slice(0, items.length - n).flat()).concat([[]])
  }
  if (call("CUBE", 1)) {
    const items = splitTopLevel(inside(1)).map(expressionsOf)
    const out: Array<GroupingSet> = []
    for (let mask = (1 << items.length) - 1; mask >= 0; mask--) out.push(items.filter((_, n) => (mask & (1 << (items.length - 1 - n))) !== 0).flat())
    return out
  }
  if (isKw(s[0], "GROUPING") && isKw(s[1], "SETS") && call("GROUPING", 2)) return splitTopLevel(inside(2)).flatMap((item) => concatenated(splitTopLevel(item)))
  return [expressionsOf(t)]
}

/** The grouping sets of concatenated elements: each combination of one set of each, joined. */
const concatenated = (elements: ReadonlyArray<ReadonlyArray<Tok>>): Array<GroupingSet> =>
  elements.reduce<Array<GroupingSet>>((acc, e) => acc.flatMap((a) => setsOf(e).map((b) => [...a, ...b])), [[]])

/** The text a grouping set is compared by: its distinct expressions, in any order. */
const setKey = (set: GroupingSet): string => [...new Set(set.map((e) => significant(e).map((t) => t.value).join(" ")))].sort().join("\u0000")

const CLAUSE_ENDS = ["HAVING", "ORDER", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR", "WINDOW", "MODEL"]

/**
 * `toks` with every GROUP_ID() of a block whose GROUP BY repeats a grouping set numbered as Oracle numbers it (see the
 * module comment); the same tokens otherwise.
 */
export const rewriteGroupIds = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && t.value === "GROUP_ID")) return toks
  // the significant tokens' indexes in `toks`
  const at = toks.flatMap((t, i) => (t.kind === "ws" ? [] : [i]))
  const s = at.map((i) => toks[i]!)
  const edits: Array<{ from: number; to: number; toks: ReadonlyArray<Tok> }> = []
  const blocks = new Map<number, { readonly count: number } | undefined>()
  for (let g = 0; g < s.length; g++) {
    if (!isKw(s[g], "GROUP_ID") || !isOp(s[g + 1], "(") || !isOp(s[g + 2], ")") || isOp(s[g - 1], ".")) continue
    const select = blockSelectBefore(s, g)
    if (select < 0) continue
    if (!blocks.has(select)) blocks.set(select, groupBySets(toks, at, s, select, edits))
    const block = blocks.get(select)
    if (block === undefined) continue
    const gen = tokenize(`(${block.count} - (${Array.from({ length: block.count }, (_, k) => `GROUPING(${dummy(k + 1)})`).join(" + ")}))`)
    edits.push({ from: at[g]!, to: at[g + 2]!, toks: gen.map((x, n) => ({ ...x, pos: s[g]!.pos, heading: n === 0 ? "GROUP_ID()" : "" })) })
  }
  if (edits.length === 0) return toks
  const out = [...toks]
  let limit = Infinity
  for (const e of edits.sort((x, y) => y.from - x.from)) {
    if (e.to >= limit) continue
    out.splice(e.from, e.to - e.from + 1, ...e.toks)
    limit = e.from
  }
  // tokens without whitespace (a PL/SQL block's statement) stay so
  return toks.some((t) => t.kind === "ws") ? out : out.filter((t) => t.kind !== "ws")
}

/**
 * Of the block opened at significant index `select`: when its GROUP BY repeats a grouping set, records the edit that
 * writes it as GROUPING SETS with the repeats' constants and returns how many constants there are; else undefined.
 */
function groupBySets(toks: ReadonlyArray<Tok>, at: ReadonlyArray<number>, s: ReadonlyArray<Tok>, select: number, edits: Array<{ from: number; to: number; toks: ReadonlyArray<Tok> }>): { count: number } | undefined {
  let group = -1
  let end = s.length
  for (let k = select + 1, depth = 0; k < s.length; k++) {
    if (isOp(s[k], "(")) depth++
    else if (isOp(s[k], ")")) depth--
    if (depth < 0) {
      end = k
      break
    }
    if (depth !== 0) continue
    if (group < 0 && isKw(s[k], "GROUP") && isKw(s[k + 1], "BY")) group = k
    else if (isKw(s[k], ...CLAUSE_ENDS)) {
      end = k
      break
    }
  }
  if (group < 0 || group + 2 >= end) return undefined
  const from = at[group + 2]!
  const to = at[end - 1]!
  const sets = concatenated(splitTopLevel(toks.slice(from, to + 1)))
  const seen = new Map<string, number>()
  const repeats = sets.map((set) => {
    const key = setKey(set)
    const n = seen.get(key) ?? 0
    seen.set(key, n + 1)
    return n
  })
  const count = Math.max(0, ...repeats)
  if (count === 0) return undefined
  const pos = s[group]!.pos
  const space: Tok = { kind: "ws", text: " ", value: " ", pos }
  const gen = (text: string): Array<Tok> => tokenize(text).map((x) => ({ ...x, pos }))
  const written: Array<Tok> = [...gen("GROUPING SETS ("), space]
  sets.forEach((set, n) => {
    if (n > 0) written.push(...gen(","), space)
    const items = [...set, ...Array.from({ length: repeats[n]! }, (_, k) => gen(dummy(k + 1)))]
    written.push(...gen("("))
    items.forEach((item, i) => written.push(...(i > 0 ? [...gen(","), space] : []), space, ...item, space))
    written.push(...gen(")"))
  })
  written.push(space, ...gen(")"))
  edits.push({ from, to, toks: written })
  return { count }
}
