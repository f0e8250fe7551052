/**
 * From ADBC options to the settings of an `hdb` client: authentication (basic, X.509, JWT), TLS and session
 * defaults. Everything that can be checked without touching the network or the file system is checked by
 * {@link resolveConnectConfig}, which the driver runs in `validate` (before any I/O); the files named by options are
 * read only when connecting ({@link hdbClientOptions}).
 *
 * @since 0.1.0
 */
import { isIP } from "node:net"
import { checkServerIdentity, type PeerCertificate } from "node:tls"
import { readFile } from "node:fs/promises"
import { Effect, Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import * as Std from "../../src/StandardOptions.ts"
import * as Opt from "./HanaOptions.ts"
import { type HanaUri, parseUri } from "./Uri.ts"

/**
 * How the client authenticates.
 *
 * @category models
 * @since 0.1.0
 */
export type HanaAuth =
  | { readonly _tag: "Basic"; readonly user: string | undefined; readonly password: string | undefined }
  | { readonly _tag: "X509Files"; readonly certFile: string; readonly keyFile: string }
  | { readonly _tag: "X509Inline"; readonly cert: string; readonly key: string }
  | { readonly _tag: "Jwt"; readonly token: string; readonly user: string | undefined }

/**
 * TLS settings after merging the URI parameters with the `dba.tls.*` options (options win).
 *
 * @category models
 * @since 0.1.0
 */
export interface HanaTls {
  readonly enabled: boolean
  /** Server name for SNI and host name verification; undefined = the host. */
  readonly serverName: string | undefined
  /** Root CA files trusted for the server certificate; empty = the platform's default trust store. */
  readonly rootCaFiles: ReadonlyArray<string>
  /** Certificate and host name verification switched off. */
  readonly insecureSkipVerify: boolean
}

/**
 * Everything needed to open a session, validated.
 *
 * @category models
 * @since 0.1.0
 */
export interface ConnectConfig {
  readonly uri: HanaUri
  readonly auth: HanaAuth
  readonly tls: HanaTls
}

const fail = (message: string) => Result.fail(invalidArgument(message))

/**
 * Resolves the authentication method, enforcing the driver's constraints: `cert_file` needs `key_file`, `cert` needs
 * `key`, file-based and inline X.509 exclude each other, X.509 and JWT exclude each other. With X.509 or JWT the
 * URI's or options' password is not sent (a URI without credentials is preferred for X.509).
 *
 * @category resolving
 * @since 0.1.0
 */
export const resolveAuth = (uri: HanaUri, options: ResolvedOptions): Result.Result<HanaAuth, AdbcError> => {
  const certFile = options.get(Opt.X509CertFile)
  const keyFile = options.get(Opt.X509KeyFile)
  const cert = options.get(Opt.X509Cert)
  const key = options.get(Opt.X509Key)
  const token = options.get(Opt.JwtToken)
  const user = options.get(Std.Username) ?? uri.user
  const password = options.get(Std.Password) ?? uri.password
  const fileBased = certFile !== undefined || keyFile !== undefined
  const inline = cert !== undefined || key !== undefined
  if (fileBased && inline) {
    return fail(
      `${Opt.X509CertFile.key}/${Opt.X509KeyFile.key} and ${Opt.X509Cert.key}/${Opt.X509Key.key} are mutually exclusive: use either files or inline PEM`
    )
  }
  if ((fileBased || inline) && token !== undefined) {
    return fail(`X.509 options and ${Opt.JwtToken.key} are mutually exclusive: choose one authentication method`)
  }
  if (fileBased) {
    if (certFile === undefined) return fail(`${Opt.X509KeyFile.key} must be paired with ${Opt.X509CertFile.key}`)
    if (keyFile === undefined) return fail(`${Opt.X509CertFile.key} must be paired with ${Opt.X509KeyFile.key}`)
    return Result.succeed({ _tag: "X509Files", certFile, keyFile })
  }
  if (inline) {
    if (cert === undefined) return fail(`${Opt.X509Key.key} must be paired with ${Opt.X509Cert.key}`)
    if (key === undefined) return fail(`${Opt.X509Cert.key} must be paired with ${Opt.X509Key.key}`)
    const bundled = checkSeparatePem(cert, Opt.X509Cert.key)
    if (bundled !== undefined) return fail(bundled)
    return Result.succeed({ _tag: "X509Inline", cert, key })
  }
  if (token !== undefined) return Result.succeed({ _tag: "Jwt", token, user })
  return Result.succeed({ _tag: "Basic", user, password })
}

/**
 * The reason a certificate PEM is rejected (it carries a private key: a combined bundle), or undefined.
 *
 * @category resolving
 * @since 0.1.0
 */
export const checkSeparatePem = (certPem: string, source: string): string | undefined => {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(certPem)) {
    return `${source} holds a private key: a combined certificate and key bundle is not accepted; give the key separately`
  }
  if (!/-----BEGIN (?:TRUSTED |X509 )?CERTIFICATE-----/.test(certPem)) return `${source} holds no PEM certificate`
  return undefined
}

/**
 * Merges TLS settings: `dba.tls.*` options override the URI parameters one by one. TLS is on when any TLS setting is
 * given, or — with none given — when the port is 443 (the host is then the server name).
 *
 * @category resolving
 * @since 0.1.0
 */
