/**
 * ROWNUM in every query block (SQL Language Reference, "ROWNUM Pseudocolumn"): "For each row returned by a query, the
 * ROWNUM pseudocolumn returns a number indicating the order in which Oracle selects the row from a table or set of
 * joined rows. The first row selected has a ROWNUM of 1, the second has 2, and so on." It is assigned after the
 * WHERE clause selects a row and before grouping, DISTINCT and ORDER BY; "Conditions testing for ROWNUM values greater
 * than a positive integer are always false" (a row that fails the test is not counted, so the next one gets the same
 * number). And: "If you embed the ORDER BY clause in a subquery and place the ROWNUM condition in the top-level query,
 * then you can force the ROWNUM condition to be applied after the ordering of the rows" (the pagination idiom
 * `SELECT * FROM (SELECT a.*, ROWNUM rn FROM (... ORDER BY ...) a WHERE ROWNUM <= 20) WHERE rn > 10`).
 *
 * Rewritten here on the Oracle tokens, before translation:
 * - ROWNUM in a select list becomes `ROW_NUMBER() OVER ()` (headed `ROWNUM`): DuckDB numbers the rows as its window
 *   receives them, after WHERE and in the order of an ordered FROM subquery, before the block's ORDER BY.
 * - A ROWNUM condition of the block's WHERE (a conjunct `ROWNUM op value`) that can never hold becomes `1 = 0`, one
 *   that always holds `1 = 1`; one that limits the rows (`<= n`, `< n`, `= 1`, `<> n`, `BETWEEN 1 AND n`) stays
 *   for translate-query.ts's top-level LIMIT where that is exact (a top-level block without grouping, DISTINCT,
 *   aggregates or set operation, nor ROWNUM selected beside an ORDER BY), becomes `FETCH FIRST n ROWS ONLY` at the end
 *   of a subquery without those, and otherwise limits the block's single FROM table or subquery before everything
 *   else: `FROM (SELECT * FROM t [alias] WHERE rest FETCH FIRST n ROWS ONLY) alias`.
 * - `DELETE` / `UPDATE ... WHERE ... ROWNUM <= n` write the first n rows their WHERE selects (see {@link rewriteDmlWhere}).
 * Blocks with CONNECT BY are hierarchical.ts's. Anything else with ROWNUM still fails ORA-03001 naming it.
 */
import { OraError } from "./errors.ts"
import { headingOf } from "./expression-names.ts"
import { isKw, isOp, matchParen, tokenize, type Tok } from "./lexer.ts"

/** Clause keywords that end a block's select list, FROM or WHERE clause at the block's own depth. */
const CLAUSES = new Set(["FROM", "WHERE", "GROUP", "HAVING", "ORDER", "CONNECT", "START", "FETCH", "OFFSET", "FOR", "MODEL", "WINDOW"])
const SET_OPERATORS = new Set(["UNION", "INTERSECT", "MINUS", "EXCEPT"])
/** Aggregate functions whose call (without OVER) makes a block aggregate. */
const AGGREGATES = new Set([
  "COUNT", "SUM", "AVG", "MIN", "MAX", "MEDIAN", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP",
  "LISTAGG", "COLLECT", "CORR", "COVAR_POP", "COVAR_SAMP", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "XMLAGG", "ANY_VALUE"
])

/** One query block: its SELECT, clause positions at its own depth and its end (exclusive), all indexes into the tokens. */
interface Block {
  readonly select: number
  readonly from: number
  readonly where: number
  /** Index of the first token after the WHERE clause (or after FROM's clause when there is no WHERE). */
  readonly afterWhere: number
  readonly end: number
  readonly clauses: ReadonlySet<string>
  /** The block is a branch of a set operation (a set operator right before or after it at its depth). */
  readonly setBranch: boolean
  /** ROWNUM tokens of the select list (not inside nested query blocks). */
  readonly selected: ReadonlyArray<number>
  readonly aggregate: boolean
  readonly distinct: boolean
}

const significantBefore = (toks: ReadonlyArray<Tok>, k: number): number => {
  let n = k - 1
  while (n >= 0 && toks[n]!.kind === "ws") n--
  return n
}
const significantAfter = (toks: ReadonlyArray<Tok>, k: number): number => {
  let n = k + 1
  while (n < toks.length && toks[n]!.kind === "ws") n++
  return n
}

