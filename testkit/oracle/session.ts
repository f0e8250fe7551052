/**
 * One client connection: reads TNS packets, answers the listener step, reassembles TTC requests, dispatches each
 * message to its handler in ./messages (one wire message per module, as node-oracledb's
 * lib/thin/protocol/messages/ is cut), answers break/reset markers, and applies the fault switches.
 */
import type * as net from "node:net"
import { cancelResult, closeResult, hasOpenResult } from "./cursors.ts"
import { versionInfo } from "./database.ts"
import { ora, OraError } from "./errors.ts"
import { delayReply, dropKind } from "./faults.ts"
import { listen } from "./listener.ts"
import { RequestReceiver } from "./messages/bulk-receive.ts"
import { Fn, Msg } from "./messages/constants.ts"
import { readDataTypes, writeDataTypesReply } from "./messages/data-types.ts"
import { directPathLoadStream, directPathOp, directPathPrepare } from "./messages/direct-path.ts"
import { toOra, writeEndOfCall, writeError } from "./messages/end-of-call.ts"
import { execute, type PreRows, reexecute } from "./messages/execute.ts"
import { fetch, prefetch } from "./messages/fetch.ts"
import { lobOp } from "./messages/lob-op.ts"
import { authPhaseOne, authPhaseTwo } from "./messages/logon.ts"
import { runPiggyback } from "./messages/piggyback.ts"
import { pipelineCall } from "./messages/pipeline.ts"
import { writeProtocolReply } from "./messages/protocol.ts"
import { endServerCall } from "./plsql.ts"
import type { ServerContext } from "./server-context.ts"
import { type Reply, SessionState } from "./session-state.ts"
import {
  acceptPacket,
  DataFlag,
  dataPackets,
  MarkerKind,
  markerKind,
  markerPacket,
  MAX_PACKET,
  PacketType,
  ProtocolError,
  readConnect,
  readConnectData,
  refusePacket
} from "./tns.ts"
import { ReadBuffer, TruncatedRequestError, WriteBuffer } from "./wire.ts"

/** What a session needs from its server. */
export interface SessionHost extends ServerContext {
  onClose(session: ProtocolSession): void
}

/** A client connection. */
export class ProtocolSession {
  private inbuf: Buffer = Buffer.alloc(0)
  private largeSdu = false
  private sdu = 8192
  private endOfRequest = false
  private phase: "connect" | "connect-data" | "ttc" | "closed" = "connect"
  private queue: Promise<void> = Promise.resolve()
  private processing = false
  private awaitingReset = false
  /** The client's RESET arrived before the break was answered. */
  private resetReceived = false
  private pendingAfterReset: Buffer | undefined
  private replies = 0
  /** The TTC function of the request being answered (for OracleFaults.dropOn). */
  private lastFunction: number | undefined
  private loggedOnReplySent = false
  private readonly state: SessionState
  private readonly receiver: RequestReceiver

  constructor(
    private readonly socket: net.Socket,
    private readonly host: SessionHost
  ) {
    this.state = new SessionState(host, versionInfo(host.db.settings.version).fieldVersion)
    this.receiver = new RequestReceiver(
      this.state,
      (task) => {
        this.queue = this.queue.then(task)
      },
      () => this.isClosed()
    )
    socket.setNoDelay(true)
    socket.on("data", (d) => this.onData(d))
    socket.on("error", () => this.close())
    socket.on("close", () => this.close())
  }

  private isClosed(): boolean {
    return this.phase === "closed"
  }

  /** Cursors the client holds open ('opened cursors current'). */
  openCursors(): number {
    return this.state.cursors.size
  }

  /** Cursors whose result the client has neither fetched to the end nor closed or cancelled. */
  openResults(): number {
    let open = 0
    for (const c of this.state.cursors.values()) if (hasOpenResult(c)) open++
    return open
  }

  /** Closes the connection and releases the session. */
  close(): void {
    if (this.phase === "closed") return
    this.phase = "closed"
    if (this.host.faults.reset === true) this.socket.resetAndDestroy()
    else this.socket.destroy()
    const s = this.state
    this.endSession()
    for (const c of s.cursors.values()) if (c.result !== undefined) closeResult(c.result)
    s.cursors.clear()
    const sql = s.sql
    s.sql = undefined
    if (sql !== undefined) {
      // a statement waiting for a lock (without end by default, as Oracle's) stops waiting: nobody reads its answer
      if (this.processing) sql.interrupt()
      // let a running statement finish before closing its engine session
      void this.queue.then(async () => {
        await sql.engine.close()
        this.host.db.transactionEnded()
      })
    }
    this.host.onClose(this)
  }

