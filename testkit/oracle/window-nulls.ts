/**
 * The null treatment of Oracle's window functions (SQL Language Reference 23ai, "FIRST_VALUE", "LAST_VALUE",
 * "NTH_VALUE", "LAG", "LEAD"): `{RESPECT | IGNORE} NULLS` after the call or inside it after the first argument, and
 * NTH_VALUE's `FROM FIRST` (the default). DuckDB takes IGNORE NULLS only at the end of the arguments
 * (`lag(v, 1 IGNORE NULLS)`), so the clause moves there; RESPECT NULLS and FROM FIRST, the defaults, go; `FROM LAST`
 * is ORA-03001.
 */
import { ora } from "./errors.ts"
import { isKw, isOp, matchParen, tokenize, type Tok } from "./lexer.ts"

const FUNCTIONS = new Set(["FIRST_VALUE", "LAST_VALUE", "NTH_VALUE", "LAG", "LEAD"])

const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))

/** The index of the next non-blank token at or after `k`. */
const nextAt = (toks: ReadonlyArray<Tok>, k: number): number => {
  let j = k
  while (toks[j]?.kind === "ws") j++
  return j
}

/** `toks` with the window functions' null treatment where DuckDB reads it. */
export const rewriteNullTreatment = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && FUNCTIONS.has(t.value)) || !toks.some((t) => isKw(t, "NULLS", "FIRST", "LAST"))) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const open = nextAt(toks, k + 1)
    if (t.kind !== "ident" || !FUNCTIONS.has(t.value) || !isOp(toks[open], "(") || isOp(out.filter((x) => x.kind !== "ws").at(-1), ".")) {
      out.push(t)
      continue
    }
    const close = matchParen(toks, open)
    if (close < 0) {
      out.push(t)
      continue
    }
    let ignore = false
    // inside: `v IGNORE NULLS, 1`
    const inner: Array<Tok> = []
    for (let j = open + 1; j < close; j++) {
      const n = nextAt(toks, j + 1)
      if (isKw(toks[j], "IGNORE", "RESPECT") && isKw(toks[n], "NULLS")) {
        ignore = isKw(toks[j], "IGNORE")
        j = n
        continue
      }
      inner.push(toks[j]!)
    }
    // after: `[FROM FIRST | LAST] [IGNORE | RESPECT NULLS]`
    // `resume`: the first token the rewrite keeps after the call
    let resume = close + 1
    let at = nextAt(toks, resume)
    if (isKw(toks[at], "FROM") && isKw(toks[nextAt(toks, at + 1)], "FIRST", "LAST")) {
      if (isKw(toks[nextAt(toks, at + 1)], "LAST")) throw ora.unimplemented("NTH_VALUE ... FROM LAST")
      resume = nextAt(toks, at + 1) + 1
      at = nextAt(toks, resume)
    }
    if (isKw(toks[at], "IGNORE", "RESPECT") && isKw(toks[nextAt(toks, at + 1)], "NULLS")) {
      ignore = isKw(toks[at], "IGNORE")
      resume = nextAt(toks, at + 1) + 1
    }
    out.push(t, ...toks.slice(k + 1, open + 1), ...inner, ...(ignore ? generated(" IGNORE NULLS", t.pos) : []), toks[close]!, ...generated(" ", t.pos))
    k = resume - 1
  }
  return out
}
