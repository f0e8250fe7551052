/**
 * The server's trust configuration as HANA keeps it: certificates, PSEs (trust stores) with purposes, X.509 / JWT /
 * SAML providers, and each user's external identities and enabled mechanisms. Security administration statements
 * (statements.ts) change it; X.509, JWT and SAML logins are checked against it. The SYS views over it are written
 * by catalog.ts after every change.
 */
import * as crypto from "node:crypto"
import { HanaError } from "../errors.ts"
import { chainsTo } from "./chain.ts"
import { verifySamlAssertion } from "./saml.ts"
import { issuerOf, matchRule, parseName, sameName, subjectOf } from "./dn.ts"
import type { NameAttribute } from "./dn.ts"
import type { IdentityCommand, Mechanism, Purpose, UserIdentity } from "./statements.ts"

/** A certificate of the certificate collection (CREATE CERTIFICATE). */
export interface StoredCertificate {
  readonly id: number
  readonly name: string | undefined
  readonly pem: string
  readonly cert: crypto.X509Certificate
  readonly comment: string | undefined
  readonly created: Date
}

/** A PSE: certificates plus the purposes it serves (with the providers a purpose is limited to, if any). */
export interface StoredPse {
  readonly name: string
  readonly certificates: Set<number>
  readonly purposes: Map<Purpose, readonly string[]>
  readonly created: Date
}

/** An X.509 provider: the issuer of the user certificates it accepts and its matching rules. */
export interface X509Provider {
  readonly name: string
  issuer: NameAttribute[]
  rules: NameAttribute[][]
}

/** A JWT provider: the `iss` it accepts and the claim that names the external identity. */
export interface JwtProvider {
  readonly name: string
  issuer: string
  claim: string
  caseSensitive: boolean
}

/** A SAML provider: subject and issuer of the certificate that signs its assertions. */
export interface SamlProvider {
  readonly name: string
  subject: NameAttribute[]
  issuer: NameAttribute[]
}

/** What the store knows of one user besides its password. */
export interface UserAuthentication {
  readonly mechanisms: Map<Mechanism, boolean>
  readonly identities: UserIdentity[]
}

/** The users of the server, as the store needs them. */
export interface UserDirectory {
  has(name: string): boolean
  add(name: string, password: string): Promise<void>
}

const invalidName = (kind: string, name: string): HanaError => new HanaError(397, "HY000", `invalid object name: ${kind} ${name} not found`)
const duplicateName = (kind: string, name: string): HanaError => new HanaError(2, "HY000", `general error: ${kind} ${name} already exists`)
const invalidUser = (name: string): HanaError => new HanaError(332, "HY000", `invalid user name: ${name}`)

const nameOrFail = (text: string, what: string): NameAttribute[] => {
  const name = parseName(text)
  if (name === undefined) throw HanaError.syntax(`${what} '${text}' is not a distinguished name (e.g. 'CN=Name, O=Org, C=DE')`, 0)
  return name
}

/** The identity store of one server. */
export class IdentityStore {
  readonly certificates = new Map<number, StoredCertificate>()
  readonly pses = new Map<string, StoredPse>()
  readonly x509Providers = new Map<string, X509Provider>()
  readonly jwtProviders = new Map<string, JwtProvider>()
  readonly samlProviders = new Map<string, SamlProvider>()
  readonly users = new Map<string, UserAuthentication>()
  private nextCertificateId = 160000

  constructor(private readonly directory: UserDirectory) {}

  /** A user's authentication entry (created on first use: password enabled, no external identities). */
  userAuth(user: string): UserAuthentication {
    let entry = this.users.get(user)
    if (entry === undefined) {
      entry = { mechanisms: new Map([["PASSWORD", true]]), identities: [] }
      this.users.set(user, entry)
    }
    return entry
  }

  /** Whether `user` may log in by `mechanism` (ALTER USER … ENABLE|DISABLE). */
  enabled(user: string, mechanism: Mechanism): boolean {
    return this.users.get(user)?.mechanisms.get(mechanism) ?? mechanism === "PASSWORD"
  }

  /** Forgets a dropped user's identities. */
  forgetUser(user: string): void {
    this.users.delete(user)
  }

  private certificate(ref: string): StoredCertificate {
    const byId = /^\d+$/.test(ref) ? this.certificates.get(Number(ref)) : undefined
    const found = byId ?? [...this.certificates.values()].find((c) => c.name === ref)
    if (found === undefined) throw invalidName("certificate", ref)
    return found
  }

  private pse(name: string): StoredPse {
    const pse = this.pses.get(name)
    if (pse === undefined) throw invalidName("PSE", name)
    return pse
  }

