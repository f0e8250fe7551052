/** A HANA type as written in SQL (`NVARCHAR(10)`, `DECIMAL(18, 2)`, `DOUBLE PRECISION`), parsed at a token. */
import { HanaError } from "./errors.ts"
import type { Token } from "./lexer.ts"
import { upper } from "./lexer.ts"
import { duckType, hanaType } from "./types.ts"
import type { HanaType } from "./types.ts"
import { VECTOR_TYPES, vectorTypeUnsupported } from "./vector-types.ts"

/** Parses a type at tokens[i] (name and optional `(n[,m])`); returns the DuckDB type, tokens consumed and the HANA type. */
export const typeAt = (tokens: readonly Token[], i: number): [string, number, HanaType] => {
  const [t, consumed] = parseType(tokens, i)
  return [duckType(t), consumed, t]
}

const DATETIME_TYPES = new Set(["DATE", "TIME", "SECONDDATE", "TIMESTAMP", "LONGDATE", "DAYDATE", "SECONDTIME"])

const parseType = (tokens: readonly Token[], i: number): [HanaType, number] => {
  const nameTok = tokens[i]
  const name = upper(nameTok)
  let consumed = 1
  const args: number[] = []
  if (tokens[i + 1]?.t === "op" && tokens[i + 1]!.v === "(") {
    // HANA's datetime types take no length or precision (SAP HANA SQL Reference, "Datetime Data Types": DATE, TIME,
    // SECONDDATE, TIMESTAMP are declared bare; TIMESTAMP always keeps 7 fractional digits;
    // http://help.sap.com/hana/html/_csql_data_types.html), so `TIMESTAMP(6)` is a
    // syntax error there, as here.
    if (DATETIME_TYPES.has(name)) throw HanaError.syntax(`incorrect syntax near "(": ${name} takes no length or precision`, 0)
    let j = i + 2
    while (j < tokens.length && !(tokens[j]!.t === "op" && tokens[j]!.v === ")")) {
      const t = tokens[j]!
      if (t.t === "number") args.push(Number(t.v))
      else if (!(t.t === "op" && t.v === ",")) throw HanaError.syntax(`invalid type arguments near ${t.v}`, 0)
      j++
    }
    consumed = j - i + 1
  }
  // DOUBLE PRECISION
  if (name === "DOUBLE" && upper(tokens[i + consumed]) === "PRECISION") consumed++
  const t = hanaType(name, args)
  if (t === undefined && VECTOR_TYPES.has(name)) throw vectorTypeUnsupported(name)
  if (t === undefined) throw HanaError.syntax(`invalid datatype: ${nameTok?.v ?? "<end>"}`, 0)
  return [t, consumed]
}