  /**
   * The database session ends: it leaves V$SESSION and releases its locks. At LOGOFF, before the client closes its
   * socket (Oracle ends the session on the logoff call; node-oracledb's close() sends LOGOFF, then disconnects the
   * transport, lib/thin/connection.js close), or when the socket closes without one.
   */
  private endSession(): void {
    const info = this.state.info
    if (info === undefined || !this.host.db.sessions.has(info.sid)) return
    this.host.db.sessions.delete(info.sid)
    if (this.host.db.releaseLocks(info.sid)) this.host.db.transactionEnded()
  }

  // ------------------------------------------------------------------ TNS packets

  private onData(d: Buffer): void {
    if (this.phase === "closed") return
    let rest = d
    const need = this.inbuf.length < 8 ? 0 : this.packetLength(this.inbuf) - this.inbuf.length
    if (need > 0 && d.length >= need) {
      // Only the bytes the held partial packet lacks are copied to it, not the whole read: nearly every read of a
      // large request leaves a partial packet, so that would copy the whole request once more.
      this.inbuf = Buffer.concat([this.inbuf, d.subarray(0, need)])
      rest = d.subarray(need)
      if (!this.framePackets()) return
    }
    this.inbuf = this.inbuf.length === 0 ? rest : Buffer.concat([this.inbuf, rest])
    this.framePackets()
  }

  private packetLength(b: Buffer): number {
    return this.largeSdu ? b.readUInt32BE(0) : b.readUInt16BE(0)
  }

  /** Handles the complete packets held in `inbuf`; false when malformed input closed this session (only it). */
  private framePackets(): boolean {
    try {
      while (this.inbuf.length >= 8) {
        const len = this.packetLength(this.inbuf)
        if (len < 8 || len > MAX_PACKET) throw new ProtocolError(`bad packet length ${len}`)
        // a client sends CONNECT, DATA and MARKER packets only: anything else is no TNS client (e.g. an HTTP request),
        // closed at once rather than waiting for the rest of a "packet" whose length is text
        const type = this.inbuf[4]
        if (type !== PacketType.CONNECT && type !== PacketType.DATA && type !== PacketType.MARKER) throw new ProtocolError(`unexpected packet type ${type}`)
        if (this.inbuf.length < len) break
        const packet = this.inbuf.subarray(0, len)
        this.inbuf = this.inbuf.subarray(len)
        this.onPacket(packet)
      }
      return true
    } catch (e) {
      if (process.env.ORACLE_TESTKIT_DEBUG !== undefined) console.error("oracle testkit framing:", e)
      this.close()
      return false
    }
  }

  private onPacket(p: Buffer): void {
    const type = p[4]!
    if (this.phase === "connect") {
      if (type !== PacketType.CONNECT) throw new ProtocolError("expected CONNECT")
      const connect = readConnect(p)
      this.sdu = connect.sdu
      if (connect.connectData !== undefined) this.onConnectData(connect.connectData)
      else this.phase = "connect-data"
      return
    }
    if (this.phase === "connect-data") {
      if (type !== PacketType.DATA) throw new ProtocolError("expected connect data")
      this.onConnectData(readConnectData(p))
      return
    }
    if (type === PacketType.MARKER) {
      this.onMarker(p)
      return
    }
    if (type !== PacketType.DATA) throw new ProtocolError(`unexpected packet type ${type}`)
    if (p.length < 10) throw new ProtocolError("short data packet")
    const flags = p.readUInt16BE(8)
    if ((flags & DataFlag.EOF) !== 0) {
      this.close()
      return
    }
    const part = p.subarray(10)
    if (this.state.breakPending || this.awaitingReset) {
      // Between a BREAK and the RESET that ends it, data is discarded: a call the client sent in that window (it
      // may send one when its break crossed the end of a reply) is answered by the pending ORA-01013 alone.
      // Answering it as well would leave its reply queued in front of the answer to the client's next call.
      this.receiver.discard()
      return
    }
    if ((flags & DataFlag.END_OF_REQUEST) !== 0) {
      const request = this.receiver.finish(part)
      this.enqueue(request.payload, request.preRows)
    } else this.receiver.add(part)
  }

  private onConnectData(connectData: string): void {
    const decision = listen(connectData, this.host.db.settings.serviceName, this.host.faults.refuseLogins === true)
    if (!decision.accept) {
      this.socket.end(refusePacket(decision.code))
      this.phase = "closed"
      this.host.onClose(this)
      return
    }
    const client = this.state.client
    client.program = decision.client.program ?? client.program
    client.machine = decision.client.machine ?? client.machine
    client.osUser = decision.client.osUser ?? client.osUser
    // 23ai servers announce end-of-response markers (flags2 HAS_END_OF_REQUEST); 19c does not
    this.endOfRequest = this.host.db.settings.version === "23ai"
    this.socket.write(acceptPacket(this.sdu, this.endOfRequest))
    this.largeSdu = true
    this.phase = "ttc"
  }

