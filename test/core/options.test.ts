import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Result } from "effect"
import * as fc from "fast-check"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { decodeOption, envName, OptionRegistry, OptionSchemas, OptionStore, ResolvedOptions } from "../../src/Options.ts"
import * as Std from "../../src/StandardOptions.ts"
import { memoryDriver, MemoryServer, PageRows, ReadBatchRows } from "../support/MemoryDriver.ts"

const registry = Database.registryFor(memoryDriver(new MemoryServer()))

describe("option decoding", () => {
  it("accepts exactly the positive integers for a positive-integer option", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e9, max: 1e9 }).map(String), fc.string(), fc.double().map(String)), (raw) => {
        const decoded = decodeOption(PageRows, raw)
        const n = Number(raw)
        const expected = raw.trim() !== "" && Number.isSafeInteger(n) && n > 0
        expect(Result.isSuccess(decoded)).toBe(expected)
        if (Result.isSuccess(decoded)) expect(decoded.success).toBe(n)
      })
    )
  })

  it("booleans are exactly `true` and `false`", () => {
    expect(Result.getOrThrow(decodeOption(Std.Autocommit, "true"))).toBe(true)
    expect(Result.getOrThrow(decodeOption(Std.Autocommit, "false"))).toBe(false)
    for (const bad of ["TRUE", "yes", "1", ""]) expect(Result.isFailure(decodeOption(Std.Autocommit, bad))).toBe(true)
  })

  it("an invalid value is INVALID_ARGUMENT naming the key, the value and what is accepted", () => {
    const result = decodeOption(ReadBatchRows, "-5")
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      expect(result.failure.status).toBe("INVALID_ARGUMENT")
      expect(result.failure.message).toContain("mem.read_batch_rows")
      expect(result.failure.message).toContain("'-5'")
      expect(result.failure.message).toContain("a positive integer")
    }
  })

  it("never echoes a secret value", () => {
    const secret = "not-a-token-s3cr3t"
    const result = registry.validate("database", "mem.token", secret)
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      expect(result.failure.message).toContain("mem.token")
      expect(result.failure.message).toContain("a token starting with tok-")
      expect(result.failure.message).not.toContain(secret)
    }
    const mode = registry.validate("statement", Std.IngestMode.key, "adbc.ingest.mode.nope")
    expect(Result.isFailure(mode) && mode.failure.message).toContain("adbc.ingest.mode.create_append")
  })

  it("unknown keys fail NOT_IMPLEMENTED on set, keys at the wrong level too", () => {
    const unknown = registry.validate("connection", "dba.nope", "1")
    expect(Result.isFailure(unknown) && unknown.failure.status).toBe("NOT_IMPLEMENTED")
    const misplaced = registry.validate("connection", Std.IngestTargetTable.key, "t")
    expect(Result.isFailure(misplaced) && misplaced.failure.status).toBe("NOT_IMPLEMENTED")
    expect(Result.isFailure(misplaced) && misplaced.failure.message).toContain("statement")
  })
})

describe("option precedence", () => {
  const store = (level: "database" | "connection" | "statement", values: Record<string, string>) =>
    Result.getOrThrow(OptionStore.make(registry, level, values))

  it("the narrowest level that sets a key wins", () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
        (db, conn, stmt) => {
          const entry = (v: number | undefined): Record<string, string> => (v === undefined ? {} : { [PageRows.key]: String(v) })
          const resolved = new ResolvedOptions([store("statement", entry(stmt)), store("connection", entry(conn)), store("database", entry(db))])
          expect(resolved.get(PageRows)).toBe(stmt ?? conn ?? db)
          expect(resolved.getOr(PageRows, 7)).toBe(stmt ?? conn ?? db ?? 7)
        }
      )
    )
  })

  it("secrets() lists secret values and the password inside a URI", () => {
    const resolved = new ResolvedOptions([store("database", { uri: "hdb://u:p%40ss@h:1", password: "pw", "mem.token": "tok-1" })])
    expect(resolved.secrets()).toEqual(expect.arrayContaining(["hdb://u:p%40ss@h:1", "p%40ss", "p@ss", "pw", "tok-1"]))
  })
})

describe("options from Config", () => {
  const driverLayer = Layer.succeed(Driver, memoryDriver(new MemoryServer()))
  const load = (env: Record<string, string>) =>
    Effect.gen(function*() {
      const db = yield* Database.Database
      return db
    }).pipe(
      Effect.provide(Database.layerConfig("MEM_").pipe(Layer.provide(driverLayer))),
      Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env })))
    )

  it("env names are the key upper-cased with dots as underscores", () => {
    expect(envName("HANA_", "dba.statement.fetch_size")).toBe("HANA_DBA_STATEMENT_FETCH_SIZE")
  })

  it.effect("loads valid values through the same schemas", () =>
    Effect.gen(function*() {
      const db = yield* load({ MEM_URI: "mem://x", MEM_MEM_PAGE_ROWS: "3" })
      expect(db.options().get(PageRows)).toBe(3)
      expect(yield* db.getOption("uri")).toBe("mem://x")
    }))

  it.effect("a bad value fails at config load, naming the variable and what is accepted", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(load({ MEM_URI: "mem://x", MEM_MEM_PAGE_ROWS: "zero" }))
      expect(Exit.isFailure(exit)).toBe(true)
      const text = String(Exit.isFailure(exit) ? exit.cause : "")
      expect(text).toContain("MEM_MEM_PAGE_ROWS")
      expect(text).toContain("a positive integer")
    }))

  it.effect("a bad secret fails without echoing it", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(load({ MEM_URI: "mem://x", MEM_MEM_TOKEN: "s3cr3t-value" }))
      expect(Exit.isFailure(exit)).toBe(true)
      const text = String(Exit.isFailure(exit) ? exit.cause : "")
      expect(text).toContain("mem.token")
      expect(text).not.toContain("s3cr3t-value")
    }))
})

describe("OptionSchemas", () => {
  it("literals accept only the listed values", () => {
    const schema = OptionSchemas.literals(["a", "b"])
    const spec = { key: "k", schema, accepted: "a or b", levels: ["statement"] as const }
    expect(Result.isSuccess(decodeOption(spec, "a"))).toBe(true)
    expect(Result.isFailure(decodeOption(spec, "c"))).toBe(true)
  })

  it("a registry built from specs looks keys up", () => {
    const r = new OptionRegistry([PageRows])
    expect(r.lookup("mem.page_rows")).toBe(PageRows)
    expect(r.lookup("nope")).toBeUndefined()
  })
})
