/**
 * Arrow record batches as node-oracledb binds: one bind definition per column (type, size, direction from the
 * `ORACLE:parameter_type` field metadata) and row arrays of JS values read straight from the Arrow buffers
 * (layers/common/ArrowCells.ts). Exactness: int64 values above 2^53 go as bigint; decimal IN parameters bind as
 * NUMBER, whole values as bigint and scaled ones as {@link WireDecimal} (encoded from their decimal text, never through
 * a JS double or the session's NLS_NUMERIC_CHARACTERS); OUT / IN OUT decimals bind as decimal text both ways; dates and timestamps as {@link WireTimestamp} (seconds and
 * nanoseconds, and a zoned timestamp's zone, encoded by the driver's write hook), refused before anything is sent
 * when outside Oracle's range; arrow.json IN values as JSON ({@link WireJson}); OUT / IN OUT intervals and durations
 * as INTERVAL binds.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, adbcError, invalidArgument } from "../../src/AdbcError.ts"
import { type ColumnCells, columnCells, formatEpochDay, formatEpochTicks, UnsupportedColumnError } from "../common/ArrowCells.ts"
import { oracledb, WireDecimal, WireJson, WireTimestamp } from "./DbPatches.ts"
import type { DbType } from "./DbTypes.ts"
import { type StringLimit, stringTooLong } from "./IngestBytes.ts"
import { dateOutOfRange, isOracleDay, monthsOnlyRefusal, oracleTickRange } from "./IngestTemporals.ts"
import { type SdoValue, wkbToSdoGeometry, wktToSdoGeometry } from "./SdoGeometry.ts"
import { unknownZone, zoneBytesAt, zoneEncoding } from "./TimeZones.ts"
import { PARAMETER_TYPE_METADATA } from "./ReadTypes.ts"
import { bindTypeFor, geometrySrid, ingestColumnType, ingestsAsYearToMonth, type StructStorage } from "./WriteTypes.ts"

/** A parameter direction. @category models @since 0.1.0 */
export type Direction = "in" | "out" | "inout"

/** One bind definition (node-oracledb `bindDefs` entry). @category models @since 0.1.0 */
export interface BindDef {
  /** A DbType, or the name of an object type (`MDSYS.SDO_GEOMETRY`), which node-oracledb looks up. */
  readonly type: DbType | string
  readonly maxSize?: number
  readonly dir: number
}

/** A column's binds: definition, direction and a reader of row `i`'s JS value. @category models @since 0.1.0 */
export interface BoundColumn {
  readonly field: Arrow.Field
  readonly direction: Direction
  readonly def: BindDef
  readonly get: (i: number) => unknown
}

/** The direction declared by a field's `ORACLE:parameter_type` metadata (default `in`). @category binding @since 0.1.0 */
export const directionOf = (field: Arrow.Field): Result.Result<Direction, AdbcError> => {
  const raw = field.metadata.get(PARAMETER_TYPE_METADATA)
  if (raw === undefined) return Result.succeed("in")
  const value = raw.toLowerCase()
  if (value === "in" || value === "out" || value === "inout") return Result.succeed(value)
  return Result.fail(
    invalidArgument(`field ${JSON.stringify(field.name)}: ${PARAMETER_TYPE_METADATA} must be in, out or inout, got '${raw}'`)
  )
}

const DIRS: Readonly<Record<Direction, number>> = { in: oracledb.BIND_IN, out: oracledb.BIND_OUT, inout: oracledb.BIND_INOUT }

const floorDiv = (a: number | bigint, b: number): [number, number] => {
  if (typeof a === "bigint") {
    const B = BigInt(b)
    let q = a / B
    let r = a - q * B
    if (r < 0n) {
      q -= 1n
      r += B
    }
    return [Number(q), Number(r)]
  }
  const q = Math.floor(a / b)
  return [q, a - q * b]
}

const dbType = (name: string): DbType => oracledb[`DB_TYPE_${name}`]!

