/**
 * Oracle's number format models for TO_CHAR(number, fmt) and TO_NUMBER(text, fmt), on exact NUMBER values
 * (decimal.ts). The rules follow the SQL Language Reference, "Format Models", "Number Format Models"
 * (https://docs.oracle.com/database/122/SQLRF/Format-Models.htm; the same elements and examples in the 10g edition,
 * https://docs.oracle.com/cd/B19306_01/server.102/b14200/sql_elements004.htm):
 *
 * - "All number format models cause the number to be rounded to the specified number of significant digits. If a
 *   value has more significant digits to the left of the decimal place than are specified in the format, then pound
 *   signs (#) replace the value."
 * - "Negative return values automatically contain a leading negative sign and positive values automatically contain
 *   a leading space unless the format model contains the MI, S, or PR format element."
 * - 9: "Leading zeros are blank, except for a zero value, which returns a zero for the integer part of the fixed-point
 *   number"; 0: leading or trailing zeros; B: "blanks for the integer part of a fixed-point number when the integer
 *   part is zero"; FM: no leading or trailing blanks; `,` / G and `.` / D; `$`; S first or last; MI and PR last;
 *   V multiplies by 10^n; EEEE scientific notation; X hexadecimal ("You can precede this element only with 0 ... or
 *   FM"; "If you specify neither 0 nor FM with X, then the return always has one leading blank").
 *
 * The page's table of example conversions is reproduced by the raw-client test
 * (test/testkit/oracle-numbers-format.test.ts). A format Oracle rejects fails with ORA-01481.
 */
import { type Decimal, decimalOf, multiply, numberText, parseDecimal, roundTo } from "./decimal.ts"
import { OraError } from "./errors.ts"
import { formatWhole, parseWhole, wholeModelOf } from "./number-format-whole.ts"

const invalidModel = () => new OraError(1481, "invalid number format model")
const invalidNumber = () => new OraError(1722, "invalid number")

/** A digit position: `0` prints a zero where the value has none (from there on, for leading positions). */
interface DigitSlot {
  readonly kind: "digit"
  readonly zero: boolean
}
/** A group separator position (`,` or G). */
interface GroupSlot {
  readonly kind: "group"
  readonly nls: boolean
}

/**
 * A currency element: L (NLS_CURRENCY), C (NLS_ISO_CURRENCY) or U (NLS_DUAL_CURRENCY), first (after S / B) or last
 * (before MI / PR / S) in the model.
 */
interface CurrencySlot {
  readonly element: "L" | "C" | "U"
  readonly trailing: boolean
}

/** A parsed number format model. */
interface NumberModel {
  readonly fm: boolean
  readonly blankZero: boolean
  /** `$`, in any position of the model: the value prints with a leading dollar sign. */
  readonly dollar: boolean
  readonly currency: CurrencySlot | undefined
  readonly sign: "auto" | "leadingS" | "trailingS" | "MI" | "PR"
  /** Positions left of the decimal character, the digits after V included (they print the integer's last digits). */
  readonly integer: ReadonlyArray<DigitSlot | GroupSlot>
  /** `.` or D, when the model has one. */
  readonly decimal: "." | "D" | undefined
  readonly fraction: ReadonlyArray<DigitSlot>
  /** Digits after V: the value is multiplied by 10^multiplier and printed as an integer. */
  readonly multiplier: number
  readonly scientific: boolean
  /** X digits (with their leading 0 positions), and whether they are lower case. */
  readonly hex: { readonly digits: number; readonly zeros: boolean; readonly lower: boolean } | undefined
}

