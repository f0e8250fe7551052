/**
 * The fast path of executeMany into `INSERT INTO t [(columns)] VALUES (:1, …, :n)`: bind rows are laid out
 * column-wise in the target columns' DuckDB storage layouts ({@link BulkRows}) for `Session.appendRows`, with no SQL
 * text or JSON per batch: either straight from their TTC bytes (bind-row-decoder.ts `BindRowDecoder`, for requests decoded while
 * they arrive) or from decoded bind values ({@link bulkRowsOfBinds}), for the table or staging target an INSERT names
 * ({@link BatchTargets}). Values it cannot lay out exactly (digits a
 * DECIMAL column would round, text for a number column, LOBs, …) and constraint violations send the rows back to the
 * general path, which reports Oracle's errors (ORA-01400, ORA-12899, ORA-01438) with the failing row's offset.
 */
import { DuckDBBlobValue, DuckDBTimestampTZValue, DuckDBTimestampValue, VARCHAR } from "@duckdb/node-api"
import type { DuckDBValue } from "@duckdb/node-api"
import { BulkInsertError, BulkRows, columnInfo } from "../engine/index.ts"
import type { AppendTarget, BulkColumn, ColumnLayout, Session } from "../engine/index.ts"
import { characterColumns } from "./character-writes.ts"
import { type DatetimeBindTexts, datetimeOfBindValue, type DatetimeText } from "./datetime-bind-texts.ts"
import { hasEnforcedJsonCheck } from "./json-checks.ts"
import type { TableMeta } from "./catalog.ts"
import { type KeyedTable, keyedTable } from "./key-locks.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { ROUNDED_BIND } from "./fraction-precision.ts"
import { encodeName } from "./names.ts"
import type { BindSpec } from "./statement.ts"
import { oracleName } from "./translate.ts"
import { Dty } from "./types.ts"

/** Signals a value the column-wise layout cannot hold exactly. */
export class NotExact extends Error {}

const MICROS_PER_DAY = 86_400_000_000n
const POW10: readonly number[] = Array.from({ length: 16 }, (_, i) => 10 ** i)

const micros = (v: DuckDBValue): bigint => {
  if (v instanceof DuckDBTimestampValue || v instanceof DuckDBTimestampTZValue) return v.micros
  throw new NotExact()
}

const integral = (v: DuckDBValue): number => {
  if (typeof v === "number" && Number.isInteger(v)) return v
  if (typeof v === "boolean") return v ? 1 : 0
  throw new NotExact()
}

/** Decimal text as params.ts numberValue gives NUMBERs of more than 15 digits (no exponent). */
const DECIMAL_TEXT = /^(-?)(\d*)(?:\.(\d+))?$/

/** The unscaled value of `v` at `scale` fraction digits, when it has no more digits than that. */
const unscaled = (v: DuckDBValue, scale: number): bigint => {
  if (typeof v === "bigint") return v * 10n ** BigInt(scale)
  if (typeof v === "string") {
    const m = DECIMAL_TEXT.exec(v)
    const fraction = (m?.[3] ?? "").replace(/0+$/, "")
    if (m === null || (m[2] === "" && fraction === "") || fraction.length > scale) throw new NotExact()
    const digits = BigInt(`${m[2] || "0"}${fraction.padEnd(scale, "0")}`)
    return m[1] === "-" ? -digits : digits
  }
  if (typeof v !== "number") throw new NotExact()
  // an integral double is exact, however large
  if (Number.isInteger(v)) return BigInt(v) * 10n ** BigInt(scale)
  if (scale >= POW10.length) throw new NotExact()
  const u = Math.round(v * POW10[scale]!)
  if (!Number.isSafeInteger(u) || u / POW10[scale]! !== v) throw new NotExact()
  return BigInt(u)
}

