/**
 * Which expressions of a statement are of data type CHAR / NCHAR, for char-operands.ts' blank-padded comparisons
 * ("Blank-Padded and Nonpadded Comparison Semantics", SQL Language Reference: blank-padded "only when both values in
 * the comparison are either expressions of data type CHAR, NCHAR, text literals, or values returned by the USER
 * function"). Names are resolved as Oracle resolves them, by query block: an unqualified column belongs to the one
 * table (or derived table, WITH block, view) of its own block's FROM clause that has it, else to an enclosing block's
 * (a correlated reference); a qualified one to the FROM item of that name or alias. A derived table's or WITH block's
 * column has the type of its select-list item, a set operation's that of its branches' items: CHAR of one length only
 * when every branch's item is CHAR of that length ("If the queries select values of CHAR with different lengths, then
 * the returned value is VARCHAR2", SQL Language Reference, "The Set Operators"); a view's column, that of its query's
 * item; a USING join's column, CHAR when both tables' are. Every other expression has the type its operator's or
 * function's rule gives it from its operands: text literals, USER, binds sent as CHAR, UPPER / LOWER / INITCAP /
 * NLS_UPPER / NLS_LOWER / NLS_INITCAP / SUBSTR[B|C|2|4] / SOUNDEX of a CHAR ("The return value is the same data type as
 * char", SQL Language Reference, UPPER, LOWER, INITCAP, SUBSTR, SOUNDEX), CAST(x AS CHAR(n) | CHARACTER(n) | NCHAR(n))
 * (CHAR(n) itself), a scalar subquery of a CHAR item, `||` / CONCAT of CHAR values ("If both character strings are of
 * data type CHAR, then the result has data type CHAR", SQL Language Reference, "Concatenation Operator"), MAX / MIN /
 * FIRST_VALUE / LAG ... / NULLIF of a CHAR (VALUE_OF_ARGUMENT), a CASE or COALESCE whose values other than NULL are all
 * CHAR, a stored function declared RETURN CHAR / NCHAR (called from SQL through `ora_plsql_call_char`,
 * plsql/sql-functions.ts; from PL/SQL as a bind the caller reports as CHAR) and a PL/SQL CHAR variable or record field.
 * Other functions return VARCHAR2: LPAD / RPAD, LTRIM / RTRIM / TRIM
 * ("The string returned is of VARCHAR2 data type if char is a character data type"), REPLACE, TO_CHAR ("The value
 * returned is always VARCHAR2"), NVL and NVL2 ("returns VARCHAR2 in the character set of expr1"), DECODE ("The string
 * returned is of VARCHAR2 data type"), GREATEST / LEAST ("its data type is VARCHAR2 if the first expr is a character
 * data type"), CHR, LISTAGG.
 */
import type { TableMeta } from "./catalog.ts"
import { markCharReference } from "./char-references.ts"
import { isBlankPadded } from "./char-writes.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import { charType, type OraType } from "./types.ts"

/** Resolves a table name as the session sees it. */
export type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** The CHAR type of an expression: a column's (its size known), a text literal, or another CHAR value (size unknown). */
export type CharType = { readonly kind: "column"; readonly type: OraType } | { readonly kind: "literal"; readonly tok: Tok } | { readonly kind: "char" }

/** What a FROM item says of a column name: its CHAR type, "other" (a column of another type), or undefined (none). */
type ColumnInfo = CharType | "other" | undefined

/** A select-list item: its name, its type and, unless it comes from a `*`, its expression's range. */
interface Item {
  readonly name: string
  readonly info: ColumnInfo
  readonly range?: readonly [number, number]
}

interface Source {
  readonly names: ReadonlyArray<string>
  readonly column: (name: string) => ColumnInfo
  /** Its columns in order (for a `*` item). */
  readonly all: () => ReadonlyArray<{ readonly name: string; readonly info: ColumnInfo }>
}

interface Block {
  readonly start: number
  readonly end: number
  sources?: ReadonlyArray<Source>
  /** Where the FROM clause starts and ends (for DML, the statement's target tables). */
  readonly from: ReadonlyArray<readonly [number, number]>
}