/** Parses a number format model of positions (not RN or TM: number-format-whole.ts); ORA-01481 for one Oracle rejects. */
const parseModel = (model: string): NumberModel => {
  let rest = model
  const take = (re: RegExp): string | undefined => {
    const m = re.exec(rest)
    if (m === null) return undefined
    rest = rest.slice(m[0].length)
    return m[0]
  }
  const fm = take(/^FM/i) !== undefined
  const hex = /^(0*)(X+)$/i.exec(rest)
  if (hex !== null) {
    const xs = hex[2]!
    return {
      fm, blankZero: false, dollar: false, currency: undefined, sign: "auto", integer: [], decimal: undefined, fraction: [], multiplier: 0, scientific: false,
      hex: { digits: hex[1]!.length + xs.length, zeros: hex[1]!.length > 0, lower: xs[0] === "x" }
    }
  }
  let sign: NumberModel["sign"] = "auto"
  let blankZero = false
  let dollar = false
  let currency: CurrencySlot | undefined
  if (take(/^S/i) !== undefined) sign = "leadingS"
  // B, $ and a currency element may precede the digits in any order
  for (let k = 0; k < 3; k++) {
    if (!blankZero && take(/^B/i) !== undefined) blankZero = true
    if (!dollar && take(/^\$/) !== undefined) dollar = true
    const c = currency === undefined ? take(/^[LCU]/i) : undefined
    if (c !== undefined) currency = { element: c.toUpperCase() as CurrencySlot["element"], trailing: false }
  }
  const integer: Array<DigitSlot | GroupSlot> = []
  const fraction: Array<DigitSlot> = []
  let decimal: NumberModel["decimal"]
  let multiplier = 0
  let inV = false
  for (let c = take(/^[90,GDV.$]/i); c !== undefined; c = take(/^[90,GDV.$]/i)) {
    const u = c.toUpperCase()
    if (u === "$") {
      // "$: Returns value with a leading dollar sign", wherever the element stands; one per model
      if (dollar) throw invalidModel()
      dollar = true
    } else if (u === "9" || u === "0") {
      const slot: DigitSlot = { kind: "digit", zero: u === "0" }
      if (inV) multiplier++
      if (decimal !== undefined) fraction.push(slot)
      else integer.push(slot)
    } else if (u === "," || u === "G") {
      // "A comma element cannot begin a number format model" nor "appear to the right of a decimal character"
      if (decimal !== undefined || inV || integer.length === 0) throw invalidModel()
      integer.push({ kind: "group", nls: u === "G" })
    } else if (u === "." || u === "D") {
      // one decimal character, and none with V
      if (decimal !== undefined || inV) throw invalidModel()
      decimal = u === "." ? "." : "D"
    } else {
      if (inV || decimal !== undefined) throw invalidModel()
      inV = true
    }
  }
  const scientific = take(/^EEEE/i) !== undefined
  if (take(/^\$/) !== undefined) {
    if (dollar) throw invalidModel()
    dollar = true
  }
  const trailingCurrency = currency === undefined ? take(/^[LCU]/i) : undefined
  if (trailingCurrency !== undefined) currency = { element: trailingCurrency.toUpperCase() as CurrencySlot["element"], trailing: true }
  if (scientific && (integer.some((s) => s.kind === "group") || inV)) throw invalidModel()
  if (sign === "auto") {
    const last = take(/^(S|MI|PR)/i)?.toUpperCase()
    sign = last === "S" ? "trailingS" : last === "MI" ? "MI" : last === "PR" ? "PR" : "auto"
  }
  // the sign elements come last, and a model prints at least one digit
  if (rest.length > 0 || integer.length + fraction.length + multiplier === 0) throw invalidModel()
  if (integer.length > 0 && integer[integer.length - 1]!.kind === "group") throw invalidModel()
  if (dollar && currency !== undefined) throw invalidModel()
  return { fm, blankZero, dollar, currency, sign, integer, decimal, fraction, multiplier, scientific, hex: undefined }
}

/**
 * The decimal character and group separator (NLS_NUMERIC_CHARACTERS) for D and G, and the currency symbols of L, C
 * and U. `nls` is the two NLS_NUMERIC_CHARACTERS, then an NLS_CURRENCY when TO_CHAR's nlsparam names one; the
 * others are those of the server's territory, AMERICA: NLS_CURRENCY `$`, NLS_ISO_CURRENCY `USD`, NLS_DUAL_CURRENCY
 * `$` (Globalization Support Guide, "Locale Data", territory AMERICA).
 */
interface Separators {
  readonly decimal: string
  readonly group: string
  readonly currency: Readonly<Record<CurrencySlot["element"], string>>
}