/** Whether `(` at `open` starts a nested query block. */
const opensQuery = (toks: ReadonlyArray<Tok>, open: number): boolean => isKw(toks[significantAfter(toks, open)], "SELECT", "WITH")

/** The block whose SELECT is at `select`. */
const blockAt = (toks: ReadonlyArray<Tok>, select: number): Block => {
  const positions = new Map<string, number>()
  const selected: Array<number> = []
  let aggregate = false
  let end = toks.length
  let setAfter = false
  for (let k = select + 1; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) {
      const close = matchParen(toks, k)
      if (close < 0) break
      if (!opensQuery(toks, k)) {
        // ROWNUM inside a call of the select list (`MOD(ROWNUM, 2)`), not inside a subquery
        if (!positions.has("FROM")) {
          for (let n = k + 1; n < close; n++) {
            if (isOp(toks[n], "(") && opensQuery(toks, n)) n = matchParen(toks, n)
            else if (isKw(toks[n], "ROWNUM")) selected.push(n)
          }
        }
      }
      if (!positions.has("FROM") && t.kind === "op") {
        const name = toks[significantBefore(toks, k)]
        const over = toks[significantAfter(toks, close)]
        if (name !== undefined && name.kind === "ident" && AGGREGATES.has(name.value) && !isKw(over, "OVER", "KEEP")) aggregate = true
      }
      k = close
      continue
    }
    if (isOp(t, ")")) {
      end = k
      break
    }
    if (t.kind !== "ident") continue
    if (SET_OPERATORS.has(t.value)) {
      end = k
      setAfter = true
      break
    }
    if (CLAUSES.has(t.value) && !positions.has(t.value)) positions.set(t.value, k)
    else if (t.value === "ROWNUM" && !positions.has("FROM")) selected.push(k)
  }
  const from = positions.get("FROM") ?? -1
  const where = positions.get("WHERE") ?? -1
  const later = [...positions.entries()].filter(([name, at]) => name !== "FROM" && name !== "WHERE" && at > Math.max(from, where)).map(([, at]) => at)
  const afterWhere = later.length > 0 ? Math.min(...later) : end
  const before = toks[significantBefore(toks, select)]
  const setBefore = before !== undefined && (before.kind === "ident" && (SET_OPERATORS.has(before.value) || before.value === "ALL"))
  const distinctAt = toks[significantAfter(toks, select)]
  return {
    select,
    from,
    where,
    afterWhere,
    end,
    clauses: new Set(positions.keys()),
    setBranch: setAfter || setBefore,
    selected,
    aggregate,
    distinct: isKw(distinctAt, "DISTINCT", "UNIQUE")
  }
}

/** What a ROWNUM condition does to the rows: none pass, all pass, or the first `limit` (tokens) pass. */
type Effect = { readonly kind: "none" } | { readonly kind: "all" } | { readonly kind: "limit"; readonly limit: ReadonlyArray<Tok> }

const numberOf = (t: Tok | undefined): number | undefined => {
  if (t === undefined) return undefined
  if (t.kind === "num" && !/[fFdD]$/.test(t.text)) return Number(t.value)
  if (t.kind === "str" && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(t.value)) return Number(t.value)
  // ROWNUM is a NUMBER: a text compared with it is converted to one (ORA-01722 when it is not a number)
  if (t.kind === "str") throw new OraError(1722, "invalid number")
  return undefined
}

const numberTokens = (n: number, pos: number): ReadonlyArray<Tok> => tokenize(String(n)).map((t) => ({ ...t, pos }))

