/**
 * Direct path load (connection.directPathLoad; messages/directPathPrepare.js, directPathLoadStream.js,
 * directPathOp.js): prepare describes the listed columns, the load stream carries rows as column segments, finish
 * inserts them and commits as Oracle's direct path load does, abort drops them. The values stay in the pieces they
 * arrived in (only their positions are noted) until finish lays them out column-wise with the cell writers of
 * executeMany (bulk-insert.ts) and appends them; a value those cannot take sends the load through the general INSERT.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { blobValue, timestampTZValue, timestampValue } from "@duckdb/node-api"
import { numberValue } from "../params.ts"
import { datetimeOfOracle, datetimeText, microsOfOracle } from "../datetime.ts"
import { BulkInsertError, BulkRows, columnInfo } from "../../engine/index.ts"
import { cellWriter } from "../bind-row-decoder.ts"
import { type BatchTarget, NotExact } from "../bulk-insert.ts"
import { ora } from "../errors.ts"
import { objectAccessError } from "../privileges.ts"
import { intervalDsBind, intervalYmBind, monthsOfIntervalYm, nanosOfIntervalDs } from "../intervals.ts"
import { decodeNumber, decodeNumberFast } from "../number.ts"
import { storedJsonOfOson } from "../extended-json.ts"
import type { DirectPathLoad, SessionState } from "../session-state.ts"
import type { ResultColumn } from "../statement.ts"
import { ProtocolError } from "../tns.ts"
import type { OraType } from "../types.ts"
import type { ReadBuffer, WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"
import { writeColumnInfo } from "./describe.ts"
import { toOra, writeEndOfCall, writeError } from "./end-of-call.ts"
import { startInsertTimer } from "./execute.ts"
import { quoteDuck } from "../names.ts"

/** Prepare (function 128): resolves the table and describes the listed columns. */
export const directPathPrepare = (s: SessionState, r: ReadBuffer, w: WriteBuffer): void => {
  r.ub() // op code (load)
  r.u8()
  const numKeywords = r.ub()
  r.u8()
  const numIn = r.ub()
  for (let k = 0; k < 6; k++) r.u8()
  let schema = ""
  let table = ""
  const names: Array<string> = []
  for (let k = 0; k < numKeywords; k++) {
    r.ub()
    const len = r.ub()
    const value = len > 0 ? (r.bytesWithLength()?.toString("utf8") ?? "") : ""
    const index = r.ub()
    if (index === 3) schema = value
    else if (index === 1) table = value
    else if (index === 4) names.push(value)
  }
  for (let k = 0; k < numIn; k++) r.ub()
  const db = s.db
  const pick = <A>(exact: string, find: (n: string) => A | undefined): { name: string; found: A | undefined } => {
    const a = find(exact)
    if (a !== undefined) return { name: exact, found: a }
    return { name: exact.toUpperCase(), found: find(exact.toUpperCase()) }
  }
  const owner = schema.length > 0 ? pick(schema, (n) => db.catalog.users.get(n)).name : s.sql!.schema
  const t = pick(table, (n) => db.catalog.getTable(owner, n))
  if (t.found === undefined || t.found.kind !== "TABLE") {
    writeError(s, w, ora.tableNotFound(db.settings.version, owner, t.name), 0, 0)
    return
  }
  const meta = t.found
  const denied = objectAccessError(s.sql!.requester, meta.owner, meta.name, "INSERT")
  if (denied !== undefined) {
    writeError(s, w, denied, 0, 0)
    return
  }
  const columns: Array<ResultColumn> = []
  for (const n of names) {
    const c = meta.columns.find((x) => x.name === n) ?? meta.columns.find((x) => x.name === n.toUpperCase())
    if (c === undefined) {
      writeError(s, w, ora.invalidIdentifier(n), 0, 0)
      return
    }
    columns.push({ name: c.name, type: c.type, nullable: c.nullable })
  }
  const id = s.nextId()
  s.directPaths.set(id, { owner, table: meta.name, columns, pieces: [], cells: new Int32Array(3 * 1024), cellCount: 0, rows: 0 })
  w.u8(Msg.PARAMETER)
  w.ub(columns.length)
  columns.forEach((c, i) => writeColumnInfo(s, w, c, i))
  w.ub(0) // parameters
  w.ub(4) // output values; [3] is the cursor
  w.ub(0)
  w.ub(0)
  w.ub(0)
  w.ub(id)
  writeEndOfCall(s, w, 0, 0)
}

