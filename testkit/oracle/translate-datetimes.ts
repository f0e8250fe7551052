/**
 * The translator's text datetime rewrites (TIMESTAMP WITH TIME ZONE and TIMESTAMP(7-9) kept as text,
 * datetime-functions.ts): comparisons, BETWEEN, IN and ORDER BY by instant or wall clock, CASE / DECODE / NVL2 results,
 * AT TIME ZONE, subquery items, INSERT ... SELECT targets, EXTRACT, and the zone TO_CHAR shows.
 */
import { isKw, isOp, type Tok } from "./lexer.ts"
import { oracleName } from "./expression-names.ts"
import { clausesOf, COMPARISONS, distinctItems, identOut, selectItemName } from "./translate-literals.ts"
import { asTextDatetime, datetimeArgument, inSessionZone, textDatetimeOfText, wallClockOf, zoneArgument } from "./translate-datetime-sql.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { Part, TextDatetimeKind, ZonedOperand } from "./translate-types.ts"

/**
 * `CASE ... END` whose first non-NULL result is a text datetime: a value of that kind (every result as text, the
 * whole read as that kind), so that it is described, compared and formatted as one ("the return values must all be
 * of the same data type group", SQL Language Reference, "CASE Expressions").
 */
export function textDatetimeCaseParts(tr: TranslatorCore, parts: Array<Part>): void {
  const opens = (p: Part) => !p.separator && isKw(tr.toks[p.from], "CASE") && tr.caseEnd(p.from, p.to) < 0
  // a simple CASE over a zoned operand or WHEN value: compared by instant (`CASE t WHEN TIMESTAMP '...' THEN ...`)
  for (let j = 0; j < parts.length; j++) {
    const head = parts[j]!
    if (!opens(head) || head.to <= head.from + 1) continue
    const whens: Array<Part> = []
    for (let depth = 1, k = j + 1; k < parts.length; k++) {
      const q = parts[k]!
      if (opens(q)) depth++
      else if (q.separator && isKw(tr.toks[q.from], "END") && --depth === 0) break
      else if (depth === 1 && !q.separator && parts[k - 1]!.separator && isKw(tr.toks[parts[k - 1]!.from], "WHEN")) whens.push(q)
    }
    const operand = tr.range(head.from + 1, head.to)
    const zoned = (tr.textDatetimeAt(head.from + 1, head.to) ?? textDatetimeOfText(operand)) === "zoned" || whens.some((q) => tr.textDatetimeOfPart(q) === "zoned")
    if (!zoned || tr.toks.slice(head.from, head.to).some((t) => t.kind === "bind")) continue
    head.text = `CASE ora_tstz_key(${datetimeArgument(operand, "zoned")})`
    for (const q of whens) q.text = `ora_tstz_key(${datetimeArgument(q.text, "zoned")})`
  }
  for (let j = 0; j < parts.length; j++) {
    if (!opens(parts[j]!)) continue
    const results: Array<Part> = []
    let depth = 1
    let end = j + 1
    for (; end < parts.length; end++) {
      const q = parts[end]!
      if (opens(q)) depth++
      else if (q.separator && isKw(tr.toks[q.from], "END") && --depth === 0) break
      else if (depth === 1 && !q.separator && parts[end - 1]!.separator && isKw(tr.toks[parts[end - 1]!.from], "THEN", "ELSE")) results.push(q)
    }
    const first = results.find((q) => !(q.to === q.from + 1 && isKw(tr.toks[q.from], "NULL")))
    // SYSTIMESTAMP / CURRENT_TIMESTAMP first: a TIMESTAMP WITH TIME ZONE too, text when another result is zoned text
    const nativeZoned = first !== undefined && first.to === first.from + 1 && isKw(tr.toks[first.from], "SYSTIMESTAMP", "CURRENT_TIMESTAMP") && results.some((q) => tr.textDatetimeOfPart(q) === "zoned")
    const kind = first === undefined || end >= parts.length ? undefined : nativeZoned ? "zoned" : tr.textDatetimeOfPart(first)
    if (kind === undefined) continue
    // CURRENT_TIMESTAMP in the session time zone, as it shows alone
    for (const q of results) q.text = `CAST(${q.to === q.from + 1 && isKw(tr.toks[q.from], "CURRENT_TIMESTAMP") && kind === "zoned" ? inSessionZone(q.text) : q.text} AS VARCHAR)`
    parts[j]!.text = kind === "zoned" ? `ora_tstz(CAST(${parts[j]!.text}` : `ora_ts(CAST(${parts[j]!.text}`
    parts[end]!.text = `${parts[end]!.text} AS VARCHAR)${kind === "zoned" ? `, ${zoneArgument(kind)}` : ""})`
  }
}