/** The oracledb type and value reader of a column, for a given Oracle type name (from the WriteTypes.ts mappings). */
const reader = (
  field: Arrow.Field,
  cells: ColumnCells,
  sqlType: string,
  data: Arrow.Data,
  limit: StringLimit | undefined,
  firstRow = 0
): Result.Result<{ type: DbType; get: (i: number) => unknown; maxSize?: number }, AdbcError> => {
  switch (cells.kind) {
    case "number":
      return Result.succeed({
        type: sqlType === "BINARY_DOUBLE"
          ? dbType("BINARY_DOUBLE")
          : sqlType === "BINARY_FLOAT"
          ? dbType("BINARY_FLOAT")
          : dbType("NUMBER"),
        get: cells.get
      })
    case "bigint":
      return Result.succeed({ type: dbType("NUMBER"), get: cells.get })
    case "decimal":
      return Result.succeed({ type: dbType("VARCHAR"), get: cells.get, maxSize: 82 })
    case "bool":
      return Result.succeed({ type: dbType("BOOLEAN"), get: cells.get })
    case "string": {
      let longest = 1
      for (let i = 0; i < data.length; i++) {
        const v = cells.get(i)
        if (v === null) continue
        if (limit !== undefined && v.length > limit.max) return Result.fail(stringTooLong(field, firstRow + i, v.length, limit))
        const bytes = Buffer.byteLength(v)
        if (bytes > longest) longest = bytes
      }
      if (sqlType === "RAW") {
        return Result.succeed({
          type: dbType("RAW"),
          get: (i) => {
            const v = cells.get(i)
            return v === null ? null : Buffer.from(v)
          },
          maxSize: longest
        })
      }
      return Result.succeed({ type: dbType("NVARCHAR"), get: cells.get, maxSize: longest })
    }
    case "binary": {
      let longest = 1
      for (let i = 0; i < data.length; i++) longest = Math.max(longest, cells.get(i)?.length ?? 0)
      return Result.succeed({
        type: dbType("RAW"),
        get: (i) => {
          const v = cells.get(i)
          return v === null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength)
        },
        maxSize: longest
      })
    }
    case "date":
      // oracledb writes any year into the century byte: a date outside Oracle's range is refused (IngestEncoder.ts)
      for (let i = 0; i < data.length; i++) {
        const days = cells.get(i)
        if (days !== null && !isOracleDay(days)) return Result.fail(dateOutOfRange(field, firstRow + i, formatEpochDay(days)))
      }
      return Result.succeed({
        type: dbType("DATE"),
        get: (i) => {
          const days = cells.get(i)
          return days === null ? null : new WireTimestamp(days * 86_400, 0)
        }
      })
    case "timestamp": {
      const perSecond = cells.ticksPerSecond
      const [first, last] = oracleTickRange(perSecond)
      for (let i = 0; i < data.length; i++) {
        const raw = cells.getRaw(i)
        if (raw !== null && (raw < first || raw > last)) {
          return Result.fail(dateOutOfRange(field, firstRow + i, formatEpochTicks(raw, perSecond)))
        }
      }
      const zone = cells.timezone === null ? undefined : zoneEncoding(cells.timezone)
      if (cells.timezone !== null && zone === undefined) return Result.fail(unknownZone(field, cells.timezone))
      return Result.succeed({
        type: zone === undefined ? dbType("TIMESTAMP") : dbType("TIMESTAMP_TZ"),
        get: (i) => {
          const raw = cells.getRaw(i)
          if (raw === null) return null
          const [seconds, ticks] = floorDiv(raw, perSecond)
          const nanos = ticks * (1_000_000_000 / perSecond)
          return zone === undefined ? new WireTimestamp(seconds, nanos) : new WireTimestamp(seconds, nanos, zoneBytesAt(zone, seconds))
        }
      })
    }
    default:
      return Result.fail(
        adbcError("NOT_IMPLEMENTED", `field ${JSON.stringify(field.name)} of Arrow type ${field.type} cannot be bound`)
      )
  }
}

