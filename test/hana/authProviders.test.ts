import { describe, expect, it } from "@effect/vitest"
import * as crypto from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { generateCertificateAuthority, generateTestCertificates, issueCertificate } from "../../testkit/hana/index.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// X.509 and JWT logins whose server-side trust is set up by SQL, as the driver's documentation tells an
// administrator to do it (trust store of purpose X509/JWT, X.509 provider with the issuer as HANA stores it, user
// identities). The test server starts without its `x509` / `jwt` options, so only that SQL makes these logins work.
const tlsCerts = generateTestCertificates()
const server = useServer({ tls: { key: tlsCerts.key, cert: tlsCerts.cert, ca: tlsCerts.ca } })

const root = generateCertificateAuthority("/CN=effect-adbc Users Root")
const inter = issueCertificate(root, "/C=DE/O=effect-adbc/CN=Users Intermediate", [], { isCa: true })
const client = issueCertificate({ ca: inter.cert, caKey: inter.key }, "/C=DE/O=effect-adbc/CN=Carol", [], { clientAuth: true })
const jwtSigner = issueCertificate(root, "/CN=Token Signer", [], { clientAuth: true })

const dir = mkdtempSync(join(tmpdir(), "hana-auth-providers-"))
const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
const hostPort = () => server.uri.replace(/^hdb:\/\/[^@]*@/, "")
const tls = () => ({ "dba.tls.root_ca_file": file("ca.pem", tlsCerts.ca) })
const whoAmI = Effect.flatMap(Connection.Connection, (conn) =>
  Effect.map(Stream.runCollect(conn.query("SELECT CURRENT_USER AS U FROM DUMMY")), (b) => String(b[0]!.getChild("U")!.get(0))))
const administer = (...statements: string[]) =>
  withConnection(
    server.uri,
    Effect.flatMap(Connection.Connection, (conn) => Effect.forEach(statements, (sql) => conn.execute(sql), { discard: true })),
    tls()
  )
const jwt = (claims: Record<string, unknown>) => {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const body = `${b64({ alg: "RS256", typ: "JWT" })}.${b64(claims)}`
  return `${body}.${crypto.sign("sha256", Buffer.from(body), jwtSigner.key).toString("base64url")}`
}

describe.skipIf(realHana)("X.509 and JWT logins with trust set up by SQL", () => {
  it.effect("X.509: a cert_file holding the client certificate and its intermediate logs in; without the intermediate it fails", () =>
    Effect.gen(function*() {
      yield* administer(
        `CREATE CERTIFICATE USERS_ROOT FROM '${root.ca}'`,
        "CREATE PSE USERS_TRUST",
        "ALTER PSE USERS_TRUST ADD CERTIFICATE USERS_ROOT",
        // The issuer as HANA stores it: most specific attribute first (OpenSSL prints C=DE, O=…, CN=…).
        "CREATE X509 PROVIDER USERS_CA WITH ISSUER 'CN=Users Intermediate, O=effect-adbc, C=DE'",
        "SET PSE USERS_TRUST PURPOSE X509 FOR PROVIDER USERS_CA",
        "CREATE USER CAROL WITH IDENTITY 'CN=Carol, O=effect-adbc, C=DE' FOR X509 PROVIDER USERS_CA",
        "ALTER USER CAROL ENABLE X509"
      )
      const key = file("carol.key", client.key)
      const chained = { ...tls(), "dba.auth.x509.cert_file": file("carol-chain.pem", client.cert + inter.cert), "dba.auth.x509.key_file": key }
      expect(yield* withConnection(`hdb://${hostPort()}`, whoAmI, chained)).toBe("CAROL")
      const inline = { ...tls(), "dba.auth.x509.cert": client.cert + inter.cert, "dba.auth.x509.key": client.key }
      expect(yield* withConnection(`hdb://${hostPort()}`, whoAmI, inline)).toBe("CAROL")
      const alone = { ...tls(), "dba.auth.x509.cert_file": file("carol.pem", client.cert), "dba.auth.x509.key_file": key }
      const error = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, alone))
      expect(error.status).toBe("UNAUTHENTICATED")
      yield* administer("ALTER USER CAROL DISABLE X509")
      const disabled = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, chained))
      expect(disabled.status).toBe("UNAUTHENTICATED")
    }))

  it.effect("JWT: a token from the provider's issuer, signed by a certificate of its PSE, logs in the mapped user", () =>
    Effect.gen(function*() {
      yield* administer(
        `CREATE CERTIFICATE TOKEN_SIGNER FROM '${jwtSigner.cert}'`,
        "CREATE PSE TOKEN_TRUST",
        "ALTER PSE TOKEN_TRUST ADD CERTIFICATE TOKEN_SIGNER",
        "CREATE JWT PROVIDER IDP WITH ISSUER 'https://idp.example' CLAIM 'user_name' AS EXTERNAL IDENTITY",
        "SET PSE TOKEN_TRUST PURPOSE JWT FOR PROVIDER IDP",
        "CREATE USER DAVE WITH IDENTITY 'dave@example' FOR JWT PROVIDER IDP"
      )
      const exp = Math.floor(Date.now() / 1000) + 300
      const token = jwt({ iss: "https://idp.example", user_name: "dave@example", exp })
      expect(yield* withConnection(`hdb://${hostPort()}`, whoAmI, { ...tls(), "dba.auth.jwt.token": token })).toBe("DAVE")
      const foreign = jwt({ iss: "https://elsewhere.example", user_name: "dave@example", exp })
      const error = yield* Effect.flip(withConnection(`hdb://${hostPort()}`, whoAmI, { ...tls(), "dba.auth.jwt.token": foreign }))
      expect(error.status).toBe("UNAUTHENTICATED")
      expect(error.message).not.toContain(foreign)
    }))
})