/**
 * A text datetime column that is a whole item of a subquery's select list (or of a later branch of a set
 * operation), rendered as a value typed ORA_TSTZ / ORA_TS (datetime-functions.ts), so that the enclosing query
 * describes it as TIMESTAMP WITH TIME ZONE / TIMESTAMP(9) rather than as the VARCHAR2 it is stored as; true when
 * `parts[j]` was such an item.
 */
export function nestedSelectItem(tr: TranslatorCore, parts: Array<Part>, j: number): boolean {
  const p = parts[j]!
  if (p.separator || p.text.length === 0) return false
  const at = (k: number) => (parts[k]?.separator === true ? tr.toks[parts[k]!.from] : undefined)
  const before = at(j - 1)
  const after = at(j + 1)
  if (!(isKw(before, "SELECT", "DISTINCT", "UNIQUE", "ALL") || isOp(before, ",")) || !(isKw(after, "FROM", "AS") || isOp(after, ","))) return false
  let select = j - 1
  while (select >= 0 && !(parts[select]!.separator && isKw(tr.toks[parts[select]!.from], "SELECT"))) {
    const t = at(select)
    if (t !== undefined && !isOp(t, ",") && !isKw(t, "DISTINCT", "UNIQUE", "ALL")) return false
    select--
  }
  const opener = select < 0 ? undefined : tr.toks[parts[select]!.from - 1]
  if (!(isOp(opener, "(") || isKw(opener, "UNION", "ALL", "INTERSECT", "MINUS", "EXCEPT"))) return false
  // the column alone, or followed by its alias (`ts t`); an `AS alias` part keeps its own
  const whole = tr.columnNameAt(p.from, p.to) !== undefined
  if (!whole && (tr.columnNameAt(p.from, p.to - 1) === undefined || p.to - p.from < 2)) return false
  const end = whole ? p.to : p.to - 1
  const kind = tr.textDatetimeAt(p.from, end)
  if (kind === undefined || textDatetimeOfText(p.text) !== undefined) return false
  const name = isKw(after, "AS") ? "" : ` AS ${identOut(tr.toks[p.to - 1]!)}`
  p.text = `${asTextDatetime(tr.range(p.from, end), kind)}${name}`
  return true
}

/**
 * The order key of ORDER BY item `tok` (a position or an alias) of a subquery, or of a set operation in one, when it
 * names a text datetime item of the (first) select list: its instant or wall clock, as Oracle orders such values;
 * undefined otherwise (the top-level query's items are translateQuery's, datetimeOrderItems).
 */
export function nestedOrderKey(tr: TranslatorCore, parts: ReadonlyArray<Part>, tok: Tok): string | undefined {
  const toks = tr.toks
  const selects = parts.filter((q) => q.separator && isKw(toks[q.from], "SELECT"))
  const first = selects[0]
  if (first === undefined || !isOp(toks[first.from - 1], "(") || (tok.kind !== "num" && tok.kind !== "ident" && tok.kind !== "qident")) return undefined
  const items = distinctItems(toks, isKw(toks[first.from + 1], "DISTINCT", "UNIQUE", "ALL") ? first.from + 2 : first.from + 1)
  if (items === undefined) return undefined
  const nameOf = (item: [number, number]) => selectItemName(toks, item, tr.columnNameAt(item[0], item[1]) !== undefined)
  const index = tok.kind === "num" ? Number(tok.value) - 1 : items.findIndex((item) => { const n = nameOf(item); return n !== undefined && oracleName(n) === oracleName(tok) })
  const item = items[index]
  if (item === undefined || toks.slice(item[0], item[1]).some((t) => t.kind === "bind")) return undefined
  const text = tr.range(item[0], item[1])
  const kind = tr.textDatetimeAt(item[0], item[1]) ?? textDatetimeOfText(text)
  const name = nameOf(item)
  if (kind === undefined || (selects.length > 1 && name === undefined)) return undefined
  // a set operation's ORDER BY names the result's columns
  return `ora_tstz_key(${datetimeArgument(selects.length > 1 ? identOut(name!) : text, kind)})`
}

