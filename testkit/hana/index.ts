/**
 * SAP HANA wire-compatible test server for the unmodified `hdb` client, backed by embedded DuckDB.
 * See testkit/hana/README.md.
 */
export { startHanaTestServer } from "./server.ts"
export type { HanaFaults, HeldReplies, HanaTestServerHandle, HanaTestServerOptions, HanaUser } from "./server.ts"
export type { JwtOptions, ScramMethod, X509Options } from "./auth.ts"
export { generateCertificateAuthority, generateTestCertificates, issueCertificate } from "./tls.ts"
export type { CertificateIssuer, CertificateOptions, TestCertificates } from "./tls.ts"
export { signSamlAssertion } from "./identity/saml.ts"
export type { SamlAssertionOptions } from "./identity/saml.ts"
export { acquire, HanaTestServer, layer } from "./layer.ts"
export type { ServerStats } from "../common/stats.ts"
