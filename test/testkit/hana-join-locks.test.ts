import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, exec, failure } from "./hana/client.ts"
import type { HdbClient } from "./hana/client.ts"
import { waitsForLock } from "../support/lockWaits.ts"
import { closeTwoClients, inTransactions as inBothTransactions, openTwoClients } from "./hana/transactions.ts"

// SELECT ... FOR UPDATE over a join locks the rows it reads of each table, or only of the tables FOR UPDATE OF names
// (SAP HANA SQL Reference, "SELECT Statement", for_update_clause: `FOR UPDATE [OF <column_list>]`, "locks the
// selected rows"; with OF, the rows of the tables the listed columns belong to, as remembered). A locked row makes
// another transaction's NOWAIT fail with 146 and its UPDATE wait. Synchronised on the lock-wait counter.
describe("HANA test server: SELECT ... FOR UPDATE over joins (raw hdb)", () => {
  let server: HanaTestServerHandle
  let a: HdbClient
  let b: HdbClient
  beforeAll(async () => {
    ;({ server, a, b } = await openTwoClients())
    await exec(a, "CREATE TABLE jl_o (id INT PRIMARY KEY, c INT, n INT)")
    await exec(a, "CREATE TABLE jl_c (id INT PRIMARY KEY, name NVARCHAR(10))")
    for (const sql of ["INSERT INTO jl_c VALUES (1, 'one')", "INSERT INTO jl_c VALUES (2, 'two')", "INSERT INTO jl_o VALUES (10, 1, 0)", "INSERT INTO jl_o VALUES (20, 2, 0)"]) await exec(a, sql)
  })
  afterAll(() => closeTwoClients({ server, a, b }))

  const inTransactions = (body: () => Promise<void>) => inBothTransactions(a, b, body)

  it("a join locks the rows it reads of both tables, and only those", async () => {
    await inTransactions(async () => {
      expect(await exec(a, "SELECT o.id, c.name FROM jl_o o JOIN jl_c c ON o.c = c.id WHERE o.id = 10 FOR UPDATE")).toEqual([{ ID: 10, NAME: "one" }])
      expect((await failure(exec(b, "SELECT id FROM jl_o WHERE id = 10 FOR UPDATE NOWAIT"))).code).toBe(146)
      expect((await failure(exec(b, "SELECT id FROM jl_c WHERE id = 1 FOR UPDATE NOWAIT"))).code).toBe(146)
      expect(await exec(b, "SELECT id FROM jl_c WHERE id = 2 FOR UPDATE NOWAIT")).toEqual([{ ID: 2 }])
      const upd = waitsForLock(server, () => exec(b, "UPDATE jl_c SET name = 'uno' WHERE id = 1"))
      expect(await upd.waiting).toBe(true)
      await call((cb) => a.commit(cb))
      expect(await upd.result).toBe(1)
    })
  })

  it("a comma join and a LEFT JOIN lock each table's rows; FOR UPDATE OF locks only the named table's", async () => {
    await inTransactions(async () => {
      await exec(a, "SELECT o.id FROM jl_o o, jl_c c WHERE o.c = c.id AND c.id = 2 FOR UPDATE")
      expect((await failure(exec(b, "SELECT id FROM jl_o WHERE id = 20 FOR UPDATE NOWAIT"))).code).toBe(146)
      expect((await failure(exec(b, "SELECT id FROM jl_c WHERE id = 2 FOR UPDATE NOWAIT"))).code).toBe(146)
      await call((cb) => a.rollback(cb))
      await exec(a, "SELECT o.id FROM jl_o o LEFT JOIN jl_c c ON o.c = c.id WHERE o.id = 10 FOR UPDATE OF o.n")
      expect((await failure(exec(b, "SELECT id FROM jl_o WHERE id = 10 FOR UPDATE NOWAIT"))).code).toBe(146)
      expect(await exec(b, "SELECT id FROM jl_c WHERE id = 1 FOR UPDATE NOWAIT")).toEqual([{ ID: 1 }])
    })
  })
})
