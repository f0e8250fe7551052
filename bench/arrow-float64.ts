/**
 * 1M float64 values assembled into one Arrow column, starting from what a driver has after decoding a page: a JS
 * number[] (not a Float64Array, which apache-arrow would wrap without any work). Ours: Float64Builder.appendNumber
 * per value + finish. Baseline: apache-arrow vectorFromArray(number[], new Float64()) (type given, so the baseline
 * skips type inference). ratio = ours / baseline; the target is <= 1.0.
 */
import { Float64, makeVector, vectorFromArray, type Vector } from "apache-arrow"
import { Float64Builder } from "../src/arrow/index.ts"
import { compare } from "./run.ts"

const ROWS = 1_000_000

const ours = (values: ReadonlyArray<number>): Vector<Float64> => {
  const builder = new Float64Builder(new Float64())
  for (let i = 0; i < values.length; i++) builder.appendNumber(values[i]!)
  return makeVector(builder.finish())
}

const baseline = (values: ReadonlyArray<number>): Vector<Float64> => vectorFromArray(values as Array<number>, new Float64())

/** Runs the comparison after checking both sides build the same column. */
export const run = async (): Promise<Record<string, unknown>> => {
  let seed = 42
  const values = Array.from({ length: ROWS }, () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return (seed / 2147483648) * 1e6 - 5e5
  })
  const a = ours(values)
  const b = baseline(values)
  for (const i of [0, 1, 54321, ROWS - 1]) {
    if (a.get(i) !== values[i] || b.get(i) !== values[i]) throw new Error(`mismatch at row ${i}`)
  }
  if (a.length !== ROWS || b.length !== ROWS) throw new Error("wrong length")
  const result = compare(() => ours(values), () => baseline(values), { warmup: 2, runs: 7 })
  // Reference point, not part of the ratio: the cheapest possible copy of number[] into a Float64Array.
  const floor = compare(() => makeVector(Float64Array.from(values)), () => baseline(values), { warmup: 1, runs: 5 })
  return {
    bench: "arrow-float64",
    measured: `${ROWS} float64 from a JS number[] into one double column: Float64Builder.appendNumber + finish ` +
      `vs apache-arrow vectorFromArray(number[], Float64); median of 7 alternating runs after 2 warm-ups`,
    rows: ROWS,
    target: "ratio <= 1.0",
    node: process.version,
    float64array_from_ms: floor.ours_ms,
    ...result
  }
}
