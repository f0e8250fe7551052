/**
 * What the HANA driver changes in or reaches through the `hdb` client's internals (2.30.1), kept apart from the
 * plain calls of DbCalls.ts: the module's `lib/` protocol classes, the socket-close guard and the failed-batch row
 * keeper installed on every connected client, and the encoded EXECUTE whose PARAMETERS part the driver writes
 * itself (layers/hana/IngestEncoder.ts).
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"
import type { HdbClient, HdbModule, HdbStatement } from "./DbTypes.ts"

const require = createRequire(import.meta.url)

/** The hdb module (CommonJS; its `lib/` exports the protocol classes the package root does not). @category patches @since 0.1.0 */
export const hdb: HdbModule = require("hdb/lib")

const connectionClosed = () => Object.assign(new Error("Connection closed"), { code: "EHDBCLOSE" })

/**
 * Makes a socket that closes under a request fail that request instead of hanging or crashing the process. hdb
 * 2.30.1 (lib/protocol/Connection.js) does not expect it:
 * - on close, `_cleanup` aborts only the queued tasks: the request in flight is never answered, its caller hangs;
 * - a multi-packet EXECUTE (lib/protocol/ExecuteTask.js) sends its next packet on a later tick through
 *   `Connection.send`, which sets `this._state.messageType` while `_state` is already undefined: an uncaught
 *   `TypeError: Cannot set properties of undefined (setting 'messageType')` ends the Node process.
 * Both now fail with hdb's own EHDBCLOSE error, which the driver maps to IO.
 */
const guardClosedSocket = (client: HdbClient): void => {
  const connection = client._connection
  const send = connection.send.bind(connection)
  let inFlight: ((err: unknown) => void) | undefined
  connection.send = (message, receive) => {
    if (connection._state === undefined) {
      process.nextTick(() => receive(connectionClosed()))
      return
    }
    let answered = false
    const answer = (err: unknown, reply?: unknown) => {
      if (answered) return
      answered = true
      if (inFlight === answer) inFlight = undefined
      receive(err, reply)
    }
    inFlight = answer
    send(message, answer)
  }
  connection.on("close", () => {
    const pending = inFlight
    inFlight = undefined
    if (pending !== undefined) process.nextTick(() => pending(connectionClosed()))
  })
}

/** Per hdb error of a batch EXECUTE: the failing packet's ROWS_AFFECTED, and the rows earlier packets of its task acknowledged. */
const failedBatchRows = new WeakMap<object, { readonly failed: ReadonlyArray<unknown>; readonly before: number }>()

const rowsAffectedOf = (reply: unknown): unknown =>
  typeof reply === "object" && reply !== null ? (reply as { readonly rowsAffected?: unknown }).rowsAffected : undefined

/**
 * Keeps what hdb drops from a failed batch EXECUTE, so that the row the server rejected can be named: hdb 2.30.1's
 * ExecuteTask (lib/protocol/ExecuteTask.js `run`) ends on the first error reply without pushing that reply, whose
 * ROWS_AFFECTED marks the rejected row, and Statement.handle passes on only the error, not the task's reply, whose
 * ROWS_AFFECTED counts the rows of the packets sent before it.
 */
const keepFailedBatchRows = (client: HdbClient): void => {
  const connection = client._connection
  const send = connection.send.bind(connection)
  connection.send = (message, receive) =>
    send(message, (err, reply) => {
      const failed = rowsAffectedOf(reply)
      if (typeof err === "object" && err !== null && Array.isArray(failed)) failedBatchRows.set(err, { failed, before: 0 })
      receive(err, reply)
    })
  const execute = connection.execute.bind(connection)
  connection.execute = (options, cb) =>
    execute(options, (err, reply) => {
      const kept = typeof err === "object" && err !== null ? failedBatchRows.get(err) : undefined
      const acknowledged = rowsAffectedOf(reply)
      if (kept !== undefined) {
        const before = Array.isArray(acknowledged) ? acknowledged.length : typeof acknowledged === "number" ? 1 : 0
        failedBatchRows.set(err as object, { failed: kept.failed, before })
      }
      cb(err, reply)
    })
}


/** Packet, segment and part header bytes (hdb lib/protocol/common/Constants.js). */
const PACKET_HEADER_LENGTH = 32
const SEGMENT_HEADER_LENGTH = 24
const PART_HEADER_LENGTH = 16
/** Part kind of a page of result rows (lib/protocol/common/PartKind.js). */
const RESULT_SET = 5
/** RESULT_SET parts at least this long are read in place; smaller ones are copied, as hdb copies every part. */
const IN_PLACE_BYTES = 64 * 1024

/** RESULT_SET part buffers read in place whose reply packet's memory nothing else uses ({@link releasePage}). */
const releasable = new WeakSet<Buffer>()

