/**
 * Distinguished names as SAP HANA writes and compares them. HANA stores a certificate's subject and issuer with the
 * most specific attribute first, separated by `, `, and calls stateOrProvinceName `SP`: OpenSSL's
 * `/C=DE/ST=BW/L=Walldorf/O=Company One/CN=Section Alpha` is HANA's `CN=Section Alpha, O=Company One, L=Walldorf,
 * SP=BW, C=DE` (SAP's own hdb client tests create `X509 PROVIDER … WITH ISSUER` in exactly that form for a
 * certificate made with that `-subj`: SAP/node-hdb test/acceptance/db.X509.js). A name given in SQL is parsed and
 * compared attribute by attribute in that order; spaces around `=` and `,` do not matter, the order does.
 */
import type { X509Certificate } from "node:crypto"

/** One attribute of a distinguished name, e.g. `{ type: "CN", value: "Test" }`. */
export interface NameAttribute {
  readonly type: string
  readonly value: string
}

/** Attribute type names as HANA prints them, keyed by the spellings OpenSSL, Node and RFC 4514 use. */
const TYPE_ALIASES: Readonly<Record<string, string>> = {
  ST: "SP",
  S: "SP",
  STATEORPROVINCENAME: "SP",
  EMAILADDRESS: "E",
  EMAIL: "E",
  COMMONNAME: "CN",
  ORGANIZATIONNAME: "O",
  ORGANIZATIONALUNITNAME: "OU",
  LOCALITYNAME: "L",
  COUNTRYNAME: "C"
}

const typeName = (type: string): string => {
  const t = type.trim().toUpperCase()
  return TYPE_ALIASES[t] ?? t
}

const unescape = (value: string): string => {
  const v = value.trim()
  const unquoted = v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v
  return unquoted.replace(/\\(.)/g, "$1")
}

/** Splits `text` at `separator` characters that are neither escaped with `\` nor inside double quotes. */
const splitUnescaped = (text: string, separator: string): string[] => {
  const parts: string[] = []
  let current = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === "\\" && i + 1 < text.length) {
      current += ch + text[i + 1]!
      i++
    } else if (ch === '"') {
      quoted = !quoted
      current += ch
    } else if (ch === separator && !quoted) {
      parts.push(current)
      current = ""
    } else current += ch
  }
  parts.push(current)
  return parts
}

/** Parses a distinguished name written in SQL (`CN=Test, O=Org, C=DE`); undefined when it is not one. */
export const parseName = (text: string): NameAttribute[] | undefined => {
  if (text.trim().length === 0) return undefined
  const out: NameAttribute[] = []
  for (const part of splitUnescaped(text, ",")) {
    const eq = part.indexOf("=")
    if (eq <= 0) return undefined
    out.push({ type: typeName(part.slice(0, eq)), value: unescape(part.slice(eq + 1)) })
  }
  return out
}

/** A certificate name as Node prints it (one `TYPE=value` line per attribute, ASN.1 order), most specific first. */
const certificateName = (lines: string): NameAttribute[] =>
  lines
    .split("\n")
    .filter((line) => line.includes("="))
    .map((line) => {
      const eq = line.indexOf("=")
      return { type: typeName(line.slice(0, eq)), value: unescape(line.slice(eq + 1)) }
    })
    .reverse()

/** The subject of a certificate, most specific attribute first. */
export const subjectOf = (cert: X509Certificate): NameAttribute[] => certificateName(cert.subject)

/** The issuer of a certificate, most specific attribute first. */
export const issuerOf = (cert: X509Certificate): NameAttribute[] => certificateName(cert.issuer)

const escape = (value: string): string => value.replace(/([,+"\\<>;])/g, "\\$1")

/** A name as HANA prints it in CERTIFICATES, X509_PROVIDERS and the user mappings: `CN=Test, O=Org, C=DE`. */
export const formatName = (name: readonly NameAttribute[]): string => name.map((a) => `${a.type}=${escape(a.value)}`).join(", ")

/** Whether two names have the same attributes in the same order. */
export const sameName = (a: readonly NameAttribute[], b: readonly NameAttribute[]): boolean =>
  a.length === b.length && a.every((x, i) => x.type === b[i]!.type && x.value === b[i]!.value)

/** The value of the first attribute of `type` (e.g. the common name). */
export const attributeOf = (name: readonly NameAttribute[], type: string): string | undefined => name.find((a) => a.type === type)?.value

/**
 * Applies an X.509 provider's matching rule (a name whose one value `*` stands for the database user name, e.g.
 * `CN=*, OU=Section Alpha, O=Company One`) to a certificate subject; returns what `*` matched, or undefined.
 */
export const matchRule = (rule: readonly NameAttribute[], subject: readonly NameAttribute[]): string | undefined => {
  if (rule.length !== subject.length) return undefined
  let user: string | undefined
  for (let i = 0; i < rule.length; i++) {
    const r = rule[i]!
    const s = subject[i]!
    if (r.type !== s.type) return undefined
    if (r.value === "*") user = s.value
    else if (r.value !== s.value) return undefined
  }
  return user
}