/** A decimal parameter as NUMBER: whole values as bigint, scaled values as {@link WireDecimal}. */
const decimalParameter = (get: (i: number) => string | null) => ({
  type: dbType("NUMBER"),
  get: (i: number): bigint | WireDecimal | null => {
    const text = get(i)
    if (text === null) return null
    return text.includes(".") ? new WireDecimal(text) : BigInt(text)
  }
})

/**
 * An OUT / IN OUT decimal parameter as text both ways: oracledb returns a NUMBER bind as a JS double, while the
 * session's decimal character is '.' (ConnectConfig), so Oracle's NUMBER to VARCHAR2 conversion gives exact decimal
 * text, which the decimal builder rescales exactly. 130 characters hold any NUMBER's text.
 */
const decimalOutParameter = (get: (i: number) => string | null) => ({ type: dbType("VARCHAR"), get, maxSize: 130 })

/** JSON text of a nested value (struct, list) for struct storage in BLOB, NVARCHAR2 or JSON columns. */
const nestedReader = (field: Arrow.Field, data: Arrow.Data, storage: StructStorage) => {
  const vector = Arrow.makeVector(data)
  const text = (i: number): string | null => {
    const v = vector.get(i) as { toJSON?: () => unknown } | null
    if (v === null || v === undefined) return null
    return JSON.stringify(typeof v.toJSON === "function" ? v.toJSON() : v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))
  }
  if (storage === "blob") {
    return { type: dbType("RAW"), get: (i: number) => {
      const t = text(i)
      return t === null ? null : Buffer.from(t)
    }, maxSize: 32767 }
  }
  return { type: dbType("NVARCHAR"), get: text, maxSize: 32767, field }
}

const NANOS_PER_DAY = 86_400_000_000_000n

/** An oracledb IntervalDS of a signed total of nanoseconds (every field carries the sign, as Oracle stores it). */
const intervalDS = (total: bigint): unknown => {
  const sign = total < 0n ? -1 : 1
  let rest = total < 0n ? -total : total
  const days = rest / NANOS_PER_DAY
  rest -= days * NANOS_PER_DAY
  const seconds = rest / 1_000_000_000n
  const fseconds = Number(rest - seconds * 1_000_000_000n)
  const s = Number(seconds)
  return new oracledb.IntervalDS({
    days: sign * Number(days),
    hours: sign * Math.floor(s / 3600),
    minutes: sign * (Math.floor(s / 60) % 60),
    seconds: sign * (s % 60),
    fseconds: sign * fseconds
  })
}

/**
 * Interval columns for ingest: year_month into INTERVAL YEAR(9) TO MONTH, day_time and month_day_nano into
 * INTERVAL DAY(9) TO SECOND(9). A month_day_nano value with months fails INVALID_DATA naming column and row: a
 * month has no fixed length in days, so DAY TO SECOND cannot hold it exactly. A month_day_nano column read from YEAR
 * TO MONTH (WriteTypes.ts `ingestsAsYearToMonth`) goes back into YEAR TO MONTH.
 */
