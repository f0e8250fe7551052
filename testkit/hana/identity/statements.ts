/**
 * The security administration statements of SAP HANA that set up X.509, JWT and SAML logins, parsed into commands
 * for the identity store (store.ts). Syntax after the SAP HANA SQL Reference (CREATE/ALTER/DROP PSE, CREATE/DROP
 * CERTIFICATE, SET/UNSET PSE … PURPOSE, CREATE/ALTER/DROP X509|JWT|SAML PROVIDER, CREATE USER … WITH IDENTITY,
 * ALTER USER … ADD|DROP IDENTITY, ALTER USER … ENABLE|DISABLE <mechanism>) and the forms SAP's own client tests run
 * against HANA (SAP/node-hdb test/acceptance/db.X509.js: `CREATE CERTIFICATE name FROM '<pem>'`,
 * `ALTER PSE p ADD CERTIFICATE name`, `SET PSE p PURPOSE X509 FOR PROVIDER x`, `… MATCHING RULES '…'`,
 * `CREATE USER u WITH IDENTITY ANY FOR X509 PROVIDER x`, `WITH IDENTITY '<subject>' ISSUER '<issuer>' FOR X509`).
 */
import { HanaError } from "../errors.ts"
import { identOf, upper } from "../lexer.ts"
import type { Token } from "../lexer.ts"

/** An authentication mechanism a user can be enabled or disabled for. */
export type Mechanism = "X509" | "JWT" | "SAML" | "PASSWORD"

/** A PSE purpose (SET PSE … PURPOSE). */
export type Purpose = "X509" | "JWT" | "SAML" | "SSL" | "LDAP" | "SAP LOGON" | "REMOTE SOURCE" | "DATABASE REPLICATION"

/** One external identity of a user: `ANY` (undefined name) or a mapped name for a provider. */
export type UserIdentity =
  | { readonly kind: "X509"; readonly provider: string; readonly subject: string | undefined }
  | { readonly kind: "X509"; readonly provider: undefined; readonly subject: string; readonly issuer: string }
  | { readonly kind: "JWT" | "SAML"; readonly provider: string; readonly name: string | undefined }

/** A parsed security administration statement. */
export type IdentityCommand =
  | { readonly op: "createCertificate"; readonly name: string | undefined; readonly pem: string; readonly comment: string | undefined }
  | { readonly op: "dropCertificate"; readonly ref: string }
  | { readonly op: "createPse"; readonly name: string }
  | { readonly op: "dropPse"; readonly name: string; readonly cascade: boolean }
  | { readonly op: "alterPse"; readonly name: string; readonly action: "add" | "drop"; readonly refs: readonly string[] }
  | { readonly op: "setPurpose"; readonly name: string; readonly purpose: Purpose; readonly providers: readonly string[] }
  | { readonly op: "unsetPurpose"; readonly name: string; readonly purpose: Purpose }
  | { readonly op: "createX509Provider"; readonly name: string; readonly issuer: string; readonly rules: readonly string[] }
  | { readonly op: "alterX509Provider"; readonly name: string; readonly issuer: string | undefined; readonly rules: readonly string[] | undefined }
  | { readonly op: "createJwtProvider"; readonly name: string; readonly issuer: string; readonly claim: string; readonly caseSensitive: boolean }
  | {
      readonly op: "alterJwtProvider"
      readonly name: string
      readonly issuer: string | undefined
      readonly claim: string | undefined
      readonly caseSensitive: boolean | undefined
    }
  | { readonly op: "alterSamlProvider"; readonly name: string; readonly subject: string | undefined; readonly issuer: string | undefined }
  | { readonly op: "createSamlProvider"; readonly name: string; readonly subject: string; readonly issuer: string }
  | { readonly op: "dropProvider"; readonly kind: "X509" | "JWT" | "SAML"; readonly name: string; readonly cascade: boolean }
  | { readonly op: "createUser"; readonly user: string; readonly password: string | undefined; readonly identities: readonly UserIdentity[] }
  | { readonly op: "addIdentities"; readonly user: string; readonly identities: readonly UserIdentity[] }
  | { readonly op: "dropIdentity"; readonly user: string; readonly kind: "X509" | "JWT" | "SAML"; readonly provider: string | undefined; readonly subject: string | undefined }
  | { readonly op: "enable"; readonly user: string; readonly mechanism: Mechanism; readonly on: boolean }

