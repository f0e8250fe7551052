/**
 * Arithmetic on TIMESTAMP WITH LOCAL TIME ZONE values, rewritten on the tokens before translation:
 * `ltz ± interval` (and `interval + ltz`) is a LOCAL TIME ZONE value, and `ltz - ltz` an INTERVAL DAY TO SECOND
 * (SQL Language Reference, "Datetime/Interval Arithmetic", its matrix of operand and result types). The sum is
 * wrapped in `CAST(... AS TIMESTAMP(9) WITH LOCAL TIME ZONE)`, which the translator already computes, describes and
 * shows (TO_CHAR, fetch) in the session time zone as a LOCAL TIME ZONE value, every digit of the interval kept; in a
 * difference each operand is cast to TIMESTAMP(9) WITH TIME ZONE (the same instant), whose difference is the
 * interval between the instants.
 */
import type { TableMeta } from "./catalog.ts"
import { operandEnd, operandShape, operandStart } from "./interval-compounds.ts"
import { intervalColumnTypesOf, withCasts } from "./interval-exprs.ts"
import { bindNumbers, isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { oracleName } from "./translate.ts"
import { Dty, parseOracleType } from "./types.ts"

type Lookup = (schema: string | undefined, name: string) => TableMeta | undefined

const LOCAL_RESULT = "TIMESTAMP(9) WITH LOCAL TIME ZONE"
const ZONED_OPERAND = "TIMESTAMP(9) WITH TIME ZONE"

/** The LOCAL TIME ZONE columns, by name, of the tables `sig` names. */
const localZoneColumnsOf = (sig: ReadonlyArray<Tok>, lookup: Lookup): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const t of sig) if (isName(t)) for (const c of lookup(undefined, t.value)?.columns ?? []) if (c.type.kind === "timestampltz") out.add(c.name)
  return out
}

/** The top-level `+` / `-` terms of [from, to). */
const terms = (sig: ReadonlyArray<Tok>, from: number, to: number): Array<{ from: number; to: number; op: string | undefined }> => {
  const out: Array<{ from: number; to: number; op: string | undefined }> = []
  let start = from
  let op: string | undefined
  for (let k = from; k < to; k++) {
    if (isOp(sig[k], "(")) k = Math.max(k, matchParen(sig, k))
    else if ((isOp(sig[k], "+") || isOp(sig[k], "-")) && k > start && !isOp(sig[k - 1], "+") && !isOp(sig[k - 1], "-")) {
      out.push({ from: start, to: k, op })
      op = sig[k]!.value
      start = k + 1
    }
  }
  out.push({ from: start, to, op })
  return out
}

/**
 * `all` with LOCAL TIME ZONE sums cast to LOCAL TIME ZONE and the operands of LOCAL TIME ZONE differences to WITH
 * TIME ZONE, an interval bind there cast to its type (computed on as an interval, every digit kept). `intervalBind(n)`:
 * the interval kind the n-th bind (1-based, in source order) is bound as.
 */
