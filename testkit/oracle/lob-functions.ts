/**
 * The DBMS_LOB functions SQL can call on LOB values (Oracle Database PL/SQL Packages and Types Reference, DBMS_LOB):
 * GETLENGTH (characters of a CLOB, bytes of a BLOB), ISTEMPORARY (0 for a table column's LOB, 1 for any other
 * expression's, as SQL functions return temporary LOBs), ISOPEN (0: SQL opens no LOB), GETCHUNKSIZE, SUBSTR(lob, amount = 32767, offset = 1) and INSTR(lob,
 * pattern, offset = 1, nth = 1), COMPARE(lob_1, lob_2, amount = all, offset_1 = 1, offset_2 = 1: 0 when equal, -1 or 1
 * as the first differing unit or the shorter range sorts first, NULL for an amount or offset below 1), as DuckDB scalar functions over the stored values (CLOB as VARCHAR, BLOB as BLOB).
 * `DBMS_LOB.name(` is rewritten to `ora_lob_name(` with the defaults filled in, before translation. CLOB lengths and
 * offsets count UTF-16 code units, as Oracle does for CLOBs of an AL32UTF8 database (held in UCS-2).
 */
import { BIGINT, BLOB, DuckDBBlobType, DuckDBBlobValue, DuckDBVarCharType, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection, DuckDBScalarFunction, DuckDBType, DuckDBValue } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"
import { BLOB_RESULT_ALIAS, CLOB_RESULT_ALIAS } from "./types.ts"
import { isKw, isName, isOp, matchParen, splitTopLevel, type Tok, tokenize } from "./lexer.ts"

/**
 * DBMS_LOB.GETCHUNKSIZE's answer: the usable part of an 8 KB block chunk (8192 less 60 bytes of overhead), what
 * Oracle 19c gives for a LOB of an 8 KB block tablespace (ksun-oracle.blogspot.com, "Oracle LOB chunksize and
 * buffersize").
 */
export const LOB_CHUNK_SIZE = 8132

/** The functions rewritten, with the defaults of their optional trailing arguments. */
const DEFAULTS: Readonly<Record<string, ReadonlyArray<string>>> = {
  GETLENGTH: [],
  SUBSTR: ["32767", "1"],
  INSTR: ["1", "1"],
  // DBMS_LOB.LOBMAXSIZE is 2^64 - 1; BIGINT's largest covers any LOB the server holds
  COMPARE: ["9223372036854775807", "1", "1"],
  // ISTEMPORARY's second argument says whether the LOB is an expression's (1) or a column's (0): rewriteDbmsLob
  ISTEMPORARY: [],
  ISOPEN: [],
  GETCHUNKSIZE: []
}

/** A plain column reference (`doc`, `t.doc`): a table's LOB, where any other expression's LOB is a temporary one. */
const isColumn = (arg: ReadonlyArray<Tok>): boolean => {
  const sig = arg.filter((x) => x.kind !== "ws")
  return sig.length > 0 && sig.every((x, n) => (n % 2 === 0 ? isName(x) : isOp(x, ".")))
}

/** `DBMS_LOB.f(args)` → `ora_lob_f(args, defaults...)` for the functions of {@link DEFAULTS}. */
export const rewriteDbmsLob = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => isKw(t, "DBMS_LOB"))) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const name = toks[k + 2]
    if (!isKw(t, "DBMS_LOB") || !isOp(toks[k + 1], ".") || name === undefined || !(name.value in DEFAULTS) || !isOp(toks[k + 3], "(")) {
      out.push(t)
      continue
    }
    const close = matchParen(toks, k + 3)
    if (close < 0) throw new OraError(907, "missing right parenthesis")
    // `SYS.DBMS_LOB.f(`: the package's owner named
    const owner = isOp(out[out.length - 1], ".") && isKw(out[out.length - 2], "SYS") && !isOp(out[out.length - 3], ".") ? out.splice(out.length - 2, 2) : []
    const given = splitTopLevel(toks.slice(k + 4, close)).filter((a) => a.some((x) => x.kind !== "ws")).length
    const defaults = DEFAULTS[name.value]!
    const required = name.value === "INSTR" || name.value === "COMPARE" ? 2 : 1
    const needed = defaults.length - Math.max(0, given - required)
    const temporaryFlag = name.value === "ISTEMPORARY" ? `, ${isColumn(toks.slice(k + 4, close)) ? 0 : 1}` : ""
    const filler = defaults.slice(defaults.length - Math.max(0, needed)).map((d) => `, ${d}`).join("") + temporaryFlag
    const generated = (sql: string, heading?: string) => tokenize(sql).map((x, n) => ({ ...x, pos: t.pos, heading: n === 0 && heading !== undefined ? heading : "" }))
    const heading = [...owner, ...toks.slice(k, close + 1)].filter((x) => x.kind !== "ws").map((x) => (x.kind === "str" ? `'${x.value.toUpperCase()}'` : x.text.toUpperCase())).join("")
    out.push(...generated(`ora_lob_${name.value.toLowerCase()}(`, heading), ...toks.slice(k + 4, close).map((x) => ({ ...x, heading: "" })), ...generated(`${filler})`))
    k = close
  }
  return out
}

const bytesOf = (v: DuckDBValue | undefined): Uint8Array => (v instanceof DuckDBBlobValue ? v.bytes : new Uint8Array())

/** DBMS_LOB raises ORA-21560 (argument is null, invalid, or out of range) for amounts and offsets below 1. */
const checked = (n: DuckDBValue | undefined, what: string): number => {
  const v = Number(n)
  if (!Number.isInteger(v) || v < 1) throw new OraError(21560, `argument ${what} is null, invalid, or out of range`)
  return v
}

