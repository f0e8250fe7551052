/**
 * Interval columns in expressions, whatever their storage (intervals.ts: DuckDB INTERVAL for DAY TO SECOND(0-6) and
 * YEAR(0-8) TO MONTH, exact numbers for DAY TO SECOND(7-9) and YEAR(9) TO MONTH). The translator asks this module for
 * the DuckDB SQL of MIN / MAX, EXTRACT, TO_CHAR and CAST over an interval column, and of arithmetic between intervals
 * of which one is exact; comparisons between columns of the two storages get the DuckDB one cast to the exact one
 * ({@link castComparedColumns}). The DuckDB functions are in interval-functions.ts.
 *
 * Oracle: intervals of one kind compare, add and subtract whatever their precisions ("Datetime/Interval Arithmetic",
 * SQL Language Reference); MIN and MAX return the argument's type; EXTRACT reads DAY, HOUR, MINUTE, SECOND of a DAY
 * TO SECOND and YEAR, MONTH of a YEAR TO MONTH value ("EXTRACT (datetime)"); TO_CHAR gives the literal form.
 */
import type { TableMeta } from "./catalog.ts"
import { isKw, isName, isOp, type Tok, tokenize } from "./lexer.ts"
import { intervalDsType, intervalYmType, type OraType } from "./types.ts"

/**
 * The interval columns, by name, of the tables `sql` names, with their declared types (a name declared twice
 * differently is left out), and the aliases a select list gives them (`d9 AS x`, `t.d9 x`: a subquery's column).
 */
export const intervalColumnTypesOf = (sql: string, lookup: (schema: string | undefined, name: string) => TableMeta | undefined): ReadonlyMap<string, OraType> => {
  const out = new Map<string, OraType | undefined>()
  const toks = tokenize(sql)
  for (const t of toks) {
    if (t.kind !== "ident" && t.kind !== "qident") continue
    const meta = lookup(undefined, t.value)
    for (const c of meta?.columns ?? []) {
      if (c.type.kind !== "intervalds" && c.type.kind !== "intervalym") continue
      const seen = out.get(c.name)
      out.set(c.name, out.has(c.name) && (seen === undefined || seen.dictName !== c.type.dictName) ? undefined : c.type)
    }
  }
  const known = new Map<string, OraType>()
  for (const [name, type] of out) if (type !== undefined) known.set(name, type)
  if (known.size === 0) return known
  const sig = toks.filter((t) => t.kind !== "ws")
  for (let k = 0; k < sig.length; k++) {
    const type = isName(sig[k]) ? known.get(nameOf(sig[k]!)) : undefined
    const aliasAt = isKw(sig[k + 1], "AS") ? k + 2 : k + 1
    const alias = sig[aliasAt]
    if (type === undefined || !isName(alias) || isKw(alias, "FROM") || !(isOp(sig[aliasAt + 1], ",") || isKw(sig[aliasAt + 1], "FROM"))) continue
    if (!known.has(nameOf(alias))) known.set(nameOf(alias), type)
  }
  return known
}

/** True when an interval column of `type` is stored exactly (DECIMAL seconds or BIGINT months). */
export const isExactInterval = (type: OraType): boolean => type.duck !== "INTERVAL"

/** `value` (an interval of `type`'s storage) in exact storage, typed as an exact interval result. */
const exactOf = (value: string, type: OraType): string =>
  type.kind === "intervalds"
    ? isExactInterval(type) ? `ora_ds_exact(CAST(${value} AS VARCHAR))` : `ora_ds_of_duck(${value})`
    : isExactInterval(type) ? `ora_ym_exact(CAST(${value} AS BIGINT))` : `ora_ym_of_duck(${value})`

/**
 * MIN / MAX / SUM / AVG over an exact interval column, also as window functions (`over`: the translated ` OVER (...)`): computed on the stored numbers (AVG on every digit, digits
 * below the nanosecond or the month cut), described as the interval, not NUMBER (SQL Language Reference, "SUM",
 * "AVG": they take interval arguments and return the argument's type).
 */
