import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// NEXT_DAY and ROUND / TRUNC(date, 'IW' | 'WW' | 'W' | 'DAY' | 'IYYY') through raw node-oracledb (SQL Language
// Reference, "NEXT_DAY" and "ROUND and TRUNC Date Functions"; weeks start on Sunday for 'DAY' in territory AMERICA).
// NEXT_DAY failed ORA-00904, the week models ORA-01722 (WW was truncated to the ISO week).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: NEXT_DAY and dates rounded / truncated by week", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE wk (id NUMBER(4), d DATE)")
    // 2020-01-05 is a Sunday
    await conn.execute("INSERT INTO wk VALUES (1, TO_DATE('2020-01-05 18:45', 'YYYY-MM-DD HH24:MI'))")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const days = async (...exprs: Array<string>) =>
    (await conn.execute(`SELECT ${exprs.map((e) => `TO_CHAR(${e}, 'YYYY-MM-DD HH24:MI DY')`).join(", ")} FROM wk`)).rows![0]

  it("NEXT_DAY: the first later date on the named weekday (name or abbreviation, any case), time kept", async () => {
    expect(await days("NEXT_DAY(DATE '2024-01-03', 'MONDAY')", "NEXT_DAY(DATE '2024-01-01', 'mon')", "NEXT_DAY(d, 'SUNDAY')", "NEXT_DAY(d, 'Friday')")).toEqual([
      "2024-01-08 00:00 MON",
      "2024-01-08 00:00 MON",
      "2020-01-12 18:45 SUN",
      "2020-01-10 18:45 FRI"
    ])
    await expect(conn.execute("SELECT NEXT_DAY(DATE '2024-01-03', 'FOO') FROM dual")).rejects.toThrow(/ORA-01846/)
  })

  it("TRUNC by ISO week, the year's and the month's weeks, the territory's week and the ISO year", async () => {
    // 2024-01-01 is a Monday, 2024-02-01 a Thursday
    expect(await days("TRUNC(DATE '2024-01-03', 'IW')", "TRUNC(DATE '2024-01-10', 'WW')", "TRUNC(DATE '2024-02-10', 'W')", "TRUNC(DATE '2024-01-03', 'DAY')", "TRUNC(d, 'IW')", "TRUNC(DATE '2021-01-02', 'IYYY')")).toEqual([
      "2024-01-01 00:00 MON",
      "2024-01-08 00:00 MON",
      "2024-02-08 00:00 THU",
      "2023-12-31 00:00 SUN",
      "2019-12-30 00:00 MON",
      "2019-12-30 00:00 MON"
    ])
  })

  it("ROUND to the nearer week start, up from half a week", async () => {
    expect(await days("ROUND(DATE '2024-01-04', 'IW')", "ROUND(TIMESTAMP '2024-01-04 12:00:00', 'IW')", "ROUND(DATE '2024-01-12', 'WW')", "ROUND(DATE '2024-01-03', 'DAY')", "ROUND(d, 'DAY')", "ROUND(DATE '2024-02-13', 'W')")).toEqual([
      "2024-01-01 00:00 MON",
      "2024-01-08 00:00 MON",
      "2024-01-15 00:00 MON",
      "2023-12-31 00:00 SUN",
      "2020-01-05 00:00 SUN",
      "2024-02-15 00:00 THU"
    ])
  })
})
