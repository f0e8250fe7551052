/**
 * Set operations (UNION [ALL], INTERSECT, MINUS, EXCEPT) whose branches put expressions of different data type groups
 * at one select-list position: "The corresponding expressions in the select lists of the component queries of a
 * compound query must match in number and must be in the same data type group (such as numeric or character)" and
 * Oracle "does not perform implicit conversion across data type groups" there (SQL Language Reference, "The Set
 * Operators"; NUMBER with BINARY_FLOAT / BINARY_DOUBLE is numeric, CHAR with VARCHAR2 character, DATE with the
 * TIMESTAMPs datetime). It raises ORA-01790 "expression must have same datatype as corresponding expression"
 * (Database Error Messages, https://docs.oracle.com/error-help/db/ora-01790), where DuckDB would cast one to the
 * other's type. Judged are the expressions expression-types.ts types, with the columns of each branch's own FROM
 * tables; NULL fits any group, and what cannot be typed is left to the engine. Chains are checked at every level:
 * parenthesized branches, subqueries, WITH blocks.
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { columnExprType, expressionType, type ColumnTypeOf, type ExprType } from "./expression-types.ts"
import { isKw, isName, isOp, matchParen, significantTokensOf, type Tok } from "./lexer.ts"
import { oracleName } from "./expression-names.ts"
import { fromRefs, withBlockShapes, type SubqueryShape } from "./subquery-shapes.ts"
import { NOT_ALIAS } from "./translate-literals.ts"
import type { FromRef } from "./translate-types.ts"

/** Resolves a table name as the session sees it. */
type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

type Group = "numeric" | "character" | "datetime"

/** The types of a query's select-list items by position; undefined when its width is unknown (an unexpanded `*`). */
type Slots = ReadonlyArray<ExprType | undefined> | undefined

const SET_OPERATORS = ["UNION", "INTERSECT", "MINUS", "EXCEPT"] as const

/** Where a SELECT's FROM clause ends (its first top-level clause keyword). */
const FROM_ENDS = ["WHERE", "GROUP", "HAVING", "CONNECT", "START", "ORDER", "FETCH", "OFFSET", "MODEL", "WINDOW", "FOR"]

/** FROM clauses whose columns are not all their listed tables' (reshaped, or joined with an inline view fromRefs does not list). */
const RESHAPING = ["PIVOT", "UNPIVOT", "MATCH_RECOGNIZE", "APPLY", "LATERAL"]

const groupOf = (t: ExprType | undefined): Group | undefined =>
  t === "NUMBER" || t === "BINARY" ? "numeric" : t === "CHAR" ? "character" : t === "DATE" || t === "TIMESTAMP" ? "datetime" : undefined

const sameDatatype = () => new OraError(1790, "expression must have same datatype as corresponding expression")

/** True when the token at `k` is a set operator (not MULTISET UNION / EXCEPT / INTERSECT of nested tables). */
const isSetOperator = (toks: ReadonlyArray<Tok>, k: number): boolean => isKw(toks[k], ...SET_OPERATORS) && !isKw(toks[k - 1], "MULTISET")

/** The index after the WITH clause starting at `at` (its query blocks), or -1 when it does not read as one. */
const afterWithClause = (toks: ReadonlyArray<Tok>, at: number): number => {
  let k = isKw(toks[at + 1], "RECURSIVE") ? at + 2 : at + 1
  for (;;) {
    if (!isName(toks[k])) return -1
    k = isOp(toks[k + 1], "(") ? matchParen(toks, k + 1) + 1 : k + 1
    if (k <= 0 || !isKw(toks[k], "AS") || !isOp(toks[k + 1], "(")) return -1
    const close = matchParen(toks, k + 1)
    if (close < 0) return -1
    // SEARCH / CYCLE clauses of a recursive block
    k = close + 1
    if (!isOp(toks[k], ",")) return k
    k++
  }
}

/**
 * The names WITH clauses give their query blocks anywhere in the statement (a FROM item naming one is no table), with
 * where the block's query opens; -1 for a name given twice.
 */
const queryBlocks = (toks: ReadonlyArray<Tok>): ReadonlyMap<string, number> => {
  const out = new Map<string, number>()
  toks.forEach((t, k) => {
    if (!isName(t) || !(isKw(toks[k - 1], "WITH", "RECURSIVE") || isOp(toks[k - 1], ","))) return
    const as = isOp(toks[k + 1], "(") ? matchParen(toks, k + 1) + 1 : k + 1
    if (as > 0 && isKw(toks[as], "AS") && isOp(toks[as + 1], "(")) out.set(oracleName(t), out.has(oracleName(t)) ? -1 : as + 1)
  })
  return out
}

