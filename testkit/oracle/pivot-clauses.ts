/**
 * Oracle's PIVOT and UNPIVOT clauses of a FROM item (SQL Language Reference, SELECT, pivot_clause / unpivot_clause)
 * rewritten, before translation, into the subquery Oracle itself reads them as: PIVOT a conditional aggregation
 * (`agg(CASE WHEN col = value THEN expr END)` per IN value and aggregate) grouped by every source column that neither
 * an aggregate nor the FOR clause names; UNPIVOT one UNION ALL branch per IN item. The columns are those of the source
 * (a table, view, WITH block or parenthesised subquery), so that they are described with their declared types; a
 * source whose columns are not known here is left to the engine as written.
 *
 * Column names as Oracle gives them: an IN value's alias, else the value's text (`'A'` with its quotes, `10`),
 * followed by `_` and the aggregate's alias when it has one (so two aggregates without alias name the same columns:
 * ORA-00918). An UNPIVOT name column holds the IN item's literal, else the column's name (the text AMT), as VARCHAR2;
 * EXCLUDE NULLS (the default) drops the rows whose unpivoted columns are all null. **Unconfirmed:** the name of an
 * unaliased multi-column item, here its values (PIVOT) or column names (UNPIVOT) joined by `_`. Oracle's own expansion
 * of a PIVOT into such CASE aggregates (COUNT counting the matching rows, 0 for none) is shown on AskTOM
 * (https://asktom.oracle.com/pls/asktom/f?p=100:11:0::::P11_QUESTION_ID:9534472200346974607); the naming follows
 * "pivot and unpivot queries in 11g" (http://www.oracle-developer.net/display.php?id=506). PIVOT XML is not done
 * (ORA-03001).
 */
