/**
 * One client connection of the HANA test server: packet framing, the protocol state machine (init,
 * DB_CONNECT_INFO, AUTHENTICATE, CONNECT, DISCONNECT) and the dispatch of every other request to the connection's
 * SQL session (sqlsession.ts). Requests are handled one at a time, in arrival order.
 */
import * as crypto from "node:crypto"
import type { Socket } from "node:net"
import { jwtClaims, jwtIssuer, scramChallenge, verifyJwt, verifyScram, verifyX509, x509Proof } from "./auth.ts"
import type { ScramChallenge, ScramMethod } from "./auth.ts"
import { fromEngineError, HanaError } from "./errors.ts"
import type { ServerContext } from "./server-context.ts"
import { SESSION_MACROS } from "./session-macros.ts"
import { sessionContextSql } from "./monitoring-views.ts"
import type { ConnectionMonitoring } from "./monitoring-views.ts"
import { nowTicks } from "./longdate.ts"
import { quoteString } from "./names.ts"
import { errorPart, ok } from "./replies.ts"
import type { Reply } from "./replies.ts"
import {
  decodeFields,
  decodeOptions,
  decodeRequest,
  encodeFields,
  encodeOptions,
  encodeReply,
  exceedsDeclaredSize,
  FunctionCode,
  MalformedPacket,
  MessageType,
  OptionType,
  PACKET_HEADER_LENGTH,
  PartKind,
  requestPart,
  SegmentKind
} from "./wire.ts"
import type { Request } from "./wire.ts"
import { SqlSession } from "./sqlsession.ts"
import { compressionOn, compressPacket, COMPRESSION_OPTION, decompressPacket, isCompressed, negotiateCompression } from "./compression.ts"

const INIT_REQUEST_LENGTH = 14
const INIT_REPLY = Buffer.from("0414000401000000", "hex")
/** HANA's answer to a request packet larger than the size its header declares (see exceedsDeclaredSize). */
const BUFFER_STRUCTURE_ERROR = new HanaError(1033, "HY000", "error while parsing protocol: invalid communication buffer structure")


/** One client connection. */
export class ProtocolSession {
  /** HANA connection id (CURRENT_CONNECTION, ALTER SYSTEM CANCEL SESSION). */
  readonly connectionId: number
  private readonly sessionId: bigint
  private buffered: Buffer[] = []
  private bufferedLength = 0
  private initialized = false
  private queue: Promise<void> = Promise.resolve()
  private closed = false
  private closing: Promise<void> | undefined
  private replies = 0
  private repliesAtLogin = 0
  /** The SQL session, once the client has logged in. */
  private sql: SqlSession | undefined
  private scram: ScramChallenge | undefined
  private x509Nonce: Buffer | undefined
  private pendingUser: string | undefined
  private authMethod = ""
  /** LZ4 packet compression agreed at CONNECT (compression.ts). */
  private compressed = false
  /** When the client logged in (epoch milliseconds) and whether a request is being handled (M_CONNECTIONS). */
  private connectedAt = 0
  private running = false

  constructor(
    private readonly socket: Socket,
    private readonly ctx: ServerContext
  ) {
    this.connectionId = ctx.nextConnectionId()
    this.sessionId = BigInt(this.connectionId) + 300_000n
    socket.setNoDelay(true)
    socket.on("data", (chunk: Buffer) => this.onData(chunk))
    socket.on("error", () => this.shutdown())
    socket.on("close", () => this.shutdown())
  }

  /** Result sets this session holds open (server cursors not yet read to the end or closed by the client). */
  openResultSets(): number {
    return this.sql?.openResultSets() ?? 0
  }

  /** Interrupts the running statement (ALTER SYSTEM CANCEL SESSION). */
  cancel(): void {
    this.sql?.session.interrupt()
  }

  /** Closes without waiting (for use inside request handling, which close() itself waits for). */
  private shutdown(): void {
    void this.close()
  }

