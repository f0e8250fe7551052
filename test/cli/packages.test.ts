/**
 * The CLI's optional peers: a missing one is reported with the command that installs it (the consumer check runs the
 * real case, `adbc ingest x.parquet` without parquet-wasm, in a scratch project), one that is installed but fails to
 * load is reported as such, not as missing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { loadOptionalPeer } from "../../cli/files.ts"
import { resolvable } from "../../cli/packages.ts"

const failureOf = async (effect: Effect.Effect<unknown, { readonly status: string; readonly message: string }>) => {
  const exit = await Effect.runPromise(Effect.exit(effect))
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (error === undefined || error._tag !== "Fail") throw new Error(`expected a typed failure: ${String(exit.cause)}`)
  return error.error
}

describe("optional peer packages of the CLI", () => {
  it("resolves installed packages and not absent ones", () => {
    expect(resolvable("parquet-wasm")).toBe(true)
    expect(resolvable("csv-parse")).toBe(true)
    expect(resolvable("parquet-wasm-not-installed-anywhere")).toBe(false)
  })

  it("names the npm install command for Parquet when parquet-wasm is missing, without trying to load it", async () => {
    let loaded = false
    const error = await failureOf(loadOptionalPeer("parquet-wasm", "reading Parquet", async () => (loaded = true), () => false))
    expect(loaded).toBe(false)
    expect(error.status).toBe("NOT_IMPLEMENTED")
    expect(error.message).toMatch(
      /^reading Parquet needs parquet-wasm, which effect-adbc lists as an optional peer; install it next to effect-adbc: npm install parquet-wasm\b/
    )
  })

  it("reports an installed package that fails to load as a load failure, not as missing", async () => {
    const error = await failureOf(loadOptionalPeer("parquet-wasm", "reading Parquet", () => Promise.reject(new Error("wasm init failed"))))
    expect(error.status).toBe("INTERNAL")
    expect(error.message).toMatch(/^cannot load parquet-wasm: wasm init failed\b/)
    expect(error.message).not.toContain("npm install")
  })

  it("loads an installed package", async () => {
    const parquet = await Effect.runPromise(loadOptionalPeer("parquet-wasm", "reading Parquet", () => import("parquet-wasm")))
    expect(typeof parquet.ParquetFile.fromFile).toBe("function")
  })
})
