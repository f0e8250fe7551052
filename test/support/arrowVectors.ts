/**
 * Arrow vectors built from raw buffers, for data that apache-arrow's builders would not produce (decimals from
 * unscaled values, utf8 and string_view columns holding bytes that are not valid UTF-8).
 */
import * as Arrow from "apache-arrow"

/** A DECIMAL(precision, scale) column from unscaled values (1.23 at scale 2 is 123n). */
export const decimals = (precision: number, scale: number, unscaled: Array<bigint>): Arrow.Vector => {
  const words = new Uint32Array(unscaled.length * 4)
  unscaled.forEach((v, i) => {
    const bits = BigInt.asUintN(128, v)
    for (let w = 0; w < 4; w++) words[i * 4 + w] = Number((bits >> BigInt(32 * w)) & 0xffffffffn)
  })
  return Arrow.makeVector(Arrow.makeData({ type: new Arrow.Decimal(scale, precision, 128), length: unscaled.length, data: words }))
}

/** A utf8 column from raw byte values, which need not be valid UTF-8. */
export const rawUtf8 = (values: Array<Array<number>>): Arrow.Vector => {
  const offsets = new Int32Array(values.length + 1)
  values.forEach((v, i) => (offsets[i + 1] = offsets[i]! + v.length))
  return Arrow.makeVector(
    Arrow.makeData({ type: new Arrow.Utf8(), length: values.length, valueOffsets: offsets, data: Uint8Array.from(values.flat()) })
  )
}

/** A string_view column from raw byte values, which need not be valid UTF-8: up to 12 bytes inline, longer ones in one variadic buffer. */
export const rawUtf8View = (values: Array<Array<number>>): Arrow.Vector => {
  const views = new Uint8Array(values.length * 16)
  const view = new DataView(views.buffer)
  const long = values.filter((v) => v.length > 12).flat()
  let offset = 0
  values.forEach((v, i) => {
    view.setInt32(i * 16, v.length, true)
    if (v.length <= 12) return views.set(v, i * 16 + 4)
    views.set(v.slice(0, 4), i * 16 + 4)
    view.setInt32(i * 16 + 8, 0, true)
    view.setInt32(i * 16 + 12, offset, true)
    offset += v.length
  })
  return Arrow.makeVector(
    Arrow.makeData({ type: new Arrow.Utf8View(), length: values.length, views, variadicBuffers: [Uint8Array.from(long)] })
  )
}
