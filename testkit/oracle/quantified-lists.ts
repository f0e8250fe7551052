/**
 * `expr op ANY | SOME | ALL (expression_list)`: the quantified comparison with a list of expressions where the engine
 * takes only a subquery (SQL Language Reference, "Comparison Conditions": ANY / SOME "Compares a value to each value
 * in a list or returned by a query ... Evaluates to FALSE if the query returns no rows"; ALL "Compares a value to
 * every value in a list or returned by a query"). Rewritten on the tokens before translation:
 *
 * - `= ANY | SOME (list)` becomes `IN (list)` and `<> | != ALL (list)` `NOT IN (list)` ("IN Condition": "= ANY. The
 *   IN operator is ... equivalent to =ANY"; NOT IN "is equivalent to !=ALL"), which the translator's IN paths take.
 * - any other operator is written out as the documented expansion, `x > ANY (a, b)` as `(x > a OR x > b)` and
 *   `x > ALL (a, b)` as `(x > a AND x > b)` ("Comparison Conditions", the examples of ANY and ALL), so each item is
 *   compared with its own type and a NULL item makes the condition unknown unless another item decides it. The left
 *   operand (a column, a bind, a CASE expression, ...) is written again per item; where it cannot be told from the
 *   tokens, or writing it again would compute it again (a volatile or user function: repeatable-expressions.ts), the
 *   quantifier stays over the list as a subquery, `op ANY (SELECT a FROM dual UNION ALL SELECT b FROM dual)`, which
 *   computes it once but whose items must then share a type.
 *
 * A list that starts with SELECT or WITH is a subquery and stays as written.
 */
import { isKw, isOp, matchParen, splitTopLevel, type Tok } from "./lexer.ts"
import { isRepeatable } from "./repeatable-expressions.ts"

const COMPARISONS = ["=", "<>", "!=", "<", ">", "<=", ">="]

const tok = (kind: "ident" | "op" | "ws", text: string, pos: number): Tok => ({ kind, text, value: kind === "ws" ? " " : text, pos })

/** The index of the next significant token after `k` (or toks.length). */
const nextSignificant = (toks: ReadonlyArray<Tok>, k: number): number => {
  let j = k + 1
  while (j < toks.length && toks[j]!.kind === "ws") j++
  return j
}

/** Words that end a comparison's left operand, read backwards. */
const OPERAND_STARTS = ["AND", "OR", "NOT", "WHERE", "WHEN", "ON", "HAVING", "SELECT", "THEN", "ELSE", "BY", "WITH", "RETURN", "SET", "IF", "ELSIF", "WHILE", "UNTIL"]

/**
 * The index of the first token of the left operand of the comparison operator at `op` (the token after the word,
 * comma or parenthesis before it), or -1 where it cannot be told (another condition's operator, a quantifier). A
 * parenthesised part and a CASE expression are taken whole.
 */
const leftOperandStart = (toks: ReadonlyArray<Tok>, op: number): number => {
  let start = op
  for (let j = op - 1; j >= 0; j--) {
    const t = toks[j]!
    if (t.kind === "ws") continue
    if (isOp(t, ")") || isKw(t, "END")) {
      const closes = (x: Tok | undefined) => (isOp(t, ")") ? isOp(x, ")") : isKw(x, "END"))
      const opens = (x: Tok | undefined) => (isOp(t, ")") ? isOp(x, "(") : isKw(x, "CASE"))
      let depth = 0
      for (; j >= 0; j--) {
        if (closes(toks[j])) depth++
        else if (opens(toks[j]) && --depth === 0) break
        else if (isOp(t, ")") && isKw(toks[j], "ANY", "SOME", "ALL")) return -1
      }
      if (j < 0) return -1
      start = j
      continue
    }
    if (isOp(t, "(") || isOp(t, ",") || isKw(t, ...OPERAND_STARTS)) break
    if (isKw(t, "CASE", "IN", "LIKE", "BETWEEN", "IS", "ANY", "SOME", "ALL", "EXISTS") || (t.kind === "op" && COMPARISONS.includes(t.value)) || isOp(t, ";")) return -1
    start = j
  }
  return start === op ? -1 : start
}

/** `toks` with every `op ANY | SOME | ALL (expression_list)` rewritten as IN, NOT IN or its expansion. */
export const rewriteQuantifiedLists = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "ANY", "SOME", "ALL"))) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const q = nextSignificant(toks, k)
    const open = nextSignificant(toks, q)
    const close = COMPARISONS.some((op) => isOp(t, op)) && isKw(toks[q], "ANY", "SOME", "ALL") && isOp(toks[open], "(") ? matchParen(toks, open) : -1
    const body = close < 0 ? [] : toks.slice(open + 1, close)
    const first = body.find((x) => x.kind !== "ws")
    if (close < 0 || first === undefined || isKw(first, "SELECT", "WITH")) {
      out.push(t)
      continue
    }
    const all = isKw(toks[q], "ALL")
    const items = splitTopLevel(body).map((item) => [...rewriteQuantifiedLists(item)])
    const space = () => tok("ws", " ", t.pos)
    const word = (w: string) => tok("ident", w, t.pos)
    if (isOp(t, "=") && !all) out.push(word("IN"), space())
    else if ((isOp(t, "<>") || isOp(t, "!=")) && all) out.push(word("NOT"), space(), word("IN"), space())
    else {
      const start = leftOperandStart(toks, k)
      if (start >= 0 && isRepeatable(toks.slice(start, k))) {
        // the left operand, already written as it is (it holds no quantified list), written again once per item: the
        // same tokens, so that a bind there stays one bind (session-translate.ts numbers binds by token)
        const left = out.splice(out.length - (k - start), k - start)
        out.push(tok("op", "(", t.pos))
        items.forEach((item, n) => {
          if (n > 0) out.push(space(), word(all ? "AND" : "OR"), space())
          // the item as it is: a list item is an expression, whose operators all bind tighter than the comparison
          out.push(...left, space(), t, space(), ...item)
        })
        out.push(tok("op", ")", t.pos))
      } else {
        out.push(t, space(), toks[q]!, space(), toks[open]!)
        items.forEach((item, n) => {
          if (n > 0) out.push(space(), word("UNION"), space(), word("ALL"), space())
          out.push(word("SELECT"), space(), ...item, space(), word("FROM"), space(), word("DUAL"))
        })
        out.push(toks[close]!)
      }
      k = close
      continue
    }
    k = q
  }
  return out
}
