import { describe, expect, it } from "@effect/vitest"
import * as crypto from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { generateTestCertificates, issueCertificate, type TestCertificates } from "../../testkit/hana/index.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// Authentication and TLS need matching server-side set-up (trust store, JWT provider, X.509 provider), which only the
// test server can be given from here; against a real HANA (HANA_URI) this file does not apply.
const { privateKey: jwtKey, publicKey: jwtPublic } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 })
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
const jwt = (claims: Record<string, unknown>) => {
  const body = `${b64({ alg: "RS256", typ: "JWT" })}.${b64(claims)}`
  return `${body}.${crypto.sign("sha256", Buffer.from(body), jwtKey).toString("base64url")}`
}

const certs: TestCertificates = generateTestCertificates()
const server = useServer({
  tls: { key: certs.key, cert: certs.cert, ca: certs.ca },
  users: [{ name: "SYSTEM", password: "Manager1" }, { name: "ALICE", password: "p@ss:w/rd%" }],
  jwt: { publicKey: jwtPublic.export({ type: "spki", format: "pem" }).toString() },
  x509: { ca: certs.ca }
})

const dir = mkdtempSync(join(tmpdir(), "hana-auth-"))
const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
const hostPort = () => server.uri.replace(/^hdb:\/\/[^@]*@/, "")
const caFile = () => file("ca.pem", certs.ca)
const whoAmI = Effect.flatMap(Connection.Connection, (conn) =>
  Effect.map(Stream.runCollect(conn.query("SELECT CURRENT_USER AS U FROM DUMMY")), (b) => String(b[0]!.getChild("U")!.get(0))))

describe.skipIf(realHana)("authentication and TLS", () => {
  it.effect("basic: URI credentials percent-decoded, or username/password options; wrong password UNAUTHENTICATED", () =>
    Effect.gen(function*() {
      const tls = { "dba.tls.root_ca_file": caFile() }
      const user = yield* withConnection(`hdb://ALICE:${encodeURIComponent("p@ss:w/rd%")}@${hostPort()}`, whoAmI, tls)
      expect(user).toBe("ALICE")
      const byOptions = yield* withConnection(`hdb://${hostPort()}`, whoAmI, { ...tls, username: "ALICE", password: "p@ss:w/rd%" })
      expect(byOptions).toBe("ALICE")
      const wrong = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, { ...tls, username: "ALICE", password: "n0tTh1s!" }))
      expect(wrong.status).toBe("UNAUTHENTICATED")
      expect(wrong.message).not.toContain("n0tTh1s!")
    }))

  it.effect("TLS: root CA file verifies; no CA fails; insecure_skip_verify connects; server name must match", () =>
    Effect.gen(function*() {
      const uri = `hdb://SYSTEM:Manager1@${hostPort()}`
      expect(yield* withConnection(uri, whoAmI, { "dba.tls.root_ca_file": caFile() })).toBe("SYSTEM")
      const viaUri = `${uri}?TLSRootCAFile=${encodeURIComponent(caFile())}&TLSServerName=localhost`
      expect(yield* withConnection(viaUri, whoAmI)).toBe("SYSTEM")
      const untrusted = yield* Effect.flip(withConnection(`${uri}?TLSServerName=localhost`, whoAmI))
      expect(untrusted.status).toBe("IO")
      expect(yield* withConnection(`${uri}?TLSInsecureSkipVerify=true`, whoAmI)).toBe("SYSTEM")
      const wrongName = yield* Effect.flip(
        withConnection(uri, whoAmI, { "dba.tls.root_ca_file": caFile(), "dba.tls.server_name": "wrong.example" })
      )
      expect(wrongName.status).toBe("IO")
      // the option overrides the URI's TLSServerName
      expect(yield* withConnection(`${uri}?TLSServerName=wrong.example`, whoAmI, {
        "dba.tls.root_ca_file": caFile(),
        "dba.tls.server_name": "localhost"
      })).toBe("SYSTEM")
    }))

  it.effect("JWT from dba.auth.jwt.token; the token never shows in errors", () =>
    Effect.gen(function*() {
      const token = jwt({ user_name: "ALICE", exp: Math.floor(Date.now() / 1000) + 300 })
      const tls = { "dba.tls.root_ca_file": caFile() }
      expect(yield* withConnection(`hdb://${hostPort()}`, whoAmI, { ...tls, "dba.auth.jwt.token": token })).toBe("ALICE")
      const expired = jwt({ user_name: "ALICE", exp: Math.floor(Date.now() / 1000) - 300 })
      const error = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, { ...tls, "dba.auth.jwt.token": expired }))
      expect(error.status).toBe("UNAUTHENTICATED")
      expect(error.message).not.toContain(expired)
    }))

  it.effect("X.509 from files and inline PEMs; a combined bundle in cert_file is rejected", () =>
    Effect.gen(function*() {
      const client = issueCertificate(certs, "/CN=ALICE", [], { clientAuth: true })
      const tls = { "dba.tls.root_ca_file": caFile() }
      const files = {
        ...tls,
        "dba.auth.x509.cert_file": file("client.pem", client.cert),
        "dba.auth.x509.key_file": file("client.key", client.key)
      }
      expect(yield* withConnection(`hdb://${hostPort()}`, whoAmI, files)).toBe("ALICE")
      const inline = { ...tls, "dba.auth.x509.cert": client.cert, "dba.auth.x509.key": client.key }
      expect(yield* withConnection(`hdb://${hostPort()}`, whoAmI, inline)).toBe("ALICE")
      const bundle = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, {
        ...tls,
        "dba.auth.x509.cert_file": file("bundle.pem", `${client.cert}\n${client.key}`),
        "dba.auth.x509.key_file": file("client.key", client.key)
      }))
      expect(bundle.status).toBe("INVALID_ARGUMENT")
      expect(bundle.message).toContain("combined")
      expect(bundle.message).not.toContain("PRIVATE KEY-----\nMII")
    }))
})