/** What `ROWNUM op value` (or `ROWNUM BETWEEN a AND b`) does, for the tokens after ROWNUM; undefined when not one of those. */
const effectOf = (toks: ReadonlyArray<Tok>, rownum: number): { effect: Effect; end: number } | undefined => {
  const opAt = significantAfter(toks, rownum)
  const op = toks[opAt]
  if (op === undefined) return undefined
  if (isKw(op, "BETWEEN")) {
    const lowAt = significantAfter(toks, opAt)
    const andAt = significantAfter(toks, lowAt)
    const highAt = significantAfter(toks, andAt)
    const low = numberOf(toks[lowAt])
    if (low === undefined || !isKw(toks[andAt], "AND") || toks[highAt] === undefined) return undefined
    if (low > 1) return { effect: { kind: "none" }, end: highAt + 1 }
    const upTo = upToEffect(toks[highAt]!, "<=")
    return upTo === undefined ? undefined : { effect: upTo, end: highAt + 1 }
  }
  const operator = op.kind === "op" ? op.value : undefined
  const valueAt = significantAfter(toks, opAt)
  const value = toks[valueAt]
  if (operator === undefined || value === undefined) return undefined
  const n = numberOf(value)
  const done = (effect: Effect) => ({ effect, end: valueAt + 1 })
  switch (operator) {
    case "<=":
    case "<": {
      const upTo = upToEffect(value, operator)
      return upTo === undefined ? undefined : done(upTo)
    }
    case "=":
      if (n === undefined) return undefined
      return done(n === 1 ? { kind: "limit", limit: numberTokens(1, value.pos) } : { kind: "none" })
    case ">":
      if (n === undefined) return undefined
      return done(n < 1 ? { kind: "all" } : { kind: "none" })
    case ">=":
      if (n === undefined) return undefined
      return done(n <= 1 ? { kind: "all" } : { kind: "none" })
    case "<>":
    case "!=":
    case "^=":
      // rows 1 .. n-1 pass; the n-th fails, and so does every later one, which gets the number n again
      if (n === undefined) return undefined
      if (!Number.isInteger(n) || n < 1) return done({ kind: "all" })
      return done(n === 1 ? { kind: "none" } : { kind: "limit", limit: numberTokens(n - 1, value.pos) })
    default:
      return undefined
  }
}

/** `ROWNUM <= value` / `ROWNUM < value`: the first floor(value) / ceil(value) - 1 rows; a bind as it is for `<=`. */
const upToEffect = (value: Tok, operator: "<=" | "<"): Effect | undefined => {
  if (value.kind === "bind") return operator === "<=" ? { kind: "limit", limit: [value] } : undefined
  const n = numberOf(value)
  if (n === undefined) return undefined
  const rows = operator === "<=" ? Math.floor(n) : Math.ceil(n) - 1
  return rows < 1 ? { kind: "none" } : { kind: "limit", limit: numberTokens(rows, value.pos) }
}

/** The ROWNUM condition among the top-level conjuncts of a WHERE clause `[where + 1, afterWhere)`: its span and effect. */
const whereCondition = (toks: ReadonlyArray<Tok>, where: number, afterWhere: number): { start: number; end: number; effect: Effect } | "other" | undefined => {
  let found: { start: number; end: number; effect: Effect } | undefined
  for (let k = where + 1; k < afterWhere; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) {
      const close = matchParen(toks, k)
      for (let n = k + 1; n < close; n++) {
        if (isOp(toks[n], "(") && opensQuery(toks, n)) n = matchParen(toks, n)
        else if (isKw(toks[n], "ROWNUM")) return "other"
      }
      k = close
      continue
    }
    if (!isKw(t, "ROWNUM")) continue
    const before = toks[significantBefore(toks, k)]
    const condition = isKw(before, "WHERE", "AND") ? effectOf(toks, k) : undefined
    if (condition === undefined || found !== undefined) return "other"
    const next = toks[significantAfter(toks, condition.end - 1)]
    if (significantAfter(toks, condition.end - 1) < afterWhere && !isKw(next, "AND")) return "other"
    found = { start: k, end: condition.end, effect: condition.effect }
    k = condition.end - 1
  }
  // a ROWNUM condition beside an OR of the same WHERE is not a conjunct of it
  if (found !== undefined) {
    for (let k = where + 1; k < afterWhere; k++) {
      if (isOp(toks[k], "(")) k = matchParen(toks, k)
      else if (isKw(toks[k], "OR")) return "other"
    }
  }
  return found
}

/** Tokens of `sql` at source position `pos`, left out of column headings. */
const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))

/** Tokens of `sql` standing for the source tokens `replaced` in a column heading (an unaliased scalar subquery's). */
const standingFor = (sql: string, replaced: ReadonlyArray<Tok>, pos: number): Array<Tok> =>
  generated(sql, pos).map((t, k) => (k === 0 ? { ...t, heading: headingOf(replaced.filter((x) => x.kind !== "ws")) } : t))

/** `toks[k]` heading also for the removed tokens `removed` that followed it. */
const headingWith = (toks: Array<Tok>, k: number, removed: ReadonlyArray<Tok>): void => {
  const t = toks[k]!
  toks[k] = { ...t, heading: headingOf([t]) + headingOf(removed.filter((x) => x.kind !== "ws")) }
}

