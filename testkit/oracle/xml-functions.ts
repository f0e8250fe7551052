/**
 * Oracle's SQL/XML generation functions rewritten, before translation, into DuckDB text: XMLELEMENT (with
 * XMLATTRIBUTES), XMLFOREST, XMLCONCAT, XMLAGG and XMLSERIALIZE, and the XMLType methods getClobVal() /
 * getStringVal() on their results. A generated value is wrapped in `XMLTYPE(...)`, so that named-types.ts describes
 * the select item as SYS.XMLTYPE, which node-oracledb fetches as a string (XMLType documents are held as their text).
 *
 * Semantics (SQL Language Reference, "XMLELEMENT", "XMLFOREST", "XMLCONCAT", "XMLAGG", "XMLSERIALIZE"; XML DB
 * Developer's Guide, "Generating XML Data from the Database"):
 * - the element name is the identifier as written (upper-cased unless quoted), or EVALNAME's value; XMLATTRIBUTES and
 *   XMLFOREST name an item by its alias, else by its column name ("Oracle uses the column name as the element name"),
 *   and an expression without either is ORA-19208 "parameter n of function F must be aliased";
 * - "if the value_expr is null, then no attribute is created"; in XMLFOREST "no element is created for that
 *   value_expr"; XMLELEMENT with NULL or no content is the empty element `<E></E>`;
 * - XMLCONCAT drops NULL arguments and is NULL when all are ("Null expressions are dropped from the result. If all the
 *   value expressions are null, then the function returns null"); XMLAGG concatenates the non-NULL fragments of its
 *   group, in its ORDER BY's order, and is NULL over no fragment;
 * - text content and attribute values are entity-escaped ("Escaping Characters in Generated XML Data": ENTITYESCAPING
 *   is the default) with XML's predefined entities; NOENTITYESCAPING leaves them as they are;
 * - DATE and TIMESTAMP values are written in XML Schema format (`2024-03-01`, `2024-03-01T10:00:00.000000`), other
 *   scalars as their character conversion.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, sqlString, tokenize, type Tok } from "./lexer.ts"
import { headingOf } from "./expression-names.ts"

const XML_CALLS = new Set(["XMLELEMENT", "XMLFOREST", "XMLCONCAT", "XMLAGG", "XMLSERIALIZE"])

/** Tokens of generated SQL at position `pos`, with no heading of their own. */
const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))


/** The index just past the call whose name is at `k` (its `)`), or -1 when `toks[k]` starts no XML call. */
const xmlCallEnd = (toks: ReadonlyArray<Tok>, k: number): number => {
  const t = toks[k]
  if (t?.kind !== "ident" || !XML_CALLS.has(t.value) || isOp(toks[k - 1], ".")) return -1
  let open = k + 1
  while (toks[open]?.kind === "ws") open++
  if (!isOp(toks[open], "(")) return -1
  const close = matchParen(toks, open)
  if (close < 0) throw new OraError(907, "missing right parenthesis")
  return close + 1
}

/** The arguments of the call at `k` (token slices between top-level commas) and the call's name. */
const callParts = (toks: ReadonlyArray<Tok>, k: number, end: number): { name: string; args: Array<Array<Tok>> } => {
  let open = k + 1
  while (toks[open]?.kind === "ws") open++
  const args = splitTopLevel(toks.slice(open + 1, end - 1)).filter((a) => a.some((x) => x.kind !== "ws"))
  return { name: toks[k]!.value, args }
}

/** Words that end an expression rather than alias it (`CASE ... END`, `INTERVAL '1' DAY`). */
const NOT_ALIASES = new Set(["END", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "NULL", "TRUE", "FALSE"])