const PURPOSES: readonly Purpose[] = ["X509", "JWT", "SAML", "SSL", "LDAP", "SAP LOGON", "REMOTE SOURCE", "DATABASE REPLICATION"]

/** A cursor over a statement's significant tokens. */
class Reader {
  private i = 0
  constructor(private readonly tokens: readonly Token[]) {}
  peek(k = 0): string {
    return upper(this.tokens[this.i + k])
  }
  done(): boolean {
    return this.i >= this.tokens.length
  }
  accept(...words: string[]): boolean {
    if (!words.every((w, k) => this.peek(k) === w)) return false
    this.i += words.length
    return true
  }
  expect(...words: string[]): void {
    if (!this.accept(...words)) this.fail(`${words.join(" ")} expected`)
  }
  name(what: string): string {
    const n = identOf(this.tokens[this.i])
    if (n === undefined) this.fail(`${what} expected`)
    this.i++
    return n
  }
  /** A certificate reference: a name or a numeric CERTIFICATE_ID. */
  reference(): string {
    const t = this.tokens[this.i]
    if (t?.t === "number") {
      this.i++
      return t.v
    }
    return this.name("certificate name or id")
  }
  /** The text of the next token as written (passwords are case-sensitive, quoted or not). */
  raw(what: string): string {
    const t = this.tokens[this.i]
    if (t === undefined || t.t === "op") this.fail(`${what} expected`)
    this.i++
    return t.v
  }
  string(what: string): string {
    const t = this.tokens[this.i]
    if (t?.t !== "string") this.fail(`${what} expected (a string literal)`)
    this.i++
    return t.v
  }
  comma(): boolean {
    const t = this.tokens[this.i]
    if (t?.t === "op" && t.v === ",") {
      this.i++
      return true
    }
    return false
  }
  end(): void {
    if (!this.done()) this.fail(`unexpected "${this.tokens[this.i]!.v}"`)
  }
  fail(detail: string): never {
    throw HanaError.syntax(detail, (this.tokens[this.i]?.pos ?? 0) + 1)
  }
}

const purposeOf = (r: Reader): Purpose => {
  for (const p of PURPOSES) if (r.accept(...p.split(" "))) return p
  return r.fail(`PSE purpose expected (${PURPOSES.join(", ")})`)
}

const mechanismOf = (r: Reader): Mechanism | undefined => {
  for (const m of ["X509", "JWT", "SAML", "PASSWORD"] as const) if (r.accept(m)) return m
  return undefined
}

/** `<mapped name> FOR X509|JWT|SAML PROVIDER p` or `'<subject>' ISSUER '<issuer>' FOR X509`, after WITH IDENTITY / ADD IDENTITY. */
const identities = (r: Reader): UserIdentity[] => {
  const out: UserIdentity[] = []
  while (!r.done() && (r.peek() === "ANY" || r.peek() === "")) {
    const name = r.accept("ANY") ? undefined : r.string("identity")
    if (r.accept("ISSUER")) {
      const issuer = r.string("issuer name")
      r.expect("FOR", "X509")
      if (name === undefined) r.fail("ANY needs an X509 PROVIDER")
      out.push({ kind: "X509", provider: undefined, subject: name, issuer })
      continue
    }
    r.expect("FOR")
    const kind = r.accept("X509") ? "X509" : r.accept("JWT") ? "JWT" : r.accept("SAML") ? "SAML" : r.fail("X509, JWT or SAML expected")
    r.expect("PROVIDER")
    const provider = r.name("provider name")
    out.push(kind === "X509" ? { kind, provider, subject: name } : { kind, provider, name })
  }
  if (out.length === 0) r.fail("identity expected")
  return out
}

const cascadeOf = (r: Reader): boolean => {
  const cascade = r.accept("CASCADE")
  if (!cascade) r.accept("RESTRICT")
  r.end()
  return cascade
}