export const resolveTls = (uri: HanaUri, options: ResolvedOptions): HanaTls => {
  const serverNameOption = options.get(Opt.TlsServerName)
  const rootOption = options.get(Opt.TlsRootCaFile)
  const insecureOption = options.get(Opt.TlsInsecureSkipVerify)
  const serverName = serverNameOption ?? uri.tlsServerName
  const rootCaFiles = rootOption !== undefined
    ? rootOption.split(",").map((s) => s.trim()).filter((s) => s !== "")
    : uri.tlsRootCaFiles
  const insecureSkipVerify = insecureOption ?? uri.tlsInsecureSkipVerify ?? false
  const anyTlsSetting = serverNameOption !== undefined || rootOption !== undefined || insecureOption !== undefined ||
    uri.tlsServerName !== undefined || uri.tlsRootCaFiles.length > 0 || uri.tlsInsecureSkipVerify !== undefined
  const enabled = anyTlsSetting || uri.port === 443
  return { enabled, serverName: serverName ?? (enabled ? uri.host : undefined), rootCaFiles, insecureSkipVerify }
}

/**
 * Parses the URI and resolves authentication and TLS without any I/O.
 *
 * @category resolving
 * @since 0.1.0
 */
export const resolveConnectConfig = (options: ResolvedOptions): Result.Result<ConnectConfig, AdbcError> => {
  const raw = options.get(Std.Uri)
  if (raw === undefined) return fail("option uri is required (hdb://[user[:password]@]host[:port][?...])")
  const uri = parseUri(raw)
  if (Result.isFailure(uri)) return Result.fail(uri.failure)
  const auth = resolveAuth(uri.success, options)
  if (Result.isFailure(auth)) return Result.fail(auth.failure)
  return Result.succeed({ uri: uri.success, auth: auth.success, tls: resolveTls(uri.success, options) })
}

const readText = (path: string, what: string): Effect.Effect<string, AdbcError> =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (e) =>
      invalidArgument(`cannot read ${what} '${path}': ${(e as NodeJS.ErrnoException).code ?? "read error"}`)
  })

/**
 * The data format version requested from the server: 8 carries LONGDATE (100 ns timestamps), SECONDDATE, DAYDATE,
 * SECONDTIME, BOOLEAN and FIXED8/12/16 decimals (SAP/go-hdb driver/internal/protocol/dfv.go; go-hdb's default).
 *
 * @category constants
 * @since 0.1.0
 */
export const DATA_FORMAT_VERSION = 8

/**
 * The options object for `hdb.createClient`, reading certificate and CA files. Contains secrets: never log it.
 *
 * @category resolving
 * @since 0.1.0
 */
export const hdbClientOptions = (config: ConnectConfig): Effect.Effect<Record<string, unknown>, AdbcError> =>
  Effect.gen(function*() {
    const { auth, tls, uri } = config
    const out: Record<string, unknown> = {
      host: uri.host,
      port: uri.port,
      dataFormatSupport: DATA_FORMAT_VERSION,
      // Rows come back through our own decoder; hdb's fetch size only matters for its own streams.
      fetchSize: 1024,
      holdCursorsOverCommit: true,
      useCesu8: true
    }
    if (uri.databaseName !== undefined) out["databaseName"] = uri.databaseName
    // hdb's only connect-phase timer; the driver also bounds the whole connect by the URI's timeout.
    if (uri.timeoutSeconds !== undefined && uri.timeoutSeconds > 0) {
      out["initializationTimeout"] = uri.timeoutSeconds * 1000
    }
    switch (auth._tag) {
      case "Basic":
        if (auth.user !== undefined) out["user"] = auth.user
        if (auth.password !== undefined) out["password"] = auth.password
        break
      case "Jwt":
        if (auth.user !== undefined) out["user"] = auth.user
        out["token"] = auth.token
        break
      case "X509Files": {
        const cert = yield* readText(auth.certFile, Opt.X509CertFile.key)
        const problem = checkSeparatePem(cert, Opt.X509CertFile.key)
        if (problem !== undefined) return yield* invalidArgument(problem)
        const key = yield* readText(auth.keyFile, Opt.X509KeyFile.key)
        out["authenticationX509"] = `${cert.trim()}\n${key.trim()}\n`
        break
      }
      case "X509Inline":
        out["authenticationX509"] = `${auth.cert.trim()}\n${auth.key.trim()}\n`
        break
    }
    if (tls.enabled) {
      out["useTLS"] = true
      if (tls.serverName !== undefined && isIP(tls.serverName) === 0) out["servername"] = tls.serverName
      else {
        // An IP address is no SNI name (RFC 6066 section 3) and Node prints DEP0123 for one. The key present but
        // undefined also keeps hdb's default (the host, lib/protocol/tcp.js) out; the certificate is still checked
        // against the address.
        out["servername"] = undefined
        const address = tls.serverName
        if (address !== undefined && address !== uri.host && !tls.insecureSkipVerify) {
          out["checkServerIdentity"] = (_host: string, cert: PeerCertificate) => checkServerIdentity(address, cert)
        }
      }
      if (tls.rootCaFiles.length > 0) {
        const cas: Array<string> = []
        for (const file of tls.rootCaFiles) cas.push(yield* readText(file, "root CA file"))
        out["ca"] = cas
        // Only the given roots are trusted (hdb would otherwise add its bundled HANA Cloud roots).
        out["sslHanaCloudCertificates"] = false
      }
      if (tls.insecureSkipVerify) {
        out["rejectUnauthorized"] = false
        out["checkServerIdentity"] = () => undefined
      } else {
        out["rejectUnauthorized"] = true
      }
    }
    return out
  })
