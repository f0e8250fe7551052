/**
 * Fault injection switches of the Oracle test server.
 */

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
  /**
   * Close the socket in the middle of the reply to the next call of this kind (half of the reply is sent): the
   * client is then inside an execute, a fetch or a LOB operation.
   */
  dropOn?: "execute" | "fetch" | "lob"
  /** Drops reset the connection (TCP RST: the client's socket emits ECONNRESET) instead of closing it. */
  reset?: boolean
}

/** The fault kind of a TTC function code (EXECUTE, REEXECUTE[_AND_FETCH], FETCH, LOB_OP), if any. */
export const dropKind = (fn: number | undefined): OracleFaults["dropOn"] =>
  fn === 94 || fn === 4 || fn === 78 ? "execute" : fn === 5 ? "fetch" : fn === 96 ? "lob" : undefined

/** Waits out the configured reply delay. */
export const delayReply = async (faults: OracleFaults): Promise<void> => {
  if (faults.delayMs !== undefined && faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs))
}
