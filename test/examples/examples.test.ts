/**
 * Every example runs here, on the test servers it starts itself, so none can rot; the checks are on what each
 * program returns.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { main as bothDrivers } from "../../examples/both-drivers.ts"
import { main as cancellation } from "../../examples/cancellation.ts"
import { main as catalog } from "../../examples/catalog.ts"
import { main as effectSql } from "../../examples/effect-sql.ts"
import { main as ingestModes } from "../../examples/ingest-modes.ts"
import { main as optionsFromEnv } from "../../examples/options-from-env.ts"
import { main as parameters } from "../../examples/parameters.ts"
import { connectionOn, main as quickstart } from "../../examples/quickstart.ts"
import { streamRows } from "../../examples/streaming.ts"
import { main as transactions } from "../../examples/transactions.ts"

describe.concurrent("examples", { timeout: 120_000 }, () => {
  it.live("quickstart on Oracle reads back its 4 cities", () =>
    Effect.gen(function*() {
      const table = yield* quickstart("oracle")
      expect(table.numRows).toBe(4)
    }))

  it.live("effect-sql: the same SqlClient application (migrations, repository, resolver, transaction with Arrow) on HANA and Oracle", () =>
    Effect.gen(function*() {
      const [onHana, onOracle] = yield* effectSql
      expect(onHana).toEqual({
        ran: ["1_create_people", "2_add_team"],
        found: ["Tony", "Ada", "Barbara Liskov"],
        core: ["Ada", "Edsger", "Barbara Liskov", "Tony"],
        arrowRows: 4,
        ada: "Ada"
      })
      expect(onOracle).toEqual(onHana)
    }))

  it.live("both-drivers: the same program gives the same totals on HANA and Oracle", () =>
    Effect.gen(function*() {
      const [onHana, onOracle] = yield* bothDrivers
      expect(onHana).toEqual(["AMER=300", "APJ=80", "EMEA=165"])
      expect(onOracle).toEqual(onHana)
    }))

  it.live("streaming: every row arrives, in batches of about 10,000 rows (what bounds the memory), never one big one", () =>
    Effect.gen(function*() {
      const result = yield* streamRows(200_000).pipe(Effect.provide(connectionOn("hana")))
      expect(result.rows).toBe(200_000)
      expect(result.sum).toBe((200_000 * 200_001) / 2)
      expect(result.batches).toBeGreaterThanOrEqual(20)
      // read_batch_rows is best effort on HANA (a batch ends on a fetch boundary): bounded, if not exactly 10,000
      expect(result.largestBatch).toBeLessThanOrEqual(2 * 10_000)
      expect(result.peakRss).toBeGreaterThan(0)
    }))

  it.live("parameters: one bound batch inserts 3 rows; a bound value filters the query", () =>
    Effect.gen(function*() {
      expect(yield* parameters).toEqual({ inserted: 3, names: ["lamp", "desk"] })
    }))

  it.live("ingest-modes: create, create again (ALREADY_EXISTS), append, replace, create_append", () =>
    Effect.gen(function*() {
      expect(yield* ingestModes).toEqual([
        "create: 2 rows",
        "create again: ALREADY_EXISTS",
        "append: 3 rows",
        "replace: 1 rows",
        "create_append: 3 rows"
      ])
    }))

  it.live("transactions: the failed transfer is rolled back, the other committed", () =>
    Effect.gen(function*() {
      const { balances, outcomes } = yield* transactions
      expect(outcomes).toEqual(["30 moved", expect.stringMatching(/^rolled back: alice cannot pay 500/)])
      expect(balances).toEqual([70, 30])
    }))

  it.live("options-from-env: a good value is used, a bad one rejected at configuration load", () =>
    Effect.gen(function*() {
      const { bad, good } = yield* optionsFromEnv
      expect(good).toBe("5000")
      expect(bad).toMatch(/^configuration rejected: .*HANA_DBA_STATEMENT_FETCH_SIZE/)
    }))

  it.live("catalog: GetInfo, table types, GetObjects and GetTableSchema find the table", () =>
    Effect.gen(function*() {
      const result = yield* catalog
      expect(result.types).toContain("TABLE")
      expect(result.found).toEqual([expect.stringMatching(/^FREEPDB1\.TEST\.INVENTORY \(SKU \S+, STOCK \S+\)$/)])
      expect(result.schema.fields.map((f) => f.name)).toEqual(["SKU", "STOCK"])
    }))

  it.live("cancellation: Effect.timeout stops the query and the database still answers", () =>
    Effect.gen(function*() {
      const result = yield* cancellation
      expect(result.timedOut).toBe(true)
      // stopped promptly (reading all 50,000,000 rows would take minutes), and the pool's connection still works
      expect(result.stoppedAfterMs).toBeLessThan(15_000)
      expect(result.answer).toBe(1)
    }))
})
