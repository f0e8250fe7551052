/**
 * The end-of-call message (TTC ERROR, messages/base.js processErrorInfo): call status, row count, batch errors and
 * the ORA- error of the call, if any.
 */
import { ora, OraError } from "../errors.ts"
import type { SessionState } from "../session-state.ts"
import type { WriteBuffer } from "../wire.ts"
import { Msg } from "./constants.ts"

/** Writes the end of call: success (no error) or `error`. */
export const writeEndOfCall = (
  s: SessionState,
  w: WriteBuffer,
  cursorId: number,
  rowCount: number,
  batchErrors: ReadonlyArray<{ offset: number; error: OraError }> = [],
  error?: OraError,
  errorPos = 0,
  warningFlags = 0
): void => {
  const version = s.db.settings.version
  const code = error?.code ?? 0
  s.callErrorCode = code
  w.u8(Msg.ERROR)
  w.ub(s.sql?.transactionInProgress === true ? 0x2 : 0) // call status
  w.ub(0) // end-to-end sequence
  w.ub(rowCount) // current row number
  w.ub(code <= 0xffff ? code : 0)
  w.ub(0)
  w.ub(0)
  w.ub(cursorId)
  w.sb(errorPos)
  w.u8(0) // sql type
  w.u8(0) // fatal
  w.u8(0) // flags
  w.u8(0) // user cursor options
  w.u8(0) // UPI parameter
  w.u8(warningFlags) // warning flag (0x20: created with compilation errors)
  w.ub(0) // rowid rba
  w.ub(0) // partition
  w.u8(0)
  w.ub(0) // block
  w.ub(0) // slot
  w.ub(0) // OS error
  w.u8(0) // statement error
  w.u8(0) // call number
  w.ub(0) // padding
  w.ub(0) // success iterations
  w.ub(0) // oerrdd
  if (batchErrors.length > 0) {
    w.ub(batchErrors.length)
    w.u8(1)
    for (const b of batchErrors) w.ub(b.error.code)
    w.ub(batchErrors.length)
    w.u8(1)
    for (const b of batchErrors) w.ub(b.offset)
    w.ub(batchErrors.length)
    w.u8(1)
    for (const b of batchErrors) {
      const text = Buffer.from(b.error.text(version), "utf8")
      w.ub(text.length)
      w.bytesWithLength(text)
      w.u16be(0)
    }
  } else {
    w.ub(0)
    w.ub(0)
    w.ub(0)
  }
  w.ub(code) // extended error number
  w.ub(rowCount) // extended row count
  if (s.fieldVersion >= 14) {
    w.ub(0)
    w.ub(0)
  }
  if (code !== 0) w.bytesWithLength(Buffer.from(error!.text(version) + "\n", "utf8"))
}

/** Writes an end of call carrying `error` (its position, and the row offset for executeMany). */
export const writeError = (s: SessionState, w: WriteBuffer, error: OraError, cursorId: number, rowOffset: number): void =>
  writeEndOfCall(s, w, cursorId, rowOffset, [], error, error.position)

/**
 * Any failure as the ORA- error the client sees. A failure of the server's own code (a bug, a statement nested past
 * the translator's stack) is ORA-03001, never ORA-00600: node-oracledb takes ORA-00600 for a dead session (lib/errors.js
 * maps it to NJS-500 "connection to Oracle Database was closed or broken" and the connection is unusable afterwards),
 * and one statement the server cannot handle must not end the session.
 */
export const toOra = (e: unknown): OraError => {
  if (process.env.ORACLE_TESTKIT_DEBUG !== undefined) console.error("oracle testkit error:", e)
  if (e instanceof OraError) return e
  const message = e instanceof Error ? e.message : String(e)
  if (/Interrupt/i.test(message)) return ora.cancelled()
  return ora.engineLimitation()
}
