import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: objects written from DbObject binds read like constructed ones, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(
      "CREATE TYPE bo_ev AS OBJECT (name VARCHAR2(10), d DATE, ts TIMESTAMP, tz TIMESTAMP WITH TIME ZONE, tag RAW(4), w BINARY_DOUBLE)"
    )
    await conn.execute("CREATE TABLE bo_tab (id NUMBER, e bo_ev)")
    const Ev = await conn.getDbObjectClass("BO_EV")
    await conn.execute("INSERT INTO bo_tab VALUES (1, :1)", [
      new Ev({ NAME: "bound", D: new Date(2024, 0, 2, 3, 4, 5), TS: new Date(2024, 0, 2, 3, 4, 5, 600), TZ: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), TAG: Buffer.from([0xca, 0xfe]), W: 0.25 })
    ])
    await conn.execute(
      "INSERT INTO bo_tab VALUES (2, bo_ev('built', TO_DATE('2024-01-03 00:00:00', 'YYYY-MM-DD HH24:MI:SS'), TIMESTAMP '2024-01-03 01:02:03.5', TIMESTAMP '2024-01-03 01:02:03 +02:00', HEXTORAW('BEEF'), 0.5))"
    )
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("reads DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, RAW and BINARY_DOUBLE attributes of a bound object", async () => {
    const r = await conn.execute(
      "SELECT t.e.name, TO_CHAR(t.e.d, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(t.e.ts, 'HH24:MI:SS.FF3'), TO_CHAR(t.e.tz, 'HH24:MI TZH:TZM'), t.e.tag, t.e.w FROM bo_tab t ORDER BY t.id"
    )
    expect(r.rows).toEqual([
      ["bound", "2024-01-02 03:04:05", "03:04:05.600", "03:04 +00:00", Buffer.from([0xca, 0xfe]), 0.25],
      ["built", "2024-01-03 00:00:00", "01:02:03.500", "01:02 +02:00", Buffer.from([0xbe, 0xef]), 0.5]
    ])
  })

  it("compares and orders by a bound object's DATE attribute, and fetches the object back as a DbObject", async () => {
    expect((await conn.execute("SELECT t.id FROM bo_tab t WHERE t.e.d < DATE '2024-01-03' AND t.e.tag = HEXTORAW('CAFE')")).rows).toEqual([[1]])
    expect((await conn.execute("SELECT t.id FROM bo_tab t ORDER BY t.e.d DESC")).rows).toEqual([[2], [1]])
    expect((await conn.execute("SELECT t.id FROM bo_tab t WHERE t.e.ts > TIMESTAMP '2024-01-02 03:04:05.5'")).rows).toEqual([[1], [2]])
    const [e] = (await conn.execute("SELECT t.e FROM bo_tab t WHERE t.id = 1")).rows[0]
    expect([e.NAME, e.D, e.TS, e.TAG, e.W]).toEqual(["bound", new Date(2024, 0, 2, 3, 4, 5), new Date(2024, 0, 2, 3, 4, 5, 600), Buffer.from([0xca, 0xfe]), 0.25])
    expect(e.TZ.getTime()).toBe(Date.UTC(2024, 0, 2, 3, 4, 5))
  })

  it("nests an object-typed column, bind or attribute given to a constructor as the object, not as text of it", async () => {
    await conn.execute("CREATE TYPE bo_pt AS OBJECT (x NUMBER, d DATE)")
    await conn.execute("CREATE TYPE bo_pts AS TABLE OF bo_pt")
    await conn.execute("CREATE TYPE bo_route AS OBJECT (n VARCHAR2(10), p bo_pt)")
    await conn.execute("CREATE TABLE bo_p (id NUMBER, p bo_pt)")
    await conn.execute("CREATE TABLE bo_r (id NUMBER, r bo_route)")
    await conn.execute("INSERT INTO bo_p VALUES (1, bo_pt(5, DATE '2024-01-02'))")
    await conn.execute("INSERT INTO bo_r SELECT 1, bo_route('col', t.p) FROM bo_p t")
    const Pt = await conn.getDbObjectClass("BO_PT")
    await conn.execute("INSERT INTO bo_r VALUES (2, bo_route('bind', :p))", { p: new Pt({ X: 6, D: new Date(2024, 0, 3) }) })
    await conn.execute("INSERT INTO bo_r SELECT 3, bo_route('attr', t.r.p) FROM bo_r t WHERE t.id = 1")
    const r = await conn.execute("SELECT t.r.n, t.r.p.x, TO_CHAR(t.r.p.d, 'YYYY-MM-DD') FROM bo_r t ORDER BY t.id")
    expect(r.rows).toEqual([["col", 5, "2024-01-02"], ["bind", 6, "2024-01-03"], ["attr", 5, "2024-01-02"]])
    const [route] = (await conn.execute("SELECT t.r FROM bo_r t WHERE t.id = 1")).rows[0]
    expect([route.N, route.P.X, route.P.D]).toEqual(["col", 5, new Date(2024, 0, 2)])
    // a collection constructor given object columns; an attribute read off a constructor over a column
    const [pts] = (await conn.execute("SELECT bo_pts(t.p, t.p) FROM bo_p t")).rows[0]
    expect(pts.getValues().map((p: { X: number }) => p.X)).toEqual([5, 5])
    expect((await conn.execute("SELECT bo_route('m', t.p).p.x FROM bo_p t")).rows).toEqual([[5]])
    await conn.rollback()
  })

  it("reads a bound object's DATE attribute in a PL/SQL block", async () => {
    const Ev = await conn.getDbObjectClass("BO_EV")
    const r = await conn.execute("DECLARE e bo_ev := :e; BEGIN :o := TO_CHAR(e.d, 'YYYY-MM-DD HH24:MI') || ' ' || e.name; END;", {
      e: new Ev({ NAME: "p", D: new Date(2024, 4, 6, 7, 8), TAG: Buffer.from([0xab]) }),
      o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }
    })
    expect(r.outBinds.o).toBe("2024-05-06 07:08 p")
  })
})
