/**
 * The SYS views over the identity store: CERTIFICATES, PSES, PSE_CERTIFICATES, PSE_PURPOSE_OBJECTS, X509_PROVIDERS,
 * X509_USER_MAPPINGS, JWT_PROVIDERS, JWT_USER_MAPPINGS, SAML_PROVIDERS, SAML_USER_MAPPINGS, and the identity columns
 * of USERS (IS_X509_ENABLED, IS_JWT_ENABLED, IS_SAML_ENABLED, IS_PASSWORD_ENABLED; the table behind them is made by
 * ../catalog.ts). Each view reads a table that is rewritten from the store after every security statement. View and
 * column names after the SAP HANA System Views Reference; only the columns listed in testkit/hana/README.md exist.
 */
import type { Session } from "../../engine/index.ts"
import { ticksOfMicros } from "../longdate.ts"
import { quoteString } from "../names.ts"
import { attributeOf, formatName, issuerOf, parseName, subjectOf } from "./dn.ts"
import type { IdentityStore } from "./store.ts"

type Cell = string | number | boolean | Date | undefined

const TABLES: Readonly<Record<string, string>> = {
  CERTIFICATES: `CERTIFICATE_ID BIGINT, CERTIFICATE_NAME VARCHAR, OWNER_NAME VARCHAR, SUBJECT_COMMON_NAME VARCHAR,
    SUBJECT_DISTINGUISHED_NAME VARCHAR, ISSUER_COMMON_NAME VARCHAR, ISSUER_DISTINGUISHED_NAME VARCHAR, SERIAL_NUMBER VARCHAR,
    VALID_FROM UBIGINT, VALID_UNTIL UBIGINT, FINGERPRINT VARCHAR, CERTIFICATE_DATA VARCHAR, COMMENT VARCHAR, CREATE_TIME UBIGINT`,
  PSES: `PSE_NAME VARCHAR, OWNER_NAME VARCHAR, PURPOSE VARCHAR, CREATE_TIME UBIGINT`,
  PSE_CERTIFICATES: `PSE_NAME VARCHAR, CERTIFICATE_ID BIGINT, CERTIFICATE_NAME VARCHAR`,
  PSE_PURPOSE_OBJECTS: `PSE_NAME VARCHAR, PURPOSE VARCHAR, PURPOSE_OBJECT VARCHAR`,
  X509_PROVIDERS: `X509_PROVIDER_NAME VARCHAR, ISSUER_NAME VARCHAR, MATCHING_RULES VARCHAR`,
  X509_USER_MAPPINGS: `USER_NAME VARCHAR, SUBJECT_NAME VARCHAR, ISSUER_NAME VARCHAR, X509_PROVIDER_NAME VARCHAR`,
  JWT_PROVIDERS: `JWT_PROVIDER_NAME VARCHAR, ISSUER_NAME VARCHAR, EXTERNAL_IDENTITY_CLAIM VARCHAR, CASE_SENSITIVE_IDENTITY VARCHAR`,
  JWT_USER_MAPPINGS: `USER_NAME VARCHAR, EXTERNAL_IDENTITY VARCHAR, JWT_PROVIDER_NAME VARCHAR`,
  SAML_PROVIDERS: `SAML_PROVIDER_NAME VARCHAR, SUBJECT_NAME VARCHAR, ISSUER_NAME VARCHAR`,
  SAML_USER_MAPPINGS: `USER_NAME VARCHAR, EXTERNAL_IDENTITY VARCHAR, SAML_PROVIDER_NAME VARCHAR`
}

/** Statements that create the identity views and their tables (run once at start-up, after ../catalog.ts). */
export const identityCatalogSql = (): string =>
  Object.entries(TABLES)
    .map(([view, columns]) => `CREATE TABLE "SYS"."_${view}" (${columns}); CREATE VIEW "SYS"."${view}" AS SELECT * FROM "SYS"."_${view}"`)
    .join(";\n")

