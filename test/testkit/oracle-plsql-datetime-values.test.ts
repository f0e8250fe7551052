import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// DATE and TIMESTAMP variables in PL/SQL expressions, through raw node-oracledb: every datetime function takes them
// (ADD_MONTHS and EXTRACT failed ORA-00932 on a variable), and ADD_MONTHS keeps Oracle's rule for the last day of a
// month (SQL Language Reference 23ai, "ADD_MONTHS": "If date is the last day of the month or if the resulting month
// has fewer days than the day component of date, then the result is the last day of the resulting month").
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: PL/SQL datetime values", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const text = async (block: string): Promise<string> =>
    ((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } })).outBinds as { s: string }).s

  it("DATE and TIMESTAMP variables go through ADD_MONTHS, EXTRACT, TRUNC, LAST_DAY and arithmetic", async () => {
    expect(await text("DECLARE v DATE := DATE '2024-01-31'; w DATE; BEGIN w := ADD_MONTHS(v, 1); :s := TO_CHAR(w, 'YYYY-MM-DD'); END;")).toBe("2024-02-29")
    expect(await text("DECLARE v TIMESTAMP := TIMESTAMP '2024-05-06 07:08:09.5'; BEGIN :s := EXTRACT(YEAR FROM v) || ' ' || TO_CHAR(v, 'HH24:MI:SS.FF3'); END;")).toBe("2024 07:08:09.500")
    expect(await text("DECLARE v DATE := DATE '2024-05-06'; BEGIN :s := EXTRACT(MONTH FROM v) || ' ' || TO_CHAR(TRUNC(v, 'MM'), 'YYYY-MM-DD') || ' ' || TO_CHAR(LAST_DAY(v), 'DD'); END;")).toBe("5 2024-05-01 31")
    expect(await text("DECLARE v DATE := DATE '2024-05-06'; BEGIN :s := TO_CHAR(v + 1, 'YYYY-MM-DD') || ' ' || TO_CHAR(v - DATE '2024-05-01'); END;")).toBe("2024-05-07 5")
  })

  // PL/SQL's TIMESTAMP keeps nine fraction digits (PL/SQL Language Reference, "PL/SQL Data Types"): a TIMESTAMP(9)
  // variable computed on (± INTERVAL, compared) keeps its digits below the microsecond
  it("a TIMESTAMP(9) variable keeps its nanoseconds through arithmetic and comparison", async () => {
    const block = (body: string) =>
      text(`DECLARE t TIMESTAMP(9) := TIMESTAMP '2024-01-01 10:00:00.123456789'; BEGIN ${body} END;`)
    expect(await block(`:s := TO_CHAR(t + INTERVAL '1' SECOND, 'HH24:MI:SS.FF9');`)).toBe("10:00:01.123456789")
    expect(await block(`t := t - INTERVAL '1' DAY; t := t + INTERVAL '0.000000001' SECOND; :s := TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF9');`)).toBe("2023-12-31 10:00:00.123456790")
    expect(await block(`IF t + INTERVAL '1' SECOND > TIMESTAMP '2024-01-01 10:00:01.123456788' THEN :s := 'later'; ELSE :s := 'not later'; END IF;`)).toBe("later")
  })

  it("ADD_MONTHS of a month's last day is the last day of the resulting month, the time of day kept", async () => {
    const rows = await conn.execute(`SELECT TO_CHAR(ADD_MONTHS(DATE '2024-02-29', 1), 'YYYY-MM-DD'), TO_CHAR(ADD_MONTHS(DATE '2024-01-30', 1), 'YYYY-MM-DD'),
      TO_CHAR(ADD_MONTHS(TIMESTAMP '2023-04-30 10:20:30', -2), 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(ADD_MONTHS(DATE '2024-01-15', 13), 'YYYY-MM-DD') FROM dual`)
    expect(rows.rows).toEqual([["2024-03-31", "2024-02-29", "2023-02-28 10:20:30", "2025-02-15"]])
  })

  it("MONTHS_BETWEEN: whole months for matching or last days, else the rest in 31-day months, in SQL and PL/SQL", async () => {
    // SQL Language Reference, "MONTHS_BETWEEN": MONTHS_BETWEEN(TO_DATE('02-02-1995','MM-DD-YYYY'),
    // TO_DATE('01-01-1995','MM-DD-YYYY')) is 1.03225806
    const r = await conn.execute(`SELECT MONTHS_BETWEEN(TO_DATE('02-02-1995', 'MM-DD-YYYY'), TO_DATE('01-01-1995', 'MM-DD-YYYY')),
      MONTHS_BETWEEN(DATE '2024-03-31', DATE '2024-02-29'), MONTHS_BETWEEN(DATE '2024-01-15', DATE '2024-03-15'),
      MONTHS_BETWEEN(TIMESTAMP '2024-01-02 12:00:00', DATE '2024-01-01') FROM dual`)
    const [[a, b, c, d]] = r.rows as [[number, number, number, number]]
    expect([a.toFixed(8), b, c, d.toFixed(8)]).toEqual(["1.03225806", 1, -2, (1.5 / 31).toFixed(8)])
    expect((r.metaData as Array<{ dbTypeName: string }>)[0]!.dbTypeName).toBe("NUMBER")
    expect(await text("DECLARE v DATE := DATE '2024-06-30'; BEGIN :s := MONTHS_BETWEEN(v, DATE '2024-04-30'); END;")).toBe("2")
  })
})
