/**
 * TO_CHAR(x, 'model') of a value whose type the translator cannot tell from the statement's text (a subquery's or
 * view's column, a function's result, a CASE): Oracle picks TO_CHAR (number) or TO_CHAR (datetime) by the argument's
 * type (SQL Language Reference, "TO_CHAR (number)": "n can be of type NUMBER, BINARY_FLOAT, or BINARY_DOUBLE";
 * "TO_CHAR (datetime)"), so the translated SQL asks DuckDB for the value's type where it runs: a number is formatted by
 * the number model (ORA-01481 where it is none), anything else by the datetime model (ORA-01821 where it is none).
 */
import { checkOutputFormat } from "./datetime-format-checks.ts"

/** DuckDB's numeric types (typeof's names; DECIMAL(p,s) by its prefix). */
const NUMERIC_TYPES = ["TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE"]

/** DuckDB's datetime types (typeof's names). */
const DATETIME_TYPES = ["DATE", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP", "TIMESTAMP_NS", "TIMESTAMP WITH TIME ZONE", "TIME", "INTERVAL"]

/**
 * The SQL raising ORA-01821 where the datetime branch is taken with a model that is no datetime model (its message
 * depends on the value `x`, so that the engine does not raise it while folding constants, before any row takes it).
 */
export const datetimeModelError = (x: string): string => `error('ORA-01821: date format not recognized' || left(CAST(${x} AS VARCHAR), 0))`

/** Whether `model` is a datetime format model TO_CHAR accepts. */
export const datetimeModelValid = (model: string): boolean => {
  try {
    checkOutputFormat(model)
    return true
  } catch {
    return false
  }
}

/**
 * `asNumber` where the value `x` (DuckDB SQL) is of a numeric type, `asDatetime` where it is a datetime; a value of
 * another type (an unbounded NUMBER is decimal text: number.ts) by the model, as a number where `textAsNumber`.
 */
export const toCharByType = (x: string, asNumber: string, asDatetime: string, textAsNumber: boolean): string =>
  `CASE WHEN typeof(${x}) IN (${NUMERIC_TYPES.map((t) => `'${t}'`).join(", ")}) OR typeof(${x}) LIKE 'DECIMAL%'${textAsNumber ? ` OR typeof(${x}) NOT IN (${DATETIME_TYPES.map((t) => `'${t}'`).join(", ")})` : ""} THEN ${asNumber} ELSE ${asDatetime} END`