/** Lays out decoded bind value `v` into cell (row, column `c`) of `out`; NotExact when the layout cannot hold it exactly. */
export const setCell = (out: BulkRows, c: number, row: number, layout: ColumnLayout, scale: number, v: DuckDBValue): void => {
  switch (layout) {
    case "varchar":
      if (typeof v !== "string") throw new NotExact()
      out.setString(c, row, v)
      return
    case "blob":
      if (!(v instanceof DuckDBBlobValue)) throw new NotExact()
      out.setBytes(c, row, v.bytes)
      return
    case "float32":
    case "float64":
      if (typeof v !== "number") throw new NotExact()
      out.setNumber(c, row, v)
      return
    case "decimal16":
    case "decimal32":
    case "decimal64":
    case "decimal128":
      out.setBigInt(c, row, unscaled(v, scale))
      return
    case "int64":
      out.setBigInt(c, row, typeof v === "bigint" ? v : typeof v === "string" ? unscaled(v, 0) : BigInt(integral(v)))
      return
    case "timestamp":
      out.setBigInt(c, row, micros(v))
      return
    case "timestamp_s": {
      const us = micros(v)
      if (us % 1_000_000n !== 0n) throw new NotExact()
      out.setBigInt(c, row, us / 1_000_000n)
      return
    }
    case "date": {
      const us = micros(v)
      if (us % MICROS_PER_DAY !== 0n) throw new NotExact()
      out.setNumber(c, row, Number(us / MICROS_PER_DAY))
      return
    }
    case "boolean":
    case "int8":
    case "uint8":
    case "int16":
    case "uint16":
    case "int32":
    case "uint32":
      out.setNumber(c, row, integral(v))
      return
    default:
      throw new NotExact()
  }
}

/**
 * Lays out bind columns `0 … columns.length - 1` of `rows` for `columns` (the INSERT's target columns, DuckDB names
 * and types); undefined when a value needs the general path or breaks a constraint the layout checks. A `zoned`
 * column (BatchTarget.zoned) takes only TIMESTAMP WITH TIME ZONE binds (`specs`, in bind order), whose decoded text
 * keeps their own zone; text or other datetimes bound there take the general path, which reads them. A value with more
 * fraction digits than its column's `fractions` entry takes the general path too, which rounds it. A `padded`
 * column's text is blank-padded (BatchTarget.padded). A DATE / TIMESTAMP / TIMESTAMP WITH TIME ZONE bind into a
 * `character` column (BatchTarget.character) is written as its text in the session's format (`texts`).
 */
export const bulkRowsOfBinds = (
  rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
  columns: ReadonlyArray<BulkColumn>,
  zoned: ReadonlyArray<boolean> = [],
  specs: ReadonlyArray<BindSpec> = [],
  fractions: ReadonlyArray<number | undefined> = [],
  padded: ReadonlyArray<CharPadding | undefined> = [],
  character: ReadonlyArray<boolean> = [],
  texts?: DatetimeBindTexts
): BulkRows | undefined => {
  if (zoned.some((z, i) => z && specs[i]?.dty !== Dty.TIMESTAMP_TZ)) return undefined
  const textOf: ReadonlyArray<DatetimeText | undefined> = columns.map((_, c) => (character[c] === true && specs[c] !== undefined ? texts?.(specs[c].dty) : undefined))
  const infos = columns.map((c) => columnInfo(c.name, c.type))
  if (infos.some((i) => i.layout === "other" || i.layout === "uint64")) return undefined
  const out = new BulkRows(columns, rows.length)
  const width = columns.length
  try {
    for (let row = 0; row < rows.length; row++) {
      const values = rows[row]!
      for (let c = 0; c < width; c++) {
        const v = values[c] ?? null
        if (v === null) continue
        const text = textOf[c]
        if (text !== undefined) {
          const datetime = datetimeOfBindValue(v)
          if (datetime === undefined) throw new NotExact()
          out.setString(c, row, text(datetime))
          continue
        }
        const padding = padded[c]
        if (padding !== undefined && typeof v !== "string") throw new NotExact()
        if (fractions[c] !== undefined && !fitsFraction(micros(v), fractions[c])) throw new NotExact()
        setCell(out, c, row, infos[c]!.layout, infos[c]!.scale, padding === undefined ? v : paddedText(v as string, padding))
      }
    }
  } catch (e) {
    if (e instanceof NotExact || e instanceof BulkInsertError) return undefined
    throw e
  }
  laidOut.rows += rows.length
  return out
}

