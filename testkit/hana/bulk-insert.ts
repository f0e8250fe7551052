/**
 * The fast path of batch `INSERT … VALUES (?, …)`: hdb's PARAMETERS part (per row, per parameter `[type][value]`,
 * NULL as `type | 0x80`; hdb lib/protocol/Writer.js) is decoded straight into the target columns' DuckDB storage
 * layouts ({@link BulkRows}) and inserted with `Session.appendRows`, with no JS value per cell.
 */
import { columnInfo } from "../engine/index.ts"
import { TWO_32 } from "../../src/arrow/Words.ts"
import { BulkInsertError, BulkRows } from "../engine/index.ts"
import type { AppendTarget, BulkColumn, ColumnLayout, Prepared, Session } from "../engine/index.ts"
import { epochDayOfHanaDay } from "./datetime.ts"
import { CESU8_PAIRS, CESU8_PLAIN, scanCesu8 } from "./cesu8-check.ts"
import { fromCesu8 } from "./cesu8.ts"
import { HanaError, valueTooLarge } from "./errors.ts"
import { decodeName, encodeName } from "./names.ts"
import { parseTypeText, TypeCode } from "./types.ts"
import { lengthIndicatorSize, MalformedPacket, NULL_LENGTH, readLengthPrefixed } from "./wire.ts"
import { hanaType, numericOverflow } from "./number-errors.ts"

/**
 * Where a batch goes: the table (appended to directly when the parameters are all its columns in order, else its
 * quoted name for a staged INSERT), its target columns, and their layouts and decimal scales.
 */
export interface BatchTarget {
  readonly table: string | AppendTarget
  readonly columns: readonly BulkColumn[]
  readonly layouts: readonly ColumnLayout[]
  readonly scales: readonly number[]
  /**
   * The rows of the last batch appended, emptied and filled again by the next ({@link decodeBatch}): a fresh set of
   * column buffers per batch (about 130 MB per 1,000,000 rows of eight columns) is ArrayBuffer memory, and V8 answers
   * every 64 MB of it with a full collection of the server's heap (BENCHMARKS.md, hana-ingest).
   */
  spare?: BulkRows | undefined
}

/** Rows for `count` values of `target`'s columns: its {@link BatchTarget.spare}, emptied, when it holds as many. */
const batchRows = (target: BatchTarget, count: number): BulkRows => {
  const spare = target.spare
  target.spare = undefined
  if (spare === undefined || spare.capacity < count) return new BulkRows(target.columns, count)
  spare.reset(count)
  return spare
}

/**
 * Keeps `rows` of a batch appended to `target` for the next batch to fill ({@link BatchTarget.spare}); the engine's
 * journal holds the rows sealed in DuckDB chunks, not these buffers.
 */
export const keepBatchRows = (target: BatchTarget, rows: BulkRows): void => {
  if (target.spare === undefined || target.spare.capacity < rows.capacity) target.spare = rows
}

const LENGTH_CHECKED = new Set(["VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "ALPHANUM", "SHORTTEXT", "VARBINARY", "BINARY"])

const quote = (duckName: string): string => `"${duckName.replace(/"/g, '""')}"`

/**
 * The target of an `INSERT INTO [schema.]table [(columns)] VALUES (?, …)` whose parameters are exactly the listed
 * columns; undefined when the fast path does not apply (a parameter DuckDB cannot type, a type it cannot append).
 */
export const batchTarget = async (
  session: Session,
  insert: { readonly schema: string | undefined; readonly table: string; readonly columns: readonly string[] | undefined },
  currentSchema: string,
  prepared: Prepared
): Promise<BatchTarget | undefined> => {
  const table = encodeName(insert.table)
  const rows = await session.queryAll(
    `SELECT database_name, schema_name, column_name, is_nullable, comment FROM duckdb_columns()
     WHERE table_name = ? AND (database_name = 'temp' OR schema_name = ?) ORDER BY database_name = 'temp' DESC, column_index`,
    [table, encodeName(insert.schema ?? currentSchema)]
  )
  if (rows.length === 0) return undefined
  const [database, schema] = [String(rows[0]![0]), String(rows[0]![1])]
  const own = rows.filter((r) => String(r[0]) === database && String(r[1]) === schema)
  const byName = new Map(own.map((r) => [String(r[2]), r]))
  const names = insert.columns?.map(encodeName) ?? own.map((r) => String(r[2]))
  if (names.length !== prepared.parameterCount) return undefined
  const columns: BulkColumn[] = []
  for (let i = 0; i < names.length; i++) {
    const row = byName.get(names[i]!)
    const type = prepared.parameterType(i)
    if (row === undefined || type === undefined) return undefined
    const declared = row[4] === null ? undefined : parseTypeText(String(row[4]))
    const maxLength = declared !== undefined && LENGTH_CHECKED.has(declared.name) && declared.length > 0 ? declared.length : 0
    columns.push({ name: names[i]!, type, notNull: row[3] === false, maxLength })
  }
  const infos = columns.map((c) => columnInfo(c.name, c.type))
  if (infos.some((c) => c.layout === "other")) return undefined
  const whole = names.length === own.length && names.every((n, i) => n === String(own[i]![2]))
  return {
    table: whole ? { database, schema, table } : database === "temp" ? `temp.main.${quote(table)}` : `${quote(schema)}.${quote(table)}`,
    columns,
    layouts: infos.map((c) => c.layout),
    scales: infos.map((c) => c.scale)
  }
}

/** Signals that a value needs the general (per-value) path; the batch is then decoded again that way. */
class NotFast extends Error {}

const POW10: readonly bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i))
const US_PER_DAY = 86_400_000_000n
/** 0001-01-01 (HANA day 1) to 1970-01-01 in 100 ns ticks (a LONGDATE is these ticks + 1). */
const EPOCH_TICKS_1 = 719164n * 86_400n * 10_000_000n + 1n
/** 1582-10-15, the first Gregorian day, in microseconds since 1970. */
const GREGORIAN_START_MICROS = -141427n * US_PER_DAY

