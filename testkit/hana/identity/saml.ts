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
import { DOMParser } from "@xmldom/xmldom"
import { SignedXml } from "xml-crypto"

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

const parse = (xml: string): Element | undefined => {
  try {
    const doc = new DOMParser({ errorHandler: () => undefined }).parseFromString(xml, "text/xml")
    return doc.documentElement ?? undefined
  } catch {
    return undefined
  }
}

const child = (parent: Element, name: string): Element | undefined => {
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