const separatorsOf = (nls: string): Separators => ({
  decimal: nls[0] ?? ".",
  group: nls[1] ?? ",",
  currency: { L: nls.length > 2 ? nls.slice(2) : "$", C: "USD", U: "$" }
})

/**
 * Positions a currency element takes without FM: "Ten characters are available for the currency symbol" (TO_CHAR
 * (number)), blank padded to its left; the ISO symbol (C) has three.
 */
const currencyWidth = (slot: CurrencySlot | undefined): number => (slot === undefined ? 0 : slot.element === "C" ? 3 : 10)

/** Printed width of the model without FM (the width of its `#` overflow text, too). */
const widthOf = (m: NumberModel): number =>
  m.integer.length + (m.decimal !== undefined ? 1 : 0) + m.fraction.length + (m.dollar ? 1 : 0) + currencyWidth(m.currency) + (m.sign === "PR" ? 2 : 1)

/** |d| rounded to `places` fraction digits, as integer digits (no leading zeros, "" for 0) and `places` fraction digits. */
const fixedDigits = (d: Decimal, places: number): { whole: string; fraction: string } => {
  const r = roundTo({ ...d, negative: false }, places, "round")
  if (r.coefficient === 0n) return { whole: "", fraction: "0".repeat(places) }
  const text = (r.coefficient * 10n ** BigInt(r.exponent + places)).toString().padStart(places + 1, "0")
  return { whole: text.slice(0, text.length - places).replace(/^0+/, ""), fraction: text.slice(text.length - places) }
}

/** Mantissa and exponent of |d| with `places` digits after the point (EEEE). */
const scientificDigits = (d: Decimal, places: number): string => {
  if (d.coefficient === 0n) return `0${places > 0 ? "." + "0".repeat(places) : ""}E+00`
  let digits = d.coefficient.toString()
  let power = d.exponent + digits.length - 1
  const keep = places + 1
  if (digits.length > keep) {
    const unit = 10n ** BigInt(digits.length - keep)
    let q = d.coefficient / unit
    if ((d.coefficient % unit) * 2n >= unit) q += 1n
    digits = q.toString()
    if (digits.length > keep) {
      digits = digits.slice(0, keep)
      power++
    }
  }
  digits = digits.padEnd(keep, "0")
  const mantissa = places > 0 ? `${digits[0]}.${digits.slice(1)}` : digits
  return `${mantissa}E${power < 0 ? "-" : "+"}${String(Math.abs(power)).padStart(2, "0")}`
}

/** The integer part printed into the model's integer positions (leading positions blank). */
const integerPart = (m: NumberModel, whole: string, zeroInteger: boolean, sep: Separators): string => {
  const slots = m.integer
  const firstZero = slots.findIndex((s) => s.kind === "digit" && s.zero)
  const out: Array<string> = new Array<string>(slots.length)
  let next = whole.length - 1
  for (let k = slots.length - 1; k >= 0; k--) {
    const slot = slots[k]!
    if (slot.kind === "group") out[k] = slot.nls ? sep.group : ","
    else if (next >= 0) out[k] = whole[next--]!
    else out[k] = firstZero >= 0 && k >= firstZero && !(m.blankZero && zeroInteger) ? "0" : " "
  }
  // separators left of the first printed digit are blank
  for (let k = 0; k < slots.length && (out[k] === " " || slots[k]!.kind === "group"); k++) out[k] = " "
  // a zero value prints one 0 for its integer part when the model has no fraction digits
  if (zeroInteger && !m.blankZero && m.fraction.length === 0 && !out.some((c) => c !== " ") && out.length > 0) out[out.length - 1] = "0"
  return out.join("")
}

/**
 * TO_CHAR(d, model): the text Oracle prints. `nls` is NLS_NUMERIC_CHARACTERS (decimal character, group separator).
 */
