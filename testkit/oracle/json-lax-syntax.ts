/**
 * Oracle's lax JSON syntax rewritten into standard JSON text. JSON Developer's Guide, "About Strict and Lax JSON
 * Syntax": the lax syntax (Oracle's default) "reflects the JavaScript syntax for object fields; the Boolean and null
 * values are not case-sensitive; and it is more permissive with respect to numerals, whitespace, and escaping of
 * Unicode characters"; Simple Oracle Document Access, "Content Column JSON Validation" (LAX, as IS JSON's lax
 * syntax): field names need not be in double quotation marks, `true`, `false` and `null` in any letter case, numerals
 * in additional ways. Read here as: a field name unquoted (a JavaScript identifier) or in single quotation marks, a
 * string in single quotation marks, TRUE / False / NULL, and numerals with a leading `+`, a leading or trailing
 * decimal point and leading zeros (`+1`, `.5`, `1.`, `007`), any whitespace between tokens. Other syntax (comments,
 * trailing commas) is refused, as it is by the standard parser the result goes to.
 */

const NUMERAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/
const IDENTIFIER = /^[A-Za-z_$][\w$]*/

/** A lax numeral as a standard JSON number (`+1.` → `1`, `-.5` → `-0.5`, `007` → `7`). */
const standardNumeral = (text: string): string => {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text)!
  const sign = m[1] === "-" ? "-" : ""
  const whole = m[2]!.replace(/^0+(?=\d)/, "") || "0"
  const fraction = m[3] ?? ""
  return `${sign}${whole}${fraction === "" ? "" : `.${fraction}`}${m[4]}`
}

/** The string literal at `text[at]` (quoted by `"` or `'`) as standard JSON, and where it ends; undefined when unterminated. */
const stringAt = (text: string, at: number): { readonly json: string; readonly end: number } | undefined => {
  const quote = text[at]!
  let out = ""
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!
    if (c === quote) return { json: `"${out}"`, end: i + 1 }
    if (c === "\\") {
      const next = text[i + 1]
      if (next === undefined) return undefined
      // `\'` is only an escape in lax syntax; every other escape is kept for the standard parser to judge
      out += next === "'" ? "'" : `\\${next}`
      i++
    } else out += c === '"' ? '\\"' : c
  }
  return undefined
}

/** `text` in Oracle's lax JSON syntax as standard JSON text; undefined when it is not lax JSON either. */
export const laxJsonToStandard = (text: string): string | undefined => {
  let out = ""
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (/\s/.test(c)) {
      out += " "
      i++
    } else if ("{}[]:,".includes(c)) {
      out += c
      i++
    } else if (c === '"' || c === "'") {
      const s = stringAt(text, i)
      if (s === undefined) return undefined
      out += s.json
      i = s.end
    } else {
      const rest = text.slice(i)
      const numeral = NUMERAL.exec(rest)
      if (numeral !== null && !/^[+-]?$/.test(numeral[0])) {
        out += standardNumeral(numeral[0])
        i += numeral[0].length
        continue
      }
      const word = IDENTIFIER.exec(rest)
      if (word === null) return undefined
      const literal = word[0].toLowerCase()
      // a bare word is a literal, or a field name when a colon follows
      if (/^\s*:/.test(rest.slice(word[0].length))) out += JSON.stringify(word[0])
      else if (literal === "true" || literal === "false" || literal === "null") out += literal
      else return undefined
      i += word[0].length
    }
  }
  return out
}