/** Load stream (function 129): row pieces of column segments. */
export const directPathLoadStream = (s: SessionState, r: ReadBuffer, w: WriteBuffer): void => {
  const id = r.ub()
  r.u8()
  r.ub() // total piece length
  r.ub() // stream version
  r.u8()
  r.ub()
  r.u8()
  r.u8()
  const dp = s.directPaths.get(id)
  if (dp === undefined) {
    writeError(s, w, ora.invalidCursor(), 0, 0)
    return
  }
  // server work of the load, counted with the insert work (server stats)
  const timer = startInsertTimer(s)
  try {
    readRows(r, dp)
  } finally {
    timer(0, true)
  }
  writeEndOfCall(s, w, 0, 0)
}

/** `cells`, or a copy twice its size when it has no room for 3 more entries after `used`. */
const withRoom = (cells: Int32Array, used: number): Int32Array => {
  if (used + 3 <= cells.length) return cells
  const grown = new Int32Array(cells.length * 2)
  grown.set(cells)
  return grown
}

/** Notes the positions of the values of a load stream piece's rows (`r` at its first row) in `dp`. */
const readRows = (r: ReadBuffer, dp: DirectPathLoad): void => {
  const piece = dp.pieces.length
  // one copy of the piece: the values are read from it when the load finishes
  const buf = Buffer.from(r.buf.subarray(r.pos))
  dp.pieces.push(buf)
  let cells = dp.cells
  let used = dp.cellCount
  const width = dp.columns.length
  let pos = 0
  let values = 0
  let longParts: Array<Buffer> | undefined
  const need = (n: number) => {
    if (pos + n > buf.length) throw new ProtocolError("direct path piece ends inside a row")
  }
  try {
    while (pos < buf.length) {
      need(2)
      const flags = buf[pos++]!
      if ((flags & 0x20) !== 0) pos += 2 // fast row length
      need(1)
      const segments = buf[pos++]!
      for (let k = 0; k < segments; k++) {
        need(1)
        const b = buf[pos++]!
        if (b === 0xff) {
          cells = withRoom(cells, used)
          cells[used + 2] = -1
          used += 3
          values++
          continue
        }
        let length = b
        if (b === 0xfe) {
          need(2)
          length = buf.readUInt16BE(pos)
          pos += 2
        }
        need(length)
        const at = pos
        pos += length
        const continues = b === 0xfe && k === 0 && (flags & 0x02) !== 0 && longParts !== undefined
        const splits = b === 0xfe && k === segments - 1 && (flags & 0x01) !== 0
        if (continues) longParts!.push(buf.subarray(at, at + length))
        else if (splits) longParts = [buf.subarray(at, at + length)]
        if (continues || splits) {
          // a value spread over several pieces ends in the first piece that does not split it further
          if (!splits) {
            const joined = Buffer.concat(longParts!)
            longParts = undefined
            cells = withRoom(cells, used)
            cells[used] = dp.pieces.length
            cells[used + 1] = 0
            cells[used + 2] = joined.length
            used += 3
            dp.pieces.push(joined)
            values++
          }
          continue
        }
        cells = withRoom(cells, used)
        cells[used] = piece
        cells[used + 1] = at
        cells[used + 2] = length
        used += 3
        values++
      }
      if ((flags & 0x04) !== 0) {
        if (values !== width) throw new ProtocolError("direct path row with a wrong number of values")
        dp.rows++
        values = 0
      }
    }
  } finally {
    dp.cells = cells
    dp.cellCount = used
  }
}

/** Finish (inserts and commits, like Oracle's direct path load) or abort (function 130). */
export const directPathOp = async (s: SessionState, r: ReadBuffer, w: WriteBuffer): Promise<void> => {
  const op = r.ub()
  const id = r.ub()
  const dp = s.directPaths.get(id)
  s.directPaths.delete(id)
  if (dp === undefined || op !== 2 || dp.rows === 0) {
    writeEndOfCall(s, w, 0, 0)
    return
  }
  const sql = s.sql!
  const names = dp.columns.map((c) => `${quoteDuck(c.name)}`).join(", ")
  const binds = dp.columns.map((_, i) => `:${i + 1}`).join(", ")
  const insert = `INSERT INTO "${dp.owner}"."${dp.table}" (${names}) VALUES (${binds})`
  const timer = startInsertTimer(s)
  let inserted = 0
  try {
    await sql.commit()
    const target = await sql.appendTargetOf(insert)
    const bulk = target === undefined ? undefined : bulkRowsOfLoad(dp, target)
    const appended = bulk === undefined ? undefined : await sql.appendBulk(target!.table, bulk)
    if (appended === undefined) {
      // the general path decodes every value and reports the failing row's error
      const specs = dp.columns.map((c) => ({ dty: c.type.dty, csfrm: c.type.csfrm, maxSize: c.type.maxSize }))
      await sql.execute(insert, valuesOfLoad(dp, s.db.dbOffsetMinutes()), specs, { batchErrors: false, dmlRowCounts: false })
    }
    await sql.commit()
    inserted = dp.rows
    writeEndOfCall(s, w, 0, dp.rows)
  } catch (e) {
    await sql.rollback().catch(() => undefined)
    writeError(s, w, toOra(e), 0, 0)
  } finally {
    timer(inserted, true)
  }
}

