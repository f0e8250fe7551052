/**
 * Fault injection switches of the Oracle test server.
 */

/** Fault injection switches (all optional; may be changed while the server runs). */
export interface OracleFaults {
  /**
   * Refuse every connection at the listener (true: TNS refuse with ORA-12516), or the logons of the users this
   * predicate picks (ORA-01017 after the password exchange, as for a wrong password).
   */
  refuseLogins?: boolean | ((user: string) => boolean) | undefined
  /** Close a session's socket after it sent this many replies (counted after login). */
  dropAfterReplies?: number
  /** Close the socket in the middle of a reply that carries rows. */
  dropMidResult?: boolean
  /** Delay every reply by this many milliseconds. */
  replyDelayMs?: number
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
  if (faults.replyDelayMs !== undefined && faults.replyDelayMs > 0) {
    await new Promise((r) => setTimeout(r, faults.replyDelayMs))
  }
}

/** Whether a `refuseLogins` predicate refuses `user`'s logon (`true` refuses earlier, at the listener). */
export const refusesLogon = (faults: OracleFaults, user: string): boolean =>
  typeof faults.refuseLogins === "function" && faults.refuseLogins(user)
