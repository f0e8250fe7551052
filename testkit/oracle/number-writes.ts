/**
 * Canonical text for every value written into a NUMBER column without precision. Such columns hold decimal text
 * (number-functions.ts), and GROUP BY, DISTINCT, set operations and unique keys compare that text: it must be one
 * text per number. So the values an INSERT, UPDATE or MERGE writes into them (binds, literals, computed values,
 * BINARY_DOUBLE values: `1E+20`, `1.50`, `'01.5'`) are wrapped in `CAST(... AS NUMBER)` before translation, which
 * the translator renders as `ora_number(...)`: Oracle's TO_CHAR text of the exact value (decimal.ts numberText).
 */
import type { TableMeta } from "./catalog.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, type Tok, tokenize } from "./lexer.ts"
import { oracleName } from "./expression-names.ts"

/** Resolves a table name as the session sees it. */
export type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined


/** The exact NUMBER columns of a table, by name: NUMBER without precision, or FLOAT(b) when `binaryPrecision` is given. */
const exactColumns = (binaryPrecision?: number) => (meta: TableMeta): ReadonlySet<string> =>
  new Set(
    meta.columns
      .filter((c) => c.type.kind === "number" && c.type.duck === "VARCHAR" && (c.type.dictName === "FLOAT" ? c.type.precision === binaryPrecision : binaryPrecision === undefined))
      .map((c) => c.name)
  )

/** Token ranges [from, to) of the significant tokens `sig` split at commas at their own parenthesis depth. */
const commaSplit = (sig: ReadonlyArray<Tok>, from: number, to: number): Array<[number, number]> => {
  const out: Array<[number, number]> = []
  let depth = 0
  let start = from
  for (let k = from; k < to; k++) {
    if (isOp(sig[k], "(")) depth++
    else if (isOp(sig[k], ")")) depth--
    else if (depth === 0 && isOp(sig[k], ",")) {
      out.push([start, k])
      start = k + 1
    }
  }
  if (to > start) out.push([start, to])
  return out
}

/** Wraps significant-token ranges in `CAST( ... AS <type>)` (collected, then applied to the full token list). */
class Wrapper {
  readonly ranges: Array<[number, number]> = []

  constructor(
    readonly sig: ReadonlyArray<Tok>,
    /** The words of the type cast to, e.g. `["NUMBER"]`, `["TIMESTAMP", "(", "9", ")"]`. */
    private readonly typeWords: ReadonlyArray<string>,
    /** Which value expressions [from, to) to wrap (all by default). */
    private readonly keep: (sig: ReadonlyArray<Tok>, from: number, to: number) => boolean = () => true,
    /** SQL put before and after each value instead of the CAST, when given. */
    private readonly frame?: { readonly open: string; readonly close: string }
  ) {}

  /** A value expression [from, to): wrapped unless it is DEFAULT. */
  value(from: number, to: number): void {
    if (to <= from || (to === from + 1 && isKw(this.sig[from], "DEFAULT")) || !this.keep(this.sig, from, to)) return
    this.ranges.push([from, to])
  }

  /** A select-list item [from, to): its expression wrapped, its alias kept. */
  selectItem(from: number, to: number): void {
    const sig = this.sig
    if (isOp(sig[to - 1], "*")) return
    const last = sig[to - 1]
    const prev = sig[to - 2]
    if (to - from >= 3 && isKw(prev, "AS") && isName(last)) return this.value(from, to - 2)
    // a CASE expression's END is no alias
    const aliased = to - from >= 2 && isName(last) && !isKw(last, "END") && prev !== undefined && !isOp(prev, ".") && (prev.kind !== "op" || isOp(prev, ")"))
    // an interval literal's last unit (`INTERVAL '1-2' YEAR TO MONTH`) is no alias
    this.value(from, aliased && !isKw(prev, "CASE", "END") && !isKw(last, "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND") ? to - 1 : to)
  }

  /** `(e1, e2, ...)` at `open` written into `columns`. */
  valuesList(open: number, columns: ReadonlyArray<boolean>): void {
    const close = matchParen(this.sig, open)
    commaSplit(this.sig, open + 1, close).forEach(([a, b], k) => {
      if (columns[k] === true) this.value(a, b)
    })
  }

