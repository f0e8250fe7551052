/**
 * Reassembly of a request from its DATA packets. A large executeMany request has its bind rows decoded while it is
 * still arriving (overlapping the client's encoding), and for a plain INSERT the rows decoded so far are inserted
 * in chunks meanwhile; the request's own execution then takes only the rest.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { SessionState } from "../session-state.ts"
import { type BindSpec, classify, returnBindFlags } from "../statement.ts"
import { ProtocolError } from "../tns.ts"
import { ReadBuffer, TruncatedRequestError } from "../wire.ts"
import { bindOrder, readRow } from "./bind-rows.ts"
import { ExecOption, Fn, Msg } from "./constants.ts"
import { outOnlyBinds, type PreRows, readExecuteHeader, startInsertTimer } from "./execute.ts"

/** Rows per chunk insert while a request arrives. */
const BULK_CHUNK = 25_000
/** Request size from which bind rows are decoded while it arrives. */
const INCREMENTAL_FROM_BYTES = 262_144

/** Bind rows decoded while a large request is still arriving. */
interface IncrementalRows {
  /** Request bytes up to the first bind row (re-parsed when the request is complete). */
  readonly head: Buffer
  readonly specs: ReadonlyArray<BindSpec>
  readonly order: ReadonlyArray<number>
  readonly rows: Array<Array<DuckDBValue>>
  /** SQL text while the statement is a bulk-capable INSERT: chunks are then inserted while the rest arrives. */
  bulkSql: string | undefined
  /** Rows handed to chunk inserts so far, rows they inserted, and the first row of a failed chunk. */
  flushed: number
  inserted: number
  failedAt: number | undefined
  /** Bytes after the last complete row. */
  rest: Buffer
}

/** A complete request: its payload and, for large executeMany requests, the bind rows already decoded. */
export interface ReceivedRequest {
  readonly payload: Buffer
  readonly preRows?: PreRows
}

/** Collects the DATA packets of one request at a time. */
export class RequestReceiver {
  private parts: Array<Buffer> = []
  private pendingBytes = 0
  /** undefined: not tried yet; null: this request is not decoded incrementally. */
  private incremental: IncrementalRows | null | undefined

  constructor(
    private readonly s: SessionState,
    /** Runs a task after the requests queued before it. */
    private readonly schedule: (task: () => Promise<void>) => void,
    private readonly isClosed: () => boolean
  ) {}

  /** A packet of a request that continues. */
  add(part: Buffer): void {
    const inc = this.incremental
    if (inc !== undefined && inc !== null) {
      this.decodeMore(inc, inc.rest.length === 0 ? part : Buffer.concat([inc.rest, part]))
      return
    }
    this.parts.push(part)
    this.pendingBytes += part.length
    if (inc === undefined && this.pendingBytes >= INCREMENTAL_FROM_BYTES) this.startIncremental()
  }

  /** Drops a partly received request (the client broke off sending it). */
  discard(): void {
    this.parts = []
    this.pendingBytes = 0
    const inc = this.incremental
    this.incremental = undefined
    // chunks already queued for insertion are skipped (failedAt), and no more are flushed
    if (inc !== undefined && inc !== null) {
      inc.bulkSql = undefined
      inc.failedAt ??= inc.flushed
    }
  }

  /** The last packet of a request (END_OF_REQUEST). */
  finish(part: Buffer): ReceivedRequest {
    const inc = this.incremental
    this.incremental = undefined
    this.pendingBytes = 0
    if (inc !== undefined && inc !== null) {
      const bulkSql = inc.bulkSql
      // no more chunk flushing: the final execution takes the rest
      inc.bulkSql = undefined
      this.decodeMore(inc, Buffer.concat([inc.rest, part]))
      if (inc.rest.length !== 0) throw new ProtocolError("trailing bytes after bind rows")
      if (bulkSql === undefined || inc.flushed === 0) return { payload: inc.head, preRows: inc.rows }
      return {
        payload: inc.head,
        preRows: () => {
          const offset = inc.failedAt ?? inc.flushed
          return { rows: inc.rows.slice(offset), offset, inserted: inc.inserted }
        }
      }
    }
    this.parts.push(part)
    const payload = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts)
    this.parts = []
    return { payload }
  }

  /** Tries to decode the header of the request being received (null when it is not a bind-row request). */
  private startIncremental(): void {
    const s = this.s
    const payload = Buffer.concat(this.parts)
    const r = new ReadBuffer(payload)
    try {
      if (r.u8() !== Msg.FUNCTION || s.sql === undefined) {
        this.incremental = null
        return
      }
      const fn = r.u8()
      r.u8()
      if (s.fieldVersion >= 18) r.ub()
      let specs: ReadonlyArray<BindSpec>
      let sql: string
      let skip: ReadonlyArray<boolean> | undefined
      let batchErrors = false
      if (fn === Fn.EXECUTE) {
        const h = readExecuteHeader(s, r)
        if ((h.options & ExecOption.DEFINE) !== 0 || h.specs.length === 0) {
          this.incremental = null
          return
        }
        sql = h.sqlText ?? s.cursors.get(h.cursorId)?.sql ?? ""
        specs = h.specs
        skip = returnBindFlags(sql, specs.length)
        batchErrors = (h.options & ExecOption.BATCH_ERRORS) !== 0
      } else if (fn === Fn.REEXECUTE) {
        const cur = s.cursors.get(r.ub())
        r.ub()
        r.ub()
        r.ub()
        if (cur === undefined || cur.specs.length === 0) {
          this.incremental = null
          return
        }
        sql = cur.sql
        specs = cur.specs
        skip = outOnlyBinds(cur)
      } else {
        this.incremental = null
        return
      }
      if (classify(sql) === "plsql") {
        this.incremental = null
        return
      }
      const bulkSql = !batchErrors && skip === undefined && /^\s*INSERT\b/i.test(sql) ? sql : undefined
      const inc: IncrementalRows = {
        head: Buffer.from(payload.subarray(0, r.pos)),
        specs,
        order: bindOrder(specs, false, skip),
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
    // server work of the executeMany whose rows these are (the request counts the rows when it runs)
    const timer = startInsertTimer(this.s)
    try {
      this.decodeRows(inc, bytes)
    } finally {
      timer(0, true)
    }
  }

  private decodeRows(inc: IncrementalRows, bytes: Buffer): void {
    const r = new ReadBuffer(bytes)
    let pos = 0
    try {
      while (r.remaining() > 0 && r.peek() === Msg.ROW_DATA) {
        r.u8()
        inc.rows.push(readRow(this.s, r, inc.specs, inc.order))
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
    const sql = this.s.sql
    const bulkSql = inc.bulkSql!
    this.schedule(async () => {
      if (inc.failedAt !== undefined || sql === undefined || this.isClosed()) return
      const timer = startInsertTimer(this.s)
      try {
        const n = await sql.bulkChunk(bulkSql, chunk)
        if (n === undefined) inc.failedAt = from
        else inc.inserted += n
      } catch {
        // the request's own execution re-runs these rows and reports the error with its row offset
        inc.failedAt = from
      } finally {
        timer(0, true)
      }
    })
  }
}
