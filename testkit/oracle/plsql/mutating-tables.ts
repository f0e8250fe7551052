/**
 * The mutating-table restriction (PL/SQL Language Reference 23ai, "Mutating-Table Restriction"): while a statement
 * writes a table, the row triggers it fires may neither read nor write that table: ORA-04091 "table OWNER.NAME is
 * mutating, trigger/function may not see it". A single-row INSERT ... VALUES does not make its table mutating.
 * Statement triggers are not restricted. The same holds for the stored functions a DML statement calls per row
 * (Database Error Messages, ORA-04091: "A trigger (or a user defined PL/SQL function that is referenced in this
 * statement) attempted to look at (or modify) a table that was in the middle of being modified by the statement").
 */
import type { TableMeta } from "../catalog.ts"
import { OraError } from "../errors.ts"
import { isKw, isOp, significant, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"

/** Keywords that end a FROM list. */
const FROM_LIST_END = ["WHERE", "GROUP", "ORDER", "HAVING", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "USING", "INTO", "RETURNING", "LOOP"]

const mutating = new WeakMap<object, Array<TableMeta>>()

/** Runs `body` (a row trigger of a statement writing `meta`, in `session`) with `meta` mutating. */
export const whileMutating = async <T>(session: object, meta: TableMeta, body: () => Promise<T>): Promise<T> => {
  let list = mutating.get(session)
  if (list === undefined) mutating.set(session, (list = []))
  list.push(meta)
  try {
    return await body()
  } finally {
    list.splice(list.lastIndexOf(meta), 1)
  }
}

/** Runs `body` with no table mutating (a statement trigger's body: the restriction is for row triggers). */
export const outsideRowTriggers = async <T>(session: object, body: () => Promise<T>): Promise<T> => {
  const saved = mutating.get(session)
  if (saved === undefined || saved.length === 0) return body()
  mutating.set(session, [])
  try {
    return await body()
  } finally {
    mutating.set(session, saved)
  }
}

/**
 * The tables a statement's tokens name after FROM, JOIN, INTO, UPDATE (and the comma-separated FROM list), as
 * `lookup` resolves them.
 */
const namedTables = (toks: ReadonlyArray<Tok>, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): Array<TableMeta> => {
  const out: Array<TableMeta> = []
  const at = (k: number) => {
    const a = toks[k]
    if (a === undefined || (a.kind !== "ident" && a.kind !== "qident")) return k
    const qualified = isOp(toks[k + 1], ".") && toks[k + 2] !== undefined
    const meta = qualified ? lookup(oracleName(a), oracleName(toks[k + 2]!)) : lookup(undefined, oracleName(a))
    if (meta !== undefined) out.push(meta)
    return qualified ? k + 3 : k + 1
  }
  for (let k = 0; k < toks.length; k++) {
    if (!isKw(toks[k], "FROM", "JOIN", "INTO", "UPDATE")) continue
    if (isKw(toks[k], "FROM")) {
      // FROM a x, b y, ...: each item up to its comma
      let j = at(k + 1)
      let depth = 0
      for (; j < toks.length; j++) {
        if (isOp(toks[j], "(")) depth++
        else if (isOp(toks[j], ")")) {
          if (depth-- === 0) break
        } else if (depth === 0 && isOp(toks[j], ",")) j = at(j + 1) - 1
        else if (depth === 0 && isKw(toks[j], ...FROM_LIST_END)) break
      }
    } else at(k + 1)
  }
  return out
}

/** ORA-04091 when a statement (`toks`) run by a row trigger of `session` names a table that is mutating. */
export const checkMutating = (session: object, toks: ReadonlyArray<Tok>, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): void => {
  const list = mutating.get(session)
  if (list === undefined || list.length === 0) return
  const hit = namedTables(toks, lookup).find((m) => list.includes(m))
  if (hit !== undefined) throw new OraError(4091, `table ${hit.owner}.${hit.name} is mutating, trigger/function may not see it`)
}

/** The table an INSERT / UPDATE / DELETE / MERGE (`toks`, without whitespace) writes, as `lookup` resolves it. */
export const writtenTable = (toks: ReadonlyArray<Tok>, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): TableMeta | undefined => {
  const at = isKw(toks[1], "INTO", "FROM") ? 2 : 1
  const a = toks[at]
  if (a === undefined || (a.kind !== "ident" && a.kind !== "qident")) return undefined
  return isOp(toks[at + 1], ".") && toks[at + 2] !== undefined ? lookup(oracleName(a), oracleName(toks[at + 2]!)) : lookup(undefined, oracleName(a))
}

/**
 * `call` (a caller of the stored functions DML statement `toks` calls per row) running them with the table the
 * statement writes mutating; a single-row INSERT ... VALUES leaves it as it is.
 */
export const callingWhileWriting = <A extends ReadonlyArray<unknown>, T>(
  session: object,
  toks: ReadonlyArray<Tok>,
  lookup: (schema: string | undefined, name: string) => TableMeta | undefined,
  call: (...args: A) => Promise<T>
): ((...args: A) => Promise<T>) => {
  const sig = significant(toks)
  const target = writtenTable(sig, lookup)
  const singleRow = isKw(sig[0], "INSERT") && isKw(sig.find((t) => isKw(t, "VALUES", "SELECT", "WITH")), "VALUES")
  return target === undefined || singleRow ? call : (...args) => whileMutating(session, target, () => call(...args))
}
