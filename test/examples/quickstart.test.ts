import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Connection from "../../src/Connection.ts"
import * as Hana from "../../layers/hana/index.ts"
import { HanaTestServer } from "../../testkit/hana/index.ts"
import { cities, quickstart } from "../../examples/quickstart.ts"

const database = Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
  Layer.provide(HanaTestServer.layer({}))
)

describe("examples/quickstart on the HANA test server", () => {
  it.effect("reads back exactly what it ingested, sorted by population", () =>
    Effect.gen(function*() {
      const table = yield* quickstart
      const expected = [...cities].map((r) => r.toJSON()).sort((a, b) => Number(b.POPULATION - a.POPULATION))
      expect([...table].map((r) => r.toJSON())).toEqual(expected)
      expect(table.schema.fields.map((f) => String(f.type))).toEqual(["Utf8", "Int64", "Float64"])
    }).pipe(Effect.provide(Connection.layer().pipe(Layer.provide(database)))))
})
