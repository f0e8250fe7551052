/**
 * One client connection: TNS framing (CONNECT/ACCEPT/REFUSE, DATA, MARKER), TTC negotiation, O5LOGON,
 * and the TTC functions node-oracledb 26.0.0 thin uses (execute, re-execute, fetch, commit, rollback,
 * ping, logoff, LOB operations), plus break/reset handling and fault injection.
 *
 * Byte layouts: node_modules/oracledb/lib/thin/sqlnet/{packet,networkSession}.js and
 * lib/thin/protocol/messages/*.js (see /work/shared/notes/oracle-protocol.md).
 */
import type * as net from "node:net"
import type { DuckDBValue } from "@duckdb/node-api"
import type { Chunk, Cursor } from "../engine/index.ts"
import { checkPhaseTwo, makeChallenge, makeVerifier, serverResponse, SDER_COUNT, VERIFIER_12C, VGEN_COUNT, type LogonChallenge, type Verifier } from "./auth.ts"
import { blobValue, intervalValue, timestampTZValue, timestampValue } from "@duckdb/node-api"
import { numberValue, readBind, writeOutValue } from "./binds.ts"
import { microsOfOracle } from "./datetime.ts"
import { decodeNumber, decodeNumberFast } from "./number.ts"
import { type OracleDatabase, type SessionInfo, versionInfo } from "./database.ts"
import { columnEncoder, decodeOson, type ColumnEncoder } from "./encode.ts"
import { ora, OraError } from "./errors.ts"
import { type PlsqlResult } from "./plsql.ts"
import { type BindSpec, classify, type QueryResult, type ResultColumn, returnBindFlags, SqlSession } from "./sqlsession.ts"
import { blobType, clobType, Dty, nclobType, type OraType } from "./types.ts"
import { ReadBuffer, TruncatedRequestError, WriteBuffer } from "./wire.ts"

/** Fault injection switches (all optional; may be changed while the server runs). */
export interface OracleFaults {
  /** Refuse new connections at the listener (TNS refuse with ORA-12516). */
  refuseLogins?: boolean
  /** Close a session's socket after it sent this many replies (counted after login). */
  dropAfterReplies?: number
  /** Close the socket in the middle of a reply that carries rows. */
  dropMidResult?: boolean
  /** Delay every reply by this many milliseconds. */
  delayMs?: number
}

/** What a session needs from its server. */
export interface SessionHost {
  readonly db: OracleDatabase
  readonly faults: OracleFaults
  readonly sessionTimeZone: string | undefined
  onClose(session: ProtocolSession): void
}

const PKT_CONNECT = 1
const PKT_ACCEPT = 2
const PKT_REFUSE = 4
const PKT_DATA = 6
const PKT_MARKER = 12
const FLAG_EOF = 0x0040
const FLAG_END_OF_REQUEST = 0x0800
const FLAG_END_OF_RESPONSE = 0x2000
const MAX_PACKET = 2_097_152

const MSG_PROTOCOL = 1
const MSG_DATA_TYPES = 2
const MSG_FUNCTION = 3
const MSG_ERROR = 4
const MSG_ROW_DATA = 7
const MSG_PARAMETER = 8
const MSG_IO_VECTOR = 11
const MSG_LOB_DATA = 14
const MSG_DESCRIBE_INFO = 16
const MSG_PIGGYBACK = 17
const MSG_IMPLICIT_RESULTSET = 27
const MSG_END_OF_REQUEST = 29

const OPT_PARSE = 0x01
const OPT_BIND = 0x08
const OPT_DEFINE = 0x10
const OPT_EXECUTE = 0x20
const OPT_FETCH = 0x40
const OPT_COMMIT = 0x100
const OPT_BATCH_ERRORS = 0x80000
const OPT_DESCRIBE = 0x20000
const EXEC_DML_ROWCOUNTS = 0x4000

const LOB_GET_LENGTH = 0x0001
const LOB_READ = 0x0002
const LOB_TRIM = 0x0020
const LOB_WRITE = 0x0040
const LOB_GET_CHUNK_SIZE = 0x4000
const LOB_CREATE_TEMP = 0x0110
const LOB_FREE_TEMP = 0x0111
const LOB_OPEN = 0x8000
const LOB_CLOSE = 0x10000
const LOB_IS_OPEN = 0x11000
const LOB_ARRAY = 0x80000
const LOB_CHUNK = 8132

interface ActiveResult {
  readonly columns: ReadonlyArray<ResultColumn>
  readonly cursor: Cursor
  chunk: Chunk | null
  pos: number
  done: boolean
  sent: number
  encoders: Array<ColumnEncoder>
  /** Rows already encoded ahead of the next FETCH. */
  pending?: { readonly w: WriteBuffer; readonly ends: Array<number>; taken: number } | undefined
  /** Set when the client closed the cursor or it was re-executed. */
  closed?: boolean | undefined
}

interface ExecHeader {
  readonly options: number
  readonly cursorId: number
  readonly sqlText: string | undefined
  readonly numIters: number
  readonly execFlags: number
  readonly specs: Array<BindSpec>
  readonly defines: Array<BindSpec>
}

/** Rows decoded ahead of execution: all of them, or (after chunk inserts) the rest with the rows already inserted. */
type PreRows = Array<Array<DuckDBValue>> | (() => { rows: Array<Array<DuckDBValue>>; offset: number; inserted: number })

const BULK_CHUNK = 25_000

/** Bind rows decoded while a large request is still arriving. */
interface IncrementalRows {
  /** Request bytes up to the first bind row (re-parsed when the request is complete). */
  readonly head: Buffer
  readonly specs: ReadonlyArray<BindSpec>
  readonly plsql: boolean
  readonly skip: ReadonlyArray<boolean> | undefined
  readonly order: ReadonlyArray<number>
  readonly rows: Array<Array<DuckDBValue>>
  /** SQL text when the statement is a bulk-capable INSERT: chunks are then inserted while the rest arrives. */
  readonly bulkSql: string | undefined
  /** Rows handed to chunk inserts so far, rows they inserted, and the first row of a failed chunk. */
  flushed: number
  inserted: number
  failedAt: number | undefined
  /** Bytes after the last complete row. */
  rest: Buffer
}

interface ServerCursor {
  readonly id: number
  sql: string
  specs: Array<BindSpec>
  directions: Array<number> | undefined
  defines: Array<{ dty: number; maxSize: number }> | undefined
  result: ActiveResult | undefined
  dmlRowCounts: boolean
}

interface LobEntry {
  data: string | Buffer
  readonly blob: boolean
  readonly temp: boolean
  /** NCLOB: the client exchanges data as UTF-16BE. */
  readonly nchar: boolean
}

/** Reply assembled for one request. */
interface Reply {
  readonly w: WriteBuffer
  /** True when the reply carries rows (for the mid-result fault). */
  rows: boolean
  /** Negotiation replies (PROTOCOL, DATA_TYPES) never carry the end-of-request message. */
  negotiation?: boolean
}

class ProtocolError extends Error {}

/** A client connection. */
export class ProtocolSession {
  private inbuf: Buffer = Buffer.alloc(0)
  private largeSdu = false
  private sdu = 8192
  private fieldVersion: number
  private endOfRequest = false
  private phase: "connect" | "connect-data" | "ttc" | "closed" = "connect"
  private parts: Array<Buffer> = []
  private queue: Promise<void> = Promise.resolve()
  private processing = false
  private breakPending = false
  private awaitingReset = false
  private pendingAfterReset: Buffer | undefined
  private replies = 0
  private loggedOnReplySent = false
  // authentication
  private user = ""
  private verifier: Verifier | undefined
  private challenge: LogonChallenge | undefined
  private sql: SqlSession | undefined
  private info: SessionInfo | undefined
  private readonly cursors = new Map<number, ServerCursor>()
  private nextCursorId = 1
  private readonly lobs = new Map<number, LobEntry>()
  private nextLobId = 1
  private clientTz = "+00:00"
  private program = "node"
  private machine = "localhost"
  private osUser = "unknown"

  constructor(
    private readonly socket: net.Socket,
    private readonly host: SessionHost
  ) {
    this.fieldVersion = versionInfo(host.db.settings.version).fieldVersion
    socket.setNoDelay(true)
    socket.on("data", (d) => this.onData(d))
    socket.on("error", () => this.close())
    socket.on("close", () => this.close())
  }

  private isClosed(): boolean {
    return this.phase === "closed"
  }

  /** Closes the connection and releases the session. */
  close(): void {
    if (this.phase === "closed") return
    this.phase = "closed"
    this.socket.destroy()
    if (this.info !== undefined) this.host.db.sessions.delete(this.info.sid)
    for (const c of this.cursors.values()) if (c.result !== undefined) closeResult(c.result)
    this.cursors.clear()
    const sql = this.sql
    this.sql = undefined
    if (sql !== undefined) {
      // let a running statement finish before closing its engine session
      void this.queue.then(() => sql.engine.close())
    }
    this.host.onClose(this)
  }

  // ------------------------------------------------------------------ framing

