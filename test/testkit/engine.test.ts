import { describe, expect, it } from "@effect/vitest"
import { BIGINT, BLOB, BOOLEAN, DATE, DECIMAL, DOUBLE, INTEGER, TIMESTAMP, VARCHAR } from "@duckdb/node-api"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { BulkInsertError, BulkRows, Engine, EngineError } from "../../testkit/engine/index.ts"

/** Runs a full garbage collection (V8's gc(), exposed for this test process). */
const collectGarbage = (): void => {
  setFlagsFromString("--expose-gc")
  ;(runInNewContext("gc") as () => void)()
}

describe("testkit engine", () => {
  it("runs DDL/DML, reports rows affected and reads column-wise chunks", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      expect(await s.execute("CREATE TABLE t (a INTEGER, b VARCHAR, c DECIMAL(10,2), d DATE)")).toBe(0)
      expect(await s.execute("INSERT INTO t VALUES (1, 'x', 1.25, DATE '2024-02-03'), (2, NULL, NULL, NULL)")).toBe(2)
      expect(await s.execute("UPDATE t SET a = a + 10")).toBe(2)
      const cursor = await s.query("SELECT a, b, c, d FROM t ORDER BY a")
      expect(cursor.columns.map((c) => [c.name, c.layout, c.precision, c.scale])).toEqual([
        ["a", "int32", 0, 0],
        ["b", "varchar", 0, 0],
        ["c", "decimal64", 10, 2],
        ["d", "date", 0, 0]
      ])
      const chunk = await cursor.next()
      expect(chunk?.rowCount).toBe(2)
      const [a, b, c, d] = chunk!.columns
      expect(Array.from(a!.data as Int32Array)).toEqual([11, 12])
      expect(b!.string(0)).toBe("x")
      expect(b!.isNull(1)).toBe(true)
      expect((c!.data as BigInt64Array)[0]).toBe(125n)
      expect(c!.isNull(1)).toBe(true)
      expect((d!.data as Int32Array)[0]).toBe(Date.UTC(2024, 1, 3) / 86_400_000)
      expect(await cursor.next()).toBeNull()
    } finally {
      engine.close()
    }
  })

  it("reads inlined, heap-stored and NULL strings and blobs across chunks", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      const cursor = await s.query(`SELECT CASE WHEN i % 7 = 0 THEN NULL WHEN i % 3 = 0 THEN 'short' || i
        ELSE 'a much longer string value number ' || i || ' ' || repeat('x', i % 50) END AS v,
        CASE WHEN i % 5 = 0 THEN NULL ELSE encode(repeat('b', i % 40)) END AS b FROM range(5000) t(i) ORDER BY i`)
      let i = 0
      for (let chunk = await cursor.next(); chunk !== null; chunk = await cursor.next()) {
        const [v, b] = chunk.columns
        for (let r = 0; r < chunk.rowCount; r++, i++) {
          const expected = i % 7 === 0 ? null : i % 3 === 0 ? `short${i}` : `a much longer string value number ${i} ${"x".repeat(i % 50)}`
          expect(v!.string(r)).toBe(expected)
          const bytes = b!.bytes(r)
          expect(bytes === null ? null : Buffer.from(bytes).toString()).toBe(i % 5 === 0 ? null : "b".repeat(i % 40))
        }
      }
      expect(i).toBe(5000)
    } finally {
      engine.close()
    }
  })

  it("binds parameters and prepares statements with inferred types", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute("CREATE TABLE p (a INTEGER, b VARCHAR)")
      const ins = await s.prepare("INSERT INTO p VALUES (?, ?)")
      expect(ins.parameterCount).toBe(2)
      expect(ins.parameterType(0)?.toString()).toBe("INTEGER")
      for (let i = 0; i < 3; i++) {
        const out = await ins.run([i, `v${i}`])
        expect(out).toEqual({ kind: "changed", rowsAffected: 1 })
      }
      ins.close()
      expect(await s.queryAll("SELECT a, b FROM p WHERE a >= ? ORDER BY a", [1])).toEqual([
        [1, "v1"],
        [2, "v2"]
      ])
    } finally {
      engine.close()
    }
  })

  it("isolates sessions: uncommitted rows and temp tables are private", async () => {
    const engine = await Engine.open()
    try {
      const a = await engine.session()
      const b = await engine.session()
      await a.execute("CREATE TABLE shared (x INTEGER)")
      await a.begin()
      await a.execute("INSERT INTO shared VALUES (1)")
      expect(await b.queryAll("SELECT count(*) FROM shared")).toEqual([[0n]])
      await a.commit()
      expect(await b.queryAll("SELECT count(*) FROM shared")).toEqual([[1n]])
      await a.begin()
      await a.execute("DELETE FROM shared")
      await a.rollback()
      expect(await a.queryAll("SELECT count(*) FROM shared")).toEqual([[1n]])
      await a.execute("CREATE TEMP TABLE mine (y INTEGER)")
      await expect(b.execute("SELECT * FROM mine")).rejects.toBeInstanceOf(EngineError)
      a.close()
      expect(engine.openSessions).toBe(1)
    } finally {
      engine.close()
    }
  })

  it("recovers a transaction after a failed statement (statement-level rollback)", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute("CREATE TABLE r (id INTEGER PRIMARY KEY)")
      await s.begin()
      await s.execute("INSERT INTO r VALUES (1)")
      const ins = await s.prepare("INSERT INTO r VALUES (?)")
      await ins.run([2])
      await s.bulkInsert('INSERT INTO r ("id")', [{ type: INTEGER, values: [3, 4] }])
      await expect(s.execute("INSERT INTO r VALUES (1)")).rejects.toBeInstanceOf(EngineError)
      expect(await s.recoverStatement()).toBe(true)
      expect(s.inTransaction).toBe(true)
      await s.execute("INSERT INTO r VALUES (5)")
      await s.commit()
      expect(await s.queryAll("SELECT id FROM r ORDER BY id")).toEqual([[1], [2], [3], [4], [5]])
    } finally {
      engine.close()
    }
  })

  it("reports DuckDB errors as EngineError with their kind", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      const err = await s.execute("SELEC 1").catch((e: unknown) => e)
      expect(err).toBeInstanceOf(EngineError)
      expect((err as EngineError).kind).toBe("Parser Error")
    } finally {
      engine.close()
    }
  })

  it("rows sealed before their BulkRows is reset and refilled are replayed as they were when a later statement fails", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute("CREATE TABLE r (id INTEGER NOT NULL, name VARCHAR)")
      const rows = new BulkRows([{ name: "id", type: INTEGER, notNull: true }, { name: "name", type: VARCHAR }], 3000)
      const enc = new TextEncoder()
      const fill = (from: number, label: string) => {
        for (let i = 0; i < rows.rowCount; i++) {
          rows.setNumber(0, i, from + i)
          if (i % 3 !== 0) rows.setBytes(1, i, enc.encode(`${label} row number ${from + i}`))
        }
      }
      await s.begin()
      fill(0, "first")
      expect(await s.appendRows('"r"', rows.seal())).toBe(3000)
      // the same buffers again, fewer rows: a cell not set is NULL after reset
      rows.reset(2000)
      fill(10_000, "second")
      expect(await s.appendRows('"r"', rows)).toBe(2000)
      rows.reset(1000)
      fill(20_000, "third")
      await expect(s.execute("INSERT INTO r VALUES (NULL, 'x')")).rejects.toThrow()
      // the transaction is aborted by the failed INSERT: recovery replays both appends from their sealed chunks
      expect(await s.recoverStatement()).toBe(true)
      expect(await s.queryAll("SELECT count(*), sum(id)::BIGINT, count(name), min(name), max(name) FROM r")).toEqual([
        [5000n, BigInt((2999 * 3000) / 2 + 2000 * 10_000 + (1999 * 2000) / 2), 3333n, "first row number 1", "second row number 11999"]
      ])
      await s.commit()
    } finally {
      engine.close()
    }
  })

  it("appendRows inserts typed columns across chunks with NULLs, short and long strings, into a column subset", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute(`CREATE TABLE b (id INTEGER NOT NULL, big BIGINT, amount DECIMAL(18,2), wide DECIMAL(30,3), ratio DOUBLE,
        day DATE, ts TIMESTAMP, name VARCHAR, bin BLOB, flag BOOLEAN, extra VARCHAR DEFAULT 'dflt')`)
      const n = 5000
      const rows = new BulkRows(
        [
          { name: "id", type: INTEGER, notNull: true },
          { name: "big", type: BIGINT },
          { name: "amount", type: DECIMAL(18, 2) },
          { name: "wide", type: DECIMAL(30, 3) },
          { name: "ratio", type: DOUBLE },
          { name: "day", type: DATE },
          { name: "ts", type: TIMESTAMP },
          { name: "name", type: VARCHAR, maxLength: 40 },
          { name: "bin", type: BLOB },
          { name: "flag", type: BOOLEAN }
        ],
        n
      )
      const enc = new TextEncoder()
      for (let i = 0; i < n; i++) {
        rows.setNumber(0, i, i)
        if (i % 5 !== 0) rows.setBigInt(1, i, BigInt(i) * 10_000_000_000n)
        rows.setBigInt(2, i, BigInt(i * 100 + 1))
        rows.setBigInt(3, i, -(10n ** 25n) - BigInt(i))
        rows.setNumber(4, i, i / 4)
        rows.setNumber(5, i, -719162 + i)
        rows.setBigInt(6, i, BigInt(i) * 1_000_000n)
        if (i % 7 !== 0) rows.setBytes(7, i, enc.encode(i % 2 === 0 ? `n${i}` : `a longer name ü ${i}`))
        rows.setBytes(8, i, new Uint8Array([i & 0xff, 1, 2]))
        rows.setNumber(9, i, i % 2)
      }
      expect(await s.appendRows('"b"', rows)).toBe(n)
      const got = await s.queryAll(`SELECT id, big, amount::VARCHAR, wide::VARCHAR, ratio, day::VARCHAR, ts::VARCHAR, name, octet_length(bin), flag, extra
        FROM b WHERE id IN (0, 1, 4097) ORDER BY id`)
      expect(got).toEqual([
        [0, null, "0.01", "-10000000000000000000000.000", 0, "0001-01-01", "1970-01-01 00:00:00", null, 3n, false, "dflt"],
        [1, 10_000_000_000n, "1.01", "-10000000000000000000000.001", 0.25, "0001-01-02", "1970-01-01 00:00:01", "a longer name ü 1", 3n, true, "dflt"],
        [4097, 40_970_000_000_000n, "4097.01", "-10000000000000000000004.097", 1024.25, "0012-03-21", "1970-01-01 01:08:17", "a longer name ü 4097", 3n, true, "dflt"]
      ])
    } finally {
      engine.close()
    }
  })

  it("appendRows refuses NULL in NOT NULL, over-long text and decimal overflow naming the row, and inserts nothing", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute("CREATE TABLE c (id INTEGER NOT NULL, name VARCHAR, amount DECIMAL(5,2))")
      const specs = [
        { name: "id", type: INTEGER, notNull: true },
        { name: "name", type: VARCHAR, maxLength: 3 },
        { name: "amount", type: DECIMAL(5, 2) }
      ] as const
      const rows = new BulkRows(specs, 3)
      rows.setNumber(0, 0, 1)
      rows.setNumber(0, 2, 3)
      const err = await s.appendRows('"c"', rows).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(BulkInsertError)
      expect([(err as BulkInsertError).violation, (err as BulkInsertError).row, (err as BulkInsertError).column]).toEqual(["null", 1, "id"])
      const more = new BulkRows(specs, 2)
      more.setString(1, 0, "äöü")
      const long = (() => {
        try {
          more.setString(1, 1, "abcd")
        } catch (e) {
          return e
        }
      })()
      expect([(long as BulkInsertError).violation, (long as BulkInsertError).row]).toEqual(["length", 1])
      expect(() => more.setBigInt(2, 1, 100_000n)).toThrow(/row 1, column amount/)
      expect(() => more.setNumber(0, 1, 2 ** 31)).toThrow(BulkInsertError)
      expect(await s.queryAll("SELECT count(*) FROM c")).toEqual([[0n]])
      // Appended straight into the table: its own constraints answer, as a Constraint Error, and nothing stays.
      await s.execute("CREATE TABLE u (id INTEGER PRIMARY KEY)")
      const direct = new BulkRows([{ name: "id", type: INTEGER }], 3000)
      for (let i = 0; i < 3000; i++) direct.setNumber(0, i, i === 2999 ? 0 : i)
      const dup = await s.appendRows({ schema: "main", table: "u" }, direct).catch((e: unknown) => e)
      expect((dup as EngineError).kind).toBe("Constraint Error")
      expect(await s.queryAll("SELECT count(*) FROM u")).toEqual([[0n]])
      direct.setNumber(0, 2999, 2999)
      expect(await s.appendRows({ schema: "main", table: "u" }, direct)).toBe(3000)
      expect(await s.queryAll("SELECT count(*) FROM u")).toEqual([[3000n]])
    } finally {
      engine.close()
    }
  })

  it("a failed append leaves nothing behind that a later garbage collection appends into the next transaction", async () => {
    const engine = await Engine.open()
    try {
      const s = await engine.session()
      await s.execute("CREATE TABLE g (id INTEGER NOT NULL)")
      // no notNull in the spec: DuckDB's appender itself refuses the NULL, at its flush
      const rows = new BulkRows([{ name: "id", type: INTEGER }], 2)
      rows.setNumber(0, 0, 1)
      await s.begin()
      const failed = await s.appendRows({ schema: "main", table: "g" }, rows).then(
        () => "appended",
        (e: unknown) => (e as EngineError).kind
      )
      expect(failed).toBe("Constraint Error")
      await s.rollback()
      await s.begin()
      await s.execute("INSERT INTO g VALUES (5)")
      // the failed appender is garbage now: its finalizer must not flush the refused rows into this transaction
      for (let i = 0; i < 10; i++) {
        collectGarbage()
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(await s.queryAll("SELECT id FROM g")).toEqual([[5]])
      await s.commit()
    } finally {
      engine.close()
    }
  })
})