const createUser = (r: Reader): IdentityCommand | undefined => {
  const user = r.name("user name")
  let password: string | undefined
  if (r.accept("PASSWORD")) {
    password = r.raw("password")
    r.accept("NO", "FORCE_FIRST_PASSWORD_CHANGE")
  }
  if (!r.accept("WITH", "IDENTITY")) return undefined
  const ids = identities(r)
  r.end()
  return { op: "createUser", user, password, identities: ids }
}

const alterUser = (r: Reader): IdentityCommand | undefined => {
  const user = r.name("user name")
  if (r.accept("ADD", "IDENTITY")) {
    const ids = identities(r)
    r.end()
    return { op: "addIdentities", user, identities: ids }
  }
  if (r.accept("DROP", "IDENTITY")) {
    const subject = r.peek() === "" ? r.string("identity") : undefined
    if (subject !== undefined && r.accept("ISSUER")) {
      r.string("issuer name")
      r.expect("FOR", "X509")
      r.end()
      return { op: "dropIdentity", user, kind: "X509", provider: undefined, subject }
    }
    r.expect("FOR")
    const kind = r.accept("X509") ? "X509" : r.accept("JWT") ? "JWT" : r.accept("SAML") ? "SAML" : r.fail("X509, JWT or SAML expected")
    r.expect("PROVIDER")
    const provider = r.name("provider name")
    r.end()
    return { op: "dropIdentity", user, kind, provider, subject }
  }
  for (const action of ["ENABLE", "DISABLE"] as const) {
    if (r.accept(action)) {
      const mechanism = mechanismOf(r)
      if (mechanism === undefined) return undefined
      r.end()
      return { op: "enable", user, mechanism, on: action === "ENABLE" }
    }
  }
  return undefined
}

const createProvider = (r: Reader, kind: "X509" | "JWT" | "SAML"): IdentityCommand => {
  const name = r.name("provider name")
  if (kind === "SAML") {
    r.expect("WITH", "SUBJECT")
    const subject = r.string("subject name")
    r.expect("ISSUER")
    const issuer = r.string("issuer name")
    if (!r.accept("ENABLE", "USER", "CREATION")) r.accept("DISABLE", "USER", "CREATION")
    r.end()
    return { op: "createSamlProvider", name, subject, issuer }
  }
  r.expect("WITH", "ISSUER")
  const issuer = r.string("issuer")
  if (kind === "JWT") {
    r.expect("CLAIM")
    const claim = r.string("claim name")
    r.expect("AS", "EXTERNAL", "IDENTITY")
    let caseSensitive = true
    if (r.accept("CASE", "INSENSITIVE", "IDENTITY")) caseSensitive = false
    else r.accept("CASE", "SENSITIVE", "IDENTITY")
    if (r.accept("PRIORITY")) r.reference()
    r.end()
    return { op: "createJwtProvider", name, issuer, claim, caseSensitive }
  }
  const rules: string[] = []
  if (r.accept("MATCHING", "RULES")) {
    do rules.push(r.string("matching rule"))
    while (r.comma())
  }
  if (r.accept("PRIORITY")) r.reference()
  r.end()
  return { op: "createX509Provider", name, issuer, rules }
}

const alterX509Provider = (r: Reader): IdentityCommand => {
  const name = r.name("provider name")
  let issuer: string | undefined
  let rules: string[] | undefined
  while (!r.done()) {
    if (r.accept("SET", "ISSUER")) issuer = r.string("issuer")
    else if (r.accept("SET", "MATCHING", "RULES")) {
      rules = []
      do rules.push(r.string("matching rule"))
      while (r.comma())
    } else if (r.accept("UNSET", "MATCHING", "RULES")) rules = []
    else if (r.accept("SET", "PRIORITY")) r.reference()
    else if (r.accept("UNSET", "PRIORITY")) continue
    else r.fail("SET ISSUER, SET MATCHING RULES or UNSET MATCHING RULES expected")
  }
  return { op: "alterX509Provider", name, issuer, rules }
}