  /** A query [from, to) whose select-list items are written into `columns` (each branch of a set operation). */
  query(from: number, to: number, columns: ReadonlyArray<boolean>): void {
    const sig = this.sig
    if (isOp(sig[from], "(") && matchParen(sig, from) === to - 1) return this.query(from + 1, to - 1, columns)
    for (let k = from; k < to; k++) {
      if (isOp(sig[k], "(")) {
        k = matchParen(sig, k)
        continue
      }
      if (!isKw(sig[k], "SELECT")) continue
      let start = k + 1
      if (isKw(sig[start], "DISTINCT", "UNIQUE", "ALL")) start++
      const fromAt = findTopLevel(sig, start, to, (t) => isKw(t, "FROM"))
      if (fromAt < 0) return
      commaSplit(sig, start, fromAt).forEach(([a, b], n) => {
        if (columns[n] === true) this.selectItem(a, b)
      })
      k = fromAt
    }
  }

  /** `c = e, ...` assignments [from, to) of a SET clause into `exact` columns. */
  assignments(from: number, to: number, exact: ReadonlySet<string>): void {
    for (const [a, b] of commaSplit(this.sig, from, to))
      if (isName(this.sig[a]) && isOp(this.sig[a + 1], "=") && exact.has(oracleName(this.sig[a]!))) this.value(a + 2, b)
  }

  /** The full token list with the wrappers inserted. */
  apply(all: ReadonlyArray<Tok>): ReadonlyArray<Tok> {
    if (this.ranges.length === 0) return all
    const opens = new Map<Tok, number>()
    const closes = new Map<Tok, number>()
    for (const [a, b] of this.ranges) {
      opens.set(this.sig[a]!, (opens.get(this.sig[a]!) ?? 0) + 1)
      closes.set(this.sig[b - 1]!, (closes.get(this.sig[b - 1]!) ?? 0) + 1)
    }
    const out: Array<Tok> = []
    const tok = (kind: "ident" | "op" | "num" | "ws", text: string, pos: number): Tok => ({ kind, text, value: kind === "ws" ? " " : text, pos })
    const wordKind = (word: string) => ("(),-".includes(word) ? "op" : /^\d+$/.test(word) ? "num" : "ident")
    const framed = (sql: string, pos: number) => tokenize(sql).map((x) => ({ ...x, pos }))
    for (const t of all) {
      for (let n = opens.get(t) ?? 0; n > 0; n--) out.push(...(this.frame === undefined ? [tok("ident", "CAST", t.pos), tok("op", "(", t.pos)] : framed(this.frame.open, t.pos)))
      out.push(t)
      for (let n = closes.get(t) ?? 0; n > 0; n--) {
        if (this.frame !== undefined) {
          out.push(...framed(this.frame.close, t.pos))
          continue
        }
        out.push(tok("ws", " ", t.pos), tok("ident", "AS", t.pos))
        for (const word of this.typeWords) out.push(tok("ws", " ", t.pos), tok(wordKind(word), word, t.pos))
        out.push(tok("op", ")", t.pos))
      }
    }
    return out
  }
}

/**
 * `all` (a statement's tokens) with the values an INSERT, UPDATE or MERGE writes into NUMBER columns without
 * precision wrapped in `CAST(... AS NUMBER)`, into FLOAT(b) columns in `CAST(... AS FLOAT(b))` (rounded to the
 * binary precision's decimal digits); other statements unchanged.
 */
export const canonicalNumberWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  let out = castWrites(all, lookup, exactColumns(), ["NUMBER"])
  for (const b of floatPrecisionsWritten(all, lookup)) out = castWrites(out, lookup, exactColumns(b), ["FLOAT", "(", String(b), ")"])
  for (const [p, s] of negativeScalesWritten(all, lookup))
    out = castWrites(out, lookup, (meta) => new Set(meta.columns.filter((c) => isNegativeScale(c.type, p, s)).map((c) => c.name)), ["NUMBER", "(", String(p), ",", "-", String(-s), ")"])
  return out
}

