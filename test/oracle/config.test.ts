import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { OptionRegistry, OptionStore, ResolvedOptions } from "../../src/Options.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import { connectionAttributes, DEFAULT_SDU, resolveConnectConfig, timeZoneSql } from "../../layers/oracle/ConnectConfig.ts"
import * as Opt from "../../layers/oracle/OracleOptions.ts"
import { parseDurationMs, parseUri, URI_PARAMETERS } from "../../layers/oracle/Uri.ts"

const registry = new OptionRegistry([...StandardOptions, ...Opt.OracleOptions])
const store = (level: "database" | "connection" | "statement", entries: Record<string, string>) => {
  const s = OptionStore.make(registry, level, entries)
  if (Result.isFailure(s)) throw s.failure
  return s.success
}
const resolved = (entries: Record<string, string>) => new ResolvedOptions([store("database", entries)])
const failureOf = <A, E extends { status: string; message: string }>(r: Result.Result<A, E>) => {
  if (Result.isSuccess(r)) throw new Error("expected failure")
  return r.failure
}

describe("URI", () => {
  it("parses credentials, host, port, Easy Connect Plus path and parameters with percent-decoding", () => {
    const uri = Result.getOrThrow(
      parseUri(
        "oracle://us%40er:p%40ss%3Aw%2Fd@db.example.com:1599/FREE%50DB1:pooled/inst1?connectTimeout=10s&transportConnectTimeout=1500ms&expireTime=2m&configDir=%2Fopt%2Ftns&sdu=16384&stmtCacheSize=0&timezone=UTC"
      )
    )
    expect(uri).toMatchObject({
      user: "us@er",
      password: "p@ss:w/d",
      host: "db.example.com",
      port: 1599,
      serviceName: "FREEPDB1",
      serverType: "pooled",
      instanceName: "inst1",
      connectString: "db.example.com:1599/FREEPDB1:pooled/inst1",
      connectTimeoutMs: 10_000,
      transportConnectTimeoutMs: 1500,
      expireTimeMs: 120_000,
      configDir: "/opt/tns",
      sdu: 16384,
      stmtCacheSize: 0,
      timezone: "UTC"
    })
  })

  it("defaults the port to 1521 and allows no service name", () => {
    const uri = Result.getOrThrow(parseUri("oracle://h"))
    expect(uri.port).toBe(1521)
    expect(uri.connectString).toBe("h:1521")
    expect(uri.user).toBeUndefined()
    expect(Result.getOrThrow(parseUri("oracle://[::1]/XE")).connectString).toBe("[::1]:1521/XE")
  })

  it("accepts durations with ms, s, m and h suffixes and bare seconds", () => {
    expect(parseDurationMs("30ms")).toBe(30)
    expect(parseDurationMs("10s")).toBe(10_000)
    expect(parseDurationMs("1m")).toBe(60_000)
    expect(parseDurationMs("1h30m")).toBe(5_400_000)
    expect(parseDurationMs("7")).toBe(7000)
    expect(parseDurationMs("ten")).toBeUndefined()
    expect(parseDurationMs("10 s")).toBeUndefined()
  })

  it("passes native connect strings through: Easy Connect, descriptors and tnsnames aliases", () => {
    expect(Result.getOrThrow(parseUri("dbhost:1522/orclpdb")).connectString).toBe("dbhost:1522/orclpdb")
    const descriptor = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=S)))"
    expect(Result.getOrThrow(parseUri(descriptor)).connectString).toBe(descriptor)
    expect(Result.getOrThrow(parseUri("tcps://h:2484/s")).connectString).toBe("tcps://h:2484/s")
    const alias = Result.getOrThrow(parseUri("oracle://u:p@/MYDB_HIGH?configDir=%2Fetc%2Ftns"))
    expect(alias).toMatchObject({ user: "u", password: "p", tnsAlias: "MYDB_HIGH", connectString: "MYDB_HIGH", configDir: "/etc/tns" })
  })

  it("rejects unknown parameters naming the accepted ones, and bad values, without echoing the password", () => {
    const unknown = failureOf(parseUri("oracle://u:secretpw@h/S?poolTimeout=5"))
    expect(unknown.status).toBe("INVALID_ARGUMENT")
    expect(unknown.message).toContain("poolTimeout")
    for (const name of URI_PARAMETERS) expect(unknown.message).toContain(name)
    expect(unknown.message).not.toContain("secretpw")
    expect(failureOf(parseUri("oracle://h/S?connectTimeout=soon")).message).toContain("10s, 30ms or 1m")
    expect(failureOf(parseUri("oracle://h:0/S")).message).toContain("1 to 65535")
    expect(failureOf(parseUri("oracle://h/S:exclusive")).message).toContain("dedicated, shared, pooled")
    expect(failureOf(parseUri("oracle://h/S/i/x")).status).toBe("INVALID_ARGUMENT")
    expect(failureOf(parseUri("oracle://u:p@/ALIAS")).message).toContain("configDir")
    expect(failureOf(parseUri("oracle://u:%zz@h")).message).toContain("percent-encoded")
    expect(failureOf(parseUri("hdb://h")).message).toContain("oracle://")
    expect(failureOf(parseUri("(ADDRESS=(HOST=h))")).message).toContain("DESCRIPTION")
  })
})