  private checkProvider(kind: "X509" | "JWT" | "SAML", name: string): void {
    const map = kind === "X509" ? this.x509Providers : kind === "JWT" ? this.jwtProviders : this.samlProviders
    if (!map.has(name)) throw invalidName(`${kind} provider`, name)
  }

  /** Fails for an identity naming an unknown provider, a malformed name, or ANY for a provider without rules. */
  private checkIdentities(identities: readonly UserIdentity[]): void {
    for (const identity of identities) {
      if (identity.provider !== undefined) this.checkProvider(identity.kind, identity.provider)
      if (identity.kind === "X509") {
        if (identity.provider === undefined) {
          nameOrFail(identity.subject, "subject")
          nameOrFail(identity.issuer, "issuer")
        } else if (identity.subject === undefined) {
          // SAP HANA SQL Reference, CREATE USER: "You can specify a wildcard (ANY) for the subject name only for an
          // X.509 provider with matching rules."
          if (this.x509Providers.get(identity.provider)!.rules.length === 0) {
            throw new HanaError(2, "HY000", `general error: ANY needs an X509 provider with matching rules; ${identity.provider} has none`)
          }
        } else nameOrFail(identity.subject, "subject")
      }
    }
  }

  private addIdentities(user: string, identities: readonly UserIdentity[]): void {
    this.checkIdentities(identities)
    const entry = this.userAuth(user)
    for (const identity of identities) {
      entry.identities.push(identity)
      entry.mechanisms.set(identity.kind, true)
    }
  }