/** The select-list types of compound queries, checking each set operation's branches on the way. */
class SetOperationTyper {
  private readonly blocks: ReadonlyMap<string, number>
  /** The inline views and WITH blocks (by where their query opens) whose columns are being typed. */
  private readonly typing = new Set<number>()
  /** The statement's leading WITH clause's blocks by name, with their column names (withBlockShapes). */
  private readonly blockShapes: ReadonlyMap<string, SubqueryShape>
  constructor(
    private readonly toks: ReadonlyArray<Tok>,
    private readonly lookupTable: TableLookup | undefined
  ) {
    this.blocks = lookupTable === undefined ? new Map() : queryBlocks(toks)
    this.blockShapes = this.blocks.size === 0 ? new Map() : withBlockShapes(toks, undefined)
  }

  /** Checks the compound query in tokens [from, to) (a whole statement or a parenthesis' inside), if it is one. */
  checkRegion(from: number, to: number): void {
    const start = this.queryStart(from, to)
    if (start >= 0) this.chainSlots(start, to)
  }

  /** The first top-level token of [from, to) that starts a query (SELECT, or a parenthesized query), else -1. */
  private queryStart(from: number, to: number): number {
    const toks = this.toks
    for (let k = from; k < to; k++) {
      if (isKw(toks[k], "SELECT")) return k
      if (isKw(toks[k], "WITH")) {
        const next = afterWithClause(toks, k)
        if (next < 0) return -1
        k = next - 1
      } else if (isOp(toks[k], "(")) {
        let inner = k
        while (isOp(toks[inner], "(")) inner++
        if (isKw(toks[inner], "SELECT", "WITH")) return k
        k = matchParen(toks, k)
        if (k < 0) return -1
      }
    }
    return -1
  }

  /** The slots of the chain of branches starting at `start` (before `to`), ORA-01790 when two branches mix groups. */
  private chainSlots(start: number, to: number): Slots {
    const toks = this.toks
    const branches: Array<Slots> = []
    let k = start
    for (;;) {
      let end = k
      for (; end < to && !isSetOperator(toks, end); end++) if (isOp(toks[end], "(")) end = matchParen(toks, end)
      if (end < 0) return undefined
      branches.push(this.branchSlots(k, end))
      if (end >= to) break
      k = end + 1
      if (isKw(toks[k], "ALL", "DISTINCT")) k++
    }
    return combine(branches)
  }

  /** A branch in tokens [from, to): a parenthesized compound query or one SELECT. */
  private branchSlots(from: number, to: number): Slots {
    const toks = this.toks
    if (isOp(toks[from], "(")) {
      const close = matchParen(toks, from)
      const start = close < 0 ? -1 : this.queryStart(from + 1, close)
      return start >= 0 && (start === from + 1 || isKw(toks[from + 1], "WITH")) ? this.chainSlots(start, close) : undefined
    }
    if (isKw(toks[from], "WITH")) {
      const next = afterWithClause(toks, from)
      return next > 0 && isKw(toks[next], "SELECT") ? this.selectSlots(next, to) : undefined
    }
    return isKw(toks[from], "SELECT") ? this.selectSlots(from, to) : undefined
  }

  /** The item types of the SELECT at `at` whose query ends before `to`. */
  private selectSlots(at: number, to: number): Slots {
    const toks = this.toks
    let k = at + 1
    if (isKw(toks[k], "DISTINCT", "UNIQUE", "ALL")) k++
    const items: Array<[number, number]> = []
    let itemStart = k
    for (; k < to && !isKw(toks[k], "FROM", "INTO", "BULK"); k++) {
      if (isOp(toks[k], "(")) k = matchParen(toks, k)
      else if (isOp(toks[k], ",")) {
        items.push([itemStart, k])
        itemStart = k + 1
      }
      if (k < 0) return undefined
    }
    items.push([itemStart, k])
    const fromAt = isKw(toks[k], "FROM") ? k : -1
    const tables = fromAt < 0 || this.lookupTable === undefined ? undefined : this.fromTables(fromAt, to)
    const columnType: ColumnTypeOf | undefined = tables === undefined ? undefined : (parts) => columnTypeIn(tables, parts)
    const out: Array<ExprType | undefined> = []
    for (const [from, end] of items) {
      if (isOp(toks[end - 1], "*")) {
        const expanded = starColumns(tables, toks.slice(from, end - 1))
        if (expanded === undefined) return undefined
        out.push(...expanded)
      } else out.push(this.lookupTable === undefined ? literalType(toks, from, withoutAlias(toks, from, end)) : expressionType(toks, from, withoutAlias(toks, from, end), columnType))
    }
    return out
  }

