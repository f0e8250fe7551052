/**
 * Server side of the HANA authentication methods hdb offers (hdb lib/protocol/auth/*.js):
 * SCRAMSHA256 and SCRAMPBKDF2SHA256 with real proof verification, JWT (RS256 against a configured public key) and
 * X509 (client certificate checked against a CA, signature over the server nonce verified).
 */
import * as crypto from "node:crypto"
import { chainsTo } from "./identity/chain.ts"
import { encodeFields } from "./wire.ts"

/** A SCRAM method name. */
export type ScramMethod = "SCRAMSHA256" | "SCRAMPBKDF2SHA256"

const hmac = (key: crypto.BinaryLike, msg: crypto.BinaryLike): Buffer => crypto.createHmac("sha256", key).update(msg).digest()
const sha256 = (msg: crypto.BinaryLike): Buffer => crypto.createHash("sha256").update(msg).digest()

/** Server state of one SCRAM exchange, between AUTHENTICATE and CONNECT. */
export interface ScramChallenge {
  readonly method: ScramMethod
  readonly salt: Buffer
  readonly serverChallenge: Buffer
  readonly clientChallenge: Buffer
  readonly iterations: number
  /** The AUTHENTICATE reply data: Fields[salt, serverChallenge(, iterations u32 BE)]. */
  readonly replyData: Buffer
}

/** Starts a SCRAM exchange for the client's 64-byte challenge. */
export const scramChallenge = (method: ScramMethod, clientChallenge: Buffer, iterations: number): ScramChallenge => {
  const salt = crypto.randomBytes(16)
  const serverChallenge = crypto.randomBytes(48)
  const fields: Buffer[] = [salt, serverChallenge]
  if (method === "SCRAMPBKDF2SHA256") {
    const it = Buffer.alloc(4)
    it.writeUInt32BE(iterations, 0)
    fields.push(it)
  }
  return { method, salt, serverChallenge, clientChallenge, iterations, replyData: encodeFields(fields) }
}

const saltedPassword = (c: ScramChallenge, password: string): Buffer =>
  c.method === "SCRAMPBKDF2SHA256"
    ? crypto.pbkdf2Sync(Buffer.from(password, "utf8"), c.salt, c.iterations, 32, "sha256")
    : hmac(Buffer.from(password, "utf8"), c.salt)

/**
 * Verifies the CONNECT proof (`[u16 BE count=1][u8 32][proof]`) against the password; returns the server proof to
 * send back (`[u16 LE 1][u8 32][proof]`, checked by hdb for PBKDF2) or undefined when the proof is wrong.
 */
export const verifyScram = (c: ScramChallenge, password: string, finalData: Buffer): Buffer | undefined => {
  if (finalData.length < 35 || finalData[2] !== 32) return undefined
  const proof = finalData.subarray(3, 35)
  const salted = saltedPassword(c, password)
  const key = sha256(salted)
  const sig = hmac(sha256(key), Buffer.concat([c.salt, c.serverChallenge, c.clientChallenge]))
  const expected = Buffer.alloc(32)
  for (let i = 0; i < 32; i++) expected[i] = sig[i]! ^ key[i]!
  if (!crypto.timingSafeEqual(expected, proof)) return undefined
  const serverProof = Buffer.alloc(35)
  serverProof.writeUInt16LE(1, 0)
  serverProof[2] = 32
  if (c.method === "SCRAMPBKDF2SHA256") {
    hmac(hmac(salted, c.salt), Buffer.concat([c.clientChallenge, c.salt, c.serverChallenge])).copy(serverProof, 3)
  }
  return serverProof
}

/** JWT login settings. */
export interface JwtOptions {
  /** PEM public key (RSA) that signs accepted tokens (RS256). */
  readonly publicKey: string
  /** Claim naming the database user (default `user_name`, falling back to `sub`). */
  readonly userClaim?: string
  /** Expected `iss`, if any. */
  readonly issuer?: string
}

/** The `iss` claim of a JWT, read without verifying it (to choose the provider whose keys verify it). */
export const jwtIssuer = (token: string): string | undefined => {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>
    return typeof payload["iss"] === "string" ? payload["iss"] : undefined
  } catch {
    return undefined
  }
}