const intervalReader = (
  field: Arrow.Field,
  data: Arrow.Data,
  firstRow: number
): Result.Result<{ type: DbType; get: (i: number) => unknown }, AdbcError> => {
  const unit = (field.type as Arrow.Interval).unit
  const v = data.values as Int32Array
  const valid = (i: number) => data.nullCount === 0 || data.getValid(i)
  const yearToMonth = (monthsAt: (i: number) => number) =>
    Result.succeed({
      type: dbType("INTERVAL_YM"),
      get: (i: number) => {
        if (!valid(i)) return null
        const months = monthsAt(i)
        return new oracledb.IntervalYM({ years: Math.trunc(months / 12), months: months % 12 })
      }
    })
  if (unit === Arrow.IntervalUnit.YEAR_MONTH) return yearToMonth((i) => v[i]!)
  if (ingestsAsYearToMonth(field)) {
    const refusal = monthsOnlyRefusal(field, v, valid, data.length, firstRow)
    return refusal === undefined ? yearToMonth((i) => v[4 * i]!) : Result.fail(refusal)
  }
  if (unit === Arrow.IntervalUnit.DAY_TIME) {
    return Result.succeed({
      type: dbType("INTERVAL_DS"),
      get: (i) => (valid(i) ? intervalDS(BigInt(v[2 * i]!) * NANOS_PER_DAY + BigInt(v[2 * i + 1]!) * 1_000_000n) : null)
    })
  }
  for (let i = 0; i < data.length; i++) {
    if (valid(i) && v[4 * i] !== 0) {
      return Result.fail(
        adbcError(
          "INVALID_DATA",
          `column ${JSON.stringify(field.name)}: row ${firstRow + i + 1} has ${v[4 * i]} months, which INTERVAL DAY(9) TO SECOND(9) cannot hold (a month has no fixed number of days); ingest months as an interval[year_month] column`
        )
      )
    }
  }
  return Result.succeed({
    type: dbType("INTERVAL_DS"),
    get: (i) => {
      if (!valid(i)) return null
      const nanos = (BigInt(v[4 * i + 3]!) << 32n) | BigInt(v[4 * i + 2]! >>> 0)
      return intervalDS(BigInt(v[4 * i + 1]!) * NANOS_PER_DAY + nanos)
    }
  })
}

const NANOS_PER_UNIT: Readonly<Record<number, bigint>> = {
  [Arrow.TimeUnit.SECOND]: 1_000_000_000n,
  [Arrow.TimeUnit.MILLISECOND]: 1_000_000n,
  [Arrow.TimeUnit.MICROSECOND]: 1_000n,
  [Arrow.TimeUnit.NANOSECOND]: 1n
}

/**
 * An OUT / IN OUT interval or duration parameter: year_month as INTERVAL YEAR TO MONTH, day_time, month_day_nano
 * and duration as INTERVAL DAY TO SECOND (the types a query reads them as). IN parameters of these types stay NA.
 */
const spanParameter = (
  field: Arrow.Field,
  data: Arrow.Data
): Result.Result<{ type: DbType; get: (i: number) => unknown }, AdbcError> => {
  if (field.type.typeId !== Arrow.Type.Duration) return intervalReader(field, data, 0)
  const perUnit = NANOS_PER_UNIT[(field.type as Arrow.Duration).unit]!
  const values = data.values as BigInt64Array
  return Result.succeed({
    type: dbType("INTERVAL_DS"),
    get: (i) => (data.nullCount === 0 || data.getValid(i) ? intervalDS(values[i]! * perUnit) : null)
  })
}

/** An oracledb IntervalDS's signed total of nanoseconds (each of its fields carries the sign). */
const totalNanos = (v: { days: number; hours: number; minutes: number; seconds: number; fseconds: number }): bigint =>
  ((BigInt(v.days) * 24n + BigInt(v.hours)) * 60n + BigInt(v.minutes)) * 60n * 1_000_000_000n +
  BigInt(v.seconds) * 1_000_000_000n + BigInt(v.fseconds)

/**
 * An OUT interval value (oracledb IntervalYM / IntervalDS) as the core's builder of `type` takes it: months for
 * year_month, `{days, milliseconds}` for day_time, `{months, days, nanoseconds}` for month_day_nano, a count of
 * the unit for duration (digits finer than the unit truncated, as the builders do); any other value unchanged.
 *
 * @category binding
 * @since 0.1.0
 */
