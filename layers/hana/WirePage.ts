/**
 * Decodes HANA result rows straight from the RESULT_SET part bytes into Arrow column builders: no JS row objects,
 * no intermediate strings for numbers, dates or timestamps. Cell layouts (no per-cell type byte; hdb
 * lib/protocol/Reader.js):
 * - TINYINT/SMALLINT/INT/BIGINT: [indicator 0 = NULL][value LE]; REAL/DOUBLE: IEEE LE, all 0xFF = NULL
 * - FIXED8/12/16: [indicator][8/12/16-byte two's complement unscaled LE]; DECIMAL: 16-byte decimal128
 * - character/binary: length indicator (≤245 one byte, 246 + i16, 247 + i32, 255 NULL) + bytes (CESU-8 text)
 * - BOOLEAN: 0 false, 1 NULL, 2 true
 * - DAYDATE u32 (NULL 3652062/0), SECONDTIME i32 (NULL 86402/0), SECONDDATE i64 (NULL 315538070401/0),
 *   LONGDATE i64 100 ns ticks since 0001-01-01 + 1 (NULL 3155380704000000001/0); DATE/TIME/TIMESTAMP: legacy 4/4/8
 * - LOBs: a descriptor with an inline chunk; content the chunk lacks is read beforehand ({@link scanLobs}).
 *
 * @since 0.1.0
 */
import type { ColumnBuilder, Page } from "../../src/arrow/index.ts"
import { ArrowAssemblyError } from "../../src/arrow/index.ts"
import type { LobCell } from "./DbTypes.ts"
import type { MappedColumn } from "./ReadTypes.ts"
import {
  type Chunk,
  cellStep,
  type ColumnDecoder,
  columnDecoder,
  defaultLobType,
  LOB,
  lobAt,
  lobSize,
  VARIABLE
} from "./WireColumns.ts"

export { epochDayOfHanaDay } from "./WireColumns.ts"

/** Rows whose cell offsets are found before their columns are decoded (their bytes stay in the CPU's cache). */
const CHUNK_ROWS = 1024

/**
 * Walks `count` rows from `o`, writing each cell's start to `starts` (row-major, then the end offset) and, for LOB
 * cells, the index in row order of each one whose content is not in the row to `lobRefs` (-1 otherwise), counting
 * from `lobIndex`. Returns the offset after the last row and the next LOB index.
 */
const walkCells = (
  buf: Buffer,
  o: number,
  count: number,
  steps: Int8Array,
  starts: Int32Array,
  lobRefs: Int32Array | undefined,
  lobIndex: number
): { offset: number; lobIndex: number } => {
  const width = steps.length
  let i = 0
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < width; c++) {
      starts[i] = o
      const step = steps[c]!
      if (step > 0) o += step
      else if (step === VARIABLE) {
        const b = buf[o]!
        if (b <= 245) o += 1 + b
        else if (b === 255) o += 1
        else if (b === 246) o += 3 + buf.readInt16LE(o + 1)
        else if (b === 247) o += 5 + buf.readInt32LE(o + 1)
        else throw new ArrowAssemblyError(`invalid length indicator ${b} in a HANA result row`)
      } else if (step === LOB) {
        if (lobRefs !== undefined) lobRefs[i] = buf[o + 1]! & 5 ? -1 : lobIndex++
        o += lobSize(buf, o)
      } else o += buf[o] === 0 ? 1 : 1 - step
      i++
    }
  }
  starts[i] = o
  return { offset: o, lobIndex }
}

const stepsOf = (columns: ReadonlyArray<MappedColumn>): Int8Array => Int8Array.from(columns.map((c) => cellStep(c.kind)))

/**
 * Finds, in row order, the LOB cells of a page whose content is not complete in the row (they need READ_LOB).
 *
 * @category decoding
 * @since 0.1.0
 */
export const scanLobs = (buf: Buffer, rows: number, columns: ReadonlyArray<MappedColumn>): Array<LobCell> => {
  const steps = stepsOf(columns)
  const defaults = columns.map(defaultLobType)
  const width = steps.length
  const out: Array<LobCell> = []
  const starts = new Int32Array(CHUNK_ROWS * width + 1)
  let o = 0
  for (let done = 0; done < rows;) {
    const count = Math.min(CHUNK_ROWS, rows - done)
    o = walkCells(buf, o, count, steps, starts, undefined, 0).offset
    for (let i = 0; i < count * width; i++) {
      const c = i % width
      if (steps[c] !== LOB) continue
      const lob = lobAt(buf, starts[i]!, defaults[c]!)
      if (lob.cell !== null && !lob.complete) out.push(lob.cell)
    }
    done += count
  }
  return out
}

/**
 * A page of `rows` rows in `buf`, decoded into builders on demand, a chunk of rows at a time: first the chunk's cell
 * offsets, then each column by the decoder chosen for its kind (WireColumns.ts). `lobs` holds, in row order, the full
 * content of the LOB cells {@link scanLobs} reported; `decoded` is called once the last row has been appended.
 *
 * @category decoding
 * @since 0.1.0
 */
export const hanaPage = (
  buf: Buffer,
  rows: number,
  columns: ReadonlyArray<MappedColumn>,
  lobs: ReadonlyArray<Buffer> = [],
  decoded?: () => void
): Page => {
  const steps = stepsOf(columns)
  const decoders: ReadonlyArray<ColumnDecoder> = columns.map(columnDecoder)
  const width = steps.length
  const chunkRows = Math.max(1, Math.min(CHUNK_ROWS, rows))
  const hasLobs = steps.includes(LOB)
  const chunk: Chunk = {
    buf,
    starts: new Int32Array(chunkRows * width + 1),
    width,
    lobRefs: new Int32Array(hasLobs ? chunkRows * width : 0),
    lobs
  }
  let offset = 0
  let row = 0
  let lobIndex = 0

  return {
    appendRows(builders: ReadonlyArray<ColumnBuilder>, maxRows: number): number {
      const total = Math.min(maxRows, rows - row)
      const bs = builders as ReadonlyArray<Parameters<ColumnDecoder>[0]>
      // room for the rows at once, not by doubling from the first batch's default 1,024 rows (each doubling a copy)
      for (let c = 0; c < width; c++) bs[c]!.reserve(total)
      for (let done = 0; done < total;) {
        const count = Math.min(chunkRows, total - done)
        const walked = walkCells(buf, offset, count, steps, chunk.starts, hasLobs ? chunk.lobRefs : undefined, lobIndex)
        for (let c = 0; c < width; c++) decoders[c]!(bs[c]!, chunk, c, count)
        offset = walked.offset
        lobIndex = walked.lobIndex
        done += count
      }
      row += total
      if (row === rows && total > 0) decoded?.()
      return total
    }
  }
}
