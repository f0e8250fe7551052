/**
 * Character and hash functions DuckDB lacks, as the SQL Language Reference 23ai describes them: INITCAP ("the first
 * letter of each word in uppercase, all other letters in lowercase. Words are delimited by white space or characters
 * that are not alphanumeric"), ORA_HASH(expr [, max_bucket [, seed]]) (a bucket 0..max_bucket, default 4294967295;
 * the hash function itself is not Oracle's, so the buckets a value falls in differ: **unconfirmed** values) and
 * STANDARD_HASH(expr [, 'SHA1' | 'SHA256' | 'SHA384' | 'SHA512' | 'MD5']) (the RAW digest of the value's bytes, SHA1
 * by default).
 */
import { createHash } from "node:crypto"
import { BIGINT, BLOB, DuckDBBlobValue, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"

/** INITCAP of `s`. */
export const initcap = (s: string): string => s.toLowerCase().replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())

/** A 32-bit FNV-1a hash of the text and the seed. */
const fnv1a = (text: string, seed: number): number => {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (const b of Buffer.from(text, "utf8")) h = Math.imul(h ^ b, 0x01000193) >>> 0
  return h
}

/** ORA_HASH's bucket of `text` among 0..maxBucket. */
export const oraHash = (text: string, maxBucket: number, seed: number): number => {
  if (!(maxBucket >= 0 && maxBucket <= 4294967295) || !(seed >= 0 && seed <= 4294967295)) throw new OraError(1428, "argument is out of range")
  return fnv1a(text, seed) % (Math.floor(maxBucket) + 1)
}

const DIGESTS: Readonly<Record<string, string>> = { SHA1: "sha1", SHA256: "sha256", SHA384: "sha384", SHA512: "sha512", MD5: "md5" }

/** STANDARD_HASH's digest of `bytes` by `method`. */
export const standardHash = (bytes: Uint8Array, method: string): Uint8Array => {
  const algorithm = DIGESTS[method.toUpperCase()]
  if (algorithm === undefined) throw new OraError(45755, `invalid hash method ${method}`)
  return createHash(algorithm).update(bytes).digest()
}

/** Registers `ora_initcap`, `ora_hash` and `ora_standard_hash` (text or RAW input). */
export const registerStringFunctions = (connection: DuckDBConnection): void => {
  for (const f of [
    fn("ora_initcap", [VARCHAR], VARCHAR, ([s]) => initcap(String(s))),
    fn("ora_hash", [VARCHAR, BIGINT, BIGINT], BIGINT, ([s, b, seed]) => BigInt(oraHash(String(s), Number(b), Number(seed)))),
    fn("ora_standard_hash", [VARCHAR, VARCHAR], BLOB, ([s, m]) => new DuckDBBlobValue(standardHash(Buffer.from(String(s), "utf8"), String(m)))),
    fn("ora_standard_hash", [BLOB, VARCHAR], BLOB, ([b, m]) => new DuckDBBlobValue(standardHash((b as DuckDBBlobValue).bytes, String(m))))
  ])
    connection.registerScalarFunction(f)
}