/**
 * A datetime operand whose time zone TO_CHAR shows: a LOCAL TIME ZONE column or CURRENT_TIMESTAMP (the session time
 * zone, Oracle Database Globalization Support Guide, "TIMESTAMP WITH LOCAL TIME ZONE Data Type":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html)
 * (zoned literals and columns are text datetimes, see textDatetimeAt); undefined for others.
 */
export function zonedOperand(tr: TranslatorCore, from: number, to: number): ZonedOperand | undefined {
  const t = tr.toks[from]
  const textCast = tr.localZoneCastAt(from, to)?.duck === "VARCHAR"
  if (to - from === 1 && isKw(t, "CURRENT_TIMESTAMP") || (tr.isLocalZoneColumn(from, to) && tr.textDatetimeAt(from, to) === undefined && !textCast)) {
    const x = tr.range(from, to)
    return { local: `ora_session_local(${x})`, offsetMinutes: `ora_session_offset(${x})`, region: "getvariable('ora_session_tz')" }
  }
  return undefined
}

/**
 * `datetime AT TIME ZONE zone` and `datetime AT LOCAL`: the same instant in that zone, a TIMESTAMP WITH TIME ZONE
 * (SQL Language Reference, "Datetime Expressions"). Any datetime operand: a text datetime, a TIMESTAMP or DATE (read in
 * the session time zone: "The session time zone also takes effect when a TIMESTAMP value is converted to the TIMESTAMP
 * WITH TIME ZONE or TIMESTAMP WITH LOCAL TIME ZONE datatype", Database Globalization Support Guide, "Setting the
 * Session Time Zone") or a LOCAL TIME ZONE value (DuckDB renders its instant with offset +00).
 */
export function textDatetimeAtZone(tr: TranslatorCore, parts: Array<Part>): void {
  for (const p of parts) {
    if (p.separator) continue
    let depth = 0
    // from the part's first token: an AT inside a leading parenthesis is the parenthesis's own (rendered within it)
    for (let i = p.from; i < p.to && depth >= 0; i++) {
      const t = tr.toks[i]!
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      if (depth !== 0 || i === p.from || !isKw(t, "AT")) continue
      const local = isKw(tr.toks[i + 1], "LOCAL") && i + 2 === p.to
      if (!local && !(isKw(tr.toks[i + 1], "TIME") && isKw(tr.toks[i + 2], "ZONE") && i + 3 < p.to)) continue
      const operand = tr.range(p.from, i)
      const zone = local ? "getvariable('ora_session_tz')" : `CAST(${tr.range(i + 3, p.to)} AS VARCHAR)`
      p.text = `ora_tstz_at(${datetimeArgument(operand, "zoned")}, ${zone})`
      break
    }
  }
}

/**
 * `INSERT INTO t (cols) SELECT items ...`: a text datetime item whose target column is a DuckDB datetime (DATE,
 * TIMESTAMP(0-6), WITH LOCAL TIME ZONE) as that column takes it: its own wall clock, as Oracle converts TIMESTAMP WITH
 * TIME ZONE to TIMESTAMP or DATE (the zone dropped), or its instant for a LOCAL TIME ZONE column; into a text datetime
 * column of the other kind, as that kind (`asTextDatetime`: a TIMESTAMP(7-9) zoned in the session time zone).
 */
