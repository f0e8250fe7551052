/**
 * Numbers in English words as TO_CHAR(datetime) prints them: the SP, TH and SPTH / THSP suffixes of a number element
 * and the YEAR / SYEAR elements (Oracle SQL Language Reference, "Datetime Format Element Suffixes": TH "Ordinal
 * Number" `DDTH` gives `4TH`, SP "Spelled Number" `DDSP` gives `FOUR`, SPTH or THSP "Spelled, ordinal number"
 * `DDSPTH` gives `FOURTH`; "When you add one of these suffixes to a datetime format element, the return value is
 * always in English"; "Datetime Format Elements": YEAR, SYEAR "Year, spelled out; S prefixes BC dates with a minus
 * sign"). Capitalisation follows the element ("Capitalization in a spelled-out word, abbreviation, or Roman numeral
 * follows capitalization in the corresponding format element").
 */

const ONES = ["ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
  "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN"]
const TENS = ["", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"]

/** `n` (0 or more) in upper-case English words, hyphenated below a hundred: `ONE HUNDRED TWENTY-THREE`. */
export const spelledNumber = (n: number): string => {
  if (n < 20) return ONES[n]!
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 === 0 ? "" : `-${ONES[n % 10]}`)
  const scales: Array<[number, string]> = [[1_000_000_000, "BILLION"], [1_000_000, "MILLION"], [1000, "THOUSAND"], [100, "HUNDRED"]]
  for (const [size, word] of scales) {
    if (n < size) continue
    const rest = n % size
    return `${spelledNumber(Math.floor(n / size))} ${word}${rest === 0 ? "" : ` ${spelledNumber(rest)}`}`
  }
  return String(n)
}

/** The ordinal of spelled words: the last word made ordinal (`TWENTY-ONE` gives `TWENTY-FIRST`). */
export const ordinalWords = (words: string): string => {
  const m = /^(.*?)([A-Z]+)$/.exec(words)!
  const last = m[2]!
  const special: Record<string, string> = {
    ONE: "FIRST", TWO: "SECOND", THREE: "THIRD", FIVE: "FIFTH", EIGHT: "EIGHTH", NINE: "NINTH", TWELVE: "TWELFTH",
    // "zeroeth", as a published Oracle transcript prints it (sqlsnippets.com, "Datetime Format Element Suffixes")
    ZERO: "ZEROETH"
  }
  const ordinal = special[last] ?? (last.endsWith("Y") ? `${last.slice(0, -1)}IETH` : `${last}TH`)
  return m[1] + ordinal
}

/** The English ordinal suffix of `n`: ST, ND, RD or TH (11, 12 and 13 take TH). */
export const ordinalSuffix = (n: number): string => {
  const lastTwo = n % 100
  if (lastTwo >= 11 && lastTwo <= 13) return "TH"
  return ["TH", "ST", "ND", "RD"][n % 10] ?? "TH"
}

/**
 * The year `y` (1-9999) spelled as Oracle's YEAR prints it: its hundreds and the rest each spelled (`2024`
 * `TWENTY TWENTY-FOUR`, `1999` `NINETEEN NINETY-NINE`), a whole hundred `NINETEEN HUNDRED`, a whole thousand and a
 * year of its first ten `TWO THOUSAND`, `TWO THOUSAND FIVE`. **Unconfirmed:** the forms of the whole hundreds and
 * thousands and of the years 1-9 past them are not documented; the pairwise reading is the one Oracle's examples show.
 */
export const spelledYear = (y: number): string => {
  const hundreds = Math.floor(y / 100)
  const rest = y % 100
  if (hundreds === 0) return spelledNumber(rest)
  if (hundreds % 10 === 0 && rest < 10) return spelledNumber(y)
  if (rest === 0) return `${spelledNumber(hundreds)} HUNDRED`
  return `${spelledNumber(hundreds)} ${spelledNumber(rest)}`
}

/**
 * `text` (upper-case) in the capitalisation of the element `element` as written: upper-case when its first two
 * letters are, an initial capital on each word when only its first is, else lower-case.
 */
export const casedLike = (element: string, text: string): string => {
  if (/^[A-Z][A-Z]/.test(element) || /^[A-Z]$/.test(element)) return text
  if (/^[A-Z]/.test(element)) return text.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, before: string, c: string) => before + c.toUpperCase())
  return text.toLowerCase()
}

/**
 * The number `value` of a number element with the suffix `suffix` (TH, SP, SPTH or THSP; upper-cased), `digits` being
 * the element's text as printed without the suffix (leading zeros kept unless FM): TH appends the ordinal suffix to
 * the digits (`05TH`), SP spells the number, SPTH / THSP spell its ordinal; cased like `written` (the element and
 * suffix as the model writes them).
 */
export const withSuffix = (value: number, digits: string, suffix: string, written: string): string => {
  const text = suffix === "TH" ? digits + ordinalSuffix(value) : suffix === "SP" ? spelledNumber(value) : ordinalWords(spelledNumber(value))
  return casedLike(written, text)
}
