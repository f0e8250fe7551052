/**
 * Range checks of DATE and TIMESTAMP literals before a statement runs, with Oracle's errors (Database Error Messages):
 * year 0 is ORA-01841 "(full) year must be between -4713 and +9999, and not be 0", a month outside 1-12 ORA-01843
 * "not a valid month", a day past the month's last ORA-01847, an hour past 23 ORA-01850, a minute or second past 59
 * ORA-01851 / ORA-01852. DuckDB would read year 0 as a valid year (or fail with its own text).
 */
import { OraError } from "./errors.ts"
import { isKw, type Tok } from "./lexer.ts"

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** Throws the Oracle error for the first DATE / TIMESTAMP literal out of range among `toks`. */
export const checkDatetimeLiterals = (toks: ReadonlyArray<Tok>): void => {
  const sig = toks.filter((t) => t.kind !== "ws")
  sig.forEach((t, k) => {
    const lit = sig[k + 1]
    if (!isKw(t, "DATE", "TIMESTAMP") || lit?.kind !== "str") return
    const m = /^\s*(-?)(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?/.exec(lit.value)
    if (m === null) return
    const [year, month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6], m[7]].map((x) => Number(x ?? "0")) as [number, number, number, number, number, number]
    const at = lit.pos
    if (year === 0) throw new OraError(1841, "(full) year must be between -4713 and +9999, and not be 0", at)
    if (month < 1 || month > 12) throw new OraError(1843, "not a valid month", at)
    if (day < 1 || day > daysIn(m[1] === "-" ? -year : year, month)) throw new OraError(1847, "day of month must be between 1 and last day of month", at)
    if (hour > 23) throw new OraError(1850, "hour must be between 0 and 23", at)
    if (minute > 59) throw new OraError(1851, "minutes must be between 0 and 59", at)
    if (second > 59) throw new OraError(1852, "seconds must be between 0 and 59", at)
  })
}