/** The single table or subquery of a FROM clause `[from + 1, to)`, with the name the block knows it by; undefined for a join or list. */
const singleSource = (toks: ReadonlyArray<Tok>, from: number, to: number): { name: string | undefined } | undefined => {
  const sig: Array<Tok> = []
  for (let k = from + 1; k < to; k++) {
    const t = toks[k]!
    if (t.kind === "ws") continue
    if (isOp(t, "(")) {
      if (sig.length > 0) return undefined
      const close = matchParen(toks, k)
      if (close < 0 || close >= to) return undefined
      sig.push({ ...t, kind: "op", value: "(subquery)" })
      k = close
      continue
    }
    sig.push(t)
  }
  const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident") && !isKw(t, "JOIN", "NATURAL", "CROSS", "LEFT", "RIGHT", "FULL", "INNER", "OUTER", "PARTITION", "SAMPLE", "AS")
  const quoted = (t: Tok) => (t.kind === "qident" ? t.text : t.value)
  if (sig[0]?.value === "(subquery)") {
    if (sig.length === 1) return { name: undefined }
    return sig.length === 2 && isName(sig[1]) ? { name: quoted(sig[1]!) } : undefined
  }
  let k = 0
  if (!isName(sig[k])) return undefined
  let name = quoted(sig[k]!)
  k++
  if (isOp(sig[k], ".") && isName(sig[k + 1])) {
    name = quoted(sig[k + 1]!)
    k += 2
  }
  if (k === sig.length) return { name }
  if (k === sig.length - 1 && isName(sig[k])) return { name: quoted(sig[k]!) }
  return undefined
}

/** `toks` with the ROWNUM of the block at `select` rewritten (unchanged when the block has none, or is hierarchical). */
const rewriteBlock = (toks: Array<Tok>, select: number, topLevel: boolean): Array<Tok> => {
  const block = blockAt(toks, select)
  if (block.clauses.has("CONNECT") || block.clauses.has("START")) return toks
  const condition = block.where >= 0 ? whereCondition(toks, block.where, block.afterWhere) : undefined
  if (condition === "other") throw new OraError(3001, "unimplemented feature: ROWNUM in a condition other than a conjunct `ROWNUM op value` of a WHERE clause")
  if (condition === undefined && block.selected.length === 0) return toks
  const grouped = block.aggregate || block.distinct || block.clauses.has("GROUP") || block.clauses.has("HAVING")
  if (block.selected.length > 0 && grouped) throw new OraError(3001, "unimplemented feature: ROWNUM in the select list of a grouped, aggregate or DISTINCT query")
  const out = [...toks]
  const pos = toks[select]!.pos
  const limitsHere = condition !== undefined && condition.effect.kind === "limit"
  const ordered = block.clauses.has("ORDER")
  // how a limit is applied: the top-level LIMIT (translate-query.ts), FETCH FIRST at the subquery's end, or in FROM
  const how = !limitsHere
    ? undefined
    : !grouped && !block.setBranch && !(ordered && block.selected.length > 0) && !block.clauses.has("FETCH") && !block.clauses.has("OFFSET") && !block.clauses.has("FOR")
    ? (topLevel ? "top" : isOp(toks[block.end], ")") || block.end === toks.length ? "fetch" : "from")
    : "from"
  const source = how === "from" && block.from >= 0 ? singleSource(toks, block.from, block.where) : undefined
  if (how === "from" && source === undefined) {
    if (topLevel && block.clauses.has("FOR") && !grouped && !block.setBranch && !(ordered && block.selected.length > 0)) {
      // `WHERE ROWNUM = 1 FOR UPDATE` over a join: translate-query.ts's LIMIT with the lock
    } else throw new OraError(3001, "unimplemented feature: a ROWNUM limit on a join in a grouped, DISTINCT, ordered or set-operation query block")
  }
  // right to left, so that earlier indexes stay valid
  if (condition !== undefined) {
    const effect = condition.effect
    const at = toks[condition.start]!.pos
    const original = toks.slice(condition.start, condition.end)
    if (effect.kind !== "limit") out.splice(condition.start, condition.end - condition.start, ...standingFor(effect.kind === "none" ? "1 = 0" : "1 = 1", original, at))
    else if (how === "top" || (how === "from" && source === undefined)) {
      // the form translate-query.ts turns into its LIMIT
      out.splice(condition.start, condition.end - condition.start, ...standingFor("ROWNUM <= ", original, at), ...effect.limit.map((t) => ({ ...t, heading: "" })))
    } else {
      const limit = [...generated(" FETCH FIRST ", pos), ...effect.limit.map((t) => ({ ...t, heading: "" })), ...generated(" ROWS ONLY", pos)]
      if (how === "fetch") out.splice(block.end, 0, ...limit)
      // the condition and the AND joining it to the rest (the whole WHERE when it is alone)
      const afterAnd = significantAfter(toks, condition.end - 1)
      const beforeAnd = significantBefore(toks, condition.start)
      const [cut, cutEnd] = isKw(toks[afterAnd], "AND") && afterAnd < block.afterWhere
        ? [condition.start, afterAnd + 1]
        : isKw(toks[beforeAnd], "AND") ? [beforeAnd, condition.end] : [block.where, condition.end]
      headingWith(out, significantBefore(out, cut), toks.slice(cut, cutEnd))
      if (how === "fetch") out.splice(cut, cutEnd - cut)
      else {
        // FROM src WHERE rest → FROM (SELECT * FROM src WHERE rest FETCH FIRST n ROWS ONLY) name
        const whereTokens = [...out.slice(block.where, cut), ...out.slice(cutEnd, block.afterWhere)]
        const keepsWhere = cut !== block.where
        const wrapped = [
          ...generated("(SELECT * FROM", pos),
          ...out.slice(block.from + 1, block.where),
          ...(keepsWhere ? whereTokens : []),
          ...limit,
          ...generated(`) ${source!.name ?? ""} `, pos)
        ]
        out.splice(block.from + 1, block.afterWhere - block.from - 1, ...wrapped)
      }
    }
  }
  for (const k of [...block.selected].reverse()) {
    const replacement = generated("ROW_NUMBER() OVER ()", toks[k]!.pos).map((t, n) => ({ ...t, heading: n === 0 ? "ROWNUM" : "" }))
    out.splice(k, 1, ...replacement)
  }
  return out
}