export const exactIntervalAggregate = (fn: string, value: string, type: OraType, over = ""): string | undefined => {
  if (!isExactInterval(type)) {
    // SUM and AVG of a YEAR(0-8) TO MONTH column, SUM of a DAY TO SECOND(0-6) one (DuckDB INTERVALs, which the engine
    // does not sum, and averages in 30-day months): on its value in exact storage, a YEAR TO MONTH result
    const months = type.kind === "intervalym" && (fn === "SUM" || fn === "AVG")
    if (!months && !(type.kind === "intervalds" && fn === "SUM")) return undefined
    return months ? exactIntervalAggregate(fn, `CAST(ora_ym_of_duck(${value}) AS BIGINT)`, intervalYmType(9), over) : exactIntervalAggregate(fn, `CAST(ora_ds_of_duck(${value}) AS DECIMAL(38,9))`, intervalDsType(9, 9), over)
  }
  // a window value function's result (LAG, FIRST_VALUE, ...: `value` the whole call), typed as the interval
  if (fn === "VALUE") return exactOf(value, type)
  if (fn === "MIN" || fn === "MAX") return exactOf(`${fn.toLowerCase()}(${value})${over}`, type)
  if (fn === "SUM") return exactOf(`sum(${value})${over}`, type)
  if (fn !== "AVG") return undefined
  const average = `ora_number_div(CAST(sum(${value})${over} AS VARCHAR), CAST(count(${value})${over} AS VARCHAR))`
  return type.kind === "intervalds" ? `ora_ds_exact(CAST(${average} AS VARCHAR))` : `ora_ym_exact(CAST(trunc(CAST(${average} AS DECIMAL(38,9))) AS BIGINT))`
}

/** `-x` of an exact interval: the negated value, still an exact interval. */
export const negatedExactInterval = (value: string, kind: "dayToSecond" | "yearToMonth"): string =>
  kind === "dayToSecond" ? `ora_ds_exact(CAST(-CAST(${value} AS DECIMAL(38,9)) AS VARCHAR))` : `ora_ym_exact(-CAST(${value} AS BIGINT))`

/** EXTRACT(field FROM interval column) of an exact column (DuckDB's own extract reads its INTERVALs). */
export const exactIntervalExtract = (field: string, value: string, type: OraType): string | undefined => {
  if (!isExactInterval(type)) return undefined
  return type.kind === "intervalds" ? `ora_ds_extract('${field}', CAST(${value} AS VARCHAR))` : `ora_ym_extract('${field}', CAST(${value} AS BIGINT))`
}

/** TO_CHAR(interval column): Oracle's literal form at the column's declared precisions, for either storage. */
export const intervalToChar = (value: string, type: OraType): string => {
  const lead = type.precision
  if (type.kind === "intervalym") return isExactInterval(type) ? `ora_ym_text(CAST(${value} AS BIGINT), ${lead})` : `ora_ym_duck_text(${value}, ${lead})`
  return isExactInterval(type) ? `ora_ds_text(CAST(${value} AS VARCHAR), ${lead}, ${type.scale})` : `ora_ds_duck_text(${value}, ${lead}, ${type.scale})`
}

/**
 * CAST(interval column AS interval type) across the storages: to an exact type the value in exact storage, to a
 * DuckDB INTERVAL type the exact value as a DuckDB INTERVAL (`duration`: intervals.ts's conversion, ORA-00932 for digits
 * below the microsecond, ORA-01841 beyond DuckDB's months); between exact types the value typed as an exact interval
 * (described as one, not as its stored number). Undefined when both are DuckDB INTERVALs.
 */
export const intervalCast = (value: string, from: OraType, to: OraType, duration: (text: string) => string): string | undefined => {
  if (from.kind !== to.kind || (!isExactInterval(from) && !isExactInterval(to))) return undefined
  if (isExactInterval(from) && isExactInterval(to)) return from.kind === "intervalds" && to.scale < 9 ? exactOf(`round(CAST(${value} AS DECIMAL(38,9)), ${to.scale})`, from) : exactOf(value, from)
  // to fewer fraction digits the value is rounded, as Oracle rounds a CAST to a smaller fractional seconds precision
  return isExactInterval(to) ? exactOf(value, from) : duration(from.kind === "intervalds" ? `round(CAST(${value} AS DECIMAL(38,9)), ${to.scale})` : value)
}

