import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Result } from "effect"
import { OptionRegistry, OptionStore, ResolvedOptions } from "../../src/Options.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { hdbClientOptions, resolveConnectConfig } from "../../layers/hana/ConnectConfig.ts"
import { HanaOptions } from "../../layers/hana/HanaOptions.ts"
import { HanaDriver, layerDatabaseConfig } from "../../layers/hana/index.ts"
import { parseUri } from "../../layers/hana/Uri.ts"

const registry = new OptionRegistry([...StandardOptions, ...HanaOptions])
const resolved = (entries: Record<string, string>) => {
  const store = OptionStore.make(registry, "database", entries)
  if (Result.isFailure(store)) throw store.failure
  return new ResolvedOptions([store.success])
}
const config = (entries: Record<string, string>) => resolveConnectConfig(resolved(entries))
const failureOf = <A, E extends { status: string; message: string }>(r: Result.Result<A, E>) => {
  if (Result.isSuccess(r)) throw new Error("expected failure")
  return r.failure
}

describe("URI", () => {
  it("parses credentials, host, port and every parameter with percent-decoding", () => {
    const uri = Result.getOrThrow(
      parseUri(
        "hdb://us%40er:p%40ss%3Aw%2Fd@db.example.com:30041?databaseName=H%20XE&defaultSchema=My%20Schema&timeout=7&pingInterval=30&TLSServerName=sni.example&TLSRootCAFile=%2Fa.pem&TLSRootCAFile=b.pem&TLSInsecureSkipVerify=false"
      )
    )
    expect(uri).toMatchObject({
      user: "us@er",
      password: "p@ss:w/d",
      host: "db.example.com",
      port: 30041,
      databaseName: "H XE",
      defaultSchema: "My Schema",
      timeoutSeconds: 7,
      pingIntervalSeconds: 30,
      tlsServerName: "sni.example",
      tlsRootCaFiles: ["/a.pem", "b.pem"],
      tlsInsecureSkipVerify: false
    })
  })

  it("accepts hana:// and IPv6 hosts; defaults the port", () => {
    expect(Result.getOrThrow(parseUri("hana://[::1]:39015")).host).toBe("::1")
    const plain = Result.getOrThrow(parseUri("hdb://localhost"))
    expect(plain.port).toBe(30015)
    expect(plain.portGiven).toBe(false)
    expect(plain.user).toBeUndefined()
  })

  it.each([
    ["", "must start with hdb://"],
    ["localhost:30015", "must start with hdb://"],
    ["postgres://h:1", "unsupported URI scheme"],
    ["hdb://", "no host"],
    ["hdb://h:0", "port"],
    ["hdb://h:99999", "port"],
    ["hdb://h:12ab", "port"],
    ["hdb://u:p%zz@h", "percent-encoded"],
    ["hdb://h/db", "path"],
    ["hdb://h?foo=1", "unknown URI parameter 'foo'"],
    ["hdb://h?timeout=abc", "timeout"],
    ["hdb://h?TLSInsecureSkipVerify=maybe", "TLSInsecureSkipVerify"]
  ])("rejects %j as INVALID_ARGUMENT", (uri, text) => {
    const error = failureOf(parseUri(uri))
    expect(error.status).toBe("INVALID_ARGUMENT")
    expect(error.message).toContain(text)
  })

  it("never echoes the password in an error", () => {
    const error = failureOf(parseUri("hdb://user:s3cretPW@h:notaport"))
    expect(error.message).not.toContain("s3cretPW")
  })
})

