/**
 * The fast path of executeMany into `INSERT INTO t [(columns)] VALUES (:1, …, :n)`: the decoded bind rows are laid
 * out column-wise in the target columns' DuckDB storage layouts ({@link BulkRows}) for `Session.appendRows`, with
 * no SQL text or JSON per batch. Values it cannot lay out exactly (digits a DECIMAL column would round, text for a
 * number column, LOBs, …) and constraint violations send the batch back to the general path, which reports Oracle's
 * errors (ORA-01400, ORA-12899, ORA-01438) with the failing row's offset.
 */
import { DuckDBBlobValue, DuckDBTimestampTZValue, DuckDBTimestampValue } from "@duckdb/node-api"
import type { DuckDBValue } from "@duckdb/node-api"
import { BulkInsertError, BulkRows, columnInfo } from "../engine/index.ts"
import type { BulkColumn, ColumnLayout } from "../engine/index.ts"

/** Signals a value the column-wise layout cannot hold exactly. */
class NotExact extends Error {}

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

/** The unscaled value of `v` at `scale` fraction digits, when it has no more digits than that. */
const unscaled = (v: DuckDBValue, scale: number): bigint => {
  if (typeof v === "bigint") return v * 10n ** BigInt(scale)
  if (typeof v !== "number" || scale >= POW10.length) throw new NotExact()
  const u = Math.round(v * POW10[scale]!)
  if (!Number.isSafeInteger(u) || u / POW10[scale]! !== v) throw new NotExact()
  return BigInt(u)
}

const setCell = (out: BulkRows, c: number, row: number, layout: ColumnLayout, scale: number, v: DuckDBValue): void => {
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
      out.setBigInt(c, row, typeof v === "bigint" ? v : BigInt(integral(v)))
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
 * and types); undefined when a value needs the general path or breaks a constraint the layout checks.
 */
export const bulkRowsOfBinds = (rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, columns: ReadonlyArray<BulkColumn>): BulkRows | undefined => {
  const infos = columns.map((c) => columnInfo(c.name, c.type))
  if (infos.some((i) => i.layout === "other" || i.layout === "uint64")) return undefined
  const out = new BulkRows(columns, rows.length)
  const width = columns.length
  try {
    for (let row = 0; row < rows.length; row++) {
      const values = rows[row]!
      for (let c = 0; c < width; c++) {
        const v = values[c] ?? null
        if (v !== null) setCell(out, c, row, infos[c]!.layout, infos[c]!.scale, v)
      }
    }
  } catch (e) {
    if (e instanceof NotExact || e instanceof BulkInsertError) return undefined
    throw e
  }
  return out
}
