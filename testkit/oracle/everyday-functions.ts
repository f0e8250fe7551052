/**
 * Oracle single-row and aggregate functions that everyday SQL uses and the engine has under no name of its own
 * (SQL Language Reference 23ai, "SQL Functions", each function's page):
 *
 * - {@link rewriteFunctionAliases}, on the Oracle tokens before translation, writes calls that mean another Oracle
 *   function here as that one: TO_NCHAR → TO_CHAR, TO_NCLOB → TO_CLOB, NCHR → CHR, NLS_UPPER / NLS_LOWER /
 *   NLS_INITCAP (the NLS sort argument dropped: linguistic case rules are not modelled) → UPPER / LOWER / INITCAP,
 *   LENGTHC / LENGTH2 / LENGTH4 → LENGTH, SUBSTRC / 2 / 4 → SUBSTR, INSTRC / 2 / 4 → INSTR (characters; UCS-2 code
 *   units are not told apart), RAWTONHEX → RAWTOHEX, ROWIDTOCHAR / CHARTOROWID (a ROWID is its text here) → their
 *   argument, USERENV(p) → SYS_CONTEXT('USERENV', p), `TRANSLATE(x USING CHAR_CS | NCHAR_CS)` → x (one character
 *   set), VSIZE(x) → the byte length DUMP(x) reports, JSON_SCALAR(x) → the JSON_QUERY of `JSON_ARRAY(x)`'s element
 *   (SQL Language Reference, "JSON_SCALAR": a JSON scalar; SQL NULL for NULL).
 * - {@link everydayFunctionSql} writes BITAND, NANVL, REMAINDER, WIDTH_BUCKET, BIN_TO_NUM, STATS_MODE, APPROX_MEDIAN and BIT_AND_AGG / BIT_OR_AGG / BIT_XOR_AGG as engine SQL, given the translated
 *   arguments;
 * - {@link registerEverydayFunctions} computes SOUNDEX, SUBSTRB, INSTRB, COMPOSE, DECOMPOSE, TO_MULTI_BYTE,
 *   TO_SINGLE_BYTE, ROUND_TIES_TO_EVEN (on every digit) and CONVERT in TypeScript.
 */
import { BIGINT, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { headingOf } from "./expression-names.ts"
import { isKw, isOp, matchParen, splitTopLevel, tokenize, type Tok } from "./lexer.ts"

/** Calls renamed to the Oracle function they amount to here. */
const RENAMED: Readonly<Record<string, string>> = {
  TO_NCHAR: "TO_CHAR",
  TO_NCLOB: "TO_CLOB",
  NCHR: "CHR",
  NLS_UPPER: "UPPER",
  NLS_LOWER: "LOWER",
  NLS_INITCAP: "INITCAP",
  LENGTHC: "LENGTH",
  LENGTH2: "LENGTH",
  LENGTH4: "LENGTH",
  SUBSTRC: "SUBSTR",
  SUBSTR2: "SUBSTR",
  SUBSTR4: "SUBSTR",
  INSTRC: "INSTR",
  INSTR2: "INSTR",
  INSTR4: "INSTR",
  RAWTONHEX: "RAWTOHEX"
}
/** Functions whose second argument (an NLS parameter) is dropped with the rename. */
const NLS_ARGUMENT = new Set(["NLS_UPPER", "NLS_LOWER", "NLS_INITCAP"])

/** `toks` with the calls {@link RENAMED} and the identity conversions written as the Oracle SQL they amount to. */
export const rewriteFunctionAliases = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const names = new Set([...Object.keys(RENAMED), "ROWIDTOCHAR", "CHARTOROWID", "USERENV", "VSIZE", "TRANSLATE", "JSON_SCALAR"])
  if (!toks.some((t) => t.kind === "ident" && names.has(t.value))) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    let open = k + 1
    while (toks[open]?.kind === "ws") open++
    const previous = out.filter((x) => x.kind !== "ws").at(-1)
    if (t.kind !== "ident" || !names.has(t.value) || !isOp(toks[open], "(") || isOp(previous, ".")) {
      out.push(t)
      continue
    }
    const close = matchParen(toks, open)
    if (close < 0) {
      out.push(t)
      continue
    }
    const args = splitTopLevel(toks.slice(open + 1, close))
    const generated = (sql: string, heading?: string): Array<Tok> => tokenize(sql).map((x, n) => ({ ...x, pos: t.pos, ...(heading !== undefined ? { heading: n === 0 ? heading : "" } : {}) }))
    const inner = rewriteFunctionAliases(toks.slice(open + 1, close))
    const heading = headingOf(toks.slice(k, close + 1).filter((x) => x.kind !== "ws"))
    const first = rewriteFunctionAliases(args[0] ?? [])
    const renamed = RENAMED[t.value]
    if (renamed !== undefined) {
      const kept = NLS_ARGUMENT.has(t.value) ? first : inner
      out.push(...generated(`${renamed}(`, heading), ...kept.map((x) => ({ ...x, heading: "" })), ...generated(")", ""))
    } else if (t.value === "ROWIDTOCHAR" || t.value === "CHARTOROWID") {
      out.push(...generated("(", heading), ...first.map((x) => ({ ...x, heading: "" })), ...generated(")", ""))
    } else if (t.value === "USERENV") {
      out.push(...generated("SYS_CONTEXT('USERENV', ", heading), ...first.map((x) => ({ ...x, heading: "" })), ...generated(")", ""))
    } else if (t.value === "VSIZE") {
      // DUMP's "Typ=n Len=m: ..." names the internal byte length; NULL for NULL (DUMP gives 'NULL')
      out.push(...generated("TO_NUMBER(REGEXP_SUBSTR(DUMP(", heading), ...first.map((x) => ({ ...x, heading: "" })), ...generated("), 'Len=(\\d+)', 1, 1, NULL, 1))", ""))
    } else if (t.value === "JSON_SCALAR") {
      // the JSON scalar JSON_ARRAY makes of the value (a number, a string, a datetime's ISO 8601 text), SQL NULL for
      // NULL (the default; the NULL-handling and ON ERROR clauses are not taken)
      if (args.length !== 1) {
        out.push(t)
        continue
      }
      out.push(...generated("JSON_QUERY(JSON_ARRAY(", heading), ...first.map((x) => ({ ...x, heading: "" })), ...generated("), '$[0]' RETURNING JSON)", ""))
    } else {
      // TRANSLATE(x USING CHAR_CS | NCHAR_CS); TRANSLATE(s, from, to) stays
      const sig = toks.slice(open + 1, close).filter((x) => x.kind !== "ws")
      const using = sig.findIndex((x) => isKw(x, "USING"))
      if (args.length !== 1 || using < 1 || using !== sig.length - 2 || !isKw(sig[using + 1], "CHAR_CS", "NCHAR_CS")) {
        out.push(t)
        continue
      }
      const body = toks.slice(open + 1, close)
      const at = body.findIndex((x) => isKw(x, "USING"))
      out.push(...generated("(", heading), ...rewriteFunctionAliases(body.slice(0, at)).map((x) => ({ ...x, heading: "" })), ...generated(")", ""))
    }
    k = close
  }
  return out
}