/** `expr [AS] alias` split: the expression and the alias's name (upper-cased unless quoted), if any. */
const aliased = (arg: ReadonlyArray<Tok>): { expr: ReadonlyArray<Tok>; alias: string | undefined } => {
  const sig = significant(arg)
  const last = sig[sig.length - 1]
  const before = sig[sig.length - 2]
  if (last !== undefined && sig.length >= 2 && (last.kind === "qident" || (last.kind === "ident" && !NOT_ALIASES.has(last.value)))) {
    const closesExpr = before !== undefined && (isKw(before, "AS") || isOp(before, ")") || before.kind === "ident" || before.kind === "qident" || before.kind === "str" || before.kind === "num" || before.kind === "bind")
    if (closesExpr && !isOp(before, ".")) {
      const cut = arg.lastIndexOf(isKw(before, "AS") ? before : last)
      return { expr: arg.slice(0, cut), alias: last.kind === "qident" ? last.value : last.value.toUpperCase() }
    }
  }
  return { expr: arg, alias: undefined }
}

/** The name of an unaliased XMLATTRIBUTES / XMLFOREST item: its column's name, else ORA-19208. */
const columnNameOf = (expr: ReadonlyArray<Tok>, position: number, fn: string): string => {
  const sig = significant(expr)
  const named = sig.length % 2 === 1 && sig.every((t, k) => (k % 2 === 0 ? t.kind === "ident" || t.kind === "qident" : isOp(t, ".")))
  const last = sig[sig.length - 1]
  if (!named || last === undefined) throw new OraError(19208, `parameter ${position} of function ${fn} must be aliased`)
  return last.kind === "qident" ? last.value : last.value.toUpperCase()
}

/** True when `expr` is exactly one XML generation call (its value is XML, inserted as it is). */
const isXmlCall = (expr: ReadonlyArray<Tok>): boolean => {
  const at = expr.findIndex((t) => t.kind !== "ws")
  if (at < 0) return false
  const end = xmlCallEnd(expr, at)
  return end > 0 && expr.slice(end).every((t) => t.kind === "ws")
}

/** Names of XMLType columns, marked by {@link rewriteXmlSql} on the tokens that name them. */
const xmlColumnTokens = new WeakSet<Tok>()

/** True when `expr` is an XMLType value other than a generation call: an XMLTYPE(...) call or an XMLType column. */
const isXmlTypeValue = (expr: ReadonlyArray<Tok>): boolean => {
  const sig = significant(expr)
  if (isKw(sig[0], "XMLTYPE") && isOp(sig[1], "(") && matchParen(sig, 1) === sig.length - 1) return true
  const named = sig.length % 2 === 1 && sig.every((t, k) => (k % 2 === 0 ? t.kind === "ident" || t.kind === "qident" : isOp(t, ".")))
  return named && xmlColumnTokens.has(sig[sig.length - 1]!)
}

/** A scalar's text in an element or attribute: XML Schema datetimes, other values converted to character, escaped or not. */
const scalarText = (expr: ReadonlyArray<Tok>, escape: boolean, pos: number): Array<Tok> => [
  ...generated(escape ? "ora_xml_escape(ora_xml_value(" : "(ora_xml_value(", pos),
  ...expr,
  ...generated(", TO_CHAR(", pos),
  ...expr,
  ...generated(")))", pos)
]

/** One content item of XMLELEMENT / XMLCONCAT: a nested XML value as it is, a scalar as escaped text. */
const contentText = (expr: ReadonlyArray<Tok>, escape: boolean, pos: number): Array<Tok> =>
  isXmlCall(expr) ? xmlText(expr, pos) : isXmlTypeValue(expr) ? rewriteXml(expr) : scalarText(rewriteXml(expr), escape, pos)

/** `concat(a, b, ...)` (NULL pieces count as empty), or `''`-free `NULL`-safe text of one piece. */
const concatenated = (pieces: ReadonlyArray<Array<Tok>>, pos: number): Array<Tok> =>
  pieces.length === 0 ? generated("CAST(NULL AS VARCHAR2(1))", pos) : [...generated("concat(", pos), ...pieces.flatMap((p, k) => (k === 0 ? p : [...generated(", ", pos), ...p])), ...generated(")", pos)]

