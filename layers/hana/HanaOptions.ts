/**
 * The HANA driver's own option keys (`dba.*`), listed with the others in docs/options.md.
 *
 * @since 0.1.0
 */
import { ALL_LEVELS, DATABASE_LEVEL, option, OptionSchemas } from "../../src/Options.ts"

/** Path to a PEM client certificate (X.509 authentication). @category options @since 0.1.0 */
export const X509CertFile = option({
  key: "dba.auth.x509.cert_file",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a path to a PEM certificate file",
  levels: DATABASE_LEVEL
})
/** Path to a PEM private key (X.509 authentication). @category options @since 0.1.0 */
export const X509KeyFile = option({
  key: "dba.auth.x509.key_file",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a path to a PEM private key file",
  levels: DATABASE_LEVEL
})
/** Inline PEM client certificate. @category options @since 0.1.0 */
export const X509Cert = option({
  key: "dba.auth.x509.cert",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a PEM certificate",
  levels: DATABASE_LEVEL
})
/** Inline PEM private key (secret). @category options @since 0.1.0 */
export const X509Key = option({
  key: "dba.auth.x509.key",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a PEM private key",
  levels: DATABASE_LEVEL,
  secret: true
})
/** JWT bearer token (secret). @category options @since 0.1.0 */
export const JwtToken = option({
  key: "dba.auth.jwt.token",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a JWT",
  levels: DATABASE_LEVEL,
  secret: true
})
/** TLS server name; overrides the URI's `TLSServerName`. @category options @since 0.1.0 */
export const TlsServerName = option({
  key: "dba.tls.server_name",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a host name",
  levels: DATABASE_LEVEL
})
/** Disables certificate and host name verification; overrides `TLSInsecureSkipVerify`. @category options @since 0.1.0 */
export const TlsInsecureSkipVerify = option({
  key: "dba.tls.insecure_skip_verify",
  schema: OptionSchemas.boolean,
  accepted: "`true` or `false`",
  levels: DATABASE_LEVEL
})
/** Comma-separated root CA files; overrides the URI's `TLSRootCAFile`. @category options @since 0.1.0 */
export const TlsRootCaFile = option({
  key: "dba.tls.root_ca_file",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a comma-separated list of PEM files",
  levels: DATABASE_LEVEL
})
/** Rows per fetch round trip. @category options @since 0.1.0 */
export const FetchSize = option({
  key: "dba.statement.fetch_size",
  schema: OptionSchemas.positiveInt,
  accepted: "a positive integer",
  levels: ALL_LEVELS,
  default: 50_000
})
/** Best-effort row cap per Arrow batch. @category options @since 0.1.0 */
export const ReadBatchRows = option({
  key: "dba.statement.read_batch_rows",
  schema: OptionSchemas.positiveInt,
  accepted: "a positive integer",
  levels: ALL_LEVELS,
  default: 100_000
})

/**
 * Every `dba.*` key.
 *
 * @category constants
 * @since 0.1.0
 */
export const HanaOptions = [
  X509CertFile,
  X509KeyFile,
  X509Cert,
  X509Key,
  JwtToken,
  TlsServerName,
  TlsInsecureSkipVerify,
  TlsRootCaFile,
  FetchSize,
  ReadBatchRows
] as const
