/**
 * A deterministic TPC-H `lineitem`-like dataset as a stream of Arrow record batches: the same `seed` and row count
 * always give the same rows, and each batch is generated on demand (the whole table is never held in memory).
 */
import * as Arrow from "apache-arrow"
import { Stream } from "effect"
import { type ColumnBuilder, makeFieldBuilder, recordBatchOf } from "../../src/arrow/index.ts"

/** The 16 columns of TPC-H `lineitem`, with the Arrow types both drivers ingest and read back. */
export const lineitemSchema = new Arrow.Schema([
  new Arrow.Field("L_ORDERKEY", new Arrow.Int64(), false),
  new Arrow.Field("L_PARTKEY", new Arrow.Int64(), false),
  new Arrow.Field("L_SUPPKEY", new Arrow.Int64(), false),
  new Arrow.Field("L_LINENUMBER", new Arrow.Int32(), false),
  new Arrow.Field("L_QUANTITY", new Arrow.Decimal(2, 15, 128), false),
  new Arrow.Field("L_EXTENDEDPRICE", new Arrow.Decimal(2, 15, 128), false),
  new Arrow.Field("L_DISCOUNT", new Arrow.Decimal(2, 15, 128), false),
  new Arrow.Field("L_TAX", new Arrow.Decimal(2, 15, 128), false),
  new Arrow.Field("L_RETURNFLAG", new Arrow.Utf8(), false),
  new Arrow.Field("L_LINESTATUS", new Arrow.Utf8(), false),
  new Arrow.Field("L_SHIPDATE", new Arrow.DateDay(), false),
  new Arrow.Field("L_COMMITDATE", new Arrow.DateDay(), false),
  new Arrow.Field("L_RECEIPTDATE", new Arrow.DateDay(), false),
  new Arrow.Field("L_SHIPINSTRUCT", new Arrow.Utf8(), false),
  new Arrow.Field("L_SHIPMODE", new Arrow.Utf8(), false),
  // Nullable, and every 97th row is NULL, so the checks cover NULLs too.
  new Arrow.Field("L_COMMENT", new Arrow.Utf8(), true)
])

/** Options of {@link lineitem}. */
export interface LineitemOptions {
  readonly rows: number
  readonly seed: number
  /** Rows per generated batch (default 10,000). */
  readonly batchRows?: number | undefined
}

const SHIP_INSTRUCTIONS = ["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"]
const SHIP_MODES = ["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"]
const WORDS = ["carefully", "final", "deposits", "sleep", "quickly", "ironic", "pinto beans", "furiously", "regular",
  "accounts", "haggle", "blithely", "express", "requests", "détente", "bold", "packages", "among", "the", "theodolites"]
/** 1992-01-02 as days since 1970-01-01, the first TPC-H ship date. */
const FIRST_SHIP_DAY = 8036

/** mulberry32: a small, fast, well-distributed 32-bit PRNG; returns floats in [0, 1). */
const prng = (seed: number): () => number => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <A>(random: () => number, values: ReadonlyArray<A>): A => values[Math.floor(random() * values.length)]!

/** One builder per {@link lineitemSchema} field, in order. */
type Columns = [
  ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder,
  ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder, ColumnBuilder
]

/** Rows `first` to `first + count - 1`: a batch depends only on the seed and its position. */
export const lineitemBatch = (seed: number, first: number, count: number): Arrow.RecordBatch => {
  const random = prng(Math.imul(seed ^ 0x9e3779b9, 2654435761) ^ first)
  const builders = lineitemSchema.fields.map((field) => makeFieldBuilder(field, { initialCapacity: count }))
  const [orderKey, partKey, suppKey, lineNumber, quantity, price, discount, tax, returnFlag, lineStatus, shipDate,
    commitDate, receiptDate, shipInstruct, shipMode, comment] = builders as Columns
  for (let row = first; row < first + count; row++) {
    const qty = 1 + Math.floor(random() * 50)
    const ship = FIRST_SHIP_DAY + Math.floor(random() * 2500)
    orderKey.append(BigInt(1 + Math.floor(row / 4)))
    partKey.append(BigInt(1 + Math.floor(random() * 200_000)))
    suppKey.append(BigInt(1 + Math.floor(random() * 10_000)))
    lineNumber.append(1 + (row % 4))
    quantity.append(String(qty))
    price.append(((qty * (90_000 + Math.floor(random() * 110_000))) / 100).toFixed(2))
    discount.append((Math.floor(random() * 11) / 100).toFixed(2))
    tax.append((Math.floor(random() * 9) / 100).toFixed(2))
    returnFlag.append(pick(random, ["R", "A", "N"]))
    lineStatus.append(ship > 9300 ? "O" : "F")
    shipDate.append(ship)
    commitDate.append(ship - 30 + Math.floor(random() * 61))
    receiptDate.append(ship + 1 + Math.floor(random() * 30))
    shipInstruct.append(pick(random, SHIP_INSTRUCTIONS))
    shipMode.append(pick(random, SHIP_MODES))
    if (row % 97 === 0) comment.appendNull()
    else {
      const words = 2 + Math.floor(random() * 5)
      let text = pick(random, WORDS)
      for (let w = 1; w < words; w++) text += ` ${pick(random, WORDS)}`
      comment.append(text)
    }
  }
  return recordBatchOf(lineitemSchema, builders.map((b) => b.finish()), count)
}

/** The dataset as a stream of batches, generated one at a time as the consumer pulls them. */
export const lineitem = (options: LineitemOptions): Stream.Stream<Arrow.RecordBatch> => {
  const batchRows = options.batchRows ?? 10_000
  const batches = Math.ceil(options.rows / batchRows)
  // Chunks of one index, so each batch is generated only when pulled.
  return Stream.range(0, batches - 1, 1).pipe(
    Stream.map((i) => lineitemBatch(options.seed, i * batchRows, Math.min(batchRows, options.rows - i * batchRows)))
  )
}
