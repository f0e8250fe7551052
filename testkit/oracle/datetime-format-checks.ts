/**
 * Datetime format models Oracle refuses before converting anything: an element it does not know (ORA-01821, TO_CHAR
 * and TO_DATE alike) and, where a text is read (TO_DATE, TO_TIMESTAMP), a field's element given twice (ORA-01810).
 *
 * Elements: Oracle SQL Language Reference, "Datetime Format Models", table "Datetime Format Elements"; punctuation
 * (- / , . ; :) and "quoted text" stand for themselves. Codes and texts: Oracle Database Error Messages
 * (https://docs.oracle.com/en/error-help/db/ora-01821/, ora-01810).
 */
import { OraError } from "./errors.ts"

/** Every element, longest first where one is the prefix of another. */
const ELEMENTS = [
  "SYYYY", "YYYY", "Y,YYY", "SYEAR", "YEAR", "YYY", "YY", "Y", "IYYY", "IYY", "IY", "IW", "I", "RRRR", "RR",
  "A.D.", "B.C.", "A.M.", "P.M.", "AD", "BC", "AM", "PM", "SCC", "CC", "DDD", "DAY", "DD", "DL", "DS", "DY", "D",
  "EE", "E", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FF7", "FF8", "FF9", "FF", "FM", "FX",
  "HH24", "HH12", "HH", "J", "MI", "MM", "MONTH", "MON", "Q", "RM", "SSSSS", "SS", "TS",
  "TZD", "TZH", "TZM", "TZR", "WW", "W", "X"
]

/** Elements that read a field of the value (the duplicate check is on these; others are left to the reader). */
const FIELDS = new Set([
  "SYYYY", "YYYY", "Y,YYY", "YYY", "YY", "Y", "RRRR", "RR", "MM", "MON", "MONTH", "DD", "DDD", "J", "HH", "HH12", "HH24",
  "MI", "SS", "SSSSS", "FF", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FF7", "FF8", "FF9", "AM", "PM", "A.M.", "P.M.",
  "TZH", "TZM", "TZR"
])

/** Number elements a TH / SP / SPTH / THSP suffix may follow ("Datetime Format Element Suffixes"). */
const NUMBERS = new Set([
  "SSSSS", "SYYYY", "YYYY", "IYYY", "RRRR", "HH24", "HH12", "DDD", "YYY", "IYY", "HH", "DD", "MM", "MI", "SS", "YY", "RR",
  "IY", "CC", "SCC", "WW", "IW", "J", "D", "Q", "W", "Y"
])

/** The elements of a format model, upper-cased (a suffixed one as `DD#TH`), or undefined when it holds a word that is none. */
const elementsOf = (format: string): Array<string> | undefined => {
  const out: Array<string> = []
  let s = format
  while (s.length > 0) {
    if (s.startsWith('"')) {
      const end = s.indexOf('"', 1)
      s = end < 0 ? "" : s.slice(end + 1)
      continue
    }
    if (!/^[A-Za-z]/.test(s)) {
      s = s.slice(1)
      continue
    }
    const upper = s.toUpperCase()
    const element = ELEMENTS.find((e) => upper.startsWith(e))
    if (element === undefined) return undefined
    s = s.slice(element.length)
    const suffix = NUMBERS.has(element) ? /^(?:SPTH|THSP|SP|TH)/i.exec(s)?.[0] : undefined
    out.push(suffix === undefined ? element : `${element}#${suffix.toUpperCase()}`)
    s = s.slice(suffix?.length ?? 0)
  }
  return out
}

/**
 * Elements only TO_CHAR prints ("Datetime Format Elements" marks which are valid in the TO_* datetime functions: not
 * YEAR / SYEAR, CC / SCC; E / EE, the era name, in the 10g SQL Quick Reference's table; "Datetime suffixes are valid
 * only to format output", "Datetime Format Element Suffixes"):
 * ORA-01820 "format code cannot appear in date input format", as datetime-parse.ts gives for the week elements.
 * **Unconfirmed:** the code for the suffixes and for YEAR (Oracle documents no error for them).
 */
const outputOnly = (element: string): boolean => element.includes("#") || ["YEAR", "SYEAR", "E", "EE"].includes(element)

/** ORA-01821 for a format model with an element Oracle does not know (TO_CHAR of a datetime). */
export const checkOutputFormat = (format: string): void => {
  if (elementsOf(format) === undefined) throw new OraError(1821, "date format not recognized")
}

/** ORA-01821 as above, and ORA-01810 for an element given twice, in a format model a text is read in. */
export const checkInputFormat = (format: string): void => {
  const elements = elementsOf(format)
  if (elements === undefined) throw new OraError(1821, "date format not recognized")
  if (elements.some(outputOnly)) throw new OraError(1820, "format code cannot appear in date input format")
  const seen = new Set<string>()
  for (const e of elements) {
    if (!FIELDS.has(e)) continue
    if (seen.has(e)) throw new OraError(1810, "format code appears twice")
    seen.add(e)
  }
}