export const localZoneArithmetic = (
  all: ReadonlyArray<Tok>,
  lookup: Lookup,
  intervalBind: (n: number) => IntervalBindKind,
  localBind: (n: number) => boolean = () => false
): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  if (!sig.some((t) => isOp(t, "+") || isOp(t, "-"))) return all
  const local = localZoneColumnsOf(sig, lookup)
  const castsLocal = sig.some((t, k) => isKw(t, "LOCAL") && isKw(sig[k + 1], "TIME"))
  const bindOrder = bindNumbers(sig)
  const localBinds = new Set([...bindOrder].flatMap(([t, n]) => (localBind(n) ? [t] : [])))
  if (local.size === 0 && !castsLocal && localBinds.size === 0) return all
  const types = intervalColumnTypesOf(all.map((t) => t.text).join(""), lookup)
  /** A LOCAL TIME ZONE operand: a column, a bind bound as LOCAL TIME ZONE, a CAST to LOCAL TIME ZONE, or one in parentheses. */
  const isLocal = (from: number, to: number): boolean => {
    if (to === from + 1 && sig[from]?.kind === "bind") return localBinds.has(sig[from]!)
    if (isOp(sig[from], "(") && matchParen(sig, from) === to - 1) return isLocal(from + 1, to - 1) || localSum(from + 1, to - 1)
    const last = isOp(sig[from + 1], ".") ? from + 2 : from
    if (last === to - 1 && isName(sig[last]) && !isOp(sig[last + 1], "(")) return local.has(oracleName(sig[last]!))
    if (!isKw(sig[from], "CAST") || !isOp(sig[from + 1], "(") || matchParen(sig, from + 1) !== to - 1) return false
    let asAt = -1
    for (let j = from + 2; j < to - 1; j++) if (isOp(sig[j], "(")) j = matchParen(sig, j)
      else if (isKw(sig[j], "AS")) asAt = j
    return asAt > 0 && parseOracleType(sig.slice(asAt + 1, to - 1).map((t) => t.text).join(" "))?.kind === "timestampltz"
  }
  const bindKind = (from: number, to: number) => (to === from + 1 && sig[from]?.kind === "bind" ? intervalBind(bindOrder.get(sig[from]!) ?? 0) : undefined)
  const isInterval = (from: number, to: number): boolean => bindKind(from, to) !== undefined || operandShape(sig, from, to, types).kind !== undefined
  /** `ltz ± interval ...` or `interval + ltz ± interval ...`: one LOCAL TIME ZONE term, the others intervals. */
  const localSum = (from: number, to: number): boolean => {
    const parts = terms(sig, from, to)
    if (parts.length < 2) return false
    const at = parts.findIndex((p) => isLocal(p.from, p.to))
    if (at < 0 || at > 1 || (at === 1 && parts[1]!.op !== "+")) return false
    return parts.every((p, i) => i === at || isInterval(p.from, p.to))
  }
  const casts = new Map<Tok, { last: Tok; type: string }>()
  const done = new Set<number>()
  for (let k = 0; k < sig.length; k++) {
    if (!isOp(sig[k], "+") && !isOp(sig[k], "-")) continue
    const start = operandStart(sig, k)
    const end = operandEnd(sig, start)
    if (done.has(start) || end <= k) continue
    done.add(start)
    if (localSum(start, end)) {
      casts.set(sig[start]!, { last: sig[end - 1]!, type: LOCAL_RESULT })
      const parts = terms(sig, start, end)
      const onBind = parts.some((p) => p.to === p.from + 1 && localBinds.has(sig[p.from]!))
      for (const p of parts) {
        // a LOCAL TIME ZONE bind is a DuckDB TIMESTAMPTZ (microseconds: node-oracledb sends Dates), and the interval
        // literals added to it DuckDB INTERVALs (not the exact storage a table's interval columns may give them),
        // which DuckDB adds natively
        const literal = onBind && isKw(sig[p.from], "INTERVAL") && sig[p.from + 1]?.kind === "str" ? sig[p.from + 1]!.value : undefined
        if (literal !== undefined && !/\.\d{7}/.test(literal))
          casts.set(sig[p.from]!, { last: sig[p.to - 1]!, type: sig.slice(p.from, p.to).some((t) => isKw(t, "YEAR", "MONTH")) ? "INTERVAL YEAR(8) TO MONTH" : "INTERVAL DAY(9) TO SECOND(6)" })
        const kind = bindKind(p.from, p.to)
        if (kind !== undefined) casts.set(sig[p.from]!, { last: sig[p.from]!, type: kind === "intervalds" ? "INTERVAL DAY(9) TO SECOND(9)" : "INTERVAL YEAR(9) TO MONTH" })
      }
      continue
    }
    const parts = terms(sig, start, end)
    if (parts.length === 2 && parts[1]!.op === "-" && isLocal(parts[0]!.from, parts[0]!.to) && isLocal(parts[1]!.from, parts[1]!.to))
      for (const p of parts) casts.set(sig[p.from]!, { last: sig[p.to - 1]!, type: ZONED_OPERAND })
  }
  return withCasts(all, casts)
}

/** The interval kind of a bind: INTERVAL DAY TO SECOND, YEAR TO MONTH, or none. */
export type IntervalBindKind = "intervalds" | "intervalym" | undefined

/** True when a bind spec (its wire type) is a TIMESTAMP WITH LOCAL TIME ZONE. */
export const isLocalZoneBind = (spec: { readonly dty: number } | undefined): boolean => spec?.dty === Dty.TIMESTAMP_LTZ

/** The interval kind a bind spec (its wire type) is. */
export const intervalBindKind = (spec: { readonly dty: number } | undefined): IntervalBindKind =>
  spec?.dty === Dty.INTERVAL_DS ? "intervalds" : spec?.dty === Dty.INTERVAL_YM ? "intervalym" : undefined
