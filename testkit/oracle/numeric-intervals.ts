/**
 * NUMTODSINTERVAL(n, 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND') and NUMTOYMINTERVAL(n, 'YEAR' | 'MONTH') (SQL Language
 * Reference, "NUMTODSINTERVAL", "NUMTOYMINTERVAL": n units as an INTERVAL DAY TO SECOND / YEAR TO MONTH literal,
 * the unit text case-insensitive) rewritten, before the interval rules read the statement, as `(INTERVAL '1' unit *
 * (n))` (a column without the parentheses, so that an exact NUMBER column is known as one), a product the translator
 * and the interval operand readers (interval-operands.ts, interval-compounds.ts) already compute on: so a call inside
 * a longer operand (`NUMTODSINTERVAL(x, 'SECOND') + d9 > ...`) is an interval there too. NUMTOYMINTERVAL of an
 * expression is `CAST(INTERVAL '1' MONTH * ROUND(n [* 12]) AS INTERVAL YEAR(9) TO MONTH)`: whole months, described
 * as YEAR TO MONTH. YEAR counts twelve months (`NUMTOYMINTERVAL(1.5, 'YEAR')` is 1-6); a fraction of a month is
 * rounded: NUMTOYMINTERVAL(10.56, 'YEAR') is +10-07 and NUMTOYMINTERVAL(10.56, 'MONTH') +00-11 on Oracle
 * (database.guide, "NUMTOYMINTERVAL() Function in Oracle", https://database.guide/?p=19607; the SQL Language
 * Reference does not say). A unit that is not a literal is
 * refused by name (ORA-03001); an unknown unit is ORA-01760 "illegal argument for function".
 */
import { OraError } from "./errors.ts"
import { isOp, matchParen, splitTopLevel, tokenize, type Tok } from "./lexer.ts"
import { headingOf } from "./translate.ts"

const UNITS = { NUMTODSINTERVAL: ["DAY", "HOUR", "MINUTE", "SECOND"], NUMTOYMINTERVAL: ["YEAR", "MONTH"] } as const

/** A number literal's sign, digits and fraction digits (`-1.5`), or undefined for another expression. */
const numberLiteral = (toks: ReadonlyArray<Tok>): { negative: boolean; units: bigint; scale: number } | undefined => {
  const sig = toks.filter((x) => x.kind !== "ws")
  const negative = isOp(sig[0], "-")
  const num = sig[negative || isOp(sig[0], "+") ? 1 : 0]
  if (num === undefined || num.kind !== "num" || sig.length !== (negative || isOp(sig[0], "+") ? 2 : 1)) return undefined
  const m = /^(\d*)(?:\.(\d*))?$/.exec(num.text)
  if (m === null) return undefined
  const frac = m[2] ?? ""
  return { negative, units: BigInt(`${m[1] || "0"}${frac}`), scale: frac.length }
}

const NANOS: Record<string, bigint> = { DAY: 86_400_000_000_000n, HOUR: 3_600_000_000_000n, MINUTE: 60_000_000_000n, SECOND: 1_000_000_000n }

/** NUMTODSINTERVAL of a literal as an INTERVAL DAY(9) TO SECOND(9) literal (digits below the nanosecond cut). */
const dsLiteral = (n: { negative: boolean; units: bigint; scale: number }, unit: string): string => {
  const nanos = (n.units * NANOS[unit]!) / 10n ** BigInt(n.scale)
  const pad = (v: bigint, w: number) => v.toString().padStart(w, "0")
  const s = nanos / 1_000_000_000n
  const text = `${s / 86400n} ${pad((s / 3600n) % 24n, 2)}:${pad((s / 60n) % 60n, 2)}:${pad(s % 60n, 2)}.${pad(nanos % 1_000_000_000n, 9)}`
  return `INTERVAL '${n.negative && nanos > 0n ? "-" : ""}${text}' DAY(9) TO SECOND(9)`
}

/** NUMTOYMINTERVAL of a literal as an INTERVAL YEAR(9) TO MONTH literal (a fraction of a month rounded half up). */
const ymLiteral = (n: { negative: boolean; units: bigint; scale: number }, unit: string): string => {
  const unscale = 10n ** BigInt(n.scale)
  const months = (2n * n.units * (unit === "YEAR" ? 12n : 1n) + unscale) / (2n * unscale)
  return `INTERVAL '${n.negative && months > 0n ? "-" : ""}${months / 12n}-${months % 12n}' YEAR(9) TO MONTH`
}

/** `toks` with each NUMTODSINTERVAL / NUMTOYMINTERVAL call written as a product of an interval literal. */
export const rewriteNumericIntervals = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && (t.value === "NUMTODSINTERVAL" || t.value === "NUMTOYMINTERVAL"))) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    let open = k + 1
    while (toks[open]?.kind === "ws") open++
    if (t.kind !== "ident" || (t.value !== "NUMTODSINTERVAL" && t.value !== "NUMTOYMINTERVAL") || !isOp(toks[open], "(") || isOp(out[out.length - 1], ".")) {
      out.push(t)
      continue
    }
    const close = matchParen(toks, open)
    if (close < 0) throw new OraError(907, "missing right parenthesis")
    const args = splitTopLevel(toks.slice(open + 1, close)).filter((a) => a.some((x) => x.kind !== "ws"))
    if (args.length !== 2) throw new OraError(909, "invalid number of arguments")
    const unitToks = args[1]!.filter((x) => x.kind !== "ws")
    if (unitToks.length !== 1 || unitToks[0]!.kind !== "str") throw new OraError(3001, `unimplemented feature: ${t.value} with a unit that is not a text literal`)
    const unit = unitToks[0]!.value.trim().toUpperCase()
    if (!(UNITS[t.value] as ReadonlyArray<string>).includes(unit)) throw new OraError(1760, "illegal argument for function")
    const generated = (sql: string) => tokenize(sql).map((x) => ({ ...x, pos: t.pos }))
    const inner = rewriteNumericIntervals(args[0]!)
    const [literal, factor] = unit === "YEAR" ? ["INTERVAL '1' MONTH", " * 12"] : [`INTERVAL '1' ${unit}`, ""]
    const yearMonth = t.value === "NUMTOYMINTERVAL"
    // the call's heading stays Oracle's (the unaliased expression's text)
    const heading = headingOf(toks.slice(k, close + 1).filter((x) => x.kind !== "ws"))
    const number = numberLiteral(inner)
    // a column as it is, so that the translator knows an exact NUMBER column there (`INTERVAL '1' DAY * n`)
    const sig = inner.filter((x) => x.kind !== "ws")
    const column = sig.length % 2 === 1 && sig.every((x, n) => (n % 2 === 0 ? x.kind === "ident" || x.kind === "qident" : isOp(x, ".")))
    // whole months, rounded as for a literal, as an INTERVAL YEAR TO MONTH (a DuckDB INTERVAL times a fraction of a
    // month would carry days)
    const replacement =
      number === undefined
        ? yearMonth
          ? [...generated(`CAST(${literal} * ROUND(${column ? "" : "("}`), ...inner, ...generated(`${column ? "" : ")"}${factor}) AS INTERVAL YEAR(9) TO MONTH)`)]
          : [...generated(`(${literal} * ${column ? "" : "("}`), ...inner, ...generated(`${column ? "" : ")"}${factor})`)]
        : generated(t.value === "NUMTOYMINTERVAL" ? ymLiteral(number, unit) : dsLiteral(number, unit))
    out.push(...replacement.map((x, n) => ({ ...x, heading: n === 0 ? heading : "" })))
    k = close
  }
  return out
}