  // ------------------------------------------------------------------ break / reset

  private onMarker(p: Buffer): void {
    // kinds: 1 break, 2 reset, 3 interrupt (node-oracledb sqlnet constants NIQBMARK / NIQRMARK / NIQIMARK)
    const kind = p.length >= 10 ? markerKind(p) : undefined
    if (kind === undefined || kind < 1 || kind > 3) throw new ProtocolError(`bad marker packet`)
    if (kind === MarkerKind.RESET) {
      // client reset: answer with our reset marker, then the pending ORA-01013 reply
      if (this.awaitingReset) this.answerReset()
      // A client that sees its own break while decoding a reply resets at once, without waiting for our BREAK
      // (node-oracledb protocol.js _decodeMessage): that RESET can arrive before the break is answered.
      else if (this.state.breakPending) this.resetReceived = true
      return
    }
    // break / interrupt
    if (!this.state.breakPending) this.host.db.stats.cancels++
    this.state.breakPending = true
    if (this.processing) this.state.sql?.interrupt()
    else void this.queue.then(() => this.sendBreakReply())
  }

  private async sendBreakReply(): Promise<void> {
    if (!this.state.breakPending) return
    this.state.breakPending = false
    const w = new WriteBuffer(256)
    // The cancelled call ends its cursor's execution (a fetch from it needs a new execute). A cursor the call opened
    // is named in the error, the only way the client can learn its id and close it (oracledb
    // messages/withData.js processErrorInfo takes an error's cursor id and closes that cursor); a cursor the client
    // already holds is not, so its cached statement is kept and its cursor cancelled on the next round trip.
    const cursor = this.state.callCursor
    const opened = this.state.callOpenedCursor
    this.state.callCursor = undefined
    this.state.callOpenedCursor = false
    if (cursor !== undefined) cancelResult(cursor)
    writeError(this.state, w, ora.cancelled(), opened && cursor !== undefined ? cursor.id : 0, 0)
    if (this.endOfRequest) w.u8(Msg.END_OF_REQUEST)
    this.pendingAfterReset = Buffer.from(w.bytes())
    this.awaitingReset = true
    this.socket.write(markerPacket(MarkerKind.BREAK))
    if (this.resetReceived) this.answerReset()
  }

  /** Answers the client's RESET: our RESET marker, then the ORA-01013 reply of the cancelled call. */
  private answerReset(): void {
    this.awaitingReset = false
    this.resetReceived = false
    // a request the client broke off before its BREAK never gets its last packet
    this.receiver.discard()
    this.socket.write(markerPacket(MarkerKind.RESET))
    if (this.pendingAfterReset !== undefined) {
      this.writePackets(this.pendingAfterReset, false)
      this.pendingAfterReset = undefined
    }
  }

  // ------------------------------------------------------------------ requests and replies