const literal = (v: Cell): string =>
  v === undefined
    ? "NULL"
    : typeof v === "number"
      ? String(v)
      : typeof v === "boolean"
        ? quoteString(v ? "TRUE" : "FALSE")
        : v instanceof Date
          ? `CAST(${ticksOfMicros(BigInt(v.getTime()) * 1000n)} AS UBIGINT)`
          : quoteString(v)

const fill = (table: string, rows: readonly Cell[][]): string =>
  `DELETE FROM "SYS"."${table}"` + (rows.length === 0 ? "" : `; INSERT INTO "SYS"."${table}" VALUES ${rows.map((r) => `(${r.map(literal).join(", ")})`).join(", ")}`)

/** HANA's form of a distinguished name given in SQL (spaces normalised), or the text itself. */
const normalName = (text: string): string => {
  const name = parseName(text)
  return name === undefined ? text : formatName(name)
}

/** Rewrites the identity tables from the store. */
export const syncIdentityCatalog = async (session: Session, store: IdentityStore): Promise<void> => {
  const certificates = [...store.certificates.values()]
  const pses = [...store.pses.values()]
  const users = [...store.users.entries()]
  const identities = users.flatMap(([user, auth]) => auth.identities.map((i) => ({ user, i })))
  const statements = [
    fill("_CERTIFICATES", certificates.map((c) => {
      const subject = subjectOf(c.cert)
      const issuer = issuerOf(c.cert)
      return [
        c.id, c.name, "SYSTEM", attributeOf(subject, "CN"), formatName(subject), attributeOf(issuer, "CN"), formatName(issuer),
        c.cert.serialNumber, new Date(c.cert.validFrom), new Date(c.cert.validTo), c.cert.fingerprint256, c.pem, c.comment, c.created
      ]
    })),
    fill("_PSES", pses.map((p) => [p.name, "SYSTEM", [...p.purposes.keys()][0], p.created])),
    fill("_PSE_CERTIFICATES", pses.flatMap((p) => [...p.certificates].map((id) => [p.name, id, certificates.find((c) => c.id === id)?.name]))),
    fill("_PSE_PURPOSE_OBJECTS", pses.flatMap((p) => [...p.purposes.entries()].flatMap(([purpose, providers]) => providers.map((o) => [p.name, purpose, o])))),
    fill("_X509_PROVIDERS", [...store.x509Providers.values()].map((p) => [p.name, formatName(p.issuer), p.rules.length === 0 ? undefined : p.rules.map(formatName).join("; ")])),
    fill("_X509_USER_MAPPINGS", identities.flatMap(({ user, i }) =>
      i.kind !== "X509"
        ? []
        : i.provider === undefined
          ? [[user, normalName(i.subject), normalName(i.issuer), undefined]]
          : [[user, i.subject === undefined ? "ANY" : normalName(i.subject), formatName(store.x509Providers.get(i.provider)?.issuer ?? []), i.provider]])),
    fill("_JWT_PROVIDERS", [...store.jwtProviders.values()].map((p) => [p.name, p.issuer, p.claim, p.caseSensitive])),
    fill("_JWT_USER_MAPPINGS", identities.flatMap(({ user, i }) => (i.kind === "JWT" ? [[user, i.name ?? "ANY", i.provider]] : []))),
    fill("_SAML_PROVIDERS", [...store.samlProviders.values()].map((p) => [p.name, formatName(p.subject), formatName(p.issuer)])),
    fill("_SAML_USER_MAPPINGS", identities.flatMap(({ user, i }) => (i.kind === "SAML" ? [[user, i.name ?? "ANY", i.provider]] : []))),
    fill("_USER_AUTHENTICATION", users.map(([user]) => [
      user, store.enabled(user, "PASSWORD"), store.enabled(user, "X509"), store.enabled(user, "JWT"), store.enabled(user, "SAML")
    ]))
  ]
  await session.execute(statements.join(";\n"))
}