export const spanOutValue = (type: Arrow.DataType, value: unknown): unknown => {
  if (value instanceof oracledb.IntervalYM) {
    const { years, months } = value as { years: number; months: number }
    const total = years * 12 + months
    return Arrow.DataType.isInterval(type) && type.unit === Arrow.IntervalUnit.MONTH_DAY_NANO
      ? { months: total, days: 0, nanoseconds: 0 }
      : total
  }
  if (!(value instanceof oracledb.IntervalDS)) return value
  const ds = value as { days: number; hours: number; minutes: number; seconds: number; fseconds: number }
  const nanos = totalNanos(ds)
  if (Arrow.DataType.isDuration(type)) return nanos / NANOS_PER_UNIT[type.unit]!
  const time = nanos - BigInt(ds.days) * NANOS_PER_DAY
  if (Arrow.DataType.isInterval(type) && type.unit === Arrow.IntervalUnit.DAY_TIME) {
    return { days: ds.days, milliseconds: Number(time / 1_000_000n) }
  }
  return { months: 0, days: ds.days, nanoseconds: time }
}

/** The WKT forms {@link wktToSdoGeometry} takes, as its errors name them. */
const WKT_ACCEPTED =
  "POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON or a GEOMETRYCOLLECTION of points, lines, polygons and MULTIPOINTs, 2D or Z, not EMPTY (curves only as geoarrow.wkb)"

/**
 * geoarrow.wkb (binary storage) and geoarrow.wkt (string storage) columns bound as MDSYS.SDO_GEOMETRY; a value
 * that does not convert fails naming column and row: INVALID_DATA for WKB, INVALID_ARGUMENT for WKT text, with the
 * forms accepted.
 */
const geometryReader = (
  field: Arrow.Field,
  data: Arrow.Data,
  firstRow: number
): Result.Result<{ type: string; get: (i: number) => unknown }, AdbcError> => {
  const wkt = field.metadata.get("ARROW:extension:name") === "geoarrow.wkt"
  const srid = geometrySrid(field)
  if (Result.isFailure(srid)) return Result.fail(srid.failure)
  const cells = cellsOf(field, data)
  if (Result.isFailure(cells)) return Result.fail(cells.failure)
  const storage = cells.success
  if (storage.kind !== (wkt ? "string" : "binary")) {
    return Result.fail(adbcError("INVALID_ARGUMENT", `field ${JSON.stringify(field.name)}: ${wkt ? "geoarrow.wkt needs string" : "geoarrow.wkb needs binary"} storage, got ${field.type}`))
  }
  const values: Array<SdoValue | null> = []
  for (let i = 0; i < data.length; i++) {
    const value = storage.get(i)
    try {
      values.push(value === null ? null : typeof value === "string" ? wktToSdoGeometry(value, srid.success) : wkbToSdoGeometry(value as Uint8Array, srid.success))
    } catch (e) {
      const where = `column ${JSON.stringify(field.name)}: row ${firstRow + i + 1}: ${e instanceof Error ? e.message : String(e)}`
      return Result.fail(wkt ? invalidArgument(`${where}; accepted: ${WKT_ACCEPTED}`) : adbcError("INVALID_DATA", where))
    }
  }
  return Result.succeed({ type: "MDSYS.SDO_GEOMETRY", get: (i) => values[i] ?? null })
}

const cellsOf = (field: Arrow.Field, data: Arrow.Data): Result.Result<ColumnCells, AdbcError> => {
  try {
    return Result.succeed(columnCells(data))
  } catch (e) {
    if (e instanceof UnsupportedColumnError) {
      return Result.fail(adbcError("NOT_IMPLEMENTED", `field ${JSON.stringify(field.name)} of Arrow type ${field.type} cannot be bound`))
    }
    throw e
  }
}

/**
 * An arrow.json IN parameter bound as JSON (the database sees a JSON value, not text): each row's text parsed into
 * the form oracledb's OSON encoder takes (it skips oracledb's own transform, {@link WireJson}), numbers a double
 * cannot hold exactly kept as {@link WireDecimal} text (written as OSON NUMBERs digit for digit by the encoder hook
 * in DbPatches.ts). Text that is not JSON fails INVALID_ARGUMENT naming field and row.
 */
