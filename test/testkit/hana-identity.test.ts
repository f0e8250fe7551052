/**
 * X.509 and JWT trust set up by SQL, as a HANA administrator does it, checked with the raw hdb client (no driver in
 * between). The X.509 scenario follows SAP's own hdb acceptance test against a real HANA
 * (SAP/node-hdb test/acceptance/db.X509.js): a root CA in a PSE of purpose X509, a client certificate issued by an
 * intermediate CA that the client sends along, the provider's issuer in HANA's form of the distinguished name.
 */
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { generateCertificateAuthority, issueCertificate, signSamlAssertion, startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient } from "./hana/client.ts"

const ISSUER = "CN=Section Alpha, O=Company One, L=Walldorf, SP=BW, C=DE"
const SUBJECT = "CN=Test, OU=Section Alpha, O=Company One, L=Walldorf, SP=BW, C=DE"
const DAY = 86_400_000

const root = generateCertificateAuthority("/CN=HANA X509 Tests Company One RootCA")
const inter = issueCertificate(root, "/C=DE/ST=BW/L=Walldorf/O=Company One/CN=Section Alpha", [], { isCa: true })
const interCa = { ca: inter.cert, caKey: inter.key }
const client = issueCertificate(interCa, "/C=DE/ST=BW/L=Walldorf/O=Company One/OU=Section Alpha/CN=Test", [], { clientAuth: true })
/** hdb's bundle: key, own certificate, then its issuers (hdb sends the issuers it finds as the chain). */
const FULL_PEM = client.key + client.cert + inter.cert + root.ca

const jwt = (payload: Record<string, unknown>, key: string): string => {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url")
  const body = `${enc({ alg: "RS256", typ: "JWT" })}.${enc(payload)}`
  return `${body}.${crypto.sign("sha256", Buffer.from(body), key).toString("base64url")}`
}

const samlAssertion = (nameId: string, key: string, options: { spProvidedId?: string; notOnOrAfter?: Date } = {}): string =>
  signSamlAssertion({ nameId, ...options }, key)

