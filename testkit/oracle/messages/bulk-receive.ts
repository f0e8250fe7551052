/**
 * Reassembly of a request from its DATA packets. A large executeMany request has its bind rows decoded while it is
 * still arriving (overlapping the client's encoding). For a plain `INSERT … VALUES (:1, …, :n)` the rows go straight
 * from their TTC bytes into column-wise {@link BulkRows} chunks that are appended meanwhile; other statements, and
 * rows with a value only the general path takes, are decoded into bind values (still inserted in chunks for an
 * INSERT). The request's own execution then takes only the rest, or re-runs the rows from a failed chunk on so that
 * the general path reports the error with its row offset.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { BulkInsertError, BulkRows } from "../../engine/index.ts"
import type { AppendTarget } from "../../engine/index.ts"
import { BindRowDecoder } from "../bind-row-decoder.ts"
import { datetimeBindTexts } from "../datetime-bind-texts.ts"
import { type BatchTarget, laidOut, NotExact } from "../bulk-insert.ts"
import type { SessionState } from "../session-state.ts"
import { type BindSpec, classify, returnBindFlags } from "../statement.ts"
import { ProtocolError } from "../tns.ts"
import { ReadBuffer, TruncatedRequestError } from "../wire.ts"
import { bindOrder, readRow } from "./bind-rows.ts"
import { ExecOption, Fn, Msg } from "./constants.ts"
import { outOnlyBinds, type PreRows, readExecuteHeader, startInsertTimer } from "./execute.ts"
import { readPiggyback } from "./piggyback.ts"

/** Rows per chunk insert while a request arrives. */
const BULK_CHUNK = 25_000
/** Emptied chunks kept for reuse ({@link RequestReceiver.spare}): one being filled while others wait to be appended. */
const SPARE_CHUNKS = 4
/**
 * Bytes of a packet joined to the incomplete row before it: enough for most rows, and small enough that the joined
 * buffer comes from Node's buffer pool (below 4 KiB) rather than a fresh allocation per packet.
 */
const SPLICE_BYTES = 1024

/** Request size from which bind rows are decoded while it arrives. */
const INCREMENTAL_FROM_BYTES = 262_144

/** Rows decoded straight from their bytes into column-wise chunks. */
interface ColumnChunks {
  readonly table: string | AppendTarget
  readonly decoder: BindRowDecoder
  /** The chunk being filled and its rows so far. */
  current: BulkRows
  filled: number
  /** The bytes of every row decoded this way, by first row: the general path re-reads them after a failure. */
  readonly raw: Array<{ readonly from: number; readonly bytes: Buffer }>
}

/** Bind rows decoded while a large request is still arriving. */
interface IncrementalRows {
  /** Request bytes up to the first bind row (re-parsed when the request is complete). */
  readonly head: Buffer
  readonly specs: ReadonlyArray<BindSpec>
  readonly order: ReadonlyArray<number>
  /**
   * pending: bytes are kept while the INSERT's append target is looked up; columns: rows go into {@link ColumnChunks};
   * values: rows are decoded into bind values.
   */
  mode: "pending" | "columns" | "values"
  /** Bytes received while pending. */
  pending: Array<Buffer>
  columns: ColumnChunks | undefined
  /** Rows decoded so far (in either mode). */
  total: number
  /** Bind values of rows `valuesFrom …` (the rows decoded in values mode; none while in columns mode). */
  readonly rows: Array<Array<DuckDBValue>>
  valuesFrom: number
  /** SQL text while the statement is a bulk-capable INSERT: chunks are then inserted while the rest arrives. */
  bulkSql: string | undefined
  /**
   * The catalog version a kept target ({@link KnownTarget}) was valid for: a chunk whose append finds the catalog
   * changed since (a DDL queued before this request, e.g. pipelined) is left to the general path.
   */
  knownVersion: number | undefined
  /** Rows handed to chunk inserts so far, rows they inserted, and the first row of a failed chunk. */
  flushed: number
  inserted: number
  failedAt: number | undefined
  /** Bytes after the last complete row. */
  rest: Buffer
  /**
   * Ends the insert timer started when the request began to be decoded: one span for all its packets (timing each
   * packet would cost two process.cpuUsage calls per packet).
   */
  readonly endTimer: (rows: number, counted: boolean) => void
}