/** The claims of a JWT whose RS256 signature `publicKey` verifies and that is within `exp`/`nbf`; else undefined. */
export const jwtClaims = (token: string, publicKey: crypto.KeyLike, now = Date.now()): Record<string, unknown> | undefined => {
  const parts = token.split(".")
  if (parts.length !== 3) return undefined
  const [h, p, s] = parts as [string, string, string]
  let header: { alg?: string }
  let payload: Record<string, unknown>
  try {
    header = JSON.parse(Buffer.from(h, "base64url").toString("utf8")) as { alg?: string }
    payload = JSON.parse(Buffer.from(p, "base64url").toString("utf8")) as Record<string, unknown>
  } catch {
    return undefined
  }
  if (header.alg !== "RS256") return undefined
  let valid = false
  try {
    valid = crypto.verify("sha256", Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, "base64url"))
  } catch {
    return undefined
  }
  if (!valid) return undefined
  const seconds = now / 1000
  if (typeof payload["exp"] === "number" && payload["exp"] < seconds) return undefined
  if (typeof payload["nbf"] === "number" && payload["nbf"] > seconds + 60) return undefined
  return payload
}

/** Validates a JWT (RS256 signature, `exp`/`nbf`, optional `iss`); returns the user name or undefined. */
export const verifyJwt = (token: string, options: JwtOptions, now = Date.now()): string | undefined => {
  const payload = jwtClaims(token, options.publicKey, now)
  if (payload === undefined) return undefined
  if (options.issuer !== undefined && payload["iss"] !== options.issuer) return undefined
  const user = payload[options.userClaim ?? "user_name"] ?? payload["sub"]
  return typeof user === "string" && user.length > 0 ? user : undefined
}

/** X.509 login settings. */
export interface X509Options {
  /** PEM CA certificate(s) that must have issued the client certificate. */
  readonly ca: string
  /** Maps the client certificate subject to a database user (default: the subject's CN). */
  readonly userOf?: (cert: crypto.X509Certificate) => string | undefined
}

/** The certificates of an X.509 login whose signature over the server nonce verified. */
export interface X509Proof {
  /** The client's own certificate (it signed the nonce). */
  readonly cert: crypto.X509Certificate
  /** The further certificates the client sent (its chain, own certificate excluded). */
  readonly sent: readonly crypto.X509Certificate[]
}

/**
 * Checks hdb's X509 final data: Fields[ownCertDER, chain, signature] where signature = sign(ownDER || chainDERs ||
 * nonce) and chain = Fields[ownDER, issuerDER, …] (hdb lib/protocol/auth/X509.js). Returns the certificates, or
 * undefined when the data is malformed or the signature does not verify.
 */
export const x509Proof = (fields: readonly Buffer[], nonce: Buffer): X509Proof | undefined => {
  const [certDer, chainData, signature] = fields
  if (certDer === undefined || signature === undefined) return undefined
  try {
    const cert = new crypto.X509Certificate(certDer)
    const chain = chainData !== undefined && chainData.length > 0 ? decodeChain(chainData) : []
    const signed = Buffer.concat([certDer, ...chain, nonce])
    if (!crypto.verify(null, signed, cert.publicKey, signature)) {
      // RSA keys sign with an explicit digest in some Node versions' defaults.
      if (!crypto.verify("sha256", signed, cert.publicKey, signature)) return undefined
    }
    const sent = chain.map((der) => new crypto.X509Certificate(der)).filter((c) => c.fingerprint256 !== cert.fingerprint256)
    return { cert, sent }
  } catch {
    return undefined
  }
}

/** The user of an X.509 login under the start-up option `x509`: the certificate chains to `ca`; user = CN. */
export const verifyX509 = (proof: X509Proof, options: X509Options): string | undefined => {
  try {
    const cas = options.ca
      .split(/(?=-----BEGIN CERTIFICATE-----)/)
      .filter((p) => p.includes("BEGIN CERTIFICATE"))
      .map((p) => new crypto.X509Certificate(p))
    if (!chainsTo(proof.cert, proof.sent, cas)) return undefined
    const user = options.userOf?.(proof.cert) ?? /CN=([^,\n]+)/.exec(proof.cert.subject)?.[1]
    return user === undefined ? undefined : user.trim()
  } catch {
    return undefined
  }
}

const decodeChain = (data: Buffer): Buffer[] => {
  // The chain is itself a Fields structure (u16 count + length-prefixed DER certificates).
  try {
    const count = data.readUInt16LE(0)
    const out: Buffer[] = []
    let o = 2
    for (let i = 0; i < count; i++) {
      let len = data[o]!
      o += 1
      if (len === 246) {
        len = data.readUInt16LE(o)
        o += 2
      } else if (len === 247) {
        len = data.readUInt32LE(o)
        o += 4
      } else if (len === 255) {
        len = data.readUInt16BE(o)
        o += 2
      }
      out.push(data.subarray(o, o + len))
      o += len
    }
    return out
  } catch {
    return []
  }
}
