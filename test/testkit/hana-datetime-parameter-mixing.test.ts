import { describe, expect, it } from "@effect/vitest"
import { call } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** hdb's type code of INTEGER. */
const INTEGER = 3

const query = async (c: HdbClient, sql: string, values: unknown[]): Promise<{ types: number[]; rows: unknown }> => {
  const st = await call<HdbStatement>((cb) => c.prepare(sql, cb))
  return { types: st.parameterMetadata.map((p) => p.dataType), rows: await call((cb) => st.exec(values, cb)) }
}

/**
 * A TIMESTAMP compared with DATE arithmetic that holds a parameter converts the DATE to a TIMESTAMP, as it does
 * without the parameter (HANA converts the narrower datetime to the wider one, SAP HANA SQL Reference, "Data Type
 * Conversion"), and the statement has as many parameters as it is written with. `d + n` adds n days to a DATE as
 * `ADD_DAYS(d, n)` does, so the parameter there is a number.
 */
describe("HANA test server: a TIMESTAMP compared with DATE arithmetic holding a parameter (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({
    client: { dataFormatSupport: 8 },
    setup: [
      "CREATE COLUMN TABLE mixp (id INTEGER, ts TIMESTAMP, d DATE)",
      "INSERT INTO mixp VALUES (1, '2024-01-02 03:04:05.1234567', '2024-01-01')",
      "INSERT INTO mixp VALUES (2, '2024-01-05 03:04:05.1234567', '2024-01-01')"
    ]
  }, (opened) => (c = opened.client))

  it("ts > d + ? and d + ? < ts compare as TIMESTAMPs, the parameter a number of days", async () => {
    expect(await query(c, "SELECT id FROM mixp WHERE ts > d + ? ORDER BY id", [2])).toEqual({ types: [INTEGER], rows: [{ ID: 2 }] })
    expect(await query(c, "SELECT id FROM mixp WHERE d + ? < ts ORDER BY id", [1])).toEqual({ types: [INTEGER], rows: [{ ID: 1 }, { ID: 2 }] })
    expect(await query(c, "SELECT d + ? AS X FROM mixp WHERE id = 1", [3])).toEqual({ types: [INTEGER], rows: [{ X: "2024-01-04" }] })
  })

  it("ts BETWEEN d + ? AND … converts the DATE arithmetic holding the parameter too", async () => {
    expect(await query(c, "SELECT id FROM mixp WHERE ts BETWEEN d + ? AND ADD_DAYS(d, 9) ORDER BY id", [2])).toEqual({ types: [INTEGER], rows: [{ ID: 2 }] })
    expect(await query(c, "SELECT id FROM mixp WHERE ts BETWEEN d + ? AND d + ? ORDER BY id", [1, 2])).toEqual({ types: [INTEGER, INTEGER], rows: [{ ID: 1 }] })
  })

  it("ts > ADD_DAYS(d, ?) has one parameter, as written", async () => {
    expect(await query(c, "SELECT id FROM mixp WHERE ts > ADD_DAYS(d, ?) ORDER BY id", [2])).toEqual({ types: [INTEGER], rows: [{ ID: 2 }] })
    expect(await query(c, "SELECT id FROM mixp WHERE ts >= ADD_DAYS(CURRENT_DATE, ?) ORDER BY id", [-100000])).toEqual({ types: [INTEGER], rows: [{ ID: 1 }, { ID: 2 }] })
  })
})
