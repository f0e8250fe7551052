import * as crypto from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { formatName, issuerOf, matchRule, parseName, sameName, subjectOf } from "../../testkit/hana/identity/dn.ts"
import { generateCertificateAuthority, issueCertificate } from "../../testkit/hana/index.ts"

describe("HANA distinguished names (testkit/hana/identity/dn.ts)", () => {
  it("prints a certificate's names most specific first with SP for stateOrProvinceName, as HANA stores them", () => {
    const ca = generateCertificateAuthority("/C=DE/ST=BW/L=Walldorf/O=Company One, Inc./CN=Section Alpha")
    const leaf = issueCertificate(ca, "/C=DE/ST=BW/O=Company One/OU=Section Alpha/CN=Test", [], { clientAuth: true })
    const cert = new crypto.X509Certificate(leaf.cert)
    expect(formatName(subjectOf(cert))).toBe("CN=Test, OU=Section Alpha, O=Company One, SP=BW, C=DE")
    expect(formatName(issuerOf(cert))).toBe("CN=Section Alpha, O=Company One\\, Inc., L=Walldorf, SP=BW, C=DE")
    // A comma inside a value is escaped, and the escaped form parses back to the same name.
    expect(sameName(parseName(formatName(issuerOf(cert)))!, issuerOf(cert))).toBe(true)
  })

  it("parses names regardless of spacing and attribute spelling, but not regardless of order", () => {
    const hana = parseName("CN=Section Alpha, O=Company One, L=Walldorf, SP=BW, C=DE")!
    expect(sameName(parseName(" cn = Section Alpha ,O=Company One,L=Walldorf,ST=BW,C=DE")!, hana)).toBe(true)
    expect(sameName(parseName("C=DE, ST=BW, L=Walldorf, O=Company One, CN=Section Alpha")!, hana)).toBe(false)
    expect(parseName("not a name")).toBeUndefined()
    expect(parseName("")).toBeUndefined()
  })

  it("captures the user name a matching rule's * stands for", () => {
    const rule = parseName("CN=*, OU=Section Alpha, O=Company One")!
    expect(matchRule(rule, parseName("CN=Test, OU=Section Alpha, O=Company One")!)).toBe("Test")
    expect(matchRule(rule, parseName("CN=Test, OU=Section Beta, O=Company One")!)).toBeUndefined()
    expect(matchRule(rule, parseName("CN=Test, O=Company One")!)).toBeUndefined()
  })
})
