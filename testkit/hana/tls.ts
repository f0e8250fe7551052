/**
 * A throw-away certificate authority and server certificate for the TLS mode of the test servers, generated at
 * start-up with the `openssl` command line tool (Node's crypto cannot issue X.509 certificates).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

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

const run = (dir: string, args: readonly string[]): void => {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] })
}

/** Issues a certificate for `subject` signed by the CA; `names` become subjectAltNames (DNS or IP). */
export const issueCertificate = (
  ca: { readonly ca: string; readonly caKey: string },
  subject: string,
  names: readonly string[] = [],
  options: { readonly days?: number; readonly clientAuth?: boolean } = {}
): { cert: string; key: string } => {
  const dir = mkdtempSync(join(tmpdir(), "hana-tls-"))
  try {
    writeFileSync(join(dir, "ca.pem"), ca.ca)
    writeFileSync(join(dir, "ca.key"), ca.caKey, { mode: 0o600 })
    run(dir, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-subj", subject, "-out", "leaf.csr"])
    const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(",")
    const ext = [
      "basicConstraints=CA:FALSE",
      options.clientAuth === true ? "extendedKeyUsage=clientAuth" : "extendedKeyUsage=serverAuth",
      ...(san.length > 0 ? [`subjectAltName=${san}`] : [])
    ].join("\n")
    writeFileSync(join(dir, "leaf.ext"), ext)
    run(dir, [
      "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
      "-days", String(options.days ?? 2), "-sha256", "-extfile", "leaf.ext", "-out", "leaf.pem"
    ])
    return { cert: readFileSync(join(dir, "leaf.pem"), "utf8"), key: readFileSync(join(dir, "leaf.key"), "utf8") }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Generates a CA and a server certificate for `names` (default `localhost` and `127.0.0.1`). */
export const generateTestCertificates = (names: readonly string[] = ["localhost", "127.0.0.1"]): TestCertificates => {
  const dir = mkdtempSync(join(tmpdir(), "hana-ca-"))
  try {
    run(dir, [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
      "-subj", "/CN=effect-adbc test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"
    ])
    const ca = { ca: readFileSync(join(dir, "ca.pem"), "utf8"), caKey: readFileSync(join(dir, "ca.key"), "utf8") }
    const leaf = issueCertificate(ca, "/CN=localhost", names)
    return { ...ca, ...leaf }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
