import { describe, expect, it } from "@effect/vitest"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** Batch INSERTs take the column-wise append path; these pin down that it stores and refuses what HANA would. */
describe("HANA test server: batch inserts (raw hdb client, data format 8)", () => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: 8 } }, (opened) => (c = opened.client))

  it("stores every column type of a batch with NULLs, CESU-8 supplementary characters and a column subset", async () => {
    await exec(c, `CREATE TABLE b_all (id INTEGER NOT NULL, t TINYINT, s SMALLINT, big BIGINT, amount DECIMAL(18,2), wide DECIMAL(30,4),
      f DECIMAL, r REAL, d DOUBLE, day DATE, tm TIME, sd SECONDDATE, ts TIMESTAMP, name NVARCHAR(20), bin VARBINARY(8), flag BOOLEAN,
      extra NVARCHAR(10) DEFAULT 'dflt')`)
    const st = await call<HdbStatement>((cb) =>
      c.prepare("INSERT INTO b_all (id, t, s, big, amount, wide, f, r, d, day, tm, sd, ts, name, bin, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", cb)
    )
    const rows = Array.from({ length: 3000 }, (_, i) =>
      i === 1
        ? [1, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]
        : [i, i % 256, -i, String(BigInt(i) * 10_000_000_000n), `${i}.25`, `-${i}123456789012.0001`, `${i}.5`, 0.5, i / 8,
          "2024-02-29", "23:59:58", "1999-12-31 23:59:59", "2020-01-01 12:34:56.123456", `n😀${i}`, Buffer.from([i & 255, 0, 255]), i % 2 === 0]
    )
    const affected = await call<number[]>((cb) => st.exec(rows, cb))
    expect(affected).toHaveLength(3000)
    expect(affected.every((n) => n === 1)).toBe(true)
    const got = await exec<Array<Record<string, unknown>>>(c, "SELECT * FROM b_all WHERE id IN (1, 2, 2999) ORDER BY id")
    expect(got[0]).toEqual({
      ID: 1, T: null, S: null, BIG: null, AMOUNT: null, WIDE: null, F: null, R: null, D: null, DAY: null, TM: null, SD: null, TS: null,
      NAME: null, BIN: null, FLAG: null, EXTRA: "dflt"
    })
    expect(got[1]).toEqual({
      ID: 2, T: 2, S: -2, BIG: 20_000_000_000, AMOUNT: "2.25", WIDE: "-2123456789012.0001", F: "2.5e+0", R: 0.5, D: 0.25, DAY: "2024-02-29",
      TM: "23:59:58", SD: "1999-12-31 23:59:59", TS: "2020-01-01 12:34:56.123456000", NAME: "n😀2", BIN: Buffer.from([2, 0, 255]), FLAG: true, EXTRA: "dflt"
    })
    expect(got[2]!["NAME"]).toBe("n😀2999")
    expect(got[2]!["BIN"]).toEqual(Buffer.from([2999 & 255, 0, 255]))
  })

  it("refuses NULL in NOT NULL (287), over-long text (274) and DECIMAL overflow (314) naming the batch row, inserting nothing", async () => {
    await exec(c, "CREATE TABLE b_bad (id INTEGER NOT NULL, name NVARCHAR(3), amount DECIMAL(5,2))")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO b_bad VALUES (?, ?, ?)", cb))
    const ok = (i: number) => [i, "abc", "1.50"]
    const nullId = await failure(call((cb) => st.exec([ok(1), ok(2), [null, "x", "1"]], cb)))
    expect([nullId.code, nullId.message]).toEqual([287, "cannot insert NULL or update to NULL: ID (batch row 3)"])
    const long = await failure(call((cb) => st.exec([ok(1), [2, "abcd", "1"], ok(3)], cb)))
    expect([long.code, long.message]).toEqual([274, `inserted value too large for column: Failed in "NAME" column with the value 'abcd' (batch row 2)`])
    const overflow = await failure(call((cb) => st.exec([[1, "a", "1000.00"], ok(2)], cb)))
    expect([overflow.code, overflow.sqlState, overflow.message]).toEqual([314, "22003", "numeric overflow: 1000.00 is out of range for DECIMAL(5,2) (batch row 1)"])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM b_bad")).toEqual([{ N: 0 }])
    // Characters, not bytes, count against NVARCHAR(3).
    await call((cb) => st.exec([[1, "äöü", "999.99"], [2, "😀", "-999.99"]], cb))
    expect(await exec(c, "SELECT name, amount FROM b_bad ORDER BY id")).toEqual([{ NAME: "äöü", AMOUNT: "999.99" }, { NAME: "😀", AMOUNT: "-999.99" }])
  })

  it("a failed statement after several batches keeps each batch's rows as sent, though the server refills one set of column buffers", async () => {
    await exec(c, "CREATE TABLE b_reuse (id INTEGER NOT NULL, name NVARCHAR(40))")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO b_reuse VALUES (?, ?)", cb))
    c.setAutoCommit(false)
    try {
      // every row of the first batch has a name; in the later, smaller ones every third row's is NULL
      await call((cb) => st.exec(Array.from({ length: 3000 }, (_, i) => [i, `first batch row ${i}`]), cb))
      await call((cb) => st.exec(Array.from({ length: 2000 }, (_, i) => [10_000 + i, i % 3 === 0 ? null : `second batch row ${i}`]), cb))
      await call((cb) => st.exec(Array.from({ length: 1000 }, (_, i) => [20_000 + i, i % 3 === 0 ? null : `third batch row ${i}`]), cb))
      // 287 aborts the engine's transaction: the server rolls it back and replays the three batches
      expect((await failure(exec(c, "INSERT INTO b_reuse VALUES (NULL, 'x')"))).code).toBe(287)
      const got = await exec(c, `SELECT LEFT(name, LOCATE(name, ' ') - 1) AS label, COUNT(*) AS n, COUNT(name) AS named, MIN(id) AS lo, MAX(id) AS hi
        FROM b_reuse GROUP BY LEFT(name, LOCATE(name, ' ') - 1) ORDER BY lo`)
      expect(got).toEqual([
        { LABEL: "first", N: 3000, NAMED: 3000, LO: 0, HI: 2999 },
        { LABEL: null, N: 667 + 334, NAMED: 0, LO: 10_000, HI: 20_999 },
        { LABEL: "second", N: 1333, NAMED: 1333, LO: 10_001, HI: 11_999 },
        { LABEL: "third", N: 666, NAMED: 666, LO: 20_001, HI: 20_998 }
      ])
      expect(await exec(c, "SELECT COUNT(*) AS N FROM b_reuse WHERE name <> LEFT(name, LOCATE(name, ' ') - 1) || ' batch row ' || TO_NVARCHAR(MOD(id, 10000))")).toEqual([{ N: 0 }])
      await call((cb) => c.rollback(cb))
    } finally {
      c.setAutoCommit(true)
    }
  })

  it("undoes only the failing batch inside a transaction", async () => {
    await exec(c, "CREATE TABLE b_tx (id INTEGER PRIMARY KEY, name NVARCHAR(5))")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO b_tx VALUES (?, ?)", cb))
    c.setAutoCommit(false)
    try {
      await call((cb) => st.exec([[1, "a"], [2, "b"]], cb))
      const dup = await failure(call((cb) => st.exec([[3, "c"], [1, "again"]], cb)))
      expect(dup.code).toBe(301)
      await call((cb) => c.commit(cb))
    } finally {
      c.setAutoCommit(true)
    }
    expect(await exec(c, "SELECT id FROM b_tx ORDER BY id")).toEqual([{ ID: 1 }, { ID: 2 }])
  })
})