describe("connect configuration", () => {
  it("options win over URI credentials; timeouts round up to node-oracledb's whole seconds", () => {
    const config = Result.getOrThrow(
      resolveConnectConfig(resolved({ uri: "oracle://a:b@h/S?connectTimeout=30ms&expireTime=90s", username: "app", password: "pw" }))
    )
    expect(config.user).toBe("app")
    expect(config.password).toBe("pw")
    expect(connectionAttributes(config)).toEqual({
      connectString: "h:1521/S",
      user: "app",
      password: "pw",
      connectTimeout: 1,
      expireTime: 2,
      sdu: 65_536
    })
  })

  it("asks for a 64 KiB SDU on an oracle://host URI unless it sets sdu; whole connect strings keep their own", () => {
    const attributes = (uri: string) => connectionAttributes(Result.getOrThrow(resolveConnectConfig(resolved({ uri }))))
    expect(DEFAULT_SDU).toBe(65_536)
    expect(attributes("oracle://h/S")["sdu"]).toBe(65_536)
    expect(attributes("oracle://h/S?sdu=8192")["sdu"]).toBe(8192)
    expect(attributes("oracle://h/S?sdu=2097152")["sdu"]).toBe(2_097_152)
    expect(attributes("oracle://u:p@/ALIAS?configDir=%2Fopt%2Ftns")).not.toHaveProperty("sdu")
    expect(attributes("(DESCRIPTION=(SDU=16384)(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=S)))")).not.toHaveProperty("sdu")
    expect(attributes("h:1521/S")).not.toHaveProperty("sdu")
  })

  it("the timezone option beats the URI parameter and becomes ALTER SESSION; UTC is +00:00, also without either", () => {
    const config = Result.getOrThrow(resolveConnectConfig(resolved({ uri: "oracle://h/S?timezone=-05:00", timezone: "UTC" })))
    expect(timeZoneSql(config)).toBe("ALTER SESSION SET TIME_ZONE = '+00:00'")
    const region = Result.getOrThrow(resolveConnectConfig(resolved({ uri: "oracle://h/S", timezone: "America/New_York" })))
    expect(timeZoneSql(region)).toBe("ALTER SESSION SET TIME_ZONE = 'America/New_York'")
    expect(timeZoneSql(Result.getOrThrow(resolveConnectConfig(resolved({ uri: "oracle://h/S" }))))).toBe("ALTER SESSION SET TIME_ZONE = '+00:00'")
    expect(failureOf(resolveConnectConfig(resolved({ uri: "oracle://h/S", timezone: "x'; DROP" }))).status).toBe("INVALID_ARGUMENT")
  })

  it("requires a uri", () => {
    expect(failureOf(resolveConnectConfig(resolved({}))).message).toContain("oracle://")
  })
})

describe("redo.* options", () => {
  const valid: ReadonlyArray<readonly [string, ReadonlyArray<string>, ReadonlyArray<string>]> = [
    ["redo.query.day_time_interval_type", ["auto", "duration", "monthdaynano", "string"], ["nanos", ""]],
    ["redo.query.year_month_interval_type", ["auto", "monthdaynano", "string"], ["duration"]],
    ["redo.query.unbounded_number_type", ["float64", "string", "int64"], ["decimal"]],
    ["redo.use_extension_type", ["true", "false"], ["yes"]],
    ["redo.use_high_precision", ["true", "false"], ["1"]],
    ["redo.statement.execution_mode", ["row", "batch"], ["arrow"]],
    ["redo.statement.prefetch_bytes", ["1", "1048576"], ["0", "-1", "1.5"]],
    ["redo.statement.prefetch_rows", ["1", "100"], ["0", "x"]],
    ["redo.statement.fetch_array_size", ["1", "10000"], ["0"]],
    ["redo.statement.read_batch_approx_bytes", ["0", "4096"], ["-1", "1e"]],
    ["redo.statement.read_batch_rows", ["1", "65536"], ["0"]],
    ["redo.statement.insert_batch_rows", ["1", "65536"], ["0"]],
    ["redo.ingest.struct_type", ["blob", "json", "nvarchar2", "object"], ["clob"]],
    ["redo.ingest.tablespace", ["USERS"], [""]]
  ]

  it("declares every option of the specification at every level, with its accepted values and range", () => {
    for (const [key, good, bad] of valid) {
      for (const level of ["database", "connection", "statement"] as const) {
        for (const value of good) expect(Result.isSuccess(registry.validate(level, key, value))).toBe(true)
      }
      for (const value of bad) {
        const failure = failureOf(registry.validate("statement", key, value))
        expect(failure.status).toBe("INVALID_ARGUMENT")
        expect(failure.message).toContain(key)
      }
    }
  })

  it("the narrowest level wins and defaults apply when unset", () => {
    const options = new ResolvedOptions([
      store("statement", { "redo.statement.read_batch_rows": "10" }),
      store("connection", { "redo.statement.read_batch_rows": "20", "redo.statement.execution_mode": "batch" }),
      store("database", { "redo.statement.execution_mode": "row", "redo.use_high_precision": "false" })
    ])
    expect(options.get(Opt.ReadBatchRows)).toBe(10)
    expect(options.get(Opt.ExecutionMode)).toBe("batch")
    expect(options.get(Opt.UseHighPrecision)).toBe(false)
    expect(options.value(Opt.InsertBatchRows)).toBe(65_536)
    expect(options.value(Opt.PrefetchRows)).toBe(1)
    expect(options.value(Opt.ReadBatchApproxBytes)).toBe(0)
  })

  it("timezone is a connection-level option, not a statement option", () => {
    expect(Result.isSuccess(registry.validate("connection", "timezone", "UTC"))).toBe(true)
    expect(failureOf(registry.validate("statement", "timezone", "UTC")).status).toBe("NOT_IMPLEMENTED")
  })
})