  private enqueue(payload: Buffer, preRows?: PreRows): void {
    this.queue = this.queue
      .then(async () => {
        if (this.phase === "closed") return
        if (this.state.breakPending) {
          // broken off before it started: answered by the ORA-01013 alone, without running
          await this.send({ w: new WriteBuffer(256), rows: false })
          return
        }
        this.state.sql?.startCall()
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
          writeError(this.state, reply.w, toOra(e), 0, 0)
        }
        this.processing = false
        await this.send(reply)
        if (this.state.prefetchAfterSend !== undefined && !this.isClosed()) await prefetch(this.state)
      })
      .catch((e: unknown) => {
        // a failure outside request handling (socket gone, ...) ends this session only
        if (process.env.ORACLE_TESTKIT_DEBUG !== undefined) console.error("oracle testkit:", e)
        this.processing = false
        this.close()
      })
  }

  private async send(reply: Reply): Promise<void> {
    if (this.phase === "closed" || reply.oneWay === true) return
    if (this.state.breakPending) {
      await this.sendBreakReply()
      return
    }
    const faults = this.host.faults
    // Oracle answers a break during a slow fetch with ORA-01013 instead of the rows: a break is "an immediate
    // (asynchronous) abort of any currently executing OCI function" (OCI Programmer's Guide, OCIBreak(),
    // docs.oracle.com/cd/B10500_01/appdev.920/a96584/oci16m96.htm), a fetch included
    const fetching = dropKind(this.lastFunction) === "fetch"
    await delayReply(faults, fetching ? () => this.state.breakPending : undefined)
    if (this.isClosed()) return
    if (fetching && this.state.breakPending) {
      await this.sendBreakReply()
      return
    }
    const payload = reply.w
    if (reply.negotiation !== true && this.endOfRequest) payload.u8(Msg.END_OF_REQUEST)
    const loggedOn = this.state.sql !== undefined
    // the logon reply is sent once `sql` exists but is not one of the session's replies (OracleFaults.dropAfterReplies)
    if (loggedOn && this.loggedOnReplySent) this.replies++
    else if (loggedOn) this.loggedOnReplySent = true
    const dropNow = faults.dropOn !== undefined && faults.dropOn === dropKind(this.lastFunction)
    if (dropNow) delete faults.dropOn
    if ((reply.rows && faults.dropMidResult === true) || dropNow) {
      const bytes = payload.bytes()
      this.writePackets(bytes.subarray(0, Math.max(1, bytes.length >> 1)), false)
      this.close()
      return
    }
    this.state.callCursor = undefined
    this.state.callOpenedCursor = false
    this.writePackets(payload.bytes(), this.endOfRequest)
    if (faults.dropAfterReplies !== undefined && loggedOn && this.replies >= faults.dropAfterReplies) this.close()
  }

  private writePackets(payload: Buffer, endOfResponse: boolean): void {
    // one gathered write (writev) of the packets' headers and payload views, instead of a copy of the reply
    this.socket.cork()
    for (const part of dataPackets(payload, this.sdu, endOfResponse)) this.socket.write(part)
    this.socket.uncork()
  }

  /** Runs one request: negotiation messages, or piggybacks followed by one function. */
  private async handle(payload: Buffer, preRows?: PreRows): Promise<Reply> {
    const s = this.state
    const r = new ReadBuffer(payload)
    const reply: Reply = { w: new WriteBuffer(), rows: false }
    this.lastFunction = undefined
    for (;;) {
      const msg = r.u8()
      if (msg === Msg.PROTOCOL) {
        writeProtocolReply(reply.w, s.fieldVersion)
        reply.negotiation = true
        return reply
      }
      if (msg === Msg.DATA_TYPES) {
        const clientVersion = readDataTypes(r)
        if (clientVersion !== undefined) s.fieldVersion = Math.min(s.fieldVersion, clientVersion)
        writeDataTypesReply(reply.w, s.db.dbOffsetMinutes())
        reply.negotiation = true
        return reply
      }
      if (msg === Msg.PIGGYBACK) {
        await runPiggyback(s, r)
        continue
      }
      if (msg === Msg.ONEWAY_FN) {
        // SESSION_RELEASE (messages/sessionRelease.js, DRCP) is the client's only one-way function: the server has no
        // pooled sessions to return the session to, so the session simply stays; no answer either way
        r.u8()
        r.u8()
        reply.oneWay = true
        return reply
      }
      if (msg !== Msg.FUNCTION) throw new ProtocolError(`unexpected message ${msg}`)
      s.db.stats.requests++
      const fn = r.u8()
      this.lastFunction = fn
      r.u8() // sequence number
      const token = s.fieldVersion >= 18 ? r.ub() : 0
      try {
        await pipelineCall(s, fn, token, r, reply.w, () => this.dispatch(fn, r, reply, preRows))
      } finally {
        if (s.sql !== undefined) {
          endServerCall(s.sql)
          s.sql.endCall()
        }
      }
      return reply
    }
  }

  private async dispatch(fn: number, r: ReadBuffer, reply: Reply, preRows?: PreRows): Promise<void> {
    const s = this.state
    const w = reply.w
    if (s.sql === undefined && fn !== Fn.AUTH_PHASE_ONE && fn !== Fn.AUTH_PHASE_TWO) throw new OraError(1012, "not logged on")
    switch (fn) {
      case Fn.AUTH_PHASE_ONE:
        return authPhaseOne(s, r, w)
      case Fn.AUTH_PHASE_TWO:
        return authPhaseTwo(s, r, w)
      case Fn.EXECUTE:
        return execute(s, r, reply, preRows)
      case Fn.REEXECUTE:
      case Fn.REEXECUTE_AND_FETCH:
        return reexecute(s, fn, r, reply, preRows)
      case Fn.FETCH:
        return fetch(s, r, reply)
      case Fn.COMMIT:
        await s.sql!.commit()
        return writeEndOfCall(s, w, 0, 0)
      case Fn.ROLLBACK:
        await s.sql!.rollback()
        return writeEndOfCall(s, w, 0, 0)
      case Fn.LOGOFF:
        await s.sql!.rollback()
        this.endSession()
        return writeEndOfCall(s, w, 0, 0)
      case Fn.PING:
        return writeEndOfCall(s, w, 0, 0)
      case Fn.LOB_OP:
        return lobOp(s, r, w)
      case Fn.DIRECT_PATH_PREPARE:
        return directPathPrepare(s, r, w)
      case Fn.DIRECT_PATH_LOAD_STREAM:
        return directPathLoadStream(s, r, w)
      case Fn.DIRECT_PATH_OP:
        return directPathOp(s, r, w)
      default:
        writeError(s, w, ora.unimplemented(`TTC function ${fn}`), 0, 0)
    }
  }
}