/**
 * Rows laid out column-wise since the process started (by {@link bulkRowsOfBinds} and, counted by its caller, by
 * bind-row-decoder.ts `BindRowDecoder`; `straight` those of the latter, decoded from their bytes with no bind values in between);
 * tests read it to see that a request took this path.
 */
export const laidOut = { rows: 0, straight: 0 }

/**
 * Where an executeMany INSERT appends: the DuckDB table itself when the binds are all its columns in table order,
 * else the INSERT's table text (staging), and the target columns (DuckDB names and types).
 */
export interface BatchTarget {
  readonly table: string | AppendTarget
  readonly columns: ReadonlyArray<BulkColumn>
  /**
   * Per column: a TIMESTAMP WITH TIME ZONE column, whose bind the translated INSERT passes through
   * {@link ZONED_BIND} (stored as the server's zoned text, datetime-functions.ts). Only TIMESTAMP WITH TIME ZONE
   * binds, whose text keeps their own zone, are laid out for it (bind-row-decoder.ts `cellWriter`); other binds take the general path.
   */
  readonly zoned: ReadonlyArray<boolean>
  /**
   * Per column: the fraction digits of a TIMESTAMP(0-5) column, whose bind the translated INSERT rounds to them
   * ({@link ROUNDED_BIND}); a value with more digits takes the general path, which rounds it.
   */
  readonly fractions: ReadonlyArray<number | undefined>
  /** Per column: the blank padding of a CHAR / NCHAR column, whose bind the translated INSERT pads (char-writes.ts). */
  readonly padded: ReadonlyArray<CharPadding | undefined>
  /**
   * Per column: a VARCHAR2 / NVARCHAR2 column, into which a datetime bind is written as its text in the session's
   * format ({@link DATETIME_TEXT_BIND}, datetime-bind-texts.ts).
   */
  readonly character: ReadonlyArray<boolean>
}

/** Whether `micros` has no more fraction digits than `fraction` (none given: any). */
export const fitsFraction = (micros: bigint, fraction: number | undefined): boolean =>
  fraction === undefined || micros % 10n ** BigInt(6 - fraction) === 0n

/**
 * The translation (translate.ts) of bind `$k` into a TIMESTAMP WITH TIME ZONE column of an INSERT, whitespace removed:
 * its text read in the session time zone when it has none (datetime-functions.ts `ora_tstz`).
 */
export const ZONED_BIND = (k: number): string => `ora_tstz(CAST($${k}ASVARCHAR),getvariable('ora_session_tz'))`

/**
 * The blank padding of a CHAR / NCHAR column's values (char-writes.ts): its size, in characters or bytes. The layout
 * pads each bound text to it, as the INSERT's `ora_attribute_char` does; a longer text takes the general path, which
 * reports ORA-12899.
 */
export interface CharPadding {
  readonly size: number
  readonly inCharacters: boolean
}

/** `text` blank-padded to `padding`; NotExact when it is longer (or empty, which Oracle reads as NULL). */
export const paddedText = (text: string, padding: CharPadding): string => {
  const width = padding.inCharacters ? [...text].length : Buffer.byteLength(text, "utf8")
  if (width === 0 || width > padding.size) throw new NotExact()
  return width === padding.size ? text : text + " ".repeat(padding.size - width)
}

/** The translation of bind `$k` written into a CHAR / NCHAR column (char-writes.ts), whitespace removed. */
const PADDED_BIND = /^ora_attribute_char\(CAST\(ora_char_of\(\$(\d+)\)ASVARCHAR\),(\d+),(TRUE|FALSE)\)/