/**
 * DBMS_LOB.COMPARE of the ranges `amount` long from `o1` of `a` and from `o2` of `b` (1-based): -1, 0 or 1 (characters'
 * code units, bytes); NULL for an amount or offset below 1.
 */
export const compareRanges = (a: string | Buffer, b: string | Buffer, amount: DuckDBValue, o1: DuckDBValue, o2: DuckDBValue): DuckDBValue => {
  const [n, x, y] = [Number(amount), Number(o1), Number(o2)]
  if (![n, x, y].every((v) => Number.isInteger(v) && v >= 1)) return null
  const p = a.slice(x - 1, x - 1 + n)
  const q = b.slice(y - 1, y - 1 + n)
  const c = typeof p === "string" ? (p === q ? 0 : p < (q as string) ? -1 : 1) : Buffer.compare(p, q as Buffer)
  return BigInt(Math.sign(c))
}

/** The position of the nth occurrence of `pattern` in `s` from `offset` (1-based), 0 when there is none. */
const nthIndex = <T extends { indexOf(p: never, from: number): number }>(s: T, pattern: unknown, offset: number, nth: number): number => {
  let at = offset - 1
  for (let found = 0; ; ) {
    const k = s.indexOf(pattern as never, at)
    if (k < 0) return 0
    if (++found === nth) return k + 1
    at = k + 1
  }
}

// TO_CLOB / TO_BLOB results are typed by aliases (types.ts), which DuckDB does not cast to VARCHAR / BLOB when it
// picks an overload: each function also takes them as its LOB argument
const CLOB_ALIAS = new DuckDBVarCharType(CLOB_RESULT_ALIAS)
const BLOB_ALIAS = new DuckDBBlobType(BLOB_RESULT_ALIAS)

/** The functions, by the names {@link rewriteDbmsLob} gives them, each also over the LOB alias types. */
const functions = (): Array<DuckDBScalarFunction> =>
  signatures().flatMap(([name, args, result, body]) => {
    const alias = args[0] === BLOB ? BLOB_ALIAS : CLOB_ALIAS
    // COMPARE's second argument is a LOB too: each of the two may be a TO_CLOB / TO_BLOB result
    const seconds = name === "ora_lob_compare" ? [args[1]!, alias] : [args[1]]
    return seconds.flatMap((second) => {
      const rest = second === undefined ? args.slice(1) : [second, ...args.slice(2)]
      return [fn(name, [args[0]!, ...rest], result, body), fn(name, [alias, ...rest], result, body)]
    })
  })

type Signature = [string, Array<DuckDBType>, DuckDBType, (args: ReadonlyArray<DuckDBValue>) => DuckDBValue]

const signatures = (): Array<Signature> => [
  ["ora_lob_getlength", [VARCHAR], BIGINT, ([s]) => BigInt(String(s).length)],
  // a non-NULL LOB's ISTEMPORARY (the flag the rewrite computed), ISOPEN (SQL opens none) and GETCHUNKSIZE
  ["ora_lob_istemporary", [VARCHAR, BIGINT], BIGINT, ([, flag]) => flag!],
  ["ora_lob_istemporary", [BLOB, BIGINT], BIGINT, ([, flag]) => flag!],
  ["ora_lob_isopen", [VARCHAR], BIGINT, () => 0n],
  ["ora_lob_isopen", [BLOB], BIGINT, () => 0n],
  ["ora_lob_getchunksize", [VARCHAR], BIGINT, () => BigInt(LOB_CHUNK_SIZE)],
  ["ora_lob_getchunksize", [BLOB], BIGINT, () => BigInt(LOB_CHUNK_SIZE)],
  ["ora_lob_getlength", [BLOB], BIGINT, ([b]) => BigInt(bytesOf(b).length)],
  [
    "ora_lob_substr",
    [VARCHAR, BIGINT, BIGINT],
    VARCHAR,
    ([s, amount, offset]) => {
      const from = checked(offset, "offset") - 1
      const text = String(s).slice(from, from + checked(amount, "amount"))
      return text === "" ? null : text
    }
  ],
  [
    "ora_lob_substr",
    [BLOB, BIGINT, BIGINT],
    BLOB,
    ([b, amount, offset]) => {
      const from = checked(offset, "offset") - 1
      const bytes = bytesOf(b).slice(from, from + checked(amount, "amount"))
      return bytes.length === 0 ? null : new DuckDBBlobValue(bytes)
    }
  ],
  ["ora_lob_instr", [VARCHAR, VARCHAR, BIGINT, BIGINT], BIGINT, ([s, p, offset, nth]) => BigInt(nthIndex(String(s), String(p), checked(offset, "offset"), checked(nth, "nth")))],
  ["ora_lob_compare", [VARCHAR, VARCHAR, BIGINT, BIGINT, BIGINT], BIGINT, ([a, b, n, x, y]) => compareRanges(String(a), String(b), n ?? null, x ?? null, y ?? null)],
  ["ora_lob_compare", [BLOB, BLOB, BIGINT, BIGINT, BIGINT], BIGINT, ([a, b, n, x, y]) => compareRanges(Buffer.from(bytesOf(a)), Buffer.from(bytesOf(b)), n ?? null, x ?? null, y ?? null)],
  ["ora_lob_instr", [BLOB, BLOB, BIGINT, BIGINT], BIGINT, ([b, p, offset, nth]) => BigInt(nthIndex(Buffer.from(bytesOf(b)), Buffer.from(bytesOf(p)), checked(offset, "offset"), checked(nth, "nth")))]
]

/** Registers the functions in the database `connection` belongs to. */
export const registerLobFunctions = (connection: DuckDBConnection): void => {
  for (const f of functions()) connection.registerScalarFunction(f)
}