export const formatNumber = (d: Decimal, model: string, nls = ".,"): string => {
  const standAlone = wholeModelOf(model)
  if (standAlone !== undefined) return formatWhole(d, standAlone)
  const m = parseModel(model)
  if (m.hex !== undefined) return formatHex(d, m.hex, m.fm)
  const sep = separatorsOf(nls)
  const width = widthOf(m)
  const overflow = "#".repeat(width)
  let body: string
  if (m.scientific) body = scientificDigits(d, m.fraction.length)
  else {
    const scaled = m.multiplier > 0 ? multiply({ ...d, negative: false }, decimalOf(`1e${m.multiplier}`)) : d
    const places = m.multiplier > 0 ? 0 : m.fraction.length
    const { whole, fraction } = fixedDigits(scaled, places)
    if (whole.length > m.integer.filter((s) => s.kind === "digit").length) return overflow
    if (m.blankZero && whole === "" && /^0*$/.test(fraction)) return m.fm ? "" : " ".repeat(width)
    const integer = integerPart(m, whole, whole === "", sep)
    let digits = fraction
    if (m.fm) {
      // FM drops trailing fraction zeros printed by 9 positions (not those of 0 positions)
      const lastZero = m.fraction.reduce((at, s, k) => (s.zero ? k : at), -1)
      let end = digits.length
      while (end > lastZero + 1 && digits[end - 1] === "0") end--
      digits = digits.slice(0, end)
    }
    const point = m.decimal === undefined ? "" : m.decimal === "D" ? sep.decimal : "."
    let text = integer.trimStart() + point + digits
    // with FM, a value whose every printed digit went is printed as 0 (e.g. 0 in FM99.99)
    if (m.fm && !/\d/.test(text)) text = "0" + text
    body = text
  }
  if (m.dollar) body = "$" + body
  if (m.currency !== undefined) body = m.currency.trailing ? body + sep.currency[m.currency.element] : sep.currency[m.currency.element] + body
  const negative = d.negative && d.coefficient !== 0n
  let signed: string
  switch (m.sign) {
    case "auto":
      signed = (negative ? "-" : " ") + body
      break
    case "leadingS":
      signed = (negative ? "-" : "+") + body
      break
    case "trailingS":
      signed = body + (negative ? "-" : "+")
      break
    case "MI":
      signed = body + (negative ? "-" : " ")
      break
    case "PR":
      signed = negative ? `<${body}>` : ` ${body} `
      break
  }
  // EEEE keeps one more leading blank than its positions ("9.9EEEE" prints 123.456 as "  1.2E+02")
  const padded = m.scientific ? " " + signed : signed.padStart(width, " ")
  return m.fm ? padded.trim() : padded
}

/**
 * TO_CHAR of a number's text (DuckDB's rendering of a DECIMAL, integer or DOUBLE, or an exact NUMBER's): BINARY_DOUBLE
 * infinities and NaN print pound signs ("If a BINARY_FLOAT or BINARY_DOUBLE value is converted to CHAR or NCHAR, and
 * the input is either infinity or NaN, then Oracle always returns the pound signs", Number Format Models).
 */
export const formatNumberText = (text: string, model: string, nls = ".,"): string => {
  const d = parseDecimal(text)
  if (d !== undefined || !/^-?(inf|infinity|nan)$/i.test(text.trim())) return formatNumber(d ?? decimalOf(text), model, nls)
  const whole = wholeModelOf(model)
  // TM prints them as TO_CHAR without a model does (Inf, -Inf, Nan)
  if (whole !== undefined) return whole.kind === "roman" ? "#".repeat(15) : /nan/i.test(text) ? "Nan" : text.trim().startsWith("-") ? "-Inf" : "Inf"
  const m = parseModel(model)
  return "#".repeat(m.hex !== undefined ? m.hex.digits + 1 : widthOf(m))
}

/** True when `model` is a valid number format model that prints digits (TO_CHAR of a value of unknown type uses it so). */
export const isNumberModel = (model: string): boolean => {
  if (wholeModelOf(model) !== undefined) return true
  if (!/[09x]/i.test(model)) return false
  try {
    parseModel(model)
    return true
  } catch {
    return false
  }
}

/**
 * X: "If the specified number is not an integer, then Oracle Database rounds it to an integer"; "This element
 * accepts only positive values or 0": a negative value or one with more hex digits than the model prints pound signs
 * (TO_CHAR(-123, 'xxx') is `####`: https://www.orafaq.com/forum/t/152170/).
 */