/**
 * The translation of a datetime bind `$k` written into a character column (datetime-text-writes.ts `TO_CHAR(:k)`, of a
 * DATE bind `TO_CHAR(CAST(:k AS DATE))`), whitespace removed.
 */
const DATETIME_TEXT_BIND = /^ora_to_char\((?:\$(\d+)|CAST\(\$(\d+)ASTIMESTAMP_S\))\)/

/**
 * How a bind of a VALUES list is written: as it is, through {@link ZONED_BIND}, blank-padded, rounded to `fraction`
 * digits, or as a datetime's text ({@link DATETIME_TEXT_BIND}).
 */
type BindForm = "plain" | "zoned" | "text" | CharPadding | { readonly fraction: number }

/**
 * How each bind of a VALUES list (`$1, …, $n` in order, whitespace removed) is written: as it is, through
 * {@link ZONED_BIND}, blank-padded ({@link PADDED_BIND}) or through {@link ROUNDED_BIND} (its digits); undefined when
 * the list holds anything else.
 */
const bindForms = (values: string, n: number): Array<BindForm> | undefined => {
  const forms: Array<BindForm> = []
  let at = 0
  for (let k = 1; k <= n; k++) {
    if (k > 1) {
      if (values[at] !== ",") return undefined
      at++
    }
    const plain = `$${k}`
    const wrapped = ZONED_BIND(k)
    const end = (text: string) => at + text.length === values.length || values[at + text.length] === ","
    const padded = PADDED_BIND.exec(values.slice(at))
    const text = DATETIME_TEXT_BIND.exec(values.slice(at))
    if (values.startsWith(plain, at) && end(plain)) {
      forms.push("plain")
      at += plain.length
    } else if (values.startsWith(wrapped, at) && end(wrapped)) {
      forms.push("zoned")
      at += wrapped.length
    } else if (text !== null && (text[1] ?? text[2]) === String(k) && end(text[0])) {
      forms.push("text")
      at += text[0].length
    } else if (padded !== null && padded[1] === String(k) && end(padded[0])) {
      forms.push({ size: Number(padded[2]), inCharacters: padded[3] === "TRUE" })
      at += padded[0].length
    } else {
      const rounded = [0, 1, 2, 3, 4, 5].map((p) => ROUNDED_BIND(k, p)).findIndex((text) => values.startsWith(text, at) && end(text))
      if (rounded < 0) return undefined
      forms.push({ fraction: rounded })
      at += ROUNDED_BIND(k, rounded).length
    }
  }
  return at === values.length ? forms : undefined
}

/** What resolving a batch target needs from the SQL session. */
export interface BatchTargetHost {
  readonly schema: string
  readonly engine: Session
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined
}

/**
 * The batch targets of one session's INSERTs, kept by INSERT text and table definition (executeMany sends the same
 * INSERT chunk after chunk), and the keys of the keyed tables staged targets name.
 */
export class BatchTargets {
  private readonly byInsert = new Map<string, BatchTarget>()
  private readonly keyedByTable = new Map<string, KeyedTable>()

  constructor(private readonly host: BatchTargetHost) {}

  /** The primary / unique keys of the table a staged target's table text names in the current schema. */
  keyedTableOf(table: string | AppendTarget): KeyedTable | undefined {
    return typeof table === "string" ? this.keyedByTable.get(`${this.host.schema}\u0000${table}`) : undefined
  }

