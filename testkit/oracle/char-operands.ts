/**
 * Comparisons of CHAR / NCHAR values with Oracle's blank-padded semantics. CHAR values are stored blank-padded to
 * their column's length (char-writes.ts), so a comparison with a VARCHAR2 column or bind compares them as they are,
 * Oracle's nonpadded semantics ("Blank-Padded and Nonpadded Comparison Semantics", SQL Language Reference, "Data Type
 * Comparison Rules": "Oracle uses nonpadded comparison semantics whenever one or both values in the comparison have
 * the data type VARCHAR2 or NVARCHAR2"; `c = :b` with 'ab' bound is false for a CHAR(5) holding 'ab'). Where both
 * operands are of type CHAR / NCHAR or text literals ("Oracle uses blank-padded comparison semantics only when both
 * values in the comparison are either expressions of data type CHAR, NCHAR, text literals, or values returned by the
 * USER function"; which expressions are: char-expressions.ts), the shorter side gets blanks added until both lengths
 * are equal. Where the lengths are known when translating, this is done on the SQL: a text literal compared with a
 * CHAR column (`=`, `<>`, `<`, ..., and each literal of an IN list) is written padded to the column's length (the
 * column padded to the literal's when that is longer; the bounds of BETWEEN and a simple CASE's WHEN literals alike),
 * two CHAR columns of different lengths are both padded to the longer, and of two text literals the shorter is padded.
 * Other CHAR operands (a function's CHAR result, a CASE of CHAR results, a concatenation, a bind sent as CHAR, oracledb
 * `DB_TYPE_CHAR`) are compared when the statement runs: for (in)equality and IN without their trailing blanks, which
 * blank-padded equality comes to; ordered and BETWEEN through the macros below, which pad the shorter value. The
 * comparisons: the operators, IN lists and IN / ANY / SOME / ALL subqueries, BETWEEN, a simple CASE's WHEN values and
 * NULLIF's two arguments; not DECODE's searches, which Oracle compares nonpadded. A CHAR item of an IN list (a WHEN
 * value, NULLIF's second argument) beside VARCHAR2 items is padded to the left value's length, the left operand written
 * again there with the rewrites inside it; where writing it again would compute it again (DBMS_RANDOM, a user's
 * function: repeatable-expressions.ts) the comparison takes a form naming it once (`ora_char_in`, `ora_char_first`,
 * `ora_char_nullif`), as Oracle computes an operand once.
 */
import type { TableMeta } from "./catalog.ts"
import { blankPaddedSql, blankPaddedText, sizedInCharacters } from "./char-writes.ts"
import { charTypes, markCharReferences, operandEnd, operandStart, splitAt, type CharType } from "./char-expressions.ts"
import { isKw, isName, isOp, matchParen, splitTopLevel, sqlString, type Tok, tokenize } from "./lexer.ts"
import { isRepeatable } from "./repeatable-expressions.ts"
import type { OraType } from "./types.ts"

/** Resolves a table name as the session sees it. */
type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** Words before which, walking back at one parenthesis depth, a SET clause's assignment targets cannot lie. */
const CLAUSE_WORDS = ["SET", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "HAVING", "SELECT", "THEN", "ELSE", "CASE", "BY", "WITH", "RETURN", "RETURNING", "VALUES"]

/** The comparison operators. */
const isComparison = (t: Tok | undefined): boolean => ["=", "<>", "!=", "^=", "<", ">", "<=", ">="].some((op) => isOp(t, op))


/** `text` with its trailing blanks dropped. */
const trimmed = (text: string): string => text.replace(/ +$/, "")

/** A text literal token holding `value` (national when `like` is). */
const literalLike = (like: Tok, value: string): Tok => ({ ...like, value, text: `${/^[nN]'/.test(like.text) ? "N" : ""}${sqlString(value)}` })

/** Where a wrap's text writes its copied tokens again. */
const COPY = "\u0001"

/** An operand of a comparison: the expression [from, to] and its CHAR type. */
type Operand = { readonly from: number; readonly to: number } & CharType

