import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { generateTestCertificates, issueCertificate, startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle, TestCertificates } from "../../testkit/hana/index.ts"
import { closeQuietly, connect, exec, failure } from "./hana/client.ts"

const jwt = (payload: Record<string, unknown>, key: crypto.KeyObject): string => {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url")
  const body = `${enc({ alg: "RS256", typ: "JWT" })}.${enc(payload)}`
  return `${body}.${crypto.sign("sha256", Buffer.from(body), key).toString("base64url")}`
}

describe("HANA test server: TLS, JWT, X.509, SCRAMSHA256 and tenant database logins with the raw hdb client", () => {
  let server: HanaTestServerHandle
  let clientCa: TestCertificates
  const signer = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 })
  const stranger = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 })
  beforeAll(async () => {
    clientCa = generateTestCertificates()
    server = await startHanaTestServer({
      tls: true,
      users: [{ name: "SYSTEM", password: "Manager1" }, { name: "APP_USER", password: "App12345" }],
      jwt: { publicKey: signer.publicKey.export({ type: "spki", format: "pem" }).toString() },
      x509: { ca: clientCa.ca },
      databaseName: "TENANT1"
    })
  })
  afterAll(async () => {
    await server.close()
  })
  const base = () => ({ host: "127.0.0.1", port: server.port, ca: [server.tls!.ca!], sslHanaCloudCertificates: false })

  it("serves TLS from byte 0 with a certificate from the generated test CA", async () => {
    const c = await connect({ ...base(), user: "SYSTEM", password: "Manager1" })
    try {
      expect(await exec(c, "SELECT CURRENT_USER FROM DUMMY")).toEqual([{ CURRENT_USER: "SYSTEM" }])
    } finally {
      closeQuietly(c)
    }
    const viaName = await connect({ ...base(), host: "localhost", user: "SYSTEM", password: "Manager1" })
    closeQuietly(viaName)
  })

  it("makes its certificates without any system program: TLS works with an empty PATH", async () => {
    const path = process.env["PATH"]
    process.env["PATH"] = ""
    let certs: TestCertificates
    try {
      certs = generateTestCertificates()
    } finally {
      process.env["PATH"] = path
    }
    const own = await startHanaTestServer({ tls: { key: certs.key, cert: certs.cert } })
    try {
      const c = await connect({ host: "localhost", port: own.port, ca: [certs.ca], sslHanaCloudCertificates: false, user: own.user, password: own.password })
      closeQuietly(c)
    } finally {
      await own.close()
    }
  })

  it("speaks TLS from the first byte: a plain-TCP client gets no init reply", async () => {
    const plain = await failure(connect({ host: "127.0.0.1", port: server.port, user: "SYSTEM", password: "Manager1", initializationTimeout: 500 }))
    expect(plain.code).toBe("EHDBOPENCONN")
    // and a TLS login after that still works (the failed plain session did not disturb the server)
    const c = await connect({ ...base(), user: "SYSTEM", password: "Manager1" })
    closeQuietly(c)
  })

  it("fails for an unknown CA and for a host-name mismatch", async () => {
    const unknownCa = await failure(connect({ host: "127.0.0.1", port: server.port, useTLS: true, user: "SYSTEM", password: "Manager1" }))
    expect(unknownCa.code).toBe("EHDBOPENCONN")
    expect(unknownCa.message).toMatch(/certificate/i)
    const mismatch = await failure(connect({ ...base(), servername: "db.example.com", user: "SYSTEM", password: "Manager1" }))
    expect(mismatch.code).toBe("EHDBOPENCONN")
    expect(mismatch.message).toMatch(/Hostname\/IP does not match|altnames/i)
  })

  it("accepts a JWT signed with the configured key and rejects bad signatures and expired tokens", async () => {
    const now = Math.floor(Date.now() / 1000)
    const good = jwt({ user_name: "APP_USER", exp: now + 600 }, signer.privateKey)
    const c = await connect({ ...base(), token: good })
    try {
      expect(await exec(c, "SELECT CURRENT_USER FROM DUMMY")).toEqual([{ CURRENT_USER: "APP_USER" }])
    } finally {
      closeQuietly(c)
    }
    const forged = await failure(connect({ ...base(), token: jwt({ user_name: "APP_USER", exp: now + 600 }, stranger.privateKey) }))
    expect(forged.code).toBe(10)
    const expired = await failure(connect({ ...base(), token: jwt({ user_name: "APP_USER", exp: now - 600 }, signer.privateKey) }))
    expect(expired.code).toBe(10)
    const unknownUser = await failure(connect({ ...base(), token: jwt({ user_name: "NOBODY", exp: now + 600 }, signer.privateKey) }))
    expect(unknownUser.code).toBe(10)
    expect(unknownUser.sqlState).toBe("28000")
    // Only RS256 is accepted: an unsigned token (alg "none") and an HMAC token keyed with the public key fail.
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url")
    const unsigned = `${enc({ alg: "none", typ: "JWT" })}.${enc({ user_name: "APP_USER", exp: now + 600 })}.`
    expect((await failure(connect({ ...base(), token: unsigned }))).code).toBe(10)
    const hsBody = `${enc({ alg: "HS256", typ: "JWT" })}.${enc({ user_name: "APP_USER", exp: now + 600 })}`
    const hsKey = signer.publicKey.export({ type: "spki", format: "pem" }).toString()
    const hs = `${hsBody}.${crypto.createHmac("sha256", hsKey).update(hsBody).digest("base64url")}`
    expect((await failure(connect({ ...base(), token: hs }))).code).toBe(10)
    // A valid signature over a tampered payload fails.
    const [h, , sig] = good.split(".")
    expect((await failure(connect({ ...base(), token: `${h}.${enc({ user_name: "SYSTEM", exp: now + 600 })}.${sig}` }))).code).toBe(10)
  })

  it("accepts an X.509 client certificate from the configured CA mapped to its CN, and rejects others", async () => {
    const leaf = issueCertificate(clientCa, "/CN=APP_USER", [], { clientAuth: true })
    const c = await connect({ ...base(), authenticationX509: leaf.cert + leaf.key })
    try {
      expect(await exec(c, "SELECT CURRENT_USER FROM DUMMY")).toEqual([{ CURRENT_USER: "APP_USER" }])
    } finally {
      closeQuietly(c)
    }
    const otherCa = generateTestCertificates()
    const foreign = issueCertificate(otherCa, "/CN=APP_USER", [], { clientAuth: true })
    expect((await failure(connect({ ...base(), authenticationX509: foreign.cert + foreign.key }))).code).toBe(10)
    // The right CA's certificate with somebody else's key: the signature over the server nonce does not verify.
    const other = issueCertificate(clientCa, "/CN=SYSTEM", [], { clientAuth: true })
    const wrongKey = await failure(connect({ ...base(), authenticationX509: leaf.cert + other.key }))
    expect(wrongKey.code).toBe(10)
    expect(wrongKey.sqlState).toBe("28000")
    // A certificate issued by an intermediate CA that the client sends along chains to the configured root; without
    // the intermediate in the bundle it does not.
    const inter = issueCertificate(clientCa, "/O=effect-adbc/CN=Intermediate", [], { isCa: true })
    const viaInter = issueCertificate({ ca: inter.cert, caKey: inter.key }, "/CN=APP_USER", [], { clientAuth: true })
    const chained = await connect({ ...base(), authenticationX509: viaInter.key + viaInter.cert + inter.cert })
    try {
      expect(await exec(chained, "SELECT CURRENT_USER FROM DUMMY")).toEqual([{ CURRENT_USER: "APP_USER" }])
    } finally {
      closeQuietly(chained)
    }
    expect((await failure(connect({ ...base(), authenticationX509: viaInter.key + viaInter.cert }))).code).toBe(10)
    // A certificate whose CN names no user fails too.
    const nobody = issueCertificate(clientCa, "/CN=NOBODY", [], { clientAuth: true })
    expect((await failure(connect({ ...base(), authenticationX509: nobody.cert + nobody.key }))).code).toBe(10)
  })

  it("checks the tenant database name of the DB_CONNECT_INFO step", async () => {
    const c = await connect({ ...base(), databaseName: "TENANT1", user: "SYSTEM", password: "Manager1" })
    closeQuietly(c)
    // hdb wraps errors of the DB_CONNECT_INFO step into EHDBOPENCONN with the server's message.
    const wrong = await failure(connect({ ...base(), databaseName: "OTHER", user: "SYSTEM", password: "Manager1" }))
    expect(wrong.code).toBe("EHDBOPENCONN")
    expect(wrong.message).toContain("unknown database OTHER")
  })

  it("logs in with SCRAMSHA256 when the server prefers it", async () => {
    const plain = await startHanaTestServer({ scramMethods: ["SCRAMSHA256"] })
    try {
      const c = await connect({ host: plain.host, port: plain.port, user: plain.user, password: plain.password })
      closeQuietly(c)
      const wrong = await failure(connect({ host: plain.host, port: plain.port, user: plain.user, password: "nope" }))
      expect(wrong.code).toBe(10)
      expect(wrong.sqlState).toBe("28000")
    } finally {
      await plain.close()
    }
  })
})
