/**
 * SAML 2.0 bearer assertions as HANA takes them at login: hdb sends the assertion XML as the initial data of its
 * `SAML` method and HANA answers with the database user (hdb lib/protocol/auth/SAML.js). The assertion must carry an
 * XML signature (XML-DSig, checked with xml-crypto) by a certificate of a PSE of purpose SAML; the SAML provider is
 * the one whose SUBJECT and ISSUER are that certificate's (SAP HANA SQL Reference, CREATE SAML PROVIDER). The user
 * is the one mapped to the assertion's NameID, or with `ANY` the user the NameID's SPProvidedID names (SAP HANA SQL
 * Reference, CREATE USER: "If the keyword ANY is used, then the SPProvidedID attribute of the SAML assertion
 * contains the name of the database user").
 */
import type { X509Certificate } from "node:crypto"
import { randomUUID } from "node:crypto"
import { createRequire } from "node:module"

/** The part of an xmldom element this module reads. */
interface XmlElement {
  readonly localName: string | null
  readonly namespaceURI: string | null
  readonly textContent: string | null
  getAttribute(name: string): string | null
  getElementsByTagNameNS(namespace: string, name: string): { readonly length: number; item(index: number): XmlElement | null }
  toString(): string
}

/** The part of xml-crypto's SignedXml this module uses. */
interface SignedXmlInstance {
  loadSignature(signature: string): void
  checkSignature(xml: string): boolean
  getSignedReferences(): string[]
  addReference(reference: { xpath: string; digestAlgorithm: string; transforms: string[] }): void
  computeSignature(xml: string, options: { location: { reference: string; action: "after" } }): void
  getSignedXml(): string
}

// xml-crypto and @xmldom/xmldom are loaded untyped: their type declarations pull the DOM library into every
// compilation that sees them, which would let browser globals type-check anywhere in this Node project.
const require = createRequire(import.meta.url)
const { SignedXml } = require("xml-crypto") as {
  SignedXml: new (options: { publicCert?: string; privateKey?: string; canonicalizationAlgorithm?: string; signatureAlgorithm?: string }) => SignedXmlInstance
}
const { DOMParser } = require("@xmldom/xmldom") as {
  DOMParser: new (options: { errorHandler: () => void }) => { parseFromString(xml: string, mime: string): { documentElement: XmlElement | null } }
}

const DSIG = "http://www.w3.org/2000/09/xmldsig#"
const SAML2 = "urn:oasis:names:tc:SAML:2.0:assertion"
/** Clock skew allowed on NotBefore, as for JWT `nbf`. */
const SKEW_MS = 60_000

/** What a verified assertion says. */
export interface SamlAssertion {
  /** The trusted certificate whose key made the signature. */
  readonly signer: X509Certificate
  readonly nameId: string
  readonly spProvidedId: string | undefined
}

const parse = (xml: string): XmlElement | undefined => {
  try {
    const doc = new DOMParser({ errorHandler: () => undefined }).parseFromString(xml, "text/xml")
    return doc.documentElement ?? undefined
  } catch {
    return undefined
  }
}

const child = (parent: XmlElement, name: string): XmlElement | undefined => {
  const found = parent.getElementsByTagNameNS(SAML2, name)
  return found.length > 0 ? (found.item(0) ?? undefined) : undefined
}

/** The subject of a signed assertion, if it is an assertion (or a response holding one) that is valid at `now`. */
const subjectOf = (signedXml: string, now: Date): { nameId: string; spProvidedId: string | undefined } | undefined => {
  const root = parse(signedXml)
  if (root === undefined || root.namespaceURI === null) return undefined
  const assertion = root.localName === "Assertion" && root.namespaceURI === SAML2 ? root : child(root, "Assertion")
  if (assertion === undefined) return undefined
  const conditions = child(assertion, "Conditions")
  const notBefore = conditions?.getAttribute("NotBefore")
  const notOnOrAfter = conditions?.getAttribute("NotOnOrAfter")
  if (notBefore && new Date(notBefore).getTime() > now.getTime() + SKEW_MS) return undefined
  if (notOnOrAfter && !(now < new Date(notOnOrAfter))) return undefined
  const subject = child(assertion, "Subject")
  const nameId = subject === undefined ? undefined : child(subject, "NameID")
  const text = nameId?.textContent?.trim()
  if (nameId === undefined || text === undefined || text.length === 0) return undefined
  const sp = nameId.getAttribute("SPProvidedID")
  return { nameId: text, spProvidedId: sp ? sp : undefined }
}

/** Verifies the assertion's signature with one of `trusted`; undefined when none verifies or it is not valid now. */
export const verifySamlAssertion = (xml: string, trusted: readonly X509Certificate[], now = new Date()): SamlAssertion | undefined => {
  const root = parse(xml)
  if (root === undefined) return undefined
  const signatures = root.getElementsByTagNameNS(DSIG, "Signature")
  const signature = signatures.length === 1 ? signatures.item(0) : null
  if (signature === null) return undefined
  for (const signer of trusted) {
    const check = new SignedXml({ publicCert: signer.toString() })
    try {
      check.loadSignature(signature.toString())
      if (!check.checkSignature(xml)) continue
    } catch {
      continue
    }
    // Read only what the signature covers (a forged assertion wrapped around a signed one is not looked at).
    for (const signed of check.getSignedReferences()) {
      const subject = subjectOf(signed, now)
      if (subject !== undefined) return { signer, ...subject }
    }
  }
  return undefined
}

/** What {@link signSamlAssertion} writes into an assertion. */
export interface SamlAssertionOptions {
  /** The NameID (mapped by `WITH IDENTITY '<NameID>' FOR SAML PROVIDER`). */
  readonly nameId: string
  /** SPProvidedID of the NameID (the database user for `WITH IDENTITY ANY`). */
  readonly spProvidedId?: string
  /** Issuer element (default `https://idp.example`). */
  readonly issuer?: string
  /** End of validity (default ten minutes from now). */
  readonly notOnOrAfter?: Date
}

const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/**
 * Makes a SAML 2.0 assertion signed with `privateKey` (PEM; enveloped XML signature, RSA-SHA256, exclusive c14n), to
 * log in with hdb's `assertion` option in tests.
 */
export const signSamlAssertion = (options: SamlAssertionOptions, privateKey: string): string => {
  const now = Date.now()
  const sp = options.spProvidedId === undefined ? "" : ` SPProvidedID="${escapeXml(options.spProvidedId)}"`
  const xml =
    `<saml:Assertion xmlns:saml="${SAML2}" ID="_${randomUUID()}" Version="2.0" IssueInstant="${new Date(now).toISOString()}">` +
    `<saml:Issuer>${escapeXml(options.issuer ?? "https://idp.example")}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"${sp}>${escapeXml(options.nameId)}</saml:NameID></saml:Subject>` +
    `<saml:Conditions NotBefore="${new Date(now - 60_000).toISOString()}" ` +
    `NotOnOrAfter="${(options.notOnOrAfter ?? new Date(now + 600_000)).toISOString()}"/></saml:Assertion>`
  const signature = new SignedXml({
    privateKey,
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
  })
  signature.addReference({
    xpath: "/*",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"]
  })
  signature.computeSignature(xml, { location: { reference: "/*/*[local-name(.)='Issuer']", action: "after" } })
  return signature.getSignedXml()
}