import { quoteDuck } from "./names.ts"
import { ora, OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { withBlockColumns } from "./insert-select-stars.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, openingParen, significant, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import type { TableMeta } from "./catalog.ts"
import type { TableLookup } from "./query-blocks.ts"
import type { OraType } from "./types.ts"

/** ORA-00918 for a name the rewritten FROM item would give two columns. */
const ambiguous = () => new OraError(918, "column ambiguously defined")
const missingKeyword = () => new OraError(905, "missing keyword")
const missingRightParen = () => new OraError(907, "missing right parenthesis")
const sameDatatype = () => new OraError(1790, "expression must have same datatype as corresponding expression")
/** ORA-56901: a pivot or unpivot value must be a constant. */
const nonConstant = () => new OraError(56901, "non-constant expression is not allowed for pivot|unpivot values")
/** Words a constant IN value may hold besides literals (datetime / interval literals, NULL). */
const CONSTANT_WORDS = new Set(["DATE", "TIMESTAMP", "INTERVAL", "NULL", "TO", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "WITH", "TIME", "ZONE", "LOCAL"])

/** A piece of the generated text: SQL text, or source tokens kept as they are (their binds keep their numbers). */
type Piece = string | ReadonlyArray<Tok>

/** A FROM item's column names, each with its declared type where a table of the statement declares it. */
type SourceColumns = ReadonlyArray<{ readonly name: string; readonly type: OraType | undefined }>

/** The FROM item before the clause at `at`: its first index and its columns (undefined when not known). */
const sourceBefore = (toks: ReadonlyArray<Tok>, at: number, lookup: TableLookup): { start: number; columns: SourceColumns | undefined } | undefined => {
  const last = toks[at - 1]
  // a column of a subquery or WITH block: typed as a column of that name of a table the statement reads
  const typed = (names: ReadonlyArray<string> | undefined): SourceColumns | undefined => {
    if (names === undefined) return undefined
    const read = toks.flatMap((t, k) => (isName(t) && !isOp(toks[k - 1], ".") ? (lookup(undefined, oracleName(t))?.columns ?? []) : []))
    return names.map((name) => ({ name, type: read.find((c) => c.name === name)?.type }))
  }
  const declared = (meta: TableMeta | undefined): SourceColumns | undefined => meta?.columns.map((c) => ({ name: c.name, type: c.type }))
  if (isOp(last, ")")) {
    const open = openingParen(toks, at - 1)
    if (open < 0 || !isKw(toks[open + 1], "SELECT", "WITH")) return undefined
    return { start: open, columns: typed(queryColumns(toks, open, lookup)) }
  }
  if (!isName(last)) return undefined
  if (isOp(toks[at - 2], ".") && isName(toks[at - 3])) return { start: at - 3, columns: declared(lookup(oracleName(toks[at - 3]!), oracleName(last))) }
  const block = withBlockColumns(toks, last.value, lookup)
  return { start: at - 1, columns: block !== undefined ? typed(block) : declared(lookup(undefined, oracleName(last))) }
}

/** The column names of the parenthesised query opening at `open` (its select list's names, stars expanded). */
const queryColumns = (toks: ReadonlyArray<Tok>, open: number, lookup: TableLookup): ReadonlyArray<string> | undefined => {
  const probe = [...tokenize("WITH ORA$PIVOT_SOURCE AS "), ...toks.slice(open, matchParen(toks, open) + 1)]
  return withBlockColumns(significant(probe), "ORA$PIVOT_SOURCE", lookup)
}

/** `names` (a single name or a parenthesised list) from `at`: the names and the index after them. */
const nameList = (toks: ReadonlyArray<Tok>, at: number): { names: Array<Tok>; next: number } => {
  if (isName(toks[at])) return { names: [toks[at]!], next: at + 1 }
  if (!isOp(toks[at], "(")) throw ora.missingExpression()
  const close = matchParen(toks, at)
  const names = splitTopLevel(toks.slice(at + 1, close)).map((part) => {
    if (part.length !== 1 || !isName(part[0])) throw ora.missingExpression()
    return part[0]
  })
  return { names, next: close + 1 }
}

/** An IN item: its value(s) or column(s), and its alias tokens (after an optional AS). */
const splitAlias = (item: ReadonlyArray<Tok>): { body: ReadonlyArray<Tok>; alias: ReadonlyArray<Tok> | undefined } => {
  const as = item.findIndex((t, k) => isKw(t, "AS") && k > 0)
  if (as > 0) return { body: item.slice(0, as), alias: item.slice(as + 1) }
  const last = item[item.length - 1]
  // `value alias` without AS: a name after a literal or a closing parenthesis
  if (item.length > 1 && isName(last) && !CONSTANT_WORDS.has(last.value)) return { body: item.slice(0, -1), alias: [last] }
  return { body: item, alias: undefined }
}

/** Checks that a pivot value is a constant (ORA-56901 for a column, bind or subquery). */
const checkConstant = (value: ReadonlyArray<Tok>): void => {
  value.forEach((t, k) => {
    if (t.kind === "bind" || t.kind === "qident" || (t.kind === "ident" && !CONSTANT_WORDS.has(t.value) && !isOp(value[k + 1], "(")) || isKw(t, "SELECT")) throw nonConstant()
  })
}

/** The text of a value as Oracle writes it into a column name (`'A'`, `10`, `-1`). */
const valueHeading = (value: ReadonlyArray<Tok>): string => value.map((t) => t.text).join("")

/** The values of an IN item: one, or those of a parenthesised list (multi-column FOR). */
const tupleOf = (body: ReadonlyArray<Tok>, width: number): Array<ReadonlyArray<Tok>> => {
  if (width === 1) return [body]
  if (!isOp(body[0], "(") || matchParen(body, 0) !== body.length - 1) throw ora.missingExpression()
  const values = splitTopLevel(body.slice(1, -1))
  if (values.length !== width) throw new OraError(values.length > width ? 913 : 947, values.length > width ? "too many values" : "not enough values")
  return values
}

/** The columns a FROM item's rewrite gives, ORA-00918 when a name repeats. */
const checkUnique = (names: ReadonlyArray<string>): void => {
  if (new Set(names).size !== names.length) throw ambiguous()
}

/** The names of `columns` an expression references. */
const referenced = (range: ReadonlyArray<Tok>, columns: ReadonlyArray<string>): Set<string> =>
  new Set(range.flatMap((t, k) => (isName(t) && !isOp(range[k + 1], "(") && !isOp(range[k + 1], ".") && columns.includes(oracleName(t)) ? [oracleName(t)] : [])))

/** The PIVOT clause `(...)` opening at `open` over a source with `columns`: the subquery it stands for. */
const pivotQuery = (toks: ReadonlyArray<Tok>, open: number, close: number, source: ReadonlyArray<Tok>, sourceColumns: SourceColumns): Array<Piece> => {
  const columns = sourceColumns.map((c) => c.name)
  const body = toks.slice(open + 1, close)
  const forAt = findTopLevel(body, 0, body.length, (t) => isKw(t, "FOR"))
  if (forAt <= 0) throw missingKeyword()
  const aggregates = splitTopLevel(body.slice(0, forAt)).map((agg) => {
    if (!isName(agg[0]) || !isOp(agg[1], "(")) throw new OraError(56902, "expect aggregate function inside pivot operation")
    const argsClose = matchParen(agg, 1)
    // LISTAGG's / an ordered-set aggregate's WITHIN GROUP (ORDER BY ...) stays after the call
    const within = isKw(agg[argsClose + 1], "WITHIN") && isKw(agg[argsClose + 2], "GROUP") && isOp(agg[argsClose + 3], "(") ? matchParen(agg, argsClose + 3) : argsClose
    const rest = agg.slice(within + 1)
    const alias = isKw(rest[0], "AS") ? rest[1] : rest[0]
    if (rest.length > (isKw(rest[0], "AS") ? 2 : 1) || (alias !== undefined && !isName(alias))) throw missingRightParen()
    return { fn: agg[0], args: agg.slice(2, argsClose), within: agg.slice(argsClose + 1, within + 1), alias: alias === undefined ? undefined : oracleName(alias) }
  })
  const { names: forColumns, next } = nameList(body, forAt + 1)
  if (!isKw(body[next], "IN") || !isOp(body[next + 1], "(") || matchParen(body, next + 1) !== body.length - 1) throw missingKeyword()
  const inList = body.slice(next + 2, -1)
  if (isKw(inList[0], "SELECT", "ANY")) throw ora.unimplemented("PIVOT with a subquery or ANY in its IN clause (PIVOT XML only)")
  const forNames = forColumns.map(oracleName)
  const used = new Set([...forNames, ...aggregates.flatMap((a) => [...referenced(a.args, columns)])])
  const grouping = columns.filter((c) => !used.has(c))
  const items: Array<Piece> = []
  const names: Array<string> = [...grouping]
  for (const item of splitTopLevel(inList)) {
    const { body: value, alias } = splitAlias(item)
    if (value.length === 0) throw ora.missingExpression()
    const values = tupleOf(value, forColumns.length)
    values.forEach(checkConstant)
    const heading = alias !== undefined ? oracleName(alias[0]!) : values.map(valueHeading).join("_")
    for (const agg of aggregates) {
      const name = agg.alias === undefined ? heading : `${heading}_${agg.alias}`
      names.push(name)
      const condition: Array<Piece> = []
      forColumns.forEach((c, n) => condition.push(n === 0 ? "" : " AND ", [c], " = (", values[n]!, ")"))
      const distinct = isKw(agg.args[0], "DISTINCT", "ALL") ? [agg.args[0]!] : []
      const [first = [], ...others] = splitTopLevel(agg.args.slice(distinct.length))
      const measure: Piece = first.length === 1 && isOp(first[0], "*") ? "1" : first
      items.push(", ", [agg.fn], "(", distinct, " CASE WHEN ", ...condition, " THEN ", measure, " END", ...others.flatMap((o) => [", ", o]), ") ", agg.within, ` AS ${quoteDuck(name)}`)
    }
  }
  checkUnique(names)
  const group = grouping.map(quoteDuck).join(", ")
  const list = grouping.length > 0 ? [group, ...items] : items.slice(1)
  return ["(SELECT ", ...list, " FROM ", source, grouping.length > 0 ? ` GROUP BY ${group})` : ")"]
}

/** The UNPIVOT clause `(...)` opening at `open` over a source with `columns`: the UNION ALL it stands for. */
const unpivotQuery = (toks: ReadonlyArray<Tok>, open: number, close: number, source: ReadonlyArray<Tok>, sourceColumns: SourceColumns, includeNulls: boolean): Array<Piece> => {
  const columns = sourceColumns.map((c) => c.name)
  const body = toks.slice(open + 1, close)
  const { names: valueColumns, next: forAt } = nameList(body, 0)
  if (!isKw(body[forAt], "FOR")) throw missingKeyword()
  const { names: nameColumns, next } = nameList(body, forAt + 1)
  if (!isKw(body[next], "IN") || !isOp(body[next + 1], "(") || matchParen(body, next + 1) !== body.length - 1) throw missingKeyword()
  const branches = splitTopLevel(body.slice(next + 2, -1)).map((item) => {
    const { body: read, alias } = splitAlias(item)
    const readColumns = tupleOf(read, valueColumns.length).map((c) => {
      if (c.length !== 1 || !isName(c[0])) throw ora.missingExpression()
      return c[0]
    })
    const literals = alias === undefined ? [readColumns.map((c) => `'${oracleName(c).replace(/'/g, "''")}'`).join("_").replace(/'_'/g, "_")] : tupleOf(alias, nameColumns.length).map((v) => (checkConstant(v), valueHeading(v)))
    if (literals.length !== nameColumns.length) throw new OraError(literals.length > nameColumns.length ? 913 : 947, literals.length > nameColumns.length ? "too many values" : "not enough values")
    return { readColumns, literals }
  })
  const unpivoted = new Set(branches.flatMap((b) => b.readColumns.map(oracleName)))
  const kept = columns.filter((c) => !unpivoted.has(c))
  const nameHeadings = nameColumns.map(oracleName)
  const valueHeadings = valueColumns.map(oracleName)
  checkUnique([...kept, ...nameHeadings, ...valueHeadings])
  // a name column of text literals is VARCHAR2 as long as its longest value (Oracle describes it so)
  const textWidth = nameHeadings.map((_, n) => (branches.every((b) => b.literals[n]!.startsWith("'")) ? Math.max(...branches.map((b) => b.literals[n]!.length - 2), 1) : undefined))
  // a number and a character column (or literal) in one column: ORA-01790, as for the UNION ALL it is
  // (set-operation-types.ts; Database Error Messages, ORA-01790)
  const family = (kind: string | undefined) => (kind === "number" || kind === "float" || kind === "double" ? "number" : kind === "varchar" || kind === "nvarchar" ? "text" : kind)
  const mixed = (kinds: ReadonlyArray<string | undefined>) => kinds.includes("number") && kinds.includes("text")
  if (valueHeadings.some((_, n) => mixed(branches.map((b) => family(sourceColumns.find((s) => s.name === oracleName(b.readColumns[n]!))?.type?.kind))))) throw sameDatatype()
  if (nameHeadings.some((_, n) => mixed(branches.map((b) => (b.literals[n]!.startsWith("'") ? "text" : /^[-+]?[\d.]/.test(b.literals[n]!) ? "number" : undefined))))) throw sameDatatype()
  // NUMBER columns of different declared types unpivoted into one column: a NUMBER (Oracle's result type; DuckDB
  // would otherwise unite an exact NUMBER's text with a DECIMAL as text)
  const typeOf = (c: Tok) => sourceColumns.find((s) => s.name === oracleName(c))?.type
  const asNumber = valueHeadings.map((_, n) => {
    const types = branches.map((b) => typeOf(b.readColumns[n]!))
    return types.every((t) => t?.kind === "number") && new Set(types.map((t) => t!.duck)).size > 1
  })
  const out: Array<Piece> = ["("]
  branches.forEach((b, index) => {
    if (index > 0) out.push(" UNION ALL ")
    out.push("SELECT ", kept.map((c) => `${quoteDuck(c)}, `).join(""))
    b.literals.forEach((lit, n) => {
      const width = textWidth[n]
      out.push(`${width === undefined ? lit : `CAST(${lit} AS VARCHAR2(${width}))`} AS ${quoteDuck(nameHeadings[n]!)}, `)
    })
    b.readColumns.forEach((c, n) => out.push(n > 0 ? ", " : "", asNumber[n] ? "CAST(" : "", [c], asNumber[n] ? " AS NUMBER)" : "", ` AS ${quoteDuck(valueHeadings[n]!)}`))
    out.push(" FROM ", source)
    if (!includeNulls) out.push(" WHERE NOT (", ...b.readColumns.flatMap((c, n) => [n > 0 ? " AND " : "", [c], " IS NULL"]), ")")
  })
  out.push(")")
  return out
}

/** Joins generated pieces into tokens: text tokenized (at `pos`), source tokens kept as they are. */
const tokensOf = (pieces: ReadonlyArray<Piece>, pos: number): Array<Tok> =>
  pieces.flatMap((p) => (typeof p === "string" ? tokenize(p).map((t) => ({ ...t, pos })) : p.flatMap((t) => [t, { kind: "ws" as const, text: " ", value: " ", pos: t.pos }])))

/** Rewrites every PIVOT / UNPIVOT clause of a statement (see the module comment); other statements are returned as they are. */
export const rewritePivotClauses = (source: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  if (!source.some((t) => isKw(t, "PIVOT", "UNPIVOT"))) return source
  const toks = significant(source)
  const at = toks.findIndex((t, k) => k > 0 && ((isKw(t, "PIVOT") && (isOp(toks[k + 1], "(") || isKw(toks[k + 1], "XML"))) || (isKw(t, "UNPIVOT") && (isOp(toks[k + 1], "(") || isKw(toks[k + 1], "INCLUDE", "EXCLUDE")))))
  if (at < 0) return source
  if (isKw(toks[at + 1], "XML")) throw ora.unimplemented("PIVOT XML")
  const nulls = isKw(toks[at + 1], "INCLUDE", "EXCLUDE")
  if (nulls && !isKw(toks[at + 2], "NULLS")) throw missingKeyword()
  const open = nulls ? at + 3 : at + 1
  const close = isOp(toks[open], "(") ? matchParen(toks, open) : -1
  if (close < 0) throw missingRightParen()
  const src = sourceBefore(toks, at, lookup)
  // a source this server cannot name the columns of: left to the engine as written
  if (src?.columns === undefined) return source
  const from = toks.slice(src.start, at)
  const pieces = isKw(toks[at], "PIVOT") ? pivotQuery(toks, open, close, from, src.columns) : unpivotQuery(toks, open, close, from, src.columns, isKw(toks[at + 1], "INCLUDE"))
  const keep = (range: ReadonlyArray<Tok>) => range.flatMap((t) => [t, { kind: "ws" as const, text: " ", value: " ", pos: t.pos }])
  return rewritePivotClauses([...keep(toks.slice(0, src.start)), ...tokensOf(pieces, toks[at]!.pos), { kind: "ws", text: " ", value: " ", pos: toks[at]!.pos }, ...keep(toks.slice(close + 1))], lookup)
}
