/**
 * TO_BINARY_DOUBLE(expr) and TO_BINARY_FLOAT(expr) (SQL Language Reference, "TO_BINARY_DOUBLE", "TO_BINARY_FLOAT"):
 * a number, or text that is one ('INF', '-INF' and 'NaN' included), as DuckDB's DOUBLE / FLOAT, which the server
 * describes as BINARY_DOUBLE / BINARY_FLOAT; text that is no number fails as a conversion (ORA-01722). The forms with
 * a format model or a `DEFAULT ... ON CONVERSION ERROR` clause reach the translator rewritten (conversion-errors.ts).
 */

/** The DuckDB SQL of `name(args)` (arguments translated), or undefined for other calls and forms. */
export const binaryConversionSql = (name: string, args: ReadonlyArray<string>): string | undefined => {
  if ((name !== "TO_BINARY_DOUBLE" && name !== "TO_BINARY_FLOAT") || args.length !== 1 || /\bDEFAULT\b/i.test(args[0]!)) return undefined
  return `CAST(${args[0]} AS ${name === "TO_BINARY_DOUBLE" ? "DOUBLE" : "FLOAT"})`
}
