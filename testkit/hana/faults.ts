/**
 * Fault injection switches of the HANA test server.
 */

/** Fault injection switches (all optional; may be changed while the server runs, through the server handle). */
export interface HanaFaults {
  /** Refuse every login (true) or the logins this predicate picks (error 10, SQLSTATE 28000). */
  refuseLogins?: boolean | ((user: string) => boolean) | undefined
  /** Close a session's socket right after its N-th reply (counted from login). */
  dropAfterReplies?: number | undefined
  /** Send only half of every result-set reply, then close the socket. */
  dropMidResult?: boolean | undefined
  /** Delay every reply by this many milliseconds. */
  replyDelayMs?: number | undefined
  /**
   * Make the server fail inside itself (an internal error, not a SQL error) on requests of these message types
   * (hdb's MessageType: 2 EXECUTE_DIRECT, 13 EXECUTE, 17 WRITE_LOB, …): in the handler before the statement runs, or
   * while encoding the reply after it ran. The server must still answer that request with a HANA error and keep the
   * session usable.
   */
  failInternally?: { readonly messageTypes: readonly number[]; readonly stage: "handler" | "reply" } | undefined
  /**
   * Hold the replies to requests of these message types (hdb's MessageType: 71 FETCH_NEXT, …) until `until`
   * settles, calling `onHeld` as each one is held: a test learns that a request is in flight from the event, not
   * from a sleep.
   */
  holdReplies?: HeldReplies | undefined
}

/** Which replies to hold, until when, and whom to tell (see HanaFaults.holdReplies). */
export interface HeldReplies {
  readonly messageTypes: readonly number[]
  readonly until: Promise<unknown>
  readonly onHeld?: ((messageType: number) => void) | undefined
}

/** Fault state as connections read it. */
export interface FaultState {
  readonly dropAfterReplies: number | undefined
  readonly dropMidResult: boolean
  readonly replyDelayMs: number
  refuseLogins(user: string): boolean
  /** Whether a request of this message type fails internally at this stage (see HanaFaults.failInternally). */
  failsInternally(messageType: number, stage: "handler" | "reply"): boolean
  /** What to wait for before replying to a request of this message type (see HanaFaults.holdReplies). */
  heldUntil(messageType: number): Promise<unknown> | undefined
}

/** The fault state connections read, following the live switches in `faults`. */
export const faultState = (faults: HanaFaults): FaultState => ({
  get dropAfterReplies() {
    return faults.dropAfterReplies
  },
  get dropMidResult() {
    return faults.dropMidResult === true
  },
  get replyDelayMs() {
    return faults.replyDelayMs ?? 0
  },
  refuseLogins: (user) => {
    const r = faults.refuseLogins
    return typeof r === "function" ? r(user) : r === true
  },
  failsInternally: (messageType, stage) => {
    const f = faults.failInternally
    return f !== undefined && f.stage === stage && f.messageTypes.includes(messageType)
  },
  heldUntil: (messageType) => {
    const hold = faults.holdReplies
    if (hold === undefined || !hold.messageTypes.includes(messageType)) return undefined
    hold.onHeld?.(messageType)
    return hold.until
  }
})
