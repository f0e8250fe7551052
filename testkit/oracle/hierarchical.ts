/**
 * Oracle hierarchical queries (`[START WITH cond] CONNECT BY [NOCYCLE] cond`) rewritten into a recursive subquery
 * factoring clause that DuckDB runs as `WITH RECURSIVE`, before translation.
 *
 * Semantics follow the SQL Language Reference, "Hierarchical Queries": the START WITH rows are the roots (all rows
 * when it is absent); each further level joins the rows satisfying the CONNECT BY condition, where `PRIOR expr` is the
 * parent row's value and LEVEL the child's depth; the WHERE clause filters after the hierarchy is built; rows come in
 * depth-first (pre-order) order, siblings ordered by ORDER SIBLINGS BY; a row that is its own ancestor is a loop,
 * ORA-01436 unless NOCYCLE, which drops it and sets CONNECT_BY_ISCYCLE on its parent. Without PRIOR (the row generator
 * `SELECT LEVEL FROM dual CONNECT BY LEVEL <= n`) Oracle detects no loops, and neither does this rewrite.
 *
 * Each row of the recursion carries its LEVEL, a sort key (its ancestors' sibling ranks, zero-padded), its parent's
 * key, the row ids of its ancestors (loop detection), and one column per SYS_CONNECT_BY_PATH / CONNECT_BY_ROOT use.
 */
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import { blockEnd, type TableLookup, topLevelAt } from "./query-blocks.ts"

const CTE = "ORA$H"
/** The column the rewrite gives each row's LEVEL (an integer, which Oracle divides as the NUMBER it is). */
export const LEVEL_COLUMN = "ORA$LEVEL"
const PARENT = "ORA$P"
const LOOP_ERROR = "'ORA-01436: CONNECT BY loop in user data'"

/** A bind stands in the generated text as a marker naming its source token, which replaces it again afterwards. */
const BIND_MARK = "ORA$BIND"

const rank = (siblingOrder: string): string => `LPAD(TO_CHAR(ROW_NUMBER() OVER (${siblingOrder})), 10, '0')`

