/**
 * VECTOR values as images on the wire, by node-oracledb's own codec (lib/impl/datahandlers/vector.js), reused rather
 * than written again.
 */
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
const vectorCodec = require("oracledb/lib/impl/datahandlers/vector.js") as {
  VectorEncoder: new () => { encode(value: unknown): Buffer }
  VectorDecoder: new (buf: Buffer) => { decode(): unknown }
}

/** Encodes a typed array (Float32Array, Float64Array, Int8Array) as a VECTOR image. */
export const encodeVector = (value: Float32Array | Float64Array | Int8Array): Buffer => new vectorCodec.VectorEncoder().encode(value)
/** Decodes a VECTOR image to a typed array. */
export const decodeVector = (buf: Buffer): unknown => new vectorCodec.VectorDecoder(buf).decode()