/** A complete request: its payload and, for large executeMany requests, the bind rows already decoded. */
export interface ReceivedRequest {
  readonly payload: Buffer
  readonly preRows?: PreRows
}

/** An insert timer (messages/execute.ts) whose end counts only the first time it is called. */
const onceTimer = (s: SessionState): ((rows: number, counted: boolean) => void) => {
  let end: ((rows: number, counted: boolean) => void) | undefined = startInsertTimer(s)
  return (rows, counted) => {
    end?.(rows, counted)
    end = undefined
  }
}

/**
 * The append target of the session's last bulk INSERT, valid while nothing it depends on changed: the same SQL
 * session and schema (name resolution) and no catalog change since it was looked up (`Catalog.version`).
 */
interface KnownTarget {
  readonly sql: string
  readonly session: object
  readonly schema: string
  readonly version: number
  readonly target: BatchTarget
}

/** Collects the DATA packets of one request at a time. */
export class RequestReceiver {
  private parts: Array<Buffer> = []
  private pendingBytes = 0
  /** undefined: not tried yet; null: this request is not decoded incrementally. */
  private incremental: IncrementalRows | null | undefined
  /**
   * The last INSERT's append target: an executeMany sends the same INSERT call after call, and with it known the next
   * call's rows are decoded into columns from its first packet instead of being held until the session's queue
   * (behind the previous call's appends) has looked the target up again.
   */
  private known: KnownTarget | undefined
  /** Per column, the long-string bytes of the last chunk flushed, scaled to a chunk's rows (BulkRows.reserveArenas). */
  private arenaHint: Array<number> = []
  /**
   * Chunks whose rows are appended, emptied and filled again by {@link chunkRows}: an executeMany of 1,000,000 rows
   * would otherwise allocate about 130 MB of column buffers, and V8 answers every 64 MB of new ArrayBuffer bytes with
   * a full collection of the server's heap (BENCHMARKS.md, oracle-ingest).
   */
  private spare: Array<BulkRows> = []

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
      if (inc.mode === "pending") inc.pending.push(part)
      else this.decodeAfterRest(inc, part)
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
      inc.endTimer(0, false)
    }
  }

  /** The last packet of a request (END_OF_REQUEST). */
  finish(part: Buffer): ReceivedRequest {
    const inc = this.incremental
    this.incremental = undefined
    this.pendingBytes = 0
    if (inc !== undefined && inc !== null) {
      try {
        if (inc.mode === "pending") {
          // the append target is not known yet: the final execution takes all rows as bind values
          inc.mode = "values"
          inc.bulkSql = undefined
          this.decodeRows(inc, Buffer.concat([...inc.pending, part]))
        } else {
          // no more chunk flushing of bind values: the final execution takes the rest
          if (inc.mode === "values") inc.bulkSql = undefined
          this.decodeRows(inc, Buffer.concat([inc.rest, part]))
          if (inc.mode === "columns") {
            this.flushColumns(inc)
            // the empty chunk that would take the next rows: the request has none left
            this.keepSpare(inc.columns!.current)
          }
        }
      } finally {
        inc.endTimer(0, true)
      }
      if (inc.rest.length !== 0) throw new ProtocolError("trailing bytes after bind rows")
      if (inc.flushed === 0) return { payload: inc.head, preRows: this.rowsFrom(inc, 0) }
      return {
        payload: inc.head,
        preRows: () => {
          const offset = inc.failedAt ?? inc.flushed
          return { rows: this.rowsFrom(inc, offset), offset, inserted: inc.inserted }
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
      let msg = r.u8()
      // piggybacks run when the request executes; here they are only read past
      while (msg === Msg.PIGGYBACK) {
        readPiggyback(s, r)
        msg = r.u8()
      }
      if (msg !== Msg.FUNCTION || s.sql === undefined) {
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
        mode: bulkSql === undefined ? "values" : "pending",
        pending: [],
        columns: undefined,
        total: 0,
        rows: [],
        valuesFrom: 0,
        rest: Buffer.alloc(0),
        endTimer: onceTimer(this.s),
        bulkSql,
        flushed: 0,
        inserted: 0,
        failedAt: undefined,
        knownVersion: undefined
      }
      this.parts = []
      this.incremental = inc
      const known = bulkSql === undefined ? undefined : this.knownTarget(bulkSql)
      if (known !== undefined) {
        inc.knownVersion = this.known!.version
        this.useTarget(inc, known)
      }
      if (bulkSql === undefined || known !== undefined) this.decodeRows(inc, payload.subarray(r.pos))
      else {
        inc.pending.push(payload.subarray(r.pos))
        this.resolveTarget(inc, bulkSql)
      }
    } catch (e) {
      // not enough bytes for the header yet (try again with the next packet) or not decodable this way
      if (!(e instanceof TruncatedRequestError)) {
        this.incremental?.endTimer(0, false)
        this.incremental = null
      }
    }
  }

  /**
   * Looks up the INSERT's append target (on the session's queue, as it may prepare a statement) and then decodes the
   * bytes received meanwhile: straight into column-wise chunks when every bind has a layout writer, else as values.
   */
  private resolveTarget(inc: IncrementalRows, bulkSql: string): void {
    const sql = this.s.sql
    this.schedule(async () => {
      // read before the lookup: a catalog change while it runs makes the kept target stale at once
      const version = sql?.db.catalog.version
      const target = sql === undefined || this.isClosed() ? undefined : await sql.appendTargetOf(bulkSql).catch(() => undefined)
      this.known = target === undefined || sql === undefined || version === undefined
        ? undefined
        : { sql: bulkSql, session: sql, schema: sql.schema, version, target }
      // finish() took the request as values meanwhile
      if (inc.mode !== "pending") return
      if (target !== undefined) this.useTarget(inc, target)
      else inc.mode = "values"
      const bytes = Buffer.concat(inc.pending)
      inc.pending = []
      this.decodeRows(inc, bytes)
    })
  }

  /** The kept append target of INSERT `bulkSql`, when still valid ({@link KnownTarget}). */
  private knownTarget(bulkSql: string): BatchTarget | undefined {
    const known = this.known
    const sql = this.s.sql
    if (known === undefined || sql === undefined || known.sql !== bulkSql || known.session !== sql) return undefined
    return known.schema === sql.schema && known.version === sql.db.catalog.version ? known.target : undefined
  }

  /** An empty chunk for `decoder`'s columns, its arenas sized as {@link arenaHint} says. */
  private chunkRows(decoder: BindRowDecoder): BulkRows {
    const spare = this.spare.pop()
    if (spare !== undefined && spare.columns === decoder.columns) {
      spare.reset()
      return spare
    }
    // rows of another INSERT's columns: the spares are of no use any more
    this.spare = []
    const rows = new BulkRows(decoder.columns, BULK_CHUNK)
    if (this.arenaHint.length === decoder.columns.length) rows.reserveArenas(this.arenaHint)
    return rows
  }

  /** Keeps `rows`, no longer used, for {@link chunkRows} to fill again. */
  private keepSpare(rows: BulkRows): void {
    if (rows.capacity === BULK_CHUNK && this.spare.length < SPARE_CHUNKS) this.spare.push(rows)
  }

  /** Decodes the request's rows straight into columns of `target` when every bind has a layout writer, else as values. */
  private useTarget(inc: IncrementalRows, target: BatchTarget): void {
    const sql = this.s.sql
    const texts = sql === undefined ? undefined : datetimeBindTexts(sql.nlsFormats, sql.dateLanguage)
    const decoder = BindRowDecoder.of(inc.specs, inc.order, target.columns, target.zoned, target.fractions, target.padded, target.character, texts)
    if (decoder !== undefined) {
      inc.mode = "columns"
      inc.columns = { table: target.table, decoder, current: this.chunkRows(decoder), filled: 0, raw: [] }
    } else inc.mode = "values"
  }

  /**
   * Decodes a packet after the incomplete row the previous one ended with, copying only that row's start and the
   * packet's first bytes together (not the whole packet, which would copy every packet once more).
   */
  private decodeAfterRest(inc: IncrementalRows, part: Buffer): void {
    const rest = inc.rest
    if (rest.length === 0) return this.decodeRows(inc, part)
    const prefix = Math.min(part.length, SPLICE_BYTES)
    this.decodeRows(inc, Buffer.concat([rest, part.subarray(0, prefix)]))
    const consumed = rest.length + prefix - inc.rest.length
    if (consumed >= rest.length) {
      // the row that began in the previous packet is decoded: go on in this packet where it ended
      const from = consumed - rest.length
      inc.rest = Buffer.alloc(0)
      if (from < part.length) this.decodeRows(inc, part.subarray(from))
    } else if (prefix < part.length) {
      // a row longer than the spliced bytes: decode it from the whole packet
      const unread = inc.rest.subarray(0, inc.rest.length - prefix)
      inc.rest = Buffer.alloc(0)
      this.decodeRows(inc, Buffer.concat([unread, part]))
    }
  }

  /** Decodes all complete bind rows in `bytes`, keeping the incomplete tail. */
  private decodeRows(inc: IncrementalRows, bytes: Buffer): void {
    let pos = 0
    if (inc.mode === "columns") pos = this.decodeColumns(inc, inc.columns!, bytes)
    if (inc.mode === "values") {
      const r = new ReadBuffer(bytes, pos)
      try {
        while (r.remaining() > 0 && r.peek() === Msg.ROW_DATA) {
          r.u8()
          inc.rows.push(readRow(this.s, r, inc.specs, inc.order))
          inc.total++
          pos = r.pos
        }
      } catch (e) {
        if (!(e instanceof TruncatedRequestError)) throw e
      }
    }
    inc.rest = pos === bytes.length ? Buffer.alloc(0) : Buffer.from(bytes.subarray(pos))
    if (inc.mode === "values" && inc.bulkSql !== undefined && inc.total - inc.flushed >= BULK_CHUNK) this.flushChunk(inc)
  }

  /**
   * Decodes rows straight into column-wise chunks, flushing each full chunk; returns the position after the last
   * complete row. A value that needs the general path switches the request to values mode from the current chunk on.
   */
  private decodeColumns(inc: IncrementalRows, cols: ColumnChunks, bytes: Buffer): number {
    const decoder = cols.decoder
    const first = inc.total
    let pos = 0
    try {
      while (pos < bytes.length && bytes[pos] === Msg.ROW_DATA) {
        const next = decoder.decodeRow(bytes, pos + 1, cols.current, cols.filled)
        // a row that continues in the next packet is decoded again from its start then
        if (next < 0) break
        pos = next
        inc.total++
        if (++cols.filled === BULK_CHUNK) this.flushColumns(inc)
      }
    } catch (e) {
      if (!(e instanceof NotExact || e instanceof BulkInsertError)) throw e
      this.keepRaw(cols, first, inc.total, bytes.subarray(0, pos))
      this.toValues(inc, cols)
      return pos
    }
    this.keepRaw(cols, first, inc.total, bytes.subarray(0, pos))
    return pos
  }

  private keepRaw(cols: ColumnChunks, from: number, to: number, bytes: Buffer): void {
    if (to > from) cols.raw.push({ from, bytes })
  }

  /** Queues the append of the chunk being filled (if it has rows) and starts the next one. */
  private flushColumns(inc: IncrementalRows): void {
    const cols = inc.columns!
    if (cols.filled === 0) return
    const bulk = cols.current
    bulk.truncate(cols.filled)
    const from = inc.flushed
    inc.flushed = inc.total
    // the next rows, of this request or the next, are most likely like these: their long strings take as many bytes
    this.arenaHint = bulk.arenaBytes().map((bytes) => Math.ceil((bytes * BULK_CHUNK) / bulk.rowCount))
    cols.current = this.chunkRows(cols.decoder)
    cols.filled = 0
    const sql = this.s.sql
    this.schedule(async () => {
      if (inc.failedAt !== undefined || sql === undefined || this.isClosed()) return
      if (inc.knownVersion !== undefined && sql.db.catalog.version !== inc.knownVersion) {
        inc.failedAt = from
        return
      }
      const timer = startInsertTimer(this.s)
      try {
        const n = await sql.appendBulk(cols.table, bulk)
        // the transaction keeps the rows sealed in DuckDB chunks, not these buffers (SessionExecuteMany.appendBulk)
        this.keepSpare(bulk)
        if (n === undefined) inc.failedAt = from
        else {
          inc.inserted += n
          laidOut.rows += n
          laidOut.straight += n
        }
      } catch {
        // the request's own execution re-runs these rows and reports the error with its row offset
        inc.failedAt = from
      } finally {
        timer(0, true)
      }
    })
  }

  /** Continues in values mode: the rows of the chunk being filled become bind values. */
  private toValues(inc: IncrementalRows, cols: ColumnChunks): void {
    inc.mode = "values"
    inc.valuesFrom = inc.flushed
    for (const row of this.rawRows(inc, cols, inc.flushed, inc.total)) inc.rows.push(row)
    cols.current = new BulkRows(cols.decoder.columns, 0)
    cols.filled = 0
  }

  /** Bind values of rows [from, to) decoded in columns mode, re-read from their bytes. */
  private rawRows(inc: IncrementalRows, cols: ColumnChunks, from: number, to: number): Array<Array<DuckDBValue>> {
    const out: Array<Array<DuckDBValue>> = []
    for (const { from: first, bytes } of cols.raw) {
      if (first >= to) break
      const r = new ReadBuffer(bytes)
      for (let row = first; row < to && r.remaining() > 0; row++) {
        r.u8() // ROW_DATA
        const values = readRow(this.s, r, inc.specs, inc.order)
        if (row >= from) out.push(values)
      }
    }
    return out
  }

  /** Bind values of rows `offset …` of the request, for its execution. */
  private rowsFrom(inc: IncrementalRows, offset: number): Array<Array<DuckDBValue>> {
    // rows before `valuesFrom` were decoded in columns mode (all of them while it lasts)
    const valuesFrom = inc.mode === "values" ? inc.valuesFrom : inc.total
    const fromValues = inc.rows.slice(Math.max(0, offset - valuesFrom))
    if (offset >= valuesFrom || inc.columns === undefined) return fromValues
    return [...this.rawRows(inc, inc.columns, offset, valuesFrom), ...fromValues]
  }

  /** Queues the insert of the bind values decoded so far (runs on DuckDB's threads while more rows arrive). */
  private flushChunk(inc: IncrementalRows): void {
    const from = inc.flushed
    const chunk = inc.rows.slice(from - inc.valuesFrom)
    inc.flushed = inc.total
    const sql = this.s.sql
    const bulkSql = inc.bulkSql!
    this.schedule(async () => {
      if (inc.failedAt !== undefined || sql === undefined || this.isClosed()) return
      const timer = startInsertTimer(this.s)
      try {
        const n = await sql.bulkChunk(bulkSql, chunk, inc.specs)
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
