/**
 * How the command line ends: one readable line per failure (ADBC status, vendor code, SQLSTATE, message), the cause
 * only with `--verbose`, and an exit code per kind of failure. Messages come from errors that never hold secrets;
 * URIs are masked once more before printing.
 */
import { Cause, Exit } from "effect"
import { CliError } from "effect/cli"
import { AdbcError } from "../src/AdbcError.ts"
import { maskUri } from "../src/Options.ts"

/** Exit codes of `adbc`. */
export const ExitCode = {
  ok: 0,
  /** A database or ADBC failure, or bad input found while running. */
  failed: 1,
  /** Bad command line: unknown command or flag, invalid or missing value. */
  usage: 2,
  /** The main job ran but its checks did not pass. */
  checksFailed: 3,
  /** Stopped by SIGINT / SIGTERM. */
  interrupted: 130,
  /** The reader of stdout closed it (EPIPE), as a command killed by SIGPIPE (128 + 13) ends. */
  outputClosed: 141
} as const

const URI_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"']+/gi

/** `text` with the password of every URI in it masked. */
export const maskUris = (text: string): string => text.replace(URI_IN_TEXT, (uri) => maskUri(uri))

/** The message of a thrown value: an Error's message, anything else as text. */
export const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** `text` on one line: line breaks in a message (node-oracledb appends "\nHelp: URL") become spaces. */
export const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, " ").trim()

/** The one line printed for `error`. */
export const errorLine = (error: unknown): string => {
  if (error instanceof AdbcError) {
    const details = [
      ...(error.vendorCode !== undefined ? [`vendor code ${error.vendorCode}`] : []),
      ...(error.sqlState !== undefined ? [`SQLSTATE ${error.sqlState}`] : [])
    ]
    return maskUris(oneLine(`error: ${error.status}${details.length > 0 ? ` (${details.join(", ")})` : ""}: ${error.text}`))
  }
  if (error instanceof Error) return maskUris(oneLine(`error: ${error.message}`))
  return maskUris(oneLine(`error: ${String(error)}`))
}

/** What ending with `exit` prints to stderr and the exit code. `verbose` adds the full cause. */
export const describeExit = (
  exit: Exit.Exit<unknown, unknown>,
  verbose: boolean
): { readonly code: number; readonly lines: ReadonlyArray<string> } => {
  if (Exit.isSuccess(exit)) return { code: ExitCode.ok, lines: [] }
  const cause = exit.cause
  if (Cause.hasInterruptsOnly(cause)) return { code: ExitCode.interrupted, lines: ["interrupted"] }
  const error = Cause.squash(cause)
  const detail = verbose ? [maskUris(Cause.pretty(cause))] : []
  if (CliError.isCliError(error)) {
    // The parser's own message was already printed with the help text.
    if (error._tag === "ShowHelp") return { code: error.errors.length > 0 ? ExitCode.usage : ExitCode.ok, lines: detail }
    return { code: ExitCode.usage, lines: detail }
  }
  if (typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "OutputClosed") {
    return { code: ExitCode.outputClosed, lines: detail }
  }
  if (typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "DemoCheckFailed") {
    return { code: ExitCode.checksFailed, lines: [errorLine(error), ...detail] }
  }
  return { code: ExitCode.failed, lines: [errorLine(error), ...detail] }
}
