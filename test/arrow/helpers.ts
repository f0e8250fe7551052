/** Shared helpers for the Arrow assembly tests: IPC round trips and raw storage readers. */
import { type DataType, RecordBatch, Table, tableFromIPC, tableToIPC, type Vector } from "apache-arrow"
import { type ColumnBuilder, makeColumnBuilder, recordBatchOf, schemaOf } from "../../src/arrow/index.ts"

/** Appends `values` with the generic `append`, finishes, and returns the column after an IPC round trip. */
export const roundTrip = (type: DataType, values: ReadonlyArray<unknown>, initialCapacity = 2): Vector => {
  const builder = makeColumnBuilder(type, { name: "c", initialCapacity })
  for (const value of values) builder.append(value)
  return roundTripBuilder(builder)
}

/** Finishes `builder` into a one-column batch, writes it to IPC and reads it back. */
export const roundTripBuilder = (builder: ColumnBuilder): Vector => {
  const length = builder.length
  const data = builder.finish()
  const batch = recordBatchOf(schemaOf([{ name: "c", type: builder.type }]), [data], length)
  return ipcRoundTrip(batch).getChild("c")!
}

/** Writes batches to the IPC stream format and reads them back as one table. */
export const ipcRoundTrip = (...batches: ReadonlyArray<RecordBatch>): Table => {
  const table = new Table(batches as Array<RecordBatch>)
  return tableFromIPC(tableToIPC(table, "stream"))
}

/** Reads row `i` of a vector as stored: `null` when invalid, else the raw element(s) of its values buffer. */
export const stored = (vector: Vector, i: number): unknown => {
  if (!vector.isValid(i)) return null
  let offset = i
  for (const data of vector.data) {
    if (offset < data.length) {
      const stride = data.stride
      const index = data.offset + offset
      return stride === 1 ? data.values[index] : Array.from(data.values.subarray(index * stride, (index + 1) * stride))
    }
    offset -= data.length
  }
  throw new Error(`row ${i} out of range`)
}

/** All rows of a vector as stored (see {@link stored}). */
export const storedAll = (vector: Vector): Array<unknown> => Array.from({ length: vector.length }, (_, i) => stored(vector, i))