  /**
   * The target of a translated INSERT (`t`) whose VALUES are exactly `$1, …, $n`, or undefined. Binds for all of the
   * table's columns in table order append to the table directly; a column subset goes through staging.
   */
  async of(t: { toks: ReadonlyArray<Tok>; text: (a: number, b: number) => string; binds: ReadonlyArray<string> }): Promise<BatchTarget | undefined> {
    const toks = t.toks
    const n = t.binds.length
    const valuesAt = toks.findIndex((x) => isKw(x, "VALUES"))
    if (n === 0 || !isKw(toks[0], "INSERT") || !isKw(toks[1], "INTO") || valuesAt < 0 || !isOp(toks[valuesAt + 1], "(")) return undefined
    if (matchParen(toks, valuesAt + 1) !== toks.length - 1) return undefined
    const forms = bindForms(t.text(valuesAt + 2, toks.length - 1).replace(/\s+/g, ""), n)
    if (forms === undefined) return undefined
    const zoned = forms.map((f) => f === "zoned")
    const padded = forms.map((f) => (typeof f === "object" && "size" in f ? f : undefined))
    const fractions = forms.map((f) => (typeof f === "object" && "fraction" in f ? f.fraction : undefined))
    const a = toks[2]
    if (a === undefined || (a.kind !== "ident" && a.kind !== "qident")) return undefined
    const qualified = isOp(toks[3], ".") && (toks[4]?.kind === "ident" || toks[4]?.kind === "qident")
    const after = qualified ? 5 : 3
    const meta = qualified ? this.host.lookupTable(oracleName(a), oracleName(toks[4]!)) : this.host.lookupTable(undefined, oracleName(a))
    if (meta === undefined || meta.kind !== "TABLE") return undefined
    let names: Array<string>
    if (after === valuesAt) names = meta.columns.map((c) => c.name)
    else if (isOp(toks[after], "(") && matchParen(toks, after) === valuesAt - 1) {
      names = []
      for (let k = after + 1; k < valuesAt - 1; k++) {
        const tok = toks[k]!
        if (tok.kind === "ident" || tok.kind === "qident") names.push(oracleName(tok))
        else if (!isOp(tok, ",")) return undefined
      }
    } else return undefined
    if (names.length !== n) return undefined
    const duckSql = t.text(0, toks.length)
    const key = `${meta.objectId}\u0000${JSON.stringify(meta.columns)}\u0000${duckSql}`
    const known = this.byInsert.get(key)
    if (known !== undefined) return known
    const prepared = await this.host.engine.prepare(duckSql)
    try {
      const columns: Array<BulkColumn> = []
      for (let i = 0; i < n; i++) {
        // a bind padded into a CHAR column or written as a datetime's text is text (its parameter's type DuckDB
        // leaves open inside the macro)
        const type = padded[i] !== undefined || forms[i] === "text" ? VARCHAR : prepared.parameterType(i)
        if (type === undefined) return undefined
        columns.push({ name: encodeName(names[i]!), type })
      }
      // a key violation in DuckDB's appender leaves part of the batch behind (seen with a duplicate primary key), so
      // tables with keys go through the staged INSERT, which is all or nothing
      const constrained = meta.constraints.some((c) => c.type === "P" || c.type === "U" || c.type === "R")
      // an enforced IS JSON check calls a TypeScript function (json-checks.ts), which the appender's synchronous flush
      // would wait on forever: such tables go through the staged INSERT too
      const whole = !constrained && !hasEnforcedJsonCheck(meta) && names.length === meta.columns.length && names.every((name, i) => name === meta.columns[i]!.name)
      if (forms.some((f, i) => (f === "zoned" || f === "text" || padded[i] !== undefined) && columnInfo(columns[i]!.name, columns[i]!.type).layout !== "varchar")) return undefined
      const textual = characterColumns(meta)
      const character = names.map((name) => textual.has(name))
      const target = { table: whole ? { schema: encodeName(meta.owner), table: encodeName(meta.name) } : t.text(2, after), columns, zoned, fractions, padded, character }
      const keys = keyedTable(meta)
      if (keys !== undefined && typeof target.table === "string") this.keyedByTable.set(`${this.host.schema}\u0000${target.table}`, keys)
      if (this.byInsert.size >= 64) this.byInsert.clear()
      this.byInsert.set(key, target)
      return target
    } finally {
      prepared.close()
    }
  }
}