/**
 * `DELETE [FROM] t [alias] WHERE ... ROWNUM <= n` / `UPDATE t [alias] SET ... WHERE ... ROWNUM <= n` (the batch idiom):
 * the WHERE becomes `WHERE ROWID IN (SELECT ROWID FROM t [alias] WHERE rest FETCH FIRST n ROWS ONLY)`, so the first n
 * rows the condition selects are written.
 */
const rewriteDmlWhere = (toks: Array<Tok>): Array<Tok> => {
  const firstAt = significantAfter(toks, -1)
  const verb = toks[firstAt]
  if (!isKw(verb, "DELETE", "UPDATE")) return toks
  let k = significantAfter(toks, firstAt)
  if (isKw(verb, "DELETE") && isKw(toks[k], "FROM")) k = significantAfter(toks, k)
  const targetStart = k
  let where = -1
  let setAt = -1
  for (let n = k; n < toks.length; n++) {
    if (isOp(toks[n], "(")) n = matchParen(toks, n)
    else if (isKw(toks[n], "SET") && setAt < 0) setAt = n
    else if (isKw(toks[n], "WHERE")) {
      where = n
      break
    }
  }
  if (where < 0) return isKw(verb, "UPDATE") && setAt >= 0 ? numberedSet(toks, targetStart, setAt, toks.length, toks.length) : toks
  let afterWhere = toks.length
  for (let n = where + 1; n < toks.length; n++) {
    if (isOp(toks[n], "(")) n = matchParen(toks, n)
    else if (isKw(toks[n], "RETURNING", "RETURN", "LOG")) {
      afterWhere = n
      break
    }
  }
  const numbered = isKw(verb, "UPDATE") && setAt >= 0 ? numberedSet(toks, targetStart, setAt, where, afterWhere) : toks
  if (numbered !== toks) return numbered
  const condition = whereCondition(toks, where, afterWhere)
  if (condition === undefined) return toks
  if (condition === "other") throw new OraError(3001, "unimplemented feature: ROWNUM in a condition other than a conjunct `ROWNUM op value` of a WHERE clause")
  const target = toks.slice(targetStart, isKw(verb, "UPDATE") ? setAt : where)
  const pos = toks[condition.start]!.pos
  const original = toks.slice(condition.start, condition.end)
  const out = [...toks]
  if (condition.effect.kind !== "limit") {
    out.splice(condition.start, condition.end - condition.start, ...standingFor(condition.effect.kind === "none" ? "1 = 0" : "1 = 1", original, pos))
    return out
  }
  const afterAnd = significantAfter(toks, condition.end - 1)
  const beforeAnd = significantBefore(toks, condition.start)
  const [cut, cutEnd] = isKw(toks[afterAnd], "AND") && afterAnd < afterWhere
    ? [condition.start, afterAnd + 1]
    : isKw(toks[beforeAnd], "AND") ? [beforeAnd, condition.end] : [where + 1, condition.end]
  const rest = [...toks.slice(where + 1, cut), ...toks.slice(cutEnd, afterWhere)]
  const restUsed = rest.some((t) => t.kind !== "ws")
  out.splice(where + 1, afterWhere - where - 1, ...[
    ...generated(" ROWID IN (SELECT ROWID FROM ", pos),
    ...target.map((t) => ({ ...t, heading: "" })),
    ...(restUsed ? [...generated(" WHERE ", pos), ...rest] : []),
    ...generated(" FETCH FIRST ", pos),
    ...condition.effect.limit,
    ...generated(" ROWS ONLY) ", pos)
  ])
  return out
}