/** Whether `type` is NUMBER(p,s) with a negative scale (`p`, `s` when given): its values are rounded on write. */
const isNegativeScale = (type: TableMeta["columns"][number]["type"], p?: number, s?: number): boolean =>
  type.kind === "number" && type.dictName === "NUMBER" && type.scale < 0 && type.scale !== -127 && (p === undefined || (type.precision === p && type.scale === s))

/**
 * The [precision, scale] pairs of the NUMBER(p,-s) columns of the table an INSERT, UPDATE or MERGE writes: DuckDB
 * stores them as DECIMAL(p+s,0) integers, so the values written into them are wrapped in `CAST(... AS NUMBER(p,-s))`,
 * which rounds them to the left of the decimal point (translate-calls.ts).
 */
const negativeScalesWritten = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<readonly [number, number]> => {
  const columns = (writtenTable(all.filter((t) => t.kind !== "ws"), lookup)?.meta.columns ?? []).filter((c) => isNegativeScale(c.type))
  return [...new Set(columns.map((c) => `${c.type.precision},${c.type.scale}`))].map((k) => k.split(",").map(Number) as [number, number])
}

/** The binary precisions of the FLOAT columns of the table an INSERT, UPDATE or MERGE writes. */
const floatPrecisionsWritten = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlySet<number> =>
  new Set((writtenTable(all.filter((t) => t.kind !== "ws"), lookup)?.meta.columns ?? []).filter((c) => c.type.dictName === "FLOAT" && c.type.duck === "VARCHAR").map((c) => c.type.precision))

/** The table an INSERT, UPDATE or MERGE (significant tokens `sig`) writes, and the index of its name. */
const writtenTable = (sig: ReadonlyArray<Tok>, lookup: TableLookup): { meta: TableMeta; at: number; qualified: boolean } | undefined => {
  if (!isKw(sig[0], "INSERT", "UPDATE", "MERGE")) return undefined
  const at = isKw(sig[1], "INTO") ? 2 : 1
  if (!isName(sig[at])) return undefined
  const qualified = isOp(sig[at + 1], ".") && isName(sig[at + 2])
  const meta = qualified ? lookup(oracleName(sig[at]!), oracleName(sig[at + 2]!)) : lookup(undefined, oracleName(sig[at]!))
  return meta === undefined ? undefined : { meta, at, qualified }
}

/**
 * `all` (a statement's tokens) with the values an INSERT, UPDATE or MERGE writes into the `columnsOf` its target
 * table wrapped in `CAST(... AS <typeWords>)` (those `keep` accepts, when given); other statements unchanged.
 */
export const castWrites = (
  all: ReadonlyArray<Tok>,
  lookup: TableLookup,
  columnsOf: (meta: TableMeta) => ReadonlySet<string>,
  typeWords: ReadonlyArray<string>,
  keep?: (sig: ReadonlyArray<Tok>, from: number, to: number) => boolean
): ReadonlyArray<Tok> => {
  const w = writtenValues(all, lookup, columnsOf, typeWords, keep)
  return w === undefined ? all : w.apply(all)
}

/**
 * `all` (a statement's tokens) with the values an INSERT, UPDATE or MERGE writes into the `columnsOf` its target
 * table put between the SQL texts `open` and `close` (e.g. a function call's name and its further arguments); those
 * `keep` accepts, when given.
 */
export const frameWrites = (
  all: ReadonlyArray<Tok>,
  lookup: TableLookup,
  columnsOf: (meta: TableMeta) => ReadonlySet<string>,
  open: string,
  close: string,
  keep?: (sig: ReadonlyArray<Tok>, from: number, to: number) => boolean
): ReadonlyArray<Tok> => {
  const w = writtenValues(all, lookup, columnsOf, [], keep, { open, close })
  return w === undefined ? all : w.apply(all)
}