  /** Carries out one security administration statement. */
  async execute(command: IdentityCommand): Promise<void> {
    switch (command.op) {
      case "createCertificate": {
        let cert: crypto.X509Certificate
        try {
          cert = new crypto.X509Certificate(command.pem)
        } catch {
          throw new HanaError(2, "HY000", "general error: the certificate is not a PEM or DER X.509 certificate")
        }
        if (command.name !== undefined && [...this.certificates.values()].some((c) => c.name === command.name)) {
          throw duplicateName("certificate", command.name)
        }
        const id = this.nextCertificateId++
        this.certificates.set(id, { id, name: command.name, pem: cert.toString(), cert, comment: command.comment, created: new Date() })
        return
      }
      case "dropCertificate": {
        const cert = this.certificate(command.ref)
        const user = [...this.pses.values()].find((p) => p.certificates.has(cert.id))
        if (user !== undefined) throw new HanaError(2, "HY000", `general error: certificate ${command.ref} is used by PSE ${user.name}`)
        this.certificates.delete(cert.id)
        return
      }
      case "createPse":
        if (this.pses.has(command.name)) throw duplicateName("PSE", command.name)
        this.pses.set(command.name, { name: command.name, certificates: new Set(), purposes: new Map(), created: new Date() })
        return
      case "dropPse":
        this.pse(command.name)
        this.pses.delete(command.name)
        return
      case "alterPse": {
        const pse = this.pse(command.name)
        const ids = command.refs.map((ref) => this.certificate(ref).id)
        for (const id of ids) {
          if (command.action === "add") pse.certificates.add(id)
          else pse.certificates.delete(id)
        }
        return
      }
      case "setPurpose": {
        const pse = this.pse(command.name)
        for (const provider of command.providers) {
          if (command.purpose === "X509" || command.purpose === "JWT" || command.purpose === "SAML") this.checkProvider(command.purpose, provider)
        }
        // A purpose belongs to one PSE: setting it elsewhere moves it (for the same providers).
        for (const other of this.pses.values()) {
          const providers = other.purposes.get(command.purpose)
          if (other === pse || providers === undefined) continue
          if (command.providers.length === 0 && providers.length === 0) other.purposes.delete(command.purpose)
          else if (command.providers.length > 0) {
            const rest = providers.filter((p) => !command.providers.includes(p))
            if (rest.length !== providers.length) {
              if (rest.length === 0) other.purposes.delete(command.purpose)
              else other.purposes.set(command.purpose, rest)
            }
          }
        }
        pse.purposes.set(command.purpose, command.providers)
        return
      }
      case "unsetPurpose":
        this.pse(command.name).purposes.delete(command.purpose)
        return
      case "createX509Provider":
        if (this.x509Providers.has(command.name)) throw duplicateName("X509 provider", command.name)
        this.x509Providers.set(command.name, {
          name: command.name,
          issuer: nameOrFail(command.issuer, "issuer"),
          rules: command.rules.map((r) => nameOrFail(r, "matching rule"))
        })
        return
      case "alterX509Provider": {
        const provider = this.x509Providers.get(command.name)
        if (provider === undefined) throw invalidName("X509 provider", command.name)
        if (command.issuer !== undefined) provider.issuer = nameOrFail(command.issuer, "issuer")
        if (command.rules !== undefined) provider.rules = command.rules.map((r) => nameOrFail(r, "matching rule"))
        return
      }
      case "createJwtProvider":
        if (this.jwtProviders.has(command.name)) throw duplicateName("JWT provider", command.name)
        this.jwtProviders.set(command.name, { name: command.name, issuer: command.issuer, claim: command.claim, caseSensitive: command.caseSensitive })
        return
      case "alterJwtProvider": {
        const provider = this.jwtProviders.get(command.name)
        if (provider === undefined) throw invalidName("JWT provider", command.name)
        if (command.issuer !== undefined) provider.issuer = command.issuer
        if (command.claim !== undefined) provider.claim = command.claim
        if (command.caseSensitive !== undefined) provider.caseSensitive = command.caseSensitive
        return
      }
      case "alterSamlProvider": {
        const provider = this.samlProviders.get(command.name)
        if (provider === undefined) throw invalidName("SAML provider", command.name)
        if (command.subject !== undefined) provider.subject = nameOrFail(command.subject, "subject")
        if (command.issuer !== undefined) provider.issuer = nameOrFail(command.issuer, "issuer")
        return
      }
      case "createSamlProvider":
        if (this.samlProviders.has(command.name)) throw duplicateName("SAML provider", command.name)
        this.samlProviders.set(command.name, {
          name: command.name,
          subject: nameOrFail(command.subject, "subject"),
          issuer: nameOrFail(command.issuer, "issuer")
        })
        return
      case "dropProvider": {
        this.checkProvider(command.kind, command.name)
        const mapped = [...this.users.entries()].filter(([, a]) => a.identities.some((i) => i.kind === command.kind && i.provider === command.name))
        if (mapped.length > 0 && !command.cascade) {
          throw new HanaError(2, "HY000", `general error: ${command.kind} provider ${command.name} is used by user ${mapped[0]![0]}; use CASCADE`)
        }
        for (const [, auth] of mapped) {
          const kept = auth.identities.filter((i) => !(i.kind === command.kind && i.provider === command.name))
          auth.identities.splice(0, auth.identities.length, ...kept)
        }
        for (const pse of this.pses.values()) {
          const providers = pse.purposes.get(command.kind)
          if (providers === undefined || !providers.includes(command.name)) continue
          // A purpose left with no provider would apply to every provider: it ends with its last provider.
          const rest = providers.filter((p) => p !== command.name)
          if (rest.length === 0) pse.purposes.delete(command.kind)
          else pse.purposes.set(command.kind, rest)
        }
        const map = command.kind === "X509" ? this.x509Providers : command.kind === "JWT" ? this.jwtProviders : this.samlProviders
        map.delete(command.name)
        return
      }
      case "createUser": {
        if (this.directory.has(command.user)) throw new HanaError(331, "HY000", `user name already exists: ${command.user}`)
        // Checked before the user exists, so a failed statement leaves nothing behind.
        this.checkIdentities(command.identities)
        // A user without a password cannot log in with one (no password is set: a random one stands in).
        await this.directory.add(command.user, command.password ?? crypto.randomBytes(24).toString("base64"))
        this.addIdentities(command.user, command.identities)
        this.userAuth(command.user).mechanisms.set("PASSWORD", command.password !== undefined)
        return
      }
      case "addIdentities":
        if (!this.directory.has(command.user)) throw invalidUser(command.user)
        this.addIdentities(command.user, command.identities)
        return
      case "dropIdentity": {
        if (!this.directory.has(command.user)) throw invalidUser(command.user)
        const auth = this.userAuth(command.user)
        const kept = auth.identities.filter(
          (i) =>
            !(i.kind === command.kind && i.provider === command.provider &&
              (command.provider !== undefined || (i.kind === "X509" && i.subject === command.subject)))
        )
        auth.identities.splice(0, auth.identities.length, ...kept)
        return
      }
      case "enable":
        if (!this.directory.has(command.user)) throw invalidUser(command.user)
        this.userAuth(command.user).mechanisms.set(command.mechanism, command.on)
        return
    }
  }

  /** Certificates of the PSEs that serve `purpose` for `provider` (or for every provider). */
  trusted(purpose: Purpose, provider: string | undefined): crypto.X509Certificate[] {
    const out: crypto.X509Certificate[] = []
    for (const pse of this.pses.values()) {
      const providers = pse.purposes.get(purpose)
      if (providers === undefined) continue
      if (providers.length > 0 && (provider === undefined || !providers.includes(provider))) continue
      for (const id of pse.certificates) {
        const c = this.certificates.get(id)
        if (c !== undefined) out.push(c.cert)
      }
    }
    return out
  }

