/**
 * The CLI's optional peers: a missing one is reported with the command that installs it (the consumer check runs the
 * real case, `adbc ingest x.parquet` without parquet-wasm, in a scratch project), one that is installed but fails to
 * load is reported as such, not as missing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { loadOptionalPeer, loadOptionalPeers } from "../../cli/peers.ts"
import { readFileSync } from "node:fs"
import { NODE_FLOOR, nodeTooOld, resolvable } from "../../cli/packages.ts"

const failureOf = async (effect: Effect.Effect<unknown, { readonly status: string; readonly message: string }>) => {
  const exit = await Effect.runPromise(Effect.exit(effect))
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (error === undefined || error._tag !== "Fail") throw new Error(`expected a typed failure: ${String(exit.cause)}`)
  return error.error
}

describe("optional peer packages of the CLI", () => {
  it("names every missing peer of a driver or test server in one install command, without loading anything", async () => {
    let loaded = false
    const error = await failureOf(loadOptionalPeers(["@duckdb/node-api", "@duckdb/node-bindings", "oracledb"], "the Oracle test server", async () => (loaded = true), (name) => name === "@duckdb/node-bindings"))
    expect(loaded).toBe(false)
    expect(error.status).toBe("NOT_IMPLEMENTED")
    expect(error.message).toBe(
      "the Oracle test server needs @duckdb/node-api and oracledb, which effect-adbc lists as optional peers; install them next to effect-adbc: npm install @duckdb/node-api oracledb [NOT_IMPLEMENTED]"
    )
  })

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

describe("the Node floor", () => {
  const engines = (path: string) => (JSON.parse(readFileSync(path, "utf8")) as { engines?: { node?: string } }).engines?.node

  it("is one floor: package.json's engines, what adbc checks at start-up, and no lower than any runtime dependency's", () => {
    expect(engines("package.json")).toBe(`>=${NODE_FLOOR.replace(/\.0$/, "")}`)
    for (const name of ["@effect/platform-node", "@effect/platform-node-shared", "undici", "hdb", "oracledb", "string-width"]) {
      const floor = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(engines(`node_modules/${name}/package.json`) ?? "0")!
      const version = `${floor[1]}.${floor[2] ?? 0}.${floor[3] ?? 0}`
      expect(compareVersions(version, NODE_FLOOR), `${name} needs Node ${version}, above the package's ${NODE_FLOOR}`).toBeLessThanOrEqual(0)
    }
  })

  it("tells a too old Node with the floor and the running version, and lets the floor and later through", () => {
    expect(nodeTooOld("22.12.0")).toBe(`needs Node.js ${NODE_FLOOR} or later; this is 22.12.0 (https://nodejs.org)`)
    expect(nodeTooOld("v20.20.2")).toMatch(/^needs Node\.js 22\.19\.0 or later; this is v20\.20\.2/)
    expect(nodeTooOld("22.19.0")).toBeUndefined()
    expect(nodeTooOld("24.0.0")).toBeUndefined()
    expect(nodeTooOld(process.versions.node)).toBeUndefined()
  })
})

const compareVersions = (a: string, b: string): number => {
  const pa = a.split(".").map(Number)
  const pb = b.split(".").map(Number)
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0)
  return 0
}
