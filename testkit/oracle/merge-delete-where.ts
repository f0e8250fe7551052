/**
 * MERGE's `WHEN MATCHED THEN UPDATE SET ... [WHERE c] DELETE WHERE d` (SQL Language Reference, "MERGE",
 * merge_update_clause: "The only rows affected by this clause are those rows in the destination table that are
 * updated by the merge operation. The DELETE WHERE condition evaluates the updated value, not the original value
 * that was evaluated by the UPDATE SET ... WHERE condition"). The engine's MERGE applies one action per row, so the
 * branch is written as two: `WHEN MATCHED [AND (c)] AND (d') THEN DELETE WHEN MATCHED [AND (c)] THEN UPDATE SET ...`,
 * where d' is d with each target column the SET clause assigns replaced by its new value (written as
 * `ora_merge_delete_where((d'), (d))`, which is d'). A deleted row counts once
 * in the row count, as the row the update changed before deleting it.
 */
import { isKw, isName, isOp, type Tok } from "./lexer.ts"

/** The engine macro marking a DELETE WHERE condition: `ora_merge_delete_where(substituted, as written)`. */
export const MERGE_DELETE_WHERE = "ora_merge_delete_where"

const ws = (pos: number): Tok => ({ kind: "ws", text: " ", value: " ", pos })
const word = (value: string, pos: number): Tok => ({ kind: "ident", text: value, value, pos })
const op = (value: string, pos: number): Tok => ({ kind: "op", text: value, value, pos })

/** `toks` (a statement's tokens, whitespace included) with a MERGE's `DELETE WHERE` written as its own WHEN MATCHED branch. */
export const rewriteMergeDeleteWhere = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const sig = toks.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "MERGE") || !isKw(sig[1], "INTO")) return toks
  // the top-level positions (in `sig`) of the clause keywords
  let depth = 0
  const at: Array<number> = []
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && isKw(t, "USING", "WHEN", "SET", "WHERE", "DELETE")) at.push(k)
  }
  const using = at.find((k) => isKw(sig[k], "USING"))
  const when = at.findIndex((k) => isKw(sig[k], "WHEN") && isKw(sig[k + 1], "MATCHED") && isKw(sig[k + 2], "THEN") && isKw(sig[k + 3], "UPDATE"))
  if (using === undefined || when < 0) return toks
  const whenAt = at[when]!
  const next = at.slice(when + 1)
  const setAt = next.find((k) => isKw(sig[k], "SET"))
  const branchEnd = next.find((k) => isKw(sig[k], "WHEN")) ?? sig.length
  const deleteAt = next.find((k) => k < branchEnd && isKw(sig[k], "DELETE") && isKw(sig[k + 1], "WHERE"))
  if (setAt === undefined || deleteAt === undefined) return toks
  const updateWhereAt = next.find((k) => k > setAt && k < deleteAt && isKw(sig[k], "WHERE"))
  const setEnd = updateWhereAt ?? deleteAt
  const assigned = assignments(sig.slice(setAt + 1, setEnd))
  if (assigned === undefined) return toks
  // the target's table name and alias, either of which may qualify its columns
  const qualifiers = new Set(sig.slice(2, using).filter((t) => isName(t)).map((t) => t.value))
  // ora_merge_delete_where(d', d) is d' (database-macros.ts); a volatile MERGE (volatile-updates.ts) reads d from it
  // to evaluate it over the values it wrote, as a d' recomputing a NEXTVAL or DBMS_RANDOM would not
  const written = sig.slice(deleteAt + 2, branchEnd)
  const pos0 = sig[deleteAt]!.pos
  const deleteCond = [word(MERGE_DELETE_WHERE, pos0), op("(", pos0), op("(", pos0), ...substitute(written, assigned, qualifiers), op(")", pos0), op(",", pos0), op("(", pos0), ...written, op(")", pos0), op(")", pos0)]
  const pos = sig[whenAt]!.pos
  const updateCond = updateWhereAt === undefined ? [] : [word("AND", pos), op("(", pos), ...sig.slice(updateWhereAt + 1, deleteAt), op(")", pos)]
  const matched = [word("WHEN", pos), word("MATCHED", pos), ...updateCond]
  return spaced([
    ...sig.slice(0, whenAt),
    ...matched,
    word("AND", pos),
    op("(", pos),
    ...deleteCond,
    op(")", pos),
    word("THEN", pos),
    word("DELETE", pos),
    ...matched,
    ...sig.slice(whenAt + 2, setEnd),
    ...sig.slice(branchEnd)
  ])
}

/** The assignments `col = expr, ...` of a SET list by column name, undefined for a form it does not take (`(a, b) = (...)`). */
const assignments = (list: ReadonlyArray<Tok>): Map<string, ReadonlyArray<Tok>> | undefined => {
  const out = new Map<string, ReadonlyArray<Tok>>()
  let depth = 0
  let start = 0
  for (let k = 0; k <= list.length; k++) {
    const t = list[k]
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (k < list.length && !(depth === 0 && isOp(t, ","))) continue
    const item = list.slice(start, k)
    start = k + 1
    const eq = item.findIndex((x) => isOp(x, "="))
    const column = item[eq - 1]
    if (eq < 1 || !isName(column) || (eq > 1 && !(eq === 3 && isOp(item[1], ".")))) return undefined
    out.set(column.value, item.slice(eq + 1))
  }
  return out
}

/** `cond` with each reference to an assigned target column (bare, or qualified by the table or its alias) replaced by its new value. */
const substitute = (cond: ReadonlyArray<Tok>, assigned: ReadonlyMap<string, ReadonlyArray<Tok>>, qualifiers: ReadonlySet<string>): Array<Tok> => {
  const out: Array<Tok> = []
  for (let k = 0; k < cond.length; k++) {
    const t = cond[k]!
    const qualified = isName(t) && qualifiers.has(t.value) && isOp(cond[k + 1], ".") && isName(cond[k + 2]) ? cond[k + 2]! : undefined
    const bare = qualified === undefined && isName(t) && !isOp(cond[k - 1], ".") && !isOp(cond[k + 1], ".") && !isOp(cond[k + 1], "(") ? t : undefined
    const value = assigned.get((qualified ?? bare)?.value ?? "")
    if (value === undefined) {
      out.push(t)
      continue
    }
    out.push(op("(", t.pos), ...value, op(")", t.pos))
    if (qualified !== undefined) k += 2
  }
  return out
}

/** Tokens with one space between each two (the translator reads tokens, not the text between them). */
const spaced = (toks: ReadonlyArray<Tok>): Array<Tok> => toks.flatMap((t, i) => (i === 0 ? [t] : [ws(t.pos), t]))