/**
 * Parses a reply packet's segment as hdb's `Connection._parseReplySegment` does (lib/protocol/reply/Segment.js
 * `readSegment`, Part.js `readPart`), except that a large RESULT_SET part's bytes are left in the packet instead of
 * copied: hdb copies every part into a new zero-filled Buffer, which for a page of rows is a third copy of it (after
 * the socket's chunks and the packet they are joined into) and, at 50,000 rows a page, about 88 MB of external
 * memory per 1,000,000 × 8 read. The packet's memory is marked releasable when the part is its only view.
 */
const parseReplySegment = (buffer: Buffer): unknown => {
  const segment = new hdb.reply.Segment()
  const parts = buffer.readInt16LE(8)
  segment.kind = buffer.readInt8(12)
  segment.functionCode = buffer.readInt16LE(14)
  let offset = SEGMENT_HEADER_LENGTH
  const inPlace: Array<Buffer> = []
  for (let i = 0; i < parts; i++) {
    const part = new hdb.reply.Part()
    const length = buffer.readInt32LE(offset + 8)
    if (buffer[offset] === RESULT_SET && length >= IN_PLACE_BYTES) {
      part.kind = RESULT_SET
      part.attributes = buffer[offset + 1]!
      const count = buffer.readInt16LE(offset + 2)
      part.argumentCount = count === -1 ? buffer.readInt32LE(offset + 4) : count
      const start = offset + PART_HEADER_LENGTH
      part.buffer = buffer.subarray(start, start + length)
      inPlace.push(part.buffer)
      offset = start + ((length + 7) & ~7)
    } else offset = hdb.reply.Part.read.call(part, buffer, offset)
    segment.push(part)
  }
  // The packet's ArrayBuffer holds nothing but this packet (at most its own header before the segment).
  const ownsMemory = buffer.byteOffset <= PACKET_HEADER_LENGTH && buffer.byteOffset + buffer.byteLength === buffer.buffer.byteLength
  if (inPlace.length === 1 && ownsMemory) releasable.add(inPlace[0]!)
  return segment.getReply()
}

/**
 * Frees at once the memory of a reply packet whose RESULT_SET part `page` is (the part was read in place and is the
 * packet's only view), once the page has been decoded: every later use of `page` sees an empty buffer. Other buffers
 * are left to the garbage collector.
 *
 * Why: V8 counts ArrayBuffer memory allocated since its last full collection against the old generation's limit,
 * and a page's packet usually outlives two scavenges (it is decoded while the next page is fetched), so it is freed
 * only by a full mark of the heap. Freed here, the packets of a 1,000,000 × 8 read (88 MB) no longer start such
 * marks (BENCHMARKS.md, hana-read).
 *
 * @category patches
 * @since 0.3.0
 */
export const releasePage = (page: Buffer): void => {
  if (!releasable.delete(page)) return
  detach(page.buffer)
}

