/**
 * A top-level query: its select list's Oracle column headings and described shape, ORDER BY of exact NUMBER and text
 * datetime items, DISTINCT and set operations by instant, `WHERE ROWNUM <= n` as LIMIT, and FOR UPDATE.
 */
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { constructedType } from "./named-types.ts"
import { encodeName, quoteDuck } from "./names.ts"
import { EXACT_RESULT } from "./number-sql.ts"
import { checkSetOperationLiterals } from "./set-operation-types.ts"
import { checkIncompleteExpressions } from "./incomplete-expressions.ts"
import { stringLiteralType } from "./literal-types.ts"
import { negativeScaleCast, negativeScaleExtreme, numberDescription } from "./number-describe.ts"
import { fromRefs, withBlockShapes } from "./subquery-shapes.ts"
import { timestampPrecisionAt } from "./fraction-precision.ts"
import { binaryKindOf, itemHeading, oracleName } from "./expression-names.ts"
import { binaryDoubleType, intervalDsType, intervalYmType, numberType, timestampType, type OraType } from "./types.ts"
import { identOut, NOT_ALIAS } from "./translate-literals.ts"
import { datetimeArgument, textDatetimeOfText } from "./translate-datetime-sql.ts"
import { exactSetOrder, setOperationByInstant } from "./translate-groups.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { QueryShape, RowLockClause, SelectItem, TextDatetimeKind } from "./translate-types.ts"

/** The column when tokens [from, to) are one (possibly qualified) text datetime column: described as the column is. */
const textDatetimeColumnAt = (toks: ReadonlyArray<Tok>, tr: TranslatorCore, from: number, to: number): { qualifier?: string; column: string } | undefined => {
  const last = toks[to - 1]
  if (last === undefined || (last.kind !== "ident" && last.kind !== "qident") || tr.textDatetimeAt(from, to) === undefined) return undefined
  return to - from === 3 ? { qualifier: oracleName(toks[from]!), column: oracleName(last) } : { column: oracleName(last) }
}

/** The column `[q.]name` that tokens [from, to) are, if they are one (not ROWID). */
const plainColumnAt = (toks: ReadonlyArray<Tok>, from: number, to: number): { qualifier?: string; column: string } | undefined => {
  const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident") && !(t.kind === "ident" && t.value === "ROWID")
  if (to - from === 1 && isName(toks[from]) && !NOT_ALIAS.has(toks[from]!.value)) return { column: oracleName(toks[from]!) }
  if (to - from === 3 && isName(toks[from]) && isOp(toks[from + 1], ".") && isName(toks[from + 2])) return { qualifier: oracleName(toks[from]!), column: oracleName(toks[from + 2]!) }
  return undefined
}

/**
 * The select-list items that are text datetime columns, by their position ("1") and output name, with their expression:
 * ORDER BY naming them orders by instant or wall clock (`ora_tstz_key`), not by their text.
 */
const datetimeOrderItems = (toks: ReadonlyArray<Tok>, tr: TranslatorCore, itemRanges: ReadonlyArray<[number, number]>) => {
  const out = new Map<string, { text: string; kind: TextDatetimeKind; output: string }>()
  for (const [k, [from, to]] of itemRanges.entries()) {
    const last = toks[to - 1]!
    const alias = isKw(toks[to - 2], "AS") ? 2 : 1
    const bare = tr.textDatetimeAt(from, to)
    const kind = bare ?? tr.textDatetimeAt(from, to - alias)
    if (kind === undefined) continue
    // a bare column is its own name; a grouped one renders as `value AS name` (datetime-groups.ts)
    const text = tr.range(from, bare !== undefined ? to : to - alias).replace(/ AS (?:"(?:[^"]|"")*"|[A-Za-z_][\w$#]*)$/, "")
    out.set(String(k + 1), { text, kind, output: identOut(last) }).set(last.value, { text, kind, output: identOut(last) })
  }
  return out
}

/**
 * The `DISTINCT ON` keys of a `SELECT DISTINCT` list with a TIMESTAMP WITH TIME ZONE item: every item by its output
 * name, a zoned one by its instant, so that values at one instant in different zones are one row, as Oracle compares
 * them (datetime-groups.ts); undefined when no item is zoned or an item is `*`.
 */
