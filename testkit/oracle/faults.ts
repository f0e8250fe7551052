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
  /**
   * Delay every reply by this many milliseconds. A FETCH reply held this way stands for rows the server is still
   * producing: a break during the delay cancels the fetch (ORA-01013). Other replies are held as if on the wire, so a
   * break crosses them.
   */
  replyDelayMs?: number
  /**
   * Close the socket in the middle of the reply to the next call of this kind (half of the reply is sent): the
   * client is then inside an execute, a fetch or a LOB operation.
   */
  dropOn?: "execute" | "fetch" | "lob"
  /**
   * Called before each reply is sent (after the call's work is done, so the server's stats already count it): a
   * promise returned holds the reply until it settles, as a server that is still working would. A test can hold the
   * reply to an insert this way and watch what the client does meanwhile, without timing.
   */
  holdReplies?: (() => Promise<void> | undefined) | undefined
  /**
   * Called when an UPDATE, DELETE or MERGE knows the rows it writes of a table (`OWNER.NAME`), before the engine writes
   * them: a promise returned holds the statement there until it settles, so that a test can let another session meet
   * the rows a statement is writing at that very moment, without timing.
   */
  holdWrites?: ((table: string) => Promise<void> | undefined) | undefined
  /** Drops reset the connection (TCP RST: the client's socket emits ECONNRESET) instead of closing it. */
  reset?: boolean
}

/** The fault kind of a TTC function code (EXECUTE, REEXECUTE[_AND_FETCH], FETCH, LOB_OP), if any. */
export const dropKind = (fn: number | undefined): OracleFaults["dropOn"] =>
  fn === 94 || fn === 4 || fn === 78 ? "execute" : fn === 5 ? "fetch" : fn === 96 ? "lob" : undefined

/** Waits for a held reply (`holdReplies`), then out the configured reply delay; `cut`, checked every few milliseconds, ends it early when it turns true. */
export const delayReply = async (faults: OracleFaults, cut?: () => boolean): Promise<void> => {
  const held = faults.holdReplies?.()
  if (held !== undefined) await held
  const ms = faults.replyDelayMs
  if (ms === undefined || ms <= 0) return
  if (cut === undefined) return new Promise((r) => setTimeout(r, ms))
  const end = Date.now() + ms
  while (Date.now() < end && !cut()) await new Promise((r) => setTimeout(r, Math.min(5, end - Date.now())))
}

/** Whether a `refuseLogins` predicate refuses `user`'s logon (`true` refuses earlier, at the listener). */
export const refusesLogon = (faults: OracleFaults, user: string): boolean =>
  typeof faults.refuseLogins === "function" && faults.refuseLogins(user)