/** An operand of interval arithmetic: its SQL, and its declared type when it is an interval column or exact value. */
export interface IntervalOperand {
  readonly text: string
  readonly type?: OraType | undefined
  /** The operand is an interval in exact storage of this kind (a column, literal or earlier result). */
  readonly exact?: "dayToSecond" | "yearToMonth" | undefined
}

/**
 * `a ± b` of two intervals of which one is exact: both in exact storage, the sum typed as an exact interval
 * (described as INTERVAL DAY(9) TO SECOND(9) / YEAR(9) TO MONTH). Undefined when neither is exact.
 */
export const exactIntervalSum = (op: "+" | "-", a: IntervalOperand, b: IntervalOperand): { text: string; kind: "dayToSecond" | "yearToMonth" } | undefined => {
  const kind = a.exact ?? b.exact
  if (kind === undefined) return undefined
  const exact = (n: IntervalOperand) =>
    n.exact !== undefined ? n.text : n.type !== undefined ? exactOf(n.text, n.type) : kind === "dayToSecond" ? `ora_ds_of_duck(${n.text})` : `ora_ym_of_duck(${n.text})`
  // the aliased types of interval-functions.ts take no implicit casts
  const storage = kind === "dayToSecond" ? "DECIMAL(38,9)" : "BIGINT"
  const sum = `(CAST(${exact(a)} AS ${storage}) ${op} CAST(${exact(b)} AS ${storage}))`
  return { text: kind === "dayToSecond" ? `ora_ds_exact(CAST(${sum} AS VARCHAR))` : `ora_ym_exact(${sum})`, kind }
}

const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="])
const nameOf = (t: Tok) => t.value

/**
 * `a op b` where a and b are interval columns (`c`, `t.c`) of one kind stored differently: the DuckDB INTERVAL one
 * cast to the exact one's type (`CAST(c AS INTERVAL DAY(9) TO SECOND(9))`, which the translator renders through
 * {@link intervalCast}), so that DuckDB compares numbers with numbers.
 */
export const castComparedColumns = (all: ReadonlyArray<Tok>, types: ReadonlyMap<string, OraType>): ReadonlyArray<Tok> => {
  if (types.size === 0) return all
  const sig = all.filter((t) => t.kind !== "ws")
  // [first, last] tokens of a column operand ending at / starting at k
  const operandBefore = (k: number): [number, number] | undefined =>
    isName(sig[k - 1]) && isOp(sig[k - 2], ".") && isName(sig[k - 3]) ? [k - 3, k - 1] : isName(sig[k - 1]) && !isOp(sig[k - 2], ".") ? [k - 1, k - 1] : undefined
  const operandAfter = (k: number): [number, number] | undefined => {
    const end = isName(sig[k + 1]) && isOp(sig[k + 2], ".") && isName(sig[k + 3]) ? k + 3 : isName(sig[k + 1]) ? k + 1 : -1
    return end < 0 || isOp(sig[end + 1], "(") || isOp(sig[end + 1], ".") ? undefined : [k + 1, end]
  }
  const casts = new Map<Tok, { last: Tok; type: OraType }>()
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (t.kind !== "op" || !COMPARISONS.has(t.value)) continue
    const left = operandBefore(k)
    const right = operandAfter(k)
    if (left === undefined || right === undefined) continue
    const lt = types.get(nameOf(sig[left[1]]!))
    const rt = types.get(nameOf(sig[right[1]]!))
    if (lt === undefined || rt === undefined || lt.kind !== rt.kind || isExactInterval(lt) === isExactInterval(rt)) continue
    const [duck, exact] = isExactInterval(lt) ? [right, lt] : [left, rt]
    casts.set(sig[duck[0]]!, { last: sig[duck[1]]!, type: exact })
  }
  return withCasts(all, new Map([...casts].map(([first, c]) => [first, { last: c.last, type: c.type.dictName }])))
}

