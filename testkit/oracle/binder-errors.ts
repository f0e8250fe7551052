/**
 * DuckDB catalog and binder failures mapped onto the ORA- errors Oracle raises for the same mistakes, for every form
 * of name. DuckDB prints catalog names unquoted (`Table with name $m$y $t$a$b$l$e does not exist!`) or quoted, and
 * the server's encoded names (names.ts) may hold blanks, dots and any other character a quoted Oracle identifier
 * may, so a name runs up to the words that follow it, not up to the first blank.
 *
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-00904/,
 * ora-00902, ora-00913, ora-00918, ora-00932, ora-00942, ora-00947, ora-00979, ora-01785, ora-01789, ora-02289).
 */
import { ora, OraError } from "./errors.ts"
import { functionCallError } from "./function-arguments.ts"
import type { OracleVersion } from "./errors.ts"

/** A name as DuckDB prints it: quoted (`"a b"`) or bare, ending where the message's own words go on. */
const NAME = String.raw`"((?:[^"]|"")+)"|(.+?)`
const named = (m: RegExpMatchArray, at: number): string => (m[at] ?? m[at + 1] ?? "").replace(/""/g, '"')

/** DuckDB's type names in an argument list, as Oracle names the data types in ORA-00932. */
const oracleTypeName = (duck: string): string => {
  const t = duck.toUpperCase()
  if (/CHAR|STRING|TEXT/.test(t)) return "CHAR"
  if (/TIMESTAMP.*TZ|TIME ZONE/.test(t)) return "TIMESTAMP WITH TIME ZONE"
  // the server keeps Oracle DATE (seconds, no fraction) as DuckDB TIMESTAMP_S
  if (t === "TIMESTAMP_S") return "DATE"
  if (/TIMESTAMP/.test(t)) return "TIMESTAMP"
  if (/DATE/.test(t)) return "DATE"
  if (/INTERVAL/.test(t)) return "INTERVAL"
  if (/BLOB/.test(t)) return "BINARY"
  if (/BOOL/.test(t)) return "BOOLEAN"
  if (/DOUBLE/.test(t)) return "BINARY_DOUBLE"
  if (/FLOAT/.test(t)) return "BINARY_FLOAT"
  if (/INT|DECIMAL|NUMERIC|ORA_NUMBER/.test(t)) return "NUMBER"
  if (/JSON/.test(t)) return "JSON"
  return "-"
}

/**
 * ORA-00932 in Oracle's words ("expected X got Y") from the two first types DuckDB names (`'+(STRING_LITERAL,
 * DATE)'`, `Cannot compare values of type VARCHAR and type DATE`); only Oracle's generic form when it names none.
 */