/** A NUMBER argument's value as a DOUBLE (exact NUMBERs are decimal text in the engine). */
const double = (x: string) => `CAST(${x} AS DOUBLE)`
/** A NUMBER argument's integer part, as BITAND and BIN_TO_NUM take it. */
const integer = (x: string) => `CAST(trunc(${double(x)}) AS HUGEINT)`

/** Engine SQL for a call of `name` over translated arguments, or undefined for another function. */
export const everydayFunctionSql = (name: string, args: ReadonlyArray<string>, exact: (k: number) => boolean = () => false): string | undefined => {
  const [a, b, c, d] = args
  switch (name) {
    case "BITAND":
      // "BITAND computes an AND operation on the bits of expr1 and expr2, both of which must resolve to nonnegative
      // integers" (nonintegral arguments are truncated)
      return args.length === 2 ? `(${integer(a!)} & ${integer(b!)})` : undefined
    case "NANVL":
      // "returns an alternative value n1 if the input value n2 is NaN"
      return args.length === 2 ? `(CASE WHEN isnan(${double(a!)}) THEN ${b} ELSE ${a} END)` : undefined
    case "REMAINDER":
      // n2 - n1 * N, N the integer nearest n2 / n1 (the even one for x.5); n1 = 0 is an error for NUMBER
      return args.length === 2
        ? `(CASE WHEN ${double(b!)} = 0 THEN error('ORA-01476: divisor is equal to zero') ELSE ${double(a!)} - ${double(b!)} * round_even(${double(a!)} / ${double(b!)}, 0) END)`
        : undefined
    case "WIDTH_BUCKET":
      // bucket 0 below the range, num + 1 at or above its end; a range given high to low counts downwards
      return args.length === 4
        ? `(CASE WHEN ${double(a!)} IS NULL THEN NULL WHEN ${double(b!)} = ${double(c!)} THEN error('ORA-30494: The argument [2] of WIDTH_BUCKET function is NULL or invalid.')
            WHEN ${double(b!)} < ${double(c!)} THEN (CASE WHEN ${double(a!)} < ${double(b!)} THEN 0 WHEN ${double(a!)} >= ${double(c!)} THEN ${integer(d!)} + 1
              ELSE CAST(floor((${double(a!)} - ${double(b!)}) * ${integer(d!)} / (${double(c!)} - ${double(b!)})) AS HUGEINT) + 1 END)
            ELSE (CASE WHEN ${double(a!)} > ${double(b!)} THEN 0 WHEN ${double(a!)} <= ${double(c!)} THEN ${integer(d!)} + 1
              ELSE CAST(floor((${double(b!)} - ${double(a!)}) * ${integer(d!)} / (${double(b!)} - ${double(c!)})) AS HUGEINT) + 1 END) END)`
        : undefined
    case "BIN_TO_NUM":
      // each argument 0 or 1, the first the most significant bit
      return args.length === 0
        ? undefined
        : `(${args.map((x, k) => `(CASE WHEN ${double(x)} IN (0, 1) THEN ${integer(x)} ELSE error('ORA-01760: illegal argument for function') END) * ${2n ** BigInt(args.length - 1 - k)}`).join(" + ")})`
    case "STATS_MODE":
      // of an exact NUMBER (decimal text): still a NUMBER
      return args.length === 1 ? (exact(0) ? `ora_number(CAST(mode(${a}) AS VARCHAR))` : `mode(${a})`) : undefined
    case "APPROX_MEDIAN":
      return args.length === 1 ? `median(${double(a!)})` : undefined
    case "BIT_AND_AGG":
    case "BIT_OR_AGG":
    case "BIT_XOR_AGG":
      return args.length === 1 ? `${name.slice(0, -4).toLowerCase()}(${integer(a!)})` : undefined
    default:
      return undefined
  }
}

