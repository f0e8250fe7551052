/**
 * Throw-away certificate authorities and certificates for the TLS mode of the test servers and for X.509 login
 * tests, made in-process with node-forge (keys from Node's crypto): no `openssl` program is needed on any platform.
 */
import * as crypto from "node:crypto"
import forge from "node-forge"

/** PEM material of a generated test CA and a server certificate it issued. */
export interface TestCertificates {
  /** CA certificate (give it to the client as `ca`). */
  readonly ca: string
  /** CA private key (to issue more certificates, e.g. X.509 client certificates in tests). */
  readonly caKey: string
  /** Server certificate, valid for the given host names / IP addresses. */
  readonly cert: string
  /** Server private key. */
  readonly key: string
}

/** A certificate authority that can issue certificates: its PEM certificate and PEM private key. */
export interface CertificateIssuer {
  readonly ca: string
  readonly caKey: string
}

/** What {@link issueCertificate} puts into a certificate besides its subject and names. */
export interface CertificateOptions {
  /** Days of validity from now (default 2); ignored where `notAfter` is given. */
  readonly days?: number
  /** Extended key usage clientAuth (default: serverAuth). */
  readonly clientAuth?: boolean
  /** Issue a CA certificate (basicConstraints CA:TRUE, keyCertSign), e.g. an intermediate CA. */
  readonly isCa?: boolean
  /** Start of validity (default now minus one minute). */
  readonly notBefore?: Date
  /** End of validity (default `notBefore` plus `days`). */
  readonly notAfter?: Date
}

const DAY_MS = 86_400_000

/** OpenSSL's `-subj` form (`/C=DE/O=Org/CN=name`, most significant first, the ASN.1 order) as forge attributes. */
const attributesOf = (subject: string): forge.pki.CertificateField[] =>
  subject
    .split("/")
    .filter((part) => part.length > 0)
    .map((part) => {
      const eq = part.indexOf("=")
      return { shortName: part.slice(0, eq), value: part.slice(eq + 1) }
    })

/** An RSA key pair made by Node's crypto (native), in forge's form. */
const newKeys = (): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; pem: string } => {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 })
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
  const key = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e), pem }
}

const build = (
  subject: string,
  publicKey: forge.pki.rsa.PublicKey,
  issuer: forge.pki.Certificate | undefined,
  extensions: object[],
  options: CertificateOptions
): forge.pki.Certificate => {
  const cert = forge.pki.createCertificate()
  cert.publicKey = publicKey
  cert.serialNumber = `01${crypto.randomBytes(15).toString("hex")}`
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - 60_000)
  cert.validity.notAfter = options.notAfter ?? new Date(cert.validity.notBefore.getTime() + (options.days ?? 2) * DAY_MS)
  cert.setSubject(attributesOf(subject))
  cert.setIssuer(issuer === undefined ? attributesOf(subject) : issuer.subject.attributes)
  // The authority key identifier lets a verifier that trusts several CAs of the same name pick the issuer.
  const authority = issuer === undefined ? [] : [{ name: "authorityKeyIdentifier", keyIdentifier: issuer.generateSubjectKeyIdentifier().getBytes() }]
  cert.setExtensions([...extensions, { name: "subjectKeyIdentifier" }, ...authority])
  return cert
}

const CA_EXTENSIONS = [
  { name: "basicConstraints", cA: true, critical: true },
  { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true }
]

/** Makes a self-signed CA certificate for `subject` (OpenSSL `-subj` form; default `/CN=effect-adbc test CA`). */
export const generateCertificateAuthority = (
  subject = "/CN=effect-adbc test CA",
  options: Pick<CertificateOptions, "days" | "notBefore" | "notAfter"> = {}
): CertificateIssuer => {
  const keys = newKeys()
  const cert = build(subject, keys.publicKey, undefined, CA_EXTENSIONS, options)
  cert.sign(keys.privateKey, forge.md.sha256.create())
  return { ca: forge.pki.certificateToPem(cert), caKey: keys.pem }
}

/**
 * Issues a certificate for `subject` (OpenSSL `-subj` form, e.g. `/C=DE/O=Org/CN=name`) signed by the CA; `names`
 * become subjectAltNames (DNS or IP).
 */
export const issueCertificate = (
  ca: CertificateIssuer,
  subject: string,
  names: readonly string[] = [],
  options: CertificateOptions = {}
): { cert: string; key: string } => {
  const issuer = forge.pki.certificateFromPem(ca.ca)
  const keys = newKeys()
  const extensions: object[] =
    options.isCa === true
      ? [...CA_EXTENSIONS]
      : [
          { name: "basicConstraints", cA: false },
          options.clientAuth === true ? { name: "extKeyUsage", clientAuth: true } : { name: "extKeyUsage", serverAuth: true }
        ]
  if (names.length > 0) {
    extensions.push({
      name: "subjectAltName",
      altNames: names.map((n) => (/^[\d.]+$|:/.test(n) ? { type: 7, ip: n } : { type: 2, value: n }))
    })
  }
  const cert = build(subject, keys.publicKey, issuer, extensions, options)
  cert.sign(forge.pki.privateKeyFromPem(ca.caKey), forge.md.sha256.create())
  return { cert: forge.pki.certificateToPem(cert), key: keys.pem }
}

/** Generates a CA and a server certificate for `names` (default `localhost` and `127.0.0.1`). */
export const generateTestCertificates = (names: readonly string[] = ["localhost", "127.0.0.1"]): TestCertificates => {
  const ca = generateCertificateAuthority()
  const leaf = issueCertificate(ca, "/CN=localhost", names)
  return { ...ca, ...leaf }
}