/** XMLELEMENT([ENTITYESCAPING | NOENTITYESCAPING] [NAME] identifier | EVALNAME expr [, XMLATTRIBUTES(...)] [, content [[AS] alias]]...). */
const elementText = (args: Array<Array<Tok>>, pos: number): Array<Tok> => {
  const first = significant(args[0] ?? [])
  let k = 0
  let escape = true
  if (isKw(first[k], "ENTITYESCAPING", "NOENTITYESCAPING")) escape = first[k++]!.value === "ENTITYESCAPING"
  if (isKw(first[k], "NAME") && first.length > k + 1) k++
  let name: Array<Tok>
  if (isKw(first[k], "EVALNAME")) {
    const at = args[0]!.indexOf(first[k]!)
    name = [...generated("CAST(", pos), ...rewriteXml(args[0]!.slice(at + 1)), ...generated(" AS VARCHAR2(4000))", pos)]
  } else {
    const id = first[k]
    if (id === undefined || (id.kind !== "ident" && id.kind !== "qident") || first.length !== k + 1) throw new OraError(931, "missing identifier")
    name = generated(sqlString(id.kind === "qident" ? id.value : id.value.toUpperCase()), pos)
  }
  let rest = args.slice(1)
  let attributes: Array<Tok> = generated("NULL", pos)
  const attrCall = significant(rest[0] ?? [])
  if (isKw(attrCall[0], "XMLATTRIBUTES") && isOp(attrCall[1], "(")) {
    attributes = attributesText(rest[0]!, escape, pos)
    rest = rest.slice(1)
  }
  const content = concatenated(rest.map((a) => contentText(aliased(a).expr, escape, pos)), pos)
  return [...generated("ora_xml_element(", pos), ...name, ...generated(", ", pos), ...attributes, ...generated(", ", pos), ...content, ...generated(")", pos)]
}

/** XMLATTRIBUTES([ENTITYESCAPING | NOENTITYESCAPING] expr [AS alias], ...): ` name="value"` for each non-NULL value. */
const attributesText = (arg: ReadonlyArray<Tok>, escape: boolean, pos: number): Array<Tok> => {
  const open = arg.findIndex((t) => isOp(t, "("))
  const close = matchParen(arg, open)
  const items = splitTopLevel(arg.slice(open + 1, close)).filter((a) => a.some((x) => x.kind !== "ws"))
  let escaping = escape
  const pieces = items.map((item, n) => {
    let body = item
    const lead = significant(item)[0]
    if (n === 0 && isKw(lead, "ENTITYESCAPING", "NOENTITYESCAPING")) {
      escaping = lead!.value === "ENTITYESCAPING"
      body = item.slice(item.indexOf(lead!) + 1)
    }
    const { expr, alias } = aliased(body)
    const name = alias ?? columnNameOf(expr, n + 1, "XMLATTRIBUTES")
    return [...generated(`ora_xml_attribute(${sqlString(name)}, `, pos), ...scalarText(rewriteXml(expr), escaping, pos), ...generated(")", pos)]
  })
  return concatenated(pieces, pos)
}

/** XMLFOREST(expr [AS alias], ...): an element per non-NULL value, named by its alias or column. */
const forestText = (args: Array<Array<Tok>>, pos: number): Array<Tok> => {
  const pieces = args.map((arg, n) => {
    const { expr, alias } = aliased(arg)
    const name = alias ?? columnNameOf(expr, n + 1, "XMLFOREST")
    const value = contentText(expr, true, pos)
    return [...generated(`ora_xml_forest_item(${sqlString(name)}, `, pos), ...value, ...generated(")", pos)]
  })
  return [...generated("ora_xml_fragment(", pos), ...concatenated(pieces, pos), ...generated(")", pos)]
}

