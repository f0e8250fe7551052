/**
 * DuckDB datetime failures (DATE and TIMESTAMP literals, DuckDB's own text casts and strptime; TO_DATE / TO_TIMESTAMP
 * text is read by datetime-parse.ts) mapped onto the ORA- error Oracle raises for the same text, so that neither
 * DuckDB's wording nor an unrelated code reaches the client.
 *
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-01821/, ora-01843,
 * ora-01830, ora-01839, ora-01847, ora-01849, ora-01850, ora-01851, ora-01852, ora-01858, ora-01861).
 */
import { ora, OraError } from "./errors.ts"

const notValidMonth = () => new OraError(1843, "not a valid month")
const dayOfMonth = () => new OraError(1847, "day of month must be between 1 and last day of month")

/** The ORA- error for a DuckDB datetime failure, or undefined when `message` is none. */
export const fromDuckDbDatetime = (message: string): OraError | undefined => {
  const parse = message.match(/Could not parse string ".*" according to format specifier "(.*)"/)
  if (parse !== null) {
    // letters left once strptime's directives are gone come from elements the format model does not know
    if (/[A-Za-z]/.test(parse[1]!.replace(/%-?[A-Za-z%]/g, ""))) return new OraError(1821, "date format not recognized")
    if (/Error: Month out of range/i.test(message)) return notValidMonth()
    if (/Error: Day out of range/i.test(message)) return dayOfMonth()
    if (/Error: Hour out of range/i.test(message)) return new OraError(1850, "hour must be between 0 and 23")
    if (/Error: Hour12 out of range/i.test(message)) return new OraError(1849, "hour must be between 1 and 12")
    if (/Error: Minutes? out of range/i.test(message)) return new OraError(1851, "minutes must be between 0 and 59")
    if (/Error: Seconds? out of range/i.test(message)) return new OraError(1852, "seconds must be between 0 and 59")
    // text left over once the format model is used up
    if (/Error: Full specifier did not match: trailing characters/i.test(message))
      return new OraError(1830, "date format picture ends before converting entire input string")
    if (/Error: Expected a number/i.test(message)) return new OraError(1858, "a non-numeric character was found where a numeric was expected")
    return ora.literalMismatch()
  }
  // a day past the month's last that some month has (strptime's "2023-2-29": ORA-01839), past 31 ORA-01847; or a
  // literal's field out of range ("2024-13-01")
  const outOfRange = message.match(/Date out of range: -?\d+-\d+-(\d+)/i)
  if (outOfRange !== null) return Number(outOfRange[1]) <= 31 ? new OraError(1839, "date not valid for month specified") : dayOfMonth()
  const field = message.match(/(?:date|timestamp) field value out of range: "-?\d+-(\d+)-(\d+)/i)
  if (field !== null) return Number(field[1]) < 1 || Number(field[1]) > 12 ? notValidMonth() : dayOfMonth()
  return undefined
}
