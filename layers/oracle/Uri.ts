/**
 * The Oracle connection string. Two shapes are accepted:
 *
 * - the URI `oracle://[user[:password]@]host[:port][/serviceName[:serverType][/instanceName]][?param=value&...]`
 *   (port 1521 by default; the path is Easy Connect Plus's `/serviceName:serverType/instanceName`; every element is
 *   percent-decoded, so `@` in a password is written `%40`);
 * - any connect string node-oracledb accepts itself, used verbatim: an Easy Connect string (`host:port/service`), a
 *   full descriptor (`(DESCRIPTION=...)`) or a tnsnames.ora alias (with the URI-less `configDir` given by the
 *   `oracle://user:password@/alias?configDir=/path` form, see {@link OracleUri.tnsAlias}).
 *
 * Query parameters configure the client; the accepted ones are {@link URI_PARAMETERS}. Durations carry a unit
 * suffix (`10s`, `30ms`, `1m`, `1h`; a bare number is seconds). A malformed URI or an unknown parameter fails with
 * INVALID_ARGUMENT before any I/O, and no message ever repeats the URI (it may hold a password).
 *
 * @since 0.1.0
 */
import type { Result } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import {
  decodeComponent,
  parseAuthority,
  parseOrInvalid,
  queryPairs,
  splitQuery,
  splitUserInfo,
  UriError
} from "../common/UriParts.ts"

/** The listener port used when the URI names none. @category constants @since 0.1.0 */
export const DEFAULT_PORT = 1521

/** Server types of Easy Connect Plus (`/service:serverType`). @category constants @since 0.1.0 */
export const SERVER_TYPES = ["dedicated", "shared", "pooled"] as const

/**
 * A parsed connection string.
 *
 * @category models
 * @since 0.1.0
 */
export interface OracleUri {
  readonly user?: string | undefined
  readonly password?: string | undefined
  /** What node-oracledb's `connectString` receives: an Easy Connect string, a descriptor or a tnsnames alias. */
  readonly connectString: string
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly serviceName?: string | undefined
  readonly serverType?: (typeof SERVER_TYPES)[number] | undefined
  readonly instanceName?: string | undefined
  /** A tnsnames.ora alias resolved in {@link configDir}. */
  readonly tnsAlias?: string | undefined
  /** Whole connect (TCP, TLS and logon) timeout, milliseconds. */
  readonly connectTimeoutMs?: number | undefined
  /** TCP connect timeout per address, milliseconds. */
  readonly transportConnectTimeoutMs?: number | undefined
  /** Dead-connection probe interval, milliseconds (whole minutes on the wire). */
  readonly expireTimeMs?: number | undefined
  /** Directory holding tnsnames.ora. */
  readonly configDir?: string | undefined
  /** Session data unit, bytes. */
  readonly sdu?: number | undefined
  /** Statement cache size. */
  readonly stmtCacheSize?: number | undefined
  /** Session time zone, set right after logon (the `timezone` option overrides it; UTC when neither is set). */
  readonly timezone?: string | undefined
}

/** The query parameters the URI accepts. @category constants @since 0.1.0 */
export const URI_PARAMETERS = [
  "connectTimeout",
  "transportConnectTimeout",
  "expireTime",
  "configDir",
  "sdu",
  "stmtCacheSize",
  "timezone"
] as const

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/**
 * Milliseconds of a duration with a unit suffix (`10s`, `30ms`, `1m`, `1h30m`, `1.5s`); a bare number is seconds.
 *
 * @category parsing
 * @since 0.1.0
 */
export const parseDurationMs = (raw: string): number | undefined => {
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(raw)) return undefined
  let total = 0
  for (const part of raw.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * UNIT_MS[part[2]!]!
  return total
}

const duration = (raw: string, name: string): number => {
  const ms = parseDurationMs(raw)
  if (ms === undefined) {
    throw new UriError(`URI parameter ${name} must be a duration such as 10s, 30ms or 1m, got '${raw}'`)
  }
  return ms
}