const distinctByInstant = (tr: TranslatorCore, itemRanges: ReadonlyArray<[number, number]>, pieces: ReadonlyArray<string>): string | undefined => {
  const keys: Array<string> = []
  let zoned = false
  for (const [k, [from, to]] of itemRanges.entries()) {
    const piece = pieces[k] ?? ""
    const name = /("(?:[^"]|"")*"|[A-Za-z_][\w$#]*)\s*$/.exec(piece)?.[1]
    if (name === undefined || /\*\s*$/.test(piece)) return undefined
    const kind = tr.textDatetimeAt(from, to) ?? tr.textDatetimeAt(from, to - 1) ?? tr.textDatetimeAt(from, to - 2) ?? textDatetimeOfText(piece)
    zoned ||= kind === "zoned"
    keys.push(kind === "zoned" ? `ora_tstz_key(${datetimeArgument(name, "zoned")})` : name)
  }
  return zoned ? keys.join(", ") : undefined
}

/**
 * The undescribed row id columns a query selects last for its LOB locators: `true` the single FROM table's, a list
 * one per joined table whose LOB columns are read (the first named "ora$lob_rowid" as the single table's).
 */
const lobRowidColumns = (withRowid: boolean | ReadonlyArray<string>): Array<string> => {
  const exprs = withRowid === true ? ["rowid"] : withRowid === false ? [] : withRowid
  return exprs.map((e, k) => `${e} AS "ora$lob_rowid${k === 0 ? "" : `_${k}`}"`)
}

/**
 * Translates a top-level query: adds Oracle column headings as aliases, rewrites a trailing
 * `WHERE ... ROWNUM <= n` into LIMIT, and reports the select-list shape.
 */