/** DuckDB macros of blank-padded comparisons whose operands' lengths are known only when the statement runs. */
export const CHAR_COMPARISON_MACROS: ReadonlyArray<string> = [
  // `x` with blanks added up to the length of `y` when that is longer
  `ora_char_padded(x, y) AS rpad(CAST(x AS VARCHAR), CAST(greatest(length(CAST(x AS VARCHAR)), length(CAST(y AS VARCHAR))) AS INTEGER), ' ')`,
  // -1, 0 or 1 as `a` compares with `b` after the shorter got blanks added to the longer's length (NULL with a NULL)
  `ora_char_cmp(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN ora_char_padded(a, b) < ora_char_padded(b, a) THEN -1
    WHEN ora_char_padded(a, b) = ora_char_padded(b, a) THEN 0 ELSE 1 END`,
  `ora_char_lt(a, b) AS ora_char_cmp(a, b) < 0`,
  `ora_char_le(a, b) AS ora_char_cmp(a, b) <= 0`,
  `ora_char_gt(a, b) AS ora_char_cmp(a, b) > 0`,
  `ora_char_ge(a, b) AS ora_char_cmp(a, b) >= 0`,
  `ora_char_between(x, lo, hi) AS ora_char_cmp(x, lo) >= 0 AND ora_char_cmp(x, hi) <= 0`,
  // a left value compared with items each blank-padded or nonpadded, the value named once (a lambda's parameter):
  // list_value(x, items...) with each item marked 'P' (compared without trailing blanks) or 'N' (compared as it is)
  `ora_char_padded_item(x) AS 'P' || rtrim(CAST(x AS VARCHAR), ' ')`,
  `ora_char_exact_item(x) AS 'N' || CAST(x AS VARCHAR)`,
  `ora_char_position_of(e) AS list_position(list_transform(e[2:], ora_i -> ora_i = 'P' || rtrim(e[1], ' ') OR ora_i = 'N' || e[1]), true)`,
  // the position of the first item equal to x (a simple CASE's WHEN), NULL for none
  `ora_char_first(l) AS list_transform([l], ora_e -> ora_char_position_of(ora_e))[1]`,
  // x IN (items): true for an equal item, else unknown when x or an item is NULL
  `ora_char_in(l) AS list_transform([l], ora_e -> CASE WHEN ora_char_position_of(ora_e) IS NOT NULL THEN true WHEN list_count(ora_e) < len(ora_e) THEN NULL ELSE false END)[1]`,
  // NULLIF(a, b) of CHAR values: NULL when they are equal blank-padded, else a
  `ora_char_nullif(a, b) AS list_transform([a], ora_v -> CASE WHEN rtrim(CAST(ora_v AS VARCHAR), ' ') = rtrim(CAST(b AS VARCHAR), ' ') THEN NULL ELSE ora_v END)[1]`,
  // `x` without its trailing blanks, which blank-padded comparison ignores, and with blanks added up to 4000 characters
  // (a CHAR expression has at most 2000, "Concatenation Operator"; a text literal at most 4000, ORA-01704):
  // two values so padded compare as blank-padded comparison orders them, the shorter padded to the longer; `x` named
  // once (a lambda's parameter)
  `ora_char_wide(x) AS list_transform([rtrim(CAST(x AS VARCHAR), ' ')], ora_w -> rpad(ora_w, CAST(greatest(length(ora_w), 4000) AS INTEGER), ' '))[1]`
]

/** The macro of each ordering operator. */
const ORDERING_MACROS: Readonly<Record<string, string>> = { "<": "ora_char_lt", "<=": "ora_char_le", ">": "ora_char_gt", ">=": "ora_char_ge" }

/**
 * `toks` with the operands of comparisons that Oracle compares with blank-padded semantics padded to equal lengths;
 * `variableType` gives the CHAR / NCHAR type of a PL/SQL variable or record field by name (`v`, `r.f`: a PL/SQL
 * comparison follows the same rules: PL/SQL Language Reference, "Character Comparisons"); `charBind` whether a bind,
 * by its ordinal or its token, holds a CHAR value.
 */
