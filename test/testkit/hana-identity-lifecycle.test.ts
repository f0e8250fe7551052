/**
 * The life cycle of X.509 / JWT / SAML trust configured by SQL, checked with the raw hdb client: certificates out of
 * their validity period, trust taken away again (ALTER PSE … DROP CERTIFICATE, DROP PSE), matching rules changed
 * (ALTER X509 PROVIDER … SET | UNSET MATCHING RULES), and the identity columns of SYS.USERS. The set-up follows
 * hana-identity.test.ts (SAP/node-hdb test/acceptance/db.X509.js): a root CA in a PSE of purpose X509 and a client
 * certificate issued by an intermediate CA that the client sends along.
 */
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { chainsTo } from "../../testkit/hana/identity/chain.ts"
import { generateCertificateAuthority, issueCertificate, startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, createClient, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbSqlError } from "./hana/client.ts"

const ISSUER = "CN=Section Alpha, O=Company One, L=Walldorf, SP=BW, C=DE"
const SUBJECT = "CN=Test, OU=Section Alpha, O=Company One, L=Walldorf, SP=BW, C=DE"
const DAY = 86_400_000
const EXPIRED = { notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) }

const root = generateCertificateAuthority("/CN=HANA X509 Tests Company One RootCA")
const inter = issueCertificate(root, "/C=DE/ST=BW/L=Walldorf/O=Company One/CN=Section Alpha", [], { isCa: true })
const interCa = { ca: inter.cert, caKey: inter.key }
const leaf = (subject: string, options: { notBefore?: Date; notAfter?: Date } = {}) => {
  const c = issueCertificate(interCa, subject, [], { clientAuth: true, ...options })
  /** hdb's bundle: key, own certificate, then its issuers (hdb sends the issuers it finds as the chain). */
  return c.key + c.cert + inter.cert + root.ca
}
const FULL_PEM = leaf("/C=DE/ST=BW/L=Walldorf/O=Company One/OU=Section Alpha/CN=Test")

