/**
 * A VECTOR's text as Oracle serializes it (AI Vector Search User's Guide 23ai, "FROM_VECTOR": `FROM_VECTOR(TO_VECTOR(
 * '[1, 2, 3]'))` is `[1.0E+000,2.0E+000,3.0E+000]`, a FLOAT32 1.1 `1.10000002E+000`): FLOAT32 and FLOAT64 elements in
 * scientific notation with the digits their binary value needs (9 significant digits for FLOAT32, 17 for FLOAT64),
 * trailing zeros dropped but one decimal kept, a signed three-digit exponent; INT8 elements as integers. This is what a
 * client that fetches a VECTOR column as a string or CLOB receives.
 */

/** One element in Oracle's scientific notation with `digits` significant digits at most. */
const scientific = (x: number, digits: number): string => {
  if (!Number.isFinite(x)) return x > 0 ? "Inf" : x < 0 ? "-Inf" : "NaN"
  const [mantissa, exponent] = x.toExponential(digits - 1).split("e") as [string, string]
  const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, ".0") : `${mantissa}.0`
  const e = Number(exponent)
  return `${trimmed}E${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(3, "0")}`
}

/** The text of a vector whose elements are `numbers`, stored as FLOAT32, FLOAT64 or INT8. */
export const vectorText = (numbers: ReadonlyArray<number>, format: "FLOAT32" | "FLOAT64" | "INT8"): string => {
  if (format === "INT8") return `[${numbers.map((n) => String(Math.trunc(n))).join(",")}]`
  const digits = format === "FLOAT32" ? 9 : 17
  return `[${numbers.map((n) => scientific(format === "FLOAT32" ? Math.fround(n) : n, digits)).join(",")}]`
}