  private onData(d: Buffer): void {
    if (this.phase === "closed") return
    this.inbuf = this.inbuf.length === 0 ? d : Buffer.concat([this.inbuf, d])
    try {
      while (this.inbuf.length >= 8) {
        const len = this.largeSdu ? this.inbuf.readUInt32BE(0) : this.inbuf.readUInt16BE(0)
        if (len < 8 || len > MAX_PACKET) throw new ProtocolError(`bad packet length ${len}`)
        if (this.inbuf.length < len) break
        const packet = this.inbuf.subarray(0, len)
        this.inbuf = this.inbuf.subarray(len)
        this.onPacket(packet)
      }
    } catch (e) {
      if (process.env.ORACLE_TESTKIT_DEBUG !== undefined) console.error("oracle testkit framing:", e)
      // malformed input closes only this session
      this.close()
    }
  }

  private onPacket(p: Buffer): void {
    const type = p[4]!
    if (this.phase === "connect") {
      if (type !== PKT_CONNECT) throw new ProtocolError("expected CONNECT")
      this.onConnect(p)
      return
    }
    if (this.phase === "connect-data") {
      if (type !== PKT_DATA) throw new ProtocolError("expected connect data")
      this.finishConnect(p.subarray(10).toString("ascii"))
      return
    }
    if (type === PKT_MARKER) {
      this.onMarker(p)
      return
    }
    if (type !== PKT_DATA) throw new ProtocolError(`unexpected packet type ${type}`)
    if (p.length < 10) throw new ProtocolError("short data packet")
    const flags = p.readUInt16BE(8)
    if ((flags & FLAG_EOF) !== 0) {
      this.close()
      return
    }
    const part = p.subarray(10)
    if ((flags & FLAG_END_OF_REQUEST) !== 0) {
      const inc = this.incremental
      this.incremental = undefined
      this.pendingBytes = 0
      if (inc !== undefined && inc !== null) {
        const bulkSql = inc.bulkSql
        // no more chunk flushing: the final execution takes the rest
        ;(inc as { bulkSql: string | undefined }).bulkSql = undefined
        this.decodeMore(inc, Buffer.concat([inc.rest, part]))
        if (inc.rest.length !== 0) throw new ProtocolError("trailing bytes after bind rows")
        if (bulkSql === undefined || inc.flushed === 0) this.enqueue(inc.head, inc.rows)
        else
          this.enqueue(inc.head, () => {
            const offset = inc.failedAt ?? inc.flushed
            return { rows: inc.rows.slice(offset), offset, inserted: inc.inserted }
          })
        return
      }
      this.parts.push(part)
      const payload = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts)
      this.parts = []
      this.enqueue(payload)
      return
    }
    // a large request (executeMany) is decoded while it arrives, overlapping the client's encoding
    const inc = this.incremental
    if (inc !== undefined && inc !== null) {
      this.decodeMore(inc, inc.rest.length === 0 ? part : Buffer.concat([inc.rest, part]))
      return
    }
    this.parts.push(part)
    this.pendingBytes += part.length
    if (inc === undefined && this.pendingBytes >= 262_144) this.startIncremental()
  }

  private incremental: IncrementalRows | null | undefined
  private pendingBytes = 0

  /** Tries to decode the header of the request being received; null when the request is not a bind-row request. */
  private startIncremental(): void {
    const payload = Buffer.concat(this.parts)
    const r = new ReadBuffer(payload)
    try {
      if (r.u8() !== MSG_FUNCTION || this.sql === undefined) {
        this.incremental = null
        return
      }
      const fn = r.u8()
      r.u8()
      if (this.fieldVersion >= 18) r.ub()
      let specs: ReadonlyArray<BindSpec>
      let sql: string
      let skip: ReadonlyArray<boolean> | undefined
      if (fn === 94) {
        const h = this.readExecuteHeader(r)
        if ((h.options & OPT_DEFINE) !== 0 || h.specs.length === 0) {
          this.incremental = null
          return
        }
        sql = h.sqlText ?? this.cursors.get(h.cursorId)?.sql ?? ""
        specs = h.specs
        skip = returnBindFlags(sql, specs.length)
      } else if (fn === 4) {
        const cur = this.cursors.get(r.ub())
        r.ub()
        r.ub()
        r.ub()
        if (cur === undefined || cur.specs.length === 0) {
          this.incremental = null
          return
        }
        sql = cur.sql
        specs = cur.specs
        skip = cur.directions?.map((d) => d === 16) ?? returnBindFlags(sql, specs.length)
      } else {
        this.incremental = null
        return
      }
      const plsql = classify(sql) === "plsql"
      if (plsql) {
        this.incremental = null
        return
      }
      const batchErrors = fn === 94 && (this.readExecuteHeader(new ReadBuffer(payload, 3 + (this.fieldVersion >= 18 ? 1 + (payload[3] ?? 0) : 0))).options & OPT_BATCH_ERRORS) !== 0
      const bulkSql = !batchErrors && skip === undefined && /^\s*INSERT\b/i.test(sql) ? sql : undefined
      const inc: IncrementalRows = {
        head: Buffer.from(payload.subarray(0, r.pos)),
        specs,
        plsql,
        skip,
        order: this.bindOrder(specs, plsql, skip),
        rows: [],
        rest: Buffer.alloc(0),
        bulkSql,
        flushed: 0,
        inserted: 0,
        failedAt: undefined
      }
      this.parts = []
      this.incremental = inc
      this.decodeMore(inc, payload.subarray(r.pos))
    } catch (e) {
      // not enough bytes for the header yet (try again with the next packet) or not decodable this way
      if (!(e instanceof TruncatedRequestError)) this.incremental = null
    }
  }

  /** Decodes all complete bind rows in `bytes`, keeping the incomplete tail. */
  private decodeMore(inc: IncrementalRows, bytes: Buffer): void {
    const r = new ReadBuffer(bytes)
    let pos = 0
    try {
      while (r.remaining() > 0 && r.peek() === MSG_ROW_DATA) {
        r.u8()
        inc.rows.push(this.readRow(r, inc.specs, inc.order))
        pos = r.pos
      }
    } catch (e) {
      if (!(e instanceof TruncatedRequestError)) throw e
    }
    inc.rest = pos === bytes.length ? Buffer.alloc(0) : Buffer.from(bytes.subarray(pos))
    if (inc.bulkSql !== undefined && inc.rows.length - inc.flushed >= BULK_CHUNK) this.flushChunk(inc)
  }

  /** Queues the insert of the rows decoded so far (runs on DuckDB's threads while more rows arrive). */
  private flushChunk(inc: IncrementalRows): void {
    const from = inc.flushed
    const chunk = inc.rows.slice(from)
    inc.flushed = inc.rows.length
    const sql = this.sql
    const bulkSql = inc.bulkSql!
    this.queue = this.queue.then(async () => {
      if (inc.failedAt !== undefined || sql === undefined || this.isClosed()) return
      try {
        const n = await sql.bulkChunk(bulkSql, chunk)
        if (n === undefined) inc.failedAt = from
        else inc.inserted += n
      } catch {
        // the request's own execution re-runs these rows and reports the error with its row offset
        inc.failedAt = from
      }
    })
  }

  private enqueue(payload: Buffer, preRows?: PreRows): void {
    this.queue = this.queue.then(async () => {
      if (this.phase === "closed") return
      this.processing = true
      let reply: Reply
      try {
        reply = await this.handle(payload, preRows)
      } catch (e) {
        if (process.env.ORACLE_TESTKIT_DEBUG !== undefined) console.error("oracle testkit:", e)
        if (e instanceof TruncatedRequestError || e instanceof ProtocolError) {
          this.processing = false
          this.close()
          return
        }
        reply = { w: new WriteBuffer(256), rows: false }
        this.writeError(reply.w, toOra(e), 0, 0)
      }
      this.processing = false
      await this.send(reply)
      if (this.prefetchAfterSend !== undefined && !this.isClosed()) await this.prefetch()
    }).catch((e: unknown) => {
      // a failure outside request handling (socket gone, ...) ends this session only
      if (process.env.ORACLE_TESTKIT_DEBUG !== undefined) console.error("oracle testkit:", e)
      this.processing = false
      this.close()
    })
  }

  private onConnect(p: Buffer): void {
    const version = p.readUInt16BE(8)
    if (version < 315) throw new ProtocolError("client too old")
    const sdu = p.readUInt32BE(58) || p.readUInt16BE(14)
    this.sdu = Math.max(512, Math.min(sdu, 2_097_152))
    const cdLen = p.readUInt16BE(24)
    const cdOff = p.readUInt16BE(26)
    // connect data longer than 230 bytes follows in its own DATA packet
    if (p.length >= cdOff + cdLen && cdLen > 0) this.finishConnect(p.subarray(cdOff, cdOff + cdLen).toString("ascii"))
    else this.phase = "connect-data"
  }

  private finishConnect(cd: string): void {
    const service = /\(SERVICE_NAME=([^)]*)\)/i.exec(cd)?.[1]
    const sid = /\(SID=([^)]*)\)/i.exec(cd)?.[1]
    this.program = /\(PROGRAM=([^)]*)\)/i.exec(cd)?.[1] ?? this.program
    this.machine = /\(HOST=([^)]*)\)(?=[^(]*\(USER=)/i.exec(cd)?.[1] ?? this.machine
    this.osUser = /\(USER=([^)]*)\)/i.exec(cd)?.[1] ?? this.osUser
    const wanted = this.host.db.settings.serviceName.toUpperCase()
    if (this.host.faults.refuseLogins === true) return this.refuse(12516)
    if (sid !== undefined && service === undefined) {
      if (sid.toUpperCase() !== wanted && sid.toUpperCase() !== "FREE") return this.refuse(12505)
    } else if ((service ?? "").toUpperCase() !== wanted) {
      // the listener refuses unknown services with TNS-12514 (ORA-12514)
      return this.refuse(12514)
    }
    this.accept()
  }

  private refuse(code: number): void {
    const data = Buffer.from(`(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=${code})(ERROR_STACK=(ERROR=(CODE=${code})(EMFI=4))))`, "ascii")
    const b = Buffer.alloc(12 + data.length)
    b.writeUInt16BE(b.length, 0)
    b[4] = PKT_REFUSE
    b[8] = 1
    b[9] = 0
    b.writeUInt16BE(data.length, 10)
    data.copy(b, 12)
    this.socket.end(b)
    this.phase = "closed"
    this.host.onClose(this)
  }

  private accept(): void {
    const b = Buffer.alloc(45)
    b.writeUInt16BE(45, 0)
    b[4] = PKT_ACCEPT
    b.writeUInt16BE(319, 8) // TNS version
    b.writeUInt16BE(0x0001, 10) // options
    b.writeUInt16BE(Math.min(this.sdu, 65535), 12)
    b.writeUInt16BE(65535, 14)
    b.writeUInt16BE(1, 16) // hardware byte order
    b[22] = 0x00
    b[23] = 0x08 // NSINANOSERVICES: no ANO negotiation
    b.writeUInt32BE(this.sdu, 32)
    b.writeUInt32BE(65535, 36)
    b[40] = 0 // no compression
    // 23ai servers announce end-of-response markers (flags2 HAS_END_OF_REQUEST); 19c does not
    this.endOfRequest = this.host.db.settings.version === "23ai"
    b.writeUInt32BE(this.endOfRequest ? 0x02000000 : 0, 41)
    this.socket.write(b)
    this.largeSdu = true
    this.phase = "ttc"
  }

  private onMarker(p: Buffer): void {
    const data = p.length > 10 ? p[10]! : p[9]!
    if (data === 2) {
      // client reset: answer with our reset marker, then the pending ORA-01013 reply
      if (!this.awaitingReset) return
      this.awaitingReset = false
      this.socket.write(this.marker(2))
      if (this.pendingAfterReset !== undefined) {
        this.writePackets(this.pendingAfterReset, false)
        this.pendingAfterReset = undefined
      }
      return
    }
    // break / interrupt
    this.breakPending = true
    if (this.processing) this.sql?.engine.interrupt()
    else void this.queue.then(() => this.sendBreakReply())
  }

  private marker(data: number): Buffer {
    const b = Buffer.alloc(11)
    b.writeUInt32BE(11, 0)
    b[4] = PKT_MARKER
    b[8] = 1
    b[10] = data
    return b
  }

  private async sendBreakReply(): Promise<void> {
    if (!this.breakPending) return
    this.breakPending = false
    const w = new WriteBuffer(256)
    this.writeError(w, ora.cancelled(), 0, 0)
    if (this.endOfRequest) w.u8(MSG_END_OF_REQUEST)
    this.pendingAfterReset = Buffer.from(w.bytes())
    this.awaitingReset = true
    this.socket.write(this.marker(1))
  }

  private async send(reply: Reply): Promise<void> {
    if (this.phase === "closed") return
    if (this.breakPending) {
      await this.sendBreakReply()
      return
    }
    const faults = this.host.faults
    if (faults.delayMs !== undefined && faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs))
    if (this.isClosed()) return
    const payload = reply.w
    if (reply.negotiation !== true && this.endOfRequest) payload.u8(MSG_END_OF_REQUEST)
    // the logon reply is sent once `sql` exists but is not one of the session's replies (OracleFaults.dropAfterReplies)
    if (this.sql !== undefined && this.loggedOnReplySent) this.replies++
    else if (this.sql !== undefined) this.loggedOnReplySent = true
    if (reply.rows && faults.dropMidResult === true) {
      const bytes = payload.bytes()
      this.writePackets(bytes.subarray(0, Math.max(1, bytes.length >> 1)), false)
      this.close()
      return
    }
    this.writePackets(payload.bytes(), this.endOfRequest)
    if (faults.dropAfterReplies !== undefined && this.sql !== undefined && this.replies >= faults.dropAfterReplies) this.close()
  }

  /** Splits a TTC payload into DATA packets of at most one SDU. */
  private writePackets(payload: Buffer, endOfResponse: boolean): void {
    const max = this.sdu - 10
    const count = Math.max(1, Math.ceil(payload.length / max))
    const out = Buffer.allocUnsafe(payload.length + count * 10)
    let o = 0
    for (let k = 0; k < count; k++) {
      const part = payload.subarray(k * max, Math.min(payload.length, (k + 1) * max))
      const len = part.length + 10
      out.writeUInt32BE(len, o)
      out[o + 4] = PKT_DATA
      out[o + 5] = 0
      out.writeUInt16BE(0, o + 6)
      out.writeUInt16BE(endOfResponse && k === count - 1 ? FLAG_END_OF_RESPONSE : 0, o + 8)
      part.copy(out, o + 10)
      o += len
    }
    this.socket.write(out)
  }

  // ------------------------------------------------------------------ TTC

  private async handle(payload: Buffer, preRows?: PreRows): Promise<Reply> {
    const r = new ReadBuffer(payload)
    const reply: Reply = { w: new WriteBuffer(), rows: false }
    for (;;) {
      const msg = r.u8()
      if (msg === MSG_PROTOCOL) {
        this.protocolReply(reply.w)
        reply.negotiation = true
        return reply
      }
      if (msg === MSG_DATA_TYPES) {
        this.dataTypesReply(r, reply.w)
        reply.negotiation = true
        return reply
      }
      if (msg === MSG_PIGGYBACK) {
        await this.piggyback(r)
        continue
      }
      if (msg !== MSG_FUNCTION) throw new ProtocolError(`unexpected message ${msg}`)
      const fn = r.u8()
      r.u8() // sequence number
      if (this.fieldVersion >= 18) r.ub() // token number
      await this.func(fn, r, reply, preRows)
      return reply
    }
  }

  private protocolReply(w: WriteBuffer): void {
    w.u8(MSG_PROTOCOL)
    w.u8(6) // protocol version
    w.u8(0)
    w.raw(Buffer.from("x86_64/Linux 2.4.xx\0", "ascii"))
    w.u16le(873) // AL32UTF8
    w.u8(1) // flags
    w.u16le(0) // elements
    // FDO: the client reads the national character set id at fdo[6 + fdo[5] + fdo[6] + 3..4]
    const fdo = Buffer.alloc(11)
    fdo.writeUInt16BE(2000, 9) // AL16UTF16
    w.u16be(fdo.length)
    w.raw(fdo)
    const ccaps = Buffer.alloc(53)
    ccaps[0] = 6 // SQL version
    ccaps[4] = 0x08 | 0x02 | 0x20 | 0x40 | 0x80 // logon types
    ccaps[7] = this.fieldVersion
    ccaps[15] = 0x01 | 0x08 | 0x20
    ccaps[37] = 0x10 | 0x20 | 0x80 // implicit results, big chunk clear, keep out order
    w.bytesWithLength(ccaps)
    const rcaps = Buffer.alloc(7)
    rcaps[0] = 2 // compat 8.1
    rcaps[1] = 0x01 // TZ_EX: DB time zone travels in the DATA_TYPES reply
    rcaps[6] = 0x01 | 0x04 // zero copy, 32K strings
    w.bytesWithLength(rcaps)
  }

  private dataTypesReply(r: ReadBuffer, w: WriteBuffer): void {
    r.u16le()
    r.u16le()
    r.u8()
    const ccaps = r.bytesWithLength()
    if (ccaps !== null && ccaps.length > 7) this.fieldVersion = Math.min(this.fieldVersion, ccaps[7]!)
    w.u8(MSG_DATA_TYPES)
    // DB time zone as an 11-byte interval: days 0, hours + 60, minutes + 60, then 0x80 0 0 0 0
    const off = this.host.db.dbOffsetMinutes()
    const tz = Buffer.alloc(11)
    tz.writeUInt32BE(0x80000000, 0)
    tz[4] = Math.trunc(off / 60) + 60
    tz[5] = (off % 60) + 60
    tz[6] = 0x80
    w.raw(tz)
    w.u16be(0)
  }

  private async piggyback(r: ReadBuffer): Promise<void> {
    const fn = r.u8()
    r.u8()
    if (this.fieldVersion >= 18) r.ub()
    switch (fn) {
      case 105: // close cursors
      case 120: {
        // cancel cursors
        r.u8()
        const n = r.ub()
        for (let i = 0; i < n; i++) {
          const id = r.ub()
          if (fn === 105) {
            const r = this.cursors.get(id)?.result
            if (r !== undefined) closeResult(r)
            this.cursors.delete(id)
          }
        }
        return
      }
      case 152: {
        // set current schema
        r.u8()
        const len = r.ub()
        const name = len > 0 ? (r.bytesWithLength()?.toString("utf8") ?? "") : ""
        if (this.sql !== undefined && name.length > 0) await this.sql.ddl(`ALTER SESSION SET CURRENT_SCHEMA = "${name.replace(/"/g, "")}"`)
        return
      }
      case 135: {
        // end-to-end attributes (module, action, client id, ...): parsed and ignored
        r.u8()
        r.u8()
        r.ub()
        const lens: Array<number> = []
        for (let k = 0; k < 4; k++) {
          const ptr = r.u8()
          const len = r.ub()
          lens.push(ptr === 1 ? len : 0)
        }
        r.u8()
        r.ub()
        {
          const ptr = r.u8()
          const len = r.ub()
          lens.push(ptr === 1 ? len : 0)
        }
        r.u8()
        r.ub()
        r.u8()
        r.ub()
        {
          const ptr = r.u8()
          const len = r.ub()
          lens.push(ptr === 1 ? len : 0)
        }
        for (const len of lens) if (len > 0) r.bytesWithLength()
        return
      }
      case 96: {
        // free temporary LOBs (array)
        r.u8()
        const total = r.ub()
        r.u8()
        r.ub()
        r.ub()
        r.ub()
        r.u8()
        r.u8()
        r.u8()
        r.ub()
        r.u8()
        r.ub()
        r.ub()
        r.ub()
        r.u8()
        r.u8()
        r.ub()
        r.u8()
        r.ub()
        r.u8()
        r.ub()
        const locs = r.take(total)
        for (let o = 0; o + 40 <= locs.length; o += 40) this.lobs.delete(locs.readUInt32BE(o + 10))
        return
      }
      default:
        throw new OraError(3001, `unimplemented feature: piggyback function ${fn}`)
    }
  }

  private async func(fn: number, r: ReadBuffer, reply: Reply, preRows?: PreRows): Promise<void> {
    const w = reply.w
    if (this.sql === undefined && fn !== 118 && fn !== 115) throw new OraError(1012, "not logged on")
    switch (fn) {
      case 118:
        return this.authPhaseOne(r, w)
      case 115:
        return this.authPhaseTwo(r, w)
      case 94:
        return this.execute(r, reply, preRows)
      case 4:
      case 78:
        return this.reexecute(fn, r, reply, preRows)
      case 5: {
        const id = r.ub()
        const n = r.ub()
        const cur = this.cursors.get(id)
        if (cur?.result === undefined) {
          this.writeError(w, ora.fetchOutOfSequence(), id, 0)
          return
        }
        await this.writeRows(reply, cur, n)
        return
      }
      case 14:
        await this.sql!.commit()
        this.writeEndOfCall(w, 0, 0)
        return
      case 15:
        await this.sql!.rollback()
        this.writeEndOfCall(w, 0, 0)
        return
      case 147:
        this.writeEndOfCall(w, 0, 0)
        return
      case 9:
        await this.sql!.rollback()
        this.writeEndOfCall(w, 0, 0)
        return
      case 96:
        return this.lobOp(r, w)
      case 128:
        return this.directPathPrepare(r, w)
      case 129:
        return this.directPathStream(r, w)
      case 130:
        return this.directPathOp(r, w)
      default:
        this.writeError(w, ora.unimplemented(`TTC function ${fn}`), 0, 0)
    }
  }

  // ------------------------------------------------------------------ authentication

  private readAuthHeader(r: ReadBuffer): { user: string; pairs: Map<string, string> } {
    const hasUser = r.u8()
    const userLen = r.ub()
    r.ub() // auth mode
    r.u8()
    const n = r.ub()
    r.u8()
    r.u8()
    const user = hasUser === 1 && userLen > 0 ? (r.bytesWithLength()?.toString("utf8") ?? "") : ""
    const pairs = new Map<string, string>()
    for (let i = 0; i < n; i++) {
      const kv = r.keyValue()
      pairs.set(kv.key.replace(/\0$/, ""), kv.value)
    }
    return { user, pairs }
  }

  private writeParams(w: WriteBuffer, params: Array<[string, string, number?]>): void {
    w.u8(MSG_PARAMETER)
    w.ub(params.length)
    for (const [k, v, flags] of params) {
      const kb = Buffer.from(k, "utf8")
      w.ub(kb.length)
      w.bytesWithLength(kb)
      const vb = Buffer.from(v, "utf8")
      w.ub(vb.length)
      if (vb.length > 0) w.bytesWithLength(vb)
      w.ub(flags ?? 0)
    }
  }

  private authPhaseOne(r: ReadBuffer, w: WriteBuffer): void {
    const { user, pairs } = this.readAuthHeader(r)
    // quoted user names keep their case; plain ones are case-insensitive
    this.user = user.startsWith('"') && user.endsWith('"') ? user.slice(1, -1) : user.toUpperCase()
    this.program = pairs.get("AUTH_PROGRAM_NM") ?? this.program
    this.machine = pairs.get("AUTH_MACHINE") ?? this.machine
    this.osUser = pairs.get("AUTH_SID") ?? this.osUser
    // unknown users get a challenge too (the failure is reported after phase two, as Oracle does)
    this.verifier = this.host.db.verifier(this.user) ?? makeVerifier(`\u0000unknown-${Math.random()}`)
    this.challenge = makeChallenge(this.verifier)
    this.writeParams(w, [
      ["AUTH_SESSKEY", this.challenge.encodedServerKey, 1],
      ["AUTH_VFR_DATA", this.verifier.vfrData.toString("hex").toUpperCase(), VERIFIER_12C],
      ["AUTH_PBKDF2_CSK_SALT", this.challenge.cskSalt.toString("hex").toUpperCase()],
      ["AUTH_PBKDF2_VGEN_COUNT", String(VGEN_COUNT)],
      ["AUTH_PBKDF2_SDER_COUNT", String(SDER_COUNT)],
      ["AUTH_GLOBALLY_UNIQUE_DBID\0", "6B2F1C8A4E3D2B1A0F9E8D7C6B5A4938"]
    ])
    this.writeEndOfCall(w, 0, 0)
  }

  private async authPhaseTwo(r: ReadBuffer, w: WriteBuffer): Promise<void> {
    const { pairs } = this.readAuthHeader(r)
    const db = this.host.db
    const version = db.settings.version
    const userMeta = db.catalog.users.get(this.user)
    const ok =
      userMeta !== undefined && !userMeta.oracleMaintained && this.verifier !== undefined && this.challenge !== undefined
        ? checkPhaseTwo(this.verifier, this.challenge, pairs.get("AUTH_SESSKEY") ?? "", pairs.get("AUTH_PASSWORD") ?? "", userMeta.password)
        : ({ ok: false } as const)
    if (!ok.ok) {
      this.writeError(w, ora.logonDenied(version), 0, 0)
      return
    }
    const alter = (pairs.get("AUTH_ALTER_SESSION") ?? "").replace(/\0/g, "")
    const tzm = /TIME_ZONE\s*=\s*'([^']*)'/i.exec(alter)
    this.clientTz = this.host.sessionTimeZone ?? normaliseTz(tzm?.[1] ?? "+00:00")
    const sid = db.newSid()
    const info: SessionInfo = {
      sid,
      serial: 1000 + sid,
      user: this.user,
      schema: this.user,
      status: "INACTIVE",
      sqlId: null,
      prevSqlId: null,
      program: this.program,
      machine: this.machine,
      osUser: this.osUser,
      logonTime: new Date()
    }
    const engineSession = await db.engine.session()
    const sql = new SqlSession(db, engineSession, info)
    await sql.init(this.clientTz)
    this.sql = sql
    this.info = info
    db.sessions.set(sid, info)
    const vi = versionInfo(version)
    const pdb = db.pdbName()
    this.writeParams(w, [
      ["AUTH_VERSION_STRING", `- ${vi.banner.replace(/^Oracle Database /, "")}`],
      ["AUTH_VERSION_SQL", "25"],
      ["AUTH_XACTION_TRAITS", "3"],
      ["AUTH_VERSION_NO", String(vi.authVersion)],
      ["AUTH_VERSION_STATUS", "0"],
      ["AUTH_CAPABILITY_TABLE", ""],
      ["AUTH_LAST_LOGIN", ""],
      ["AUTH_DBNAME", pdb],
      ["AUTH_DB_MOUNT_ID", "1234567890"],
      ["AUTH_DB_ID", "1234567890"],
      ["AUTH_USER_ID", String(userMeta!.userId)],
      ["AUTH_SESSION_ID", String(sid)],
      ["AUTH_SERIAL_NUM", String(info.serial)],
      ["AUTH_INSTANCE_NO", "1"],
      ["AUTH_FAILOVER_ID", ""],
      ["AUTH_SERVER_PID", String(process.pid)],
      ["AUTH_SC_SERVER_HOST", "localhost"],
      ["AUTH_SC_DBUNIQUE_NAME", "FREE"],
      ["AUTH_SC_INSTANCE_NAME", "FREE"],
      ["AUTH_SC_INSTANCE_ID", "1"],
      ["AUTH_SC_INSTANCE_START_TIME", "2024-01-01 00:00:00.000000000 +00:00"],
      ["AUTH_SC_DB_DOMAIN", ""],
      ["AUTH_SC_SERVICE_NAME", db.settings.serviceName],
      ["AUTH_SC_REAL_DBUNIQUE_NAME", "FREE"],
      ["AUTH_INSTANCENAME", "FREE"],
      ["AUTH_MAX_OPEN_CURSORS", "300"],
      ["AUTH_MAX_IDEN_LENGTH", "128"],
      ["AUTH_NLS_LXLAN", "AMERICAN"],
      ["AUTH_NLS_LXCTERRITORY", "AMERICA"],
      ["AUTH_NLS_LXCCHARSET", "AL32UTF8"],
      ["AUTH_SVR_RESPONSE", serverResponse(ok.comboKey)]
    ])
    this.writeEndOfCall(w, 0, 0)
  }

  // ------------------------------------------------------------------ execute

  private readMetadata(r: ReadBuffer): BindSpec {
    const dty = r.u8()
    r.u8() // flags
    r.u8()
    r.u8()
    const maxSize = r.ub()
    r.ub() // max array elements
    r.ub() // cont flags
    const oidLen = r.ub()
    if (oidLen > 0) r.bytesWithLength()
    r.ub() // version
    r.ub() // charset
    const csfrm = r.u8()
    r.ub() // lob prefetch length
    if (this.fieldVersion >= 8) r.ub() // oaccolid
    return { dty, csfrm, maxSize }
  }

  /**
   * Wire order of the bind values in a row: for SQL (not PL/SQL) the client writes binds whose variable size exceeds
   * 32767 last (withData.js writeBindParamsRow). The metadata size is `variable.maxSize || type factor`, scaled by the
   * factor for national character types, so the variable size is recovered from it here.
   */
  private bindOrder(specs: ReadonlyArray<BindSpec>, plsql: boolean, skip?: ReadonlyArray<boolean>): Array<number> {
    const variableSize = (b: BindSpec): number => {
      if (b.dty === Dty.JSON || b.dty === 127) return 0
      if (b.maxSize === 0x7fffffff && (b.dty === Dty.LONG || b.dty === Dty.LONG_RAW)) return 0
      if (b.csfrm === 2) return Math.floor(b.maxSize / (b.dty === Dty.CLOB ? 112 : 4))
      return b.maxSize
    }
    const long = specs.map((b) => !plsql && variableSize(b) > 32767)
    const order: Array<number> = []
    for (let i = 0; i < specs.length; i++) if (skip?.[i] !== true && !long[i]) order.push(i)
    for (let i = 0; i < specs.length; i++) if (skip?.[i] !== true && long[i]) order.push(i)
    return order
  }

  private readonly lobResolver = (loc: Buffer) => this.lobContent(loc)

  /** Reads one bind row (after its ROW_DATA byte). */
  private readRow(r: ReadBuffer, specs: ReadonlyArray<BindSpec>, order: ReadonlyArray<number>): Array<DuckDBValue> {
    const dbOff = this.host.db.dbOffsetMinutes()
    const row: Array<DuckDBValue> = new Array(specs.length).fill(null)
    for (const i of order) row[i] = readBind(r, specs[i]!, dbOff, this.lobResolver)
    return row
  }

  /** Reads bind rows (each introduced by ROW_DATA) in the wire order, returned in bind order. */
  private readRows(r: ReadBuffer, specs: ReadonlyArray<BindSpec>, plsql: boolean, limit = Number.MAX_SAFE_INTEGER, skip?: ReadonlyArray<boolean>): Array<Array<DuckDBValue>> {
    const order = this.bindOrder(specs, plsql, skip)
    const rows: Array<Array<DuckDBValue>> = []
    while (rows.length < limit && r.remaining() > 0 && r.peek() === MSG_ROW_DATA) {
      r.u8()
      rows.push(this.readRow(r, specs, order))
    }
    return rows
  }

  private newCursor(sql: string): ServerCursor {
    const c: ServerCursor = { id: this.nextCursorId++, sql, specs: [], directions: undefined, defines: undefined, result: undefined, dmlRowCounts: false }
    this.cursors.set(c.id, c)
    return c
  }

  /** Reads the fixed part of an EXECUTE request (writeExecuteMessage in messages/execute.js) up to the bind rows. */
  private readExecuteHeader(r: ReadBuffer): ExecHeader {
    const options = r.ub()
    const cursorId = r.ub()
    const sqlPtr = r.u8()
    r.ub() // sql length
    r.u8()
    r.ub() // al8i4 length
    r.u8()
    r.u8()
    r.u8()
    const numIters = r.ub()
    r.ub() // max long size
    r.u8()
    const numBinds = r.ub()
    r.u8()
    r.u8()
    r.u8()
    r.u8()
    r.u8()
    r.u8()
    const numDefines = r.ub()
    r.ub()
    r.u8()
    r.u8()
    r.u8()
    r.ub()
    r.u8()
    r.ub()
    r.ub()
    r.u8()
    r.ub() // dml rowcount array size
    r.u8()
    if (this.fieldVersion >= 8) {
      r.u8()
      r.ub()
      r.u8()
      r.ub()
      r.u8()
      if (this.fieldVersion >= 9) {
        r.u8()
        r.ub()
      }
    }
    let sqlText: string | undefined
    if (sqlPtr === 1) {
      sqlText = r.bytesWithLength()?.toString("utf8") ?? ""
    }
    const al8i4: Array<number> = []
    for (let i = 0; i < 13; i++) al8i4.push(r.ub())
    const specs: Array<BindSpec> = []
    const defines: Array<BindSpec> = []
    if ((options & OPT_DEFINE) !== 0) for (let i = 0; i < numDefines; i++) defines.push(this.readMetadata(r))
    else for (let i = 0; i < numBinds; i++) specs.push(this.readMetadata(r))
    return { options, cursorId, sqlText, numIters, execFlags: al8i4[9]!, specs, defines }
  }

  private async execute(r: ReadBuffer, reply: Reply, preRows?: PreRows): Promise<void> {
    const w = reply.w
    const header = this.readExecuteHeader(r)
    const { options, sqlText, numIters, execFlags, specs, defines } = header
    let cursorId = header.cursorId
    let cur: ServerCursor | undefined
    if (sqlText !== undefined) {
      const existing = cursorId !== 0 ? this.cursors.get(cursorId) : undefined
      if (existing !== undefined) {
        if (existing.result !== undefined) closeResult(existing.result)
        existing.result = undefined
        existing.sql = sqlText
        existing.defines = undefined
        cur = existing
      } else cur = this.newCursor(sqlText)
      cursorId = cur.id
    } else {
      cur = this.cursors.get(cursorId)
      if (cur === undefined) {
        this.writeError(w, ora.invalidCursor(), cursorId, 0)
        return
      }
    }
    if ((options & OPT_DEFINE) !== 0) {
      cur.defines = defines.map((d) => ({ dty: d.dty, maxSize: d.maxSize }))
      if (cur.result !== undefined) cur.result.encoders = this.encoders(cur.result.columns, cur.defines)
      this.writeEndOfCall(w, cursorId, 0)
      return
    }
    if (specs.length > 0) cur.specs = specs
    const sql = this.sql!
    const cls = classify(cur.sql)
    const plsql = cls === "plsql"
    const returnBinds = returnBindFlags(cur.sql, cur.specs.length)
    const resolved = typeof preRows === "function" ? preRows() : undefined
    const rows = resolved?.rows ?? (preRows as Array<Array<DuckDBValue>> | undefined) ?? (specs.length > 0 ? this.readRows(r, cur.specs, plsql, Number.MAX_SAFE_INTEGER, returnBinds) : [])
    if ((options & OPT_DESCRIBE) !== 0 && (options & OPT_EXECUTE) === 0) {
      // parse only (connection.getStatementInfo): describe queries without fetching
      if (cls === "query") {
        try {
          const res = await sql.query(cur.sql, new Array(1000).fill(null))
          res.cursor.close()
          this.writeDescribe(w, res.columns)
        } catch (e) {
          this.writeError(w, toOra(e), cursorId, 0)
          return
        }
      }
      this.writeEndOfCall(w, cursorId, 0)
      return
    }
    if ((options & OPT_EXECUTE) === 0) {
      // fetch only (implicit result cursors are fetched this way)
      if ((options & OPT_FETCH) !== 0 && cur.result !== undefined) await this.writeRows(reply, cur, numIters)
      else this.writeEndOfCall(w, cursorId, 0)
      return
    }
    cur.dmlRowCounts = (execFlags & EXEC_DML_ROWCOUNTS) !== 0
    await this.run(reply, cur, rows, {
      ...(resolved !== undefined ? { pre: resolved } : {}),
      fetch: (options & OPT_FETCH) !== 0 ? numIters : 0,
      describe: true,
      commit: (options & OPT_COMMIT) !== 0,
      batchErrors: (options & OPT_BATCH_ERRORS) !== 0,
      parse: (options & OPT_PARSE) !== 0 || (options & OPT_BIND) !== 0
    })
  }

  private async reexecute(fn: number, r: ReadBuffer, reply: Reply, preRows?: PreRows): Promise<void> {
    const id = r.ub()
    const numIters = r.ub()
    r.ub() // execFlag1
    const flag2 = r.ub()
    const cur = this.cursors.get(id)
    if (cur === undefined) {
      this.writeError(reply.w, ora.invalidCursor(), id, 0)
      return
    }
    const plsql = classify(cur.sql) === "plsql"
    // re-executes cannot ask for DML row counts (messages/execute.js writeReExecuteMessage), so none are sent
    cur.dmlRowCounts = false
    const skip = cur.directions?.map((d) => d === 16) ?? returnBindFlags(cur.sql, cur.specs.length)
    const resolved = typeof preRows === "function" ? preRows() : undefined
    const rows = resolved?.rows ?? (preRows as Array<Array<DuckDBValue>> | undefined) ?? (cur.specs.length > 0 ? this.readRows(r, cur.specs, plsql, Number.MAX_SAFE_INTEGER, skip) : [])
    await this.run(reply, cur, rows, { ...(resolved !== undefined ? { pre: resolved } : {}), fetch: fn === 78 ? numIters : 0, describe: false, commit: (flag2 & 1) !== 0, batchErrors: false, parse: false })
  }

  private async run(
    reply: Reply,
    cur: ServerCursor,
    rows: Array<Array<DuckDBValue>>,
    o: { fetch: number; describe: boolean; commit: boolean; batchErrors: boolean; parse: boolean; pre?: { offset: number; inserted: number } }
  ): Promise<void> {
    const w = reply.w
    const sql = this.sql!
    const info = this.info!
    info.status = "ACTIVE"
    sql.noteSql(cur.sql)
    try {
      if (cur.result !== undefined) closeResult(cur.result)
      cur.result = undefined
      let result =
        o.pre !== undefined && rows.length === 0
          ? ({ kind: "dml", rowCount: 0, rowCounts: [], batchErrors: [] } as const)
          : await sql.execute(cur.sql, rows.length > 0 ? rows : [[]], cur.specs, { batchErrors: o.batchErrors, dmlRowCounts: cur.dmlRowCounts })
      if (o.pre !== undefined && result.kind === "dml") {
        // rows inserted in chunks while the request arrived (bulk executeMany)
        const pre = o.pre
        result = {
          ...result,
          rowCount: result.rowCount + pre.inserted,
          rowCounts: cur.dmlRowCounts ? [...Array.from({ length: pre.offset }, () => 1), ...result.rowCounts] : []
        }
      }
      if (o.commit) await sql.commit()
      switch (result.kind) {
        case "query": {
          cur.result = { columns: result.columns, cursor: result.cursor, chunk: null, pos: 0, done: false, sent: 0, encoders: this.encoders(result.columns, cur.defines) }
          if (o.describe) this.writeDescribe(w, result.columns)
          const needsDefine = cur.defines === undefined && result.columns.some((c) => isLobLike(c.type))
          if (o.fetch > 0 && !needsDefine) await this.writeRows(reply, cur, o.fetch)
          else this.writeEndOfCall(w, cur.id, 0)
          return
        }
        case "dml": {
          if (result.returning !== undefined) {
            const flags = returnBindFlags(cur.sql, cur.specs.length) ?? []
            w.u8(MSG_IO_VECTOR)
            w.u8(0)
            w.ub(flags.length % 256)
            w.ub(Math.floor(flags.length / 256))
            w.ub(1)
            w.ub(0)
            w.ub(0)
            w.ub(0)
            for (const f of flags) w.u8(f ? 16 : 32)
            w.u8(MSG_ROW_DATA)
            let k = 0
            flags.forEach((f, i) => {
              if (!f) return
              const values = result.returning![k++] ?? []
              w.ub(values.length)
              for (const v of values) {
                writeOutValue(w, cur.specs[i] ?? { dty: Dty.VARCHAR, csfrm: 1, maxSize: 4000 }, v)
                w.u8(0) // SB4 actual length
              }
            })
          }
          if (cur.dmlRowCounts) {
            w.u8(MSG_PARAMETER)
            w.ub(0)
            w.ub(0)
            w.ub(0)
            w.ub(0)
            w.ub(result.rowCounts.length)
            for (const n of result.rowCounts) w.ub(n)
          }
          this.writeEndOfCall(w, cur.id, result.rowCount, result.batchErrors)
          return
        }
        case "plsql":
          this.writePlsql(w, cur, result)
          return
        default:
          if (/^\s*ALTER\s+SESSION\s+SET\s+CURRENT_SCHEMA\b/i.test(cur.sql)) {
            // tell the client its new current schema (keyword 168, read by messages/withData.js processReturnParameter)
            const schema = Buffer.from(sql.schema, "utf8")
            w.u8(MSG_PARAMETER)
            w.ub(0)
            w.ub(0)
            w.ub(1)
            w.ub(schema.length)
            w.bytesWithLength(schema)
            w.ub(0)
            w.ub(168)
            w.ub(0)
          }
          this.writeEndOfCall(w, cur.id, 0)
      }
    } catch (e) {
      const err = toOra(e)
      this.writeError(w, err, cur.id, ((err as OraError & { rowOffset?: number }).rowOffset ?? 0) + (o.pre?.offset ?? 0))
    } finally {
      info.status = "INACTIVE"
    }
  }

  private encoders(columns: ReadonlyArray<ResultColumn>, defines: ReadonlyArray<{ dty: number; maxSize: number }> | undefined): Array<ColumnEncoder> {
    const dbTzOffsetMinutes = this.host.db.dbOffsetMinutes()
    return columns.map((c, i) => {
      const d = defines?.[i]
      const dty = d?.dty ?? c.type.dty
      const inline = dty === Dty.LONG || dty === Dty.LONG_RAW || dty === Dty.VARCHAR
      return columnEncoder(c.type, {
        dbTzOffsetMinutes,
        lobMode: inline ? "inline" : "locator",
        // the client compares its own variable size with 32767: the described size, or the LONG size once a LOB is
        // defined as string/buffer (the define metadata scales NCHAR sizes, so it cannot be used directly)
        trailer: dty === Dty.LONG || dty === Dty.LONG_RAW || c.type.maxSize > 32767,
        registerLob: (value, type) => this.registerLob(value, type, false)
      })
    })
  }

  private writeDescribe(w: WriteBuffer, columns: ReadonlyArray<ResultColumn>): void {
    w.u8(MSG_DESCRIBE_INFO)
    w.u8(0) // chunked bytes (none)
    this.writeDescribeBody(w, columns)
  }

  /** One column of describe information (messages/base.js processColumnInfo). */
  private writeColumnInfo(w: WriteBuffer, c: ResultColumn, i: number): void {
    const t = c.type
    w.u8(t.dty)
    w.u8(0)
    w.u8(t.precision & 0xff)
    w.u8(t.scale & 0xff)
    w.ub(t.maxSize)
    w.ub(0) // max array elements
    w.ub(0) // cont flags
    w.ub(0) // OID
    w.ub(0) // version
    w.ub(t.csfrm !== 0 ? (t.csfrm === 2 ? 2000 : 873) : 0)
    w.u8(t.csfrm)
    w.ub(t.charSize)
    if (this.fieldVersion >= 8) w.ub(0) // oaccolid
    w.u8(c.nullable ? 1 : 0)
    w.u8(0)
    w.strWithUb4Length(c.name)
    w.ub(0) // schema
    w.ub(0) // type name
    w.ub(i + 1)
    w.ub(t.kind === "json" ? 0x100 | 0x800 : 0) // uds flags: IS_JSON, IS_OSON
    if (this.fieldVersion >= 17) {
      w.ub(0)
      w.ub(0)
    }
    if (this.fieldVersion >= 20) w.ub(0)
    if (this.fieldVersion >= 24) {
      // vector dimensions (0 + flexible flag when unspecified) and format (0 = flexible)
      const vector = t.kind === "vector"
      w.ub(vector ? t.precision : 0)
      w.u8(vector ? t.scale : 0)
      w.u8(vector && t.precision === 0 ? 1 : 0)
    }
  }

  private writeDescribeBody(w: WriteBuffer, columns: ReadonlyArray<ResultColumn>): void {
    w.ub(columns.reduce((n, c) => n + Math.min(c.type.maxSize, 4000), 0))
    w.ub(columns.length)
    if (columns.length > 0) w.u8(0)
    columns.forEach((c, i) => this.writeColumnInfo(w, c, i))
    w.ub(0) // current date
    w.ub(0)
    w.ub(0)
    w.ub(0)
    w.ub(0)
    w.ub(0)
  }

  /** Encodes up to `max` rows of the cursor into `w` (recording where each row ends when `ends` is given). */
  private async encodeRows(w: WriteBuffer, res: ActiveResult, max: number, ends?: Array<number>): Promise<number> {
    let n = 0
    while (n < max && !res.done) {
      if (res.chunk === null || res.pos >= res.chunk.rowCount) {
        res.chunk = await res.cursor.next()
        res.pos = 0
        if (res.chunk === null) {
          res.done = true
          break
        }
      }
      const chunk = res.chunk
      const cols = chunk.columns
      const enc = res.encoders
      const end = Math.min(chunk.rowCount, res.pos + (max - n))
      for (let i = res.pos; i < end; i++) {
        w.u8(MSG_ROW_DATA)
        for (let c = 0; c < enc.length; c++) enc[c]!(w, cols[c]!, i)
        ends?.push(w.pos)
      }
      n += end - res.pos
      res.pos = end
      if (this.breakPending) throw ora.cancelled()
    }
    if (!res.done && res.chunk !== null && res.pos >= res.chunk.rowCount) {
      // peek whether more rows exist so the client sees ORA-01403 without another round trip
      const next = await res.cursor.next()
      res.chunk = next
      res.pos = 0
      if (next === null) res.done = true
    }
    return n
  }

  /** Sends up to `max` rows of the cursor, then the end of call (ORA-01403 once exhausted). */
  private async writeRows(reply: Reply, cur: ServerCursor, max: number): Promise<void> {
    const w = reply.w
    const res = cur.result!
    let n = 0
    const pending = res.pending
    if (pending !== undefined) {
      // rows encoded ahead while the client was busy with the previous batch
      const k = Math.min(max, pending.ends.length - pending.taken)
      const from = pending.taken === 0 ? 0 : pending.ends[pending.taken - 1]!
      const to = pending.ends[pending.taken + k - 1]!
      w.raw(pending.w.buf.subarray(from, to))
      pending.taken += k
      n += k
      if (pending.taken === pending.ends.length) res.pending = undefined
    }
    if (n < max) n += await this.encodeRows(w, res, max - n)
    if (n > 0) reply.rows = true
    res.sent += n
    const exhausted = res.done && res.pending === undefined
    if (exhausted) this.writeEndOfCall(w, cur.id, res.sent, [], ora.noDataFound())
    else {
      this.writeEndOfCall(w, cur.id, res.sent)
      this.prefetchAfterSend = { res, max }
    }
  }

  /** After a reply with rows, what to encode ahead for the probable next FETCH. */
  private prefetchAfterSend: { res: ActiveResult; max: number } | undefined

  /** Encodes the next batch ahead of the client's FETCH (the server has a core of its own when run in a worker). */
  private async prefetch(): Promise<void> {
    const p = this.prefetchAfterSend
    this.prefetchAfterSend = undefined
    if (p === undefined || p.res.done || p.res.pending !== undefined || p.res.closed === true || this.breakPending) return
    const w = new WriteBuffer(1 << 16)
    const ends: Array<number> = []
    try {
      await this.encodeRows(w, p.res, p.max, ends)
    } catch {
      // a break arrived: the rows are simply not prepared (the cursor answers the next FETCH as usual)
      return
    }
    if (ends.length > 0 && !isClosedResult(p.res)) p.res.pending = { w, ends, taken: 0 }
  }

  private writePlsql(w: WriteBuffer, cur: ServerCursor, res: PlsqlResult): void {
    cur.directions = [...res.directions]
    const n = res.directions.length
    if (n > 0) {
      w.u8(MSG_IO_VECTOR)
      w.u8(0)
      w.ub(n % 256)
      w.ub(Math.floor(n / 256))
      w.ub(1)
      w.ub(0)
      w.ub(0) // bit vector
      w.ub(0) // rowid
      for (const d of res.directions) w.u8(d)
      if (res.directions.some((d) => d !== 32)) {
        w.u8(MSG_ROW_DATA)
        res.directions.forEach((d, i) => {
          if (d === 32) return
          const spec = cur.specs[i] ?? { dty: Dty.VARCHAR, csfrm: 1, maxSize: 4000 }
          const v = res.values[i]
          if (spec.dty === Dty.CURSOR && v !== null && typeof v === "object" && "kind" in v) {
            this.writeRefCursor(w, v as QueryResult)
          } else {
            writeOutValue(w, spec, v === null || (typeof v === "object" && "kind" in (v as object)) ? null : v, (value, blob) =>
              this.registerLob(value, blob ? blobType : spec.csfrm === 2 ? nclobType : clobType, true)
            )
          }
          w.u8(0) // SB4 actual length
        })
      }
    }
    if (res.implicit.length > 0) {
      w.u8(MSG_IMPLICIT_RESULTSET)
      w.ub(res.implicit.length)
      for (const q of res.implicit) {
        const c = this.newCursor("SELECT implicit result")
        c.result = { columns: q.columns, cursor: q.cursor, chunk: null, pos: 0, done: false, sent: 0, encoders: this.encoders(q.columns, undefined) }
        w.u8(0)
        this.writeDescribeBody(w, q.columns)
        w.ub(c.id)
      }
    }
    this.writeEndOfCall(w, cur.id, 0)
  }

  private writeRefCursor(w: WriteBuffer, q: QueryResult): void {
    const c = this.newCursor("SELECT ref cursor")
    c.result = { columns: q.columns, cursor: q.cursor, chunk: null, pos: 0, done: false, sent: 0, encoders: this.encoders(q.columns, undefined) }
    w.u8(1)
    this.writeDescribeBody(w, q.columns)
    w.ub(c.id)
  }

  // ------------------------------------------------------------------ end of call

  private callStatus(): number {
    return this.sql?.transactionInProgress === true ? 0x2 : 0
  }

  private writeEndOfCall(
    w: WriteBuffer,
    cursorId: number,
    rowCount: number,
    batchErrors: ReadonlyArray<{ offset: number; error: OraError }> = [],
    error?: OraError,
    errorPos = 0
  ): void {
    const version = this.host.db.settings.version
    const code = error?.code ?? 0
    w.u8(MSG_ERROR)
    w.ub(this.callStatus())
    w.ub(0) // end-to-end sequence
    w.ub(rowCount) // current row number
    w.ub(code <= 0xffff ? code : 0)
    w.ub(0)
    w.ub(0)
    w.ub(cursorId)
    w.sb(errorPos)
    w.u8(0) // sql type
    w.u8(0) // fatal
    w.u8(0) // flags
    w.u8(0) // user cursor options
    w.u8(0) // UPI parameter
    w.u8(0) // warning flag
    w.ub(0) // rowid rba
    w.ub(0) // partition
    w.u8(0)
    w.ub(0) // block
    w.ub(0) // slot
    w.ub(0) // OS error
    w.u8(0) // statement error
    w.u8(0) // call number
    w.ub(0) // padding
    w.ub(0) // success iterations
    w.ub(0) // oerrdd
    if (batchErrors.length > 0) {
      w.ub(batchErrors.length)
      w.u8(1)
      for (const b of batchErrors) w.ub(b.error.code)
      w.ub(batchErrors.length)
      w.u8(1)
      for (const b of batchErrors) w.ub(b.offset)
      w.ub(batchErrors.length)
      w.u8(1)
      for (const b of batchErrors) {
        const text = Buffer.from(b.error.text(version), "utf8")
        w.ub(text.length)
        w.bytesWithLength(text)
        w.u16be(0)
      }
    } else {
      w.ub(0)
      w.ub(0)
      w.ub(0)
    }
    w.ub(code) // extended error number
    w.ub(rowCount) // extended row count
    if (this.fieldVersion >= 14) {
      w.ub(0)
      w.ub(0)
    }
    if (code !== 0) w.bytesWithLength(Buffer.from(error!.text(version) + "\n", "utf8"))
  }

  private writeError(w: WriteBuffer, error: OraError, cursorId: number, rowOffset: number): void {
    this.writeEndOfCall(w, cursorId, rowOffset, [], error, error.position)
  }

  // ------------------------------------------------------------------ direct path load

  private readonly directPaths = new Map<number, { owner: string; table: string; columns: Array<ResultColumn>; rows: Array<Array<DuckDBValue>> }>()

  /** Direct path prepare (messages/directPathPrepare.js): resolves the table and describes the listed columns. */
  private directPathPrepare(r: ReadBuffer, w: WriteBuffer): void {
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
    const sql = this.sql!
    const pick = <A>(exact: string, find: (n: string) => A | undefined): { name: string; found: A | undefined } => {
      const a = find(exact)
      if (a !== undefined) return { name: exact, found: a }
      return { name: exact.toUpperCase(), found: find(exact.toUpperCase()) }
    }
    const owner = schema.length > 0 ? pick(schema, (n) => this.host.db.catalog.users.get(n)).name : sql.schema
    const t = pick(table, (n) => this.host.db.catalog.getTable(owner, n))
    if (t.found === undefined || t.found.kind !== "TABLE") {
      this.writeError(w, ora.tableNotFound(this.host.db.settings.version, owner, t.name), 0, 0)
      return
    }
    const meta = t.found
    const columns: Array<ResultColumn> = []
    for (const n of names) {
      const c = meta.columns.find((x) => x.name === n) ?? meta.columns.find((x) => x.name === n.toUpperCase())
      if (c === undefined) {
        this.writeError(w, ora.invalidIdentifier(n), 0, 0)
        return
      }
      columns.push({ name: c.name, type: c.type, nullable: c.nullable })
    }
    const id = this.nextCursorId++
    this.directPaths.set(id, { owner, table: meta.name, columns, rows: [] })
    w.u8(MSG_PARAMETER)
    w.ub(columns.length)
    columns.forEach((c, i) => this.writeColumnInfo(w, c, i))
    w.ub(0) // parameters
    w.ub(4) // output values; [3] is the cursor
    w.ub(0)
    w.ub(0)
    w.ub(0)
    w.ub(id)
    this.writeEndOfCall(w, 0, 0)
  }

  /** Direct path load stream (messages/directPathLoadStream.js): row pieces of column segments. */
  private directPathStream(r: ReadBuffer, w: WriteBuffer): void {
    const id = r.ub()
    r.u8()
    r.ub() // total piece length
    r.ub() // stream version
    r.u8()
    r.ub()
    r.u8()
    r.u8()
    const dp = this.directPaths.get(id)
    if (dp === undefined) {
      this.writeError(w, ora.invalidCursor(), 0, 0)
      return
    }
    const dbOff = this.host.db.dbOffsetMinutes()
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
          if (!splits) {
            values.push(Buffer.concat(longParts!))
            longParts = undefined
          } else if (continues) {
            // a middle piece of a value spread over several pieces: keep collecting
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
    this.writeEndOfCall(w, 0, 0)
  }

  /** Direct path finish (inserts and commits, like Oracle's direct path load) or abort. */
  private async directPathOp(r: ReadBuffer, w: WriteBuffer): Promise<void> {
    const op = r.ub()
    const id = r.ub()
    const dp = this.directPaths.get(id)
    this.directPaths.delete(id)
    if (dp === undefined || op !== 2 || dp.rows.length === 0) {
      this.writeEndOfCall(w, 0, 0)
      return
    }
    const sql = this.sql!
    const names = dp.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(", ")
    const binds = dp.columns.map((_, i) => `:${i + 1}`).join(", ")
    const insert = `INSERT INTO "${dp.owner}"."${dp.table}" (${names}) VALUES (${binds})`
    try {
      await sql.commit()
      await sql.execute(insert, dp.rows, dp.columns.map((c) => ({ dty: c.type.dty, csfrm: c.type.csfrm, maxSize: c.type.maxSize })), { batchErrors: false, dmlRowCounts: false })
      await sql.commit()
      this.writeEndOfCall(w, 0, dp.rows.length)
    } catch (e) {
      await sql.rollback().catch(() => undefined)
      this.writeError(w, toOra(e), 0, 0)
    }
  }

  // ------------------------------------------------------------------ LOBs

  private registerLob(value: string | Uint8Array, type: OraType, temp: boolean): Buffer {
    const id = this.nextLobId++
    const blob = type.kind === "blob" || type.kind === "raw" || type.kind === "longraw"
    this.lobs.set(id, { data: typeof value === "string" ? value : Buffer.from(value), blob, temp, nchar: type.kind === "nclob" })
    return this.locator(id, blob, temp)
  }

  private locator(id: number, blob: boolean, temp: boolean): Buffer {
    const loc = Buffer.alloc(40)
    loc.writeUInt16BE(38, 0)
    loc.writeUInt16BE(4, 2) // locator version
    loc[4] = (blob ? 0x01 : 0) | (temp ? 0x40 : 0)
    loc[5] = 0x08 // initialised
    loc[7] = temp ? 0x01 : 0
    loc.writeUInt32BE(id, 10)
    loc.write("DKLOB", 20, "ascii")
    return loc
  }

  private lobContent(loc: Buffer): string | Uint8Array | null {
    if (loc.length < 14) return null
    const e = this.lobs.get(loc.readUInt32BE(10))
    return e === undefined ? null : e.data
  }

  private lobOp(r: ReadBuffer, w: WriteBuffer): void {
    const srcPtr = r.u8()
    const srcLen = r.ub()
    r.u8()
    r.ub() // dest length
    r.ub()
    r.ub()
    r.u8()
    r.u8()
    r.u8()
    const op = r.ub()
    r.u8()
    r.u8()
    const srcOffset = r.ub()
    const destOffset = r.ub()
    const sendAmount = r.u8()
    r.u16be()
    r.u16be()
    r.u16be()
    const loc = srcPtr === 1 && srcLen > 0 ? Buffer.from(r.take(srcLen)) : Buffer.alloc(40)
    let data: Buffer | null = null
    if (op === LOB_CREATE_TEMP) r.ub()
    if (r.remaining() > 0 && r.peek() === MSG_LOB_DATA) {
      r.u8()
      data = r.bytesWithLength() ?? Buffer.alloc(0)
    }
    const amount = sendAmount === 1 ? r.ub() : 0
    const id = loc.length >= 14 ? loc.readUInt32BE(10) : 0
    const entry = this.lobs.get(id)
    const writeLocParam = (extra: (w: WriteBuffer) => void) => {
      w.u8(MSG_PARAMETER)
      w.raw(loc)
      extra(w)
    }
    const baseOp = op & ~LOB_ARRAY
    if (baseOp === LOB_CREATE_TEMP) {
      const blob = destOffset === Dty.BLOB
      const nid = this.nextLobId++
      this.lobs.set(nid, { data: blob ? Buffer.alloc(0) : "", blob, temp: true, nchar: srcOffset === 2 })
      this.locator(nid, blob, true).copy(loc)
      if (srcOffset === 2) loc[6] = 0 // NCLOB data is exchanged in the national character set by the client
      writeLocParam((w) => {
        w.ub(873)
        w.u8(0)
      })
      this.writeEndOfCall(w, 0, 0)
      return
    }
    if (baseOp === LOB_FREE_TEMP) {
      this.lobs.delete(id)
      this.writeEndOfCall(w, 0, 0)
      return
    }
    if (entry === undefined) {
      this.writeError(w, new OraError(22922, "nonexistent LOB value"), 0, 0)
      return
    }
    if ((baseOp === LOB_WRITE || baseOp === LOB_TRIM) && !entry.temp) {
      // Locators fetched from table rows carry no link back to their row here, so a write could not reach the
      // table: refuse it instead of losing it (write a temporary LOB and bind it in UPDATE/INSERT instead).
      this.writeError(w, ora.unimplemented("writing to a LOB locator fetched from a table; bind a temporary LOB, string or Buffer instead"), 0, 0)
      return
    }
    const length = entry.data.length
    switch (baseOp) {
      case LOB_GET_LENGTH:
        writeLocParam((w) => w.sb(length))
        break
      case LOB_GET_CHUNK_SIZE:
        writeLocParam((w) => w.sb(LOB_CHUNK))
        break
      case LOB_READ: {
        const start = Math.max(0, srcOffset - 1)
        const piece = entry.data.slice(start, start + amount)
        if (piece.length > 0) {
          w.u8(MSG_LOB_DATA)
          w.bytesWithLength(typeof piece === "string" ? (entry.nchar ? Buffer.from(piece, "utf16le").swap16() : Buffer.from(piece, "utf8")) : piece)
        }
        writeLocParam((w) => w.sb(piece.length))
        break
      }
      case LOB_WRITE: {
        const start = Math.max(0, srcOffset - 1)
        if (entry.blob) {
          const add = data ?? Buffer.alloc(0)
          const cur = entry.data as Buffer
          const out = Buffer.alloc(Math.max(cur.length, start + add.length))
          cur.copy(out)
          add.copy(out, start)
          entry.data = out
        } else {
          const raw = data ?? Buffer.alloc(0)
          const add = entry.nchar ? Buffer.from(raw).swap16().toString("utf16le") : raw.toString("utf8")
          const cur = (entry.data as string).padEnd(start, " ")
          entry.data = cur.slice(0, start) + add + cur.slice(start + add.length)
        }
        writeLocParam(() => undefined)
        break
      }
      case LOB_TRIM:
        entry.data = entry.data.slice(0, amount)
        writeLocParam((w) => w.sb(amount))
        break
      case LOB_OPEN:
      case LOB_CLOSE:
        writeLocParam((w) => {
          if (sendAmount === 1) w.sb(amount)
        })
        break
      case LOB_IS_OPEN:
        writeLocParam((w) => w.u8(0))
        break
      default:
        this.writeError(w, ora.unimplemented(`LOB operation ${op}`), 0, 0)
        return
    }
    this.writeEndOfCall(w, 0, 0)
  }
}

