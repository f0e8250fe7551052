/**
 * Datetime operands whose engine value is not of the Oracle type that decides a result, cast to it on the tokens
 * before translation, so that the translator prints and converts them as that type:
 * - a DATE or TIMESTAMP WITH LOCAL TIME ZONE bind that is TO_CHAR's value or CAST's operand: a DATE bind reaches the
 *   engine as a TIMESTAMP, a LOCAL TIME ZONE one as an instant (params.ts); cast to its own type, TO_CHAR prints a DATE
 *   in NLS_DATE_FORMAT and a LOCAL TIME ZONE value in NLS_TIMESTAMP_FORMAT at the session time zone's wall clock, and
 *   CAST of one to TIMESTAMP or DATE gives that wall clock (SQL Language Reference, "TO_CHAR (datetime)"; "TIMESTAMP
 *   WITH LOCAL TIME ZONE Data Type": "When users retrieve the data, Oracle Database returns it in the users' local
 *   session time zone"; "CAST");
 * - the other results of NVL / COALESCE / NVL2 / DECODE whose deciding result is a DATE or a TIMESTAMP: converted to
 *   that type, as Oracle converts them to the first one's (the engine's coalesce / CASE would make TIMESTAMP and
 *   SYSTIMESTAMP a TIMESTAMP WITH TIME ZONE). "NVL": "If their data types are different, then Oracle Database
 *   implicitly converts one to the other", expr2 to expr1's type (NVL(date, timestamp) is a DATE, datetime-text-writes.ts);
 *   "COALESCE" is "a generalization of the NVL function"; "NVL2" converts expr3 to expr2's type; "DECODE": "Oracle
 *   automatically converts the return value to the same data type as the first result".
 */
import { argumentsOf, type DatetimeOperand, datetimeOperandOf, nameLeaf } from "./datetime-operand-types.ts"
import { datetimeNamesOf } from "./datetime-text-writes.ts"
import { withCasts } from "./interval-exprs.ts"
import { bindNumbers, isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import type { TableLookup } from "./number-writes.ts"
import { Dty } from "./types.ts"
import { isZonedValue } from "./zoned-aliases.ts"

type Casts = Map<Tok, { readonly last: Tok; readonly type: string }>

/** The type a bind of wire type `dty` is cast to where its type decides the result, or undefined. */
const ownType = (dty: number | undefined): string | undefined =>
  dty === Dty.DATE ? "DATE" : dty === Dty.TIMESTAMP_LTZ ? "TIMESTAMP WITH LOCAL TIME ZONE" : undefined

/** The DATE / LOCAL TIME ZONE binds (`dtyOf` by bind number in source order) of `TO_CHAR(:b [, fmt])` and `CAST(:b AS type)`. */
const bindCasts = (sig: ReadonlyArray<Tok>, dtyOf: (n: number) => number | undefined, casts: Casts): void => {
  const order = bindNumbers(sig)
  sig.forEach((t, k) => {
    if (t.kind !== "bind" || !isOp(sig[k - 1], "(") || !isKw(sig[k - 2], "TO_CHAR", "CAST")) return
    if (isKw(sig[k - 2], "TO_CHAR") ? !isOp(sig[k + 1], ")") && !isOp(sig[k + 1], ",") : !isKw(sig[k + 1], "AS")) return
    const type = ownType(dtyOf(order.get(t) ?? 0))
    if (type !== undefined) casts.set(t, { last: t, type })
  })
}

/** The result arguments of NVL / COALESCE / NVL2 / DECODE `args`, the deciding one first. */
const resultArguments = (name: string, args: ReadonlyArray<[number, number]>): ReadonlyArray<[number, number]> => {
  if (name === "NVL" || name === "COALESCE") return args
  if (name === "NVL2") return args.slice(1)
  // DECODE(expr, search, result [, search, result]... [, default])
  return args.filter((_, k) => k >= 2 && (k % 2 === 0 || k === args.length - 1))
}

/** NVL / COALESCE / NVL2 / DECODE results of another datetime type than the deciding result's, cast to that type. */
const resultCasts = (all: ReadonlyArray<Tok>, sig: ReadonlyArray<Tok>, lookup: TableLookup, casts: Casts): void => {
  if (!sig.some((t, k) => isKw(t, "NVL", "COALESCE", "NVL2", "DECODE") && isOp(sig[k + 1], "("))) return
  const { days, timestamps, zoned } = datetimeNamesOf(all, sig, lookup)
  const leaf = nameLeaf(sig, days, timestamps)
  const kindOf = (a: number, b: number): DatetimeOperand | "zoned" | undefined =>
    (b === a + 1 && isKw(sig[a], "SYSTIMESTAMP", "CURRENT_TIMESTAMP")) || isZonedValue(sig, a, b, zoned) ? "zoned" : datetimeOperandOf(sig, a, b, leaf)
  sig.forEach((t, k) => {
    if (!isKw(t, "NVL", "COALESCE", "NVL2", "DECODE") || !isOp(sig[k + 1], "(")) return
    const [decider, ...others] = resultArguments(t.value, argumentsOf(sig, k + 1, matchParen(sig, k + 1)))
    if (decider === undefined) return
    const type = kindOf(decider[0], decider[1])
    if (type !== "date" && type !== "timestamp") return
    for (const [a, b] of others) {
      const kind = kindOf(a, b)
      if (kind !== undefined && kind !== type && !casts.has(sig[a]!)) casts.set(sig[a]!, { last: sig[b - 1]!, type: type === "date" ? "DATE" : "TIMESTAMP" })
    }
  })
}

/**
 * `all` with the casts above: DATE / LOCAL TIME ZONE binds (`dtyOf` their wire type by bind number in source order) of
 * TO_CHAR and CAST, and the results of NVL / COALESCE / NVL2 / DECODE of another datetime type than the deciding one.
 */
export const datetimeOperandCasts = (all: ReadonlyArray<Tok>, lookup: TableLookup, dtyOf: (n: number) => number | undefined): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  const casts: Casts = new Map()
  bindCasts(sig, dtyOf, casts)
  resultCasts(all, sig, lookup, casts)
  return withCasts(all, casts)
}
