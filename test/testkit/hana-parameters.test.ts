import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

// A parameter that is an operand of + - * / takes the other operand's type, as HANA types `? + 0` as a number
// (SAP/node-hdb issue #110) and SQL-92 types a parameter of a binary arithmetic operator (testkit/hana/arithmetic-parameters.ts).
describe("HANA test server: parameters of arithmetic operators typed from the other operand (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  const prepare = (sql: string) => call<HdbStatement>((cb) => c.prepare(sql, cb))
  const types = (st: HdbStatement) => st.parameterMetadata.map((p) => [p.dataType, p.length, p.fraction])
  beforeAll(async () => {
    server = await startHanaTestServer()
    c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: 8 })
    await exec(c, "CREATE TABLE arith (id INTEGER, amount DECIMAL(10,2), ratio DOUBLE, total BIGINT)")
    await exec(c, "INSERT INTO arith VALUES (1, 10.50, 2.5, 100)")
    await exec(c, "INSERT INTO arith VALUES (2, 7.00, 0.5, 200)")
  })
  afterAll(async () => {
    closeQuietly(c)
    await server.close()
  })

  it("describes the parameter with the other operand's type (INTEGER 3, DECIMAL 81, DOUBLE 7, BIGINT 4) on either side", async () => {
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<readonly number[]>]> = [
      ["SELECT id / ? AS Q FROM arith", [[3, 10, 0]]],
      ["SELECT ? + 1 AS Q FROM DUMMY", [[3, 10, 0]]],
      ["SELECT arith.amount * ? + 1 AS Q FROM arith", [[81, 10, 2]]],
      ["SELECT ? - ratio AS Q FROM arith", [[7, 53, 0]]],
      ["SELECT ABS(amount) / ? AS Q FROM arith", [[81, 10, 2]]],
      ["SELECT CAST(id AS BIGINT) - ? AS Q FROM arith", [[4, 19, 0]]],
      ["UPDATE arith SET amount = amount / ?", [[81, 10, 2]]],
      ["UPDATE arith SET total = total + ? WHERE id = ?", [[4, 19, 0], [3, 10, 0]]],
      ["SELECT id FROM arith WHERE id = ? + 1", [[3, 10, 0]]],
      // the whole other operand, as operators bind: (id * amount) / ?, ? + (id * amount), (? / id) * ratio
      ["SELECT id * amount / ? AS Q FROM arith", [[81, 18, 2]]],
      ["SELECT ? + id * amount AS Q FROM arith", [[81, 18, 2]]],
      ["SELECT ? / id * ratio AS Q FROM arith", [[3, 10, 0]]]
    ]
    for (const [sql, expected] of cases) expect([sql, types(await prepare(sql))]).toEqual([sql, expected])
  })

  it("computes with the bound values: SELECT x / ?, UPDATE … SET x = x / ?, a batch of SET b = b + ?", async () => {
    const q = await prepare("SELECT id, amount / ? AS Q FROM arith ORDER BY id")
    expect(await call((cb) => q.exec([2], cb))).toEqual([{ ID: 1, Q: 5.25 }, { ID: 2, Q: 3.5 }])
    const half = await prepare("UPDATE arith SET amount = amount / ? WHERE id = ?")
    expect(await call((cb) => half.exec([2, 1], cb))).toBe(1)
    const add = await prepare("UPDATE arith SET total = total + ? WHERE id = ?")
    expect(await call((cb) => add.exec([[5, 1], [7, 2]], cb))).toEqual([1, 1])
    expect(await exec(c, "SELECT id, amount, total FROM arith ORDER BY id")).toEqual([
      { ID: 1, AMOUNT: "5.25", TOTAL: 105 },
      { ID: 2, AMOUNT: "7.00", TOTAL: 207 }
    ])
  })

  it("a bound 0 divisor raises 304 as a literal 0 does, and the failed UPDATE changes nothing", async () => {
    const q = await prepare("SELECT id / ? AS Q FROM arith")
    const err = await failure(call((cb) => q.exec([0], cb)))
    expect([err.code, err.message]).toEqual([304, "division by zero undefined"])
    const u = await prepare("UPDATE arith SET total = total / ?")
    expect((await failure(call((cb) => u.exec([0], cb)))).code).toBe(304)
    expect(await exec(c, "SELECT total FROM arith ORDER BY id")).toEqual([{ TOTAL: 105 }, { TOTAL: 207 }])
  })
})