describe("HANA test server: X.509, JWT and SAML trust configured by SQL (raw hdb)", () => {
  let server: HanaTestServerHandle
  let admin: HdbClient
  const as = (options: Record<string, unknown>) => connect({ host: server.host, port: server.port, ...options })
  const run = async (...statements: string[]) => {
    for (const sql of statements) await exec(admin, sql)
  }
  const whoAmI = async (options: Record<string, unknown>): Promise<string> => {
    const c = await as(options)
    try {
      return (await exec<Array<{ U: string }>>(c, "SELECT CURRENT_USER AS U FROM DUMMY"))[0]!.U
    } finally {
      closeQuietly(c)
    }
  }
  const refused = async (options: Record<string, unknown>) => {
    const err = await failure(as(options))
    expect(err.code).toBe(10)
    expect(err.sqlState).toBe("28000")
    expect(err.message).toMatch(/^authentication failed/)
  }

  beforeAll(async () => {
    server = await startHanaTestServer()
    admin = await as({ user: "SYSTEM", password: "Manager1" })
    await run(
      `CREATE CERTIFICATE TEST_X509CERT FROM '${root.ca}'`,
      "CREATE PSE TEST_X509TRUST",
      "ALTER PSE TEST_X509TRUST ADD CERTIFICATE TEST_X509CERT"
    )
  })
  afterAll(async () => {
    closeQuietly(admin)
    await server.close()
  })

  it("logs in a user mapped by subject for an X.509 provider whose issuer is the intermediate that the client sends", async () => {
    await run(
      `CREATE X509 PROVIDER TEST_X509NORULE WITH ISSUER '${ISSUER}'`,
      "SET PSE TEST_X509TRUST PURPOSE X509 FOR PROVIDER TEST_X509NORULE",
      `CREATE USER TEST_X509USER WITH IDENTITY '${SUBJECT}' FOR X509 PROVIDER TEST_X509NORULE`
    )
    try {
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TEST_X509USER")
      // Without the intermediate the certificate does not chain to the trusted root (the same case and answer as
      // SAP's test "should raise an error when certificate chain is incomplete").
      await refused({ authenticationX509: client.key + client.cert })
      // The user has no password: a password login fails even with the right user name.
      await refused({ user: "TEST_X509USER", password: "Anything1" })
      expect(await exec(admin, "SELECT IS_X509_ENABLED, IS_PASSWORD_ENABLED FROM SYS.USERS WHERE USER_NAME = 'TEST_X509USER'")).toEqual([
        { IS_X509_ENABLED: "TRUE", IS_PASSWORD_ENABLED: "FALSE" }
      ])
      await run("ALTER USER TEST_X509USER DISABLE X509")
      await refused({ authenticationX509: FULL_PEM })
      await run("ALTER USER TEST_X509USER ENABLE X509")
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TEST_X509USER")
      // Another identity for the same provider does not let this certificate in as its user.
      await run(`ALTER USER TEST_X509USER DROP IDENTITY FOR X509 PROVIDER TEST_X509NORULE`)
      await refused({ authenticationX509: FULL_PEM })
      await run(`ALTER USER TEST_X509USER ADD IDENTITY '${SUBJECT}' FOR X509 PROVIDER TEST_X509NORULE`)
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TEST_X509USER")
    } finally {
      await run("DROP USER TEST_X509USER", "DROP X509 PROVIDER TEST_X509NORULE CASCADE")
    }
  })

  it("shows the trust configuration in SYS.CERTIFICATES, PSES, PSE_CERTIFICATES, X509_PROVIDERS and X509_USER_MAPPINGS", async () => {
    await run(
      `CREATE X509 PROVIDER VIEWS_X509 WITH ISSUER 'CN = Section Alpha ,O=Company One,L=Walldorf,SP=BW,C=DE'`,
      "SET PSE TEST_X509TRUST PURPOSE X509 FOR PROVIDER VIEWS_X509",
      `CREATE USER VIEWS_USER PASSWORD Secret123 WITH IDENTITY '${SUBJECT}' FOR X509 PROVIDER VIEWS_X509`
    )
    try {
      expect(
        await exec(admin, "SELECT CERTIFICATE_NAME, SUBJECT_DISTINGUISHED_NAME, ISSUER_DISTINGUISHED_NAME, SUBJECT_COMMON_NAME FROM SYS.CERTIFICATES")
      ).toEqual([
        {
          CERTIFICATE_NAME: "TEST_X509CERT",
          SUBJECT_DISTINGUISHED_NAME: "CN=HANA X509 Tests Company One RootCA",
          ISSUER_DISTINGUISHED_NAME: "CN=HANA X509 Tests Company One RootCA",
          SUBJECT_COMMON_NAME: "HANA X509 Tests Company One RootCA"
        }
      ])
      expect(await exec(admin, "SELECT PSE_NAME, PURPOSE FROM SYS.PSES")).toEqual([{ PSE_NAME: "TEST_X509TRUST", PURPOSE: "X509" }])
      expect(await exec(admin, "SELECT PSE_NAME, CERTIFICATE_NAME FROM SYS.PSE_CERTIFICATES")).toEqual([
        { PSE_NAME: "TEST_X509TRUST", CERTIFICATE_NAME: "TEST_X509CERT" }
      ])
      expect(await exec(admin, "SELECT PURPOSE, PURPOSE_OBJECT FROM SYS.PSE_PURPOSE_OBJECTS")).toEqual([{ PURPOSE: "X509", PURPOSE_OBJECT: "VIEWS_X509" }])
      // The issuer is kept in HANA's form, whatever spacing the statement used.
      expect(await exec(admin, "SELECT X509_PROVIDER_NAME, ISSUER_NAME FROM SYS.X509_PROVIDERS")).toEqual([
        { X509_PROVIDER_NAME: "VIEWS_X509", ISSUER_NAME: ISSUER }
      ])
      expect(await exec(admin, "SELECT USER_NAME, SUBJECT_NAME, X509_PROVIDER_NAME FROM SYS.X509_USER_MAPPINGS")).toEqual([
        { USER_NAME: "VIEWS_USER", SUBJECT_NAME: SUBJECT, X509_PROVIDER_NAME: "VIEWS_X509" }
      ])
      // …and compared as a name: the spacing of the statement does not matter.
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("VIEWS_USER")
      // With a password the user can use either.
      expect(await whoAmI({ user: "VIEWS_USER", password: "Secret123" })).toBe("VIEWS_USER")
      // A certificate in use by a PSE cannot be dropped; a provider in use needs CASCADE.
      expect((await failure(exec(admin, "DROP CERTIFICATE TEST_X509CERT"))).message).toContain("used by PSE TEST_X509TRUST")
      expect((await failure(exec(admin, "DROP X509 PROVIDER VIEWS_X509"))).message).toContain("CASCADE")
    } finally {
      await run("DROP USER VIEWS_USER", "DROP X509 PROVIDER VIEWS_X509 CASCADE")
    }
    expect(await exec(admin, "SELECT * FROM SYS.X509_PROVIDERS")).toEqual([])
    expect(await exec(admin, "SELECT * FROM SYS.X509_USER_MAPPINGS")).toEqual([])
  })

  it("refuses an issuer written in OpenSSL's order, and a provider whose PSE is not set for it", async () => {
    await run(
      "CREATE X509 PROVIDER OPENSSL_ORDER WITH ISSUER 'C=DE, ST=BW, L=Walldorf, O=Company One, CN=Section Alpha'",
      "SET PSE TEST_X509TRUST PURPOSE X509 FOR PROVIDER OPENSSL_ORDER",
      `CREATE USER ORDER_USER WITH IDENTITY '${SUBJECT}' FOR X509 PROVIDER OPENSSL_ORDER`
    )
    try {
      await refused({ authenticationX509: FULL_PEM })
      await run(`ALTER X509 PROVIDER OPENSSL_ORDER SET ISSUER '${ISSUER}'`)
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("ORDER_USER")
      await run("UNSET PSE TEST_X509TRUST PURPOSE X509")
      await refused({ authenticationX509: FULL_PEM })
    } finally {
      await run("DROP USER ORDER_USER", "DROP X509 PROVIDER OPENSSL_ORDER CASCADE")
    }
  })

  it("maps ANY through the provider's matching rules to the user the rule's * names", async () => {
    await run(
      `CREATE X509 PROVIDER TEST_X509WITHRULE WITH ISSUER '${ISSUER}' MATCHING RULES 'CN=*, OU=Section Alpha, O=Company One, L=Walldorf, SP=BW, C=DE'`,
      "SET PSE TEST_X509TRUST PURPOSE X509 FOR PROVIDER TEST_X509WITHRULE",
      "CREATE USER test WITH IDENTITY ANY FOR X509 PROVIDER TEST_X509WITHRULE"
    )
    try {
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TEST")
      // ANY is only allowed for a provider with matching rules (SAP HANA SQL Reference, CREATE USER).
      await run(`CREATE X509 PROVIDER NO_RULES WITH ISSUER '${ISSUER}'`)
      expect((await failure(exec(admin, "CREATE USER OTHER WITH IDENTITY ANY FOR X509 PROVIDER NO_RULES"))).message).toContain("matching rules")
      expect(await exec(admin, "SELECT COUNT(*) AS N FROM SYS.USERS WHERE USER_NAME = 'OTHER'")).toEqual([{ N: 0 }])
    } finally {
      await run("DROP USER TEST", "DROP X509 PROVIDER TEST_X509WITHRULE CASCADE", "DROP X509 PROVIDER NO_RULES")
    }
  })

  it("accepts the provider-less form '<subject>' ISSUER '<issuer>' FOR X509 with a PSE of purpose X509", async () => {
    await run("SET PSE TEST_X509TRUST PURPOSE X509", `CREATE USER LEGACY_USER WITH IDENTITY '${SUBJECT}' ISSUER '${ISSUER}' FOR X509`)
    try {
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("LEGACY_USER")
    } finally {
      await run("DROP USER LEGACY_USER", "UNSET PSE TEST_X509TRUST PURPOSE X509")
    }
  })

  it("refuses chains through an expired intermediate, a non-CA issuer, or to an untrusted root with the same names", async () => {
    await run(
      `CREATE X509 PROVIDER CHAIN_X509 WITH ISSUER '${ISSUER}'`,
      "SET PSE TEST_X509TRUST PURPOSE X509 FOR PROVIDER CHAIN_X509",
      `CREATE USER CHAIN_USER WITH IDENTITY '${SUBJECT}' FOR X509 PROVIDER CHAIN_X509`
    )
    try {
      const subj = "/C=DE/ST=BW/L=Walldorf/O=Company One/OU=Section Alpha/CN=Test"
      // An intermediate whose validity ended yesterday: hdb checks only its own certificate's dates.
      const expiredInter = issueCertificate(root, "/C=DE/ST=BW/L=Walldorf/O=Company One/CN=Section Alpha", [], {
        isCa: true,
        notBefore: new Date(Date.now() - 10 * DAY),
        notAfter: new Date(Date.now() - DAY)
      })
      const viaExpired = issueCertificate({ ca: expiredInter.cert, caKey: expiredInter.key }, subj, [], { clientAuth: true })
      await refused({ authenticationX509: viaExpired.key + viaExpired.cert + expiredInter.cert + root.ca })
      // The same chain through a valid intermediate is accepted.
      const fresh = issueCertificate(interCa, subj, [], { clientAuth: true })
      expect(await whoAmI({ authenticationX509: fresh.key + fresh.cert + inter.cert + root.ca })).toBe("CHAIN_USER")
      // An issuer that is not a CA (basicConstraints CA:FALSE) cannot issue a login certificate.
      const notCa = issueCertificate(root, "/C=DE/ST=BW/L=Walldorf/O=Company One/CN=Section Alpha", [], { clientAuth: true })
      const viaLeaf = issueCertificate({ ca: notCa.cert, caKey: notCa.key }, subj, [], { clientAuth: true })
      await refused({ authenticationX509: viaLeaf.key + viaLeaf.cert + notCa.cert + root.ca })
      // A look-alike hierarchy (same names, other keys) does not chain to the trusted root.
      const otherRoot = generateCertificateAuthority("/CN=HANA X509 Tests Company One RootCA")
      const otherInter = issueCertificate(otherRoot, "/C=DE/ST=BW/L=Walldorf/O=Company One/CN=Section Alpha", [], { isCa: true })
      const forged = issueCertificate({ ca: otherInter.cert, caKey: otherInter.key }, subj, [], { clientAuth: true })
      await refused({ authenticationX509: forged.key + forged.cert + otherInter.cert + otherRoot.ca })
    } finally {
      await run("DROP USER CHAIN_USER", "DROP X509 PROVIDER CHAIN_X509 CASCADE")
    }
  })

  it("verifies JWTs with the certificates of the PSE of purpose JWT for the provider whose issuer the token names", async () => {
    const signer = issueCertificate(root, "/CN=Token Signer", [], { clientAuth: true })
    const stranger = issueCertificate(root, "/CN=Token Signer", [], { clientAuth: true })
    const exp = Math.floor(Date.now() / 1000) + 600
    await run(
      `CREATE CERTIFICATE JWT_CERT FROM '${signer.cert}'`,
      "CREATE PSE JWT_PSE",
      "ALTER PSE JWT_PSE ADD CERTIFICATE JWT_CERT",
      "CREATE JWT PROVIDER IDP WITH ISSUER 'https://idp.example' CLAIM 'user_name' AS EXTERNAL IDENTITY",
      "SET PSE JWT_PSE PURPOSE JWT FOR PROVIDER IDP",
      "CREATE USER JWT_APP WITH IDENTITY 'alice@example' FOR JWT PROVIDER IDP",
      "CREATE USER BOB WITH IDENTITY ANY FOR JWT PROVIDER IDP"
    )
    try {
      expect(await whoAmI({ token: jwt({ iss: "https://idp.example", user_name: "alice@example", exp }, signer.key) })).toBe("JWT_APP")
      // ANY: the claim names the database user itself.
      expect(await whoAmI({ token: jwt({ iss: "https://idp.example", user_name: "BOB", exp }, signer.key) })).toBe("BOB")
      // Identities are case sensitive unless the provider says CASE INSENSITIVE IDENTITY.
      await refused({ token: jwt({ iss: "https://idp.example", user_name: "ALICE@EXAMPLE", exp }, signer.key) })
      await refused({ token: jwt({ iss: "https://other.example", user_name: "alice@example", exp }, signer.key) })
      await refused({ token: jwt({ iss: "https://idp.example", user_name: "alice@example", exp }, stranger.key) })
      await refused({ token: jwt({ iss: "https://idp.example", user_name: "alice@example", exp: exp - 1200 }, signer.key) })
      await run("ALTER JWT PROVIDER IDP SET CASE INSENSITIVE IDENTITY")
      expect(await whoAmI({ token: jwt({ iss: "https://idp.example", user_name: "ALICE@EXAMPLE", exp }, signer.key) })).toBe("JWT_APP")
      await run("ALTER JWT PROVIDER IDP SET ISSUER 'https://idp2.example'")
      await refused({ token: jwt({ iss: "https://idp.example", user_name: "alice@example", exp }, signer.key) })
      expect(await whoAmI({ token: jwt({ iss: "https://idp2.example", user_name: "alice@example", exp }, signer.key) })).toBe("JWT_APP")
      await run("ALTER JWT PROVIDER IDP SET ISSUER 'https://idp.example' SET CASE SENSITIVE IDENTITY")
      await run("ALTER USER JWT_APP DISABLE JWT")
      await refused({ token: jwt({ iss: "https://idp.example", user_name: "alice@example", exp }, signer.key) })
      expect(await exec(admin, "SELECT JWT_PROVIDER_NAME, ISSUER_NAME, EXTERNAL_IDENTITY_CLAIM FROM SYS.JWT_PROVIDERS")).toEqual([
        { JWT_PROVIDER_NAME: "IDP", ISSUER_NAME: "https://idp.example", EXTERNAL_IDENTITY_CLAIM: "user_name" }
      ])
      expect(await exec(admin, "SELECT USER_NAME, EXTERNAL_IDENTITY FROM SYS.JWT_USER_MAPPINGS ORDER BY USER_NAME")).toEqual([
        { USER_NAME: "BOB", EXTERNAL_IDENTITY: "ANY" },
        { USER_NAME: "JWT_APP", EXTERNAL_IDENTITY: "alice@example" }
      ])
    } finally {
      await run("DROP USER JWT_APP", "DROP USER BOB", "DROP JWT PROVIDER IDP CASCADE", "DROP PSE JWT_PSE", "DROP CERTIFICATE JWT_CERT")
    }
  })

  it("logs in with a SAML assertion signed by the certificate of a SAML provider in a PSE of purpose SAML", async () => {
    const idp = issueCertificate(root, "/C=DE/O=effect-adbc/CN=SAML IdP", [], { clientAuth: true })
    const stranger = issueCertificate(root, "/C=DE/O=effect-adbc/CN=SAML IdP", [], { clientAuth: true })
    await run(
      `CREATE CERTIFICATE SAML_IDP FROM '${idp.cert}'`,
      "CREATE PSE SAML_PSE",
      "ALTER PSE SAML_PSE ADD CERTIFICATE SAML_IDP",
      "CREATE SAML PROVIDER IDP_SAML WITH SUBJECT 'CN=SAML IdP, O=effect-adbc, C=DE' ISSUER 'CN=HANA X509 Tests Company One RootCA'",
      "SET PSE SAML_PSE PURPOSE SAML FOR PROVIDER IDP_SAML",
      "CREATE USER ERIN WITH IDENTITY 'erin@example' FOR SAML PROVIDER IDP_SAML",
      "CREATE USER FRANK WITH IDENTITY ANY FOR SAML PROVIDER IDP_SAML"
    )
    try {
      expect(await whoAmI({ assertion: samlAssertion("erin@example", idp.key) })).toBe("ERIN")
      // ANY: the NameID's SPProvidedID names the database user.
      expect(await whoAmI({ assertion: samlAssertion("frank-external", idp.key, { spProvidedId: "FRANK" }) })).toBe("FRANK")
      await refused({ assertion: samlAssertion("nobody@example", idp.key) })
      await refused({ assertion: samlAssertion("erin@example", stranger.key) })
      await refused({ assertion: samlAssertion("erin@example", idp.key, { notOnOrAfter: new Date(Date.now() - 1000) }) })
      // Changing the signed assertion breaks its signature.
      const tampered = samlAssertion("erin@example", idp.key).replace(">erin@example<", ">ERIN@example<")
      await refused({ assertion: tampered })
      // A provider pointed at another signer no longer accepts this IdP's assertions.
      await run("ALTER SAML PROVIDER IDP_SAML WITH SUBJECT 'CN=Other IdP, O=effect-adbc, C=DE' ISSUER 'CN=HANA X509 Tests Company One RootCA'")
      await refused({ assertion: samlAssertion("erin@example", idp.key) })
      await run("ALTER SAML PROVIDER IDP_SAML WITH SUBJECT 'CN=SAML IdP, O=effect-adbc, C=DE' ISSUER 'CN=HANA X509 Tests Company One RootCA'")
      await run("ALTER USER ERIN DISABLE SAML")
      await refused({ assertion: samlAssertion("erin@example", idp.key) })
      expect(await exec(admin, "SELECT SAML_PROVIDER_NAME, SUBJECT_NAME, ISSUER_NAME FROM SYS.SAML_PROVIDERS")).toEqual([
        { SAML_PROVIDER_NAME: "IDP_SAML", SUBJECT_NAME: "CN=SAML IdP, O=effect-adbc, C=DE", ISSUER_NAME: "CN=HANA X509 Tests Company One RootCA" }
      ])
      expect(await exec(admin, "SELECT USER_NAME, EXTERNAL_IDENTITY FROM SYS.SAML_USER_MAPPINGS ORDER BY USER_NAME")).toEqual([
        { USER_NAME: "ERIN", EXTERNAL_IDENTITY: "erin@example" },
        { USER_NAME: "FRANK", EXTERNAL_IDENTITY: "ANY" }
      ])
    } finally {
      await run("DROP USER ERIN", "DROP USER FRANK", "DROP SAML PROVIDER IDP_SAML CASCADE", "DROP PSE SAML_PSE", "DROP CERTIFICATE SAML_IDP")
    }
  })

  it("commits the open transaction before a security statement, as DDL does, and keeps the change on ROLLBACK", async () => {
    const c = await as({ user: "SYSTEM", password: "Manager1" })
    try {
      await exec(c, "CREATE TABLE TX_MARK (ID INTEGER)")
      c.setAutoCommit(false)
      await exec(c, "INSERT INTO TX_MARK VALUES (1)")
      await exec(c, "CREATE PSE TX_PSE")
      await exec(c, "ROLLBACK")
      expect(await exec(c, "SELECT COUNT(*) AS N FROM TX_MARK")).toEqual([{ N: 1 }])
      expect(await exec(c, "SELECT PSE_NAME FROM SYS.PSES WHERE PSE_NAME = 'TX_PSE'")).toEqual([{ PSE_NAME: "TX_PSE" }])
    } finally {
      c.setAutoCommit(true)
      closeQuietly(c)
      await run("DROP PSE TX_PSE", "DROP TABLE TX_MARK")
    }
  })

  it("lets only SYSTEM administer trust, and names what is wrong in a bad statement", async () => {
    await run("CREATE USER PLAIN PASSWORD Plain1234")
    const plain = await as({ user: "PLAIN", password: "Plain1234" })
    try {
      expect((await failure(exec(plain, "CREATE PSE MINE"))).code).toBe(258)
    } finally {
      closeQuietly(plain)
      await run("DROP USER PLAIN")
    }
    expect((await failure(exec(admin, "ALTER PSE NOPE ADD CERTIFICATE TEST_X509CERT"))).message).toContain("PSE NOPE")
    expect((await failure(exec(admin, "CREATE X509 PROVIDER BAD WITH ISSUER 'not a name'"))).code).toBe(257)
    expect((await failure(exec(admin, "CREATE CERTIFICATE JUNK FROM 'not a certificate'"))).message).toContain("certificate")
    expect((await failure(exec(admin, "CREATE USER U1 WITH IDENTITY 'CN=x' FOR X509 PROVIDER MISSING"))).message).toContain("MISSING")
  })
})
