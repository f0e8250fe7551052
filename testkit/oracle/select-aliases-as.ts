/**
 * Bare select-list aliases written with AS: Oracle takes `SELECT expr alias` for any name it does not reserve
 * (`'x' name`, `TRUNC(d) day`, `sal value`), DuckDB only for names that are no keyword of its own, so every select
 * list, at every depth (subqueries, MERGE's USING, INSERT ... SELECT, PL/SQL's SELECT ... INTO), gets `expr AS alias`
 * before translation. A datetime unit ending an interval (`INTERVAL '1' DAY`, `DAY TO SECOND`) is no alias.
 */
import { isKw, isOp, tokenize, type Tok } from "./lexer.ts"
import { NOT_ALIAS } from "./translate-literals.ts"

const UNITS = new Set(["DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR"])

/** Whether item tokens `part` (no blanks) end with a bare alias. */
const endsWithBareAlias = (part: ReadonlyArray<Tok>): boolean => {
  const last = part[part.length - 1]
  const prev = part[part.length - 2]
  if (part.length < 2 || prev === undefined || (last?.kind !== "ident" && last?.kind !== "qident")) return false
  if (isKw(prev, "AS", "TO") || isOp(prev, ".") || (prev.kind === "op" && !isOp(prev, ")"))) return false
  // `datetime AT LOCAL` (SQL Language Reference, "Datetime Expressions")
  if (isKw(prev, "AT") && isKw(last, "LOCAL")) return false
  if (last.kind === "ident" && NOT_ALIAS.has(last.value)) {
    if (!UNITS.has(last.value)) return false
    // the unit of `INTERVAL 'n' DAY`
    if (prev.kind === "str" && isKw(part[part.length - 3], "INTERVAL")) return false
  }
  // keywords that end an expression of their own
  return !(prev.kind === "ident" && isKw(prev, "DISTINCT", "ALL", "UNIQUE", "SELECT", "PRIOR", "NOT", "NEW", "CURSOR"))
}

const AS: Tok = { kind: "ident", text: "AS", value: "AS", pos: 0 }
const SPACE: Tok = { kind: "ws", text: " ", value: " ", pos: 0 }

/** `toks` with `AS` before every bare select-list alias. */
export const withAliasAs = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "SELECT"))) return toks
  // GRANT SELECT ON ..., REVOKE SELECT ..., AUDIT SELECT ...: a privilege, no query
  if (isKw(toks.find((t) => t.kind !== "ws"), "GRANT", "REVOKE", "AUDIT", "NOAUDIT")) return toks
  const out: Array<Tok> = []
  // per open SELECT list: the depth its items are at, and the significant tokens of the current item
  const lists: Array<{ depth: number; item: Array<number> }> = []
  let depth = 0
  const close = () => {
    const list = lists[lists.length - 1]!
    const item = list.item.map((i) => out[i]!)
    if (endsWithBareAlias(item)) {
      const at = list.item[list.item.length - 1]!
      out.splice(at, 0, AS, { ...SPACE, pos: out[at]!.pos })
      // indices of later items shift; the list's next item starts fresh
    }
    list.item = []
  }
  for (const t of toks) {
    const list = lists[lists.length - 1]
    if (list !== undefined && depth === list.depth && (isKw(t, "FROM", "INTO", "BULK") || (isOp(t, ")") && depth === list.depth))) {
      close()
      lists.pop()
    } else if (list !== undefined && depth === list.depth && isOp(t, ",")) {
      close()
      out.push(t)
      continue
    }
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    out.push(t)
    if (isKw(t, "SELECT")) lists.push({ depth, item: [] })
    else if (t.kind !== "ws" && lists.length > 0 && depth === lists[lists.length - 1]!.depth) lists[lists.length - 1]!.item.push(out.length - 1)
  }
  while (lists.length > 0) {
    close()
    lists.pop()
  }
  return out
}

/** `sql`'s text with AS before its bare aliases (for tests and callers holding text). */
export const textWithAliasAs = (sql: string): string => withAliasAs(tokenize(sql)).map((t) => t.text).join("")