/** Frees an ArrayBuffer's memory now (ES2024 `transfer`, Node 22 and later); a runtime without it leaves it to the GC. */
const detach = (buffer: ArrayBufferLike): void => {
  const transfer = (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer
  if (typeof transfer === "function") transfer.call(buffer, 0)
}

/** Packets larger than this are left to hdb's own assembly (a corrupt length must not allocate gigabytes). */
const MAX_ASSEMBLED_PACKET = 1 << 30

/**
 * A socket 'data' listener that hands `deliver` (hdb's own listener, lib/protocol/PhysicalConnection.js
 * `_addListeners`) whole packets, one a call: a packet that arrives in several chunks is copied chunk by chunk into
 * one Buffer of the packet's size (its header gives the length), and each chunk's memory is freed as soon as it has
 * been copied. hdb would keep the chunks until the last one arrived and join them (`Buffer.concat` in
 * lib/protocol/MessageBuffer.js), so a 4 MB reply held 4 MB of chunks (64 KiB each) that only a garbage collection
 * freed, on top of the joined copy; given whole packets it joins nothing. A packet that is a chunk alone is passed on
 * as it is.
 */
const packetAssembler = (deliver: (chunk: Buffer) => void) => {
  let head: Buffer | undefined
  let packet: Buffer | undefined
  let filled = 0
  let passThrough = false
  return (chunk: Buffer): void => {
    if (passThrough) return deliver(chunk)
    let at = 0
    let copied = false
    while (at < chunk.length) {
      if (packet === undefined) {
        if (head === undefined && at === 0 && chunk.length >= PACKET_HEADER_LENGTH) {
          const total = PACKET_HEADER_LENGTH + chunk.readUInt32LE(12)
          if (total === chunk.length) return deliver(chunk)
        }
        const bytes = head === undefined ? chunk.subarray(at) : Buffer.concat([head, chunk.subarray(at)])
        if (bytes.length < PACKET_HEADER_LENGTH) {
          head = Buffer.from(bytes)
          return
        }
        const total = PACKET_HEADER_LENGTH + bytes.readUInt32LE(12)
        if (total > MAX_ASSEMBLED_PACKET) {
          passThrough = true
          return deliver(bytes)
        }
        packet = Buffer.allocUnsafe(total)
        filled = 0
        if (head !== undefined) {
          filled = head.copy(packet, 0)
          head = undefined
        }
      }
      const n = chunk.copy(packet, filled, at, Math.min(chunk.length, at + packet.length - filled))
      copied = true
      filled += n
      at += n
      if (filled === packet.length) {
        const whole = packet
        packet = undefined
        deliver(whole)
      }
    }
    // a chunk that owns its memory and was copied whole is not used again
    if (copied && head === undefined && chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength) {
      detach(chunk.buffer)
    }
  }
}

/** Puts {@link packetAssembler} in front of hdb's 'data' listener on the client's socket (when it has exactly one). */
const assemblePackets = (client: HdbClient): void => {
  const socket = client._connection._physicalConnections?.getAnchorConnection()?._socket
  if (socket === undefined) return
  const listeners = socket.listeners("data")
  if (listeners.length !== 1) return
  const deliver = listeners[0] as (chunk: Buffer) => void
  socket.removeListener("data", deliver)
  socket.on("data", packetAssembler(deliver))
}

/**
 * Installs {@link guardClosedSocket}, {@link keepFailedBatchRows}, the assembly of reply packets
 * ({@link packetAssembler}) and the in-place reading of result pages ({@link parseReplySegment}) on a newly connected
 * client.
 *
 * @category patches
 * @since 0.1.0
 */
export const installPatches = (client: HdbClient): void => {
  guardClosedSocket(client)
  keepFailedBatchRows(client)
  assemblePackets(client)
  client._connection._parseReplySegment = parseReplySegment
}

/**
 * What {@link keepFailedBatchRows} kept for an hdb error of a batch EXECUTE: the failing packet's ROWS_AFFECTED and
 * the rows earlier packets of its task acknowledged; undefined for any other error.
 *
 * @category patches
 * @since 0.1.0
 */
export const failedBatchRowsOf = (
  err: unknown
): { readonly failed: ReadonlyArray<unknown>; readonly before: number } | undefined =>
  typeof err === "object" && err !== null ? failedBatchRows.get(err) : undefined

/** Bytes of the STATEMENT_ID part of an EXECUTE: 16 header + 8 id (lib/protocol/ExecuteTask.js STATEMENT_ID_PART_LENGTH). */
const STATEMENT_ID_PART_BYTES = 24

/**
 * Bytes the PARAMETERS part of one EXECUTE may take on this connection, measured as hdb measures it
 * (Connection.getAvailableSize: the packet size limit less packet, segment and part headers, statement context and
 * client info; ExecuteTask: less the STATEMENT_ID part), less 7 for the padding to 8 bytes that Part.toBuffer adds
 * after the data and getAvailableSize leaves out.
 *
 * @category operations
 * @since 0.1.0
 */
export const parameterBytesAvailable = (client: HdbClient): number =>
  client._connection.getAvailableSize(false) - STATEMENT_ID_PART_BYTES - 7


/**
 * Sends one EXECUTE of a prepared statement whose PARAMETERS part is `rows` rows already encoded in `data`, through
 * hdb's request queue and session, as its ExecuteTask sends a batch packet; the commit flag is `autoCommit`, or the
 * session's autocommit when it is undefined. `reply` gets hdb's answer. May throw synchronously (hdb's segment writer).
 *
 * @category patches
 * @since 0.1.0
 */
export const sendEncodedExecute = (
  client: HdbClient,
  statement: HdbStatement,
  rows: number,
  data: Buffer,
  autoCommit: boolean | undefined,
  reply: (err: unknown, reply?: { readonly rowsAffected?: unknown }) => void
): void => {
  const connection = client._connection
  const segment = new hdb.request.Segment(
    hdb.common.MessageType.EXECUTE,
    (autoCommit ?? connection.autoCommit) ? 1 : 0,
    connection.holdCursorsOverCommit ? hdb.common.CommandOption.HOLD_CURSORS_OVER_COMMIT : 0,
    connection.useCesu8
  )
  segment.add(hdb.common.PartKind.STATEMENT_ID, statement.id)
  segment.add({
    kind: hdb.common.PartKind.PARAMETERS,
    module: {
      getArgumentCount: () => rows,
      write: (part) => {
        part.argumentCount = rows
        part.buffer = data
        return part
      }
    }
  }, data)
  connection.enqueue(segment, reply)
}
