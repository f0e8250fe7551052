/**
 * DuckDB scalar functions written in TypeScript, as both test servers register them: a function computed row by
 * row over its arguments' values.
 */
import { DuckDBScalarFunction } from "@duckdb/node-api"
import type { DuckDBScalarMainFunction, DuckDBType, DuckDBValue } from "@duckdb/node-api"

/** One function: each row's non-NULL arguments → a value (NULL arguments give NULL); a thrown error's message is the SQL error. */
export const rowwise =
  (compute: (args: ReadonlyArray<DuckDBValue>) => DuckDBValue): DuckDBScalarMainFunction =>
  (info, input, output) => {
    const vectors = Array.from({ length: input.columnCount }, (_, c) => input.getColumnVector(c))
    try {
      for (let row = 0; row < input.rowCount; row++) {
        const args = vectors.map((v) => v.getItem(row))
        output.setItem(row, args.some((a) => a === null) ? null : compute(args))
      }
      output.flush()
    } catch (e) {
      info.setError(e instanceof Error ? e.message : String(e))
    }
  }

/** The scalar function `name(parameterTypes) → returnType` computed by {@link rowwise}. */
export const rowwiseFunction = (
  name: string,
  parameterTypes: ReadonlyArray<DuckDBType>,
  returnType: DuckDBType,
  compute: (args: ReadonlyArray<DuckDBValue>) => DuckDBValue
): DuckDBScalarFunction => DuckDBScalarFunction.create({ name, parameterTypes, returnType, mainFunction: rowwise(compute) })
