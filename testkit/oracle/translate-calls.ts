/**
 * Identifiers, pseudo-columns and function calls as DuckDB SQL: sequences, ROWID, datetime and interval literals,
 * SYSDATE and friends, FETCH / OFFSET, and Oracle's functions (CAST, TO_CHAR, TO_DATE, DECODE, NVL, TRUNC, ...).
 */
import { everydayScalarCall } from "./everyday-functions.ts"
import { castSql, declaredFraction, defaultFormatText } from "./translate-cast.ts"
import { checkInputFormat, checkOutputFormat } from "./datetime-format-checks.ts"
import { datetimeModelError, datetimeModelValid, toCharByType } from "./to-char-by-type.ts"
import { withFractionDigits } from "./fraction-precision.ts"
import { dateLanguageOfParameter, SESSION_DATE_LANGUAGE } from "./date-language.ts"
import { ora, OraError } from "./errors.ts"
import { coalesceFamilyCheck } from "./coalesce-families.ts"
import { regexpCall } from "./regexp-functions.ts"
import { isKw, isOp, matchParen, sqlString } from "./lexer.ts"
import { encodeName, quoteDuck } from "./names.ts"
import { oracleName } from "./expression-names.ts"
import { EXACT_CALLS, EXACT_RESULT, exactCallSql, numberFormatSql } from "./number-sql.ts"
import { checkRowidComparison } from "./rowid-literals.ts"
import { zoneFunctionSql } from "./zone-functions.ts"
import { rowLimitingSql } from "./row-limiting.ts"
import { keepAggregateSql } from "./keep-aggregates.ts"
import { padSubstrSql } from "./pad-substr.ts"
import { unicodeEscapeSql } from "./unicode-escapes.ts"
import { datetimeEntry, datetimePercentileSql, percentileWindowSql } from "./percentile-windows.ts"
import { STATISTIC_AGGREGATES, statisticAggregateSql } from "./statistic-aggregates.ts"
import { dumpOperandCall } from "./dump-operands.ts"
import { newerFunctionSql } from "./newer-functions.ts"
import { nextDaySql, weekRoundSql, weekTruncSql, weekUnitOf } from "./week-dates.ts"
import { isNumberExpression, numberExpressionText } from "./character-writes.ts"
import { binaryConversionSql } from "./binary-conversions.ts"
import { intervalCastTypeAt } from "./interval-compounds.ts"
import { exactIntervalAggregate, exactIntervalOrderKey, isExactInterval, exactIntervalLiteralItem, exactIntervalExtract, exactIntervalTypeOfText, intervalToChar, timestampDifferenceTypeOfText } from "./interval-exprs.ts"
import { BINARY_CONSTANTS, DUCK_ONLY_RESERVED, identOut, isDuckOnlyReservedName, intervalLiteral, intervalLiteralIn, isDateOnly, isDateUnit, timestampLiteral } from "./translate-literals.ts"
import { asTextDatetime, convertDateFormat, datetimeArgument, inSessionZone, roundedDatetime, strftimeNs, textDatetimeExtreme, textDatetimeOfText, textDatetimeToChar, wallClockOf, withOracleYears, zonedToChar } from "./translate-datetime-sql.ts"
import { exactAggregate } from "./translate-numbers.ts"
import { textDatetimeExtract, textDatetimeResult, zonedOperand } from "./translate-datetimes.ts"
import type { TranslatorCore } from "./translate-core.ts"
import { defaultFormatRead } from "./nls-formats.ts"
import { characterText, readsDatetimeAsText } from "./datetime-character-contexts.ts"
import { datetimeAggregateSql } from "./datetime-aggregates.ts"


/** The argument indexes of DECODE's results (`DECODE(expr, search, result, ..., default)`) among `count` arguments. */
export const decodeResults = (count: number): Array<number> => Array.from({ length: count }, (_, k) => k).filter((k) => k > 1 && (k % 2 === 0 || k === count - 1))