/** The values an INSERT, UPDATE or MERGE writes into the columns `columnsOf` picks, collected (not yet wrapped). */
const writtenValues = (
  all: ReadonlyArray<Tok>,
  lookup: TableLookup,
  columnsOf: (meta: TableMeta) => ReadonlySet<string>,
  typeWords: ReadonlyArray<string>,
  keep?: (sig: ReadonlyArray<Tok>, from: number, to: number) => boolean,
  frame?: { readonly open: string; readonly close: string }
): Wrapper | undefined => {
  const sig = all.filter((t) => t.kind !== "ws")
  const written = writtenTable(sig, lookup)
  if (written === undefined) return undefined
  const { meta, at, qualified } = written
  const exact = columnsOf(meta)
  if (exact.size === 0) return undefined
  const w = new Wrapper(sig, typeWords, keep, frame)
  const afterTable = qualified ? at + 3 : at + 1
  if (isKw(sig[0], "INSERT")) insertInto(w, sig, afterTable, sig.length, meta, exact)
  else if (isKw(sig[0], "UPDATE")) {
    const set = findTopLevel(sig, afterTable, sig.length, (t) => isKw(t, "SET"))
    const end = findTopLevel(sig, set + 1, sig.length, (t) => isKw(t, "WHERE", "RETURNING", "RETURN"))
    if (set > 0) w.assignments(set + 1, end < 0 ? sig.length : end, exact)
  } else mergeInto(w, sig, afterTable, meta, exact)
  return w
}

/**
 * The significant tokens of each value an INSERT, UPDATE or MERGE writes into a column `columnsOf` picks of the
 * table it writes (empty for other statements).
 */
export const writtenValueTokens = (all: ReadonlyArray<Tok>, lookup: TableLookup, columnsOf: (meta: TableMeta) => ReadonlySet<string>): ReadonlyArray<ReadonlyArray<Tok>> => {
  const w = writtenValues(all, lookup, columnsOf, [])
  return w === undefined ? [] : w.ranges.map(([a, b]) => w.sig.slice(a, b))
}

/** `[alias] [(columns)] VALUES (...) | query` of an INSERT (or a MERGE's insert clause) from `k` to `end`. */
const insertInto = (w: Wrapper, sig: ReadonlyArray<Tok>, k: number, end: number, meta: TableMeta, exact: ReadonlySet<string>): void => {
  if (isName(sig[k]) && !isKw(sig[k], "VALUES", "SELECT", "WITH")) k++
  let names = meta.columns.map((c) => c.name)
  if (isOp(sig[k], "(") && !isKw(sig[k + 1], "SELECT", "WITH")) {
    const close = matchParen(sig, k)
    names = commaSplit(sig, k + 1, close).map(([a, b]) => (isName(sig[b - 1]) ? oracleName(sig[b - 1]!) : ""))
    k = close + 1
  }
  const columns = names.map((n) => exact.has(n))
  if (isKw(sig[k], "VALUES") && isOp(sig[k + 1], "(")) w.valuesList(k + 1, columns)
  else {
    const returning = findTopLevel(sig, k, end, (t) => isKw(t, "RETURNING", "RETURN", "LOG"))
    w.query(k, returning < 0 ? end : returning, columns)
  }
}

/** `MERGE INTO t [alias] USING ... ON (...) WHEN MATCHED THEN UPDATE SET ... WHEN NOT MATCHED THEN INSERT ...`. */
const mergeInto = (w: Wrapper, sig: ReadonlyArray<Tok>, k: number, meta: TableMeta, exact: ReadonlySet<string>): void => {
  for (let j = k; j < sig.length; j++) {
    if (isOp(sig[j], "(")) {
      j = matchParen(sig, j)
      continue
    }
    if (!isKw(sig[j], "THEN")) continue
    const clauseEnd = findTopLevel(sig, j + 1, sig.length, (t) => isKw(t, "WHEN"))
    const end = clauseEnd < 0 ? sig.length : clauseEnd
    if (isKw(sig[j + 1], "UPDATE") && isKw(sig[j + 2], "SET")) {
      const stop = findTopLevel(sig, j + 3, end, (t) => isKw(t, "WHERE", "DELETE"))
      w.assignments(j + 3, stop < 0 ? end : stop, exact)
    } else if (isKw(sig[j + 1], "INSERT")) insertInto(w, sig, j + 2, end, meta, exact)
    j = end - 1
  }
}
