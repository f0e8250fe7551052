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
import type { Result } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import {
  parseAuthority,
  parseOrInvalid,
  queryPairs,
  splitQuery,
  splitUserInfo,
  UriError
} from "../common/UriParts.ts"

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
  const split = splitQuery(uri.slice(schemeMatch[0].length))
  const query = split.query
  let rest = split.rest
  const slash = rest.indexOf("/")
  if (slash >= 0) {
    if (rest.slice(slash) !== "/") throw new UriError("the URI must not have a path after host[:port]")
    rest = rest.slice(0, slash)
  }
  const { user, password, rest: authority } = splitUserInfo(rest)
  const { host, port, portGiven } = parseAuthority(authority, DEFAULT_PORT, /[\s/@?#]/)

  const out: {
    -readonly [K in keyof HanaUri]: HanaUri[K]
  } = { user, password, host, port, portGiven, tlsRootCaFiles: [] }
  const roots: Array<string> = []
  for (const [name, value] of queryPairs(query, true)) {
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
  out.tlsRootCaFiles = roots
  return out
}

/**
 * Parses a connection URI; fails with INVALID_ARGUMENT describing what is wrong (never echoing the URI).
 *
 * @category parsing
 * @since 0.1.0
 */
export const parseUri = (uri: string): Result.Result<HanaUri, AdbcError> => parseOrInvalid(() => parseUnsafe(uri))