  /** The FROM items of the SELECT whose FROM is at `fromAt`, with their columns where known; undefined when the clause reshapes its columns. */
  private fromTables(fromAt: number, to: number): ReadonlyArray<FromTable> | undefined {
    const toks = this.toks
    // where each item starts, as fromRefs splits them (after FROM and each top-level comma or JOIN)
    const starts = [fromAt + 1]
    let end = fromAt + 1
    for (; end < to; end++) {
      if (isOp(toks[end], "(")) end = matchParen(toks, end)
      if (end < 0) return undefined
      if (isKw(toks[end], ...RESHAPING)) return undefined
      if (isKw(toks[end], ...FROM_ENDS)) break
      if (isOp(toks[end], ",") || isKw(toks[end], "JOIN")) starts.push(end + 1)
    }
    const items = starts.filter((k) => (isOp(toks[k], "(") && isKw(toks[k + 1], "SELECT")) || isName(toks[k]))
    const refs = fromRefs(toks, fromAt + 1, end, undefined)
    if (refs.length !== items.length) return undefined
    return refs.map((ref, n) => ({ ref, columns: ref.query !== undefined ? this.inlineViewColumns(ref.query, items[n]!) : this.tableColumns(ref) }))
  }

  /** The columns of the table, view or WITH block (named once, in the leading WITH clause) a FROM item names. */
  private tableColumns(ref: FromRef): ReadonlyArray<TypedColumn> | undefined {
    if (ref.table === "") return undefined
    const block = ref.schema === undefined ? this.blocks.get(ref.table) : undefined
    if (block !== undefined) {
      const shape = this.blockShapes.get(ref.table)
      return block < 0 || shape === undefined ? undefined : this.inlineViewColumns(shape, block)
    }
    return this.lookupTable!(ref.schema, ref.table)?.columns.map((c) => ({ name: c.name, type: columnExprType(c.type) }))
  }

  /** The columns of the inline view or WITH block whose query opens at `open`: its first branch's names, its chain's types. */
  private inlineViewColumns(query: SubqueryShape, open: number): ReadonlyArray<TypedColumn> | undefined {
    // a recursive WITH block reads itself: not typed through that reference
    if (query.items.some((i) => i.kind === "star") || this.typing.has(open)) return undefined
    const close = matchParen(this.toks, open)
    this.typing.add(open)
    let slots: ReadonlyArray<ExprType | undefined> | undefined
    try {
      slots = close < 0 ? undefined : this.chainSlots(open + 1, close)
    } finally {
      this.typing.delete(open)
    }
    return slots === undefined || slots.length !== query.names.length ? undefined : slots.map((type, k) => ({ name: query.names[k], type }))
  }
}

/** A column of a FROM item: its name (none for an inline view's unnamed expression) and type. */
interface TypedColumn {
  readonly name: string | undefined
  readonly type: ExprType | undefined
}

/** A FROM item and, when known (a table or view of the session, an inline view), its columns. */
interface FromTable {
  readonly ref: FromRef
  readonly columns: ReadonlyArray<TypedColumn> | undefined
}

/** The FROM items a qualifier (`t`, `alias`, `schema.t`) names. */
const qualified = (tables: ReadonlyArray<FromTable>, qualifier: ReadonlyArray<string>): Array<FromTable> =>
  tables.filter(({ ref }) =>
    qualifier.length === 1 ? ref.alias === qualifier[0] || (ref.alias === undefined && ref.table === qualifier[0]) : ref.alias === undefined && ref.schema === qualifier[0] && ref.table === qualifier[1])

/** The type of the column `parts` names among `tables` (undefined unless exactly one known table has it). */
const columnTypeIn = (tables: ReadonlyArray<FromTable>, parts: ReadonlyArray<string>): ExprType | undefined => {
  const name = parts[parts.length - 1]!
  const candidates = parts.length === 1 ? tables : parts.length <= 3 ? qualified(tables, parts.slice(0, -1)) : []
  // an unqualified name may be a column of a FROM item whose columns are not known
  if (candidates.length === 0 || candidates.some((t) => t.columns === undefined)) return undefined
  const found = candidates.flatMap((t) => t.columns!.filter((c) => c.name === name))
  return found.length === 1 ? found[0]!.type : undefined
}