  /** The user of an existing name: exact, else as an unquoted identifier (upper case). */
  private existingUser(name: string): string | undefined {
    if (this.directory.has(name)) return name
    return this.directory.has(name.toUpperCase()) ? name.toUpperCase() : undefined
  }

  /**
   * The user an X.509 login maps to, or undefined. `own` signed the server nonce (checked by the caller); `sent`
   * are the further certificates the client sent.
   */
  x509User(own: crypto.X509Certificate, sent: readonly crypto.X509Certificate[], now = new Date()): string | undefined {
    const subject = subjectOf(own)
    const issuer = issuerOf(own)
    const candidates: string[] = []
    for (const provider of this.x509Providers.values()) {
      if (!sameName(provider.issuer, issuer)) continue
      if (!chainsTo(own, sent, this.trusted("X509", provider.name), now)) continue
      for (const [user, auth] of this.users) {
        for (const i of auth.identities) {
          if (i.kind !== "X509" || i.provider !== provider.name) continue
          if (i.subject !== undefined && sameName(parseName(i.subject) ?? [], subject)) candidates.push(user)
        }
      }
      for (const rule of provider.rules) {
        const matched = matchRule(rule, subject)
        const user = matched === undefined ? undefined : this.existingUser(matched)
        const any = user === undefined ? undefined : this.users.get(user)
        if (any?.identities.some((i) => i.kind === "X509" && i.provider === provider.name && i.subject === undefined) === true) candidates.push(user!)
      }
    }
    // Identities given with their issuer, without a provider (`… ISSUER '…' FOR X509`), trust the PSE of purpose X509.
    if (chainsTo(own, sent, this.trusted("X509", undefined), now)) {
      for (const [user, auth] of this.users) {
        for (const i of auth.identities) {
          if (i.kind === "X509" && i.provider === undefined && sameName(parseName(i.subject) ?? [], subject) && sameName(parseName(i.issuer) ?? [], issuer)) {
            candidates.push(user)
          }
        }
      }
    }
    return candidates.find((u) => this.enabled(u, "X509"))
  }

  /** The user a JWT login maps to, given the token's verified claims, or undefined. */
  jwtUser(verify: (key: crypto.KeyObject) => Record<string, unknown> | undefined, issuerOfToken: string | undefined): string | undefined {
    for (const provider of this.jwtProviders.values()) {
      if (provider.issuer !== issuerOfToken) continue
      const claims = this.trusted("JWT", provider.name)
        .map((c) => verify(c.publicKey))
        .find((c) => c !== undefined)
      const value = claims?.[provider.claim]
      if (typeof value !== "string" || value.length === 0) continue
      const user = this.mappedUser("JWT", provider.name, value, provider.caseSensitive)
      if (user !== undefined) return user
    }
    return undefined
  }

  /** The user a SAML assertion logs in, or undefined (saml.ts checks signature, validity and subject). */
  samlUser(assertionXml: string, now = new Date()): string | undefined {
    const providers = [...this.samlProviders.values()]
    const trustedFor = new Map(providers.map((p) => [p.name, this.trusted("SAML", p.name)]))
    const all = new Map([...trustedFor.values()].flat().map((c) => [c.fingerprint256, c]))
    const assertion = verifySamlAssertion(assertionXml, [...all.values()], now)
    if (assertion === undefined) return undefined
    for (const provider of providers) {
      if (!sameName(provider.subject, subjectOf(assertion.signer)) || !sameName(provider.issuer, issuerOf(assertion.signer))) continue
      if (!trustedFor.get(provider.name)!.some((c) => c.fingerprint256 === assertion.signer.fingerprint256)) continue
      const user = this.mappedUser("SAML", provider.name, assertion.nameId, true, assertion.spProvidedId ?? assertion.nameId)
      if (user !== undefined) return user
    }
    return undefined
  }

  private mappedUser(kind: "JWT" | "SAML", provider: string, external: string, caseSensitive: boolean, anyName = external): string | undefined {
    const same = (a: string): boolean => (caseSensitive ? a === external : a.toUpperCase() === external.toUpperCase())
    for (const [user, auth] of this.users) {
      if (auth.identities.some((i) => i.kind === kind && i.provider === provider && i.name !== undefined && same(i.name)) && this.enabled(user, kind)) {
        return user
      }
    }
    // ANY: the token or assertion names the database user itself (SAP HANA SQL Reference, CREATE USER).
    const named = this.existingUser(anyName)
    const auth = named === undefined ? undefined : this.users.get(named)
    if (named !== undefined && auth?.identities.some((i) => i.kind === kind && i.provider === provider && i.name === undefined) === true && this.enabled(named, kind)) {
      return named
    }
    return undefined
  }
}