export function textDatetimeInsertTargets(tr: TranslatorCore, parts: Array<Part>): void {
  const toks = tr.toks
  const sep = (k: number, ...words: Array<string>) => parts[k]?.separator === true && isKw(toks[parts[k]!.from], ...words)
  const target = parts[2]
  if (!sep(0, "INSERT") || !sep(1, "INTO") || target === undefined || target.separator || !sep(3, "SELECT")) return
  const open = toks.findIndex((t, k) => k >= target.from && k < target.to && isOp(t, "("))
  if (open < 0) return
  const columns = tr.args(open).parts.map(([a, b]) => (b - a === 1 ? oracleName(toks[a]!) : ""))
  for (let k = 4, item = 0; k < parts.length && !(parts[k]!.separator && !isOp(toks[parts[k]!.from], ",")); k++) {
    const p = parts[k]!
    if (p.separator) {
      item++
      continue
    }
    const kind = tr.textDatetimeOfPart(p)
    const column = columns[item] ?? ""
    const columnKind = tr.ctx.textDatetimeColumns?.get(column)
    if (kind === undefined || columnKind === kind || tr.ctx.dateColumns?.has(column) !== true) continue
    if (columnKind !== undefined) p.text = asTextDatetime(p.text, columnKind)
    else p.text = tr.ctx.localZoneColumns?.has(column) === true ? `ora_tstz_utc(${datetimeArgument(p.text, "zoned")})` : wallClockOf(p.text, kind)
  }
}

/**
 * The results (argument indexes `results`) of a DECODE / NVL2 call as one text datetime when its result is one: its
 * type is the first non-NULL result's ("Oracle automatically converts the return value to the same data type as the
 * first result", SQL Language Reference, "DECODE"; NVL2 returns expr2's type, "NVL2"). `arg` renders each result as
 * text and `wrap` makes the call's value a text datetime again, so it is described, compared and formatted as one.
 */
export function textDatetimeResult(tr: TranslatorCore, parts: ReadonlyArray<[number, number]>, results: ReadonlyArray<number>, arg: (k: number) => string) {
  const first = results.find((k) => { const p = parts[k]; return p !== undefined && !(p[1] === p[0] + 1 && isKw(tr.toks[p[0]], "NULL")) })
  const p = first === undefined ? undefined : parts[first]
  const word = (k: number, ...words: Array<string>) => { const q = parts[k]; return q !== undefined && q[1] === q[0] + 1 && isKw(tr.toks[q[0]], ...words) }
  // SYSTIMESTAMP / CURRENT_TIMESTAMP first: a TIMESTAMP WITH TIME ZONE too, text when another result is zoned text (as
  // textDatetimeCaseParts)
  const nativeZoned = first !== undefined && word(first, "SYSTIMESTAMP", "CURRENT_TIMESTAMP") && results.some((k) => parts[k] !== undefined && (tr.textDatetimeAt(parts[k]![0], parts[k]![1]) ?? textDatetimeOfText(arg(k))) === "zoned")
  const kind = p === undefined ? undefined : nativeZoned ? "zoned" : (tr.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(arg(first!)))
  // CURRENT_TIMESTAMP in the session time zone, as it shows alone
  const result = (k: number) => (kind === "zoned" && word(k, "CURRENT_TIMESTAMP") ? inSessionZone(arg(k)) : arg(k))
  return {
    arg: (k: number) => (kind === undefined ? arg(k) : `CAST(${result(k)} AS VARCHAR)`),
    wrap: (text: string) => (kind === undefined ? text : asTextDatetime(text, kind))
  }
}

/**
 * Comparisons, BETWEEN and ORDER BY items over text datetimes: by `ora_tstz_key`, which orders zoned values by their
 * UTC instant and zoneless ones by their wall clock, to the nanosecond. Oracle compares TIMESTAMP WITH TIME ZONE
 * values by instant, and a TIMESTAMP with one in the session time zone (Database Globalization Support Guide,
 * "Datetime Comparisons":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html).
 */
