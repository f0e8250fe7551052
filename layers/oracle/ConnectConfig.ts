/**
 * From ADBC options to the attributes of `oracledb.getConnection`: the connection string (URI or native connect
 * string), credentials (the `username` / `password` options win over the URI's), timeouts, configuration directory
 * and session time zone. Everything is checked without network or file system I/O by {@link resolveConnectConfig},
 * which the driver runs in `validate`.
 *
 * @since 0.1.0
 */
import { Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import * as Std from "../../src/StandardOptions.ts"
import * as Opt from "./OracleOptions.ts"
import { type OracleUri, parseUri } from "./Uri.ts"

/**
 * Everything needed to open a session, validated.
 *
 * @category models
 * @since 0.1.0
 */
export interface ConnectConfig {
  readonly uri: OracleUri
  readonly user: string | undefined
  readonly password: string | undefined
  /** Session time zone: the `timezone` option, else the URI's `timezone` parameter; when both are absent the session runs in UTC ({@link timeZoneSql}). */
  readonly timezone: string | undefined
  /** LOB prefetch length (`redo.connection.lob_prefetch_length`; 0: off). */
  readonly lobPrefetchLength: number
}

const TIME_ZONE = /^(UTC|GMT|Z|[+-]\d{1,2}:\d{2}|[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*)$/

/**
 * Parses the URI and resolves credentials and the session time zone without any I/O.
 *
 * @category resolving
 * @since 0.1.0
 */
export const resolveConnectConfig = (options: ResolvedOptions): Result.Result<ConnectConfig, AdbcError> => {
  const raw = options.get(Std.Uri)
  if (raw === undefined) {
    return Result.fail(
      invalidArgument("option uri is required (oracle://[user[:password]@]host[:port][/serviceName][?...])")
    )
  }
  const uri = parseUri(raw)
  if (Result.isFailure(uri)) return Result.fail(uri.failure)
  const timezone = options.get(Opt.TimeZone) ?? uri.success.timezone
  if (timezone !== undefined && !TIME_ZONE.test(timezone)) {
    return Result.fail(
      invalidArgument(
        `invalid time zone '${timezone}': expected UTC, an offset such as -05:00, or a region name such as Europe/Paris`
      )
    )
  }
  return Result.succeed({
    uri: uri.success,
    user: options.get(Std.Username) ?? uri.success.user,
    password: options.get(Std.Password) ?? uri.success.password,
    timezone,
    lobPrefetchLength: options.value(Opt.LobPrefetchLength)
  })
}

/** A UTC offset or region as Oracle's TIME_ZONE session parameter takes it (`UTC` becomes `+00:00`). */
const sessionTimeZone = (zone: string): string => (/^(UTC|GMT|Z)$/i.test(zone) ? "+00:00" : zone)

/**
 * The SQL setting the session time zone: the configured one, or UTC when none is. oracledb thin's logon sets the
 * session zone to the Node process's offset, which would make SESSIONTIMEZONE, CURRENT_TIMESTAMP, casts to TIMESTAMP
 * WITH TIME ZONE and zoneless values stored in TSTZ / LTZ columns follow the process's TZ.
 *
 * @category resolving
 * @since 0.1.0
 */
export const timeZoneSql = (config: ConnectConfig): string =>
  `ALTER SESSION SET TIME_ZONE = '${sessionTimeZone(config.timezone ?? "UTC")}'`

/**
 * The SQL run on every new session before anything else: `.` as the decimal character and `,` as the group
 * separator. Decimal IN parameters bind as NUMBER and never depend on it; OUT / IN OUT decimals and any number
 * Oracle converts from or to text (text binds into NUMBER columns, TO_CHAR / TO_NUMBER without a format) read
 * `NLS_NUMERIC_CHARACTERS`, whose session value defaults to the database territory's (`,` in much of Europe), and thin mode sends no NLS
 * settings at logon (Oracle Database Reference 21c, NLS_NUMERIC_CHARACTERS: the database value "is used to initialize
 * the session value of this parameter, which is the actual value referenced by the SQL query processing"; the
 * value is written 'decimal_character group_separator').
 *
 * @category resolving
 * @since 0.1.0
 */
export const NLS_SETUP_SQL = "ALTER SESSION SET NLS_NUMERIC_CHARACTERS = '.,'"

/**
 * The session data unit asked for on an `oracle://host…` URI without an `sdu` parameter: 64 KiB, the default of Oracle
 * Database 23ai's server and of ODP.NET, where node-oracledb asks for 8 KiB. The connection uses the smaller of the
 * client's and the server's SDU ("14.2 Configuring Session Data Unit", Oracle Database Net Services Administrator's
 * Guide 23ai: client default 8192, server 65536, the smaller one is used; "SDU", ODP.NET Developer's Guide 26ai: 64 KB),
 * so an older server's 8 KiB default still applies there. Large requests (an ingest's executeMany, about 4.5 MB per call of
 * 65,536 rows) then go out in an eighth of the packets and socket writes, and the server wakes for their bytes several
 * times less often (BENCHMARKS.md, oracle-ingest). Connect strings given whole (descriptors, aliases) keep their own.
 *
 * @category resolving
 * @since 0.1.0
 */
export const DEFAULT_SDU = 65_536

/**
 * The attributes for `oracledb.getConnection`. Contains the password: never log it. node-oracledb takes whole
 * seconds for `connectTimeout` / `transportConnectTimeout` and whole minutes for `expireTime`, so those are rounded
 * up; the driver also bounds the whole connect by the exact `connectTimeout`.
 *
 * @category resolving
 * @since 0.1.0
 */
export const connectionAttributes = (config: ConnectConfig): Record<string, unknown> => {
  const { uri } = config
  const out: Record<string, unknown> = { connectString: uri.connectString }
  if (config.user !== undefined) out["user"] = config.user
  if (config.password !== undefined) out["password"] = config.password
  if (uri.connectTimeoutMs !== undefined) out["connectTimeout"] = Math.max(1, Math.ceil(uri.connectTimeoutMs / 1000))
  if (uri.transportConnectTimeoutMs !== undefined) {
    out["transportConnectTimeout"] = Math.max(1, Math.ceil(uri.transportConnectTimeoutMs / 1000))
  }
  if (uri.expireTimeMs !== undefined) out["expireTime"] = Math.ceil(uri.expireTimeMs / 60_000)
  if (uri.configDir !== undefined) out["configDir"] = uri.configDir
  const sdu = uri.sdu ?? (uri.host !== undefined ? DEFAULT_SDU : undefined)
  if (sdu !== undefined) out["sdu"] = sdu
  if (uri.stmtCacheSize !== undefined) out["stmtCacheSize"] = uri.stmtCacheSize
  return out
}