/** XMLAGG(xml [ORDER BY ...]): the group's non-NULL fragments concatenated in order (LISTAGG without a delimiter). */
const aggregateText = (args: Array<Array<Tok>>, pos: number): Array<Tok> => {
  if (args.length !== 1) throw new OraError(909, "invalid number of arguments")
  const arg = args[0]!
  const orderAt = arg.findIndex((t, k) => isKw(t, "ORDER") && isKw(significant(arg.slice(k + 1))[0], "BY") && depthAt(arg, k) === 0)
  const value = orderAt < 0 ? arg : arg.slice(0, orderAt)
  const order = orderAt < 0 ? [] : [...generated(" WITHIN GROUP (", pos), ...rewriteXml(arg.slice(orderAt)), ...generated(")", pos)]
  return [...generated("LISTAGG(", pos), ...contentText(value, true, pos), ...generated(")", pos), ...order]
}

/** Parenthesis depth at token `k` of `toks`. */
const depthAt = (toks: ReadonlyArray<Tok>, k: number): number => toks.slice(0, k).reduce((d, t) => d + (isOp(t, "(") ? 1 : isOp(t, ")") ? -1 : 0), 0)

/** XMLCONCAT(xml, ...): the non-NULL arguments concatenated, NULL when every one is. */
const concatText = (args: Array<Array<Tok>>, pos: number): Array<Tok> => [...generated("ora_xml_fragment(", pos), ...concatenated(args.map((a) => xmlValueText(a, pos)), pos), ...generated(")", pos)]

/** An XMLType argument's text: a generation call's text, or the expression itself (an XMLType value is held as its text). */
const xmlValueText = (expr: ReadonlyArray<Tok>, pos: number): Array<Tok> => (isXmlCall(expr) ? xmlText(expr, pos) : rewriteXml(expr))

/** XMLSERIALIZE(CONTENT | DOCUMENT xml [AS VARCHAR2(n) | CLOB] ...): the XML as text, a CLOB by default. */
const serializeText = (args: Array<Array<Tok>>, pos: number): Array<Tok> => {
  const arg = args[0] ?? []
  const sig = significant(arg)
  if (!isKw(sig[0], "CONTENT", "DOCUMENT")) throw new OraError(907, "missing right parenthesis")
  const asAt = arg.findIndex((t, k) => isKw(t, "AS") && depthAt(arg, k) === 0)
  const stop = arg.findIndex((t, k) => k > asAt && asAt >= 0 && isKw(t, "ENCODING", "VERSION", "INDENT", "NO", "HIDE", "SHOW") && depthAt(arg, k) === 0)
  const value = xmlValueText(arg.slice(arg.indexOf(sig[0]!) + 1, asAt < 0 ? arg.length : asAt), pos)
  const target = asAt < 0 ? "CLOB" : significant(arg.slice(asAt + 1, stop < 0 ? arg.length : stop)).map((t) => t.text).join("").toUpperCase()
  if (target === "CLOB") return [...generated("TO_CLOB(", pos), ...value, ...generated(")", pos)]
  if (/^(VARCHAR2|VARCHAR)\(\d+(BYTE|CHAR)?\)$/.test(target)) return [...generated("CAST(", pos), ...value, ...generated(` AS ${target})`, pos)]
  throw new OraError(3001, `unimplemented feature: XMLSERIALIZE ... AS ${target} (VARCHAR2(n) or CLOB)`)
}

/** The text (DuckDB VARCHAR, NULL for no XML) of the XML call that `call` is exactly. */
const xmlText = (call: ReadonlyArray<Tok>, pos: number): Array<Tok> => {
  const k = call.findIndex((t) => t.kind !== "ws")
  const { name, args } = callParts(call, k, xmlCallEnd(call, k))
  switch (name) {
    case "XMLELEMENT":
      return elementText(args, pos)
    case "XMLFOREST":
      return forestText(args, pos)
    case "XMLAGG":
      return aggregateText(args, pos)
    case "XMLCONCAT":
      return concatText(args, pos)
    default:
      return serializeText(args, pos)
  }
}

