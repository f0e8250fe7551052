/**
 * PL/SQL INTERVAL values as text: which PL/SQL expressions are intervals (`v * 2`, `v + INTERVAL '1' HOUR`, `y * 2`),
 * found on their tokens before the engine sees them, and TO_CHAR / `||` of one rewritten as TO_CHAR of a CAST to the
 * interval type it prints at, so that it shows Oracle's interval literal form (`+02 04:00:00.000000`), not the engine's
 * text (`2 days 04:00:00`). SQL Language Reference, "INTERVAL DAY TO SECOND Data Type" / "INTERVAL YEAR TO MONTH Data
 * Type" (the literal form and precisions; PL/SQL's INTERVAL types are SQL's: PL/SQL Language Reference, "PL/SQL Data
 * Types") and "Datetime/Interval Arithmetic" (interval * / number, interval ± interval are intervals).
 */
import { isKw, isOp, matchParen, type Tok } from "../lexer.ts"

/** What an operand or expression is, for finding interval expressions; `leading` / `fraction` a declared interval's precisions. */
export interface OperandKind {
  readonly kind: "intervalds" | "intervalym" | "number" | "datetime" | "timestamp"
  readonly leading?: number | undefined
  readonly fraction?: number | undefined
  /** A difference of datetimes with a TIMESTAMP operand: an interval TO_CHAR prints as the translator types it. */
  readonly difference?: true
}

/** The kind of the bound name at token `k` (a bind placeholder), if it is known. */
export type KindOfBind = (t: Tok) => OperandKind | undefined

const DS_UNITS = ["DAY", "HOUR", "MINUTE", "SECOND"]
const INTERVAL_FUNCTIONS: Readonly<Record<string, OperandKind["kind"]>> = { NUMTODSINTERVAL: "intervalds", TO_DSINTERVAL: "intervalds", NUMTOYMINTERVAL: "intervalym", TO_YMINTERVAL: "intervalym" }

const widest = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b))

/** `a op b` of two operand kinds: intervals of one kind added, an interval times or divided by a number; undefined for others. */
const combined = (op: string, a: OperandKind, b: OperandKind): OperandKind | undefined => {
  const interval = (k: OperandKind) => k.kind === "intervalds" || k.kind === "intervalym"
  const datetime = (k: OperandKind) => k.kind === "datetime" || k.kind === "timestamp"
  // (arithmetic on a difference is left to the translator)
  if (a.difference === true || b.difference === true) return undefined
  // a TIMESTAMP minus a datetime, or a datetime minus a TIMESTAMP, is an INTERVAL DAY TO SECOND; DATE - DATE a number
  if (op === "-" && datetime(a) && datetime(b)) return a.kind === "timestamp" || b.kind === "timestamp" ? { kind: "intervalds", difference: true } : { kind: "number" }
  // a TIMESTAMP plus or minus a number of days is a DATE
  if ((op === "+" || op === "-") && a.kind === "timestamp" && b.kind === "number") return { kind: "datetime" }
  if (op === "+" && a.kind === "number" && b.kind === "timestamp") return { kind: "datetime" }
  if (op === "*" || op === "/") {
    if (interval(a) && b.kind === "number") return a
    if (op === "*" && a.kind === "number" && interval(b)) return b
    return a.kind === "number" && b.kind === "number" ? a : undefined
  }
  if (interval(a) && a.kind === b.kind) return { kind: a.kind, leading: widest(a.leading, b.leading), fraction: widest(a.fraction, b.fraction) }
  if (datetime(a) && (interval(b) || b.kind === "number")) return a
  if (op === "+" && datetime(b) && (interval(a) || a.kind === "number")) return b
  return a.kind === "number" && b.kind === "number" ? a : undefined
}

/**
 * The kind of the PL/SQL expression of tokens [from, to): literals, bound names (`kindOfBind`), parenthesised
 * expressions, NUMTODSINTERVAL / TO_DSINTERVAL / NUMTOYMINTERVAL / TO_YMINTERVAL calls, joined by `+ - * /`;
 * undefined for any other expression (a call, a column, a difference of datetimes).
 */
export const expressionKind = (toks: ReadonlyArray<Tok>, from: number, to: number, kindOfBind: KindOfBind): OperandKind | undefined => {
  let i = from
  const primary = (): OperandKind | undefined => {
    const t = toks[i]
    if (t === undefined || i >= to) return undefined
    if (isOp(t, "(")) {
      const close = matchParen(toks, i)
      if (close < 0 || close >= to) return undefined
      const inner = expressionKind(toks, i + 1, close, kindOfBind)
      i = close + 1
      return inner
    }
    if (t.kind === "num") {
      i++
      return { kind: "number" }
    }
    if (isKw(t, "INTERVAL") && toks[i + 1]?.kind === "str") {
      i += 2
      const unit = toks[i]
      if (!isKw(unit, "YEAR", "MONTH", ...DS_UNITS)) return undefined
      const kind = isKw(unit, "YEAR", "MONTH") ? "intervalym" : "intervalds"
      i++
      if (isOp(toks[i], "(")) i = matchParen(toks, i) + 1
      if (isKw(toks[i], "TO")) i += 2
      if (isOp(toks[i], "(")) i = matchParen(toks, i) + 1
      return i > 0 && i <= to ? { kind } : undefined
    }
    if (isKw(t, "DATE", "TIMESTAMP") && toks[i + 1]?.kind === "str") {
      i += 2
      // (a TIMESTAMP literal with a zone is no plain TIMESTAMP)
      return { kind: isKw(t, "DATE") || /[+-]\d\d?:\d\d\s*$|[A-Za-z]\s*$/.test(toks[i - 1]!.value) ? "datetime" : "timestamp" }
    }
    const produced = t.kind === "ident" ? INTERVAL_FUNCTIONS[t.value] : undefined
    if (produced !== undefined && isOp(toks[i + 1], "(")) {
      i = matchParen(toks, i + 1) + 1
      return i > 0 && i <= to ? { kind: produced } : undefined
    }
    if (t.kind !== "bind") return undefined
    i++
    return kindOfBind(t)
  }
  const factor = (): OperandKind | undefined => {
    if (!isOp(toks[i], "-") && !isOp(toks[i], "+")) return primary()
    i++
    const inner = factor()
    return inner?.kind === "datetime" || inner?.kind === "timestamp" || inner?.difference === true ? undefined : inner
  }
  const chain = (operand: () => OperandKind | undefined, ops: ReadonlyArray<string>): OperandKind | undefined => {
    let left = operand()
    while (left !== undefined && i < to && ops.some((o) => isOp(toks[i], o))) {
      const op = toks[i]!.value
      i++
      const right = operand()
      left = right === undefined ? undefined : combined(op, left, right)
    }
    return left
  }
  const kind = chain(() => chain(factor, ["*", "/"]), ["+", "-"])
  return i === to ? kind : undefined
}

