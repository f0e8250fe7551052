import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

/**
 * Objects against other operands in a client's SQL, through raw node-oracledb: a scalar compared with an object is
 * ORA-00932 (SQL Language Reference, "Implicit Data Conversion": no built-in type converts to an object type), and a
 * DbObject bind compares with a column or a constructor's object attribute by attribute (Object-Relational
 * Developer's Guide, "Comparing Objects"), a TIMESTAMP WITH TIME ZONE attribute as its instant (object-keys.ts).
 */
describe("Oracle test server: objects compared with scalars and DbObject binds", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE oo_pt AS OBJECT (x NUMBER, y NUMBER)")
    await conn.execute("CREATE TABLE oo_t (id NUMBER, o oo_pt)")
    await conn.execute("INSERT INTO oo_t VALUES (1, oo_pt(1, 2))")
    await conn.execute("INSERT INTO oo_t VALUES (2, oo_pt(3, 4.5))")
    await conn.execute("CREATE TYPE oo_ev AS OBJECT (name VARCHAR2(10), at TIMESTAMP WITH TIME ZONE)")
    await conn.execute("CREATE TABLE oo_e (id NUMBER, e oo_ev)")
    await conn.execute("INSERT INTO oo_e VALUES (1, oo_ev('a', TIMESTAMP '2024-01-02 05:04:05 +02:00'))")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const ids = async (sql: string, binds: unknown = []) => ((await conn.execute(sql, binds)).rows as Array<[number]>).map((r) => r[0])
  const error = async (sql: string, binds: unknown = []) => (await failure(() => conn.execute(sql, binds))).message.split("\n")[0]

  it("refuses a number or character operand compared with an object: ORA-00932", async () => {
    const expected = "ORA-00932: inconsistent datatypes: expected TEST.OO_PT got NUMBER"
    expect(await error("SELECT id FROM oo_t WHERE o IN (:a, :b)", [1, 2])).toBe(expected)
    expect(await error("SELECT id FROM oo_t t WHERE t.o = :a", [1])).toBe(expected)
    expect(await error("SELECT id FROM oo_t WHERE o IN (1, 2)")).toBe(expected)
    expect(await error("SELECT id FROM oo_t WHERE o NOT IN (oo_pt(1, 2), 3)")).toBe(expected)
    expect(await error("SELECT id FROM oo_t WHERE 1 = o")).toBe(expected)
    expect(await error("SELECT id FROM oo_t WHERE o <> :a", ["x"])).toBe("ORA-00932: inconsistent datatypes: expected TEST.OO_PT got CHAR")
  })

  it("compares DbObject binds with stored and constructed objects attribute by attribute", async () => {
    const Pt = await conn.getDbObjectClass("OO_PT")
    expect(await ids("SELECT id FROM oo_t WHERE o IN (:a, :b) ORDER BY id", [new Pt({ X: 1, Y: 2 }), new Pt({ X: 3, Y: 4.5 })])).toEqual([1, 2])
    expect(await ids("SELECT id FROM oo_t WHERE o NOT IN (:a, :b)", [new Pt({ X: 1, Y: 2 }), new Pt({ X: 9, Y: 9 })])).toEqual([2])
    expect(await ids("SELECT id FROM oo_t WHERE o = :a", [new Pt({ X: 3, Y: 4.5 })])).toEqual([2])
    // an object written from a bind equals the one a constructor wrote
    await conn.execute("INSERT INTO oo_t VALUES (3, :a)", [new Pt({ X: 1, Y: 2 })])
    expect(await ids("SELECT b.id FROM oo_t a, oo_t b WHERE a.id = 1 AND a.o = b.o ORDER BY b.id")).toEqual([1, 3])
    expect(await ids("SELECT id FROM oo_t WHERE o = oo_pt(1, 2) ORDER BY id")).toEqual([1, 3])
    await conn.rollback()
  })

  it("compares a DbObject bind in an IN list by its key: a zoned attribute as its instant", async () => {
    const Ev = await conn.getDbObjectClass("OO_EV")
    const sameInstant = new Ev({ NAME: "a", AT: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) })
    const other = new Ev({ NAME: "a", AT: new Date(Date.UTC(2024, 0, 2, 5, 4, 5)) })
    expect(await ids("SELECT id FROM oo_e WHERE e IN (:a, :b)", [other, sameInstant])).toEqual([1])
    expect(await ids("SELECT id FROM oo_e WHERE e IN (:a)", [other])).toEqual([])
  })
})
