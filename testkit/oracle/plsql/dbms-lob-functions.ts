/**
 * DBMS_LOB's constants and the functions a PL/SQL expression calls that need the locator, not only its value
 * (Oracle Database PL/SQL Packages and Types Reference, DBMS_LOB): ISTEMPORARY, ISOPEN, GETCHUNKSIZE and COMPARE.
 * GETLENGTH, SUBSTR and INSTR are SQL functions (lob-functions.ts).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { isKw, isOp } from "../lexer.ts"
import { compareRanges, LOB_CHUNK_SIZE } from "../lob-functions.ts"
import { lobValue, type LobValue } from "../plsql-lobs.ts"
import { argumentsByName, wrongArguments } from "./arguments.ts"
import type { Expr } from "./ast.ts"
import type { CallContext } from "./context.ts"
import { isTemporaryLob, locatorKeyOf } from "./lob-locators.ts"
import { isCursorValue } from "./row-reader.ts"

/** DBMS_LOB.LOBMAXSIZE, the largest amount or offset (2^64 - 1: held as the nearest double). */
export const LOBMAXSIZE = 18446744073709551615

/** The package's constants (`DBMS_LOB.LOB_READONLY`). */
export const DBMS_LOB_CONSTANTS: ReadonlyMap<string, number> = new Map([
  ["FILE_READONLY", 0],
  ["LOB_READONLY", 0],
  ["LOB_READWRITE", 1],
  ["SESSION", 10],
  ["CALL", 12],
  ["LOBMAXSIZE", LOBMAXSIZE],
  ["DEFAULT_CSID", 0],
  ["DEFAULT_LANG_CTX", 0],
  ["NO_WARNING", 0],
  ["WARN_INCONVERTIBLE_CHAR", 1]
])


const FUNCTIONS = new Set(["ISTEMPORARY", "ISOPEN", "GETCHUNKSIZE", "COMPARE"])
/** SQL's functions (lob-functions.ts), made here only on a NULL variable, whose untyped NULL SQL cannot resolve. */
const SQL_FUNCTIONS = new Set(["GETLENGTH", "SUBSTR", "INSTR"])

/**
 * `[SYS.]DBMS_LOB.f(` at `k` for a function of this module, or GETLENGTH / SUBSTR / INSTR of a NULL variable
 * (NULL, as DBMS_LOB documents for a NULL LOB): its name and the index of its name token.
 */
export const dbmsLobCallAt = (ctx: CallContext, expr: Expr, k: number): { readonly name: string; readonly end: number } | undefined => {
  const at = isKw(expr[k], "SYS") && isOp(expr[k + 1], ".") && !isOp(expr[k - 1], ".") ? k + 2 : k
  if (!isKw(expr[at], "DBMS_LOB") || (at === k && isOp(expr[k - 1], ".")) || !isOp(expr[at + 1], ".") || !isOp(expr[at + 3], "(")) return undefined
  const name = expr[at + 2]?.value.toUpperCase()
  if (name === undefined) return undefined
  if (FUNCTIONS.has(name)) return { name, end: at + 2 }
  const first = expr[at + 4]
  const nullVariable = first !== undefined && (isOp(expr[at + 5], ",") || isOp(expr[at + 5], ")")) && ctx.valueOf([first]) === null
  return SQL_FUNCTIONS.has(name) && nullVariable ? { name, end: at + 2 } : undefined
}

/** The variable or bind an argument names, undefined for any other expression. */
const named = async (ctx: CallContext, a: Expr): Promise<{ readonly key: string; readonly value: DuckDBValue } | undefined> => {
  const key = await locatorKeyOf(ctx, a)
  const value = key === undefined ? undefined : ctx.valueOf(a)
  return key === undefined || value === undefined || isCursorValue(value) ? undefined : { key, value }
}

/** A LOB's text or bytes, as {@link compareRanges} compares them. */
const rangeOf = (v: LobValue): string | Buffer => (v.kind === "clob" ? v.text : v.bytes)

/** `DBMS_LOB.name(args)` of a PL/SQL expression, for the names {@link dbmsLobCallAt} finds. */
export const dbmsLobFunction = async (ctx: CallContext, name: string, args: ReadonlyArray<Expr>): Promise<DuckDBValue> => {
  if (name === "COMPARE") {
    if (args.length < 2 || args.length > 5) throw wrongArguments(name)
    const p = argumentsByName(args, ["LOB_1", "LOB_2", "AMOUNT", "OFFSET_1", "OFFSET_2"])
    const value = async (key: string, fallback: DuckDBValue) => {
      const a = p.get(key)
      return a === undefined ? fallback : await ctx.evaluate(a)
    }
    const [a, b] = [await value("LOB_1", null), await value("LOB_2", null)]
    const [amount, o1, o2] = [Number(await value("AMOUNT", LOBMAXSIZE)), Number(await value("OFFSET_1", 1)), Number(await value("OFFSET_2", 1))]
    // NULL for a NULL LOB, or an amount or offset below 1 (DBMS_LOB, "COMPARE Functions": Return Values)
    if (a === null || b === null) return null
    const order = compareRanges(rangeOf(lobValue(a)), rangeOf(lobValue(b)), amount, o1, o2)
    return order === null ? null : Number(order)
  }
  if (args.length !== 1 && !SQL_FUNCTIONS.has(name)) throw wrongArguments(name)
  const locator = await named(ctx, args[0]!)
  const value = locator?.value ?? (await ctx.evaluate(args[0]!))
  if (value === null || SQL_FUNCTIONS.has(name)) return null
  switch (name) {
    case "ISTEMPORARY":
      // a LOB an expression computes (TO_CLOB, a concatenation) is a temporary one
      return locator === undefined || isTemporaryLob(ctx.lobs.get(locator.key), value) ? 1 : 0
    case "ISOPEN":
      return locator !== undefined && ctx.lobs.get(locator.key)?.opened !== undefined ? 1 : 0
    default:
      return LOB_CHUNK_SIZE
  }
}