const op = (text: string, pos: number): Tok => ({ kind: "op", text, value: text, pos })
const word = (text: string, pos: number): Tok => ({ kind: "ident", text, value: text, pos })
const num = (n: number, pos: number): Tok => ({ kind: "num", text: String(n), value: String(n), pos })

/** The type tokens an interval of `kind` prints at: its declared precisions, PL/SQL's defaults DAY(2) TO SECOND(6) and YEAR(2) TO MONTH. */
const typeTokens = (kind: OperandKind, pos: number): Array<Tok> =>
  kind.kind === "intervalym"
    ? [word("INTERVAL", pos), word("YEAR", pos), op("(", pos), num(kind.leading ?? 2, pos), op(")", pos), word("TO", pos), word("MONTH", pos)]
    : [word("INTERVAL", pos), word("DAY", pos), op("(", pos), num(kind.leading ?? 2, pos), op(")", pos), word("TO", pos), word("SECOND", pos), op("(", pos), num(kind.fraction ?? 6, pos), op(")", pos)]

/** Whether `kind` is an interval's. */
export const isInterval = (kind: OperandKind | undefined): kind is OperandKind => kind?.kind === "intervalds" || kind?.kind === "intervalym"

/**
 * `TO_CHAR(x)` of an interval expression of PL/SQL values (`x` a declared INTERVAL variable, `v * 2`, ...), or `x` an
 * operand of `||` (one such name, or a parenthesised interval expression), as `TO_CHAR(CAST(x AS INTERVAL DAY(p) TO
 * SECOND(s)))` (or `YEAR(p) TO MONTH`): a variable at its declared precisions, an expression at the widest of its
 * variables', PL/SQL's defaults else. `||` converts an operand to VARCHAR2 as TO_CHAR does ("Implicit Data
 * Conversion"). **Unconfirmed:** the precisions Oracle prints an interval expression of PL/SQL at (its STANDARD
 * package's TO_CHAR takes an unconstrained interval).
 */
export const intervalTextOperands = (toks: ReadonlyArray<Tok>, kindOfBind: KindOfBind): ReadonlyArray<Tok> => {
  // a lone name converts only when its declared type gives the precisions (a cursor row's field has none)
  const declared = (t: Tok) => {
    const kind = kindOfBind(t)
    return kind?.leading !== undefined || kind?.fraction !== undefined ? kind : undefined
  }
  if (!toks.some((t) => t.kind === "bind" && isInterval(kindOfBind(t)))) return toks
  const casts = new Map<number, { readonly end: number; readonly kind: OperandKind; readonly toChar: boolean }>()
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isKw(t, "TO_CHAR") && isOp(toks[k + 1], "(")) {
      const close = matchParen(toks, k + 1)
      const kind = close === k + 3 ? declared(toks[k + 2]!) : close > k + 3 ? expressionKind(toks, k + 2, close, kindOfBind) : undefined
      if (isInterval(kind) && kind.difference !== true) casts.set(k + 2, { end: close, kind, toChar: false })
      continue
    }
    if (t.kind === "bind" && (isOp(toks[k - 1], "||") || isOp(toks[k + 1], "||"))) {
      const kind = declared(t)
      if (isInterval(kind)) casts.set(k, { end: k + 1, kind, toChar: true })
      continue
    }
    // a parenthesised operand of `||`, not a call's arguments
    const call = toks[k - 1]?.kind === "ident" && !isKw(toks[k - 1], "SELECT", "THEN", "ELSE", "RETURN")
    const close = isOp(t, "(") && !call ? matchParen(toks, k) : -1
    if (close > k + 1 && (isOp(toks[k - 1], "||") || isOp(toks[close + 1], "||"))) {
      const kind = expressionKind(toks, k + 1, close, kindOfBind)
      if (!isInterval(kind) || kind.difference === true) continue
      casts.set(k, { end: close + 1, kind, toChar: true })
      k = close
    }
  }
  if (casts.size === 0) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const cast = casts.get(k)
    if (cast === undefined) {
      out.push(toks[k]!)
      continue
    }
    const pos = toks[k]!.pos
    if (cast.toChar) out.push(word("TO_CHAR", pos), op("(", pos))
    out.push(word("CAST", pos), op("(", pos), ...toks.slice(k, cast.end), word("AS", pos), ...typeTokens(cast.kind, pos), op(")", pos))
    if (cast.toChar) out.push(op(")", pos))
    k = cast.end - 1
  }
  return out
}
