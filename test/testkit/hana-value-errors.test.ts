import { describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** hdb's message types (node_modules/hdb/lib/protocol/common/MessageType.js). */
const EXECUTE_DIRECT = 2
const EXECUTE = 13
const WRITE_LOB = 17

/** A LOB larger than hdb's packet (128 KiB), so that hdb streams it with WRITE_LOB requests after the EXECUTE. */
const BIG_LOB = Buffer.alloc(300_000, 7)

/**
 * Every write path (direct execute, prepared, batch, LOB write) answers a value error with HANA's error, changes
 * nothing, and leaves the session usable; an internal failure of the server is answered too.
 */
describe("HANA test server: value errors and internal failures on every write path (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: 8 }, setup: ["CREATE TABLE v (id INTEGER, code ALPHANUM(5), name NVARCHAR(3), amount DECIMAL(5,2), small TINYINT, data BLOB)"] }, (opened) => {
    server = opened.server
    c = opened.client
  })

  const prepare = (sql: string) => call<HdbStatement>((cb) => c.prepare(sql, cb))
  const insert = () => prepare("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)")
  const count = async () => ((await exec<Array<{ N: number }>>(c, "SELECT COUNT(*) AS N FROM v"))[0]!.N)
  /** The session still answers, and the table holds what it held. */
  const stillUsable = async (rows: number) => {
    expect(await exec(c, "SELECT 'ok' AS S FROM DUMMY")).toEqual([{ S: "ok" }])
    expect(await count()).toBe(rows)
  }

  // Codes and texts: SAP HANA SQL Reference, "SQL Error Codes" (help.sap.com): 274 ERR_SQL_INS_LARGE_VALUE "inserted
  // value too large for column", 314 ERR_SQL_NUMERIC_OVERFLOW "numeric overflow", 339 ERR_SQL_INV_NUMBER "invalid
  // number". HANA names the column and the value in 274 (SAP DBTech JDBC: "[274]: inserted value too large for column:
  // Failed in "NAME" column with the value 'abcd'"; an older revision quotes only the value, SAP-archive/
  // cloud-sfsf-benefits-ext issue #2).
  const tooLong = (column: string, value: string) => `inserted value too large for column: Failed in "${column}" column with the value '${value}'`

  it("direct execute: too long, numeric overflow and a malformed number fail with 274, 314 and 339", async () => {
    const long = await failure(exec(c, "INSERT INTO v (id, code) VALUES (1, 'ABCDEFGH')"))
    expect([long.code, long.message]).toEqual([274, tooLong("CODE", "ABCDEFGH")])
    await exec(c, "INSERT INTO v (id, name) VALUES (1, 'abc')")
    const update = await failure(exec(c, "UPDATE v SET name = 'abcd'"))
    expect([update.code, update.message]).toEqual([274, tooLong("NAME", "abcd")])
    expect(await exec(c, "SELECT name FROM v")).toEqual([{ NAME: "abc" }])
    await exec(c, "DELETE FROM v")
    const overflow = await failure(exec(c, "INSERT INTO v (id, amount) VALUES (1, 123456)"))
    expect([overflow.code, overflow.message.startsWith("numeric overflow")]).toEqual([314, true])
    const tiny = await failure(exec(c, "INSERT INTO v (id, small) VALUES (1, 300)"))
    expect([tiny.code, tiny.message.startsWith("numeric overflow")]).toEqual([314, true])
    const malformed = await failure(exec(c, "INSERT INTO v (id, amount) VALUES (1, CAST('1.2.3' AS DECIMAL(5,2)))"))
    expect(malformed.code).toBe(339)
    await stillUsable(0)
  })

  it("prepared execute: the same errors, and the statement stays usable", async () => {
    const st = await insert()
    const long = await failure(call((cb) => st.exec([1, "ABCDEFGH", "a", "1", 1, null], cb)))
    expect([long.code, long.message]).toEqual([274, tooLong("CODE", "ABCDEFGH")])
    const longName = await failure(call((cb) => st.exec([1, "1", "abcd", "1", 1, null], cb)))
    expect([longName.code, longName.message]).toEqual([274, tooLong("NAME", "abcd")])
    const overflow = await failure(call((cb) => st.exec([1, "1", "a", "12345.6", 1, null], cb)))
    expect([overflow.code, overflow.message.startsWith("numeric overflow")]).toEqual([314, true])
    await stillUsable(0)
    expect(await call((cb) => st.exec([1, "1", "a", "1", 1, null], cb))).toBe(1)
    await exec(c, "DELETE FROM v")
  })

  it("batch execute: the failing row is named and no row is inserted", async () => {
    const st = await insert()
    const rows = (bad: unknown[]) => Array.from({ length: 50 }, (_, i) => (i === 20 ? bad : [i, "12", "a", "1.5", 1, null]))
    const long = await failure(call((cb) => st.exec(rows([20, "ABCDEFGH", "a", "1", 1, null]), cb)))
    expect([long.code, long.message]).toEqual([274, `${tooLong("CODE", "ABCDEFGH")} (batch row 21)`])
    const overflow = await failure(call((cb) => st.exec(rows([20, "1", "a", "99999", 1, null]), cb)))
    // the same code, SQLSTATE and text as the row alone gives, with the batch row
    const single = await failure(call((cb) => st.exec([20, "1", "a", "99999", 1, null], cb)))
    expect([single.code, single.sqlState, single.message]).toEqual([314, "22003", "numeric overflow: 99999.00 is out of range for DECIMAL(5,2)"])
    expect([overflow.code, overflow.sqlState, overflow.message]).toEqual([314, "22003", `${single.message} (batch row 21)`])
    await stillUsable(0)
  })

  it("LOB write: a value error of a row whose LOB follows in WRITE_LOB requests fails that row only", async () => {
    const st = await insert()
    const long = await failure(call((cb) => st.exec([1, "ABCDEFGH", "a", "1", 1, BIG_LOB], cb)))
    expect([long.code, long.message]).toEqual([274, tooLong("CODE", "ABCDEFGH")])
    await stillUsable(0)
    expect(await call((cb) => st.exec([1, "1", "a", "1", 1, BIG_LOB], cb))).toBe(1)
    expect(await exec(c, "SELECT data FROM v")).toEqual([{ DATA: BIG_LOB }])
    await exec(c, "DELETE FROM v")
  })

  for (const stage of ["handler", "reply"] as const) {
    it(`an internal failure in the ${stage} is answered with error 2 on every write path and the session goes on`, async () => {
      const st = await insert()
      const failing = async (messageType: number, run: () => Promise<unknown>) => {
        server.faults.failInternally = { messageTypes: [messageType], stage }
        try {
          const err = await failure(run())
          expect([err.code, err.message]).toEqual([2, expect.stringMatching(/^general error: injected internal failure/)])
        } finally {
          server.faults.failInternally = undefined
        }
        expect(await exec(c, "SELECT 'ok' AS S FROM DUMMY")).toEqual([{ S: "ok" }])
      }
      await failing(EXECUTE_DIRECT, () => exec(c, "INSERT INTO v (id) VALUES (1)"))
      await failing(EXECUTE, () => call((cb) => st.exec([2, "1", "a", "1", 1, null], cb)))
      await failing(EXECUTE, () => call((cb) => st.exec([[3, "1", "a", "1", 1, null], [4, "2", "b", "2", 2, null]], cb)))
      await failing(WRITE_LOB, () => call((cb) => st.exec([5, "1", "a", "1", 1, BIG_LOB], cb)))
      // The statement still runs after the failures.
      expect(await call((cb) => st.exec([6, "1", "a", "1", 1, null], cb))).toBe(1)
      await exec(c, "DELETE FROM v")
    })
  }
})