/**
 * `UPDATE t [alias] SET c = ROWNUM [WHERE w]` ("You can also use ROWNUM to assign unique values to each row of a
 * table", SQL Language Reference, "ROWNUM Pseudocolumn"): each ROWNUM of the SET clause becomes the row's number
 * among the rows the WHERE selects, `(SELECT ora$rn.rn FROM (SELECT alias.ROWID rid, ROWNUM rn FROM t [alias]
 * [WHERE w]) ora$rn WHERE ora$rn.rid = alias.ROWID)`. A WHERE with binds is refused (its binds would be sent twice).
 */
const numberedSet = (toks: Array<Tok>, targetStart: number, setAt: number, where: number, afterWhere: number): Array<Tok> => {
  const rownums: Array<number> = []
  for (let n = setAt + 1; n < where; n++) {
    if (isOp(toks[n], "(") && opensQuery(toks, n)) n = matchParen(toks, n)
    else if (isKw(toks[n], "ROWNUM")) rownums.push(n)
  }
  if (rownums.length === 0) return toks
  const condition = toks.slice(where, afterWhere)
  if (condition.some((t) => t.kind === "bind")) throw new OraError(3001, "unimplemented feature: ROWNUM in the SET clause of an UPDATE whose WHERE clause has bind variables")
  if (condition.some((t) => isKw(t, "ROWNUM"))) throw new OraError(3001, "unimplemented feature: ROWNUM in both the SET and the WHERE clause of an UPDATE")
  const target = toks.slice(targetStart, setAt).filter((t) => t.kind !== "ws")
  const name = target.at(-1)!
  const correlation = name.kind === "qident" ? name.text : name.value
  const source = toks.slice(targetStart, setAt).map((t) => t.text).join("")
  const out = [...toks]
  for (const k of rownums.reverse()) {
    const pos = toks[k]!.pos
    out.splice(k, 1, ...[
      ...standingFor(`(SELECT ora$rn.rn FROM (SELECT ${correlation}.ROWID rid, ROWNUM rn FROM ${source} `, [toks[k]!], pos),
      ...condition.map((t) => ({ ...t, heading: "" })),
      ...generated(`) ora$rn WHERE ora$rn.rid = ${correlation}.ROWID)`, pos)
    ])
  }
  return out
}

/** `toks` with ROWNUM rewritten in every query block (see the module comment); the tokens themselves when there is none. */
export const rewriteRownum = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "ROWNUM"))) return toks
  const first = toks[significantAfter(toks, -1)]
  const isQuery = isKw(first, "SELECT", "WITH")
  let out = rewriteDmlWhere([...toks])
  const selects = out.flatMap((t, k) => (isKw(t, "SELECT") ? [k] : []))
  for (const select of selects.reverse()) {
    const depth = out.slice(0, select).reduce((d, t) => d + (isOp(t, "(") ? 1 : isOp(t, ")") ? -1 : 0), 0)
    out = rewriteBlock(out, select, isQuery && depth === 0)
  }
  return out
}