describe("HANA test server: X.509, JWT and SAML trust over its life cycle (raw hdb)", () => {
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
      await call((cb) => c.disconnect(cb))
    }
  }
  /**
   * A login that fails, and the error it failed with; asserts that no session was opened. (An earlier login's
   * session may still be closing on the server, so the count may only fall, never rise.)
   */
  const attempt = async (options: Record<string, unknown>): Promise<HdbSqlError> => {
    const before = server.sessionCount()
    const client = createClient({ host: server.host, port: server.port, ...options })
    const error = await failure(call((cb) => client.connect(cb)))
    expect(server.sessionCount()).toBeLessThanOrEqual(before)
    closeQuietly(client)
    return error
  }
  /** The server refuses the login as HANA does (SAP/node-hdb test/acceptance/db.X509.js expects this answer). */
  const refused = async (options: Record<string, unknown>) => {
    const error = await attempt(options)
    expect([error.code, error.sqlState, error.message]).toEqual([10, "28000", expect.stringMatching(/^authentication failed/)])
  }
  const query = (sql: string) => exec<Array<Record<string, unknown>>>(admin, sql)

  beforeAll(async () => {
    server = await startHanaTestServer()
    admin = await as({ user: "SYSTEM", password: "Manager1" })
  })
  afterAll(async () => {
    closeQuietly(admin)
    await server.close()
  })

  it("refuses a certificate that chains to an expired root, though the root is in the PSE; a valid root of that name lets it in", async () => {
    const expiredRoot = generateCertificateAuthority("/CN=Lapsed Root", EXPIRED)
    const subject = "/C=DE/O=Company One/CN=Lapsed"
    // The leaf itself is valid now: only its trust anchor has expired.
    const viaExpired = issueCertificate(expiredRoot, subject, [], { clientAuth: true })
    await run(
      `CREATE CERTIFICATE LAPSED_ROOT FROM '${expiredRoot.ca}'`,
      "CREATE PSE LAPSED_PSE",
      "ALTER PSE LAPSED_PSE ADD CERTIFICATE LAPSED_ROOT",
      "CREATE X509 PROVIDER LAPSED_X509 WITH ISSUER 'CN=Lapsed Root'",
      "SET PSE LAPSED_PSE PURPOSE X509 FOR PROVIDER LAPSED_X509",
      "CREATE USER LAPSED_USER WITH IDENTITY 'CN=Lapsed, O=Company One, C=DE' FOR X509 PROVIDER LAPSED_X509"
    )
    try {
      expect(await query("SELECT CERTIFICATE_NAME, VALID_UNTIL < CURRENT_UTCTIMESTAMP AS EXPIRED FROM SYS.CERTIFICATES WHERE CERTIFICATE_NAME = 'LAPSED_ROOT'")).toEqual([
        { CERTIFICATE_NAME: "LAPSED_ROOT", EXPIRED: 1 }
      ])
      await refused({ authenticationX509: viaExpired.key + viaExpired.cert + expiredRoot.ca })
      // The same names under a root that is valid now: the mapping and PSE set-up were right, the expiry refused it.
      const freshRoot = generateCertificateAuthority("/CN=Lapsed Root")
      const viaFresh = issueCertificate(freshRoot, subject, [], { clientAuth: true })
      await run(`CREATE CERTIFICATE FRESH_ROOT FROM '${freshRoot.ca}'`, "ALTER PSE LAPSED_PSE ADD CERTIFICATE FRESH_ROOT")
      expect(await whoAmI({ authenticationX509: viaFresh.key + viaFresh.cert + freshRoot.ca })).toBe("LAPSED_USER")
      await refused({ authenticationX509: viaExpired.key + viaExpired.cert + expiredRoot.ca })
    } finally {
      await run(
        "DROP USER LAPSED_USER",
        "DROP X509 PROVIDER LAPSED_X509 CASCADE",
        "DROP PSE LAPSED_PSE",
        "DROP CERTIFICATE LAPSED_ROOT",
        "DROP CERTIFICATE FRESH_ROOT"
      )
    }
  })

  it("opens no session for an expired or not yet valid client certificate (hdb refuses it before the server can)", async () => {
    await run(
      `CREATE CERTIFICATE LEAF_ROOT FROM '${root.ca}'`,
      "CREATE PSE LEAF_PSE",
      "ALTER PSE LEAF_PSE ADD CERTIFICATE LEAF_ROOT",
      `CREATE X509 PROVIDER LEAF_X509 WITH ISSUER '${ISSUER}'`,
      "SET PSE LEAF_PSE PURPOSE X509 FOR PROVIDER LEAF_X509",
      `CREATE USER LEAF_USER WITH IDENTITY '${SUBJECT}' FOR X509 PROVIDER LEAF_X509`
    )
    try {
      const subject = "/C=DE/ST=BW/L=Walldorf/O=Company One/OU=Section Alpha/CN=Test"
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("LEAF_USER")
      // hdb checks its own certificate's validity period before it connects (lib/protocol/auth/X509.js); the server
      // would refuse it as well (testkit/hana/identity/chain.ts checks every certificate of the path). Either way the
      // login fails and no session exists.
      for (const [pem, clientText] of [
        [leaf(subject, EXPIRED), "X.509 certificate has expired"],
        [leaf(subject, { notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 2 * DAY) }), "X.509 certificate is not yet valid"]
      ] as const) {
        const error = await attempt({ authenticationX509: pem })
        if (error.code === 10) expect(error.message).toMatch(/^authentication failed/)
        // hdb's text: "No authentication method found. X.509: X.509 certificate has expired".
        else expect(error.message).toContain(`X.509: ${clientText}`)
      }
    } finally {
      await run("DROP USER LEAF_USER", "DROP X509 PROVIDER LEAF_X509 CASCADE", "DROP PSE LEAF_PSE", "DROP CERTIFICATE LEAF_ROOT")
    }
  })

  it("takes the trust away with ALTER PSE … DROP CERTIFICATE and with DROP PSE, as SYS.PSE_CERTIFICATES and PSES show", async () => {
    await run(
      `CREATE CERTIFICATE TRUST_ROOT FROM '${root.ca}'`,
      "CREATE PSE TRUST_PSE",
      "ALTER PSE TRUST_PSE ADD CERTIFICATE TRUST_ROOT",
      `CREATE X509 PROVIDER TRUST_X509 WITH ISSUER '${ISSUER}'`,
      "SET PSE TRUST_PSE PURPOSE X509 FOR PROVIDER TRUST_X509",
      `CREATE USER TRUST_USER WITH IDENTITY '${SUBJECT}' FOR X509 PROVIDER TRUST_X509`
    )
    try {
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TRUST_USER")
      expect(await query("SELECT PSE_NAME, CERTIFICATE_NAME FROM SYS.PSE_CERTIFICATES")).toEqual([{ PSE_NAME: "TRUST_PSE", CERTIFICATE_NAME: "TRUST_ROOT" }])

      await run("ALTER PSE TRUST_PSE DROP CERTIFICATE TRUST_ROOT")
      expect(await query("SELECT * FROM SYS.PSE_CERTIFICATES")).toEqual([])
      // The PSE and its purpose stay; only the root it trusted is gone.
      expect(await query("SELECT PSE_NAME, PURPOSE FROM SYS.PSES")).toEqual([{ PSE_NAME: "TRUST_PSE", PURPOSE: "X509" }])
      await refused({ authenticationX509: FULL_PEM })

      await run("ALTER PSE TRUST_PSE ADD CERTIFICATE TRUST_ROOT")
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TRUST_USER")

      // While the PSE holds it the certificate cannot be dropped; once the PSE is dropped it can.
      expect((await failure(exec(admin, "DROP CERTIFICATE TRUST_ROOT"))).message).toContain("used by PSE TRUST_PSE")
      // CASCADE because the PSE still serves a purpose (whether HANA insists on it then is not confirmed).
      await run("DROP PSE TRUST_PSE CASCADE")
      expect(await query("SELECT * FROM SYS.PSES")).toEqual([])
      expect(await query("SELECT * FROM SYS.PSE_CERTIFICATES")).toEqual([])
      expect(await query("SELECT * FROM SYS.PSE_PURPOSE_OBJECTS")).toEqual([])
      await refused({ authenticationX509: FULL_PEM })
      // The certificate is still in the collection, but trusted by no PSE.
      expect(await query("SELECT CERTIFICATE_NAME FROM SYS.CERTIFICATES")).toEqual([{ CERTIFICATE_NAME: "TRUST_ROOT" }])
      expect((await failure(exec(admin, "ALTER PSE TRUST_PSE ADD CERTIFICATE TRUST_ROOT"))).message).toContain("PSE TRUST_PSE")

      // A new PSE with the same root and purpose gives the trust back.
      await run("CREATE PSE TRUST_PSE", "ALTER PSE TRUST_PSE ADD CERTIFICATE TRUST_ROOT", "SET PSE TRUST_PSE PURPOSE X509 FOR PROVIDER TRUST_X509")
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TRUST_USER")
    } finally {
      await run("DROP USER TRUST_USER", "DROP X509 PROVIDER TRUST_X509 CASCADE", "DROP PSE TRUST_PSE", "DROP CERTIFICATE TRUST_ROOT")
    }
    expect(await query("SELECT * FROM SYS.CERTIFICATES")).toEqual([])
  })

  it("maps subjects by the rules ALTER X509 PROVIDER … SET MATCHING RULES gives, and by none after UNSET MATCHING RULES", async () => {
    const RULE_ALPHA = "CN=*, OU=Section Alpha, O=Company One, L=Walldorf, SP=BW, C=DE"
    const RULE_BETA = "CN=*, OU=Section Beta, O=Company One, L=Walldorf, SP=BW, C=DE"
    const BETA_PEM = leaf("/C=DE/ST=BW/L=Walldorf/O=Company One/OU=Section Beta/CN=Test")
    const rules = () => query("SELECT X509_PROVIDER_NAME, MATCHING_RULES FROM SYS.X509_PROVIDERS")
    await run(
      `CREATE CERTIFICATE RULES_ROOT FROM '${root.ca}'`,
      "CREATE PSE RULES_PSE",
      "ALTER PSE RULES_PSE ADD CERTIFICATE RULES_ROOT",
      `CREATE X509 PROVIDER RULES_X509 WITH ISSUER '${ISSUER}' MATCHING RULES '${RULE_ALPHA}'`,
      "SET PSE RULES_PSE PURPOSE X509 FOR PROVIDER RULES_X509",
      // ANY: the rule's * names the user (CN=Test → TEST).
      "CREATE USER test WITH IDENTITY ANY FOR X509 PROVIDER RULES_X509"
    )
    try {
      expect(await rules()).toEqual([{ X509_PROVIDER_NAME: "RULES_X509", MATCHING_RULES: RULE_ALPHA }])
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TEST")
      await refused({ authenticationX509: BETA_PEM })

      await run(`ALTER X509 PROVIDER RULES_X509 SET MATCHING RULES '${RULE_BETA}'`)
      expect(await rules()).toEqual([{ X509_PROVIDER_NAME: "RULES_X509", MATCHING_RULES: RULE_BETA }])
      await refused({ authenticationX509: FULL_PEM })
      expect(await whoAmI({ authenticationX509: BETA_PEM })).toBe("TEST")

      // Several rules: a subject that matches any of them maps.
      await run(`ALTER X509 PROVIDER RULES_X509 SET MATCHING RULES '${RULE_ALPHA}', '${RULE_BETA}'`)
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TEST")
      expect(await whoAmI({ authenticationX509: BETA_PEM })).toBe("TEST")

      // Without rules only identities given with their subject map; ANY has nothing to go by.
      await run("ALTER X509 PROVIDER RULES_X509 UNSET MATCHING RULES")
      expect(await rules()).toEqual([{ X509_PROVIDER_NAME: "RULES_X509", MATCHING_RULES: null }])
      await refused({ authenticationX509: FULL_PEM })
      await refused({ authenticationX509: BETA_PEM })
      await run(`CREATE USER RULES_NAMED WITH IDENTITY '${SUBJECT}' FOR X509 PROVIDER RULES_X509`)
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("RULES_NAMED")
      await run("DROP USER RULES_NAMED")

      // Setting the first rule again restores the first mapping.
      await run(`ALTER X509 PROVIDER RULES_X509 SET MATCHING RULES '${RULE_ALPHA}'`)
      expect(await whoAmI({ authenticationX509: FULL_PEM })).toBe("TEST")
      await refused({ authenticationX509: BETA_PEM })
      expect((await failure(exec(admin, "ALTER X509 PROVIDER RULES_X509 SET MATCHING RULES 'not a name'"))).code).toBe(257)
      expect(await rules()).toEqual([{ X509_PROVIDER_NAME: "RULES_X509", MATCHING_RULES: RULE_ALPHA }])
    } finally {
      await run("DROP USER TEST", "DROP X509 PROVIDER RULES_X509 CASCADE", "DROP PSE RULES_PSE", "DROP CERTIFICATE RULES_ROOT")
    }
  })

  it("shows in SYS.USERS whether JWT and SAML logins are enabled: by identity, by ENABLE / DISABLE, never for a password-only user", async () => {
    const flags = (user: string) =>
      query(`SELECT IS_PASSWORD_ENABLED AS P, IS_X509_ENABLED AS X, IS_JWT_ENABLED AS J, IS_SAML_ENABLED AS S FROM SYS.USERS WHERE USER_NAME = '${user}'`)
    await run(
      "CREATE USER PW_ONLY PASSWORD Secret123 NO FORCE_FIRST_PASSWORD_CHANGE",
      "CREATE JWT PROVIDER FLAG_JWT WITH ISSUER 'https://idp.example' CLAIM 'user_name' AS EXTERNAL IDENTITY",
      "CREATE SAML PROVIDER FLAG_SAML WITH SUBJECT 'CN=SAML IdP, O=effect-adbc, C=DE' ISSUER 'CN=HANA X509 Tests Company One RootCA'",
      "CREATE USER JWT_ONLY WITH IDENTITY 'alice@example' FOR JWT PROVIDER FLAG_JWT",
      "CREATE USER SAML_ONLY WITH IDENTITY 'erin@example' FOR SAML PROVIDER FLAG_SAML",
      "CREATE USER BOTH_SSO PASSWORD Secret123 WITH IDENTITY 'bob@example' FOR JWT PROVIDER FLAG_JWT 'bob@example' FOR SAML PROVIDER FLAG_SAML"
    )
    try {
      expect(await flags("PW_ONLY")).toEqual([{ P: "TRUE", X: "FALSE", J: "FALSE", S: "FALSE" }])
      expect(await flags("JWT_ONLY")).toEqual([{ P: "FALSE", X: "FALSE", J: "TRUE", S: "FALSE" }])
      expect(await flags("SAML_ONLY")).toEqual([{ P: "FALSE", X: "FALSE", J: "FALSE", S: "TRUE" }])
      expect(await flags("BOTH_SSO")).toEqual([{ P: "TRUE", X: "FALSE", J: "TRUE", S: "TRUE" }])

      await run("ALTER USER JWT_ONLY DISABLE JWT", "ALTER USER SAML_ONLY DISABLE SAML", "ALTER USER BOTH_SSO DISABLE SAML")
      expect(await flags("JWT_ONLY")).toEqual([{ P: "FALSE", X: "FALSE", J: "FALSE", S: "FALSE" }])
      expect(await flags("SAML_ONLY")).toEqual([{ P: "FALSE", X: "FALSE", J: "FALSE", S: "FALSE" }])
      expect(await flags("BOTH_SSO")).toEqual([{ P: "TRUE", X: "FALSE", J: "TRUE", S: "FALSE" }])
      // The identities stay mapped while the mechanism is off.
      expect(await query("SELECT USER_NAME FROM SYS.JWT_USER_MAPPINGS ORDER BY USER_NAME")).toEqual([{ USER_NAME: "BOTH_SSO" }, { USER_NAME: "JWT_ONLY" }])

      await run("ALTER USER JWT_ONLY ENABLE JWT", "ALTER USER SAML_ONLY ENABLE SAML", "ALTER USER PW_ONLY ENABLE JWT")
      expect(await flags("JWT_ONLY")).toEqual([{ P: "FALSE", X: "FALSE", J: "TRUE", S: "FALSE" }])
      expect(await flags("SAML_ONLY")).toEqual([{ P: "FALSE", X: "FALSE", J: "FALSE", S: "TRUE" }])
      expect(await flags("PW_ONLY")).toEqual([{ P: "TRUE", X: "FALSE", J: "TRUE", S: "FALSE" }])
      await run("ALTER USER PW_ONLY DISABLE JWT", "ALTER USER PW_ONLY DISABLE PASSWORD")
      expect(await flags("PW_ONLY")).toEqual([{ P: "FALSE", X: "FALSE", J: "FALSE", S: "FALSE" }])
      await refused({ user: "PW_ONLY", password: "Secret123" })
      await run("ALTER USER PW_ONLY ENABLE PASSWORD")
      expect(await whoAmI({ user: "PW_ONLY", password: "Secret123" })).toBe("PW_ONLY")
    } finally {
      await run(
        "DROP USER PW_ONLY",
        "DROP USER JWT_ONLY",
        "DROP USER SAML_ONLY",
        "DROP USER BOTH_SSO",
        "DROP JWT PROVIDER FLAG_JWT CASCADE",
        "DROP SAML PROVIDER FLAG_SAML CASCADE"
      )
    }
    expect(await query("SELECT COUNT(*) AS N FROM SYS.USERS WHERE IS_JWT_ENABLED = 'TRUE' OR IS_SAML_ENABLED = 'TRUE'")).toEqual([{ N: 0 }])
  })
})

