/**
 * The one error family of effect-adbc: every failure carries an ADBC status, and where the database said so, its
 * vendor code and SQLSTATE. Messages never contain secrets: everything that builds an error from foreign text goes
 * through {@link redact}.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * ADBC status codes, as numbered in `adbc.h` (ADBC 1.1.0).
 *
 * @category constants
 * @since 0.1.0
 */
export const StatusCode = {
  OK: 0,
  UNKNOWN: 1,
  NOT_IMPLEMENTED: 2,
  NOT_FOUND: 3,
  ALREADY_EXISTS: 4,
  INVALID_ARGUMENT: 5,
  INVALID_STATE: 6,
  INVALID_DATA: 7,
  INTEGRITY: 8,
  INTERNAL: 9,
  IO: 10,
  CANCELLED: 11,
  TIMEOUT: 12,
  UNAUTHENTICATED: 13,
  UNAUTHORIZED: 14
} as const

/**
 * The name of an ADBC failure status (every code but OK).
 *
 * @category models
 * @since 0.1.0
 */
export type Status = Exclude<keyof typeof StatusCode, "OK">

/**
 * Schema of {@link Status}.
 *
 * @category schemas
 * @since 0.1.0
 */
export const Status = Schema.Literals([
  "UNKNOWN",
  "NOT_IMPLEMENTED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "INVALID_ARGUMENT",
  "INVALID_STATE",
  "INVALID_DATA",
  "INTEGRITY",
  "INTERNAL",
  "IO",
  "CANCELLED",
  "TIMEOUT",
  "UNAUTHENTICATED",
  "UNAUTHORIZED"
])

/**
 * The bracketed status and database codes {@link AdbcError} appends to its message:
 * `[NOT_FOUND, vendor code 260, SQLSTATE HY000]`.
 */
const detailsSuffix = (status: Status, vendorCode: number | undefined, sqlState: string | undefined): string =>
  ` [${[status, ...(vendorCode !== undefined ? [`vendor code ${vendorCode}`] : []), ...(sqlState !== undefined ? [`SQLSTATE ${sqlState}`] : [])].join(", ")}]`

/**
 * A failed ADBC operation.
 *
 * `vendorCode` is the database's own error number (HANA SQL error code, the number of an `ORA-` error);
 * `sqlState` the five-character SQLSTATE when the database or the driver knows it.
 *
 * `message` ends with the status and codes (`invalid column name: NOPE [NOT_FOUND, vendor code 260, SQLSTATE
 * HY000]`), so that `Cause.pretty`, Effect's default error report and anything printing `error.message` show them;
 * `text` is the message without them. Constructing from a message that already ends with its own suffix (a decoded
 * or re-wrapped error) does not repeat it.
 *
 * @category errors
 * @since 0.1.0
 */
export class AdbcError extends Schema.TaggedError<AdbcError>("effect-adbc/AdbcError")("AdbcError", {
  status: Status,
  message: Schema.String,
  vendorCode: Schema.optionalKey(Schema.Number),
  sqlState: Schema.optionalKey(Schema.String)
}) {
  /** The message without the bracketed status and codes. */
  declare readonly text: string

  constructor(props: {
    readonly status: Status
    readonly message: string
    readonly vendorCode?: number
    readonly sqlState?: string
  }) {
    super(props)
    const suffix = detailsSuffix(this.status, this.vendorCode, this.sqlState)
    const given = this.message
    const text = given.endsWith(suffix) ? given.slice(0, -suffix.length) : given
    Object.defineProperty(this, "text", { value: text, enumerable: false, configurable: true })
    Object.defineProperty(this, "message", { value: `${text}${suffix}`, enumerable: true, writable: true, configurable: true })
  }

  /** The numeric ADBC status code. */
  get statusCode(): number {
    return StatusCode[this.status]
  }

  /** `AdbcError [STATUS]: text (vendor code N, SQLSTATE S)`, what `String(error)` and plain logs show. */
  override toString(): string {
    const details = [
      ...(this.vendorCode !== undefined ? [`vendor code ${this.vendorCode}`] : []),
      ...(this.sqlState !== undefined ? [`SQLSTATE ${this.sqlState}`] : [])
    ]
    return `AdbcError [${this.status}]: ${this.text}${details.length > 0 ? ` (${details.join(", ")})` : ""}`
  }
}

/**
 * Extra fields of an {@link AdbcError} besides status and message.
 *
 * @category models
 * @since 0.1.0
 */
export interface AdbcErrorDetails {
  readonly vendorCode?: number | undefined
  readonly sqlState?: string | undefined
}

/**
 * Builds an {@link AdbcError}, leaving absent details out (exactOptionalPropertyTypes friendly).
 *
 * @category constructors
 * @since 0.1.0
 */
export const adbcError = (status: Status, message: string, details: AdbcErrorDetails = {}): AdbcError =>
  new AdbcError({
    status,
    message,
    ...(details.vendorCode !== undefined ? { vendorCode: details.vendorCode } : {}),
    ...(details.sqlState !== undefined ? { sqlState: details.sqlState } : {})
  })

/**
 * Shorthands for the statuses the core raises itself.
 *
 * @category constructors
 * @since 0.1.0
 */
export const invalidArgument = (message: string): AdbcError => adbcError("INVALID_ARGUMENT", message)
/** @category constructors @since 0.1.0 */
export const invalidState = (message: string): AdbcError => adbcError("INVALID_STATE", message)
/** @category constructors @since 0.1.0 */
export const notImplemented = (message: string): AdbcError => adbcError("NOT_IMPLEMENTED", message)
/** @category constructors @since 0.1.0 */
export const notFound = (message: string): AdbcError => adbcError("NOT_FOUND", message)
/** @category constructors @since 0.1.0 */
export const alreadyExists = (message: string): AdbcError => adbcError("ALREADY_EXISTS", message)

/**
 * The exact message for closing a connection while one of its readers is active.
 *
 * @category constants
 * @since 0.1.0
 */
export const READER_ACTIVE_MESSAGE = "cannot close connection while a statement reader is active"

const REDACTED = "<redacted>"

/**
 * Replaces every occurrence of each secret (and its percent-encoded form) in `text`.
 * Secrets shorter than 3 characters are still replaced; empty ones are ignored.
 *
 * @category redaction
 * @since 0.1.0
 */
export const redact = (text: string, secrets: Iterable<string | undefined>): string => {
  let out = text
  for (const secret of secrets) {
    if (secret === undefined || secret.length === 0) continue
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      out = out.split(form).join(REDACTED)
    }
  }
  return out
}

/**
 * Turns anything thrown by a client library into an {@link AdbcError}, with every secret removed from its message.
 * An `AdbcError` passes through (its message redacted again, for safety).
 *
 * @category constructors
 * @since 0.1.0
 */
export const fromUnknown = (
  cause: unknown,
  fallback: Status,
  secrets: Iterable<string | undefined> = []
): AdbcError => {
  const secretList = [...secrets]
  if (cause instanceof AdbcError) {
    const text = redact(cause.text, secretList)
    return text === cause.text ? cause : adbcError(cause.status, text, cause)
  }
  const message = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : String(cause)
  return adbcError(fallback, redact(message, secretList))
}
