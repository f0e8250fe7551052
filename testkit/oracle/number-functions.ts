/**
 * DuckDB scalar functions over NUMBER values without precision, which the server stores as their exact decimal
 * text (DuckDB has no decimal type wide enough for 40 digits at exponents 1E-130 .. 1E125; see README.md). The
 * translator (translate.ts) routes arithmetic, comparisons, ORDER BY and aggregates of such columns through them, so
 * that they compute on every digit as Oracle's decimal NUMBER arithmetic does. Results are typed `VARCHAR` with the
 * alias {@link EXACT_NUMBER_ALIAS}, which describes them as NUMBER (types.ts inferFromDuck).
 */
import { DuckDBVarCharType, INTEGER, LIST, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBListValue, DuckDBScalarFunction, DuckDBValue } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { formatNumberText, parseNumber } from "./number-format.ts"
import { acos, asin, atan, atan2, cos, cosh, sin, sinh, tan, tanh } from "./decimal-trig.ts"
import { abs, add, compare, type Decimal, decimalOf, divide, exp, extreme, fitToPrecision, integerOf, ln, log, mod, multiply, numberText, orderKey, power, roundTo, roundToDigits, type RoundingMode, sign, sqrt, subtract } from "./decimal.ts"

/** Alias of the DuckDB VARCHAR type the functions return exact NUMBER results in. */
export const EXACT_NUMBER_ALIAS = "ORA_NUMBER"

const exactNumber = new DuckDBVarCharType(EXACT_NUMBER_ALIAS)

const dec = (v: DuckDBValue): Decimal => decimalOf(String(v))
const binary = (name: string, op: (a: Decimal, b: Decimal) => Decimal) =>
  fn(name, [VARCHAR, VARCHAR], exactNumber, ([a, b]) => numberText(op(dec(a!), dec(b!))))

/** Non-NULL list elements as decimals. */
const elements = (v: DuckDBValue): Array<Decimal> =>
  (v as DuckDBListValue).items.filter((x) => x !== null).map(dec)

const unary = (name: string, op: (a: Decimal) => Decimal) => fn(name, [VARCHAR], exactNumber, ([a]) => numberText(op(dec(a!))))

/** ROUND / TRUNC / CEIL / FLOOR to a number of places (the second argument's integer part). */
const rounding = (name: string, mode: RoundingMode) =>
  fn(name, [VARCHAR, VARCHAR], exactNumber, ([a, places]) => numberText(roundTo(dec(a!), integerOf(dec(places!)), mode)))

/** GREATEST / LEAST over `list_value(...)`: NULL when any argument is NULL, as Oracle's. */
const extremeOf = (name: string, direction: 1 | -1) =>
  fn(name, [LIST(VARCHAR)], exactNumber, ([a]) => {
    const items = (a as DuckDBListValue).items
    return items.some((x) => x === null) ? null : numberText(extreme(items.map(dec), direction))
  })

const sum = (v: DuckDBValue): Decimal | undefined => {
  const xs = elements(v)
  return xs.length === 0 ? undefined : xs.reduce(add)
}

/** The functions, by the names the translator uses. */
const functions = (): Array<DuckDBScalarFunction> => [
  // the exact value of any number's text, in Oracle's TO_CHAR form (ORA-01722 for text that is not a number)
  fn("ora_number", [VARCHAR], exactNumber, ([a]) => numberText(dec(a!))),
  // the value rounded to a number of significant digits (a FLOAT(b) column's, types.ts floatDecimalDigits)
  fn("ora_number_digits", [VARCHAR, INTEGER], exactNumber, ([a, digits]) => numberText(roundToDigits(dec(a!), Number(digits)))),
  // the value as a NUMBER(p,s) column stores it (a negative scale's: types.ts numberType), ORA-01438 when too large
  fn("ora_number_fit", [VARCHAR, INTEGER, INTEGER], exactNumber, ([a, p, s]) => numberText(fitToPrecision(dec(a!), Number(p), Number(s)))),
  fn("ora_number_key", [VARCHAR], VARCHAR, ([a]) => orderKey(dec(a!))),
  // TO_CHAR / TO_NUMBER with a number format model (number-format.ts), the third argument NLS_NUMERIC_CHARACTERS;
  // an empty text is NULL, as Oracle's
  fn("ora_number_to_char", [VARCHAR, VARCHAR, VARCHAR], VARCHAR, ([a, model, nls]) => formatNumberText(String(a), String(model), String(nls)) || null),
  fn("ora_number_from_char", [VARCHAR, VARCHAR, VARCHAR], exactNumber, ([a, model, nls]) => parseNumber(String(a), String(model), String(nls))),
  fn("ora_number_cmp", [VARCHAR, VARCHAR], INTEGER, ([a, b]) => compare(dec(a!), dec(b!))),
  binary("ora_number_add", add),
  binary("ora_number_sub", subtract),
  binary("ora_number_mul", multiply),
  binary("ora_number_div", divide),
  binary("ora_number_mod", mod),
  binary("ora_number_power", power),
  rounding("ora_number_round", "round"),
  rounding("ora_number_trunc", "trunc"),
  unary("ora_number_ceil", (a) => roundTo(a, 0, "ceil")),
  unary("ora_number_floor", (a) => roundTo(a, 0, "floor")),
  unary("ora_number_abs", abs),
  unary("ora_number_sqrt", sqrt),
  unary("ora_number_exp", exp),
  unary("ora_number_ln", ln),
  binary("ora_number_log", log),
  // SIN .. TANH in decimal to NUMBER's digits (decimal-trig.ts)
  unary("ora_number_sin", sin),
  unary("ora_number_cos", cos),
  unary("ora_number_tan", tan),
  unary("ora_number_asin", asin),
  unary("ora_number_acos", acos),
  unary("ora_number_atan", atan),
  binary("ora_number_atan2", atan2),
  unary("ora_number_sinh", sinh),
  unary("ora_number_cosh", cosh),
  unary("ora_number_tanh", tanh),
  unary("ora_number_sign", (a) => decimalOf(String(sign(a)))),
  extremeOf("ora_number_greatest", 1),
  extremeOf("ora_number_least", -1),
  // SUM / AVG over `list(x)`: NULL for no (non-NULL) values, as the aggregates give
  fn("ora_number_sum", [LIST(VARCHAR)], exactNumber, ([a]) => {
    const s = sum(a!)
    return s === undefined ? null : numberText(s)
  }),
  fn("ora_number_avg", [LIST(VARCHAR)], exactNumber, ([a]) => {
    const s = sum(a!)
    return s === undefined ? null : numberText(divide(s, decimalOf(String(elements(a!).length))))
  })
]

/** Registers the functions in the database `connection` belongs to (DuckDB keeps them in its system catalog). */
export const registerNumberFunctions = (connection: DuckDBConnection): void => {
  for (const f of functions()) connection.registerScalarFunction(f)
}
