/**
 * Server side of O5LOGON with the 12c password verifier (type 0x4815), as driven by
 * node-oracledb thin (node_modules/oracledb/lib/thin/protocol/encryptDecrypt.js updateVerifierData):
 *
 * - passwordKey  = PBKDF2-SHA512(password, vfrData || "AUTH_PBKDF2_SPEEDY_KEY", VGEN_COUNT, 64)
 * - passwordHash = SHA512(passwordKey || vfrData)[0..32]
 * - AUTH_SESSKEY (server) = AES-256-CBC(passwordHash, IV 0, serverKey 32 bytes), no padding
 * - AUTH_SESSKEY (client) = first 32 bytes of AES-256-CBC(passwordHash, clientKey || pad)
 * - comboKey = PBKDF2-SHA512(hexUpper(clientKey || serverKey) as UTF-8, CSK_SALT, SDER_COUNT, 32)
 * - AUTH_PASSWORD = AES-256-CBC(comboKey, 16 random bytes || password || pad n*n)
 * - AUTH_SVR_RESPONSE = AES-256-CBC(comboKey, 16 random bytes || "SERVER_TO_CLIENT")
 */
import * as crypto from "node:crypto"

/** PBKDF2 iteration count used for the verifier (real databases use 4096). */
export const VGEN_COUNT = 4096
/** PBKDF2 iteration count for the combo key. */
export const SDER_COUNT = 3
/** Verifier type announced in the AUTH_VFR_DATA flags. */
export const VERIFIER_12C = 0x4815

const ZERO_IV = Buffer.alloc(16, 0)

const aes = (key: Buffer, data: Buffer, decrypt: boolean): Buffer => {
  const c = decrypt ? crypto.createDecipheriv("aes-256-cbc", key, ZERO_IV) : crypto.createCipheriv("aes-256-cbc", key, ZERO_IV)
  c.setAutoPadding(false)
  return Buffer.concat([c.update(data), c.final()])
}

/** Per-user verifier material (salt and derived password hash), computed once per user. */
export interface Verifier {
  readonly vfrData: Buffer
  readonly passwordHash: Buffer
}

/** Derives the 12c verifier for a password with a fresh random salt. */
export const makeVerifier = (password: string): Verifier => {
  const vfrData = crypto.randomBytes(16)
  const passwordKey = crypto.pbkdf2Sync(
    Buffer.from(password, "utf8"),
    Buffer.concat([vfrData, Buffer.from("AUTH_PBKDF2_SPEEDY_KEY", "utf8")]),
    VGEN_COUNT,
    64,
    "sha512"
  )
  const passwordHash = crypto.createHash("sha512").update(passwordKey).update(vfrData).digest().subarray(0, 32)
  return { vfrData, passwordHash }
}

/** State of one logon handshake between phase one and phase two. */
export interface LogonChallenge {
  readonly serverKey: Buffer
  readonly encodedServerKey: string
  readonly cskSalt: Buffer
}

/** Creates the phase-one challenge (server session key encrypted with the password hash). */
export const makeChallenge = (verifier: Verifier): LogonChallenge => {
  const serverKey = crypto.randomBytes(32)
  return {
    serverKey,
    encodedServerKey: aes(verifier.passwordHash, serverKey, false).toString("hex").toUpperCase(),
    cskSalt: crypto.randomBytes(32)
  }
}

/** Result of checking phase two: the combo key when the password matched. */
export type LogonCheck = { readonly ok: true; readonly comboKey: Buffer } | { readonly ok: false }

/** Verifies AUTH_SESSKEY/AUTH_PASSWORD from phase two against the expected password. */
export const checkPhaseTwo = (
  verifier: Verifier,
  challenge: LogonChallenge,
  clientSessKeyHex: string,
  encodedPasswordHex: string,
  expectedPassword: string
): LogonCheck => {
  try {
    const clientEnc = Buffer.from(clientSessKeyHex, "hex")
    if (clientEnc.length !== 32) return { ok: false }
    const clientKey = aes(verifier.passwordHash, clientEnc, true)
    const mixed = Buffer.from(
      Buffer.concat([clientKey.subarray(0, 32), challenge.serverKey.subarray(0, 32)]).toString("hex").toUpperCase(),
      "utf8"
    )
    const comboKey = crypto.pbkdf2Sync(mixed, challenge.cskSalt, SDER_COUNT, 32, "sha512")
    return passwordMatches(comboKey, encodedPasswordHex, expectedPassword) ? { ok: true, comboKey } : { ok: false }
  } catch {
    return { ok: false }
  }
}

/**
 * A password the client sent encrypted under the session's combo key (AUTH_PASSWORD, AUTH_NEWPASSWORD: 16 bytes of
 * salt, the password, PKCS#7 padding); undefined when it does not decrypt to that shape.
 */
export const decryptPassword = (comboKey: Buffer, encodedHex: string): Buffer | undefined => {
  try {
    const enc = Buffer.from(encodedHex, "hex")
    if (enc.length === 0 || enc.length % 16 !== 0) return undefined
    const plain = aes(comboKey, enc, true)
    const pad = plain[plain.length - 1]!
    if (pad < 1 || pad > 16 || plain.length - pad < 16) return undefined
    return plain.subarray(16, plain.length - pad)
  } catch {
    return undefined
  }
}

/** Whether the encrypted password is `expectedPassword` (compared in constant time). */
export const passwordMatches = (comboKey: Buffer, encodedHex: string, expectedPassword: string): boolean => {
  const password = decryptPassword(comboKey, encodedHex)
  const expected = Buffer.from(expectedPassword, "utf8")
  return password !== undefined && password.length === expected.length && crypto.timingSafeEqual(password, expected)
}

/** Builds AUTH_SVR_RESPONSE, proving to the client that the server knows the combo key. */
export const serverResponse = (comboKey: Buffer): string =>
  aes(comboKey, Buffer.concat([crypto.randomBytes(16), Buffer.from("SERVER_TO_CLIENT", "utf8")]), false)
    .toString("hex")
    .toUpperCase()
