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


/**
 * Installs {@link guardClosedSocket} and {@link keepFailedBatchRows} on a newly connected client.
 *
 * @category patches
 * @since 0.1.0
 */
export const installPatches = (client: HdbClient): void => {
  guardClosedSocket(client)
  keepFailedBatchRows(client)
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
