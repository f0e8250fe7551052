/** Control-flow signals of a running block (EXIT, CONTINUE, GOTO, RETURN) and the interpreter's look at the socket. */
import { ora } from "../errors.ts"
import type { Frame, Value } from "./context.ts"

/** EXIT [label]: ends the loop it names (the innermost without a label). */
export class LoopExit {
  constructor(readonly label: string | undefined) {}
}
/** CONTINUE [label]: the next iteration of the loop it names. */
export class LoopContinue {
  constructor(readonly label: string | undefined) {}
}
/** GOTO label: the statement list that holds the label goes on after it. */
export class GotoSignal {
  constructor(readonly label: string) {}
}
/** RETURN [value]: ends the running subprogram. */
export class ReturnSignal {
  constructor(readonly value?: Value) {}
}

/** Statements run between two looks at the socket (a break, other sessions' requests). */
export const YIELD_EVERY = 64

/**
 * Lets the server read other requests (a break above all): a loop of PL/SQL-only statements never waits for I/O,
 * so without this it would hold the process. A break that arrived ends the call with ORA-01013.
 */
export const yieldToBreaks = async (ctx: Frame): Promise<void> => {
  await new Promise((resolve) => setImmediate(resolve))
  if (ctx.host.callInterrupted) throw ora.cancelled()
}