const alterJwtProvider = (r: Reader): IdentityCommand => {
  const name = r.name("provider name")
  let issuer: string | undefined
  let claim: string | undefined
  let caseSensitive: boolean | undefined
  while (!r.done()) {
    if (r.accept("SET", "ISSUER")) issuer = r.string("issuer")
    else if (r.accept("SET", "CLAIM")) {
      claim = r.string("claim name")
      r.expect("AS", "EXTERNAL", "IDENTITY")
    } else if (r.accept("SET", "CASE", "SENSITIVE", "IDENTITY")) caseSensitive = true
    else if (r.accept("SET", "CASE", "INSENSITIVE", "IDENTITY")) caseSensitive = false
    else if (r.accept("SET", "PRIORITY")) r.reference()
    else if (r.accept("UNSET", "PRIORITY")) continue
    else r.fail("SET ISSUER, SET CLAIM … AS EXTERNAL IDENTITY or SET CASE [IN]SENSITIVE IDENTITY expected")
  }
  return { op: "alterJwtProvider", name, issuer, claim, caseSensitive }
}

const alterSamlProvider = (r: Reader): IdentityCommand => {
  const name = r.name("provider name")
  let subject: string | undefined
  let issuer: string | undefined
  if (r.accept("WITH", "SUBJECT")) {
    subject = r.string("subject name")
    r.expect("ISSUER")
    issuer = r.string("issuer name")
  }
  // User creation on first login is not modelled; the clause is accepted so set-up scripts run.
  if (!r.accept("ENABLE", "USER", "CREATION")) r.accept("DISABLE", "USER", "CREATION")
  r.end()
  return { op: "alterSamlProvider", name, subject, issuer }
}

/**
 * Parses a security administration statement; undefined when `tokens` (without whitespace) is not one the identity
 * store handles (then the caller goes on with its own translation).
 */
export const parseIdentityStatement = (tokens: readonly Token[]): IdentityCommand | undefined => {
  const r = new Reader(tokens)
  if (r.accept("CREATE", "USER")) return createUser(r)
  if (r.accept("ALTER", "USER")) return alterUser(r)
  if (r.accept("CREATE", "CERTIFICATE")) {
    const name = r.peek() === "FROM" ? undefined : r.name("certificate name")
    r.expect("FROM")
    const pem = r.string("certificate")
    const comment = r.accept("COMMENT") ? r.string("comment") : undefined
    r.end()
    return { op: "createCertificate", name, pem, comment }
  }
  if (r.accept("DROP", "CERTIFICATE")) {
    const ref = r.reference()
    r.end()
    return { op: "dropCertificate", ref }
  }
  if (r.accept("CREATE", "PSE")) {
    const name = r.name("PSE name")
    r.end()
    return { op: "createPse", name }
  }
  if (r.accept("DROP", "PSE")) {
    const name = r.name("PSE name")
    return { op: "dropPse", name, cascade: cascadeOf(r) }
  }
  if (r.accept("ALTER", "PSE")) {
    const name = r.name("PSE name")
    const action = r.accept("ADD") ? "add" : r.accept("DROP") ? "drop" : r.fail("ADD or DROP CERTIFICATE expected")
    r.expect("CERTIFICATE")
    const refs: string[] = []
    do refs.push(r.reference())
    while (r.comma())
    r.end()
    return { op: "alterPse", name, action, refs }
  }
  if (r.accept("SET", "PSE")) {
    const name = r.name("PSE name")
    r.expect("PURPOSE")
    const purpose = purposeOf(r)
    const providers: string[] = []
    if (r.accept("FOR", "PROVIDER")) {
      do providers.push(r.name("provider name"))
      while (r.comma())
    }
    r.end()
    return { op: "setPurpose", name, purpose, providers }
  }
  if (r.accept("UNSET", "PSE")) {
    const name = r.name("PSE name")
    r.expect("PURPOSE")
    const purpose = purposeOf(r)
    r.end()
    return { op: "unsetPurpose", name, purpose }
  }
  for (const kind of ["X509", "JWT", "SAML"] as const) {
    if (r.accept("CREATE", kind, "PROVIDER")) return createProvider(r, kind)
    if (r.accept("DROP", kind, "PROVIDER")) {
      const name = r.name("provider name")
      return { op: "dropProvider", kind, name, cascade: cascadeOf(r) }
    }
  }
  if (r.accept("ALTER", "X509", "PROVIDER")) return alterX509Provider(r)
  if (r.accept("ALTER", "JWT", "PROVIDER")) return alterJwtProvider(r)
  if (r.accept("ALTER", "SAML", "PROVIDER")) return alterSamlProvider(r)
  return undefined
}
