/**
 * Reading a text in an Oracle datetime format model (TO_TIMESTAMP_TZ(text, format)): the text rebuilt in the form
 * datetime.ts `parseDatetimeText` reads, with the zone the text gives (TZH:TZM offset or TZR region) or none.
 * Elements read (Oracle SQL Language Reference, "Datetime Format Elements"): SYYYY, YYYY, RRRR, MM, MON, MONTH, DD,
 * HH24, HH12, HH, MI, SS, FF[1-9], AM/PM, TZH, TZM, TZR, TZD (read and ignored), FM / FX (no effect here),
 * punctuation and quoted text; blanks in the text around punctuation are accepted.
 */

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

/** Format elements and the text each one reads, longest first where one is the prefix of another. */
const ELEMENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^SYYYY/i, "([-+ ]?\\d{1,4})"],
  [/^(?:YYYY|RRRR)/i, "(\\d{1,4})"],
  [/^MONTH/i, "([A-Za-z]+)"],
  [/^MON/i, "([A-Za-z]{3})"],
  [/^(?:MM|DD|HH24|HH12|HH|MI|SS)/i, "(\\d{1,2})"],
  [/^FF[1-9]?/i, "(\\d{1,9})"],
  [/^(?:AM|PM|A\.M\.|P\.M\.)/i, "([AaPp]\\.?[Mm]\\.?)"],
  [/^TZH/i, "([+-]?\\s*\\d{1,2})"],
  [/^TZM/i, "(\\d{1,2})"],
  [/^TZR/i, "([A-Za-z_]+(?:/[A-Za-z_]+)*|[+-]\\d{1,2}:\\d{2})"],
  [/^TZD/i, "([A-Za-z]*)"],
  [/^(?:FM|FX)/i, ""]
]

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

/** A format model as a pattern and the element each of its groups captures. */
interface CompiledFormat {
  readonly regex: RegExp
  readonly names: ReadonlyArray<string>
}

/** Compiled format models: the format is nearly always a constant while the function runs per row. */
const compiledFormats = new Map<string, CompiledFormat>()

const compileFormat = (format: string): CompiledFormat => {
  const known = compiledFormats.get(format)
  if (known !== undefined) return known
  const names: Array<string> = []
  let pattern = "^\\s*"
  for (let s = format; s.length > 0; ) {
    if (s.startsWith('"')) {
      const end = s.indexOf('"', 1)
      pattern += escape(s.slice(1, end < 0 ? undefined : end))
      s = end < 0 ? "" : s.slice(end + 1)
      continue
    }
    const hit = ELEMENTS.find(([re]) => re.test(s))
    if (hit !== undefined) {
      const element = s.match(hit[0])![0]
      if (hit[1] !== "") {
        names.push(element.toUpperCase().replace(/^FF\d$/, "FF"))
        pattern += hit[1]
      }
      s = s.slice(element.length)
    } else {
      pattern += /\s/.test(s[0]!) ? "\\s*" : `\\s*${escape(s[0]!)}\\s*`
      s = s.slice(1)
    }
  }
  const compiled = { regex: new RegExp(`${pattern}\\s*$`), names }
  compiledFormats.set(format, compiled)
  return compiled
}

/** The text `text` shows in the format model `format`, as `YYYY-MM-DD HH:MI:SS.fffffffff[ zone]`; undefined when it does not match. */
export const datetimeTextOfFormat = (text: string, format: string): string | undefined => {
  const { names, regex } = compileFormat(format)
  const m = regex.exec(text)
  if (m === null) return undefined
  const got = new Map(names.map((n, k) => [n, m[k + 1]!.replace(/\s+/g, "")]))
  const num = (...keys: Array<string>) => Number(keys.map((k) => got.get(k)).find((v) => v !== undefined) ?? 0)
  const monthName = (got.get("MON") ?? got.get("MONTH"))?.slice(0, 3).toUpperCase()
  const month = monthName !== undefined ? MONTHS.indexOf(monthName) + 1 : num("MM") || 1
  let hour = num("HH24", "HH12", "HH")
  const meridian = [...got.keys()].find((k) => /^[AP]/.test(k))
  if (meridian !== undefined) {
    if (hour < 1 || hour > 12) return undefined
    hour = (hour % 12) + (/^p/i.test(got.get(meridian)!) ? 12 : 0)
  }
  const year = num("SYYYY", "YYYY", "RRRR")
  const day = num("DD") || 1
  if (month < 1 || day > 31 || hour > 23 || num("MI") > 59 || num("SS") > 59) return undefined
  const two = (n: number) => String(n).padStart(2, "0")
  const fraction = (got.get("FF") ?? "").padEnd(9, "0")
  const tzh = got.get("TZH")
  const zone =
    got.get("TZR") ?? (tzh !== undefined ? `${tzh.startsWith("-") ? "-" : "+"}${two(Math.abs(Number(tzh)))}:${two(num("TZM"))}` : "")
  const yearText = `${year < 0 ? "-" : ""}${String(Math.abs(year)).padStart(4, "0")}`
  return `${yearText}-${two(month)}-${two(day)} ${two(hour)}:${two(num("MI"))}:${two(num("SS"))}.${fraction}${zone === "" ? "" : ` ${zone}`}`
}