/** The query block around a top-level CONNECT BY: its SELECT and its end (exclusive). */
const blockOf = (toks: ReadonlyArray<Tok>, connect: number): { start: number; end: number } => {
  let depth = 0
  let start = -1
  for (let k = connect - 1; k >= 0; k--) {
    if (isOp(toks[k], ")")) depth++
    else if (isOp(toks[k], "(")) {
      if (depth === 0) break
      depth--
    } else if (depth === 0 && isKw(toks[k], "SELECT")) {
      start = k
      break
    }
  }
  if (start < 0) throw ora.invalidSql()
  const end = blockEnd(toks, connect, (t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT") || isOp(t, ";"))
  return { start, end }
}

/** Rewrites the first hierarchical query block of a statement; other statements are returned as they are. */
export const rewriteHierarchical = (source: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  if (!source.some((t, k) => isKw(t, "CONNECT") && source.slice(k + 1).find((x) => x.kind !== "ws")?.value === "BY")) return source
  const toks = significant(source)
  const sourceBinds: Array<Tok> = []
  const textOf = (range: ReadonlyArray<Tok>): string =>
    range
      .map((t) => {
        if (t.kind !== "bind") return t.text
        sourceBinds.push(t)
        return `:${BIND_MARK}${sourceBinds.length - 1}`
      })
      .join(" ")
  let connect = -1
  for (let k = 0; k < toks.length; k++) if (isKw(toks[k], "CONNECT") && isKw(toks[k + 1], "BY")) connect = connect < 0 ? k : connect
  if (connect < 0) return source
  const { start, end } = blockOf(toks, connect)
  const at = (kw: string, next?: string) => {
    const k = topLevelAt(toks, start + 1, end, (t, k) => isKw(t, kw) && (next === undefined || isKw(toks[k + 1], next)))
    return k === end ? -1 : k
  }
  const from = at("FROM")
  if (from < 0) throw ora.invalidSql()
  const where = at("WHERE")
  const startWith = at("START", "WITH")
  const group = at("GROUP", "BY")
  const having = at("HAVING")
  const siblings = at("ORDER", "SIBLINGS")
  const order = siblings >= 0 ? siblings : at("ORDER", "BY")
  const clauses = [from, where, startWith, connect, group, having, order].filter((k) => k >= 0).sort((a, b) => a - b)
  const until = (k: number) => clauses.find((c) => c > k) ?? end
  const fromToks = toks.slice(from + 1, until(from))
  if (fromToks.some((t, k) => isOp(t, ",") || isKw(t, "JOIN") || (k > 0 && isOp(t, "(") && !isKw(fromToks[k - 1], "TABLE")))) {
    throw ora.unimplemented("CONNECT BY over more than one table (join them in a subquery)")
  }
  const last = fromToks[fromToks.length - 1]
  if (last === undefined) throw ora.invalidSql()
  const alias = last.text
  const nocycle = isKw(toks[connect + 2], "NOCYCLE")
  const condition = toks.slice(connect + (nocycle ? 3 : 2), until(connect))
  const rooted = startWith >= 0 ? toks.slice(startWith + 2, until(startWith)) : undefined
  const tracksLoops = condition.some((t) => isKw(t, "PRIOR"))
  if ([...condition, ...(rooted ?? [])].some((t) => isKw(t, "CONNECT_BY_ROOT"))) throw new OraError(30007, "CONNECT BY ROOT operator is not supported in the START WITH or in the CONNECT BY condition")

  // the CONNECT BY condition: PRIOR x is the parent's x, LEVEL the child's depth
  const parentSide: Array<string> = []
  for (let k = 0; k < condition.length; k++) {
    const t = condition[k]!
    if (isKw(t, "PRIOR")) {
      let c = k + 1
      if (isOp(condition[c + 1], ".")) c += 2
      parentSide.push(`${PARENT}.${condition[c]!.text}`)
      k = c
    } else if (isKw(t, "LEVEL", "ROWNUM")) parentSide.push(`(${PARENT}.ORA$LEVEL + 1)`)
    else parentSide.push(textOf([t]))
  }

  // the select list, WHERE, GROUP BY, HAVING and ORDER BY: hierarchy pseudo columns and operators
  const anchorExtra: Array<string> = []
  const stepExtra: Array<string> = []
  const outer = (range: ReadonlyArray<Tok>, selectList = false): string => {
    const out: Array<string> = []
    for (let k = 0; k < range.length; k++) {
      const t = range[k]!
      if (isKw(t, "LEVEL")) out.push(`${alias}.ORA$LEVEL`)
      // ROWNUM numbers the rows in the order the hierarchy returns them, before any ORDER BY, as a NUMBER (exact division)
      else if (selectList && isKw(t, "ROWNUM")) out.push(`CAST(ROW_NUMBER() OVER (ORDER BY ${alias}.ORA$KEY) AS NUMBER)`)
      else if (isKw(t, "CONNECT_BY_ISLEAF")) out.push(`(CASE WHEN EXISTS (SELECT 1 FROM ${CTE} ORA$C WHERE ORA$C.ORA$PARENT = ${alias}.ORA$KEY AND ORA$C.ORA$CYCLE = 0) THEN 0 ELSE 1 END)`)
      else if (isKw(t, "CONNECT_BY_ISCYCLE")) out.push(`(CASE WHEN EXISTS (SELECT 1 FROM ${CTE} ORA$C WHERE ORA$C.ORA$PARENT = ${alias}.ORA$KEY AND ORA$C.ORA$CYCLE = 1) THEN 1 ELSE 0 END)`)
      else if (isKw(t, "SYS_CONNECT_BY_PATH") && isOp(range[k + 1], "(")) {
        const close = matchParen(range, k + 1)
        const [column, separator] = splitTopLevel(range.slice(k + 2, close))
        if (column === undefined || separator === undefined) throw ora.missingExpression()
        const name = `ORA$PATH${anchorExtra.length}`
        anchorExtra.push(`${textOf(separator)} || (${textOf(column)}) AS ${name}`)
        stepExtra.push(`${PARENT}.${name} || ${textOf(separator)} || (${textOf(column)})`)
        out.push(`${alias}.${name}`)
        k = close
      } else if (isKw(t, "PRIOR")) {
        // the parent row's value: NULL of the column's type on a root
        let c = k + 1
        if (isOp(range[c + 1], ".")) c += 2
        const name = `ORA$PRIOR${anchorExtra.length}`
        anchorExtra.push(`CASE WHEN 1 = 0 THEN ${textOf(range.slice(k + 1, c + 1))} END AS ${name}`)
        stepExtra.push(`${PARENT}.${textOf(range.slice(c, c + 1))}`)
        out.push(`${alias}.${name}`)
        k = c
      } else if (isKw(t, "CONNECT_BY_ROOT")) {
        let c = k + 1
        if (isOp(range[c + 1], ".")) c += 2
        const name = `ORA$ROOT${anchorExtra.length}`
        anchorExtra.push(`${textOf(range.slice(k + 1, c + 1))} AS ${name}`)
        stepExtra.push(`${PARENT}.${name}`)
        out.push(`${alias}.${name}`)
        k = c
      } else out.push(textOf([t]))
    }
    return out.join(" ")
  }
  const STAR = "\u0000*"
  const items = splitTopLevel(toks.slice(start + 1, from)).map((item) => {
    if ((item.length === 1 && isOp(item[0], "*")) || (item.length === 3 && item[0]!.value === last.value && isOp(item[1], ".") && isOp(item[2], "*"))) return STAR
    const rewritten = outer(item, true)
    // an unaliased item keeps the heading Oracle gives its text (LEVEL, SYS_CONNECT_BY_PATH(NAME,'/'))
    const lastTok = item[item.length - 1]
    const aliased = item.length > 1 && (lastTok?.kind === "ident" || lastTok?.kind === "qident") && !isOp(item[item.length - 2], ".")
    const changed = rewritten !== textOf(item)
    if (!changed || aliased) return rewritten
    const heading = item.map((x) => (x.kind === "str" ? `'${x.value.toUpperCase()}'` : x.kind === "qident" ? x.value : x.text.toUpperCase())).join("")
    return `${rewritten} AS "${heading.replace(/"/g, "")}"`
  })
  // WHERE, GROUP BY, HAVING and ORDER BY before the recursion's columns are listed: their CONNECT_BY_ROOT / PRIOR /
  // SYS_CONNECT_BY_PATH add columns to it too (CONNECT_BY_ROOT is refused only in START WITH and CONNECT BY: SQL
  // Language Reference, "Hierarchical Query Operators", "Restriction on CONNECT_BY_ROOT")
  const guard = nocycle ? `${alias}.ORA$CYCLE = 0` : `(CASE WHEN ${alias}.ORA$CYCLE = 1 THEN error(${LOOP_ERROR}) ELSE 1 END) = 1`
  // a last `AND ROWNUM <= n` (or the whole WHERE) stays a top-level ROWNUM limit, counted in hierarchy order
  let filtering = where >= 0 ? toks.slice(where + 1, until(where)) : []
  let limit = ""
  const rownumAt = filtering.length >= 3 && isKw(filtering[filtering.length - 3], "ROWNUM") ? filtering.length - 3 : -1
  if (rownumAt >= 0 && (filtering[rownumAt + 1]?.value === "<=" || filtering[rownumAt + 1]?.value === "<" || filtering[rownumAt + 1]?.value === "=") && (rownumAt === 0 || isKw(filtering[rownumAt - 1], "AND"))) {
    const atTop = topLevelAt(filtering, 0, filtering.length, (t) => isKw(t, "OR")) === filtering.length
    if (atTop) {
      limit = ` AND ${textOf(filtering.slice(rownumAt))}`
      filtering = filtering.slice(0, Math.max(0, rownumAt - 1))
    }
  }
  const filter = `${filtering.length > 0 ? ` WHERE ${guard} AND (${outer(filtering)})` : ` WHERE ${guard}`}${limit}`
  const grouping = group >= 0 ? ` ${outer(toks.slice(group, until(group)))}` : ""
  const groupFilter = having >= 0 ? ` ${outer(toks.slice(having, until(having)))}` : ""
  // an aggregate over the whole hierarchy (no GROUP BY) has one row and nothing to order
  const aggregated = group >= 0 || toks.slice(start + 1, from).some((t, k, list) => isKw(t, "COUNT", "SUM", "AVG", "MIN", "MAX") && isOp(list[k + 1], "(") && !isKw(list[matchParen(list, k + 1) + 1], "OVER"))
  const ordering = order >= 0 && siblings < 0 ? ` ${outer(toks.slice(order, until(order)))}` : aggregated ? "" : ` ORDER BY ${alias}.ORA$KEY`
  // `*` is the table's columns, not the ones the recursion adds
  const added = ["ORA$LEVEL", "ORA$KEY", "ORA$PARENT", "ORA$SEEN", "ORA$CYCLE", ...anchorExtra.map((x) => x.slice(x.lastIndexOf(" ") + 1))]
  const tableAt = isOp(fromToks[1], ".") ? 2 : 0
  const table = fromToks[tableAt]
  const meta = table !== undefined && (table.kind === "ident" || table.kind === "qident") ? lookup(tableAt === 2 ? fromToks[0]!.value : undefined, table.value) : undefined
  const columns = meta !== undefined ? meta.columns.map((c) => `${alias}."${c.name}"`).join(", ") : `${alias}.* EXCLUDE (${added.join(", ")})`
  const selectList = items.map((item) => (item === STAR ? columns : item))
  const siblingOrder = siblings >= 0 ? `ORDER BY ${textOf(toks.slice(siblings + 3, until(siblings)))}` : ""
  const rowid = tracksLoops ? `${alias}.ROWID` : "''"

  const anchor =
    `SELECT ${alias}.*, 1 AS ORA$LEVEL, ${rank(siblingOrder)} AS ORA$KEY, '-' AS ORA$PARENT, '/' || ${rowid} || '/' AS ORA$SEEN, 0 AS ORA$CYCLE` +
    `${anchorExtra.map((x) => `, ${x}`).join("")} FROM ${textOf(fromToks)}${rooted !== undefined ? ` WHERE ${textOf(rooted)}` : ""}`
  const loop = tracksLoops ? `CASE WHEN ${PARENT}.ORA$SEEN LIKE '%/' || ${rowid} || '/%' THEN 1 ELSE 0 END` : "0"
  const step =
    `SELECT ${alias}.*, ${PARENT}.ORA$LEVEL + 1, ${PARENT}.ORA$KEY || ${rank(siblingOrder)}, ${PARENT}.ORA$KEY, ${PARENT}.ORA$SEEN || ${rowid} || '/', ${loop}` +
    `${stepExtra.map((x) => `, ${x}`).join("")} FROM ${textOf(fromToks)}, (SELECT ${CTE} AS ${PARENT} FROM ${CTE}) ORA$Q WHERE ${PARENT}.ORA$CYCLE = 0 AND (${parentSide.join(" ")})`
  // the row generator on DUAL (`LEVEL <= n`, `LEVEL < n` alone) makes its levels at once: a recursion takes a step
  // per row and its sort keys grow with the depth; the root row stands even when the condition fails for it
  const onDual = isKw(fromToks[fromToks.length === 1 ? 0 : fromToks.length - 2], "DUAL") || isKw(last, "DUAL")
  const bound =
    onDual && !tracksLoops && anchorExtra.length === 0 && isKw(condition[0], "LEVEL", "ROWNUM") && (isOp(condition[1], "<=") || isOp(condition[1], "<")) && condition.length > 2
      ? `GREATEST(1, ${isOp(condition[1], "<=") ? `FLOOR(${textOf(condition.slice(2))})` : `CEIL(${textOf(condition.slice(2))}) - 1`})`
      : undefined
  const levels =
    bound !== undefined
      ? `SELECT ${alias}.*, ORA$G.ORA$N AS ORA$LEVEL, LPAD(TO_CHAR(ORA$G.ORA$N), 12, '0') AS ORA$KEY, LPAD(TO_CHAR(ORA$G.ORA$N - 1), 12, '0') AS ORA$PARENT, '//' AS ORA$SEEN, 0 AS ORA$CYCLE` +
        ` FROM ${textOf(fromToks)}, (SELECT generate_series AS ORA$N FROM generate_series(1, CAST(${bound} AS BIGINT))) ORA$G${rooted !== undefined ? ` WHERE ${textOf(rooted)}` : ""}`
      : `${anchor} UNION ALL ${step}`
  const query = `WITH RECURSIVE ${CTE} AS (${levels}) SELECT ${selectList.join(", ")} FROM ${CTE} ${alias}${filter}${grouping}${groupFilter}${ordering}`
  // a whole statement of its own stays one; inside another statement (subquery, WITH, INSERT) it becomes a subquery
  const whole = start === 0 && end === toks.length
  const replacement = whole ? query : `SELECT * FROM (${query})`
  const pos = toks[start]!.pos
  const generated = tokenize(replacement).map((t) => (t.kind === "bind" && t.value.startsWith(BIND_MARK) ? sourceBinds[Number(t.value.slice(BIND_MARK.length))]! : { ...t, pos }))
  const keep = (range: ReadonlyArray<Tok>) => range.flatMap((t) => [t, { kind: "ws" as const, text: " ", value: " ", pos: t.pos }])
  return rewriteHierarchical([...keep(toks.slice(0, start)), ...generated, { kind: "ws", text: " ", value: " ", pos }, ...keep(toks.slice(end))], lookup)
}
