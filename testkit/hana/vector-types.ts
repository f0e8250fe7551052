/**
 * HANA Cloud's vector types (SAP HANA Cloud, SAP HANA Database Vector Engine Guide: `REAL_VECTOR[(n)]`, and
 * `HALF_VECTOR` later) do not exist in SAP HANA 2.0, the version this server implements and reports by default
 * (`2.00.070…`): a column, CAST or parameter of such a type fails as HANA fails an unknown type, with
 * 264 ERR_SQL_INV_DATATYPE "invalid datatype" (SAP HANA SQL Reference, "SQL Error Codes"). hdb's REAL_VECTOR wire
 * code (96) is used by the server only for its test-only BIT and JSON types (types.ts).
 */
import { HanaError } from "./errors.ts"

/** The vector type names. */
export const VECTOR_TYPES: ReadonlySet<string> = new Set(["REAL_VECTOR", "HALF_VECTOR"])

/** The error for a vector type. */
export const vectorTypeUnsupported = (name: string): HanaError =>
  new HanaError(264, "HY000", `invalid datatype: ${name}: vector types exist from SAP HANA Cloud (4.00) on; the test server implements SAP HANA 2.0`)
