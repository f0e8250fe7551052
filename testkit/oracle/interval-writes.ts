/**
 * Interval literals in the storage of the column they meet. An INTERVAL DAY TO SECOND(0-6) or YEAR(0-8) TO MONTH
 * column is a DuckDB INTERVAL, a DAY TO SECOND(7-9) or YEAR(9) TO MONTH column exact numbers (intervals.ts), and one
 * table may have both. So the values an INSERT, UPDATE or MERGE writes into an interval column are wrapped in
 * `CAST(... AS <the column's storage kind>)`, and an interval literal compared with an interval column
 * (`col = INTERVAL '...' ...`, `INTERVAL '...' ... < col`) is cast to that column's kind; the translator renders a
 * literal cast to an interval type in that type's storage (translate.ts, CAST). Oracle converts the literal to the
 * column's type in both places ("Implicit Data Conversion", SQL Language Reference).
 */
import type { TableMeta } from "./catalog.ts"
import { castComparedColumns, intervalColumnTypesOf, withCasts } from "./interval-exprs.ts"
import { castIntervalOperands } from "./interval-operands.ts"
import { isKw, isName, isOp, type Tok } from "./lexer.ts"
import { castWrites, type TableLookup } from "./number-writes.ts"
import { oracleName } from "./translate.ts"
import type { OraType } from "./types.ts"

/** The type words of each interval storage: a DAY(9) TO SECOND(9) or YEAR(9) TO MONTH cast stores exactly. */
const STORAGE_TYPES = {
  dsExact: ["INTERVAL", "DAY", "(", "9", ")", "TO", "SECOND", "(", "9", ")"],
  dsDuck: ["INTERVAL", "DAY", "(", "9", ")", "TO", "SECOND", "(", "6", ")"],
  ymExact: ["INTERVAL", "YEAR", "(", "9", ")", "TO", "MONTH"],
  ymDuck: ["INTERVAL", "YEAR", "(", "8", ")", "TO", "MONTH"]
} as const
type Storage = keyof typeof STORAGE_TYPES

const storageOf = (type: OraType): Storage | undefined => {
  if (type.kind === "intervalds") return type.duck === "INTERVAL" ? "dsDuck" : "dsExact"
  if (type.kind === "intervalym") return type.duck === "INTERVAL" ? "ymDuck" : "ymExact"
  return undefined
}


const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="])
const isComparison = (t: Tok | undefined): boolean => t !== undefined && t.kind === "op" && COMPARISONS.has(t.value)

/** `all` with written interval values and interval literals compared with interval columns cast to the column's storage. */
export const intervalLiteralTargets = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  let out = all
  // each written interval column's value cast to its declared type: a bind is rounded to its fractional seconds
  // precision and checked against its leading field precision (interval-exprs.ts intervalBindFit)
  let written: TableMeta | undefined
  castWrites(out, lookup, (meta) => ((written = meta), new Set()), [])
  const declared = new Map<string, Set<string>>()
  for (const c of (written as TableMeta | undefined)?.columns ?? []) if (storageOf(c.type) !== undefined) declared.set(c.type.dictName, (declared.get(c.type.dictName) ?? new Set()).add(c.name))
  for (const [dictName, names] of declared) out = castWrites(out, lookup, () => names, dictName.match(/\w+|[(),]/g) ?? [])
  const types = intervalColumnTypesOf(all.map((t) => t.text).join(""), lookup)
  return castIntervalOperands(castComparedColumns(castComparedLiterals(out, lookup), types), types)
}

/** The storage of the interval columns, by name, of the tables `sig` names (a name stored two ways is left out). */
const intervalColumns = (sig: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyMap<string, Storage> => {
  const out = new Map<string, Storage | undefined>()
  for (let k = 0; k < sig.length; k++) {
    if (!isName(sig[k]) || isOp(sig[k - 1], ".")) continue
    const qualified = isOp(sig[k + 1], ".") && isName(sig[k + 2])
    const meta = (qualified ? lookup(oracleName(sig[k]!), oracleName(sig[k + 2]!)) : undefined) ?? lookup(undefined, oracleName(sig[k]!))
    for (const c of meta?.columns ?? []) {
      const storage = storageOf(c.type)
      if (storage === undefined) continue
      out.set(c.name, out.has(c.name) && out.get(c.name) !== storage ? undefined : storage)
    }
  }
  const known = new Map<string, Storage>()
  for (const [name, storage] of out) if (storage !== undefined) known.set(name, storage)
  return known
}

/** The end (exclusive) of the interval literal starting at `k` of `sig`, or -1. */
const literalEnd = (sig: ReadonlyArray<Tok>, k: number): number => {
  if (!isKw(sig[k], "INTERVAL") || sig[k + 1]?.kind !== "str") return -1
  let j = k + 2
  while (j < sig.length) {
    if (isKw(sig[j], "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO")) j++
    else if (isOp(sig[j], "(") && sig[j + 1]?.kind === "num" && isOp(sig[j + 2], ")")) j += 3
    else break
  }
  return j > k + 2 ? j : -1
}

/** The column a comparison operand [from, to) of `sig` names (`col` or `t.col`), if it is one. */
const columnOperand = (sig: ReadonlyArray<Tok>, from: number, to: number): string | undefined => {
  if (to - from === 1 && isName(sig[from])) return oracleName(sig[from]!)
  if (to - from === 3 && isName(sig[from]) && isOp(sig[from + 1], ".") && isName(sig[from + 2])) return oracleName(sig[from + 2]!)
  return undefined
}

/** Interval literals compared with an interval column of the statement's tables, cast to that column's storage. */
const castComparedLiterals = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  if (!sig.some((t) => isKw(t, "INTERVAL"))) return all
  const columns = intervalColumns(sig, lookup)
  if (columns.size === 0) return all
  const casts = new Map<Tok, { last: Tok; storage: Storage }>()
  for (let k = 0; k < sig.length; k++) {
    const end = literalEnd(sig, k)
    if (end < 0) continue
    // the column before the operator (`t.col =`, `col =`) or after it (`= col`, `= t.col`), not a call or a longer expression
    // (a column inside a longer operand, `d9 + d6 = INTERVAL ...`, does not count: interval-operands.ts casts those)
    const arithmetic = (t: Tok | undefined) => isOp(t, "+") || isOp(t, "-") || isOp(t, "*") || isOp(t, "/") || isOp(t, "||")
    const beforeAt = (n: number) => (arithmetic(sig[k - 2 - n]) ? undefined : columnOperand(sig, k - 1 - n, k - 1))
    const before = isComparison(sig[k - 1]) && !isOp(sig[k - 2], ")") ? [beforeAt(1), beforeAt(3)] : []
    const afterEnd = (n: number) => (isOp(sig[end + 1 + n], "(") || isOp(sig[end + 1 + n], ".") || arithmetic(sig[end + 1 + n]) ? undefined : columnOperand(sig, end + 1, end + 1 + n))
    const after = isComparison(sig[end]) ? [afterEnd(1), afterEnd(3)] : []
    const name = [...before, ...after].find((n) => n !== undefined && columns.has(n))
    if (name !== undefined) casts.set(sig[k]!, { last: sig[end - 1]!, storage: columns.get(name)! })
    k = end - 1
  }
  return withCasts(all, new Map([...casts].map(([first, c]) => [first, { last: c.last, type: STORAGE_TYPES[c.storage].join(" ") }])))
}