  /** Closes the socket and the engine session (rolls back, drops local temporary tables). */
  close(): Promise<void> {
    if (this.closing !== undefined) return this.closing
    this.closed = true
    this.sql?.release()
    this.socket.destroy()
    const session = this.sql?.session
    this.sql = undefined
    this.ctx.connections.delete(this.connectionId)
    // Interrupt a statement still running on the DuckDB connection and let it end before closing the connection.
    session?.interrupt()
    const closeSession = (): void => {
      try {
        session?.close()
      } catch {
        // the engine is already closed
      }
    }
    this.closing = this.queue.then(closeSession, closeSession)
    return this.closing
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return
    this.buffered.push(chunk)
    this.bufferedLength += chunk.length
    try {
      this.drain()
    } catch {
      this.shutdown()
    }
  }

  private take(n: number): Buffer {
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered, this.bufferedLength)
    const head = all.subarray(0, n)
    const rest = all.subarray(n)
    this.buffered = rest.length > 0 ? [rest] : []
    this.bufferedLength = rest.length
    return head
  }

  private peek(n: number): Buffer {
    if (this.buffered.length > 1 && this.buffered[0]!.length < n) {
      const all = Buffer.concat(this.buffered, this.bufferedLength)
      this.buffered = [all]
    }
    return this.buffered[0]!.subarray(0, n)
  }

  private drain(): void {
    for (;;) {
      if (this.closed) return
      if (!this.initialized) {
        if (this.bufferedLength < INIT_REQUEST_LENGTH) return
        const init = this.take(INIT_REQUEST_LENGTH)
        if (init.readInt32LE(0) !== -1) return this.shutdown()
        this.initialized = true
        this.socket.write(INIT_REPLY)
        continue
      }
      if (this.bufferedLength < PACKET_HEADER_LENGTH) return
      const varpart = this.peek(PACKET_HEADER_LENGTH).readUInt32LE(12)
      if (varpart > this.ctx.maxPacketBytes) return this.shutdown()
      if (this.bufferedLength < PACKET_HEADER_LENGTH + varpart) return
      const packet = Buffer.from(this.take(PACKET_HEADER_LENGTH + varpart))
      this.queue = this.queue.then(() => this.handleRunning(packet)).catch(() => this.shutdown())
    }
  }

  /** Handles a packet, RUNNING in M_CONNECTIONS meanwhile. */
  private async handleRunning(packet: Buffer): Promise<void> {
    this.running = true
    try {
      await this.handlePacket(packet)
    } finally {
      this.running = false
    }
  }

  /** This connection's row of M_CONNECTIONS and its M_SESSION_CONTEXT variables. */
  monitoring(): ConnectionMonitoring {
    const identity = this.sql?.identity
    return {
      id: this.connectionId,
      user: identity?.user ?? "",
      schema: this.sql?.currentSchema ?? "",
      connectedAt: this.connectedAt,
      running: this.running,
      context: identity?.context ?? new Map(),
      temporaryTables: identity?.temporaryTables ?? []
    }
  }

  private async handlePacket(received: Buffer): Promise<void> {
    if (this.closed) return
    let request: Request
    let packet = received
    try {
      if (this.compressed && isCompressed(packet)) packet = decompressPacket(packet)
      request = decodeRequest(packet)
    } catch {
      // A malformed packet closes only this session.
      return this.shutdown()
    }
    // Every request gets an answer: whatever fails inside the server (a SQL error, a bug, a reply that cannot be
    // encoded) becomes a HANA error reply and the session goes on; only an unreadable packet ends it.
    let reply: Reply | undefined
    this.ctx.stats.requests++
    try {
      // The whole packet was read, so the session goes on after refusing it (see exceedsDeclaredSize).
      if (exceedsDeclaredSize(packet)) throw BUFFER_STRUCTURE_ERROR
      if (this.ctx.faults.failsInternally(request.messageType, "handler")) throw new Error(`injected internal failure handling message type ${request.messageType}`)
      reply = await this.dispatch(request)
    } catch (e) {
      if (e instanceof MalformedPacket) return this.shutdown()
      reply = this.errorReply(e)
    }
    if (reply === undefined || this.closed) return
    await this.send(request, reply)
  }

  /** The ERROR reply for a failure (a HANA error as it is; anything else as HANA's general error 2). */
  private errorReply(e: unknown): Reply {
    let err: HanaError
    try {
      err = fromEngineError(e, this.sql?.currentSchema ?? "")
    } catch {
      err = HanaError.general("internal error")
    }
    return { kind: SegmentKind.ERROR, functionCode: 0, parts: [errorPart(err)] }
  }

  /** The reply's bytes; a reply that cannot be encoded is answered with the error that stopped it. */
  private encode(request: Request, reply: Reply): Buffer {
    const sessionId = this.sql === undefined ? 0n : this.sessionId
    try {
      if (this.ctx.faults.failsInternally(request.messageType, "reply")) {
        throw new Error(`injected internal failure encoding the reply to message type ${request.messageType}`)
      }
      const bytes = encodeReply(sessionId, request.packetCount, reply.kind, reply.functionCode, reply.parts)
      return this.compressed && request.messageType !== MessageType.CONNECT ? compressPacket(bytes) : bytes
    } catch (e) {
      const error = this.errorReply(e)
      return encodeReply(sessionId, request.packetCount, error.kind, error.functionCode, error.parts)
    }
  }

  private async send(request: Request, reply: Reply, partial = false): Promise<void> {
    const faults = this.ctx.faults
    if (faults.replyDelayMs > 0) await new Promise((r) => setTimeout(r, faults.replyDelayMs))
    const held = faults.heldUntil(request.messageType)
    if (held !== undefined) await held.then(() => undefined, () => undefined)
    if (this.closed) return
    const bytes = this.encode(request, reply)
    if (partial) {
      this.socket.write(bytes.subarray(0, Math.max(PACKET_HEADER_LENGTH + 1, bytes.length >> 1)))
      return this.shutdown()
    }
    this.socket.write(bytes)
    this.replies++
    if (faults.dropAfterReplies !== undefined && this.sql !== undefined && this.replies - this.repliesAtLogin >= faults.dropAfterReplies) {
      this.shutdown()
    }
  }

  private async dispatch(request: Request): Promise<Reply | undefined> {
    switch (request.messageType) {
      case MessageType.DB_CONNECT_INFO:
        return this.dbConnectInfo(request)
      case MessageType.AUTHENTICATE:
        return this.authenticate(request)
      case MessageType.CONNECT:
        return this.connect(request)
    }
    const sql = this.sql
    if (sql === undefined) throw new HanaError(10, "28000", "authentication failed: not connected")
    if (request.messageType !== MessageType.DISCONNECT) return sql.handle(request)
    switch (request.messageType) {
      case MessageType.DISCONNECT:
        // Gone from M_CONNECTIONS before the client hears the answer.
        this.ctx.connections.delete(this.connectionId)
        await this.send(request, ok(FunctionCode.DISCONNECT))
        this.shutdown()
        return undefined
      default:
        throw HanaError.unsupported(`message type ${request.messageType}`)
    }
  }


  // --- connect -----------------------------------------------------------------------------------------------

  private dbConnectInfo(request: Request): Reply {
    const p = requestPart(request, PartKind.DB_CONNECT_INFO)
    const name = p === undefined ? undefined : decodeOptions(p).get(1)
    const correct = typeof name === "string" && name.toUpperCase() === this.ctx.options.databaseName.toUpperCase()
    if (!correct) throw new HanaError(10, "28000", `authentication failed: unknown database ${String(name)}`)
    return ok(FunctionCode.NIL, [
      { kind: PartKind.DB_CONNECT_INFO, argc: 1, data: encodeOptions([{ name: 4, type: OptionType.BOOLEAN, value: true }]) }
    ])
  }

  private authFail(): never {
    throw HanaError.auth()
  }

  private authenticate(request: Request): Reply {
    const p = requestPart(request, PartKind.AUTHENTICATION)
    if (p === undefined) throw new MalformedPacket("AUTHENTICATION part missing")
    const fields = decodeFields(p.data)
    const user = fields[0]?.toString("utf8") ?? ""
    const offered = new Map<string, Buffer>()
    for (let i = 1; i + 1 < fields.length; i += 2) offered.set(fields[i]!.toString("ascii"), fields[i + 1]!)
    const { options, faults } = this.ctx
    if (faults.refuseLogins(user)) this.authFail()
    const jwtToken = offered.get("JWT")
    if (jwtToken !== undefined) {
      const token = jwtToken.toString("utf8")
      // The start-up option `jwt` first, then the JWT providers made by SQL (identity/store.ts).
      const optionUser = options.jwt === undefined ? undefined : verifyJwt(token, options.jwt)
      const jwtUser =
        optionUser !== undefined && this.ctx.users.has(optionUser)
          ? optionUser
          : this.ctx.identity.jwtUser((key) => jwtClaims(token, key), jwtIssuer(token))
      if (jwtUser === undefined || !this.ctx.users.has(jwtUser)) this.authFail()
      this.pendingUser = jwtUser
      this.authMethod = "JWT"
      return ok(FunctionCode.NIL, [{ kind: PartKind.AUTHENTICATION, argc: 2, data: encodeFields([Buffer.from("JWT"), Buffer.from(jwtUser)]) }])
    }
    const samlAssertion = offered.get("SAML")
    if (samlAssertion !== undefined) {
      // SAML bearer assertion (hdb option `assertion`): the server answers with the user it maps to.
      const samlUser = this.ctx.identity.samlUser(samlAssertion.toString("utf8"))
      if (samlUser === undefined || !this.ctx.users.has(samlUser)) this.authFail()
      this.pendingUser = samlUser
      this.authMethod = "SAML"
      return ok(FunctionCode.NIL, [{ kind: PartKind.AUTHENTICATION, argc: 2, data: encodeFields([Buffer.from("SAML"), Buffer.from(samlUser)]) }])
    }
    if (offered.has("X509")) {
      this.x509Nonce = crypto.randomBytes(64)
      this.authMethod = "X509"
      return ok(FunctionCode.NIL, [{ kind: PartKind.AUTHENTICATION, argc: 2, data: encodeFields([Buffer.from("X509"), this.x509Nonce]) }])
    }
    const cookie = offered.get("SessionCookie")
    if (cookie !== undefined) {
      const cookieUser = this.ctx.sessionCookies.get(cookie.toString("hex"))
      if (cookieUser === undefined) this.authFail()
      this.pendingUser = cookieUser
      this.authMethod = "SessionCookie"
      return ok(FunctionCode.NIL, [{ kind: PartKind.AUTHENTICATION, argc: 2, data: encodeFields([Buffer.from("SessionCookie"), Buffer.alloc(0)]) }])
    }
    const method = options.scramMethods.find((m: ScramMethod) => offered.has(m))
    if (method === undefined) this.authFail()
    this.scram = scramChallenge(method, offered.get(method)!, options.pbkdf2Iterations)
    this.pendingUser = user
    this.authMethod = method
    return ok(FunctionCode.NIL, [
      { kind: PartKind.AUTHENTICATION, argc: 2, data: encodeFields([Buffer.from(method), this.scram.replyData]) }
    ])
  }

  private async connect(request: Request): Promise<Reply> {
    const p = requestPart(request, PartKind.AUTHENTICATION)
    if (p === undefined) throw new MalformedPacket("AUTHENTICATION part missing")
    const fields = decodeFields(p.data)
    const claimedUser = fields[0]?.toString("utf8") ?? ""
    const method = fields[1]?.toString("ascii") ?? ""
    const finalData = fields[2] ?? Buffer.alloc(0)
    if (method !== this.authMethod) this.authFail()
    let user: string
    let serverData: Buffer = Buffer.alloc(0)
    if (method === "SCRAMSHA256" || method === "SCRAMPBKDF2SHA256") {
      // HANA user names are identifiers: `system` logs in as SYSTEM unless a user with that exact spelling exists.
      const resolved = this.ctx.users.has(claimedUser) ? claimedUser : claimedUser.toUpperCase()
      const entry = this.ctx.users.get(resolved)
      if (this.scram === undefined || entry === undefined || claimedUser !== this.pendingUser) this.authFail()
      if (!this.ctx.identity.enabled(resolved, "PASSWORD")) this.authFail()
      const proof = verifyScram(this.scram, entry.password, finalData)
      if (proof === undefined) this.authFail()
      serverData = proof
      user = resolved
    } else if (method === "X509") {
      const x509 = this.ctx.options.x509
      const proof = this.x509Nonce === undefined ? undefined : x509Proof(decodeFields(finalData), this.x509Nonce)
      if (proof === undefined) this.authFail()
      // The start-up option `x509` first, then the PSEs, X.509 providers and user identities made by SQL.
      const optionUser = x509 === undefined ? undefined : verifyX509(proof, x509)
      const certUser = optionUser !== undefined && this.ctx.users.has(optionUser) ? optionUser : this.ctx.identity.x509User(proof.cert, proof.sent)
      if (certUser === undefined || !this.ctx.users.has(certUser)) this.authFail()
      user = certUser
    } else if (method === "JWT" || method === "SAML" || method === "SessionCookie") {
      if (this.pendingUser === undefined) this.authFail()
      user = this.pendingUser
    } else {
      this.authFail()
    }
    if (this.ctx.faults.refuseLogins(user)) this.authFail()
    if (method === "JWT" || method === "SAML" || method === "X509" || method === "SessionCookie") {
      const cookie = crypto.randomBytes(32)
      this.ctx.sessionCookies.set(cookie.toString("hex"), user)
      serverData = cookie
    }
    const options = requestPart(request, PartKind.CONNECT_OPTIONS)
    const requested = options === undefined ? undefined : decodeOptions(options)
    const dfv = requested?.get(23) ?? requested?.get(12)
    const compression = negotiateCompression(requested?.get(COMPRESSION_OPTION), this.ctx.options.compression)
    const agreedDfv = typeof dfv === "number" ? Math.max(1, Math.min(dfv, 9)) : 1
    if (this.ctx.connections.size >= this.ctx.options.maxSessions) {
      throw new HanaError(1038, "HY000", "maximum number of connections reached")
    }
    const session = await this.ctx.engine.session()
    const entry = this.ctx.users.get(user)!
    const sql = new SqlSession(session, this.ctx, this.connectionId, user, agreedDfv, (request, reply) => this.send(request, reply, true))
    try {
      await session.execute(
        `${SESSION_MACROS}; SET VARIABLE hana_user = ${quoteString(user)}; SET VARIABLE hana_connection_id = ${this.connectionId}; ` +
          `SET VARIABLE hana_connected_at = ${nowTicks("CAST(now() AS TIMESTAMP)")}; ${sessionContextSql(new Map())}`
      )
      await sql.applySchema(session, entry.defaultSchema)
    } catch (e) {
      session.close()
      throw e
    }
    this.sql = sql
    // hdb compresses from its first request after CONNECT and expects the CONNECT reply itself uncompressed.
    this.compressed = compressionOn(compression)
    this.repliesAtLogin = this.replies + 1
    this.connectedAt = Date.now()
    this.ctx.connections.set(this.connectionId, this)
    return ok(FunctionCode.NIL, [
      { kind: PartKind.AUTHENTICATION, argc: 2, data: encodeFields([Buffer.from(method), serverData]) },
      {
        kind: PartKind.CONNECT_OPTIONS,
        argc: compression === undefined ? 6 : 7,
        data: encodeOptions([
          // Always answered when offered: hdb keeps its own offer, and compresses, when the reply leaves it out.
          ...(compression === undefined ? [] : [{ name: COMPRESSION_OPTION, type: OptionType.INT, value: compression }]),
          // FLAG_SET1 echoed: hdb then checks liveness with CLIENT_PING (SUPPORT_CLIENT_PING = 0x02000000).
          { name: 53, type: OptionType.INT, value: (typeof requested?.get(53) === "number" ? (requested.get(53) as number) : 0) & 0x02000000 },
          { name: 1, type: OptionType.INT, value: this.connectionId },
          { name: 12, type: OptionType.INT, value: agreedDfv },
          { name: 23, type: OptionType.INT, value: agreedDfv },
          { name: 11, type: OptionType.STRING, value: this.ctx.options.systemId },
          { name: 44, type: OptionType.STRING, value: this.ctx.options.version }
        ])
      }
    ])
  }
}