export const translateQuery = (
  toks: ReadonlyArray<Tok>,
  tr: TranslatorCore,
  /**
   * Adds row ids as last, undescribed columns (LOB locators that write back): `true` the row id of the single FROM
   * table, a list the DuckDB row id expressions of joined tables ({@link lobRowidColumns}).
   */
  withRowid: boolean | ReadonlyArray<string> = false,
  /** Further undescribed columns selected after the items (`expr AS name`: the row ids SKIP LOCKED over a join filters on). */
  extra: ReadonlyArray<string> = []
): { sql: string; shape: QueryShape } => {
  checkSetOperationLiterals(toks)
  checkIncompleteExpressions(toks)
  const rowids = lobRowidColumns(withRowid)
  // locate the top-level SELECT that produces the result columns (skip WITH ... AS (...) blocks)
  let selectAt = 0
  if (isKw(toks[0], "WITH")) {
    let depth = 0
    for (let k = 0; k < toks.length; k++) {
      if (isOp(toks[k], "(")) depth++
      else if (isOp(toks[k], ")")) depth--
      else if (depth === 0 && isKw(toks[k], "SELECT")) {
        selectAt = k
        break
      }
    }
  }
  let listStart = selectAt + 1
  if (isKw(toks[listStart], "DISTINCT", "UNIQUE", "ALL")) listStart++
  let fromAt = -1
  let depth = 0
  for (let k = listStart; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "FROM")) {
      fromAt = k
      break
    }
  }
  if (fromAt < 0) throw new OraError(923, "FROM keyword not found where expected")
  // split the select list
  const items: Array<SelectItem> = []
  const pieces: Array<string> = []
  /** Exact NUMBER columns of the select list by position ("1") and name, with their column text. */
  const exactOrder = new Map<string, string>()
  /** Exact NUMBER columns of the select list by position and name, with their output column name (set operations). */
  const exactOutputs = new Map<string, string>()
  let start = listStart
  depth = 0
  /** `INTERVAL '...' YEAR[(p)] [TO MONTH]` or `... MONTH`, optionally aliased: DuckDB has one INTERVAL type. */
  const yearMonthLiteral = (part: ReadonlyArray<Tok>): OraType | undefined => {
    if (!isKw(part[0], "INTERVAL") || part[1]?.kind !== "str" || !isKw(part[2], "YEAR", "MONTH")) return undefined
    let k = 3
    let lead = 2
    if (isOp(part[k], "(") && part[k + 1]?.kind === "num" && isOp(part[k + 2], ")")) {
      lead = Number(part[k + 1]!.value)
      k += 3
    }
    if (isKw(part[k], "TO") && isKw(part[k + 1], "MONTH")) k += 2
    if (isKw(part[k], "AS")) k++
    if (k < part.length - 1 || (k === part.length - 1 && part[k]!.kind !== "ident" && part[k]!.kind !== "qident")) return undefined
    return intervalYmType(lead)
  }
  /** `INTERVAL '...' DAY|HOUR|MINUTE|SECOND ...` with nanosecond digits as the whole item: DuckDB holds it as DECIMAL seconds. */
  const dayTimeNanosLiteral = (part: ReadonlyArray<Tok>): OraType | undefined => {
    if (!isKw(part[0], "INTERVAL") || part[1]?.kind !== "str" || !isKw(part[2], "DAY", "HOUR", "MINUTE", "SECOND")) return undefined
    const fraction = /\.(\d+)\s*$/.exec(part[1].value)?.[1] ?? ""
    if (!/[1-9]/.test(fraction.slice(6, 9))) return undefined
    let k = 3
    while (k < part.length && (isKw(part[k], "DAY", "HOUR", "MINUTE", "SECOND", "TO") || part[k]!.kind === "num" || isOp(part[k], "(") || isOp(part[k], ")") || isOp(part[k], ","))) k++
    if (isKw(part[k], "AS")) k++
    if (k < part.length - 1 || (k === part.length - 1 && part[k]!.kind !== "ident" && part[k]!.kind !== "qident")) return undefined
    return intervalDsType(9, 9)
  }
  /**
   * CURRENT_TIMESTAMP or SYSTIMESTAMP, optionally aliased, as the whole item: all its values are in one known zone. A
   * zoned TIMESTAMP literal: TIMESTAMP(9) WITH TIME ZONE, as FF prints it (fraction-precision.ts).
   */
  const zonedLiteral = (part: ReadonlyArray<Tok>): OraType | undefined => {
    if (isKw(part[0], "CURRENT_TIMESTAMP", "SYSTIMESTAMP")) {
      // CURRENT_TIMESTAMP is in the session time zone, SYSTIMESTAMP in the database's
      const zone = tr.zoneOf(part[0]!.value as "CURRENT_TIMESTAMP" | "SYSTIMESTAMP")
      const k = isKw(part[1], "AS") ? 2 : 1
      const whole = part.length === k || (part.length === k + 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
      return whole && zone !== undefined ? { ...timestampType(6, "tz"), zone } : undefined
    }
    if (!isKw(part[0], "TIMESTAMP") || part[1]?.kind !== "str" || tr.textDatetimeAt(start, start + 2) !== "zoned") return undefined
    const k = isKw(part[2], "AS") ? 3 : 2
    const whole = part.length === k || (part.length === k + 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
    return whole ? timestampType(9, "tz") : undefined
  }
  /** `COUNT|SUM|AVG(...) [OVER (...)] [[AS] alias]` as the whole item. */
  const isAggregate = (part: ReadonlyArray<Tok>): boolean => {
    if (!isKw(part[0], "COUNT", "SUM", "AVG") || !isOp(part[1], "(")) return false
    let k = matchParen(part, 1) + 1
    if (isKw(part[k], "OVER") && isOp(part[k + 1], "(")) k = matchParen(part, k + 1) + 1
    if (isKw(part[k], "AS")) k++
    return k === part.length || (k === part.length - 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
  }
  /** True when `part` ends at `k` or holds only an alias (`[AS] name`) from there. */
  const aliasOnlyFrom = (part: ReadonlyArray<Tok>, k: number): boolean => {
    if (isKw(part[k], "AS")) k++
    return k === part.length || (k === part.length - 1 && (part[k]!.kind === "ident" || part[k]!.kind === "qident"))
  }
  /** `[-]BINARY_DOUBLE_NAN|INFINITY` or `CAST(... AS BINARY_DOUBLE)` as the whole item: DuckDB's DOUBLE alone reads as NUMBER. */
  const binaryDouble = (part: ReadonlyArray<Tok>): boolean => {
    let k = isOp(part[0], "-") ? 1 : 0
    if (isKw(part[k], "BINARY_DOUBLE_NAN", "BINARY_DOUBLE_INFINITY")) k++
    else if (isKw(part[k], "CAST") && isOp(part[k + 1], "(")) {
      const close = matchParen(part, k + 1)
      if (!isKw(part[close - 1], "BINARY_DOUBLE") || !isKw(part[close - 2], "AS")) return false
      k = close + 1
    } else return false
    return aliasOnlyFrom(part, k)
  }
  /**
   * A signed or unsigned NUMBER literal (`1`, `1.5`, `-2e3`; not `1.5d` / `1.5f`) as the whole item: a constant, which
   * Oracle describes as NUMBER with precision 0 and scale -127 whatever its digits (DuckDB's DECIMAL(2,1) of `1.5`
   * would say NUMBER(2,1)); see results.ts, "expr", for the sources.
   */
  const numberLiteral = (part: ReadonlyArray<Tok>): boolean => {
    const k = isOp(part[0], "-") || isOp(part[0], "+") ? 1 : 0
    const t = part[k]
    return t?.kind === "num" && !/[fFdD]$/.test(t.text) && aliasOnlyFrom(part, k + 1)
  }
  /**
   * p of `CAST(x AS TIMESTAMP[(p)]) [[AS] alias]` as the whole item: described as TIMESTAMP(p), as the CAST's type is;
   * 9 of a TIMESTAMP literal or TO_TIMESTAMP(...), whose FF prints nine digits (fraction-precision.ts).
   */
  const castPrecision = (part: ReadonlyArray<Tok>): number | undefined => {
    if (isKw(part[0], "TIMESTAMP") && part[1]?.kind === "str") return aliasOnlyFrom(part, 2) ? timestampPrecisionAt(part, 0, 2) : undefined
    if (!isKw(part[0], "CAST", "TO_TIMESTAMP") || !isOp(part[1], "(")) return undefined
    const end = matchParen(part, 1) + 1
    return aliasOnlyFrom(part, end) ? timestampPrecisionAt(part, 0, end) : undefined
  }
  /** `:bind [[AS] alias]` as the whole item: the parameter number it was rendered as. */
  const bindParam = (part: ReadonlyArray<Tok>, text: string): number | undefined => {
    if (part[0]?.kind !== "bind") return undefined
    let k = 1
    if (isKw(part[k], "AS")) k++
    if (k < part.length - 1 || (k === part.length - 1 && part[k]!.kind !== "ident" && part[k]!.kind !== "qident")) return undefined
    const m = /^\s*\$(\d+)/.exec(text)
    return m === null ? undefined : Number(m[1])
  }
  const exprItem = (part: ReadonlyArray<Tok>, ym: OraType | undefined, text: string): SelectItem => {
    const param = bindParam(part, text)
    return param !== undefined ? { kind: "bind", param } : valueItem(part, ym, text)
  }
  const valueItem = (part: ReadonlyArray<Tok>, ym: OraType | undefined, text: string): SelectItem => {
    const constructed = constructedType(part)
    return constructed !== undefined ? { kind: "typed", type: constructed } : literalItem(part, ym, text)
  }
  const literalItem = (part: ReadonlyArray<Tok>, ym: OraType | undefined, text: string): SelectItem => {
    if (ym !== undefined) return { kind: "typed", type: ym }
    if (binaryDouble(part)) return { kind: "typed", type: binaryDoubleType }
    const localZone = aliasOnlyFrom(part, isOp(part[1], "(") ? matchParen(part, 1) + 1 : part.length) ? tr.localZoneCastAt(start, start + (isOp(part[1], "(") ? matchParen(part, 1) + 1 : 0)) : undefined
    if (localZone !== undefined) return { kind: "typed", type: localZone }
    const fsp = castPrecision(part)
    if (fsp !== undefined) return { kind: "typed", type: timestampType(fsp) }
    if (numberLiteral(part)) return { kind: "typed", type: numberType() }
    const scaled = negativeScaleCast(part) ?? negativeScaleExtreme(part, tr.ctx.negativeScaleColumns)
    if (scaled !== undefined) return { kind: "typed", type: scaled }
    const literal = toks.some((t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) ? undefined : stringLiteralType(part)
    if (literal !== undefined) return { kind: "typed", type: literal }
    // the numeric type of the operands (results.ts describes the item with it when DuckDB's result is a float)
    const binary = binaryKindOf(part, 0, part.length, tr.binaryColumns)
    const params = [...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]))
    const typing = { ...(binary !== undefined ? { binary } : {}), ...(params.length > 0 ? { params } : {}) }
    if (isAggregate(part)) return { kind: "aggregate", ...typing }
    return { kind: "expr", ...typing, number: numberDescription(part) }
  }
  /** The DuckDB row id expression of an aliased ROWID item (`ROWID [AS] a`, `q.ROWID [AS] a`), or undefined. */
  const aliasedRowid = (part: ReadonlyArray<Tok>): string | undefined => {
    const expression = isKw(part[part.length - 2], "AS") ? part.slice(0, -2) : part.slice(0, -1)
    const isRowid = (t: Tok | undefined) => t?.kind === "ident" && t.value === "ROWID"
    if (expression.length === 1 && isRowid(expression[0])) return "rowid"
    if (expression.length === 3 && isOp(expression[1], ".") && isRowid(expression[2])) return `${identOut(expression[0]!)}.rowid`
    return undefined
  }
  /** Token ranges of the select-list items. */
  const itemRanges: Array<[number, number]> = []
  const flush = (end: number) => {
    itemRanges.push([start, end])
    const part = toks.slice(start, end)
    const ym = yearMonthLiteral(part) ?? dayTimeNanosLiteral(part) ?? zonedLiteral(part)
    if (part.length === 0) throw ora.missingExpression()
    const last = part[part.length - 1]!
    const prev = part[part.length - 2]
    const text = tr.range(start, end)
    if (part.length === 1 && isOp(last, "*")) {
      items.push({ kind: "star" })
      pieces.push(text)
    } else if (part.length === 3 && isOp(part[1], ".") && isOp(last, "*")) {
      items.push({ kind: "star", qualifier: oracleName(part[0]!) })
      pieces.push(text)
    } else if (part.length === 1 && (last.kind === "ident" || last.kind === "qident") && !NOT_ALIAS.has(last.value)) {
      items.push(last.kind === "ident" && last.value === "ROWID" ? { kind: "rowid" } : { kind: "col", column: oracleName(last) })
      if (tr.exactColumnAt(start, end) !== undefined) {
        exactOrder.set(oracleName(last), text).set(String(items.length), text)
        exactOutputs.set(oracleName(last), identOut(last)).set(String(items.length), identOut(last))
      }
      pieces.push(last.kind === "ident" && last.value === "ROWID" ? `rowid AS "ROWID"` : text)
    } else if (part.length === 3 && isOp(part[1], ".") && isKw(last, "NEXTVAL", "CURRVAL")) {
      items.push({ kind: "expr" })
      pieces.push(`${text} AS ${quoteDuck(encodeName(last.value))}`)
    } else if (part.length === 3 && isOp(part[1], ".") && (last.kind === "ident" || last.kind === "qident")) {
      items.push(last.kind === "ident" && last.value === "ROWID" ? { kind: "rowid" } : { kind: "col", qualifier: oracleName(part[0]!), column: oracleName(last) })
      if (tr.exactColumnAt(start, end) !== undefined) exactOutputs.set(oracleName(last), identOut(last)).set(String(items.length), identOut(last))
      pieces.push(last.kind === "ident" && last.value === "ROWID" ? `${identOut(part[0]!)}.rowid AS "ROWID"` : text)
    } else if (
      part.length >= 2 &&
      (last.kind === "ident" || last.kind === "qident") &&
      !NOT_ALIAS.has(last.value) &&
      prev !== undefined &&
      !isOp(prev, ".") &&
      (prev.kind !== "op" || isOp(prev, ")")) || (part.length >= 2 && isKw(prev, "AS") && (last.kind === "ident" || last.kind === "qident"))
    ) {
      // explicit alias
      const rowid = aliasedRowid(part)
      if (rowid !== undefined) {
        // `ROWID r` / `t.ROWID AS r`: still the pseudocolumn, whose values "have the data type ROWID" (Oracle SQL
        // Language Reference, "ROWID Pseudocolumn"), described as type 11 like the bare item
        items.push({ kind: "rowid" })
        pieces.push(`${rowid} AS ${identOut(last)}`)
      } else {
        const columnEnd = end - (isKw(prev, "AS") ? 2 : 1)
        const aliased = tr.exactColumnAt(start, columnEnd) ?? textDatetimeColumnAt(toks, tr, start, columnEnd)
        // a column under an alias keeps its declared type (a view's column of `c AS x` is CHAR(5) for a CHAR(5) c)
        const column = aliased ?? plainColumnAt(toks, start, columnEnd)
        items.push(column !== undefined ? { kind: "col", ...column } : exprItem(part, ym, text))
        const expression = tr.range(start, columnEnd)
        if (aliased !== undefined || EXACT_RESULT.test(expression)) {
          exactOrder.set(oracleName(last), expression).set(String(items.length), expression)
          exactOutputs.set(oracleName(last), identOut(last)).set(String(items.length), identOut(last))
        }
        pieces.push(text)
      }
    } else {
      items.push(exprItem(part, ym, text))
      // no heading: an item of a subquery inside a rewritten call, whose tokens give their heading to the call's
      const heading = itemHeading(part)
      pieces.push(heading === "" ? text : `${text} AS ${quoteDuck(encodeName(heading))}`)
      if (EXACT_RESULT.test(text)) {
        exactOrder.set(String(items.length), text)
        exactOutputs.set(String(items.length), quoteDuck(encodeName(heading)))
      }
    }
  }
  for (let k = listStart; k < fromAt; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isOp(toks[k], ",")) {
      flush(k)
      start = k + 1
    }
  }
  flush(fromAt)
  // ORDER BY a position or alias of an exact NUMBER column orders by its number (not with set operations, whose
  // ORDER BY names the combined result's columns)
  const setOperation = toks.some((t, k) => k > fromAt && isKw(t, "UNION", "MINUS", "INTERSECT", "EXCEPT"))
  if (!setOperation) tr.orderByExactItems(exactOrder)
  const datetimeItems = datetimeOrderItems(toks, tr, itemRanges)
  if (!setOperation) tr.orderByDatetimeItems(datetimeItems)
  // FROM list: table references and subqueries with their shapes (subquery-shapes.ts)
  const from = fromRefs(toks, fromAt + 1, toks.length, tr.binaryColumns, withBlockShapes(toks, tr.binaryColumns))
  // FOR UPDATE [OF ...] [NOWAIT | WAIT n | SKIP LOCKED]: the session locks the selected rows (sqlsession.ts)
  let end = toks.length
  let lockWait: RowLockClause["wait"] | null = null
  const lockOf: Array<{ qualifier?: string; column: string }> = []
  depth = 0
  for (let j = fromAt; j < toks.length; j++) {
    if (isOp(toks[j], "(")) depth++
    else if (isOp(toks[j], ")")) depth--
    else if (depth === 0 && isKw(toks[j], "FOR") && isKw(toks[j + 1], "UPDATE")) {
      end = j
      const nowait = toks.findIndex((x, n) => n > j && isKw(x, "NOWAIT"))
      const wait = toks.findIndex((x, n) => n > j && isKw(x, "WAIT"))
      const skip = toks.findIndex((x, n) => n > j && isKw(x, "SKIP"))
      lockWait = nowait > 0 ? "nowait" : skip > 0 ? "skip" : wait > 0 && toks[wait + 1]?.kind === "num" ? Number(toks[wait + 1]!.value) : undefined
      if (isKw(toks[j + 2], "OF"))
        for (let m = j + 3; m < toks.length && !isKw(toks[m], "NOWAIT", "WAIT", "SKIP"); m++) {
          const t = toks[m]!
          if ((t.kind !== "ident" && t.kind !== "qident") || isOp(toks[m + 1], ".")) continue
          const qualified = isOp(toks[m - 1], ".") && (toks[m - 2]?.kind === "ident" || toks[m - 2]?.kind === "qident")
          lockOf.push({ ...(qualified ? { qualifier: oracleName(toks[m - 2]!) } : {}), column: oracleName(t) })
        }
      break
    }
  }
  // ROWNUM limit at top level: WHERE [..AND] ROWNUM <(=) n [AND ..]
  let limit: string | undefined
  const rest: Array<[number, number]> = []
  let whereAt = -1
  depth = 0
  for (let j = fromAt; j < end; j++) {
    if (isOp(toks[j], "(")) depth++
    else if (isOp(toks[j], ")")) depth--
    else if (depth === 0 && isKw(toks[j], "WHERE")) whereAt = j
  }
  let body: string | undefined
  if (whereAt >= 0) {
    depth = 0
    for (let j = whereAt + 1; j < end; j++) {
      if (isOp(toks[j], "(")) depth++
      else if (isOp(toks[j], ")")) depth--
      else if (depth === 0 && isKw(toks[j], "ROWNUM")) {
        const op = toks[j + 1]
        // ROWNUM is a NUMBER: a text compared with it is converted to one, ORA-01722 when it is not a number
        const text = toks[j + 2]?.kind === "str" ? toks[j + 2]!.value.trim() : undefined
        if (text !== undefined && !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) throw ora.invalidNumber()
        const n = text === undefined ? toks[j + 2] : { ...toks[j + 2]!, kind: "num" as const, value: String(Number(text)), text: String(Number(text)) }
        if (op === undefined || n === undefined || (n.kind !== "num" && n.kind !== "bind")) throw ora.unimplemented("ROWNUM predicate")
        const nText = text === undefined ? tr.range(j + 2, j + 3) : n.text
        if (isOp(op, "<=")) limit = nText
        else if (isOp(op, "<")) limit = `(${nText}) - 1`
        else if (isOp(op, "=") && n.kind === "num" && n.value === "1") limit = "1"
        else throw ora.unimplemented("ROWNUM predicate")
        // remove "ROWNUM op n" together with an adjacent AND
        let from0 = j
        let to0 = j + 3
        if (isKw(toks[j - 1], "AND")) from0 = j - 1
        else if (isKw(toks[j + 3], "AND")) to0 = j + 4
        rest.push([from0, to0])
        break
      }
    }
    if (rest.length > 0) {
      const [a, b] = rest[0]!
      let left = tr.range(fromAt, a)
      const right = tr.range(b, end)
      if (a === whereAt + 1 && (b >= end || !isKw(toks[b - 1], "AND"))) {
        // the predicate was the whole WHERE clause
        const whereOnly = b >= end || isKw(toks[b], "GROUP", "ORDER", "UNION")
        if (whereOnly) left = tr.range(fromAt, whereAt)
      }
      body = `${left} ${right}`
    }
  }
  const distinctOn = isKw(toks[listStart - 1], "DISTINCT", "UNIQUE") ? distinctByInstant(tr, itemRanges, pieces) : undefined
  const head = distinctOn === undefined ? tr.range(0, listStart) : `${tr.range(0, listStart - 1)} DISTINCT ON (${distinctOn})`
  const instantSet = setOperation && body === undefined && lockWait === null && rowids.length === 0 ? setOperationByInstant(toks, tr, itemRanges, pieces, fromAt, end, (at) => exactSetOrder(toks, tr, at, end, exactOutputs, datetimeItems)?.order) : undefined
  if (instantSet !== undefined) return { sql: instantSet(`${head} ${pieces.join(", ")}`), shape: { items, from } }
  const setOrder = setOperation && body === undefined && lockWait === null && rowids.length === 0 ? exactSetOrder(toks, tr, fromAt, end, exactOutputs, datetimeItems) : undefined
  if (setOrder !== undefined) return { sql: `SELECT * FROM (${head} ${pieces.join(", ")} ${setOrder.query}) ${setOrder.order}`, shape: { items, from } }
  body ??= tr.range(fromAt, end)
  let sql = `${head} ${[...pieces, ...extra, ...rowids].join(", ")} ${body}`
  if (limit !== undefined) sql = `${sql} LIMIT ${limit}`
  const lock = lockWait === null ? undefined : { wait: lockWait, of: lockOf, source: tr.range(fromAt, end) }
  return { sql, shape: { items, from, ...(lock !== undefined ? { lock } : {}) } }
}