export function textDatetimeParts(tr: TranslatorCore, parts: Array<Part>): void {
  const clauses = clausesOf(parts, tr.toks)
  const key = (p: Part, kind: TextDatetimeKind) => `ora_tstz_key(${datetimeArgument(p.text, kind)})`
  for (let j = 0; j < parts.length; j++) {
    const p = parts[j]!
    const tok = tr.toks[p.from]!
    if (p.separator) {
      const left = parts[j - 1]
      const right = parts[j + 1]
      const comparison = tok.kind === "op" && COMPARISONS.has(tok.value) && clauses[j] !== "set"
      if (!comparison || left === undefined || right === undefined || left.separator || right.separator) continue
      const kinds = [tr.textDatetimeOfPart(left), tr.textDatetimeOfPart(right)]
      if (kinds[0] === undefined && kinds[1] === undefined) continue
      const kind = kinds.includes("zoned") ? "zoned" : "wall"
      left.text = key(left, kind)
      right.text = key(right, kind)
      j++
      continue
    }
    const item = clauses[j] === "order" && p.to === p.from + 1 ? tr.datetimeOrderItems.get(tok.value) : undefined
    if (item !== undefined) {
      p.text = `ora_tstz_key(${datetimeArgument(item.text, item.kind)})`
      continue
    }
    const nestedKey = clauses[j] === "order" && p.to === p.from + 1 ? nestedOrderKey(tr, parts, tok) : undefined
    if (nestedKey !== undefined) {
      p.text = nestedKey
      continue
    }
    if (nestedSelectItem(tr, parts, j)) continue
    const kind = tr.textDatetimeOfPart(p) ?? (clauses[j] === "order" ? undefined : zonedSubqueryOperand(tr, parts, j))
    if (kind === undefined || p.text.length === 0) continue
    if (clauses[j] === "order") {
      p.text = key(p, kind)
      continue
    }
    const at = (k: number) => (parts[k]?.separator === true ? tr.toks[parts[k]!.from] : undefined)
    const negated = isKw(at(j + 1), "NOT") ? 1 : 0
    const lo = parts[j + 2 + negated]
    const hi = parts[j + 4 + negated]
    if (isKw(at(j + 1 + negated), "BETWEEN") && isKw(at(j + 3 + negated), "AND") && lo !== undefined && hi !== undefined && !lo.separator && !hi.separator) {
      const all = [kind, tr.textDatetimeOfPart(lo), tr.textDatetimeOfPart(hi)].includes("zoned") ? "zoned" : "wall"
      p.text = `${negated === 1 ? "NOT " : ""}(${key(p, all)} BETWEEN ${key(lo, all)} AND ${key(hi, all)})`
      for (let k = j + 1; k <= j + 4 + negated; k++) parts[k]!.text = ""
      continue
    }
    const list = parts[j + 2 + negated]
    const quantified = parts[j + 3]
    const comparedTo = at(j + 1)
    if (comparedTo?.kind === "op" && COMPARISONS.has(comparedTo.value) && isKw(at(j + 2), "ANY", "SOME", "ALL") && quantified !== undefined && isOp(tr.toks[quantified.from], "(") && isKw(tr.toks[quantified.from + 1], "SELECT", "WITH")) {
      // `zoned op ANY | SOME | ALL (subquery)`: its column by the same instant key, as `IN (subquery)` below
      p.text = key(p, kind)
      quantified.text = `(SELECT ora_tstz_key(CAST("ora$in"."v" AS VARCHAR), ${zoneArgument(kind)}) FROM ${quantified.text} AS "ora$in"("v"))`
      continue
    }
    if (isKw(at(j + 1 + negated), "IN") && list !== undefined && isOp(tr.toks[list.from], "(") && !isKw(tr.toks[list.from + 1], "SELECT", "WITH")) {
      const items = tr.args(list.from).parts.map(([a, b]) => ({ text: tr.range(a, b), from: a, to: b, separator: false }))
      const all = [kind, ...items.map((item) => tr.textDatetimeOfPart(item))].includes("zoned") ? "zoned" : "wall"
      p.text = key(p, all)
      list.text = `(${items.map((item) => key(item, all)).join(", ")})`
    } else if (isKw(at(j + 1 + negated), "IN") && list !== undefined && isOp(tr.toks[list.from], "(")) {
      // `IN (subquery)`: its one column by the same key (a TIMESTAMP in the session time zone when `p` is zoned)
      const column = `CAST("ora$in"."v" AS VARCHAR), ${zoneArgument(kind)}`
      p.text = key(p, kind)
      list.text = `(SELECT ora_tstz_key(${column}) FROM ${list.text} AS "ora$in"("v"))`
    }
  }
}