export const padCharOperands = (
  toks: ReadonlyArray<Tok>,
  lookup: TableLookup,
  variableType?: (name: string) => OraType | undefined,
  charBind?: (ordinal: number, bind: Tok) => boolean
): ReadonlyArray<Tok> => {
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const sigToks = sig.map((k) => toks[k]!)
  markCharReferences(sigToks, lookup, variableType)
  if (!toks.some((t) => isComparison(t) || isKw(t, "IN", "BETWEEN", "CASE", "NULLIF"))) return toks
  const at = (s: number): Tok | undefined => (s >= 0 ? sigToks[s] : undefined)
  // whether the comparison at `s` is an UPDATE's or MERGE's `SET c = ...` assignment
  const isAssignment = (s: number): boolean => {
    let depth = 0
    for (let p = s - 1; p >= 0; p--) {
      const t = at(p)
      if (isOp(t, ")")) depth++
      else if (isOp(t, "(")) {
        if (depth === 0) return false
        depth--
      } else if (depth === 0 && isKw(t, ...CLAUSE_WORDS)) return isKw(t, "SET")
    }
    return false
  }
  // a bind sent as CHAR (oracledb DB_TYPE_CHAR), by its ordinal among the statement's binds in source order
  let bindOrdinals: ReadonlyMap<Tok, number> | undefined
  const isCharBind = (s: number): boolean => {
    if (charBind === undefined || at(s)?.kind !== "bind") return false
    bindOrdinals ??= new Map(sigToks.filter((t) => t.kind === "bind").sort((a, b) => a.pos - b.pos).map((t, n) => [t, n] as const))
    return charBind(bindOrdinals.get(at(s)!) ?? -1, at(s)!)
  }
  let types: ReturnType<typeof charTypes> | undefined
  const analysis = () => (types ??= charTypes(sigToks, lookup, variableType, isCharBind))
  const typeOf = (from: number, to: number) => analysis().typeOf(from, to)
  // the whole operand ending at `end` (left of an operator) or starting at `start` (right of one), when of type CHAR
  const operandBefore = (end: number): Operand | undefined => {
    const from = operandStart(sigToks, end)
    const type = from < 0 ? undefined : typeOf(from, end)
    return type === undefined ? undefined : { ...type, from, to: end }
  }
  const operandAfter = (start: number): Operand | undefined => {
    const to = operandEnd(sigToks, start)
    const type = to < 0 ? undefined : typeOf(start, to)
    return type === undefined ? undefined : { ...type, from: start, to }
  }
  // whether the operand at `s` starts a condition (after WHERE, AND, ..., or a grouping parenthesis)
  const isConditionStart = (s: number): boolean =>
    isKw(at(s - 1), "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "HAVING") || (isOp(at(s - 1), "(") && !isName(at(s - 2)) && !isOp(at(s - 2), ")"))
  const literals = new Map<number, Tok>()
  // text put around [from, to] (several ranges may start at one token: the wider opens first) and operators replaced;
  // each COPY in the text stands for the tokens of one range of `copies`, written again as the same tokens (so that a
  // bind there stays one bind, numbered once: session-translate.ts numbers binds by token)
  type Range = readonly [number, number]
  const wraps: Array<{ from: number; to: number; sql: (x: string) => string; copies: ReadonlyArray<Range> }> = []
  const wrap = (from: number, to: number, sql: (x: string) => string, copies: ReadonlyArray<Range> = []) => wraps.push({ from, to, sql, copies })
  // ranges written as other text (a simple CASE's WHEN values moved into its subject), where not copied
  const substituted = new Map<number, { to: number; sql: string }>()
  const replaced = new Map<number, string>()
  const isEquality = (t: Tok | undefined) => ["=", "<>", "!=", "^="].some((op) => isOp(t, op))
  const isEmptyLiteral = (o: Operand) => o.kind === "literal" && o.tok.value === ""
  // operands whose lengths are known only when the statement runs: equality compares them without trailing blanks,
  // which blank-padded equality comes to; an ordering pads the shorter to the longer's length (ora_char_cmp)
  const compareAtRunTime = (left: Operand, right: Operand, s: number) => {
    if (isEmptyLiteral(left) || isEmptyLiteral(right)) return
    if (isEquality(at(s))) for (const side of [left, right]) wrap(side.from, side.to, (x) => `rtrim(${x}, ' ')`)
    else {
      const macro = ORDERING_MACROS[at(s)!.value]
      if (macro === undefined) return
      wrap(left.from, right.to, (x) => `${macro}(${x})`)
      replaced.set(s, ",")
    }
  }
  // where a literal operand's own token is: `(('m'))` starts at a parenthesis
  const literalIndex = (literal: Operand & { kind: "literal" }) => {
    const k = sigToks.indexOf(literal.tok, literal.from)
    return k < 0 || k > literal.to ? literal.from : k
  }
  const widthIn = (text: string, inCharacters: boolean) => (inCharacters ? [...text].length : Buffer.byteLength(text, "utf8"))
  // a literal compared with a CHAR column: padded to the column's length, the column to the literal's when longer
  const padAgainst = (literal: Operand & { kind: "literal" }, column: Operand & { kind: "column" }) => {
    if (literal.tok.value === "") return
    const inCharacters = sizedInCharacters(column.type)
    const width = Math.max(column.type.charSize, widthIn(trimmed(literal.tok.value), inCharacters))
    const type = { ...column.type, charSize: width }
    literals.set(literalIndex(literal), literalLike(literal.tok, blankPaddedText(trimmed(literal.tok.value), type)))
    if (width > column.type.charSize) wrap(column.from, column.to, (x) => blankPaddedSql(x, type))
  }
  // each of `items` compared with `left` on its own, as `left = item` would be ("x IN (a, b)" is "x = a OR x = b"; a
  // simple CASE's WHEN values alike): a VARCHAR2 item nonpadded, a CHAR one blank-padded. When every item is CHAR (and
  // `together`: the left operand may be changed) all are compared without their trailing blanks; else a literal
  // compared with a column is padded to the column's length (a longer one never equals it), another CHAR item is
  // taken without its trailing blanks and padded to the left value's length (the left operand written again there)
  const compareEach = (left: Operand, items: ReadonlyArray<Range>, together: boolean, once: (padded: ReadonlyArray<boolean>) => void) => {
    if (isEmptyLiteral(left)) return
    const typed = items.map(([a, b]) => (b < a ? undefined : typeOf(a, b)))
    const allChar = typed.every((x) => x !== undefined)
    if (together && allChar && (left.kind !== "column" || typed.some((x) => x.kind !== "literal"))) {
      if (typed.some((x) => x.kind === "literal" && x.tok.value === "")) return
      wrap(left.from, left.to, (x) => `rtrim(${x}, ' ')`)
      for (const [a, b] of items) wrap(a, b, (x) => `rtrim(${x}, ' ')`)
      return
    }
    const padded = typed.map((item) => item !== undefined && !(item.kind === "literal" && item.tok.value === ""))
    const copied = items.map(([a, b], n) => padded[n] && !(a === b && typed[n]!.kind === "literal" && left.kind === "column"))
    // a left operand that writing again would compute again (a volatile or user function) is computed once, by a form
    // of the comparison that names it once (the ora_char_... macros)
    if (copied.some((x) => x) && !isRepeatable(sigToks.slice(left.from, left.to + 1))) return once(padded)
    items.forEach(([a, b], n) => {
      const item = typed[n]
      if (!padded[n]) return
      if (!copied[n] && item!.kind === "literal" && left.kind === "column") literals.set(a, literalLike(item!.tok, blankPaddedText(trimmed(item!.tok.value), left.type)))
      else wrap(a, b, (x) => `ora_char_padded(rtrim(${x}, ' '), ${COPY})`, [[left.from, left.to]])
    })
  }
  // `left` compared with the one column of the query in parentheses at `open` (IN, or a comparison with ANY / SOME /
  // ALL): when both are CHAR, for (in)equality both without trailing blanks, for an ordering both padded to the longer
  // length where both lengths are known, else both to one width longer than either (ora_char_wide)
  const compareWithQuery = (left: Operand, open: number, equality: boolean) => {
    const close = matchParen(sigToks, open)
    const item = typeOf(open, close)
    const ranges = item === undefined || isEmptyLiteral(left) ? undefined : analysis().itemExpressions(open + 1, close - 1)
    if (item === undefined || ranges === undefined) return
    // two CHAR columns of one length hold values padded alike: compared as they are
    if (left.kind === "column" && item.kind === "column" && left.type.charSize === item.type.charSize && sizedInCharacters(left.type) === sizedInCharacters(item.type)) return
    if (equality) for (const [a, b] of [[left.from, left.to] as const, ...ranges]) wrap(a, b, (x) => `rtrim(${x}, ' ')`)
    else if (left.kind === "column" && item.kind === "column") {
      const type = { ...left.type, kind: "nvarchar" as const, charSize: Math.max(left.type.charSize, item.type.charSize) }
      for (const [a, b] of [[left.from, left.to] as const, ...ranges]) wrap(a, b, (x) => blankPaddedSql(x, type))
    } else for (const [a, b] of [[left.from, left.to] as const, ...ranges]) wrap(a, b, (x) => `ora_char_wide(${x})`)
  }
  for (let s = 0; s < sigToks.length; s++) {
    const t = at(s)!
    if (isKw(t, "IN") && isOp(at(s + 1), "(")) {
      const left = operandBefore(isKw(at(s - 1), "NOT") ? s - 2 : s - 1)
      if (left === undefined) continue
      const close = matchParen(sigToks, s + 1)
      const items = splitAt(sigToks, s + 2, close - 1, ",")
      if (isKw(at(s + 2), "SELECT", "WITH")) compareWithQuery(left, s + 1, true)
      else
        compareEach(left, items, true, (padded) => {
          // `[NOT] ora_char_in(list_value(x, <item marked padded or exact>, ...))`
          const negated = isKw(at(s - 1), "NOT")
          wrap(left.from, close, (x) => `${negated ? "NOT " : ""}ora_char_in(list_value(${x}))`)
          if (negated) replaced.set(s - 1, "")
          for (const [k, text] of [[s, ","], [s + 1, ""], [close, ""]] as const) replaced.set(k, text)
          items.forEach(([a, b], n) => wrap(a, b, (x) => `${padded[n] ? "ora_char_padded_item" : "ora_char_exact_item"}(${x})`))
        })
      continue
    }
    if (isKw(t, "BETWEEN")) {
      // `c [NOT] BETWEEN 'a' AND 'b'`: both bounds compared with the column
      const negated = isKw(at(s - 1), "NOT")
      const left = operandBefore(negated ? s - 2 : s - 1)
      const low = operandAfter(s + 1)
      if (left === undefined || low === undefined || !isKw(at(low.to + 1), "AND")) continue
      const high = operandAfter(low.to + 2)
      if (left.kind === "column" && low.kind === "literal" && (high === undefined || high.kind === "literal")) {
        padAgainst(low, left)
        if (high?.kind === "literal") padAgainst(high, left)
      } else if (high !== undefined && ![left, low, high].some(isEmptyLiteral)) {
        wrap(left.from, high.to, (x) => `${negated ? "NOT " : ""}ora_char_between(${x})`)
        if (negated) replaced.set(s - 1, "")
        replaced.set(s, ",")
        replaced.set(low.to + 1, ",")
      }
      continue
    }
    if (isKw(t, "CASE")) {
      // `CASE x WHEN a THEN ... WHEN b THEN ...`: each WHEN value compared with x on its own, as an IN list's items
      const subject = operandAfter(s + 1)
      if (subject === undefined || !isKw(at(subject.to + 1), "WHEN")) continue
      const whens: Array<readonly [number, number]> = []
      for (let k = subject.to + 1, depth = 0, start = -1; k < sigToks.length; k++) {
        const x = at(k)
        if (depth === 0 && isKw(x, "THEN") && start >= 0) {
          whens.push([start, k - 1])
          start = -1
        }
        if (depth === 0 && isKw(x, "WHEN")) start = k + 1
        if (isOp(x, "(") || isKw(x, "CASE")) depth++
        else if (isOp(x, ")") || isKw(x, "END")) {
          if (depth === 0) break
          depth--
        }
      }
      compareEach(subject, whens, true, (padded) => {
        // `CASE ora_char_first(list_value(x, <WHEN value marked>, ...)) WHEN 1 THEN ... WHEN 2 THEN ...`
        wrap(subject.from, subject.to, (x) => `ora_char_first(list_value(${x}${whens.map(() => `, ${COPY}`).join("")}))`, whens)
        whens.forEach(([a, b], n) => {
          wrap(a, b, (x) => `${padded[n] ? "ora_char_padded_item" : "ora_char_exact_item"}(${x})`)
          substituted.set(a, { to: b, sql: String(n + 1) })
        })
      })
      continue
    }
    // DECODE compares its expression with each search nonpadded whatever their types ("If expr and search are
    // character data, then Oracle compares them using nonpadded comparison semantics", SQL Language Reference, DECODE;
    // `DECODE('a', 'a ', 'same', 'different')` gives 'different' on Oracle, http://rafudb.blogspot.com/2010/02/equality-comparing-text.html):
    // the values as they are
    if (isKw(t, "NULLIF") && isOp(at(s + 1), "(")) {
      // NULLIF(a, b) compares a with b as `a = b` does
      const close = matchParen(sigToks, s + 1)
      const [first, second] = splitAt(sigToks, s + 2, close - 1, ",")
      const a = first === undefined ? undefined : typeOf(first[0], first[1])
      // ora_char_nullif(a, b) names a once
      if (a !== undefined && second !== undefined) compareEach({ ...a, from: first![0], to: first![1] }, [second], false, () => replaced.set(s, "ora_char_nullif"))
      continue
    }
    if (isKw(t, "ANY", "SOME", "ALL") && isOp(at(s + 1), "(") && isKw(at(s + 2), "SELECT", "WITH") && isComparison(at(s - 1))) {
      // `x op ANY | SOME | ALL (subquery)`
      const left = operandBefore(s - 2)
      if (left !== undefined) compareWithQuery(left, s + 1, isEquality(at(s - 1)))
      continue
    }
    if (!isComparison(t) || isAssignment(s)) continue
    const left = operandBefore(s - 1)
    const right = operandAfter(s + 1)
    if (left === undefined || right === undefined) continue
    // a JSON_TRANSFORM operation's `SET '$.a' = ...` is an assignment
    if (left.kind === "literal" && isKw(at(left.from - 1), "SET", "INSERT", "REPLACE", "APPEND", "RENAME", "PREPEND", "NESTED")) continue
    if (left.kind === "column" && right.kind === "literal") padAgainst(right, left)
    else if (left.kind === "literal" && right.kind === "column") padAgainst(left, right)
    else if (left.kind === "column" && right.kind === "column") {
      if (left.type.charSize === right.type.charSize && sizedInCharacters(left.type) === sizedInCharacters(right.type)) continue
      // both padded to the longer length in characters (a value sized in bytes has no more characters than bytes)
      const type = { ...left.type, kind: "nvarchar" as const, charSize: Math.max(left.type.charSize, right.type.charSize) }
      for (const side of [left, right]) wrap(side.from, side.to, (x) => blankPaddedSql(x, type))
    } else if (left.kind === "literal" && right.kind === "literal") {
      if (left.tok.value === "" || right.tok.value === "" || !isConditionStart(left.from)) continue
      const width = Math.max([...left.tok.value].length, [...right.tok.value].length)
      for (const side of [left, right]) literals.set(literalIndex(side), literalLike(side.tok, side.tok.value + " ".repeat(width - [...side.tok.value].length)))
    } else compareAtRunTime(left, right, s)
  }
  if (literals.size === 0 && wraps.length === 0 && replaced.size === 0) return toks
  const opens = new Map<number, Array<(typeof wraps)[number]>>()
  for (const w of wraps) opens.set(w.from, [...(opens.get(w.from) ?? []), w])
  // the tokens from significant token `first` to `last` (with the whitespace between them) as rewritten: a copy of an
  // operand carries the rewrites inside it, so that it computes the value the operand's own occurrence does
  const render = (first: number, last: number, out: Array<Tok>, copying = false) => {
    const ends = new Map<number, Array<{ close: string; copies: ReadonlyArray<Range> }>>()
    for (let s = first, k = sig[first]!; k <= sig[last]!; k++) {
      const tok = toks[k]!
      if (tok.kind === "ws" || sig[s] !== k) {
        out.push(tok)
        continue
      }
      const generated = (sql: string) => tokenize(sql).map((x) => ({ ...x, pos: tok.pos, heading: "" }))
      const substitute = copying ? undefined : substituted.get(s)
      if (substitute !== undefined) {
        out.push(...generated(substitute.sql))
        k = sig[substitute.to]!
        s = substitute.to + 1
        continue
      }
      // the widest range opens first and so closes last
      for (const w of [...(opens.get(s) ?? [])].filter((x) => x.to <= last).sort((a, b) => b.to - a.to)) {
        const [open, close] = w.sql("\u0000").split("\u0000") as [string, string]
        out.push(...generated(open))
        ends.set(w.to, [{ close, copies: w.copies }, ...(ends.get(w.to) ?? [])])
      }
      const replacement = replaced.get(s)
      if (replacement !== undefined) out.push(...generated(replacement))
      else out.push(literals.get(s) ?? tok)
      for (const { close, copies } of ends.get(s) ?? []) {
        const [before, ...afters] = close.split(COPY)
        out.push(...generated(before!))
        afters.forEach((after, n) => {
          out.push({ kind: "ws", text: " ", value: " ", pos: tok.pos })
          render(copies[n]![0], copies[n]![1], out, true)
          out.push(...generated(after))
        })
      }
      s++
    }
  }
  const out: Array<Tok> = []
  for (let k = 0; k < (sig[0] ?? toks.length); k++) out.push(toks[k]!)
  if (sig.length > 0) render(0, sig.length - 1, out)
  for (let k = (sig.at(-1) ?? toks.length) + 1; k < toks.length; k++) out.push(toks[k]!)
  return out
}
