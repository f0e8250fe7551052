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
}

/** Waits out the configured reply delay. */
export const delayReply = async (faults: OracleFaults): Promise<void> => {
  if (faults.delayMs !== undefined && faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs))
}
