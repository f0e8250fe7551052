import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { generateTestCertificates, issueCertificate, startHanaTestServer, type TestCertificates } from "../../testkit/hana/index.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// The driver's TLS rules (layers/hana/README.md, Connecting) over real sockets: several root CA files, option-over-URI precedence, and port 443.
const certs: TestCertificates = generateTestCertificates()
const stranger: TestCertificates = generateTestCertificates()
const server = useServer({
  tls: { key: certs.key, cert: certs.cert, ca: certs.ca },
  users: [{ name: "SYSTEM", password: "Manager1" }, { name: "ALICE", password: "Alice1" }],
  x509: { ca: certs.ca }
})

const dir = mkdtempSync(join(tmpdir(), "hana-tls-audit-"))
const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
const rightCa = () => file("right.pem", certs.ca)
const wrongCa = () => file("wrong.pem", stranger.ca)
const hostPort = () => server.uri.replace(/^hdb:\/\/[^@]*@/, "")
const uri = (query = "") => `hdb://SYSTEM:Manager1@${hostPort()}${query}`
const whoAmI = Effect.flatMap(Connection.Connection, (conn) =>
  Effect.map(Stream.runCollect(conn.query("SELECT CURRENT_USER AS U FROM DUMMY")), (b) => String(b[0]!.getChild("U")!.get(0))))
const enc = encodeURIComponent

describe.skipIf(realHana)("TLS root CAs and precedence", () => {
  it.effect("repeated TLSRootCAFile and the comma-separated option trust every listed CA; an unrelated CA alone fails", () =>
    Effect.gen(function*() {
      expect(yield* withConnection(uri(`?TLSRootCAFile=${enc(wrongCa())}&TLSRootCAFile=${enc(rightCa())}&TLSServerName=localhost`), whoAmI))
        .toBe("SYSTEM")
      expect(yield* withConnection(uri(), whoAmI, { "dba.tls.root_ca_file": `${wrongCa()},${rightCa()}`, "dba.tls.server_name": "localhost" }))
        .toBe("SYSTEM")
      const wrongOnly = yield* Effect.flip(withConnection(uri(`?TLSRootCAFile=${enc(wrongCa())}&TLSServerName=localhost`), whoAmI))
      expect(wrongOnly.status).toBe("IO")
    }))

  it.effect("dba.tls.root_ca_file replaces the URI's TLSRootCAFile; dba.tls.insecure_skip_verify=false overrides the URI's true", () =>
    Effect.gen(function*() {
      const replaced = yield* Effect.flip(withConnection(
        uri(`?TLSRootCAFile=${enc(rightCa())}&TLSServerName=localhost`),
        whoAmI,
        { "dba.tls.root_ca_file": wrongCa() }
      ))
      expect(replaced.status).toBe("IO")
      const verified = yield* Effect.flip(withConnection(uri("?TLSInsecureSkipVerify=true"), whoAmI, { "dba.tls.insecure_skip_verify": "false" }))
      expect(verified.status).toBe("IO")
      expect(yield* withConnection(uri("?TLSInsecureSkipVerify=false"), whoAmI, { "dba.tls.insecure_skip_verify": "true" })).toBe("SYSTEM")
    }))
})

describe.skipIf(realHana || process.getuid?.() !== 0)("port 443", () => {
  it.effect("no TLS setting and port 443: TLS is on and the URI host is the server name", () =>
    Effect.scoped(Effect.gen(function*() {
      yield* Effect.acquireRelease(
        Effect.promise(() => startHanaTestServer({ port: 443, tls: { key: certs.key, cert: certs.cert, ca: certs.ca } })),
        (tlsServer) => Effect.promise(() => tlsServer.close())
      )
      // only the CA file is given: TLS itself comes from the port, the server name from the host
      const user = yield* withConnection("hdb://SYSTEM:Manager1@localhost:443", whoAmI, { "dba.tls.root_ca_file": rightCa() })
      expect(user).toBe("SYSTEM")
      const wrongHost = yield* Effect.flip(
        withConnection("hdb://SYSTEM:Manager1@127.0.0.1:443", whoAmI, { "dba.tls.root_ca_file": rightCa(), "dba.tls.server_name": "other.example" })
      )
      expect(wrongHost.status).toBe("IO")
    })))
})

describe.skipIf(realHana)("X.509 with credentials in the URI", () => {
  it.effect("the certificate decides the user; URI credentials do not turn X.509 into a password login", () =>
    Effect.gen(function*() {
      const client = issueCertificate(certs, "/CN=ALICE", [], { clientAuth: true })
      const options = {
        "dba.tls.root_ca_file": rightCa(),
        "dba.auth.x509.cert": client.cert,
        "dba.auth.x509.key": client.key
      }
      expect(yield* withConnection(uri(), whoAmI, options)).toBe("ALICE")
      // a certificate from an untrusted CA fails even though the URI carries a valid password
      const foreign = issueCertificate(stranger, "/CN=ALICE", [], { clientAuth: true })
      const error = yield* Effect.flip(withConnection(uri(), whoAmI, {
        ...options,
        "dba.auth.x509.cert": foreign.cert,
        "dba.auth.x509.key": foreign.key
      }))
      expect(error.status).toBe("UNAUTHENTICATED")
      expect(error.message).not.toContain("PRIVATE KEY")
    }))

  it.effect("an unusable inline key or token never appears in the error", () =>
    Effect.gen(function*() {
      const client = issueCertificate(certs, "/CN=ALICE", [], { clientAuth: true })
      const secretKey = "-----BEGIN PRIVATE KEY-----\nNOTAKEYsecret123\n-----END PRIVATE KEY-----"
      const badKey = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, {
        "dba.tls.root_ca_file": rightCa(),
        "dba.auth.x509.cert": client.cert,
        "dba.auth.x509.key": secretKey
      }))
      expect(String(badKey.message)).not.toContain("NOTAKEYsecret123")
      expect(JSON.stringify(badKey)).not.toContain("NOTAKEYsecret123")
      const token = "eyJhbGciOiJSUzI1NiJ9.eyJ1c2VyX25hbWUiOiJBTElDRSJ9.c2VjcmV0c2ln"
      const badToken = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, {
        "dba.tls.root_ca_file": rightCa(),
        "dba.auth.jwt.token": token
      }))
      expect(badToken.status).toBe("UNAUTHENTICATED")
      expect(JSON.stringify(badToken)).not.toContain("c2VjcmV0c2ln")
    }))
})