/** Rescales an unscaled decimal from `from` to `to` fraction digits; NotFast when digits would be lost. */
const rescale = (unscaled: bigint, from: number, to: number): bigint => {
  if (from === to) return unscaled
  if (from < to) return unscaled * POW10[to - from]!
  const div = POW10[from - to]!
  if (unscaled % div !== 0n) throw new NotFast()
  return unscaled / div
}

/** Microseconds since 1970 of a LONGDATE (its day relabelled by HANA's calendar; 100 ns digits floored). */
const microsOfLongdate = (longdate: bigint): bigint => {
  const ticks = longdate - EPOCH_TICKS_1
  if (ticks >= 0n) return ticks / 10n
  const micros = ticks % 10n === 0n ? ticks / 10n : ticks / 10n - 1n
  if (micros >= GREGORIAN_START_MICROS) return micros
  let days = micros / US_PER_DAY
  let rest = micros - days * US_PER_DAY
  if (rest < 0n) {
    rest += US_PER_DAY
    days -= 1n
  }
  return BigInt(epochDayOfHanaDay(Number(days) + 719165)) * US_PER_DAY + rest
}

/** High word of LONGDATE's NULL value 3155380704000000001. */
const LONGDATE_NULL_HIGH = Number(3155380704000000001n >> 32n)
const EPOCH_TICKS_1_HI = Number(EPOCH_TICKS_1 >> 32n)
const EPOCH_TICKS_1_LO = Number(EPOCH_TICKS_1 & 0xffffffffn)
/** Seconds from 0001-01-01 to 1970-01-01 (a SECONDDATE is these + seconds since 1970 + 1). */
const EPOCH_SECONDS = 719164 * 86_400

/**
 * Writes the microseconds since 1970 of a LONGDATE given as 32-bit halves into `out` at `row`, in 32-bit limbs (no
 * bigint); false for dates before 1970, which take the exact bigint path (and HANA's calendar relabelling).
 */
const setLongdateMicros = (out: BulkRows, c: number, row: number, low: number, high: number): boolean => {
  let lo = (low >>> 0) - EPOCH_TICKS_1_LO
  let hi = high - EPOCH_TICKS_1_HI
  if (lo < 0) {
    lo += TWO_32
    hi -= 1
  }
  if (hi < 0) return false
  const qHi = Math.floor(hi / 10)
  const qLo = Math.floor(((hi - qHi * 10) * TWO_32 + lo) / 10)
  out.setInt64Parts(c, row, qLo, qHi)
  return true
}

/**
 * Decodes `count` rows of a PARAMETERS part into {@link BulkRows} for `target`; undefined when some value needs the
 * general path (LOBs, text for a number column, digits a DECIMAL column would round away, …). Constraint
 * violations throw {@link BulkInsertError} naming the row.
 */