/**
 * "zoned" when `parts[j]` is a zoneless datetime (a TIMESTAMP or DATE column, a TIMESTAMP expression) compared by `IN`
 * or `op ANY | SOME | ALL` with a subquery of zoned values: compared by instant then, the TIMESTAMP in the session time
 * zone, as Oracle compares them (Database Globalization Support Guide, "Datetime Comparisons").
 */
function zonedSubqueryOperand(tr: TranslatorCore, parts: ReadonlyArray<Part>, j: number): "zoned" | undefined {
  const p = parts[j]!
  const at = (k: number) => (parts[k]?.separator === true ? tr.toks[parts[k]!.from] : undefined)
  const negated = isKw(at(j + 1), "NOT") ? 1 : 0
  const subquery = isKw(at(j + 1 + negated), "IN") ? parts[j + 2 + negated] : at(j + 1)?.kind === "op" && COMPARISONS.has(at(j + 1)!.value) && isKw(at(j + 2), "ANY", "SOME", "ALL") ? parts[j + 3] : undefined
  if (subquery === undefined || subquery.separator || !isOp(tr.toks[subquery.from], "(") || !isKw(tr.toks[subquery.from + 1], "SELECT")) return undefined
  const name = tr.columnNameAt(p.from, p.to)
  const datetime = tr.isTimestampAt(p.from, p.to) || (name !== undefined && tr.ctx.dateColumns?.has(name) === true)
  return datetime && tr.textDatetimeAt(subquery.from, subquery.to) === "zoned" ? "zoned" : undefined
}

/**
 * EXTRACT(field FROM text datetime): of a zoned value the UTC fields ("When extracting from a datetime with a time
 * zone value, the value returned is in UTC", SQL Language Reference, "EXTRACT (datetime)":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/EXTRACT-datetime.html), its zone's offset,
 * region and abbreviation; SECOND with its fraction digits. Undefined for other operands.
 */
export function textDatetimeExtract(tr: TranslatorCore, p: [number, number] | undefined): string | undefined {
  const toks = tr.toks
  if (p === undefined || !isKw(toks[p[0] + 1], "FROM") || toks[p[0]]?.kind !== "ident") return undefined
  const kind = tr.textDatetimeAt(p[0] + 2, p[1]) ?? textDatetimeOfText(tr.range(p[0] + 2, p[1]))
  if (kind === undefined) return undefined
  const args = datetimeArgument(tr.range(p[0] + 2, p[1]), kind)
  const field = toks[p[0]]!.value
  const element = (e: string) => `ora_tstz_format(${args}, '${e}')`
  switch (field) {
    case "TIMEZONE_HOUR":
      return `CAST(${element("TZH")} AS INTEGER)`
    case "TIMEZONE_MINUTE":
      return `(CASE WHEN ${element("TZH")} LIKE '-%' THEN -1 ELSE 1 END * CAST(${element("TZM")} AS INTEGER))`
    case "TIMEZONE_REGION":
      return element("TZR")
    case "TIMEZONE_ABBR":
      return element("TZD")
  }
  const point = kind === "zoned" ? `ora_tstz_utc(${args})` : `ora_tstz_local(${args})`
  if (field === "SECOND") return `(CAST(extract(second FROM ${point}) AS DECIMAL(11,9)) + CAST('0.' || ${element("FF9")} AS DECIMAL(11,9)))`
  return `extract(${field.toLowerCase()} FROM ${point})`
}