/**
 * `all` with each range of tokens from a key of `casts` to its `last` wrapped in `CAST(... AS type)` (the inserted
 * tokens at the position of the range's first token, for error positions).
 */
export const withCasts = (all: ReadonlyArray<Tok>, casts: ReadonlyMap<Tok, { readonly last: Tok; readonly type: string; readonly alias?: Tok }>): ReadonlyArray<Tok> => {
  if (casts.size === 0) return all
  // inserted tokens take no part in a select item's column heading, which stays the statement's own text
  const tok = (kind: "ident" | "op" | "ws", text: string, pos: number): Tok => ({ kind, text, value: kind === "ws" ? " " : text, pos, heading: "" })
  const out: Array<Tok> = []
  // casts closing at one token (`a + :1` and `:1` both cast) close innermost first
  const closing = new Map<Tok, Array<{ type: string; pos: number; alias?: Tok }>>()
  for (const t of all) {
    const cast = casts.get(t)
    if (cast !== undefined) {
      out.push(tok("ident", "CAST", t.pos), tok("op", "(", t.pos))
      closing.set(cast.last, [{ type: cast.type, pos: t.pos, ...(cast.alias !== undefined ? { alias: cast.alias } : {}) }, ...(closing.get(cast.last) ?? [])])
    }
    out.push(t)
    for (const close of closing.get(t) ?? []) {
      out.push(tok("ws", " ", close.pos), tok("ident", "AS", close.pos), tok("ws", " ", close.pos))
      for (const piece of tokenize(close.type)) out.push({ ...piece, pos: close.pos, heading: "" })
      out.push(tok("op", ")", close.pos))
      // a select item keeps its column's name as the subquery's column name
      if (close.alias !== undefined) out.push(tok("ws", " ", close.pos), { ...close.alias, heading: "" })
    }
  }
  return out
}

/**
 * `interval * n`, `n * interval`, `interval / n` of an exact interval: the exact value scaled on every digit
 * (number-functions.ts), digits below the nanosecond (DAY TO SECOND) or the month (YEAR TO MONTH) cut. Oracle's
 * answer for a fraction of a month (`INTERVAL '1' MONTH * 1.5`) is not documented ("Datetime/Interval Arithmetic"
 * says only that the result is an interval): cut toward zero here, **unconfirmed** (Oracle might round it, as
 * NUMTOYMINTERVAL(10.56, 'MONTH') is reported to give +00-11 by https://database.guide/?p=19607).
 */
export const exactIntervalScaled = (op: "*" | "/", interval: string, kind: "dayToSecond" | "yearToMonth", factor: string): string => {
  const scaled = `ora_number_${op === "*" ? "mul" : "div"}(CAST(${interval} AS VARCHAR), CAST(${factor} AS VARCHAR))`
  return kind === "dayToSecond" ? `ora_ds_exact(CAST(${scaled} AS VARCHAR))` : `ora_ym_exact(CAST(ora_number_trunc(CAST(${scaled} AS VARCHAR), '0') AS BIGINT))`
}