const positiveInt = (raw: string, name: string): number => {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UriError(`URI parameter ${name} must be a positive integer, got '${raw}'`)
  return Number(raw)
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.$#-]*$/

const parseQuery = (query: string, out: Record<string, unknown>) => {
  for (const [name, value] of queryPairs(query, false)) {
    switch (name) {
      case "connectTimeout":
        out["connectTimeoutMs"] = duration(value, name)
        break
      case "transportConnectTimeout":
        out["transportConnectTimeoutMs"] = duration(value, name)
        break
      case "expireTime":
        out["expireTimeMs"] = duration(value, name)
        break
      case "configDir":
        if (value === "") throw new UriError("URI parameter configDir must name a directory")
        out["configDir"] = value
        break
      case "sdu":
        out["sdu"] = positiveInt(value, name)
        break
      case "stmtCacheSize":
        if (!/^\d+$/.test(value)) throw new UriError(`URI parameter stmtCacheSize must be a whole number, got '${value}'`)
        out["stmtCacheSize"] = Number(value)
        break
      case "timezone":
        if (value === "") throw new UriError("URI parameter timezone must name a time zone")
        out["timezone"] = value
        break
      default:
        throw new UriError(`unknown URI parameter '${name}'; accepted: ${URI_PARAMETERS.join(", ")}`)
    }
  }
}

const parseUriUnsafe = (uri: string): OracleUri => {
  const split = splitQuery(uri.slice("oracle://".length))
  const query = split.query
  let rest = split.rest
  const userInfo = splitUserInfo(rest)
  rest = userInfo.rest
  const out: Record<string, unknown> = {}
  if (userInfo.user !== undefined) out["user"] = userInfo.user
  if (userInfo.password !== undefined) out["password"] = userInfo.password
  parseQuery(query, out)
  const slash = rest.indexOf("/")
  const authority = slash >= 0 ? rest.slice(0, slash) : rest
  const path = slash >= 0 ? rest.slice(slash + 1) : ""
  if (authority === "") {
    // oracle://user:password@/alias?configDir=... : a tnsnames.ora alias.
    const alias = decodeComponent(path, "tnsnames alias")
    if (alias === "" || !NAME.test(alias)) {
      throw new UriError("the URI has no host (or, with an empty host, no tnsnames alias after '/')")
    }
    if (out["configDir"] === undefined) throw new UriError("a tnsnames alias needs the configDir parameter")
    return { ...out, tnsAlias: alias, connectString: alias } as OracleUri
  }
  const { host, port } = parseAuthority(authority, DEFAULT_PORT, /[\s/@?#()=,]/)
  const segments = path === "" ? [] : path.split("/")
  if (segments.length > 2) throw new UriError("the URI path must be /serviceName[:serverType][/instanceName]")
  let serviceName: string | undefined
  let serverType: string | undefined
  let instanceName: string | undefined
  if (segments[0] !== undefined && segments[0] !== "") {
    const [service, type, ...extra] = segments[0].split(":")
    serviceName = decodeComponent(service!, "service name")
    if (!NAME.test(serviceName)) throw new UriError("the URI service name contains an invalid character")
    if (extra.length > 0) throw new UriError("the URI service name has more than one ':serverType'")
    if (type !== undefined) {
      serverType = type.toLowerCase()
      if (!(SERVER_TYPES as ReadonlyArray<string>).includes(serverType)) {
        throw new UriError(`unknown server type '${type}'; accepted: ${SERVER_TYPES.join(", ")}`)
      }
    }
  }
  if (segments[1] !== undefined) {
    if (serviceName === undefined) throw new UriError("an instance name needs a service name before it")
    instanceName = decodeComponent(segments[1], "instance name")
    if (!NAME.test(instanceName)) throw new UriError("the URI instance name contains an invalid character")
  }
  const hostPart = host.includes(":") ? `[${host}]` : host
  const connectString = `${hostPart}:${port}${serviceName === undefined ? "" : `/${serviceName}`}${
    serverType === undefined ? "" : `:${serverType}`
  }${instanceName === undefined ? "" : `/${instanceName}`}`
  return { ...out, host, port, serviceName, serverType, instanceName, connectString } as OracleUri
}

/**
 * Parses a connection string: an `oracle://` URI, or any other connect string, which is kept verbatim for
 * node-oracledb (Easy Connect, descriptor, tnsnames alias). Fails with INVALID_ARGUMENT describing what is wrong
 * (never echoing the string).
 *
 * @category parsing
 * @since 0.1.0
 */
export const parseUri = (uri: string): Result.Result<OracleUri, AdbcError> =>
  parseOrInvalid((): OracleUri => {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(uri)
    if (scheme !== null && scheme[1]!.toLowerCase() === "oracle") return parseUriUnsafe(uri)
    if (scheme !== null && !["tcp", "tcps"].includes(scheme[1]!.toLowerCase())) {
      throw new UriError(`unsupported URI scheme '${scheme[1]}': expected oracle:// or an Oracle connect string`)
    }
    const text = uri.trim()
    if (text === "") throw new UriError("the connection string is empty")
    if (text.startsWith("(") && !/^\(\s*DESCRIPTION(_LIST)?\s*=/i.test(text)) {
      throw new UriError("a connect descriptor must start with (DESCRIPTION= or (DESCRIPTION_LIST=")
    }
    return { connectString: text }
  })