/** Words that are never a column, a function or an alias. */
const RESERVED = new Set([
  "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "THEN", "ELSE", "END", "CASE", "HAVING", "BY", "IS", "IN", "LIKE", "BETWEEN",
  "EXISTS", "PRIOR", "SET", "VALUES", "RETURN", "RETURNING", "INTO", "ANY", "ALL", "SOME", "DISTINCT", "UNIQUE", "UNION", "INTERSECT",
  "MINUS", "EXCEPT", "GROUP", "ORDER", "CONNECT", "START", "WITH", "JOIN", "USING", "ESCAPE", "NULL", "AS", "FOR", "FETCH", "OFFSET",
  "LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "NATURAL", "DATE", "TIMESTAMP", "INTERVAL", "TIME", "UPDATE", "DELETE", "INSERT", "MERGE"
])
const isColumnName = (t: Tok | undefined): t is Tok => isName(t) && !(t.kind === "ident" && RESERVED.has(t.value))

const SET_OPERATORS = ["UNION", "INTERSECT", "MINUS", "EXCEPT"]
/** Functions returning the data type of their first argument ("The return value is the same data type as char"). */
const CHAR_PRESERVING = new Set(["UPPER", "LOWER", "INITCAP", "NLS_UPPER", "NLS_LOWER", "NLS_INITCAP", "SUBSTR", "SUBSTRB", "SUBSTRC", "SUBSTR2", "SUBSTR4", "SOUNDEX"])
/**
 * Functions whose result is one of their (first) argument's values, so of its data type and length: MAX / MIN ("MAX
 * returns maximum value of expr", SQL Language Reference, MAX; no other result type is named), FIRST_VALUE,
 * LAST_VALUE, NTH_VALUE, LAG, LEAD ("the value of expr" at another row), ANY_VALUE, and NULLIF ("If they are not
 * equal, then the function returns expr1"; "logically equivalent to" `CASE WHEN expr1 = expr2 THEN NULL ELSE expr1
 * END`, SQL Language Reference, NULLIF).
 */