export function ident(tr: TranslatorCore, i: number, to: number): [string, number] {
  const toks = tr.toks
  const t = toks[i]!
  const v = t.value
  const next = toks[i + 1]
  // `SELECT (3+5)`, `SELECT DISTINCT (a)`: the keyword before a parenthesised select item is no function call
  const call = isOp(next, "(") && !isKw(t, "SELECT", "DISTINCT", "UNIQUE", "ALL")
  // sequence pseudo-columns: seq.NEXTVAL / schema.seq.NEXTVAL
  if (isOp(next, ".") && isKw(toks[i + 2], "NEXTVAL", "CURRVAL") && !isOp(toks[i - 1], ".")) {
    return [`${toks[i + 2]!.value === "NEXTVAL" ? "nextval" : "currval"}(${sqlString(encodeName(oracleName(t)))})`, i + 3]
  }
  if (
    isOp(next, ".") &&
    (toks[i + 2]?.kind === "ident" || toks[i + 2]?.kind === "qident") &&
    isOp(toks[i + 3], ".") &&
    isKw(toks[i + 4], "NEXTVAL", "CURRVAL")
  ) {
    const name = `${encodeName(oracleName(t))}.${encodeName(oracleName(toks[i + 2]!))}`
    return [`${toks[i + 4]!.value === "NEXTVAL" ? "nextval" : "currval"}(${sqlString(name)})`, i + 5]
  }
  // a qualified column named by a word only DuckDB reserves (k.LIMIT)
  if (isOp(toks[i - 1], ".")) return [t.kind === "ident" && DUCK_ONLY_RESERVED.has(v) ? quoteDuck(v) : identOut(t), i + 1]
  if (v === "ROWID" && !call) {
    checkRowidComparison(toks, i)
    return ["ora_rowid(rowid)", i + 1]
  }
  // a window frame's `CURRENT ROW` (not a column named ROW)
  if (v === "ROW" && isKw(toks[i - 1], "CURRENT")) return ["ROW", i + 1]
  if (v === "TIMESTAMP" && next?.kind === "str") return [timestampLiteral(next.value), i + 2]
  if (v === "INTERVAL" && next?.kind === "str") {
    let k = i + 2
    const units: string[] = []
    while (k < to && (isKw(toks[k], "DAY", "HOUR", "MINUTE", "SECOND", "MONTH", "YEAR", "TO") || isOp(toks[k], "(") || toks[k]!.kind === "ws")) {
      if (toks[k]!.kind === "ident") units.push(toks[k]!.value)
      k = isOp(toks[k], "(") ? matchParen(toks, k) + 1 : k + 1
    }
    const literal = intervalLiteral(next.value, units, tr.ctx.exactIntervals)
    return [exactIntervalLiteralItem(toks, i, k, literal) ?? literal, k]
  }
  if (!call) {
    // FETCH ... PERCENT | WITH TIES (row-limiting.ts)
    const limiting = rowLimitingSql(tr, i)
    if (limiting !== undefined) return limiting
    switch (v) {
      case "SYSDATE":
        return ["ora_sysdate()", i + 1]
      case "BINARY_DOUBLE_NAN":
      case "BINARY_DOUBLE_INFINITY":
      case "BINARY_FLOAT_NAN":
      case "BINARY_FLOAT_INFINITY":
        return [BINARY_CONSTANTS[v]!, i + 1]
      case "CURRENT_DATE":
        return ["ora_current_date()", i + 1]
      case "SYSTIMESTAMP":
      case "CURRENT_TIMESTAMP":
        // a function call, not `current_timestamp`: DuckDB would resolve that word to an earlier select-list alias
        return ["get_current_timestamp()", i + 1]
      case "LOCALTIMESTAMP":
        return ["ora_localtimestamp()", i + 1]
      case "USER":
        return ["ora_user()", i + 1]
      case "UID":
        return ["ora_uid()", i + 1]
      case "DBTIMEZONE":
        return [sqlString(tr.ctx.dbTimeZone), i + 1]
      case "SESSIONTIMEZONE":
        return ["getvariable('ora_session_tz')", i + 1]
      case "MINUS":
        return ["EXCEPT", i + 1]
      case "ROWNUM":
        // rownum.ts rewrites it in select lists, WHERE conjuncts and UPDATE's SET clause
        throw ora.unimplemented("ROWNUM outside a select list, a WHERE conjunct `ROWNUM op value` or an UPDATE's SET clause")
      case "FETCH": {
        // FETCH FIRST|NEXT n ROW|ROWS ONLY -> LIMIT n
        if (isKw(toks[i + 1], "FIRST", "NEXT")) {
          let k = i + 2
          const count = toks[k]
          if (count !== undefined && (count.kind === "num" || count.kind === "bind")) k++
          if (isKw(toks[k], "ROW", "ROWS")) k++
          // WITH TIES without an ORDER BY returns no additional rows (row-limiting.ts renders it with one)
          if (isKw(toks[k], "ONLY")) k++
          else if (isKw(toks[k], "WITH") && isKw(toks[k + 1], "TIES")) k += 2
          // "If rowcount includes a fraction, then the fractional portion is truncated" (SELECT, row_limiting_clause)
          const n = count?.kind === "num" ? String(Math.trunc(Number(count.value))) : count?.kind === "bind" ? tr.range(i + 2, i + 3) : "1"
          return [`LIMIT ${n}`, k]
        }
        break
      }
      case "OFFSET": {
        if (isKw(toks[i + 2], "ROW", "ROWS")) return [`OFFSET ${tr.range(i + 1, i + 2)}`, i + 3]
        break
      }
    }
    // a column named AT (Oracle reserves no such word; DuckDB's parser does): quoted unless AT TIME ZONE / AT LOCAL
    if (v === "AT" && !isKw(toks[i + 1], "TIME", "LOCAL")) return [quoteDuck(v), i + 1]
    // LIMIT, OFFSET, WINDOW, LEADING, ... naming a column (translate-literals.ts DUCK_ONLY_RESERVED)
    if (isDuckOnlyReservedName(toks, i)) return [quoteDuck(v), i + 1]
    return [identOut(t), i + 1]
  }
  const { parts, close } = tr.args(i + 1)
  // each argument rendered once (a bind callback may count its calls)
  const rendered: Array<string | undefined> = []
  const arg = (k: number) => {
    const p = parts[k]
    return p === undefined ? "NULL" : (rendered[k] ??= tr.range(p[0], p[1]))
  }
  // a text datetime (TIMESTAMP WITH TIME ZONE, TIMESTAMP(7-9)) where a function takes a DATE: its own wall clock, as
  // Oracle converts it to DATE dropping the zone (ADD_MONTHS, MONTHS_BETWEEN, LAST_DAY); else the argument as it is
  const textDatetimeArg = (k: number) => {
    const p = parts[k]
    return p === undefined ? undefined : (tr.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(arg(k)))
  }
  const dateArg = (k: number) => {
    const kind = textDatetimeArg(k)
    return kind === undefined ? arg(k) : wallClockOf(arg(k), kind)
  }
  // a text datetime where a function takes text: converted as Oracle converts it implicitly, in the session's NLS
  // format ("Implicit Data Conversion": TIMESTAMP WITH TIME ZONE to VARCHAR2; datetime-character-contexts.ts), not
  // the stored text; so are the results of NVL / NVL2 / DECODE whose type is a character first result's ("NVL": "If
  // expr1 is character data, then Oracle Database converts expr2 to the data type of expr1"; "NVL2", "DECODE" alike)
  const results = v === "NVL" ? [0, 1] : v === "NVL2" ? [1, 2] : v === "DECODE" ? decodeResults(parts.length) : []
  const decider = parts[results[0] ?? -1]
  // (DECODE's first result NULL: "Oracle converts the return value to the data type VARCHAR2", SQL Language Reference, "DECODE")
  const nullFirst = v === "DECODE" && decider !== undefined && decider[1] === decider[0] + 1 && isKw(toks[decider[0]], "NULL")
  const characterResults = decider !== undefined && (nullFirst || tr.isCharacterAt(decider[0], decider[1]))
  if (readsDatetimeAsText(v) || characterResults)
    parts.forEach(([a, b], k) => {
      if (characterResults && !results.includes(k)) return
      rendered[k] = characterText(tr, a, b, arg(k))
    })
  // agg(x) KEEP (DENSE_RANK FIRST | LAST ORDER BY ...) [OVER (...)] (keep-aggregates.ts)
  const keep = keepAggregateSql(tr, v, parts, close)
  if (keep !== undefined) return keep
  // MEDIAN / STATS_MODE / ANY_VALUE of a text datetime (datetime-aggregates.ts)
  const datetimeAggregate = datetimeAggregateSql(tr, v, parts, close)
  if (datetimeAggregate !== undefined) return datetimeAggregate
  // MIN / MAX / SUM / AVG of an exact interval column (interval-exprs.ts), also as a window function
  const columnType = parts.length === 1 ? tr.intervalTypeAt(parts[0]![0], parts[0]![1]) : undefined
  // ... and SUM / AVG of an exact interval expression (`SUM(ym_col * 2)`), on its stored number
  const producedType = columnType === undefined && parts.length === 1 && (v === "SUM" || v === "AVG") ? exactIntervalTypeOfText(arg(0)) : undefined
  const intervalType = columnType ?? producedType
  const windowed = intervalType !== undefined && isKw(tr.toks[close + 1], "OVER") && isOp(tr.toks[close + 2], "(")
  const windowClose = windowed ? matchParen(tr.toks, close + 2) : close
  const intervalAggregate = intervalType === undefined ? undefined : exactIntervalAggregate(v, producedType === undefined ? arg(0) : exactIntervalOrderKey(arg(0)), intervalType, windowed ? ` OVER (${tr.range(close + 3, windowClose)})` : "")
  if (intervalAggregate !== undefined) return [intervalAggregate, windowClose + 1]
  // SUM of a TIMESTAMP difference (an engine INTERVAL, which the engine does not sum): in exact storage
  // (also as a window function: an interval too, SQL Language Reference, "SUM")
  const difference = intervalType === undefined && parts.length === 1 && v === "SUM" ? timestampDifferenceTypeOfText(arg(0)) : undefined
  if (difference !== undefined) {
    const over = isKw(tr.toks[close + 1], "OVER") && isOp(tr.toks[close + 2], "(") ? matchParen(tr.toks, close + 2) : close
    return [exactIntervalAggregate(v, arg(0), difference, over > close ? ` OVER (${tr.range(close + 3, over)})` : "")!, over + 1]
  }
  const aggregate = exactAggregate(tr, v, parts, close)
  if (aggregate !== undefined) return aggregate
  // DECODE / NVL2 with exact NUMBER operands (compared as numbers there) may still give a text datetime (each result
  // as text then, SYSTIMESTAMP's too)
  const conditional = v === "DECODE" ? (nullFirst ? [] : decodeResults(parts.length)) : v === "NVL2" ? [1, 2] : undefined
  const conditionalResult = conditional === undefined ? undefined : textDatetimeResult(tr, parts, conditional, arg)
  const exactCall = EXACT_CALLS.has(v) ? exactCallSql(v, parts.map(([a, b], k) => tr.callArgument(a, b, conditional?.includes(k) === true ? conditionalResult!.arg(k) : arg(k)))) : undefined
  if (exactCall !== undefined) return [conditionalResult === undefined ? exactCall : conditionalResult.wrap(exactCall), close + 1]
  const zoneCall = zoneFunctionSql(v, parts.map((_, k) => arg(k)), (k) => (tr.textDatetimeAt(parts[k]![0], parts[k]![1]) ?? textDatetimeOfText(arg(k))) === "zoned")
  if (zoneCall !== undefined) return [zoneCall, close + 1]
  const binaryCall = binaryConversionSql(v, parts.map((_, k) => arg(k)))
  if (binaryCall !== undefined) return [binaryCall, close + 1]
  const statistic = STATISTIC_AGGREGATES.has(v) ? statisticAggregateSql(tr, v, identOut(t), parts, close) : undefined
  if (statistic !== undefined) return statistic
  const newer = newerFunctionSql(v, parts.map((_, k) => arg(k)), (k) => tr.exactNumericRange(parts[k]![0], parts[k]![1]))
  if (newer !== undefined) return [newer, close + 1]
  const everyday = everydayScalarCall(v, parts.map((_, k) => arg(k)), (k) => tr.mentionsExactNumber(parts[k]![0], parts[k]![1]))
  if (everyday !== undefined) return [everyday, close + 1]
  switch (v) {
    case "NVL":
    case "COALESCE": {
      // with a text datetime among the arguments, each as one (Oracle converts them to the first one's type)
      const texts = parts.map((_, k) => arg(k))
      const kinds = parts.map(([a, b], k) => tr.textDatetimeAt(a, b) ?? textDatetimeOfText(texts[k]!))
      if (v === "COALESCE") coalesceFamilyCheck(tr, parts, kinds)
      const kind = characterResults ? undefined : kinds.includes("zoned") ? "zoned" : kinds.includes("wall") ? "wall" : undefined
      const args = texts.map((text) => (kind === undefined ? text : asTextDatetime(text, kind)))
      if (v === "NVL" || kind !== undefined) return [`coalesce(${args.join(", ")})`, close + 1]
      break
    }
    case "NVL2": {
      // a text datetime result makes the whole call one (zoned-results.ts)
      const result = textDatetimeResult(tr, parts, [1, 2], arg)
      return [result.wrap(`(CASE WHEN (${arg(0)}) IS NOT NULL THEN ${result.arg(1)} ELSE ${result.arg(2)} END)`), close + 1]
    }
    case "DECODE": {
      if (parts.length < 3) throw new OraError(938, "not enough arguments for function")
      const result = textDatetimeResult(tr, parts, nullFirst ? [] : decodeResults(parts.length), arg)
      // a zoned expression or search value: compared by instant, as Oracle compares them
      const searches = [0, ...Array.from({ length: Math.floor((parts.length - 1) / 2) }, (_, n) => 1 + 2 * n)]
      const byInstant = searches.some((n) => (tr.textDatetimeAt(parts[n]![0], parts[n]![1]) ?? textDatetimeOfText(arg(n))) === "zoned")
      const compared = (n: number) => (byInstant ? `ora_tstz_key(${datetimeArgument(arg(n), "zoned")})` : `(${arg(n)})`)
      let s = `(CASE`
      let k = 1
      for (; k + 1 < parts.length; k += 2) s += ` WHEN ${compared(0)} IS NOT DISTINCT FROM ${compared(k)} THEN ${result.arg(k + 1)}`
      if (k < parts.length) s += ` ELSE ${result.arg(k)}`
      return [result.wrap(s + " END)"), close + 1]
    }
    case "CAST":
      return [castSql(tr, parts[0]), close + 1]
    case "TO_CHAR":
      if (parts.length >= 2 && toks[parts[1]![0]]?.kind === "str")
      {
        const [from, to] = parts[0]!
        // FF without digits: the precision the value is described with (a column's declared one, a CAST's)
        const fsp = declaredFraction(tr, from, to)
        const model = fsp === undefined ? toks[parts[1]![0]]!.value : withFractionDigits(toks[parts[1]![0]]!.value, fsp)
        const argument = tr.callArgument(from, to, arg(0))
        const known = argument.exact || argument.binary || tr.exactNumericRange(from, to)
        const number = numberFormatSql(v, arg(0), model, known, tr.stringArgument(parts[2]))
        if (number !== undefined && known) return [number, close + 1]
        const zoned = zonedOperand(tr, parts[0]![0], parts[0]![1])
        if (zoned !== undefined) return [zonedToChar(zoned, model), close + 1]
        const textKind = tr.textDatetimeAt(parts[0]![0], parts[0]![1]) ?? textDatetimeOfText(arg(0))
        // a LOCAL TIME ZONE value kept as text (TIMESTAMP(7-9)) is shown in the session time zone
        const shown = tr.isLocalZoneColumn(parts[0]![0], parts[0]![1]) ? inSessionZone(arg(0)) : arg(0)
        if (textKind !== undefined) return [textDatetimeToChar(shown, textKind, model), close + 1]
        const x = arg(0)
        // a value the translator does not know to be a number or a datetime (a subquery's column, a function's result)
        // is formatted by its type when the statement runs (to-char-by-type.ts): a number by the number model, a
        // datetime by the datetime model
        const asNumber = number ?? numberFormatSql(v, x, model, true, tr.stringArgument(parts[2]))!
        const datetime = datetimeModelValid(model) ? undefined : datetimeModelError(x)
        if (datetime !== undefined && number === undefined) checkOutputFormat(model)
        const fmt = datetime === undefined ? convertDateFormat(model, true) : ""
        const language = callDateLanguage(tr.stringArgument(parts[2]))
        // nanoseconds need TIMESTAMP_NS, whose range (1677-2262) is too small for every DATE: only when asked for
        const asDatetime = datetime ?? (!fmt.includes("%n")
          ? withOracleYears(`ora_to_char_fmt(${x}, ${sqlString(fmt)})`, fmt, language)
          : withOracleYears(`(${strftimeNs(fmt, (f) => `ora_to_char_fmt_ns(${x}, ${sqlString(f)})`)})`, fmt, language))
        return [toCharByType(x, asNumber, asDatetime, number !== undefined), close + 1]
      }
      if (parts.length === 1) {
        const text = defaultFormatText(tr, parts[0]![0], parts[0]![1], arg(0))
        if (text !== undefined) return [text, close + 1]
      }
      if (parts[0] !== undefined && (tr.exactColumnAt(parts[0][0], parts[0][1]) !== undefined || EXACT_RESULT.test(arg(0))))
        return [`CAST(ora_number(CAST(${arg(0)} AS VARCHAR)) AS VARCHAR)`, close + 1]
      {
        const intervalType = parts.length === 1 ? (tr.intervalTypeAt(parts[0]![0], parts[0]![1]) ?? intervalCastTypeAt(toks, parts[0]![0], parts[0]![1]) ?? exactIntervalTypeOfText(arg(0)) ?? timestampDifferenceTypeOfText(arg(0))) : undefined
        if (intervalType !== undefined) return [intervalToChar(arg(0), intervalType), close + 1]
      }
      return [`ora_to_char(${arg(0)})`, close + 1]
    case "TO_DATE":
    case "TO_TIMESTAMP":
      if (parts.length >= 2 && toks[parts[1]![0]]?.kind === "str") {
        const format = toks[parts[1]![0]]!.value
        checkInputFormat(format)
        // read by Oracle's rules (datetime-parse.ts), month names in the session's or the call's NLS_DATE_LANGUAGE
        // (date-language.ts); a datetime argument is first text in the session's format, as Oracle converts it
        return [`CAST(ora_tstz_local(ora_datetime_of_format(ora_char_of(${arg(0)}), ${sqlString(format)}, ${callDateLanguage(tr.stringArgument(parts[2]))}), '') AS ${v === "TO_DATE" ? "TIMESTAMP_S" : "TIMESTAMP"})`, close + 1]
      }
      // without a format model: in the session's NLS_DATE_FORMAT / NLS_TIMESTAMP_FORMAT ("TO_DATE", nls-formats.ts)
      return [`CAST(${defaultFormatRead(v === "TO_DATE" ? "date" : "timestamp", arg(0), true)} AS ${v === "TO_DATE" ? "TIMESTAMP_S" : "TIMESTAMP"})`, close + 1]
    case "TO_TIMESTAMP_TZ":
      // a text with its own zone, else the session's (datetime-parse.ts reads the format model)
      if (parts.length >= 2 && toks[parts[1]![0]]?.kind === "str")
        return [`ora_tstz(${datetimeArgument(`ora_datetime_of_format(CAST(${arg(0)} AS VARCHAR), ${sqlString(toks[parts[1]![0]]!.value)})`, "zoned")})`, close + 1]
      return [`ora_tstz(${datetimeArgument(defaultFormatRead("timestampTz", arg(0), false), "zoned")})`, close + 1]
    case "TO_NUMBER":
      // without a format model: the exact NUMBER of the text (ORA-01722 for text that is no number)
      if (parts.length === 1) return [`ora_number(CAST(${arg(0)} AS VARCHAR))`, close + 1]
      // with a format model: the number the text shows in it (number-format.ts)
      if (toks[parts[1]![0]]?.kind === "str") return [numberFormatSql(v, arg(0), toks[parts[1]![0]]!.value, false, tr.stringArgument(parts[2]))!, close + 1]
      return [`CAST(${arg(0)} AS DOUBLE)`, close + 1]
    case "MIN":
    case "MAX": {
      // of text datetimes: the value with the least or greatest instant (zoned) or wall clock, its zone kept
      const p = parts[0]
      const kind = p === undefined || parts.length !== 1 || isKw(toks[close + 1], "OVER") ? undefined : (tr.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(arg(0)))
      if (kind === undefined) break
      return [textDatetimeExtreme(v, arg(0), kind), close + 1]
    }
    case "EXTRACT": {
      const p = parts[0]
      // a DATE has no time zone, and Oracle reads no time field from it either (ORA-30076)
      if (p !== undefined && isKw(toks[p[0]], "HOUR", "MINUTE", "SECOND", "TIMEZONE_HOUR", "TIMEZONE_MINUTE", "TIMEZONE_REGION", "TIMEZONE_ABBR") && isKw(toks[p[0] + 1], "FROM") && isDateOnly(toks, p[0] + 2, p[1]))
        throw new OraError(30076, "invalid extract field for extract source")
      const source = p !== undefined && isKw(toks[p[0] + 1], "FROM") ? tr.range(p[0] + 2, p[1]) : undefined
      // of an interval column, or of an exact interval expression (`EXTRACT(MONTH FROM ym_col * 2)`)
      const intervalType = source === undefined ? undefined : (tr.intervalTypeAt(p![0] + 2, p![1]) ?? exactIntervalTypeOfText(source))
      const fromInterval = intervalType === undefined ? undefined : exactIntervalExtract(toks[p![0]]!.value, source!, intervalType)
      if (fromInterval !== undefined) return [fromInterval, close + 1]
      const extracted = textDatetimeExtract(tr, parts[0])
      if (extracted !== undefined) return [extracted, close + 1]
      // SECOND of a TIMESTAMP or an engine INTERVAL (a TIMESTAMP difference) with its fractional seconds, as of the
      // exact storages above (SQL Language Reference, "EXTRACT (datetime)"); the engine's own gives whole seconds
      if (source !== undefined && isKw(toks[p![0]], "SECOND")) return [`CAST(extract(microsecond FROM ${source}) / 1000000 AS DECIMAL(9,6))`, close + 1]
      break
    }
    case "ORA_JSON_OF": {
      // json-sql.ts: an exact NUMBER (decimal text to DuckDB) is a JSON number, not a string
      const p = parts[0]
      if (p === undefined) break
      if (tr.callArgument(p[0], p[1], arg(0)).exact) return [`ora_json_number(CAST(${arg(0)} AS VARCHAR))`, close + 1]
      // a zoned or TIMESTAMP(7-9) value kept as text, and an interval: ISO 8601 strings (json-functions.ts,
      // interval-functions.ts), not the engine's text
      if ((tr.textDatetimeAt(p[0], p[1]) ?? textDatetimeOfText(arg(0))) !== undefined) return [`ora_json_datetime_text(CAST(${arg(0)} AS VARCHAR))`, close + 1]
      const literalUnits = intervalLiteralIn(toks, p[0], p[1])?.units
      const intervalKind = literalUnits !== undefined ? (literalUnits.some((u) => u === "YEAR" || u === "MONTH") ? "ym" : "ds") : (tr.intervalTypeAt(p[0], p[1]) ?? intervalCastTypeAt(toks, p[0], p[1]) ?? exactIntervalTypeOfText(arg(0)))?.kind
      if (intervalKind !== undefined) return [`ora_json_${intervalKind === "ym" || intervalKind === "intervalym" ? "ym" : "ds"}(CAST(${arg(0)} AS VARCHAR))`, close + 1]
      break
    }
    case "SUBSTR":
      if (parts.length > 3) throw new OraError(939, "too many arguments for function")
      if (parts.length < 2) throw new OraError(938, "not enough arguments for function")
      return [padSubstrSql(v, parts.map((_, k) => arg(k)))!, close + 1]
    case "LPAD":
    case "RPAD": {
      if (parts.length > 3) throw new OraError(939, "too many arguments for function")
      const padded = padSubstrSql(v, parts.map((_, k) => arg(k)))
      if (padded !== undefined) return [padded, close + 1]
      break
    }
    case "UNISTR":
    case "ASCIISTR":
    case "NLSSORT":
      return [unicodeEscapeSql(v, parts.map((_, k) => arg(k)))!, close + 1]
    case "CONCAT": {
      // NULL for two NULLs ('' is NULL), a number as TO_CHAR prints it (SQL Language Reference, "CONCAT"); a
      // character column or bind as it is
      if (parts.length !== 2) break
      const text = (k: number) => (isNumberExpression(toks, parts[k]![0], parts[k]![1]) && tr.textDatetimeAt(parts[k]![0], parts[k]![1]) === undefined ? numberExpressionText(toks, parts[k]![0], parts[k]![1], arg(k)) : arg(k))
      return [`ora_cat(${text(0)}, ${text(1)})`, close + 1]
    }
    case "LNNVL":
      // TRUE when the condition is FALSE or UNKNOWN (SQL Language Reference, "LNNVL")
      if (parts.length !== 1) throw new OraError(909, "invalid number of arguments")
      return [`(NOT coalesce((${arg(0)}), false))`, close + 1]
    case "LENGTH": {
      // a number is converted to VARCHAR2 as TO_CHAR prints it (SQL Language Reference, "LENGTH" takes character
      // types; "Implicit Data Conversion": NUMBER to VARCHAR2), so LENGTH(123) is 3 and LENGTH(-0.5) is 3 ('-.5')
      const p = parts[0]
      if (p === undefined || parts.length !== 1) break
      const numeric = (p[1] === p[0] + 1 && toks[p[0]]!.kind === "num" && !/[fFdD]$/.test(toks[p[0]]!.text)) || tr.exactNumericRange(p[0], p[1]) || tr.callArgument(p[0], p[1], arg(0)).exact
      if (numeric) return [`length(ora_to_char(${arg(0)}))`, close + 1]
      // a datetime likewise in the session's NLS format (nls-formats.ts; "Implicit Data Conversion": DATE, TIMESTAMP
      // and TIMESTAMP WITH TIME ZONE to VARCHAR2); DuckDB had no length of a datetime (ORA-00932)
      const datetime = defaultFormatText(tr, p[0], p[1], arg(0))
      if (datetime !== undefined) return [`length(${datetime})`, close + 1]
      if (isDateUnit(toks, p[0], p[1], tr.ctx.dateColumns) && tr.unitEnd(p[0], p[1]) === p[1]) return [`length(ora_to_char(${arg(0)}))`, close + 1]
      // a date difference is a NUMBER: its TO_CHAR text (DuckDB has no length of a DOUBLE)
      if (/^\(*ora_date_diff\(/.test(arg(0))) return [`length(ora_to_char(${arg(0)}))`, close + 1]
      break
    }
    case "CHR":
      // any NUMBER (DuckDB's chr takes only an INTEGER: a LEVEL, a BIGINT or DECIMAL sum, a NUMBER column's text);
      // SQL's CHR truncates the fraction (CHR(122.5) is 'z': https://stackoverflow.com/questions/73751435); `USING
      // NCHAR_CS` gives the same character, as NVARCHAR2
      if (parts.length !== 1) break
      {
        const using = toks.findIndex((t, k) => k >= parts[0]![0] && k < parts[0]![1] && isKw(t, "USING"))
        const n = using < 0 ? arg(0) : tr.range(parts[0]![0], using)
        return [`chr(CAST(trunc(CAST(${n} AS DOUBLE)) AS INTEGER))`, close + 1]
      }
    case "ORA_DUMP": {
      // DUMP (builtin-functions.ts) of an operand its storage does not type as Oracle does (dump-operands.ts)
      const p0 = parts[0]
      if (p0 === undefined || parts.length !== 5) break
      const call = dumpOperandCall(tr, p0[0], p0[1], arg)
      if (call !== undefined) return [call, close + 1]
      break
    }
    case "LENGTHB":
      return [`ora_lengthb(${arg(0)})`, close + 1]
    case "MOD":
      // "Returns n2 if n1 is 0" (SQL Language Reference, MOD)
      return [`ora_mod(${arg(0)}, ${arg(1)})`, close + 1]
    case "SYS_GUID":
      return [`unhex(replace(CAST(gen_random_uuid() AS VARCHAR), '-', ''))`, close + 1]
    case "MONTHS_BETWEEN":
      if (parts.length !== 2) throw new OraError(909, "invalid number of arguments")
      return [`ora_number(CAST(ora_months_between(CAST(${dateArg(0)} AS TIMESTAMP), CAST(${dateArg(1)} AS TIMESTAMP)) AS VARCHAR))`, close + 1]
    case "ADD_MONTHS":
      // the last day of a month gives the last day of the resulting month (SQL Language Reference, "ADD_MONTHS")
      // (x + 0 months: a datetime, and a number refused as Oracle refuses it, ORA-00932 expected DATE got NUMBER); a
      // text datetime by its own wall clock
      if (textDatetimeArg(0) !== undefined) return [`ora_add_months(CAST(${dateArg(0)} AS TIMESTAMP), CAST(${arg(1)} AS INTEGER))`, close + 1]
      // text (a literal, a character column or bind) Oracle converts to a DATE by the session's NLS_DATE_FORMAT, as
      // TO_DATE(text) would ("ADD_MONTHS": "date can be a datetime value or any value that can be implicitly converted to DATE")
      if (parts[0] !== undefined && tr.isCharacterAt(parts[0][0], parts[0][1]))
        return [`ora_add_months(CAST(${defaultFormatRead("date", arg(0), true)} AS TIMESTAMP_S), CAST(${arg(1)} AS INTEGER))`, close + 1]
      return [`ora_add_months((${arg(0)}) + to_months(0), CAST(${arg(1)} AS INTEGER))`, close + 1]
    case "NEXT_DAY":
      if (parts.length !== 2) throw new OraError(909, "invalid number of arguments")
      return [nextDaySql(`CAST(${dateArg(0)} AS TIMESTAMP)`, arg(1)), close + 1]
    case "LAST_DAY": {
      // of a TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9): the last day of its own wall clock's month, the time kept, a
      // DATE ("The return type is always DATE, regardless of the data type of date", SQL Language Reference, "LAST_DAY")
      if (parts.length !== 1 || textDatetimeArg(0) === undefined) break
      const w = dateArg(0)
      return [`CAST(CAST(last_day(${w}) AS TIMESTAMP) + (${w} - date_trunc('day', ${w})) AS TIMESTAMP_S)`, close + 1]
    }
    case "EMPTY_CLOB":
      return ["''", close + 1]
    case "EMPTY_BLOB":
      return ["CAST('' AS BLOB)", close + 1]
    case "TO_CLOB":
    case "TO_NCLOB":
      return [`CAST(${arg(0)} AS VARCHAR)`, close + 1]
    case "HEXTORAW":
      return [`unhex(${arg(0)})`, close + 1]
    case "RAWTOHEX":
      return [`upper(hex(${arg(0)}))`, close + 1]
    case "LISTAGG": {
      // `WITHIN GROUP (ORDER BY ...)` orders the list (DuckDB: an ORDER BY inside the aggregate call)
      const within = withinGroup(tr, close + 1)
      return [`string_agg(${arg(0)}, ${parts.length > 1 ? arg(1) : "''"}${within.order === "" ? "" : ` ${within.order}`})`, within.next]
    }
    case "REGEXP_LIKE":
    case "REGEXP_SUBSTR":
    case "REGEXP_INSTR":
    case "REGEXP_COUNT":
    case "REGEXP_REPLACE":
      return [regexpCall(v, parts.map((_, k) => arg(k)))!, close + 1]
    case "INITCAP":
      return [`ora_initcap(CAST(${arg(0)} AS VARCHAR))`, close + 1]
    case "ORA_HASH":
      return [`ora_hash(CAST(${arg(0)} AS VARCHAR), ${parts.length > 1 ? `CAST(${arg(1)} AS BIGINT)` : "4294967295"}, ${parts.length > 2 ? `CAST(${arg(2)} AS BIGINT)` : "0"})`, close + 1]
    case "STANDARD_HASH":
      return [`ora_standard_hash(${arg(0)}, ${parts.length > 1 ? arg(1) : "'SHA1'"})`, close + 1]
    case "LAG":
    case "LEAD":
    case "FIRST_VALUE":
    case "LAST_VALUE":
    case "NTH_VALUE": {
      // of an exact NUMBER: DuckDB gives its storage text back, so the result is made a NUMBER again (with its window)
      const p = parts[0]
      if (p === undefined || !isKw(toks[close + 1], "OVER") || !isOp(toks[close + 2], "(")) break
      const end = isKw(toks[p[1] - 1], "NULLS") && isKw(toks[p[1] - 2], "IGNORE") ? p[1] - 2 : p[1]
      const overClose = matchParen(toks, close + 2)
      // of an exact interval column (without LAG / LEAD's default, which would be in the other storage): the
      // interval, typed as one (the stored number otherwise)
      const interval = parts.length <= 2 ? tr.intervalTypeAt(p[0], end) : undefined
      if (interval !== undefined && isExactInterval(interval))
        return [exactIntervalAggregate("VALUE", `${identOut(t)}(${parts.map((_, k) => arg(k)).join(", ")}) ${tr.range(close + 1, overClose + 1)}`, interval)!, overClose + 1]
      if (!tr.exactNumericRange(p[0], end)) break
      return [`ora_number(CAST(${identOut(t)}(${parts.map((_, k) => arg(k)).join(", ")}) ${tr.range(close + 1, overClose + 1)} AS VARCHAR))`, overClose + 1]
    }
    case "PERCENTILE_CONT":
    case "PERCENTILE_DISC": {
      // with an OVER clause: read off each partition's ordered values (percentile-windows.ts)
      const windowed = percentileWindowSql(tr, v, parts, close)
      if (windowed !== undefined) return windowed
      // WITHIN GROUP (ORDER BY an exact NUMBER): ordered by its value, not its text
      const g = close + 1
      if (!isKw(toks[g], "WITHIN") || !isKw(toks[g + 1], "GROUP") || !isOp(toks[g + 2], "(") || !isKw(toks[g + 3], "ORDER") || !isKw(toks[g + 4], "BY")) break
      const groupClose = matchParen(toks, g + 2)
      let exprEnd = groupClose
      while (exprEnd > g + 5 && isKw(toks[exprEnd - 1], "ASC", "DESC", "FIRST", "LAST", "NULLS")) exprEnd--
      // PERCENTILE_DISC of a text datetime: the value (its zone kept) at the first cumulative distribution >= p, by
      // instant (wall clock); NULLs ignored ("PERCENTILE_DISC": "the smallest cumulative distribution value ... that is
      // greater than or equal to" p)
      const datetime = tr.textDatetimeAt(g + 5, exprEnd) ?? textDatetimeOfText(tr.range(g + 5, exprEnd))
      // and PERCENTILE_CONT's interpolation between two rows by instant (percentile-windows.ts)
      if (datetime !== undefined) {
        const x = tr.range(g + 5, exprEnd)
        const entries = `list(${datetimeEntry(x, datetime)}) FILTER (WHERE (${x}) IS NOT NULL)`
        return [datetimePercentileSql(v, entries, toks.slice(exprEnd, groupClose).some((t) => isKw(t, "DESC")), `CAST(${arg(0)} AS DOUBLE)`, datetime), groupClose + 1]
      }
      if (!tr.exactNumericRange(g + 5, exprEnd)) break
      const order = `CAST(${tr.range(g + 5, exprEnd)} AS DOUBLE) ${tr.range(exprEnd, groupClose)}`
      return [`ora_number(CAST(${identOut(t)}(${arg(0)}) WITHIN GROUP (ORDER BY ${order}) AS VARCHAR))`, groupClose + 1]
    }
    case "RATIO_TO_REPORT":
      // RATIO_TO_REPORT(e) OVER (w) is e / SUM(e) OVER (w) (SQL Language Reference, "RATIO_TO_REPORT"): the OVER clause
      // that follows the call is the SUM's
      if (!isKw(toks[close + 1], "OVER")) throw new OraError(30484, "missing window specification for this function")
      return [`CAST(${arg(0)} AS DOUBLE) / sum(CAST(${arg(0)} AS DOUBLE))`, close + 1]
    case "SYS_CONTEXT":
      return [`sys_context(${arg(0)}, ${arg(1)})`, close + 1]
    case "REPLACE":
      // Oracle: a NULL (or '') replacement removes the search string
      return [`replace(${arg(0)}, ${arg(1)}, coalesce(${parts.length > 2 ? arg(2) : "NULL"}, ''))`, close + 1]
    case "INSTR":
      if (parts.length === 3) return [`ora_instr_nth(${arg(0)}, ${arg(1)}, ${arg(2)}, 1)`, close + 1]
      if (parts.length === 4) return [`ora_instr_nth(${arg(0)}, ${arg(1)}, ${arg(2)}, ${arg(3)})`, close + 1]
      break
    case "TRUNC":
    case "ROUND": {
      // TRUNC/ROUND of a date (recognisable operand or a datetime format model) -> date_trunc
      const p0 = parts[0]
      const fmtTok = parts[1] !== undefined ? toks[parts[1][0]] : undefined
      const unitOf: Record<string, string> = { YYYY: "year", YEAR: "year", Y: "year", YY: "year", RRRR: "year", Q: "quarter", MM: "month", MON: "month", MONTH: "month", RM: "month", WW: "week", IW: "week", DD: "day", DDD: "day", J: "day", HH: "hour", HH12: "hour", HH24: "hour", MI: "minute" }
      const fmt = fmtTok?.kind === "str" ? unitOf[fmtTok.value.toUpperCase()] : undefined
      // the argument is a date when its first operand is one (`hired`, `hired + 1`, `SYSDATE - 7`)
      // (or a DATE / TIMESTAMP expression: `TRUNC(MAX(ts))`, `ROUND((SELECT MAX(d) FROM t))`, datetime-operand-types.ts)
      const dateArg = p0 !== undefined && p0[1] - p0[0] >= 1 && (isDateUnit(toks, p0[0], Math.min(p0[1], tr.unitEnd(p0[0], p0[1])), tr.ctx.dateColumns) || tr.datetimeOperandAt(p0[0], p0[1]) !== undefined)
      // of a text datetime, its own wall clock (TRUNC returns a DATE, SQL Language Reference, "TRUNC (date)")
      const textKind = p0 === undefined ? undefined : (tr.textDatetimeAt(p0[0], p0[1]) ?? textDatetimeOfText(arg(0)))
      const operand = textKind === undefined ? `CAST(${arg(0)} AS TIMESTAMP)` : wallClockOf(arg(0), textKind)
      // weeks: IW, WW, W, DAY, ISO year (week-dates.ts)
      const week = fmtTok?.kind === "str" ? weekUnitOf(fmtTok.value) : undefined
      if (week !== undefined && p0 !== undefined) return [v === "TRUNC" ? weekTruncSql(operand, week) : weekRoundSql(operand, week), close + 1]
      if (v === "TRUNC" && p0 !== undefined && (fmt !== undefined || ((dateArg || textKind !== undefined) && parts.length === 1)))
        return [`CAST(date_trunc('${fmt ?? "day"}', ${operand}) AS TIMESTAMP_S)`, close + 1]
      const rounded = v === "ROUND" && p0 !== undefined && (dateArg || textKind !== undefined) && (fmt !== undefined || parts.length === 1) ? roundedDatetime(operand, fmt ?? "day") : undefined
      if (rounded !== undefined) return [rounded, close + 1]
      break
    }
  }
  return [`${identOut(t)}(${parts.map((_, k) => arg(k)).join(", ")})`, close + 1]
}

/** The translated `ORDER BY ...` of a `WITHIN GROUP (...)` at `k` ("" when there is none) and the index after it. */
export function withinGroup(tr: TranslatorCore, k: number): { readonly order: string; readonly next: number } {
  if (isKw(tr.toks[k], "WITHIN") && isKw(tr.toks[k + 1], "GROUP") && isOp(tr.toks[k + 2], "(")) {
    const close = matchParen(tr.toks, k + 2)
    return { order: tr.range(k + 3, close), next: close + 1 }
  }
  return { order: "", next: k }
}

/** The SQL of a call's date language: its `'NLS_DATE_LANGUAGE = name'` parameter, else the session's. */
const callDateLanguage = (nlsparam: string | undefined): string => {
  const language = dateLanguageOfParameter(nlsparam)
  return language === undefined ? SESSION_DATE_LANGUAGE : sqlString(language)
}