/**
 * The load's rows laid out for the append target of its INSERT (column `i` = listed column `i`), or undefined when
 * a column type or a value needs the general path (or breaks a limit the layout checks, then reported by that path).
 */
const bulkRowsOfLoad = (dp: DirectPathLoad, target: BatchTarget): BulkRows | undefined => {
  const width = dp.columns.length
  if (target.columns.length !== width) return undefined
  const writers = dp.columns.map((c, i) => {
    const info = columnInfo(target.columns[i]!.name, target.columns[i]!.type)
    // LOBs, JSON and intervals have no cell writer: the general path takes them
    return info.layout === "other" || info.layout === "uint64" ? undefined : cellWriter({ dty: c.type.dty, csfrm: c.type.csfrm, maxSize: c.type.maxSize }, info.layout, info.scale, target.zoned[i] === true, target.fractions[i])
  })
  if (writers.some((x) => x === undefined)) return undefined
  const out = new BulkRows(target.columns, dp.rows)
  const { cells, pieces } = dp
  try {
    let k = 0
    for (let row = 0; row < dp.rows; row++)
      for (let c = 0; c < width; c++, k += 3) {
        const length = cells[k + 2]!
        if (length < 0) out.setNull(c, row)
        else writers[c]!(pieces[cells[k]!]!, cells[k + 1]!, length, out, c, row)
      }
  } catch (e) {
    if (e instanceof NotExact || e instanceof BulkInsertError) return undefined
    throw e
  }
  return out
}

/** The load's rows as bind values (general path). */
const valuesOfLoad = (dp: DirectPathLoad, dbOffsetMinutes: number): Array<Array<DuckDBValue>> => {
  const width = dp.columns.length
  const rows: Array<Array<DuckDBValue>> = []
  let k = 0
  for (let row = 0; row < dp.rows; row++) {
    const values: Array<DuckDBValue> = []
    for (let c = 0; c < width; c++, k += 3) {
      const length = dp.cells[k + 2]!
      values.push(length < 0 ? null : directPathValue(dp.columns[c]!.type, dp.pieces[dp.cells[k]!]!.subarray(dp.cells[k + 1]!, dp.cells[k + 1]! + length), dbOffsetMinutes))
    }
    rows.push(values)
  }
  return rows
}

/** Decodes one direct path column value (raw bytes, no length prefix) into a DuckDB value. */
const directPathValue = (type: OraType, b: Buffer, dbOffsetMinutes: number): DuckDBValue => {
  switch (type.kind) {
    case "number":
      return decodeNumberFast(b) ?? numberValue(decodeNumber(b))
    case "float":
    case "double": {
      const c = Buffer.from(b)
      if ((c[0]! & 0x80) !== 0) c[0] = c[0]! & 0x7f
      else for (let k = 0; k < c.length; k++) c[k] = ~c[k]! & 0xff
      return c.length === 8 ? c.readDoubleBE(0) : c.readFloatBE(0)
    }
    case "date":
    case "timestamp":
      // TIMESTAMP(7-9) columns hold text (datetime-functions.ts)
      return type.duck === "VARCHAR" ? datetimeText(datetimeOfOracle(b)) : timestampValue(microsOfOracle(b))
    case "timestamptz":
      // stored as text with the value's own zone (datetime-functions.ts)
      return datetimeText(datetimeOfOracle(b))
    case "timestampltz":
      return timestampTZValue(microsOfOracle(b) - BigInt(dbOffsetMinutes) * 60_000_000n)
    case "boolean":
      return b[0] === 1
    case "raw":
    case "blob":
    case "longraw":
      return blobValue(b)
    case "nvarchar":
    case "nclob":
    case "clob":
      // the client sends CLOB data as LONG in the national character set (directPathPrepare.js processColumnInfo)
      return Buffer.from(b).swap16().toString("utf16le")
    case "json":
      return storedJsonOfOson(b)
    case "intervalds":
      return intervalDsBind(nanosOfIntervalDs(b))
    case "intervalym":
      return intervalYmBind(monthsOfIntervalYm(b))
    default:
      return b.toString("utf8")
  }
}