const isClosedResult = (r: ActiveResult): boolean => r.closed === true

const closeResult = (r: ActiveResult): void => {
  r.closed = true
  r.pending = undefined
  r.cursor.close()
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
      return timestampValue(BigInt(microsOfOracle(b)))
    case "timestamptz":
      return timestampTZValue(BigInt(microsOfOracle(b)))
    case "timestampltz":
      return timestampTZValue(BigInt(microsOfOracle(b) - dbOffsetMinutes * 60_000_000))
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
      return JSON.stringify(decodeOson(b))
    case "intervalds": {
      const days = b.readUInt32BE(0) - 0x80000000
      const secs = (b[4]! - 60) * 3600 + (b[5]! - 60) * 60 + (b[6]! - 60)
      const ns = b.readUInt32BE(7) - 0x80000000
      return intervalValue(0, days, BigInt(secs) * 1_000_000n + BigInt(Math.trunc(ns / 1000)))
    }
    case "intervalym":
      return intervalValue((b.readUInt32BE(0) - 0x80000000) * 12 + (b[4]! - 60), 0, 0n)
    default:
      return b.toString("utf8")
  }
}

const isLobLike = (t: OraType) => t.kind === "clob" || t.kind === "nclob" || t.kind === "blob" || t.kind === "json" || t.kind === "vector"

const toOra = (e: unknown): OraError => {
  if (process.env.ORACLE_TESTKIT_DEBUG !== undefined) console.error("oracle testkit error:", e)
  if (e instanceof OraError) return e
  const message = e instanceof Error ? e.message : String(e)
  if (/Interrupt/i.test(message)) return ora.cancelled()
  return ora.internal(message.split("\n")[0] ?? "error")
}

const normaliseTz = (tz: string): string => {
  const m = tz.match(/^([+-])(\d{1,2}):(\d{1,2})$/)
  if (m === null) return tz
  return `${m[1]}${m[2]!.padStart(2, "0")}:${m[3]!.padStart(2, "0")}`
}