/** Oracle's SOUNDEX: the first letter, then the codes of the following consonants, adjacent repeats once, to four characters. */
export const soundex = (s: string): string | null => {
  const letters = s.toUpperCase().replace(/[^A-Z]/g, "")
  if (letters.length === 0) return null
  const code = (ch: string) => ("BFPV".includes(ch) ? "1" : "CGJKQSXZ".includes(ch) ? "2" : "DT".includes(ch) ? "3" : ch === "L" ? "4" : "MN".includes(ch) ? "5" : ch === "R" ? "6" : "")
  let out = letters[0]!
  let last = code(letters[0]!)
  for (const ch of letters.slice(1)) {
    const c = code(ch)
    // H and W do not separate letters with the same code; vowels do
    if (ch === "H" || ch === "W") continue
    if (c !== "" && c !== last) out += c
    last = c
    if (out.length === 4) break
  }
  return out.padEnd(4, "0")
}

/** SUBSTRB: `length` bytes from byte `position` of the UTF-8 text (1-based, negative from the end), characters cut in half left out. */
const substrb = (s: string, position: number, length: number | undefined): string | null => {
  const bytes = Buffer.from(s, "utf8")
  const p = Math.trunc(position)
  const start = p > 0 ? p - 1 : p < 0 ? bytes.length + p : 0
  if (start < 0 || start >= bytes.length) return null
  const n = length === undefined ? bytes.length - start : Math.trunc(length)
  if (n < 1) return null
  let from = start
  while (from < bytes.length && (bytes[from]! & 0xc0) === 0x80) from++
  let to = Math.min(bytes.length, start + n)
  while (to > from && to < bytes.length && (bytes[to]! & 0xc0) === 0x80) to--
  const text = bytes.subarray(from, to).toString("utf8")
  return text === "" ? null : text
}

/** INSTRB: the byte position of the first occurrence of `sub` in `s` at or after byte `position`, 0 when none. */
const instrb = (s: string, sub: string, position: number): number => {
  const at = Buffer.from(s, "utf8").indexOf(Buffer.from(sub, "utf8"), Math.max(0, Math.trunc(position) - 1))
  return at + 1
}

/**
 * ROUND_TIES_TO_EVEN of a number's text to `places` decimals (negative: to the left of the point), a tie going to the
 * even neighbour, on every decimal digit (DuckDB's round_even computes on doubles: 2.45 to one place gave 2.5).
 */
export const roundTiesToEven = (text: string, places: number): string | null => {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?\s*$/i.exec(text)
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return null
  const fraction = m[3] ?? ""
  const units = BigInt(`${m[1] === "-" ? "-" : ""}${m[2] || "0"}${fraction}`)
  const scale = fraction.length - Number(m[4] ?? 0)
  const p = Math.trunc(places)
  let rounded: bigint
  if (scale <= p) rounded = units * 10n ** BigInt(p - scale)
  else {
    const divisor = 10n ** BigInt(scale - p)
    const negative = units < 0n
    const magnitude = negative ? -units : units
    let q = magnitude / divisor
    const twice = (magnitude % divisor) * 2n
    if (twice > divisor || (twice === divisor && q % 2n === 1n)) q += 1n
    rounded = negative ? -q : q
  }
  // rounded is the result times 10^p
  if (p <= 0) return (rounded * 10n ** BigInt(-p)).toString()
  const digits = (rounded < 0n ? -rounded : rounded).toString().padStart(p + 1, "0")
  return `${rounded < 0n ? "-" : ""}${digits.slice(0, -p)}.${digits.slice(-p)}`
}