export const VALUE_OF_ARGUMENT = new Set(["MAX", "MIN", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE", "LAG", "LEAD", "ANY_VALUE", "NULLIF"])
/** The carrier of a stored function's CHAR / NCHAR result in SQL (plsql/sql-functions.ts). */
const CHAR_FUNCTION_CALL = "ORA_PLSQL_CALL_CHAR"
const CHAINING = ["||", "+", "-", "*", "/"]

/** The index of the CASE whose END is at `end`, scanning back (-1 when unmatched). */
const caseBefore = (sig: ReadonlyArray<Tok>, end: number): number => {
  for (let k = end - 1, depth = 0; k >= 0; k--) {
    if (isKw(sig[k], "END")) depth++
    else if (isKw(sig[k], "CASE")) {
      if (depth === 0) return k
      depth--
    }
  }
  return -1
}

/** The index of the END closing the CASE at `at` (-1 when unmatched). */
export const endAfter = (sig: ReadonlyArray<Tok>, at: number): number => {
  for (let k = at + 1, depth = 0; k < sig.length; k++) {
    if (isKw(sig[k], "CASE")) depth++
    else if (isKw(sig[k], "END")) {
      if (depth === 0) return k
      depth--
    }
  }
  return -1
}

/** The result expressions (each THEN's and the ELSE's) of the CASE [from, to] (`to` its END). */
export const caseResultRanges = (sig: ReadonlyArray<Tok>, from: number, to: number): Array<readonly [number, number]> => {
  const results: Array<readonly [number, number]> = []
  for (let k = from + 1, depth = 0, start = -1; k <= to; k++) {
    const x = sig[k]
    if (depth === 0 && (isKw(x, "WHEN", "ELSE", "END") && start >= 0)) {
      results.push([start, k - 1])
      start = -1
    }
    if (depth === 0 && isKw(x, "THEN", "ELSE")) start = k + 1
    if (isOp(x, "(") || (isKw(x, "CASE") && k > from)) depth++
    else if (isOp(x, ")") || (isKw(x, "END") && k < to)) depth--
  }
  return results
}

/** The index of the `(` matching the `)` at `close` (-1 when unmatched). */
const openBefore = (sig: ReadonlyArray<Tok>, close: number): number => {
  for (let k = close, depth = 0; k >= 0; k--) {
    if (isOp(sig[k], ")")) depth++
    else if (isOp(sig[k], "(") && --depth === 0) return k
  }
  return -1
}

/** The start of the primary (literal, bind, name, call, parenthesis, CASE) ending at `end`, or -1. */
const primaryStart = (sig: ReadonlyArray<Tok>, end: number): number => {
  const t = sig[end]
  if (t === undefined) return -1
  if (t.kind === "str") return isKw(sig[end - 1], "DATE", "TIMESTAMP", "INTERVAL", "TIME") ? end - 1 : end
  if (t.kind === "num" || t.kind === "bind") return end
  if (isKw(t, "END")) return caseBefore(sig, end)
  if (isOp(t, ")")) {
    let open = openBefore(sig, end)
    // `f(...) OVER (...)`: an analytic function; `f(...) KEEP (...)`: an aggregate of the first or last rows
    if (isKw(sig[open - 1], "OVER") && isOp(sig[open - 2], ")")) open = openBefore(sig, open - 2)
    if (isKw(sig[open - 1], "KEEP") && isOp(sig[open - 2], ")")) open = openBefore(sig, open - 2)
    if (open > 0 && isColumnName(sig[open - 1])) {
      open--
      while (isOp(sig[open - 1], ".") && isName(sig[open - 2])) open -= 2
    }
    return open
  }
  if (!isColumnName(t) && !isKw(t, "USER")) return -1
  let first = end
  while (isOp(sig[first - 1], ".") && isName(sig[first - 2])) first -= 2
  return first
}

/** The end of the primary starting at `start`, or -1. */
const primaryEnd = (sig: ReadonlyArray<Tok>, start: number): number => {
  const t = sig[start]
  if (t === undefined) return -1
  if (t.kind === "str" || t.kind === "num" || t.kind === "bind") return start
  if (isKw(t, "DATE", "TIMESTAMP", "INTERVAL", "TIME") && sig[start + 1]?.kind === "str") return start + 1
  if (isKw(t, "CASE")) return endAfter(sig, start)
  if (isOp(t, "(")) return matchParen(sig, start)
  if (!isColumnName(t) && !isKw(t, "USER")) return -1
  let last = start
  while (isOp(sig[last + 1], ".") && isName(sig[last + 2])) last += 2
  return isOp(sig[last + 1], "(") ? callEnd(sig, last + 1) : last
}

/** The end of the call whose argument list opens at `open`, with its KEEP (...) and OVER (...) clauses. */
export const callEnd = (sig: ReadonlyArray<Tok>, open: number): number => {
  let close = matchParen(sig, open)
  if (isKw(sig[close + 1], "KEEP") && isOp(sig[close + 2], "(")) close = matchParen(sig, close + 2)
  return isKw(sig[close + 1], "OVER") && isOp(sig[close + 2], "(") ? matchParen(sig, close + 2) : close
}

/** The first index of the operand (primaries joined by `||` and arithmetic) ending at `end`, or -1. */
export const operandStart = (sig: ReadonlyArray<Tok>, end: number): number => {
  let first = primaryStart(sig, end)
  while (first > 1 && CHAINING.some((op) => isOp(sig[first - 1], op))) {
    const before = primaryStart(sig, first - 2)
    // a sign, not an operator: the operand is not one we know
    if (before < 0) return -1
    first = before
  }
  return first
}

/** The last index of the operand starting at `start`, or -1. */
export const operandEnd = (sig: ReadonlyArray<Tok>, start: number): number => {
  let last = primaryEnd(sig, start)
  while (last >= 0 && CHAINING.some((op) => isOp(sig[last + 1], op))) last = primaryEnd(sig, last + 2)
  return last
}

/** `[from, to]` split at its top-level occurrences of the operator or keyword `op`. */
export const splitAt = (sig: ReadonlyArray<Tok>, from: number, to: number, op: string): Array<readonly [number, number]> => {
  const parts: Array<readonly [number, number]> = []
  let start = from
  for (let k = from, depth = 0; k <= to; k++) {
    const t = sig[k]
    if (isOp(t, "(") || isKw(t, "CASE")) depth++
    else if (isOp(t, ")") || isKw(t, "END")) depth--
    else if (depth === 0 && (/^[A-Z]+$/.test(op) ? isKw(t, op) : isOp(t, op))) {
      parts.push([start, k - 1])
      start = k + 1
    }
  }
  parts.push([start, to])
  return parts
}

/** The CHAR types of a statement's expressions (`sig`: its significant tokens). */
export const charTypes = (
  sig: ReadonlyArray<Tok>,
  lookup: TableLookup,
  variableType?: (name: string) => OraType | undefined,
  isCharBind?: (at: number) => boolean
) => {
  // the query blocks: each SELECT to the end of its parenthesis or set operation branch; DML with its target tables
  const blocks: Array<Block> = []
  const topLevel = (from: number, match: (t: Tok) => boolean): number => {
    for (let k = from, depth = 0; k < sig.length; k++) {
      if (isOp(sig[k], "(")) depth++
      else if (isOp(sig[k], ")")) {
        if (depth === 0) return k
        depth--
      } else if (depth === 0 && match(sig[k]!)) return k
    }
    return sig.length
  }
  const withNames = new Map<string, readonly [number, number]>()
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (isKw(t, "SELECT")) {
      const end = topLevel(k + 1, (x) => isKw(x, ...SET_OPERATORS))
      const fromAt = topLevel(k + 1, (x) => isKw(x, "FROM"))
      const fromEnd = fromAt < end ? topLevel(fromAt + 1, (x) => isKw(x, "WHERE", "GROUP", "ORDER", "HAVING", "CONNECT", "START", "FETCH", "OFFSET", "FOR", "MODEL", "WINDOW", ...SET_OPERATORS)) : end
      blocks.push({ start: k, end, from: fromAt < end ? [[fromAt + 1, Math.min(fromEnd, end)]] : [] })
    }
    // `name AS (query)` of a WITH clause
    if (isName(t) && isKw(sig[k + 1], "AS") && isOp(sig[k + 2], "(") && (isKw(sig[k - 1], "WITH", "RECURSIVE") || isOp(sig[k - 1], ",")) && isKw(sig[k + 3], "SELECT", "WITH"))
      withNames.set(oracleName(t), [k + 3, matchParen(sig, k + 2) - 1])
  }
  // DML: the target table (and MERGE's source) are the statement's FROM items
  if (isKw(sig[0], "UPDATE")) blocks.push({ start: 0, end: sig.length, from: [[1, topLevel(1, (x) => isKw(x, "SET"))]] })
  if (isKw(sig[0], "DELETE")) blocks.push({ start: 0, end: sig.length, from: [[isKw(sig[1], "FROM") ? 2 : 1, topLevel(1, (x) => isKw(x, "WHERE", "RETURNING", "RETURN"))]] })
  if (isKw(sig[0], "MERGE") && isKw(sig[1], "INTO")) {
    const using = topLevel(2, (x) => isKw(x, "USING"))
    const on = topLevel(using + 1, (x) => isKw(x, "ON"))
    blocks.push({ start: 0, end: sig.length, from: [[2, using], [using + 1, on]] })
  }

  /** The innermost block holding `at`, and the blocks enclosing it, innermost first. */
  const scopes = (at: number): Array<Block> =>
    blocks.filter((b) => b.start <= at && at < b.end).sort((a, b) => b.start - a.start)

  const tableSource = (meta: TableMeta, names: ReadonlyArray<string>): Source => {
    // a view's column is its query's item: CHAR where that item is, whatever type the view's description gives it
    let items: ReadonlyArray<{ readonly info: ColumnInfo }> | undefined
    const viewItems = () => (items ??= meta.kind === "VIEW" && meta.viewText !== null ? viewColumns(meta.viewText, lookup) : [])
    const info = (c: TableMeta["columns"][number]): ColumnInfo => {
      if (isBlankPadded(c.type)) return { kind: "column", type: c.type }
      const item = meta.kind === "VIEW" && viewItems().length === meta.columns.length ? viewItems()[meta.columns.indexOf(c)]?.info : undefined
      return item === undefined ? "other" : item
    }
    return {
      names,
      column: (name) => {
        const c = meta.columns.find((x) => x.name === name)
        return c === undefined ? undefined : info(c)
      },
      all: () => meta.columns.map((c) => ({ name: c.name, info: info(c) }))
    }
  }
  const computing = new Set<number>()
  const querySource = (from: number, to: number, names: ReadonlyArray<string>): Source => {
    let columns: ReadonlyArray<{ name: string; info: ColumnInfo }> | undefined
    const all = () => (columns ??= queryColumns(from, to))
    return { names, column: (name) => all().find((c) => c.name === name)?.info, all }
  }

  /** The columns a query in [from, to] gives: its select-list items' names and types (of every set operation branch). */
  const queryColumns = (from: number, to: number): ReadonlyArray<{ name: string; info: ColumnInfo }> => {
    const branches = branchesOf(from, to)
    if (branches.length <= 1) return branches[0] ?? []
    // a set operation: CHAR only where every branch has CHAR of one length
    return branches[0]!.map((first, n) => {
      const infos = branches.map((b) => b[n]?.info)
      const sizes = infos.map((i) => (i === undefined || i === "other" ? undefined : i.kind === "column" ? `${i.type.charSize}:${i.type.kind}:${i.type.charSemantics === true}` : i.kind === "literal" ? `${Buffer.byteLength(i.tok.value)}:varchar:false` : undefined))
      return { name: first.name, info: sizes.every((s) => s !== undefined && s === sizes[0]) ? first.info : "other" }
    })
  }

  /** The select-list items of each branch of the query in [from, to] (one branch unless it is a set operation). */
  const branchesOf = (from: number, to: number): Array<Array<Item>> => {
    if (computing.has(from)) return []
    computing.add(from)
    try {
      const branches: Array<Array<Item>> = []
      for (let k = from; k <= to; k++) {
        if (isOp(sig[k], "(")) {
          // a parenthesised branch is its own query
          if (isKw(sig[k + 1], "SELECT") && (k === from || isKw(sig[k - 1], ...SET_OPERATORS, "ALL"))) branches.push(...branchesOf(k + 1, matchParen(sig, k) - 1))
          k = matchParen(sig, k)
        } else if (isKw(sig[k], "SELECT")) branches.push(selectItems(k))
      }
      return branches
    } finally {
      computing.delete(from)
    }
  }

  /** The expression of each branch's one select-list item, of the query in [from, to]; undefined when a branch has more. */
  const itemExpressions = (from: number, to: number): ReadonlyArray<readonly [number, number]> | undefined => {
    const ranges = branchesOf(from, to).map((b) => (b.length === 1 ? b[0]!.range : undefined))
    return ranges.length > 0 && ranges.every((r) => r !== undefined) ? (ranges as ReadonlyArray<readonly [number, number]>) : undefined
  }

  /** The items of the SELECT at `select`. */
  const selectItems = (select: number): Array<Item> => {
    let k = select + 1
    if (isKw(sig[k], "DISTINCT", "UNIQUE", "ALL")) k++
    const end = topLevel(k, (t) => isKw(t, "FROM", "INTO"))
    const out: Array<Item> = []
    for (const [a, b] of splitAt(sig, k, end - 1, ",")) {
      if (b < a) continue
      if (a === b && isOp(sig[a], "*")) {
        for (const s of sourcesOf(blockAt(select))) out.push(...s.all())
        continue
      }
      if (b === a + 2 && isName(sig[a]) && isOp(sig[a + 1], ".") && isOp(sig[b], "*")) {
        const q = oracleName(sig[a]!)
        for (const s of sourcesOf(blockAt(select))) if (s.names.includes(q)) out.push(...s.all())
        continue
      }
      const aliased = b > a && isName(sig[b]) && (isKw(sig[b - 1], "AS") || (!isOp(sig[b - 1], ".") && (sig[b - 1]!.kind !== "op" || isOp(sig[b - 1], ")"))) && !isKw(sig[b], "END"))
      const exprEnd = aliased ? (isKw(sig[b - 1], "AS") ? b - 2 : b - 1) : b
      const name = aliased ? oracleName(sig[b]!) : isName(sig[exprEnd]) ? oracleName(sig[exprEnd]!) : ""
      out.push({ name, info: typeOf(a, exprEnd) ?? "other", range: [a, exprEnd] })
    }
    return out
  }

  const blockAt = (select: number): Block | undefined => blocks.find((b) => b.start === select)

  /** The FROM items of a block. */
  const sourcesOf = (block: Block | undefined): ReadonlyArray<Source> => {
    if (block === undefined) return []
    if (block.sources !== undefined) return block.sources
    const out: Array<Source> = []
    block.sources = out
    for (const [from, to] of block.from) {
      let k = from
      while (k < to) {
        let source: Source | undefined
        let next = k
        // a LATERAL inline view is a derived table that may name the columns before it
        if (isKw(sig[k], "LATERAL") && isOp(sig[k + 1], "(")) k++
        const t = sig[k]
        if (isOp(t, "(") && isKw(sig[k + 1], "SELECT", "WITH")) {
          const close = matchParen(sig, k)
          next = close + 1
          const alias = isKw(sig[next], "AS") ? sig[next + 1] : sig[next]
          const named = isColumnName(alias)
          if (named) next = isKw(sig[next], "AS") ? next + 2 : next + 1
          source = querySource(k + 1, close - 1, named ? [oracleName(alias)] : [])
        } else if (isName(t) && !isKw(t, "LATERAL", "TABLE", "ONLY")) {
          const qualified = isOp(sig[k + 1], ".") && isName(sig[k + 2])
          const name = oracleName(qualified ? sig[k + 2]! : t)
          next = qualified ? k + 3 : k + 1
          if (isOp(sig[next], "@")) next += 2
          const alias = isKw(sig[next], "AS") ? sig[next + 1] : sig[next]
          const named = isColumnName(alias)
          const names = named ? [oracleName(alias)] : [name]
          if (named) next = isKw(sig[next], "AS") ? next + 2 : next + 1
          const cte = qualified ? undefined : withNames.get(name)
          const meta = cte === undefined ? lookup(qualified ? oracleName(t) : undefined, name) : undefined
          source = cte !== undefined ? querySource(cte[0], cte[1], names) : meta !== undefined ? tableSource(meta, names) : { names, column: () => undefined, all: () => [] }
        }
        if (source !== undefined) out.push(source)
        // on to the next FROM item: after a top-level comma or JOIN
        let depth = 0
        for (k = Math.max(next, k + 1); k < to; k++) {
          if (isOp(sig[k], "(")) depth++
          else if (isOp(sig[k], ")")) depth--
          else if (depth === 0 && (isOp(sig[k], ",") || isKw(sig[k], "JOIN"))) {
            k++
            break
          }
        }
      }
    }
    return out
  }

  /**
   * Outside any query block (CREATE / ALTER TABLE's CHECK conditions, a PL/SQL condition): the tables the statement
   * names and the CHAR columns a CREATE TABLE declares.
   */
  let statementSources: Block | undefined
  const statementBlock = (): Block => {
    if (statementSources !== undefined) return statementSources
    const out: Array<Source> = []
    for (let k = 0; k < sig.length; k++) {
      const t = sig[k]!
      if (!isName(t) || isOp(sig[k + 1], ".")) continue
      const meta = isOp(sig[k - 1], ".") ? (isName(sig[k - 2]) ? lookup(oracleName(sig[k - 2]!), oracleName(t)) : undefined) : lookup(undefined, oracleName(t))
      if (meta !== undefined) out.push(tableSource(meta, [meta.name]))
    }
    if (isKw(sig[0], "CREATE") && sig.some((t) => isKw(t, "TABLE"))) {
      // `name CHAR(n)` / `name NCHAR(n)` column definitions
      const declared = new Map<string, ColumnInfo>()
      for (let k = 1; k < sig.length; k++)
        if (isName(sig[k]) && (isOp(sig[k - 1], "(") || isOp(sig[k - 1], ",")) && isName(sig[k + 1]) && !isKw(sig[k], "CONSTRAINT", "CHECK", "PRIMARY", "UNIQUE", "FOREIGN") && !declared.has(oracleName(sig[k]!)))
          declared.set(oracleName(sig[k]!), isKw(sig[k + 1], "CHAR", "NCHAR", "CHARACTER") && !isKw(sig[k + 2], "VARYING") ? { kind: "char" } : "other")
      out.push({ names: [], column: (name) => declared.get(name), all: () => [...declared].map(([name, info]) => ({ name, info })) })
    }
    statementSources = { start: 0, end: sig.length, from: [], sources: out }
    return statementSources
  }

  /** The type of the column `parts` (`c`, `q.c`, `s.q.c`) referenced at `at`; undefined when ambiguous or unknown. */
  const columnType = (at: number, parts: ReadonlyArray<string>): ColumnInfo => {
    const name = parts[parts.length - 1]!
    const qualifier = parts.length > 1 ? parts[parts.length - 2] : undefined
    const enclosing = scopes(at)
    for (const block of enclosing.length > 0 ? enclosing : [statementBlock()]) {
      const sources = sourcesOf(block).filter((s) => qualifier === undefined || s.names.includes(qualifier))
      const found = sources.map((s) => s.column(name)).filter((i) => i !== undefined)
      if (found.length === 1) return found[0]
      // a column of a USING clause or NATURAL join (which both tables have: CHAR when both are), else ambiguous: the
      // statement fails ORA-00918 on its own
      if (found.length > 1) return found.every((i) => i !== "other") ? commonInfo(found as ReadonlyArray<CharType>) : undefined
      if (qualifier !== undefined && sources.length > 0) return undefined
    }
    if (qualifier === undefined) {
      const type = variableType?.(name)
      return type !== undefined && isBlankPadded(type) ? { kind: "column", type } : undefined
    }
    // a PL/SQL record's field (`r.f`)
    const field = variableType?.(parts.join("."))
    if (field !== undefined) return isBlankPadded(field) ? { kind: "column", type: field } : undefined
    // `s.t.c`, or a table named outside any FROM clause this analysis reads: its declared column
    const meta = lookup(parts.length > 2 ? parts[0] : undefined, qualifier)
    const c = meta?.columns.find((x) => x.name === name)
    return c !== undefined && isBlankPadded(c.type) ? { kind: "column", type: c.type } : undefined
  }

  /**
   * The CHAR type of alternative values [from, to] (a CASE's results, COALESCE's arguments) when every one that is not
   * NULL is CHAR ("CASE Expressions": "all of the return_exprs must either have the same data type", NULL aside):
   * their column type when they share it, else CHAR of a length known when the statement runs.
   */
  const commonType = (ranges: ReadonlyArray<readonly [number, number]>): CharType | undefined => {
    const typed = ranges.filter(([a, b]) => !(a === b && isKw(sig[a], "NULL"))).map(([a, b]) => typeOf(a, b))
    return typed.length === 0 || typed.some((x) => x === undefined) ? undefined : commonInfo(typed as ReadonlyArray<CharType>)
  }

  /** The type CHAR values of `types` share: their column type when they all have it, else CHAR of a length known when the statement runs. */
  const commonInfo = (types: ReadonlyArray<CharType>): CharType => {
    const first = types[0]!
    const same = first.kind === "column" && types.every((x) => x.kind === "column" && x.type.charSize === first.type.charSize && x.type.kind === first.type.kind && x.type.charSemantics === first.type.charSemantics)
    return same ? first : { kind: "char" }
  }

  /** The CHAR type of the target [from, to] of a CAST: [NATIONAL] CHAR / CHARACTER, NCHAR [(n [BYTE | CHAR])], not VARYING. */
  const castType = (target: number, to: number): CharType | undefined => {
    // NATIONAL CHAR[ACTER](n) is NCHAR(n) ("ANSI, DB2, and SQL/DS Data Types")
    const at = isKw(sig[target], "NATIONAL") ? target + 1 : target
    const national = at > target || isKw(sig[at], "NCHAR")
    if (!isKw(sig[at], "CHAR", "CHARACTER", "NCHAR") || isKw(sig[at + 1], "VARYING")) return undefined
    // CHAR without a size is CHAR(1) ("CHAR Data Type": "The default is 1 byte")
    const sized = isOp(sig[at + 1], "(") && sig[at + 2]?.kind === "num"
    if (sized ? matchParen(sig, at + 1) !== to : at !== to) return undefined
    const n = sized ? Number(sig[at + 2]!.value) : 1
    return { kind: "column", type: charType(national ? "NCHAR" : "CHAR", n, isKw(sig[at + 3], "CHAR")) }
  }

  /** The CHAR type of the expression [from, to], or undefined when it is not of type CHAR / NCHAR (or not known to be). */
  const typeOf = (from: number, to: number): CharType | undefined => {
    if (to < from) return undefined
    const t = sig[from]!
    if (isOp(t, "(") && matchParen(sig, from) === to) {
      // a scalar subquery: "the value of the select list item of the subquery" (SQL Language Reference, "Scalar
      // Subquery Expressions")
      if (isKw(sig[from + 1], "SELECT", "WITH")) {
        const items = queryColumns(from + 1, to - 1)
        const info = items.length === 1 ? items[0]!.info : undefined
        return info === undefined || info === "other" ? undefined : info
      }
      return typeOf(from + 1, to - 1)
    }
    const parts = splitAt(sig, from, to, "||")
    if (parts.length > 1) return parts.every(([a, b]) => typeOf(a, b) !== undefined) ? { kind: "char" } : undefined
    if (from === to) {
      if (t.kind === "str") return isKw(sig[from - 1], "DATE", "TIMESTAMP", "INTERVAL", "TIME") ? undefined : { kind: "literal", tok: t }
      if (t.kind === "bind") return isCharBind?.(from) === true ? { kind: "char" } : undefined
      if (isKw(t, "USER")) return { kind: "char" }
    }
    if (isName(t) && isOp(sig[from + 1], "(") && callEnd(sig, from + 1) === to) {
      const close = matchParen(sig, from + 1)
      const args = splitAt(sig, from + 2, close - 1, ",")
      if (t.kind === "ident" && VALUE_OF_ARGUMENT.has(t.value)) {
        // MAX(c), MIN(c), FIRST_VALUE(c) OVER (...), LAG(c, 1) OVER (...): the type of c, its length too
        const first = isKw(sig[args[0]![0]], "DISTINCT", "ALL") ? ([args[0]![0] + 1, args[0]![1]] as const) : args[0]!
        const type = typeOf(first[0], first[1])
        return type === undefined ? undefined : type.kind === "column" ? type : { kind: "char" }
      }
      if (close !== to) return undefined
      if (t.kind === "ident" && CHAR_PRESERVING.has(t.value)) return typeOf(args[0]![0], args[0]![1]) !== undefined ? { kind: "char" } : undefined
      if (t.kind === "ident" && t.value === CHAR_FUNCTION_CALL) return { kind: "char" }
      // a PL/SQL collection's element `c(i)`
      if (args.length === 1 && !isOp(sig[from - 1], ".")) {
        const element = variableType?.(`${oracleName(t)}()`)
        if (element !== undefined) return isBlankPadded(element) ? { kind: "column", type: element } : undefined
      }
      if (isKw(t, "CONCAT") && args.length === 2) return args.every(([a, b]) => typeOf(a, b) !== undefined) ? { kind: "char" } : undefined
      // COALESCE "is equivalent to" a CASE of its arguments (SQL Language Reference, COALESCE): CHAR as that CASE is
      if (isKw(t, "COALESCE")) return commonType(args)
      if (isKw(t, "CAST")) {
        const as = splitAt(sig, from + 2, to - 1, "AS")
        return as.length === 2 ? castType(as[1]![0], as[1]![1]) : undefined
      }
      return undefined
    }
    if (isKw(t, "CASE") && endAfter(sig, from) === to) {
      // CASE with CHAR results only (each THEN and the ELSE)
      return commonType(caseResultRanges(sig, from, to))
    }
    // a column reference
    const names: Array<string> = []
    for (let k = from; k <= to; k += 2) {
      if (!isName(sig[k]) || (k < to && !isOp(sig[k + 1], "."))) return undefined
      names.push(oracleName(sig[k]!))
    }
    if (names.length === 0 || names.length > 3 || !isColumnName(sig[to])) return undefined
    const info = columnType(from, names)
    return info === "other" ? undefined : info
  }

  return { typeOf, queryColumns, itemExpressions, branchesOf }
}

/** The columns of a view's query `text`, with their CHAR types. */
const viewColumns = (text: string, lookup: TableLookup): ReadonlyArray<{ readonly info: ColumnInfo }> => {
  const sig = tokenize(text).filter((t) => t.kind !== "ws")
  return charTypes(sig, lookup).queryColumns(0, sig.length - 1)
}

/**
 * Marks (char-references.ts) each column reference of a statement (`sig`: its significant tokens) that resolves in its
 * query block to a CHAR / NCHAR column (of a table, or a derived table's or WITH block's CHAR item), where a table the
 * statement names has a CHAR / NCHAR column.
 */
export const markCharReferences = (sig: ReadonlyArray<Tok>, lookup: TableLookup, variableType?: (name: string) => OraType | undefined): void => {
  const hasChar = sig.some((t, k) => {
    if (!isName(t) || isOp(sig[k + 1], ".") || isOp(sig[k + 1], "(")) return false
    const meta = isOp(sig[k - 1], ".") ? (isName(sig[k - 2]) ? lookup(oracleName(sig[k - 2]!), oracleName(t)) : undefined) : lookup(undefined, oracleName(t))
    return meta?.columns.some((c) => isBlankPadded(c.type)) === true
  })
  if (!hasChar) return
  const { typeOf } = charTypes(sig, lookup, variableType)
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (!isColumnName(t) || isOp(sig[k + 1], "(") || isOp(sig[k + 1], ".")) continue
    let from = k
    while (isOp(sig[from - 1], ".") && isName(sig[from - 2])) from -= 2
    if (typeOf(from, k)?.kind === "column") markCharReference(t)
  }
}