/** The exact interval kind of translated text that is a call of interval-functions.ts giving one (an earlier result, a CAST). */
export const exactIntervalOfText = (text: string): "dayToSecond" | "yearToMonth" | undefined => {
  const inner = withoutOuterParens(text)
  const kind = /^ora_ds_(?:exact|of_duck|of_text|fit_exact|between)\(/.test(inner) ? "dayToSecond" : /^ora_ym_(?:exact|of_duck|of_text|fit_exact)\(/.test(inner) ? "yearToMonth" : undefined
  if (kind !== undefined || text.trim() === inner || !/^SELECT\s/i.test(inner)) return kind
  // a scalar subquery selecting one such value (`(SELECT d9 FROM t)`, its item in exact storage: interval-operands.ts)
  const item = inner.replace(/^SELECT\s+/i, "")
  const itemKind = /^ora_ds_(?:exact|of_duck|of_text|fit_exact|between)\(/.test(item) ? "dayToSecond" : /^ora_ym_(?:exact|of_duck|of_text|fit_exact)\(/.test(item) ? "yearToMonth" : undefined
  if (itemKind === undefined) return undefined
  let depth = 0
  for (let k = item.indexOf("("); k < item.length; k++) {
    if (item[k] === "(") depth++
    else if (item[k] === ")" && --depth === 0) return /^\s*(?:AS\s+\S+\s+|"[^"]*"\s+|\w+\s+)?FROM\s/i.test(item.slice(k + 1)) ? itemKind : undefined
  }
  return undefined
}

/** `text` without parentheses enclosing all of it (`((x))` is `x`; `(a) + (b)` is kept). */
const withoutOuterParens = (text: string): string => {
  let s = text.trim()
  while (s.startsWith("(") && s.endsWith(")")) {
    let depth = 0
    let inString = false
    let closesAtEnd = true
    for (let k = 0; k < s.length; k++) {
      const c = s[k]
      if (c === "'") inString = !inString
      else if (inString) continue
      else if (c === "(") depth++
      else if (c === ")" && --depth === 0 && k < s.length - 1) {
        closesAtEnd = false
        break
      }
    }
    if (!closesAtEnd) break
    s = s.slice(1, -1).trim()
  }
  return s
}

/**
 * `datetime ± exact DAY TO SECOND` for a TIMESTAMP or TIMESTAMP WITH TIME ZONE operand, every digit of the interval
 * added (DuckDB's INTERVAL has only microseconds): a zoned operand (`zoneArgument`: the session time zone its text
 * is read in) gives TIMESTAMP WITH TIME ZONE, another a TIMESTAMP(9) wall clock (interval-functions.ts).
 */
export const datetimePlusExactSeconds = (datetime: string, zoned: boolean, zoneArgument: string, op: "+" | "-", seconds: string): string => {
  const amount = op === "+" ? `CAST(${seconds} AS VARCHAR)` : `CAST(-CAST(${seconds} AS DECIMAL(38,9)) AS VARCHAR)`
  return zoned ? `ora_tstz_add_exact(CAST(${datetime} AS VARCHAR), ${zoneArgument}, ${amount})` : `ora_ts_add_exact(CAST(${datetime} AS VARCHAR), ${amount})`
}

/**
 * CAST(expression AS INTERVAL DAY(7-9) TO SECOND(7-9) / YEAR(9) TO MONTH) of an interval expression that is no
 * column (interval-operands.ts casts longer operands so): an exact result as it is (rounded to fewer fraction
 * digits), any other interval (a DuckDB INTERVAL) by its text in exact storage. An exact YEAR TO MONTH result cast
 * to YEAR(0-8) TO MONTH (written into such a column: `SET y2 = y2 * 1.5`) is that DuckDB INTERVAL, ORA-01873 past
 * its leading precision. Undefined for other target types.
 */
export const exactIntervalExpressionCast = (value: string, to: OraType): string | undefined => {
  if (to.kind === "intervalym" && !isExactInterval(to) && exactIntervalOfText(value) === "yearToMonth") return intervalBindFit(value, to)
  if ((to.kind !== "intervalds" && to.kind !== "intervalym") || !isExactInterval(to)) return undefined
  const kind = exactIntervalOfText(value)
  if (to.kind === "intervalym") return kind === "yearToMonth" ? value : `ora_ym_of_text(CAST(${value} AS VARCHAR))`
  const exact = kind === "dayToSecond" ? value : `ora_ds_of_text(CAST(${value} AS VARCHAR))`
  return to.scale < 9 ? exactOf(`round(CAST(${exact} AS DECIMAL(38,9)), ${to.scale})`, to) : exact
}

/**
 * The type of a TIMESTAMP difference (translated text one `ora_ts_diff` call, database-macros.ts), as TO_CHAR and `||`
 * print it: DAY(9) TO SECOND(6), what a CREATE TABLE ... AS SELECT of one declares here (Oracle documents no precision
 * for it; unconfirmed); undefined for other text.
 */
export const timestampDifferenceTypeOfText = (text: string): OraType | undefined => {
  const inner = withoutOuterParens(text)
  if (!inner.startsWith("ora_ts_diff(")) return undefined
  return withoutOuterParens(inner.slice("ora_ts_diff".length)) !== inner.slice("ora_ts_diff".length) ? intervalDsType(9, 6) : undefined
}

/** The type an exact interval result (translated text, interval-functions.ts) is described as: DAY(9) TO SECOND(9), YEAR(9) TO MONTH. */
export const exactIntervalTypeOfText = (text: string): OraType | undefined => {
  const kind = exactIntervalOfText(text)
  return kind === "dayToSecond" ? intervalDsType(9, 9) : kind === "yearToMonth" ? intervalYmType(9) : undefined
}

/** Whether tokens [from, to) are a whole item of a select list (an alias may follow). */
const isWholeSelectItem = (toks: ReadonlyArray<Tok>, from: number, to: number): boolean => {
  const after = toks[to]
  const ends = (t: Tok | undefined) => t === undefined || isOp(t, ",") || isKw(t, "FROM")
  const aliased = isKw(after, "AS") || (after?.kind === "ident" && !isKw(after, "FROM") && ends(toks[to + 1])) || after?.kind === "qident"
  if (!ends(after) && !aliased) return false
  let depth = 0
  for (let k = from - 1; k >= 0; k--) {
    const t = toks[k]!
    if (isOp(t, ")")) depth++
    else if (isOp(t, "(")) {
      if (depth === 0) return false
      depth--
    } else if (depth > 0 || t.kind === "ws") continue
    else if (isKw(t, "SELECT")) return true
    else if (k === from - 1 && !isOp(t, ",") && !isKw(t, "DISTINCT", "UNIQUE", "ALL")) return false
    else if (isKw(t, "FROM", "WHERE", "BY", "SET", "VALUES", "ON", "HAVING", "INTO", "USING", "RETURNING")) return false
  }
  return false
}

/**
 * An interval literal selected on its own (a whole select item) that translate-literals.ts intervalLiteral wrote in
 * exact storage (the statement's interval columns of its kind are all exact) typed as an exact interval result, so it
 * is described and sent as an interval (SQL Language Reference, "Interval Literals"), not as its stored number;
 * undefined for any other text.
 */
export const exactIntervalLiteralItem = (toks: ReadonlyArray<Tok>, from: number, to: number, text: string): string | undefined => {
  if (!isWholeSelectItem(toks, from, to)) return undefined
  if (/^CAST\('-?\d+\.\d{9}' AS DECIMAL\(38,9\)\)$/.test(text)) return `ora_ds_exact(CAST(${text} AS VARCHAR))`
  if (/^CAST\(-?\d+ AS BIGINT\)$/.test(text)) return `ora_ym_exact(${text})`
  return undefined
}

/**
 * An ORDER BY key of an exact interval result: its stored number, without the interval alias type (DuckDB's sort
 * looks the alias up by name in the catalog, where the scalar functions' aliases are not).
 */
export const exactIntervalOrderKey = (text: string): string => `CAST(${text} AS ${exactIntervalOfText(text) === "yearToMonth" ? "BIGINT" : "DECIMAL(38,9)"})`

/**
 * CAST(bind AS interval type), as interval-writes.ts casts every value written into an interval column: the bound
 * value (passed as text: intervals.ts gives a bound interval's exact digits) fitted to the type's precisions by
 * interval-functions.ts, rounded to its fractional seconds and checked against its leading field (ORA-01873).
 */
export const intervalBindFit = (bind: string, to: OraType): string | undefined => {
  const storage = isExactInterval(to) ? "exact" : "duck"
  if (to.kind === "intervalds") return `ora_ds_fit_${storage}(CAST(${bind} AS VARCHAR), ${to.precision}, ${to.scale})`
  return to.kind === "intervalym" ? `ora_ym_fit_${storage}(CAST(${bind} AS VARCHAR), ${to.precision})` : undefined
}
