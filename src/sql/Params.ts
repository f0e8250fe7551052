/**
 * `effect/sql` parameters as the Arrow batch the ADBC statement binds: one column per parameter, one row per
 * execution (several rows for a multi-record `sql.insert`, see `BatchRows`). Each column's Arrow type follows from its
 * values, so that both drivers bind them as the database's own types:
 *
 * | JavaScript                         | Arrow (bound as)                                               |
 * | ---------------------------------- | -------------------------------------------------------------- |
 * | `number` (all 32-bit integers)     | int32 (INTEGER / NUMBER)                                        |
 * | `number` (otherwise)               | double (DOUBLE / BINARY_DOUBLE)                                 |
 * | `bigint`                           | decimal128(38, 0) (DECIMAL / NUMBER)                            |
 * | `string`                           | utf8 (NVARCHAR / NVARCHAR2; the database converts to the column) |
 * | `boolean`                          | bool (BOOLEAN)                                                 |
 * | `Date`                             | timestamp[ms] holding the UTC wall-clock time (TIMESTAMP)      |
 * | `Uint8Array` / `Buffer`            | binary (VARBINARY / RAW)                                       |
 * | `null` / `undefined`               | null in a column of the other rows' type (utf8 when all are null) |
 *
 * Anything else (objects, arrays, a column mixing kinds) is refused before any I/O with a message naming the
 * parameter; `sql.json(value)` binds JSON.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { recordBatchOf } from "../arrow/BatchAssembler.ts"
import { makeColumnBuilder } from "../arrow/makeColumnBuilder.ts"
import { BatchRows } from "./Compiler.ts"

/**
 * A parameter the client cannot bind, with what is accepted.
 *
 * @category errors
 * @since 0.1.0
 */
export class UnsupportedParameter extends Error {}

type Kind = "number" | "bigint" | "string" | "boolean" | "date" | "binary"

const kindOf = (value: unknown): Kind | "null" | undefined => {
  switch (typeof value) {
    case "number":
      return "number"
    case "bigint":
      return "bigint"
    case "string":
      return "string"
    case "boolean":
      return "boolean"
    case "undefined":
      return "null"
    case "object":
      if (value === null) return "null"
      if (value instanceof Date) return "date"
      if (value instanceof Uint8Array) return "binary"
      return undefined
    default:
      return undefined
  }
}

const describe = (value: unknown) =>
  value === null ? "null" : typeof value === "object" ? (value.constructor?.name ?? "object") : typeof value

const ACCEPTED = "number, bigint, string, boolean, Date, Uint8Array, null (use sql.json(value) for JSON)"

const columnType = (values: ReadonlyArray<unknown>, column: number): Arrow.DataType => {
  let kind: Kind | undefined
  let int32 = true
  for (let r = 0; r < values.length; r++) {
    const value = values[r]
    const k = kindOf(value)
    if (k === undefined) {
      throw new UnsupportedParameter(`parameter ${column + 1} is a ${describe(value)}: expected ${ACCEPTED}`)
    }
    if (k === "null") continue
    if (kind !== undefined && k !== kind) {
      throw new UnsupportedParameter(
        `parameter ${column + 1} mixes ${kind} and ${k} values across rows: one kind per column is expected`
      )
    }
    kind = k
    if (k === "number" && int32 && ((value as number) | 0) !== value) int32 = false
  }
  switch (kind) {
    case "number":
      return int32 ? new Arrow.Int32() : new Arrow.Float64()
    case "bigint":
      return new Arrow.Decimal(0, 38, 128)
    case "boolean":
      return new Arrow.Bool()
    case "date":
      return new Arrow.TimestampMillisecond()
    case "binary":
      return new Arrow.Binary()
    default:
      return new Arrow.Utf8()
  }
}

/**
 * The rows of values a compiled statement's parameters stand for: one row, or one row per record when a
 * {@link BatchRows} is among them (the parameters around it repeat on every row).
 *
 * @category conversions
 * @since 0.1.0
 */
export const parameterRows = (params: ReadonlyArray<unknown>): ReadonlyArray<ReadonlyArray<unknown>> => {
  const at = params.findIndex((p) => p instanceof BatchRows)
  if (at < 0) return [params]
  const before = params.slice(0, at)
  const after = params.slice(at + 1)
  if (after.some((p) => p instanceof BatchRows)) {
    throw new UnsupportedParameter("a statement can hold one multi-record sql.insert, not several")
  }
  const batch = (params[at] as BatchRows).rows
  return before.length === 0 && after.length === 0 ? batch : batch.map((row) => [...before, ...row, ...after])
}

/**
 * The Arrow batch binding `rows` (each row one execution), or undefined without parameters. Throws
 * {@link UnsupportedParameter} for a value it cannot bind.
 *
 * @category conversions
 * @since 0.1.0
 */
export const toArrowBatch = (rows: ReadonlyArray<ReadonlyArray<unknown>>): Arrow.RecordBatch | undefined => {
  const width = rows[0]?.length ?? 0
  return columnsBatch(Array.from({ length: width }, (_, c) => rows.map((row) => row[c])), rows.length)
}

/**
 * The Arrow batch binding a compiled statement's parameters (see {@link parameterRows}); a multi-record
 * `sql.insert` alone is bound from its columns as they are.
 *
 * @category conversions
 * @since 0.1.0
 */
export const parameterBatch = (params: ReadonlyArray<unknown>): Arrow.RecordBatch | undefined => {
  const only = params.length === 1 ? params[0] : undefined
  return only instanceof BatchRows ? columnsBatch(only.columns, only.length) : toArrowBatch(parameterRows(params))
}

const columnsBatch = (values: ReadonlyArray<ReadonlyArray<unknown>>, length: number): Arrow.RecordBatch | undefined => {
  if (values.length === 0) return undefined
  const fields: Array<Arrow.Field> = []
  const columns: Array<Arrow.Data> = []
  for (let c = 0; c < values.length; c++) {
    const column = values[c]!
    const type = columnType(column, c)
    const builder = makeColumnBuilder(type, { name: `p${c + 1}`, initialCapacity: length })
    for (let r = 0; r < length; r++) builder.append(column[r])
    fields.push(new Arrow.Field(`p${c + 1}`, type, true))
    columns.push(builder.finish())
  }
  return recordBatchOf(new Arrow.Schema(fields), columns, length)
}