describe("authentication combinations (before any I/O)", () => {
  const base = { uri: "hdb://h:30015" }
  it.each([
    [{ "dba.auth.x509.cert_file": "c.pem" }, "must be paired with dba.auth.x509.key_file"],
    [{ "dba.auth.x509.key_file": "k.pem" }, "must be paired with dba.auth.x509.cert_file"],
    [{ "dba.auth.x509.cert": "-----BEGIN CERTIFICATE-----" }, "must be paired with dba.auth.x509.key"],
    [{ "dba.auth.x509.key": "-----BEGIN PRIVATE KEY-----" }, "must be paired with dba.auth.x509.cert"],
    [{ "dba.auth.x509.cert_file": "c.pem", "dba.auth.x509.key_file": "k.pem", "dba.auth.x509.cert": "x", "dba.auth.x509.key": "y" }, "mutually exclusive"],
    [{ "dba.auth.x509.cert_file": "c.pem", "dba.auth.x509.cert": "x" }, "mutually exclusive"],
    [{ "dba.auth.x509.cert_file": "c.pem", "dba.auth.x509.key_file": "k.pem", "dba.auth.jwt.token": "eyJ.a.b" }, "mutually exclusive"],
    [{ "dba.auth.x509.cert": "-----BEGIN CERTIFICATE-----", "dba.auth.x509.key": "k", "dba.auth.jwt.token": "eyJ.a.b" }, "mutually exclusive"],
    [{ "dba.auth.x509.cert": "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nk\n-----END PRIVATE KEY-----", "dba.auth.x509.key": "k" }, "combined"]
  ])("rejects %j", (entries, text) => {
    const error = failureOf(config({ ...base, ...entries }))
    expect(error.status).toBe("INVALID_ARGUMENT")
    expect(error.message).toContain(text)
    expect(error.message).not.toContain("eyJ.a.b")
  })

  it("missing uri is INVALID_ARGUMENT", () => {
    expect(failureOf(config({})).status).toBe("INVALID_ARGUMENT")
  })

  it("resolves basic (options win over URI credentials), JWT and X.509", () => {
    expect(Result.getOrThrow(config({ uri: "hdb://a:b@h", username: "U", password: "P" })).auth).toEqual({
      _tag: "Basic",
      user: "U",
      password: "P"
    })
    expect(Result.getOrThrow(config({ uri: "hdb://a:b@h" })).auth).toEqual({ _tag: "Basic", user: "a", password: "b" })
    expect(Result.getOrThrow(config({ uri: "hdb://h", "dba.auth.jwt.token": "eyJ" })).auth._tag).toBe("Jwt")
    expect(
      Result.getOrThrow(config({ uri: "hdb://h", "dba.auth.x509.cert_file": "c", "dba.auth.x509.key_file": "k" })).auth
    ).toEqual({ _tag: "X509Files", certFile: "c", keyFile: "k" })
  })

  it.effect("Database.layer fails before any I/O on a bad combination", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(Database.layer({ uri: "hdb://127.0.0.1:1", "dba.auth.x509.cert_file": "c.pem" }).pipe(
          Layer.provide(Layer.succeed(Driver, HanaDriver))
        )))
      )
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain("key_file")
    }))
})

describe("TLS resolution", () => {
  const tls = (entries: Record<string, string>) => Result.getOrThrow(config(entries)).tls
  it("is off by default and on for port 443 with the host as server name", () => {
    expect(tls({ uri: "hdb://h:30015" }).enabled).toBe(false)
    expect(tls({ uri: "hdb://db.example.com:443" })).toEqual({
      enabled: true,
      serverName: "db.example.com",
      rootCaFiles: [],
      insecureSkipVerify: false
    })
  })
  it("options override URI parameters one by one", () => {
    const t = tls({
      uri: "hdb://h:30015?TLSServerName=a&TLSRootCAFile=x.pem&TLSInsecureSkipVerify=true",
      "dba.tls.server_name": "b",
      "dba.tls.root_ca_file": "y.pem, z.pem",
      "dba.tls.insecure_skip_verify": "false"
    })
    expect(t).toEqual({ enabled: true, serverName: "b", rootCaFiles: ["y.pem", "z.pem"], insecureSkipVerify: false })
    expect(tls({ uri: "hdb://h:1?TLSRootCAFile=x.pem" })).toMatchObject({ enabled: true, rootCaFiles: ["x.pem"] })
  })
  it.effect("builds hdb options: verification on unless skipped, only the given roots trusted", () =>
    Effect.gen(function*() {
      const on = yield* hdbClientOptions(Result.getOrThrow(config({ uri: "hdb://u:p@h:443" })))
      expect(on).toMatchObject({ useTLS: true, servername: "h", rejectUnauthorized: true, dataFormatSupport: 8 })
      const off = yield* hdbClientOptions(
        Result.getOrThrow(config({ uri: "hdb://h:1", "dba.tls.insecure_skip_verify": "true" }))
      )
      expect(off["rejectUnauthorized"]).toBe(false)
      const missing = yield* Effect.exit(
        hdbClientOptions(Result.getOrThrow(config({ uri: "hdb://h:1", "dba.tls.root_ca_file": "/nonexistent.pem" })))
      )
      expect(String(missing)).toContain("cannot read root CA file")
    }))
})

describe("configuration from the environment", () => {
  it.effect("layerDatabaseConfig reads HANA_* variables through the same option schemas", () =>
    Effect.gen(function*() {
      const provider = ConfigProvider.fromEnv({
        env: { HANA_URI: "hdb://u:p@h:30015", HANA_DBA_STATEMENT_FETCH_SIZE: "0" }
      })
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(layerDatabaseConfig())).pipe(Effect.provide(ConfigProvider.layer(provider)))
      )
      expect(String(error)).toContain("dba.statement.fetch_size")
      const ok = yield* Effect.scoped(Layer.build(layerDatabaseConfig())).pipe(
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { HANA_URI: "hdb://u:p@h:30015" } })))
      )
      expect(ok).toBeDefined()
    }))
})