const jsonParameter = (
  field: Arrow.Field,
  cells: ColumnCells,
  rows: number
): Result.Result<{ type: DbType; get: (i: number) => unknown }, AdbcError> => {
  if (cells.kind !== "string") {
    return Result.fail(invalidArgument(`field ${JSON.stringify(field.name)}: arrow.json needs string storage, got ${field.type}`))
  }
  const values: Array<unknown> = new Array(rows)
  // objects take the shape oracledb's encoder reads ({fields, values}: lib/transformer.js transformJsonValue)
  const exact = (_key: string, value: unknown, context?: { source?: string }): unknown => {
    if (typeof value === "number") {
      return context?.source !== undefined && String(value) !== context.source ? new WireDecimal(context.source.toLowerCase()) : value
    }
    if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof WireDecimal) return value
    const fields = Object.keys(value)
    return { fields, values: fields.map((k) => (value as Record<string, unknown>)[k]) }
  }
  for (let i = 0; i < rows; i++) {
    const text = cells.get(i)
    if (text === null) {
      values[i] = null
      continue
    }
    try {
      values[i] = new WireJson(JSON.parse(text, exact as (key: string, value: unknown) => unknown))
    } catch (e) {
      return Result.fail(invalidArgument(`field ${JSON.stringify(field.name)}: row ${i + 1} is not JSON text (${e instanceof Error ? e.message : String(e)}); arrow.json values bind as JSON`))
    }
  }
  return Result.succeed({ type: dbType("JSON"), get: (i) => values[i] })
}

/** The longest string a PL/SQL OUT bind takes (PL/SQL VARCHAR2), and a SQL one (RETURNING INTO, VARCHAR2). */
const PLSQL_STRING_BYTES = 32_767
const SQL_STRING_BYTES = 4_000

/**
 * The binds of one batch of statement parameters (the specification's "Bind" column: NA types fail
 * NOT_IMPLEMENTED naming the type); `plsql` when the statement is a PL/SQL block, whose OUT strings hold more.
 *
 * @category binding
 * @since 0.1.0
 */
export const parameterColumns = (
  batch: Arrow.RecordBatch,
  plsql = false
): Result.Result<Array<BoundColumn>, AdbcError> => {
  const out: Array<BoundColumn> = []
  for (let c = 0; c < batch.schema.fields.length; c++) {
    const field = batch.schema.fields[c]!
    const direction = directionOf(field)
    if (Result.isFailure(direction)) return Result.fail(direction.failure)
    const data = batch.getChildAt(c)!.data[0]!
    const typeId = field.type.typeId
    if (direction.success !== "in" && (typeId === Arrow.Type.Interval || typeId === Arrow.Type.Duration)) {
      const span = spanParameter(field, data)
      if (Result.isFailure(span)) return Result.fail(span.failure)
      out.push({ field, direction: direction.success, def: { type: span.success.type, dir: DIRS[direction.success] }, get: span.success.get })
      continue
    }
    const sqlType = bindTypeFor(field)
    if (Result.isFailure(sqlType)) return Result.fail(sqlType.failure)
    const cells = cellsOf(field, data)
    if (Result.isFailure(cells)) return Result.fail(cells.failure)
    const r: Result.Result<{ type: DbType; get: (i: number) => unknown; maxSize?: number }, AdbcError> = sqlType.success === "JSON"
      ? direction.success === "in"
        ? jsonParameter(field, cells.success, data.length)
        : Result.succeed({ type: dbType("VARCHAR"), get: (cells.success as { get: (i: number) => unknown }).get, maxSize: 32767 })
      : cells.success.kind === "decimal"
      ? Result.succeed(direction.success === "in" ? decimalParameter(cells.success.get) : decimalOutParameter(cells.success.get))
      : reader(field, cells.success, sqlType.success, data, undefined)
    if (Result.isFailure(r)) return Result.fail(r.failure)
    // an OUT string may take what the statement allows: 32,767 bytes in PL/SQL, 4,000 in SQL (RETURNING INTO)
    const def: BindDef = {
      type: r.success.type,
      dir: DIRS[direction.success],
      ...(r.success.maxSize !== undefined
        ? { maxSize: Math.max(r.success.maxSize, direction.success === "in" ? 0 : plsql ? PLSQL_STRING_BYTES : SQL_STRING_BYTES) }
        : {})
    }
    out.push({ field, direction: direction.success, def, get: r.success.get })
  }
  return Result.succeed(out)
}

