import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, openConnection, ym } from "./oracle/helpers.ts"

// NUMTODSINTERVAL / NUMTOYMINTERVAL of a column or bind, not only of a literal (SQL Language Reference,
// "NUMTODSINTERVAL", "NUMTOYMINTERVAL": n units as an INTERVAL DAY TO SECOND / YEAR TO MONTH), and a datetime plus
// such an interval, or plus an interval literal times a number ("Datetime/Interval Arithmetic": DATE + INTERVAL is a
// DATE). Through raw node-oracledb.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: NUMTODSINTERVAL / NUMTOYMINTERVAL of columns and binds, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE nic (n NUMBER, p NUMBER(5), d DATE)")
    await conn.execute("INSERT INTO nic VALUES (1.5, 2, DATE '2024-01-31')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("makes day-to-second intervals of an unbounded NUMBER, a NUMBER(p) and a bind", async () => {
    const r = await conn.execute("SELECT NUMTODSINTERVAL(n, 'DAY'), NUMTODSINTERVAL(p, 'HOUR'), NUMTODSINTERVAL(:m, 'MINUTE'), NUMTODSINTERVAL(n * 2, 'SECOND') FROM nic", [90])
    expect(r.rows).toEqual([[ds(1, 12, 0, 0, 0), ds(0, 2, 0, 0, 0), ds(0, 1, 30, 0, 0), ds(0, 0, 0, 3, 0)]])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(Array(4).fill("INTERVAL DAY TO SECOND"))
  })

  it("makes year-to-month intervals of whole months, described as INTERVAL YEAR TO MONTH", async () => {
    const r = await conn.execute("SELECT NUMTOYMINTERVAL(n, 'YEAR'), NUMTOYMINTERVAL(p * 7, 'MONTH'), NUMTOYMINTERVAL(-n, 'YEAR') FROM nic")
    expect(r.rows).toEqual([[ym(1, 6), ym(1, 2), ym(-1, -6)]])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(Array(3).fill("INTERVAL YEAR TO MONTH"))
  })

  it("adds them to a DATE, as it adds an interval literal times a number", async () => {
    const items = ["d + NUMTODSINTERVAL(n, 'HOUR')", "d - NUMTODSINTERVAL(:h, 'HOUR')", "d + INTERVAL '1' HOUR * p", "d + (INTERVAL '30' MINUTE * n)", "d + NUMTOYMINTERVAL(p, 'MONTH')"]
    const r = await conn.execute(`SELECT ${items.map((x) => `TO_CHAR(${x}, 'YYYY-MM-DD HH24:MI:SS')`).join(", ")} FROM nic`, [12])
    expect(r.rows).toEqual([["2024-01-31 01:30:00", "2024-01-30 12:00:00", "2024-01-31 02:00:00", "2024-01-31 00:45:00", "2024-03-31 00:00:00"]])
    const typed = await conn.execute(`SELECT ${items.join(", ")} FROM nic`, [12])
    expect(typed.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(Array(5).fill("DATE"))
  })
})