/** Full-width forms of the printable ASCII characters (U+FF01 .. U+FF5E; a blank becomes U+3000). */
const toMultiByte = (s: string): string =>
  s.replace(/[!-~ ]/g, (ch) => (ch === " " ? "\u3000" : String.fromCharCode(ch.charCodeAt(0) + 0xfee0)))
const toSingleByte = (s: string): string =>
  s.replace(/[\uff01-\uff5e\u3000]/g, (ch) => (ch === "\u3000" ? " " : String.fromCharCode(ch.charCodeAt(0) - 0xfee0)))

/** Registers the `ora_` functions {@link everydayScalarCall} writes: SOUNDEX, SUBSTRB, INSTRB, COMPOSE, DECOMPOSE, TO_MULTI_BYTE, TO_SINGLE_BYTE, ROUND_TIES_TO_EVEN, CONVERT. */
export const registerEverydayFunctions = (connection: DuckDBConnection): void => {
  for (const f of [
    fn("ora_soundex", [VARCHAR], VARCHAR, ([s]) => soundex(String(s))),
    fn("ora_substrb", [VARCHAR, BIGINT], VARCHAR, ([s, p]) => substrb(String(s), Number(p), undefined)),
    fn("ora_substrb", [VARCHAR, BIGINT, BIGINT], VARCHAR, ([s, p, n]) => substrb(String(s), Number(p), Number(n))),
    fn("ora_instrb", [VARCHAR, VARCHAR, BIGINT], BIGINT, ([s, sub, p]) => BigInt(instrb(String(s), String(sub), Number(p)))),
    fn("ora_compose", [VARCHAR], VARCHAR, ([s]) => String(s).normalize("NFC")),
    fn("ora_decompose", [VARCHAR], VARCHAR, ([s]) => String(s).normalize("NFD")),
    fn("ora_to_multi_byte", [VARCHAR], VARCHAR, ([s]) => toMultiByte(String(s))),
    fn("ora_to_single_byte", [VARCHAR], VARCHAR, ([s]) => toSingleByte(String(s))),
    // CONVERT to US7ASCII replaces each character it lacks with '?'; the other character sets hold every character
    fn("ora_round_ties_to_even", [VARCHAR, BIGINT], VARCHAR, ([n, p]) => roundTiesToEven(String(n), Number(p))),
    fn("ora_convert", [VARCHAR, VARCHAR], VARCHAR, ([s, to]) => (String(to).toUpperCase() === "US7ASCII" ? String(s).replace(/[^\x00-\x7f]/g, "?") : String(s)))
  ]) connection.registerScalarFunction(f)
}

/** Engine SQL for the calls computed by {@link registerEverydayFunctions}, or undefined for another function. */
export const everydayScalarCall = (name: string, args: ReadonlyArray<string>, exact: (k: number) => boolean = () => false): string | undefined => {
  const text = (x: string) => `CAST(${x} AS VARCHAR)`
  const int = (x: string) => `CAST(trunc(CAST(${x} AS DOUBLE)) AS BIGINT)`
  switch (name) {
    case "SOUNDEX":
      return args.length === 1 ? `ora_soundex(${text(args[0]!)})` : undefined
    case "SUBSTRB":
      return args.length === 2 || args.length === 3 ? `ora_substrb(${[text(args[0]!), ...args.slice(1).map(int)].join(", ")})` : undefined
    case "INSTRB":
      return args.length === 2 || args.length === 3 ? `ora_instrb(${text(args[0]!)}, ${text(args[1]!)}, ${args.length === 3 ? int(args[2]!) : "1"})` : undefined
    case "COMPOSE":
    case "DECOMPOSE":
      return args.length >= 1 ? `ora_${name.toLowerCase()}(${text(args[0]!)})` : undefined
    case "TO_MULTI_BYTE":
    case "TO_SINGLE_BYTE":
      return args.length === 1 ? `ora_${name.toLowerCase()}(${text(args[0]!)})` : undefined
    case "ROUND_TIES_TO_EVEN":
      return args.length === 1 || args.length === 2 ? `ora_number(ora_round_ties_to_even(${text(args[0]!)}, ${args.length === 2 ? int(args[1]!) : "0"}))` : undefined
    case "CONVERT":
      return args.length === 2 || args.length === 3 ? `ora_convert(${text(args[0]!)}, ${text(args[1]!)})` : undefined
    default:
      return everydayFunctionSql(name, args, exact)
  }
}