export const decodeBatch = (data: Buffer, count: number, target: BatchTarget): BulkRows | undefined => {
  const out = batchRows(target, count)
  const { layouts, scales } = target
  const width = layouts.length
  const isDecimal = layouts.map((l) => l.startsWith("decimal"))
  const takesInteger = layouts.map((l) => !(l === "varchar" || l === "blob" || l === "date" || l.startsWith("time")))
  const unscaledOne = scales.map((s) => POW10[s]!)
  let o = 0
  const need = (n: number): void => {
    if (o + n > data.length) throw new MalformedPacket("parameter data truncated")
  }
  const integer = (c: number, row: number, v: number): void => {
    if (isDecimal[c]) out.setBigInt(c, row, BigInt(v) * unscaledOne[c]!)
    else if (!takesInteger[c]) throw new NotFast()
    else out.setNumber(c, row, layouts[c] === "boolean" ? (v === 0 ? 0 : 1) : v)
  }
  const bigInteger = (c: number, row: number, v: bigint): void => {
    const layout = layouts[c]!
    if (isDecimal[c]) out.setBigInt(c, row, v * unscaledOne[c]!)
    else if (layout === "int64") out.setBigInt(c, row, v)
    else if (layout === "float64" || layout === "float32") out.setNumber(c, row, Number(v))
    else if (v >= -2147483648n && v <= 4294967295n) integer(c, row, Number(v))
    else throw new NotFast()
  }
  const decimal = (c: number, row: number, unscaled: bigint, scale: number): void => {
    const layout = layouts[c]!
    if (isDecimal[c]) out.setBigInt(c, row, scale === scales[c] ? unscaled : rescale(unscaled, scale, scales[c]!))
    else if (layout === "float64" || layout === "float32") out.setNumber(c, row, Number(unscaled) / 10 ** scale)
    else if (scale === 0 || unscaled % POW10[scale]! === 0n) bigInteger(c, row, unscaled / POW10[Math.max(scale, 0)]!)
    else throw new NotFast()
  }
  try {
    for (let row = 0; row < count; row++) {
      for (let c = 0; c < width; c++) {
        need(1)
        const type = data[o++]!
        if (type & 0x80) continue
        const layout = layouts[c]!
        // A UBIGINT column is a TIMESTAMP's ticks (longdate.ts): only a LONGDATE is taken as it is.
        if (layout === "uint64" && type !== TypeCode.LONGDATE) throw new NotFast()
        switch (type) {
          case TypeCode.TINYINT:
            need(1)
            integer(c, row, data[o]!)
            o += 1
            break
          case TypeCode.SMALLINT:
            need(2)
            integer(c, row, data.readInt16LE(o))
            o += 2
            break
          case TypeCode.INT:
            need(4)
            integer(c, row, data.readInt32LE(o))
            o += 4
            break
          case TypeCode.BIGINT:
            need(8)
            if (layout === "int64") out.setInt64Parts(c, row, data.readInt32LE(o), data.readInt32LE(o + 4))
            else bigInteger(c, row, data.readBigInt64LE(o))
            o += 8
            break
          case TypeCode.FIXED8:
            need(8)
            if (layout === "decimal64") out.setInt64Parts(c, row, data.readInt32LE(o), data.readInt32LE(o + 4))
            else decimal(c, row, data.readBigInt64LE(o), scales[c]!)
            o += 8
            break
          case TypeCode.FIXED12:
          case TypeCode.FIXED16: {
            const size = type === TypeCode.FIXED12 ? 12 : 16
            need(size)
            let v = 0n
            for (let i = size - 1; i >= 0; i--) v = (v << 8n) | BigInt(data[o + i]!)
            decimal(c, row, BigInt.asIntN(size * 8, v), scales[c]!)
            o += size
            break
          }
          case TypeCode.DECIMAL: {
            need(16)
            let m = 0n
            for (let i = 14; i >= 0; i--) m = (m << 8n) | BigInt(i === 14 ? data[o + i]! & 0x01 : data[o + i]!)
            const exp = (((data[o + 15]! & 0x7f) << 7) | (data[o + 14]! >> 1)) - 6176
            if ((data[o + 15]! & 0x80) !== 0) m = -m
            if (exp > 0) decimal(c, row, m * POW10[Math.min(exp, 39)]!, 0)
            else decimal(c, row, m, -exp)
            o += 16
            break
          }
          case TypeCode.REAL:
          case TypeCode.DOUBLE: {
            const size = type === TypeCode.REAL ? 4 : 8
            need(size)
            if (layout !== "float64" && layout !== "float32") throw new NotFast()
            out.setNumber(c, row, size === 4 ? data.readFloatLE(o) : data.readDoubleLE(o))
            o += size
            break
          }
          case TypeCode.BOOLEAN:
            need(1)
            if (data[o] !== 1) integer(c, row, data[o] === 2 ? 1 : 0)
            o += 1
            break
          case TypeCode.STRING:
          case TypeCode.NSTRING:
          case TypeCode.VARCHAR:
          case TypeCode.NVARCHAR:
          case TypeCode.CHAR:
          case TypeCode.NCHAR:
          case TypeCode.SHORTTEXT:
          case TypeCode.ALPHANUM:
          case TypeCode.BINARY:
          case TypeCode.VARBINARY:
          case TypeCode.BSTRING: {
            const len = readLengthPrefixed(data, o)
            o += lengthIndicatorSize(data[o]!)
            if (len === NULL_LENGTH) break
            const binary = type === TypeCode.BINARY || type === TypeCode.VARBINARY || type === TypeCode.BSTRING
            if (binary ? layout !== "blob" : layout !== "varchar") throw new NotFast()
            // Bytes that are not CESU-8 take the general path, which refuses them with HANA's error.
            const scan = binary ? CESU8_PLAIN : scanCesu8(data, o, o + len)
            if (scan === CESU8_PAIRS) out.setString(c, row, fromCesu8(data.subarray(o, o + len)))
            else if (scan === CESU8_PLAIN) out.setBytesFrom(c, row, data, o, len)
            else throw new NotFast()
            o += len
            break
          }
          case TypeCode.DAYDATE: {
            need(4)
            const v = data.readUInt32LE(o)
            o += 4
            if (v === 0 || v === 3652062) break
            if (layout !== "date") throw new NotFast()
            out.setNumber(c, row, epochDayOfHanaDay(v))
            break
          }
          case TypeCode.SECONDTIME: {
            need(4)
            const v = data.readInt32LE(o)
            o += 4
            if (v === 0 || v === 86402) break
            if (layout !== "time") throw new NotFast()
            out.setBigInt(c, row, BigInt(v - 1) * 1_000_000n)
            break
          }
          case TypeCode.SECONDDATE:
          case TypeCode.LONGDATE: {
            need(8)
            const low = data.readInt32LE(o)
            const high = data.readInt32LE(o + 4)
            if (layout === "uint64") {
              // The wire value is the ticks + 1; 0 and 3155380704000000001 are NULL.
              const v = data.readBigInt64LE(o)
              o += 8
              if (v !== 0n && v !== 3155380704000000001n) out.setBigInt(c, row, v - 1n)
              break
            }
            if (type === TypeCode.LONGDATE && layout === "timestamp" && high !== 0 && high !== LONGDATE_NULL_HIGH && setLongdateMicros(out, c, row, low, high)) {
              o += 8
              break
            }
            if (type === TypeCode.SECONDDATE && layout === "timestamp_s" && high >= 0 && high < 0x100) {
              const value = high * TWO_32 + (low >>> 0)
              const seconds = value - 1 - EPOCH_SECONDS
              if (seconds >= 0 && value !== 315538070401) {
                out.setInt64Parts(c, row, seconds % TWO_32, Math.floor(seconds / TWO_32))
                o += 8
                break
              }
            }
            const v = data.readBigInt64LE(o)
            o += 8
            if (v === 0n || v === 315538070401n || v === 3155380704000000001n) break
            const micros = microsOfLongdate(type === TypeCode.SECONDDATE ? (v - 1n) * 10_000_000n + 1n : v)
            if (layout === "timestamp") out.setBigInt(c, row, micros)
            else if (layout === "timestamp_s") {
              if (micros % 1_000_000n !== 0n) throw new NotFast()
              out.setBigInt(c, row, micros / 1_000_000n)
            } else throw new NotFast()
            break
          }
          default:
            // LOBs, DFV-1 DATE/TIME/TIMESTAMP and anything else: the general path.
            throw new NotFast()
        }
      }
    }
  } catch (e) {
    if (e instanceof NotFast) return undefined
    throw e
  }
  if (o !== data.length) return undefined
  return out
}

/**
 * The HANA error for a refused batch value, naming the column and the (1-based) batch row: 287 for NULL in a NOT
 * NULL column, 274 for a value longer than declared, 314 numeric overflow for digits beyond a DECIMAL's precision.
 */
export const batchError = (e: BulkInsertError): HanaError => {
  const where = `${decodeName(e.column)} (batch row ${e.row + 1})`
  switch (e.violation) {
    case "null":
      return new HanaError(287, "23000", `cannot insert NULL or update to NULL: ${where}`)
    case "length":
      return e.value === undefined
        ? new HanaError(274, "HY000", `inserted value too large for column: ${where}`)
        : valueTooLarge(decodeName(e.column), e.value, ` (batch row ${e.row + 1})`)
    default: {
      // The same 314 text as a single row's (number-errors.ts), with the batch row.
      const overflow = e.value !== undefined && e.type !== undefined ? numericOverflow(e.value, hanaType(e.type)) : numericOverflow()
      return new HanaError(overflow.code, overflow.sqlState, `${e.value === undefined ? `numeric overflow: ${decodeName(e.column)}` : overflow.message} (batch row ${e.row + 1})`)
    }
  }
}
