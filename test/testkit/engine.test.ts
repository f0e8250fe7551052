import { describe, expect, it } from "@effect/vitest"
import { INTEGER } from "@duckdb/node-api"
import { Engine, EngineError } from "../../testkit/engine/index.ts"

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
})