describe("HANA test server: certificate path validity (testkit/hana/identity/chain.ts)", () => {
  // hdb never sends an expired or not yet valid certificate of its own (see above), so the server's own check of the
  // client certificate's validity period is proven here, with the clock of the check moved instead.
  it("accepts a client certificate only within its own validity period and its issuers'", () => {
    const x509 = (pem: string) => new crypto.X509Certificate(pem)
    const from = new Date(Date.now() - 10 * DAY)
    const until = new Date(Date.now() - DAY)
    const expired = issueCertificate(interCa, "/C=DE/O=Company One/CN=Expired", [], { clientAuth: true, notBefore: from, notAfter: until })
    const path = (now: Date) => chainsTo(x509(expired.cert), [x509(inter.cert)], [x509(root.ca)], now)
    expect(path(new Date())).toBe(false)
    expect(path(new Date(from.getTime() - DAY))).toBe(false)
    // Within the leaf's own period, but before its issuers' periods began: refused too.
    expect(path(new Date(until.getTime() - DAY))).toBe(false)
    const fresh = issueCertificate(interCa, "/C=DE/O=Company One/CN=Fresh", [], { clientAuth: true })
    expect(chainsTo(x509(fresh.cert), [x509(inter.cert)], [x509(root.ca)])).toBe(true)
    expect(chainsTo(x509(fresh.cert), [x509(inter.cert)], [x509(root.ca)], new Date(Date.now() + 3 * DAY))).toBe(false)
  })
})
