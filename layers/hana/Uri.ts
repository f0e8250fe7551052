/**
 * The HANA connection URI: `hdb://[user[:password]@]host[:port][?param=value&...]` (`hana://` is accepted as an
 * alias). Every element is percent-decoded; a malformed URI fails with INVALID_ARGUMENT before any I/O, and no
 * message ever repeats the URI (it may hold a password).
 *
 * Query parameters are the go-hdb DSN names: databaseName, defaultSchema, timeout,
 * pingInterval, TLSServerName, TLSRootCAFile (repeatable), TLSInsecureSkipVerify.
 *
 * @since 0.1.0
 */
import { Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"

/** The port used when the URI names none: instance 00's SQL port (`3<instance>15`). @category constants @since 0.1.0 */
export const DEFAULT_PORT = 30015

/**
 * A parsed connection URI.
 *
 * @category models
 * @since 0.1.0
 */
export interface HanaUri {
  readonly user?: string | undefined
  readonly password?: string | undefined
  readonly host: string
  readonly port: number
  /** Whether the URI named the port explicitly. */
  readonly portGiven: boolean
  readonly databaseName?: string | undefined
  readonly defaultSchema?: string | undefined
  /** Connect timeout, seconds. */
  readonly timeoutSeconds?: number | undefined
  /** Background ping interval, seconds. */
  readonly pingIntervalSeconds?: number | undefined
  readonly tlsServerName?: string | undefined
  readonly tlsRootCaFiles: ReadonlyArray<string>
  readonly tlsInsecureSkipVerify?: boolean | undefined
}

const SCHEMES = ["hdb", "hana"] as const

/** The query parameters the URI accepts. @category constants @since 0.1.0 */
export const URI_PARAMETERS = [
  "databaseName",
  "defaultSchema",
  "timeout",
  "pingInterval",
  "TLSServerName",
  "TLSRootCAFile",
  "TLSInsecureSkipVerify"
] as const

class UriError extends Error {}

const decode = (text: string, what: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new UriError(`the ${what} is not correctly percent-encoded`)
  }
}

const seconds = (raw: string, name: string): number => {
  if (!/^\d+$/.test(raw)) throw new UriError(`URI parameter ${name} must be a whole number of seconds, got '${raw}'`)
  return Number(raw)
}

const bool = (raw: string, name: string): boolean => {
  switch (raw.toLowerCase()) {
    case "":
    case "true":
    case "1":
      return true
    case "false":
    case "0":
      return false
    default:
      throw new UriError(`URI parameter ${name} must be true or false, got '${raw}'`)
  }
}

const parseUnsafe = (uri: string): HanaUri => {
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(uri)
  if (schemeMatch === null) throw new UriError("the URI must start with hdb://")
  const scheme = schemeMatch[1]!.toLowerCase()
  if (!(SCHEMES as ReadonlyArray<string>).includes(scheme)) {
    throw new UriError(`unsupported URI scheme '${scheme}': expected hdb:// (or hana://)`)
  }
  let rest = uri.slice(schemeMatch[0].length)
  let query = ""
  const q = rest.indexOf("?")
  if (q >= 0) {
    query = rest.slice(q + 1)
    rest = rest.slice(0, q)
  }
  if (rest.includes("#")) throw new UriError("the URI must not contain a fragment")
  const slash = rest.indexOf("/")
  if (slash >= 0) {
    if (rest.slice(slash) !== "/") throw new UriError("the URI must not have a path after host[:port]")
    rest = rest.slice(0, slash)
  }
  let user: string | undefined
  let password: string | undefined
  const at = rest.lastIndexOf("@")
  if (at >= 0) {
    const userinfo = rest.slice(0, at)
    rest = rest.slice(at + 1)
    const colon = userinfo.indexOf(":")
    if (colon >= 0) {
      user = decode(userinfo.slice(0, colon), "user name")
      password = decode(userinfo.slice(colon + 1), "password")
    } else {
      user = decode(userinfo, "user name")
    }
    if (user === "") throw new UriError("the URI has an empty user name before '@'")
  }
  let host: string
  let portText: string | undefined
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]")
    if (close < 0) throw new UriError("the URI has an unterminated IPv6 address")
    host = rest.slice(1, close)
    const after = rest.slice(close + 1)
    if (after !== "" && !after.startsWith(":")) throw new UriError("unexpected text after the IPv6 address")
    portText = after === "" ? undefined : after.slice(1)
  } else {
    const colon = rest.lastIndexOf(":")
    host = colon >= 0 ? rest.slice(0, colon) : rest
    portText = colon >= 0 ? rest.slice(colon + 1) : undefined
    host = decode(host, "host")
  }
  if (host === "") throw new UriError("the URI has no host")
  if (/[\s/@?#]/.test(host)) throw new UriError("the URI host contains an invalid character")
  let port = DEFAULT_PORT
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      throw new UriError("the URI port must be a number from 1 to 65535")
    }
    port = Number(portText)
  }

  const out: {
    -readonly [K in keyof HanaUri]: HanaUri[K]
  } = { user, password, host, port, portGiven: portText !== undefined, tlsRootCaFiles: [] }
  const roots: Array<string> = []
  if (query !== "") {
    for (const pair of query.split("&")) {
      if (pair === "") continue
      const eq = pair.indexOf("=")
      const name = decode((eq >= 0 ? pair.slice(0, eq) : pair).replace(/\+/g, " "), "query parameter name")
      const value = decode((eq >= 0 ? pair.slice(eq + 1) : "").replace(/\+/g, " "), `value of URI parameter ${name}`)
      switch (name) {
        case "databaseName":
          out.databaseName = value
          break
        case "defaultSchema":
          out.defaultSchema = value
          break
        case "timeout":
          out.timeoutSeconds = seconds(value, name)
          break
        case "pingInterval":
          out.pingIntervalSeconds = seconds(value, name)
          break
        case "TLSServerName":
          out.tlsServerName = value
          break
        case "TLSRootCAFile":
          if (value === "") throw new UriError("URI parameter TLSRootCAFile needs a file name")
          roots.push(value)
          break
        case "TLSInsecureSkipVerify":
          out.tlsInsecureSkipVerify = bool(value, name)
          break
        default:
          throw new UriError(`unknown URI parameter '${name}'; accepted: ${URI_PARAMETERS.join(", ")}`)
      }
    }
  }
  out.tlsRootCaFiles = roots
  return out
}

/**
 * Parses a connection URI; fails with INVALID_ARGUMENT describing what is wrong (never echoing the URI).
 *
 * @category parsing
 * @since 0.1.0
 */
export const parseUri = (uri: string): Result.Result<HanaUri, AdbcError> => {
  try {
    return Result.succeed(parseUnsafe(uri))
  } catch (e) {
    if (e instanceof UriError) return Result.fail(invalidArgument(`invalid option uri: ${e.message}`))
    throw e
  }
}