const inconsistent = (message: string): OraError => {
  const args = message.match(/'[^'(]*\(([^)]*)\)'|"[^"(]*\(([^)]*)\)"/)
  const types = args !== null
    ? (args[1] ?? args[2] ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
    : [...message.matchAll(/type ([A-Z_]+(?:\(\d+(?:,\s*\d+)?\))?)/g)].map((x) => x[1]!)
  const names = types.map(oracleTypeName)
  // a number added to or subtracted from an interval (ADD_MONTHS(1, 1) and `1 + INTERVAL ...` become that):
  // interval arithmetic expects a datetime
  if (/'[+-]\(/.test(message) && names.length === 2 && names.includes("INTERVAL") && names.includes("NUMBER"))
    return ora.inconsistentTypes("expected DATE got NUMBER")
  const [first, second] = [names[0], names.find((n) => n !== names[0])]
  // Oracle's text always has both parts, "-" where it names no type ("expected - got CLOB")
  return ora.inconsistentTypes(`expected ${first !== undefined && second !== undefined ? first : "-"} got ${first !== undefined && second !== undefined ? second : "-"}`)
}

/** Every table name Oracle reports as ORA-00942, with its schema when the message names one. */
const tableMissing = (
  message: string,
  version: OracleVersion,
  decodeName: (n: string) => string,
  schema: string
): OraError | undefined => {
  const qualified = message.match(new RegExp(String.raw`(?:Table|View) with name (?:${NAME}) does not exist because schema (?:${NAME}) does not exist`, "i"))
  if (qualified !== null) {
    const full = named(qualified, 1)
    const owner = named(qualified, 3)
    const name = full.startsWith(`${owner}.`) ? full.slice(owner.length + 1) : full
    return ora.tableNotFound(version, decodeName(owner), decodeName(name))
  }
  const m = message.match(new RegExp(String.raw`(?:Table|View|Schema) with name (?:${NAME}) does not exist`, "i"))
  return m === null ? undefined : ora.tableNotFound(version, schema, decodeName(named(m, 1)))
}

/**
 * The ORA- error for a DuckDB catalog or binder failure, or undefined when the message is none of those this module
 * knows (duckdb-errors.ts `fromDuckDb` then goes on with its other mappings).
 */
export const fromDuckDbBinder = (
  message: string,
  version: OracleVersion,
  decodeName: (n: string) => string,
  schema: string,
  sql = ""
): OraError | undefined => {
  const missing = tableMissing(message, version, decodeName, schema)
  if (missing !== undefined) return missing
  const invalid = (m: RegExpMatchArray | null, at: number) => (m === null ? undefined : ora.invalidIdentifier(decodeName(named(m, at))))
  const column =
    invalid(message.match(new RegExp(String.raw`Referenced (?:update )?column (?:${NAME}) not found`, "i")), 1) ??
    invalid(message.match(new RegExp(String.raw`does not have a column (?:named|with name) (?:${NAME})\s*$`, "im")), 1) ??
    invalid(message.match(new RegExp(String.raw`Values list (?:${NAME}) does not have a column named (?:${NAME})\s*$`, "im")), 3) ??
    invalid(message.match(new RegExp(String.raw`Referenced table (?:${NAME}) not found`, "i")), 1) ??
    invalid(message.match(new RegExp(String.raw`(?:Scalar|Aggregate|Table) Function with name (?:${NAME}) does not exist`, "i")), 1)
  if (column !== undefined) return column
  // a CHECK condition naming no column of its table (Database Error Messages, ora-00904)
  const check = message.match(/Table does not contain column (.+) referenced in check constraint/i)
  if (check !== null) return ora.invalidIdentifier(decodeName(check[1]!.replace(/^"(.*)"$/, "$1")).toUpperCase())
  // REFERENCES columns that are no primary or unique key of the parent (ora-02270)
  if (/Failed to create foreign key: referenced table .+ does not have a primary key or unique constraint/i.test(message))
    return new OraError(2270, "no matching unique or primary key for this column-list")
  if (/Sequence with name .+ does not exist/i.test(message)) return new OraError(2289, "sequence does not exist")
  if (/Ambiguous reference to (?:column|table) name/i.test(message)) return new OraError(918, "column ambiguously defined")
  // more values than targets is ORA-00913, fewer ORA-00947: INSERT lists and queries, IN and SET (...) = subqueries
  const counts =
    message.match(/table .+ has (\d+) columns but (\d+) values were supplied/i) ??
    message.match(/mismatch for insert on .+: expected (\d+) columns but (\d+) values were supplied/i)
  const subquery = message.match(/Subquery returns (\d+) columns - expected (\d+)/i)
  const [targets, values] = counts !== null ? [counts[1], counts[2]] : subquery !== null ? [subquery[2], subquery[1]] : []
  if (targets !== undefined && values !== undefined)
    return Number(values) > Number(targets) ? new OraError(913, "too many values") : new OraError(947, "not enough values")
  if (/Type with name .+ does not exist/i.test(message)) return new OraError(902, "invalid datatype")
  // a plain column beside an aggregate: without GROUP BY Oracle's "not a single-group group function"
  if (/must appear in the GROUP BY clause or (?:must be part of|be used in) an aggregate function/i.test(message))
    return /\bGROUP\s+BY\b/i.test(sql) ? new OraError(979, "not a GROUP BY expression") : new OraError(937, "not a single-group group function")
  if (/WHERE clause cannot contain aggregates/i.test(message)) return new OraError(934, "group function is not allowed here")
  if (/has more than one primary key/i.test(message)) return new OraError(2260, "table can have only one primary key")
  // a row of n values compared with a subquery of fewer columns (DuckDB casts the subquery's value to the row's STRUCT)
  if (/Unimplemented type for cast \((?!STRUCT)[^)]*-> STRUCT\(/i.test(message)) return new OraError(947, "not enough values")
  // a comparison DuckDB settles by a cast it cannot make (`SYSDATE = 1`: INTEGER -> TIMESTAMP_S)
  const cast = message.match(/Unimplemented type for cast \((\w+) -> (\w+)\)/i)
  if (cast !== null) {
    const [got, expected] = [oracleTypeName(cast[1]!), oracleTypeName(cast[2]!)]
    if (got !== "-" && expected !== "-" && got !== expected) return ora.inconsistentTypes(`expected ${expected} got ${got}`)
  }
  const call = functionCallError(message)
  if (call !== undefined) return call
  if (/ORDER term out of range/i.test(message))
    return new OraError(1785, "ORDER BY item must be the number of a SELECT-list expression")
  if (/Set operations can only apply to expressions with the same number of result columns/i.test(message))
    return new OraError(1789, "query block has incorrect number of result columns")
  if (/Could not choose a best candidate function|No function matches|Cannot compare|Cannot mix/i.test(message))
    return inconsistent(message)
  return undefined
}
