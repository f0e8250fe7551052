/**
 * Grouping TIMESTAMP WITH TIME ZONE columns by instant. The server stores such values as text with their own zone
 * (datetime-functions.ts), and DuckDB groups text by text, so `12:00 +01:00` and `11:00 +00:00` would be two groups;
 * Oracle compares TIMESTAMP WITH TIME ZONE values by their UTC instant, whatever zones they carry (Database
 * Globalization Support Guide, "Datetime Comparisons":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html;
 * Oracle's client library says it of its TIMESTAMP WITH TIME ZONE values: equality "only compares the Coordinated
 * Universal Time (UTC) date-time values ...; the time zone information is ignored", Oracle Objects for OLE, "IsEqual
 * (OraTimeStampTZ) Method": https://docs.oracle.com/cd/E11882_01/win.112/e17727/sermthod110.htm). This
 * module finds, in a statement's tokens, the zoned column references to be rendered by instant: GROUP BY items and
 * COUNT(DISTINCT ...) operands (by their instant key), and the references a query grouped by them selects, orders or
 * filters on outside aggregates (by one value of the group, which keeps its own zone).
 */
import { isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"

/** Token ranges (start → end) of zoned column references the translator renders by instant. */
export interface InstantGrouping {
  /** GROUP BY items and COUNT(DISTINCT ...) operands: grouped and counted by their instant. */
  readonly keys: ReadonlyMap<number, number>
  /**
   * References to grouped columns in the select list, HAVING and ORDER BY of their query, outside aggregates: one
   * value of the group; `item` when the reference is a whole select-list item (it keeps the column's name).
   */
  readonly representatives: ReadonlyMap<number, Representative>
  /**
   * GROUP BY items, COUNT(DISTINCT ...) operands and PARTITION BY items that are expressions over a zoned column
   * (`t + INTERVAL '1' HOUR`, `NVL(t, u)`), start → end, without binds: keyed by instant when their value is zoned
   * (the translator decides, translate.ts groupedExpression).
   */
  readonly expressionKeys: ReadonlyMap<number, number>
  /** Occurrences of such a GROUP BY expression in its query's select list, HAVING and ORDER BY, outside aggregates. */
  readonly expressionRepresentatives: ReadonlyMap<number, number>
  /** Of those occurrences, the ones grouped in ROLLUP / CUBE / GROUPING SETS: the token range of their key. */
  readonly expressionRolledKeys: ReadonlyMap<number, readonly [number, number]>
}

/** A grouped reference outside aggregates: where it ends, whether it is a whole select-list item, and for a column
 * grouped in ROLLUP / CUBE / GROUPING SETS the token range of its key (a rolled-up row shows NULL there). */
export interface Representative {
  readonly end: number
  readonly item: boolean
  readonly rolledKey?: readonly [number, number]
}

/** Aggregate functions, whose arguments are the group's rows rather than its grouped values. */
const AGGREGATES = new Set([
  "COUNT", "SUM", "AVG", "MIN", "MAX", "LISTAGG", "MEDIAN", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP",
  "VAR_SAMP", "ANY_VALUE", "COLLECT", "CORR", "COVAR_POP", "COVAR_SAMP"
])


/** The index after the column reference (`c`, `t.c`, `s.t.c`) starting at `i`, or -1 when none starts there. */
const referenceEnd = (toks: ReadonlyArray<Tok>, i: number): number => {
  if (!isName(toks[i]) || isOp(toks[i - 1], ".")) return -1
  let k = i + 1
  while (isOp(toks[k], ".") && isName(toks[k + 1])) k += 2
  return isOp(toks[k], "(") ? -1 : k
}

/** The grouping by instant of the significant tokens `toks`, given which column references (by their last name) are zoned. */
export const instantGrouping = (toks: ReadonlyArray<Tok>, zoned: (name: Tok) => boolean): InstantGrouping => {
  const keys = new Map<number, number>()
  const representatives = new Map<number, Representative>()
  const expressionKeys = new Map<number, number>()
  const expressionRepresentatives = new Map<number, number>()
  const expressionRolledKeys = new Map<number, readonly [number, number]>()
  /** Marks [from, to) as an expression key when it is an expression (not a bare reference) naming a zoned column. */
  const expressionKey = (from: number, to: number): boolean => {
    if (to - from < 2 || referenceEnd(toks, from) === to || toks.slice(from, to).some((t) => t.kind === "bind")) return false
    for (let k = from; k < to; k++) if (zonedReference(k) > 0) {
      expressionKeys.set(from, to)
      return true
    }
    return false
  }
  const signature = (from: number, to: number): string => toks.slice(from, to).map((t) => `${t.kind}:${t.value}`).join(" ")
  /** Occurrences of the expressions `grouped` (by signature, with their lengths) in [from, to), outside aggregates. */
  const markExpressionRepresentatives = (from: number, to: number, grouped: ReadonlyMap<string, number>, rolled: ReadonlyMap<string, readonly [number, number]>): void => {
    for (let k = from; k < to; k++) {
      const t = toks[k]!
      if (isOp(t, "(") && isKw(toks[k + 1], "SELECT", "WITH")) k = matchParen(toks, k)
      else if (t.kind === "ident" && AGGREGATES.has(t.value) && isOp(toks[k + 1], "(")) k = matchParen(toks, k + 1)
      else
        for (const length of new Set(grouped.values())) {
          const sig = signature(k, k + length)
          if (k + length > to || !grouped.has(sig)) continue
          expressionRepresentatives.set(k, k + length)
          const key = rolled.get(sig)
          if (key !== undefined) expressionRolledKeys.set(k, key)
        }
    }
  }
  const zonedReference = (i: number): number => {
    const end = referenceEnd(toks, i)
    return end > 0 && zoned(toks[end - 1]!) ? end : -1
  }
  /** The query block of the SELECT at `select`: its clause keywords at its own depth and its end. */
  const clausesOf = (select: number) => {
    const at: Array<{ word: string; start: number; items: number }> = []
    let k = select + 1
    for (; k < toks.length; k++) {
      const t = toks[k]!
      if (isOp(t, "(")) k = matchParen(toks, k)
      else if (isOp(t, ")") || isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) break
      else if (isKw(t, "FROM", "WHERE", "HAVING", "FETCH", "OFFSET", "FOR")) at.push({ word: t.value, start: k, items: k + 1 })
      else if (isKw(t, "GROUP", "ORDER") && isKw(toks[k + 1], "BY")) at.push({ word: t.value, start: k, items: k + 2 })
    }
    const range = (word: string): [number, number] | undefined => {
      const n = at.findIndex((c) => c.word === word)
      return n < 0 ? undefined : [at[n]!.items, at[n + 1]?.start ?? k]
    }
    return { range, from: at.find((c) => c.word === "FROM")?.start ?? k }
  }
  const markRepresentatives = (from: number, to: number, grouped: ReadonlyMap<string, readonly [number, number] | undefined>, selectList: boolean): void => {
    for (let k = from; k < to; k++) {
      const t = toks[k]!
      if (isOp(t, "(") && isKw(toks[k + 1], "SELECT", "WITH")) k = matchParen(toks, k)
      else if (t.kind === "ident" && AGGREGATES.has(t.value) && isOp(toks[k + 1], "(")) k = matchParen(toks, k + 1)
      else {
        const end = zonedReference(k)
        if (end < 0) continue
        if (grouped.has(toks[end - 1]!.value)) {
          const item = selectList && (isOp(toks[k - 1], ",") || isKw(toks[k - 1], "SELECT", "DISTINCT", "UNIQUE", "ALL")) && (end === to || isOp(toks[end], ","))
          const rolledKey = grouped.get(toks[end - 1]!.value)
          representatives.set(k, rolledKey === undefined ? { end, item } : { end, item, rolledKey })
        }
        k = end - 1
      }
    }
  }
  for (let i = 0; i < toks.length; i++) {
    if (isKw(toks[i], "COUNT") && isOp(toks[i + 1], "(") && isKw(toks[i + 2], "DISTINCT")) {
      const end = zonedReference(i + 3)
      if (end > 0 && isOp(toks[end], ")")) keys.set(i + 3, end)
      else expressionKey(i + 3, matchParen(toks, i + 1))
    }
    // window partitions: `PARTITION BY t, u ORDER BY ...` partitions by instant
    if (isKw(toks[i], "PARTITION") && isKw(toks[i + 1], "BY")) {
      for (let k = i + 2; k < toks.length && !isOp(toks[k], ")") && !isKw(toks[k], "ORDER", "ROWS", "RANGE", "GROUPS"); k++) {
        if (isOp(toks[k], "(")) k = matchParen(toks, k)
        const itemStart = k === i + 2 || isOp(toks[k - 1], ",")
        const end = zonedReference(k)
        if (end > 0 && itemStart && (isOp(toks[end], ",") || isOp(toks[end], ")") || isKw(toks[end], "ORDER", "ROWS", "RANGE", "GROUPS"))) keys.set(k, end)
        else if (itemStart) {
          // an expression item: up to the next comma, ORDER / ROWS / RANGE / GROUPS or the window's end
          let e = k
          while (e < toks.length && !isOp(toks[e], ",") && !isOp(toks[e], ")") && !isKw(toks[e], "ORDER", "ROWS", "RANGE", "GROUPS")) e = isOp(toks[e], "(") ? matchParen(toks, e) + 1 : e + 1
          if (expressionKey(k, e)) k = e - 1
        }
      }
    }
    if (!isKw(toks[i], "SELECT")) continue
    const { range, from } = clausesOf(i)
    const groupBy = range("GROUP")
    if (groupBy === undefined) continue
    /** Grouped column names, with their key's token range when grouped in ROLLUP / CUBE / GROUPING SETS. */
    const grouped = new Map<string, readonly [number, number] | undefined>()
    /** Grouped expressions over zoned columns, by signature, with their token counts. */
    const groupedExpressions = new Map<string, number>()
    /** Those grouped in ROLLUP / CUBE / GROUPING SETS, by signature, with their key's token range. */
    const rolledExpressions = new Map<string, readonly [number, number]>()
    for (let k = groupBy[0]; k < groupBy[1]; k++) {
      const sets = isKw(toks[k], "ROLLUP", "CUBE") && isOp(toks[k + 1], "(") ? k + 1 : isKw(toks[k], "GROUPING") && isKw(toks[k + 1], "SETS") && isOp(toks[k + 2], "(") ? k + 2 : -1
      if (sets > 0) {
        // each column or expression of the sets (in composite ones too) is a key; rows that roll it up show NULL for it
        const close = matchParen(toks, sets)
        for (let j = sets + 1; j < close; j++) {
          if (!(isOp(toks[j - 1], "(") || isOp(toks[j - 1], ","))) continue
          let itemEnd = j
          while (itemEnd < close && !isOp(toks[itemEnd], ",") && !isOp(toks[itemEnd], ")")) itemEnd = isOp(toks[itemEnd], "(") ? matchParen(toks, itemEnd) + 1 : itemEnd + 1
          const end = zonedReference(j)
          if (end !== itemEnd && !isOp(toks[j], "(") && expressionKey(j, itemEnd)) {
            groupedExpressions.set(signature(j, itemEnd), itemEnd - j)
            rolledExpressions.set(signature(j, itemEnd), [j, itemEnd])
            j = itemEnd - 1
            continue
          }
          if (end < 0 || !(isOp(toks[end], ")") || isOp(toks[end], ","))) continue
          keys.set(j, end)
          grouped.set(toks[end - 1]!.value, [j, end])
          j = end - 1
        }
        k = close
        continue
      }
      const itemStart = k === groupBy[0] || isOp(toks[k - 1], ",")
      let itemEnd = k
      while (itemStart && itemEnd < groupBy[1] && !isOp(toks[itemEnd], ",")) itemEnd = isOp(toks[itemEnd], "(") ? matchParen(toks, itemEnd) + 1 : itemEnd + 1
      if (itemStart && referenceEnd(toks, k) !== itemEnd && expressionKey(k, itemEnd)) {
        groupedExpressions.set(signature(k, itemEnd), itemEnd - k)
        k = itemEnd - 1
        continue
      }
      if (isOp(toks[k], "(")) k = matchParen(toks, k)
      const end = zonedReference(k)
      if (end < 0 || !(end === groupBy[1] || isOp(toks[end], ",")) || !(k === groupBy[0] || isOp(toks[k - 1], ","))) continue
      keys.set(k, end)
      if (!grouped.has(toks[end - 1]!.value)) grouped.set(toks[end - 1]!.value, undefined)
    }
    if (groupedExpressions.size > 0) {
      markExpressionRepresentatives(i + 1, from, groupedExpressions, rolledExpressions)
      for (const clause of [range("HAVING"), range("ORDER")]) if (clause !== undefined) markExpressionRepresentatives(clause[0], clause[1], groupedExpressions, rolledExpressions)
    }
    if (grouped.size === 0) continue
    // a query's items keep their column names (the names an outer query or the client sees), not the rows an INSERT
    // ... SELECT writes
    const depth = toks.slice(0, i).reduce((d, t) => d + (isOp(t, "(") ? 1 : isOp(t, ")") ? -1 : 0), 0)
    const inserted = isKw(toks[0], "INSERT") && depth === 0
    markRepresentatives(i + 1, from, grouped, !inserted)
    for (const clause of [range("HAVING"), range("ORDER")]) if (clause !== undefined) markRepresentatives(clause[0], clause[1], grouped, false)
  }
  return { keys, representatives, expressionKeys, expressionRepresentatives, expressionRolledKeys }
}

/** One operand of a chain of set operations after the first, with the operator that joins it on. */
export interface SetBranch {
  readonly op: "UNION" | "UNION ALL" | "INTERSECT" | "MINUS"
  readonly sql: string
}

/**
 * A chain of set operations whose result has TIMESTAMP WITH TIME ZONE columns, comparing those by instant: Oracle's
 * UNION, INTERSECT and MINUS compare rows as its comparisons do (values at one instant in different zones are equal),
 * while DuckDB's would compare the stored text. `keys` are the result columns' comparison keys (positional `#n`, a
 * zoned one through its instant key). Oracle evaluates the operators left to right ("The UNION [ALL], INTERSECT, MINUS
 * Operators", SQL Language Reference: all set operators have equal precedence); each step keeps one row per key,
 * the first branch's value of a zoned column, with its own zone, where several rows share an instant.
 */
export const instantSetOperations = (first: string, branches: ReadonlyArray<SetBranch>, keys: ReadonlyArray<string>): string => {
  const distinct = `DISTINCT ON (${keys.join(", ")})`
  let acc = first
  for (const { op, sql } of branches) {
    if (op === "UNION ALL") acc = `${acc} UNION ALL ${sql}`
    else if (op === "UNION") acc = `SELECT ${distinct} * FROM (${acc} UNION ALL ${sql})`
    else {
      // each left row tagged 0 and right row 1; a left row is kept when its key has (INTERSECT) or lacks (MINUS) a right row
      const tagged = `SELECT *, 0 AS "ora$side" FROM (${acc}) UNION ALL SELECT *, 1 FROM (${sql})`
      const sides = `SELECT *, max("ora$side") OVER (PARTITION BY ${keys.join(", ")}) AS "ora$sides" FROM (${tagged})`
      acc = `SELECT ${distinct} * EXCLUDE ("ora$side", "ora$sides") FROM (${sides}) WHERE "ora$side" = 0 AND "ora$sides" = ${op === "INTERSECT" ? 1 : 0}`
    }
  }
  return acc
}
