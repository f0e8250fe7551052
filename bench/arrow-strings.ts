/**
 * 1M utf8 values of 20 characters assembled into one Arrow column: our VarBinaryBuilder (offsets + Buffer
 * written with Node's UTF-8 writer) against apache-arrow's per-value Utf8 builder, in the same run.
 * ratio = ours / baseline; the target is <= 0.2 (at least 5x faster).
 */
import { makeBuilder, makeVector, Utf8, type Vector } from "apache-arrow"
import { VarBinaryBuilder } from "../src/arrow/index.ts"
import { compare } from "./run.ts"

const ROWS = 1_000_000
const WIDTH = 20

/** 20-character strings, ASCII (as most identifiers/codes are), each distinct. */
const makeStrings = (): Array<string> =>
  Array.from({ length: ROWS }, (_, i) => `value-${i.toString(36)}-`.padEnd(WIDTH, "abcdefghij").slice(0, WIDTH))

const ours = (values: ReadonlyArray<string>): Vector<Utf8> => {
  const builder = new VarBinaryBuilder(new Utf8())
  for (let i = 0; i < values.length; i++) builder.appendString(values[i]!)
  return makeVector(builder.finish())
}

const baseline = (values: ReadonlyArray<string>): Vector<Utf8> => {
  const builder = makeBuilder({ type: new Utf8(), nullValues: [null] })
  for (let i = 0; i < values.length; i++) builder.append(values[i]!)
  return builder.finish().toVector()
}

/** Runs the comparison after checking both sides build the same column. */
export const run = async (): Promise<Record<string, unknown>> => {
  const values = makeStrings()
  const a = ours(values)
  const b = baseline(values)
  for (const i of [0, 1, 12345, ROWS - 1]) {
    if (a.get(i) !== values[i] || b.get(i) !== values[i]) throw new Error(`mismatch at row ${i}`)
  }
  if (a.length !== ROWS || b.length !== ROWS) throw new Error("wrong length")
  const result = compare(() => ours(values), () => baseline(values), { warmup: 2, runs: 7 })
  return {
    bench: "arrow-strings",
    measured: `${ROWS} x ${WIDTH}-char ASCII strings into one utf8 column: VarBinaryBuilder.appendString + finish ` +
      `vs apache-arrow makeBuilder(Utf8).append + finish().toVector(); median of 7 alternating runs after 2 warm-ups`,
    rows: ROWS,
    target: "ratio <= 0.2",
    node: process.version,
    ...result
  }
}
