/**
 * Request pipelining (Oracle Database 23ai; node-oracledb `connection.runPipeline()`, messages/base.js
 * _writeBeginPipelinePiggyback and messages/endPipeline.js): the client sends a PIPELINE_BEGIN piggyback in front of
 * its first operation, then every operation as its own request, each with a token number, then PIPELINE_END, all
 * before it reads an answer. The server answers each request in order, each answer opened by a TOKEN message that
 * names the request's token (the client checks it, protocol/messages/base.js processMessage), and PIPELINE_END last.
 *
 * Error modes (OCIPipelineBegin, OCI Programmer's Guide 23ai, "OCI Pipelining Functions"): with CONTINUE_ON_ERROR
 * every operation runs whatever the earlier ones did; with ABORT_ON_ERROR the operations after the first one that
 * failed do not run and are answered with ORA-43610 "Pipeline, Aborted due to abort on error settings in pipeline
 * mode" (Database Error Messages, docs.oracle.com/en/error-help/db/ora-43610).
 */
import { OraError } from "../errors.ts"
import type { SessionState } from "../session-state.ts"
import { ProtocolError } from "../tns.ts"
import { TruncatedRequestError, type ReadBuffer, type WriteBuffer } from "../wire.ts"
import { Fn, Msg } from "./constants.ts"
import { toOra, writeEndOfCall, writeError } from "./end-of-call.ts"

/** TNS_PIPELINE_MODE_* (node-oracledb lib/thin/protocol/constants.js). */
export const PipelineMode = { CONTINUE_ON_ERROR: 1, ABORT_ON_ERROR: 2 } as const

/** The error of the operations an ABORT_ON_ERROR pipeline skips after a failure. */
export const pipelineAborted = (): OraError => new OraError(43610, "Pipeline, Aborted due to abort on error settings in pipeline mode")

/** Reads a PIPELINE_BEGIN piggyback's body (after its header) and returns its effect: the session enters the pipeline. */
export const readPipelineBegin = (s: SessionState, r: ReadBuffer): (() => Promise<void>) => {
  r.ub() // error set id
  r.u8() // error set mode
  const mode = r.u8()
  return async () => {
    s.pipeline = { mode, aborted: false }
  }
}

/**
 * Runs one function of a request: outside a pipeline as it is; inside one, its answer opened by the TOKEN message of
 * `token`, skipped with ORA-43610 after an ABORT_ON_ERROR pipeline failed, and PIPELINE_END answered and leaving it.
 */
export const pipelineCall = async (s: SessionState, fn: number, token: number, r: ReadBuffer, w: WriteBuffer, run: () => Promise<void>): Promise<void> => {
  const p = s.pipeline
  if (fn === Fn.PIPELINE_END) {
    r.ub() // id (unused)
    s.pipeline = undefined
    writeEndOfCall(s, w, 0, 0)
    return
  }
  if (p === undefined) return run()
  w.u8(Msg.TOKEN)
  w.ub(token)
  if (p.aborted) {
    writeError(s, w, pipelineAborted(), 0, 0)
    return
  }
  s.callErrorCode = 0
  try {
    await run()
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof TruncatedRequestError) throw e
    writeError(s, w, toOra(e), 0, 0)
  }
  // ORA-01403 ends a fetch; it is no failure of the operation
  if (p.mode === PipelineMode.ABORT_ON_ERROR && s.callErrorCode !== 0 && s.callErrorCode !== 1403) p.aborted = true
}
