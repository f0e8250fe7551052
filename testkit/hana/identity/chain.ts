/**
 * Certificate path validation for X.509 logins: from the client's own certificate through the intermediate CA
 * certificates the client sent (hdb sends every issuer it finds in its PEM bundle: lib/protocol/auth/X509.js
 * getCertificateChain) to a certificate the server trusts. Every certificate on the path must be within its
 * validity period; each intermediate must be a CA. SAP's hdb acceptance test expects a login whose bundle lacks the
 * intermediate to fail with "authentication failed" (SAP/node-hdb test/acceptance/db.X509.js, "should raise an
 * error when certificate chain is incomplete").
 */
import type { X509Certificate } from "node:crypto"

/** How many certificates a path may have at most (own certificate, intermediates, trust anchor). */
const MAX_PATH = 10

const issuedBy = (cert: X509Certificate, issuer: X509Certificate): boolean => {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey)
  } catch {
    return false
  }
}

const valid = (cert: X509Certificate, now: Date): boolean => new Date(cert.validFrom) <= now && now <= new Date(cert.validTo)

/**
 * Whether `own` chains to one of `anchors` through CA certificates of `sent`, every certificate on the way valid
 * at `now`. A certificate that is itself an anchor is trusted as it is.
 */
export const chainsTo = (own: X509Certificate, sent: readonly X509Certificate[], anchors: readonly X509Certificate[], now = new Date()): boolean => {
  let current = own
  const used = new Set<string>([own.fingerprint256])
  for (let depth = 0; depth < MAX_PATH; depth++) {
    if (!valid(current, now)) return false
    if (anchors.some((a) => a.fingerprint256 === current.fingerprint256)) return true
    const anchor = anchors.find((a) => issuedBy(current, a))
    if (anchor !== undefined) return valid(anchor, now)
    const next = sent.find((c) => !used.has(c.fingerprint256) && c.ca && issuedBy(current, c))
    if (next === undefined) return false
    used.add(next.fingerprint256)
    current = next
  }
  return false
}