/**
 * The binds of one batch of ingested rows (the specification's "Ingest" column), strings checked against their
 * columns' limits (`limitOf`); refusals name rows counted across the whole ingest, whose row `firstRow` (0-based) is
 * the batch's first.
 *
 * @category binding
 * @since 0.1.0
 */
export const ingestColumns = (
  batch: Arrow.RecordBatch,
  structType: StructStorage,
  limitOf: (column: string) => StringLimit | undefined,
  firstRow = 0
): Result.Result<Array<BoundColumn>, AdbcError> => {
  const out: Array<BoundColumn> = []
  for (let c = 0; c < batch.schema.fields.length; c++) {
    const field = batch.schema.fields[c]!
    const sqlType = ingestColumnType(field, structType)
    if (Result.isFailure(sqlType)) return Result.fail(sqlType.failure)
    const data = batch.getChildAt(c)!.data[0]!
    const t = field.type.typeId
    if (t === Arrow.Type.Struct || t === Arrow.Type.List || t === Arrow.Type.LargeList || t === Arrow.Type.FixedSizeList) {
      const r = nestedReader(field, data, structType)
      out.push({ field, direction: "in", def: { type: r.type, maxSize: r.maxSize, dir: oracledb.BIND_IN }, get: r.get })
      continue
    }
    if (t === Arrow.Type.Null) {
      out.push({ field, direction: "in", def: { type: dbType("NUMBER"), dir: oracledb.BIND_IN }, get: () => null })
      continue
    }
    if (sqlType.success === "SDO_GEOMETRY") {
      const r = geometryReader(field, data, firstRow)
      if (Result.isFailure(r)) return Result.fail(r.failure)
      out.push({ field, direction: "in", def: { type: r.success.type, dir: oracledb.BIND_IN }, get: r.success.get })
      continue
    }
    if (t === Arrow.Type.Interval) {
      const r = intervalReader(field, data, firstRow)
      if (Result.isFailure(r)) return Result.fail(r.failure)
      out.push({ field, direction: "in", def: { type: r.success.type, dir: oracledb.BIND_IN }, get: r.success.get })
      continue
    }
    const cells = cellsOf(field, data)
    if (Result.isFailure(cells)) return Result.fail(cells.failure)
    const r = reader(field, cells.success, sqlType.success, data, limitOf(field.name), firstRow)
    if (Result.isFailure(r)) return Result.fail(r.failure)
    out.push({
      field,
      direction: "in",
      def: { type: r.success.type, dir: oracledb.BIND_IN, ...(r.success.maxSize !== undefined ? { maxSize: r.success.maxSize } : {}) },
      get: r.success.get
    })
  }
  return Result.succeed(out)
}

/**
 * Row arrays `[start, end)` of the IN and IN OUT columns (OUT columns get undefined).
 *
 * @category binding
 * @since 0.1.0
 */
export const bindRows = (columns: ReadonlyArray<BoundColumn>, start: number, end: number): Array<Array<unknown>> => {
  const rows: Array<Array<unknown>> = new Array(end - start)
  for (let r = start; r < end; r++) {
    const row = new Array<unknown>(columns.length)
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c]!
      row[c] = column.direction === "out" ? undefined : column.get(r)
    }
    rows[r - start] = row
  }
  return rows
}
