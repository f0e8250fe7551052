/**
 * Set operations (UNION [ALL], INTERSECT, MINUS) whose branches put a number literal and a character literal at the
 * same select-list position: Oracle does not convert between them there and raises ORA-01790 ("expression must have
 * same datatype as corresponding expression", Oracle Database Error Messages,
 * https://docs.oracle.com/error-help/db/ora-01790), where DuckDB would cast one to the other's type.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"

type LiteralKind = "number" | "text" | undefined

const SET_OPERATORS = ["UNION", "INTERSECT", "MINUS", "EXCEPT"] as const

/** The kind of literal each select-list item of the SELECT at `select` is (undefined for anything else). */
const itemKinds = (toks: ReadonlyArray<Tok>, select: number): Array<LiteralKind> => {
  const kinds: Array<LiteralKind> = []
  let item: Array<Tok> = []
  const push = () => {
    const [a, b] = item.length === 2 && (isOp(item[0], "-") || isOp(item[0], "+")) ? [item[1], undefined] : [item[0], item[1]]
    kinds.push(b !== undefined ? undefined : a?.kind === "num" ? "number" : a?.kind === "str" ? "text" : undefined)
    item = []
  }
  let k = select + 1
  if (isKw(toks[k], "DISTINCT", "UNIQUE", "ALL")) k++
  for (; k < toks.length && !isKw(toks[k], "FROM") && !isOp(toks[k], ")"); k++) {
    if (isOp(toks[k], ",")) push()
    else if (isOp(toks[k], "(")) {
      const close = matchParen(toks, k)
      item.push(...toks.slice(k, close + 1))
      k = close
    } else item.push(toks[k]!)
  }
  push()
  return kinds
}

/** Throws ORA-01790 when two branches of one set operation in `toks` (significant tokens) hold a number and a text literal at one position. */
export const checkSetOperationLiterals = (toks: ReadonlyArray<Tok>): void => {
  if (!toks.some((t) => isKw(t, ...SET_OPERATORS))) return
  // chains of SELECTs joined by set operators, by parenthesis depth
  const chains = new Map<number, Array<Array<LiteralKind>>>()
  const joined = new Set<number>()
  const check = (chain: ReadonlyArray<ReadonlyArray<LiteralKind>>) => {
    const width = Math.max(0, ...chain.map((c) => c.length))
    for (let p = 0; p < width; p++) {
      const kinds = new Set(chain.map((c) => c[p]))
      if (kinds.has("number") && kinds.has("text"))
        throw new OraError(1790, "expression must have same datatype as corresponding expression")
    }
  }
  let depth = 0
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) {
      check(chains.get(depth) ?? [])
      chains.delete(depth)
      joined.delete(depth)
      depth--
    } else if (isKw(t, ...SET_OPERATORS)) joined.add(depth)
    else if (isKw(t, "SELECT")) {
      const kinds = itemKinds(toks, k)
      if (joined.has(depth)) chains.get(depth)?.push(kinds)
      else {
        check(chains.get(depth) ?? [])
        chains.set(depth, [kinds])
      }
      joined.delete(depth)
    }
  }
  for (const chain of chains.values()) check(chain)
}
