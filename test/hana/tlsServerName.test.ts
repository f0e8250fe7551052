import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Result, Stream } from "effect"
import { hdbClientOptions, resolveConnectConfig } from "../../layers/hana/ConnectConfig.ts"
import * as Hana from "../../layers/hana/index.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { generateTestCertificates } from "../../testkit/hana/index.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// A TLS connection to an IP address sends no SNI name, so Node prints no DEP0123 warning.
const certs = generateTestCertificates()
const server = useServer({ tls: { key: certs.key, cert: certs.cert, ca: certs.ca } })
const caFile = () => {
  const path = join(mkdtempSync(join(tmpdir(), "hana-sni-")), "ca.pem")
  writeFileSync(path, certs.ca)
  return path
}

const clientOptions = (options: Record<string, string>) =>
  Effect.gen(function*() {
    const driver = yield* Database.make(options).pipe(Effect.provide(Hana.layer))
    return yield* hdbClientOptions(Result.getOrThrow(resolveConnectConfig(driver.options())))
  })

describe("TLS server name", () => {
  it.effect("an IP host gets no SNI name; a host name keeps it", () =>
    Effect.gen(function*() {
      const ip = yield* clientOptions({ uri: "hdb://u:p@127.0.0.1:443" })
      expect("servername" in ip).toBe(true)
      expect(ip["servername"]).toBeUndefined()
      const named = yield* clientOptions({ uri: "hdb://u:p@db.example:443" })
      expect(named["servername"]).toBe("db.example")
    }))

  it.effect.skipIf(realHana)("connecting over TLS to 127.0.0.1 prints no DEP0123 and verifies the certificate", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const onWarning = (w: Error & { code?: string }) => warnings.push(String(w.code ?? w.message))
      process.on("warning", onWarning)
      const port = server.uri.replace(/^.*:(\d+).*$/, "$1")
      const user = yield* withConnection(
        `hdb://SYSTEM:Manager1@127.0.0.1:${port}`,
        Effect.flatMap(Connection.Connection, (conn) =>
          Effect.map(Stream.runCollect(conn.query("SELECT CURRENT_USER AS U FROM DUMMY")), (b) => String(b[0]!.getChild("U")!.get(0)))),
        { "dba.tls.root_ca_file": caFile() }
      ).pipe(Effect.ensuring(Effect.sync(() => process.off("warning", onWarning))))
      expect(user).toBe("SYSTEM")
      yield* Effect.promise(() => new Promise((r) => setTimeout(r, 50)))
      expect(warnings).not.toContain("DEP0123")
    }))
})
