/**
 * Direct path load (connection.directPathLoad; messages/directPathPrepare.js, directPathLoadStream.js,
 * directPathOp.js): prepare describes the listed columns, the load stream carries rows as column segments, finish
 * inserts them and commits as Oracle's direct path load does, abort drops them.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { blobValue, timestampTZValue, timestampValue } from "@duckdb/node-api"
import { numberValue } from "../binds.ts"
import { microsOfOracle } from "../datetime.ts"
import { ora } from "../errors.ts"
import { intervalDsBind, intervalYmBind, monthsOfIntervalYm, nanosOfIntervalDs } from "../intervals.ts"
import { decodeNumber, decodeNumberFast } from "../number.ts"
import { storedJsonOfOson } from "../oson.ts"
import type { SessionState } from "../session-state.ts"
import type { ResultColumn } from "../statement.ts"
import { ProtocolError } from "../tns.ts"
import type { OraType } from "../types.ts"
import type { ReadBuffer, WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"
import { writeColumnInfo } from "./describe.ts"
import { toOra, writeEndOfCall, writeError } from "./end-of-call.ts"

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
  s.directPaths.set(id, { owner, table: meta.name, columns, rows: [] })
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
  const dbOff = s.db.dbOffsetMinutes()
  let values: Array<Buffer | null> = []
  let longParts: Array<Buffer> | undefined
  while (r.remaining() > 0) {
    const flags = r.u8()
    if ((flags & 0x20) !== 0) r.u16be() // fast row length
    const segments = r.u8()
    for (let k = 0; k < segments; k++) {
      const b = r.u8()
      if (b === 0xff) {
        values.push(null)
        continue
      }
      const bytes = b === 0xfe ? r.take(r.u16be()) : r.take(b)
      const continues = b === 0xfe && k === 0 && (flags & 0x02) !== 0 && longParts !== undefined
      const splits = b === 0xfe && k === segments - 1 && (flags & 0x01) !== 0
      if (continues) longParts!.push(Buffer.from(bytes))
      else if (splits) longParts = [Buffer.from(bytes)]
      if (continues || splits) {
        // a value spread over several pieces ends in the first piece that does not split it further
        if (!splits) {
          values.push(Buffer.concat(longParts!))
          longParts = undefined
        }
        continue
      }
      values.push(Buffer.from(bytes))
    }
    if ((flags & 0x04) !== 0) {
      if (values.length !== dp.columns.length) throw new ProtocolError("direct path row with a wrong number of values")
      dp.rows.push(values.map((v, i) => (v === null ? null : directPathValue(dp.columns[i]!.type, v, dbOff))))
      values = []
    }
  }
  writeEndOfCall(s, w, 0, 0)
}

/** Finish (inserts and commits, like Oracle's direct path load) or abort (function 130). */
export const directPathOp = async (s: SessionState, r: ReadBuffer, w: WriteBuffer): Promise<void> => {
  const op = r.ub()
  const id = r.ub()
  const dp = s.directPaths.get(id)
  s.directPaths.delete(id)
  if (dp === undefined || op !== 2 || dp.rows.length === 0) {
    writeEndOfCall(s, w, 0, 0)
    return
  }
  const sql = s.sql!
  const names = dp.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(", ")
  const binds = dp.columns.map((_, i) => `:${i + 1}`).join(", ")
  const insert = `INSERT INTO "${dp.owner}"."${dp.table}" (${names}) VALUES (${binds})`
  try {
    await sql.commit()
    await sql.execute(insert, dp.rows, dp.columns.map((c) => ({ dty: c.type.dty, csfrm: c.type.csfrm, maxSize: c.type.maxSize })), { batchErrors: false, dmlRowCounts: false })
    await sql.commit()
    writeEndOfCall(s, w, 0, dp.rows.length)
  } catch (e) {
    await sql.rollback().catch(() => undefined)
    writeError(s, w, toOra(e), 0, 0)
  }
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
      return timestampValue(microsOfOracle(b))
    case "timestamptz":
      return timestampTZValue(microsOfOracle(b))
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