/** `.getClobVal()` / `.getStringVal()` right after index `end`: the method and the index past its `)`. */
const methodAfter = (toks: ReadonlyArray<Tok>, end: number): { method: string; next: number } | undefined => {
  const sig: Array<number> = []
  for (let k = end; k < toks.length && sig.length < 4; k++) if (toks[k]!.kind !== "ws") sig.push(k)
  const [dot, name, open, close] = sig.map((k) => toks[k])
  if (!isOp(dot, ".") || !isKw(name, "GETCLOBVAL", "GETSTRINGVAL") || !isOp(open, "(") || !isOp(close, ")")) return undefined
  return { method: name!.value, next: sig[3]! + 1 }
}

/** `toks` with every SQL/XML generation call rewritten (nested ones inside other expressions too). */
const rewriteXml = (toks: ReadonlyArray<Tok>): Array<Tok> => {
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const end = xmlCallEnd(toks, k)
    if (end < 0) {
      out.push(toks[k]!)
      continue
    }
    const call = toks.slice(k, end)
    const pos = toks[k]!.pos
    const text = xmlText(call, pos)
    const method = methodAfter(toks, end)
    const source = method === undefined ? call : toks.slice(k, method.next)
    const value =
      toks[k]!.value === "XMLSERIALIZE"
        ? text
        : method === undefined
          ? [...generated("XMLTYPE(", pos), ...text, ...generated(")", pos)]
          : method.method === "GETCLOBVAL"
            ? [...generated("TO_CLOB(", pos), ...text, ...generated(")", pos)]
            : [...generated("CAST(", pos), ...text, ...generated(" AS VARCHAR2(4000))", pos)]
    out.push(...value.map((t, n) => ({ ...t, heading: n === 0 ? headingOf(significant(source)) : "" })))
    k = (method?.next ?? end) - 1
  }
  return out
}

/**
 * Rewrites the SQL/XML generation calls of a statement's tokens (the tokens themselves when it has none);
 * `xmlColumns` names the XMLType columns of its tables, whose values go into generated XML as they are.
 */
export const rewriteXmlSql = (toks: ReadonlyArray<Tok>, xmlColumns: ReadonlySet<string> = new Set()): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && XML_CALLS.has(t.value))) return toks
  for (const t of toks) if ((t.kind === "ident" || t.kind === "qident") && xmlColumns.has(t.kind === "qident" ? t.value : t.value.toUpperCase())) xmlColumnTokens.add(t)
  return rewriteXml(toks)
}

/**
 * DuckDB macros the rewrite calls: entity escaping (`&` first, so that no entity is escaped twice), a value's text
 * (DATE / TIMESTAMP in XML Schema format, else `text`, its character conversion), an element, an attribute and a
 * forest item (NULL for a NULL value, which concat then leaves out), and a fragment (NULL when it is empty).
 */
export const XML_MACROS: ReadonlyArray<string> = [
  `ora_xml_escape(s) AS replace(replace(replace(replace(replace(s, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&apos;')`,
  `ora_xml_value(x, text) AS CASE WHEN typeof(x) IN ('TIMESTAMP_S', 'DATE') THEN strftime(TRY_CAST(CAST(x AS VARCHAR) AS TIMESTAMP), '%Y-%m-%d')
    WHEN typeof(x) = 'TIMESTAMP' THEN strftime(TRY_CAST(CAST(x AS VARCHAR) AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%f') ELSE text END`,
  `ora_xml_element(name, attrs, content) AS concat('<', name, attrs, '>', content, '</', name, '>')`,
  `ora_xml_attribute(name, value) AS CASE WHEN value IS NULL THEN NULL ELSE concat(' ', name, '="', value, '"') END`,
  `ora_xml_fragment(s) AS CASE WHEN s = '' THEN NULL ELSE s END`,
  `ora_xml_forest_item(name, value) AS CASE WHEN value IS NULL THEN NULL ELSE concat('<', name, '>', value, '</', name, '>') END`
]