/** The column types `*` or `q.*` (the qualifier tokens before the star) selects, undefined when not all are known. */
const starColumns = (tables: ReadonlyArray<FromTable> | undefined, qualifier: ReadonlyArray<Tok>): Array<ExprType | undefined> | undefined => {
  if (tables === undefined) return undefined
  const names = qualifier.filter((t) => !isOp(t, ".")).map(oracleName)
  const named = names.length === 0 ? tables : qualified(tables, names)
  if (named.length === 0 || named.some((t) => t.columns === undefined || t.ref.merged !== undefined)) return undefined
  return named.flatMap((t) => t.columns!.map((c) => c.type))
}

/** The end of a select-list item's expression [from, to) without its alias (`expr [AS] name`). */
const withoutAlias = (toks: ReadonlyArray<Tok>, from: number, to: number): number => {
  const last = toks[to - 1]
  if (to - from < 2 || last === undefined || isOp(toks[to - 2], ".")) return to
  if (last.kind !== "qident" && !(last.kind === "ident" && !NOT_ALIAS.has(last.value))) return to
  return isKw(toks[to - 2], "AS") ? to - 2 : to - 1
}

/** A number or character literal item, optionally signed (the check made without the statement's tables). */
const literalType = (toks: ReadonlyArray<Tok>, from: number, to: number): ExprType | undefined => {
  const signed = to - from === 2 && (isOp(toks[from], "-") || isOp(toks[from], "+"))
  const t = to - from === 1 || signed ? toks[to - 1] : undefined
  return t?.kind === "num" ? "NUMBER" : t?.kind === "str" && !signed ? "CHAR" : undefined
}

/** The slots of a compound query from its branches' (ORA-01790 when a position mixes groups). */
const combine = (branches: ReadonlyArray<Slots>): Slots => {
  const known = branches.filter((b): b is ReadonlyArray<ExprType | undefined> => b !== undefined)
  if (known.length === 0) return undefined
  const width = known[0]!.length
  // a different number of columns is the engine's ORA-01789
  if (known.some((b) => b.length !== width)) return undefined
  return Array.from({ length: width }, (_, p) => {
    const types = known.map((b) => b[p])
    if (new Set(types.map(groupOf).filter((g) => g !== undefined)).size > 1) throw sameDatatype()
    return types.find((t) => groupOf(t) !== undefined) ?? (types.every((t) => t === "NULL") ? "NULL" : undefined)
  })
}

/**
 * ORA-01790 for the first set operation in `toks` (significant tokens) mixing data type groups at a position. With
 * `lookupTable`, expressions and the columns of each branch's FROM tables are typed; without it only number and
 * character literals are (the check on rewritten statements, whose columns may no longer be their tables').
 */
export const setOperationTypeError = (toks: ReadonlyArray<Tok>, lookupTable?: TableLookup): OraError | undefined => {
  if (!toks.some((_, k) => isSetOperator(toks, k))) return undefined
  const typer = new SetOperationTyper(toks, lookupTable)
  try {
    typer.checkRegion(0, toks.length)
    for (let k = 0; k < toks.length; k++) {
      if (!isOp(toks[k], "(")) continue
      const close = matchParen(toks, k)
      if (close > k) typer.checkRegion(k + 1, close)
    }
  } catch (e) {
    if (e instanceof OraError) return e
    throw e
  }
  return undefined
}

/** {@link setOperationTypeError} of the statement `sql` with the columns of its tables. */
export const setOperationTypeErrorOf = (sql: string, lookupTable: TableLookup): OraError | undefined => {
  if (!/\b(?:UNION|INTERSECT|MINUS|EXCEPT)\b/i.test(sql)) return undefined
  const toks = significantTokensOf(sql)
  return toks === undefined ? undefined : setOperationTypeError(toks, lookupTable)
}

/** Throws ORA-01790 when two branches of one set operation in `toks` (significant tokens) hold a number and a text literal at one position. */
export const checkSetOperationLiterals = (toks: ReadonlyArray<Tok>): void => {
  const error = setOperationTypeError(toks)
  if (error !== undefined) throw error
}
