/**
 * The number format models that stand alone (SQL Language Reference, "Format Models", "Number Format Elements":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Format-Models.html):
 *
 * - RN / rn: "Returns a value as Roman numerals in uppercase" / "lowercase"; "Value can be an integer between 1 and
 *   3999". The numeral is right-justified in 15 positions (MMMDCCCLXXXVIII, the longest, is 15 characters) and FM
 *   drops the blanks; a value out of range prints 15 pound signs.
 * - TM / TM9 / TME: "The text minimum number format model returns (in decimal output) the smallest number of
 *   characters possible ... The default is TM9, which returns the number in fixed notation unless the output exceeds
 *   64 characters ... TME returns the number in scientific notation"; "You cannot precede this element with any
 *   other element. You can follow this element only with one 9 or one E (or e)".
 */
import { type Decimal, decimalOf, fixedText, numberText, roundTo } from "./decimal.ts"
import { OraError } from "./errors.ts"

const ROMAN: ReadonlyArray<readonly [number, string]> = [
  [1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"], [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"],
  [4, "IV"], [1, "I"]
]

/** Width of an RN result without FM. */
const ROMAN_WIDTH = 15

/** A stand-alone model: RN (upper or lower case, with or without FM) or TM / TM9 / TME. */
export type WholeModel =
  | { readonly kind: "roman"; readonly fm: boolean; readonly lower: boolean }
  | { readonly kind: "text"; readonly scientific: boolean }

/** The stand-alone model `model` is, or undefined for a model of positions. */
export const wholeModelOf = (model: string): WholeModel | undefined => {
  const rn = /^(FM)?(RN|rn|Rn|rN)$/i.exec(model)
  if (rn !== null) return { kind: "roman", fm: rn[1] !== undefined, lower: rn[2] === "rn" }
  const tm = /^TM(9|E)?$/i.exec(model)
  if (tm !== null) return { kind: "text", scientific: tm[1]?.toUpperCase() === "E" }
  return undefined
}

/** Scientific notation with the fewest mantissa digits (`1.2345E+04`, `-5E-01`, `0E+00`). */
const scientificText = (d: Decimal): string => {
  if (d.coefficient === 0n) return "0E+00"
  const digits = d.coefficient.toString()
  const power = d.exponent + digits.length - 1
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`
  return `${d.negative ? "-" : ""}${mantissa}E${power < 0 ? "-" : "+"}${String(Math.abs(power)).padStart(2, "0")}`
}

const romanOf = (n: number): string => {
  let out = ""
  let rest = n
  for (const [value, letters] of ROMAN) {
    while (rest >= value) {
      out += letters
      rest -= value
    }
  }
  return out
}

/** TO_CHAR(d, model) for a stand-alone model. */
export const formatWhole = (d: Decimal, m: WholeModel): string => {
  if (m.kind === "text") return m.scientific ? scientificText(d) : numberText(d)
  const r = roundTo(d, 0, "round")
  const n = r.negative || r.coefficient === 0n || r.exponent > 3 ? 0 : Number(fixedText(r))
  if (n < 1 || n > 3999) return "#".repeat(ROMAN_WIDTH)
  const text = m.lower ? romanOf(n).toLowerCase() : romanOf(n)
  return m.fm ? text : text.padStart(ROMAN_WIDTH, " ")
}

/** TO_NUMBER(text, model) for a stand-alone model: the number as decimal text; ORA-01722 for text it does not show. */
export const parseWhole = (text: string, m: WholeModel): string => {
  const t = text.trim()
  if (m.kind === "text") return numberText(decimalOf(t))
  const upper = t.toUpperCase()
  if (!/^[MDCLXVI]+$/.test(upper)) throw new OraError(1722, "invalid number")
  let value = 0
  let rest = upper
  for (const [v, letters] of ROMAN) {
    while (rest.startsWith(letters)) {
      value += v
      rest = rest.slice(letters.length)
    }
  }
  // only the canonical numeral of a value reads as that value
  if (rest.length > 0 || value < 1 || value > 3999 || romanOf(value) !== upper) throw new OraError(1722, "invalid number")
  return String(value)
}