const formatHex = (d: Decimal, hex: NonNullable<NumberModel["hex"]>, fm: boolean): string => {
  const r = roundTo(d, 0, "round")
  const value = r.coefficient * 10n ** BigInt(Math.max(0, r.exponent))
  let text = value.toString(16)
  if ((r.negative && r.coefficient !== 0n) || text.length > hex.digits) return "#".repeat(hex.digits + 1)
  text = hex.lower ? text : text.toUpperCase()
  if (hex.zeros) return text.padStart(hex.digits, "0")
  return fm ? text : text.padStart(hex.digits + 1, " ")
}

/**
 * TO_NUMBER(text, model): the number the text shows in that model (exact decimal text, Oracle's TO_CHAR form);
 * ORA-01722 when the text does not match it (more digits than its positions, a missing or misplaced sign, group
 * separator or currency symbol).
 */
export const parseNumber = (text: string, model: string, nls = ".,"): string => {
  const standAlone = wholeModelOf(model)
  if (standAlone !== undefined) return parseWhole(text, standAlone)
  const m = parseModel(model)
  const sep = separatorsOf(nls)
  let t = text.trim()
  if (m.hex !== undefined) {
    if (!/^[0-9a-f]+$/i.test(t) || t.length > m.hex.digits) throw invalidNumber()
    return numberText(decimalOf(BigInt(`0x${t}`).toString()))
  }
  let negative = false
  const strip = (re: RegExp): string | undefined => {
    const x = re.exec(t)
    if (x === null) return undefined
    t = t.slice(0, x.index) + t.slice(x.index + x[0].length)
    return x[0]
  }
  switch (m.sign) {
    case "auto":
      negative = strip(/^-/) !== undefined
      break
    case "leadingS": {
      const s = strip(/^[+-]/)
      if (s === undefined) throw invalidNumber()
      negative = s === "-"
      break
    }
    case "trailingS": {
      const s = strip(/[+-]$/)
      if (s === undefined) throw invalidNumber()
      negative = s === "-"
      break
    }
    case "MI":
      negative = strip(/-$/) !== undefined
      break
    case "PR":
      if (t.startsWith("<") && t.endsWith(">")) {
        t = t.slice(1, -1)
        negative = true
      }
      break
  }
  if (m.dollar && strip(/^\$/) === undefined) throw invalidNumber()
  if (m.currency !== undefined) {
    const symbol = sep.currency[m.currency.element]
    const at = m.currency.trailing ? t.length - symbol.length : 0
    if (t.slice(at, at + symbol.length).toUpperCase() !== symbol.toUpperCase()) throw invalidNumber()
    t = t.slice(0, at) + t.slice(at + symbol.length)
  }
  if (m.scientific) {
    if (!/^\d(\.\d*)?E[+-]?\d+$/i.test(t)) throw invalidNumber()
    return numberText({ ...decimalOf(t), negative })
  }
  const point = m.decimal === "D" ? sep.decimal : "."
  const at = m.decimal === undefined ? -1 : t.indexOf(point)
  const whole = at < 0 ? t : t.slice(0, at)
  const fraction = at < 0 ? "" : t.slice(at + 1)
  if (!/^\d*$/.test(fraction) || fraction.length > m.fraction.length) throw invalidNumber()
  const integerSlots = m.integer
  // the integer digits (and any group separators between them) fill the model's last integer positions
  if (whole.length > integerSlots.length) throw invalidNumber()
  const groups = /\D/.test(whole)
  const slots = groups ? integerSlots.slice(integerSlots.length - whole.length) : integerSlots.filter((s) => s.kind === "digit").slice(0, whole.length)
  if (slots.length < whole.length) throw invalidNumber()
  for (let k = 0; groups && k < whole.length; k++) {
    const slot = slots[k]!
    const c = whole[k]!
    if (slot.kind === "digit" ? !/\d/.test(c) : c !== (slot.nls ? sep.group : ",")) throw invalidNumber()
  }
  const digits = whole.replace(/\D/g, "")
  if (digits.length + fraction.length === 0) throw invalidNumber()
  const value = decimalOf(`${digits || "0"}.${fraction || "0"}e${-m.multiplier}`)
  return numberText({ ...value, negative: negative && value.coefficient !== 0n })
}
