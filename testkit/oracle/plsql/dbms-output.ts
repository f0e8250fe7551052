/**
 * DBMS_OUTPUT (Oracle Database PL/SQL Packages and Types Reference, DBMS_OUTPUT): a session's buffer of lines.
 * ENABLE turns it on (it is off until then, as in a session no tool enabled), DISABLE turns it off and empties it;
 * PUT adds to the current line, NEW_LINE ends it, PUT_LINE does both; GET_LINE(line, status) takes the oldest complete
 * line (status 0) or returns NULL with status 1 when none is left. Lines not read before the next PUT / PUT_LINE /
 * NEW_LINE after a GET_LINE are discarded, as the reference describes. GET_LINES(lines, numlines) fills an array OUT bind (oracledb's index-by binds) with up to numlines lines.
 */
import { clientSessionOf, type PlsqlHost } from "./host.ts"
import type { BuiltinPackage, PlsqlValue } from "./context.ts"
import { wrongArguments } from "./arguments.ts"

interface OutputBuffer {
  enabled: boolean
  lines: Array<string>
  partial: string
  /** A GET_LINE happened since the last write: the next write discards the unread lines first. */
  reading: boolean
}

const buffers = new WeakMap<PlsqlHost, OutputBuffer>()

const bufferOf = (host: PlsqlHost): OutputBuffer => {
  const session = clientSessionOf(host)
  let b = buffers.get(session)
  if (b === undefined) {
    b = { enabled: false, lines: [], partial: "", reading: false }
    buffers.set(session, b)
  }
  return b
}

const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v))

/** Adds `s` to the session's current output line, ending it with `endLine` (PUT, PUT_LINE; nothing when disabled). */
const writeOutput = (b: OutputBuffer, s: string, endLine: boolean): void => {
  if (b.reading) {
    b.lines = []
    b.reading = false
  }
  if (!b.enabled) return
  b.partial += s
  if (endLine) {
    b.lines.push(b.partial)
    b.partial = ""
  }
}

/** DBMS_OUTPUT.PUT_LINE(line) for another built-in package (DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE). */
export const putLine = (host: PlsqlHost, line: string): void => writeOutput(bufferOf(host), line, true)

/** DBMS_OUTPUT.ENABLE / DISABLE / PUT / PUT_LINE / NEW_LINE / GET_LINE. */
export const dbmsOutput: BuiltinPackage = async (ctx, procedure, args) => {
  const b = bufferOf(ctx.host)
  const write = (s: string, endLine: boolean) => writeOutput(b, s, endLine)
  switch (procedure) {
    case "ENABLE":
      for (const a of args) await ctx.evaluate(a)
      b.enabled = true
      return true
    case "DISABLE":
      b.enabled = false
      b.lines = []
      b.partial = ""
      return true
    case "PUT":
    case "PUT_LINE": {
      if (args.length !== 1) throw wrongArguments(procedure)
      // (the parameter is VARCHAR2: an interval prints as TO_CHAR gives it)
      write(text(await ctx.evaluateText(args[0]!)), procedure === "PUT_LINE")
      return true
    }
    case "NEW_LINE":
      write("", true)
      return true
    case "GET_LINE": {
      if (args.length !== 2) throw wrongArguments(procedure)
      const line = b.lines.shift()
      b.reading = true
      ctx.assign(args[0]!, line === undefined || line === "" ? null : line)
      ctx.assign(args[1]!, line === undefined ? 1 : 0)
      return true
    }
    case "GET_LINES": {
      // GET_LINES(lines OUT CHARARR, numlines IN OUT): up to numlines complete lines, numlines set to how many came
      if (args.length !== 2) throw wrongArguments(procedure)
      const wanted = Number(await ctx.evaluate(args[1]!))
      const lines = b.lines.splice(0, Math.max(0, Number.isFinite(wanted) ? wanted : 0))
      b.reading = true
      ctx.assign(args[0]!, lines.map((l) => (l === "" ? null : l)) as unknown as PlsqlValue)
      ctx.assign(args[1]!, lines.length)
      return true
    }
    default:
      return false
  }
}
