import { describe, expect, it } from "@effect/vitest"
import { call } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** hdb's type code of LONGDATE, HANA's TIMESTAMP at data format version 4 and later. */
const LONGDATE = 61
/** hdb's type code of TIMESTAMP, HANA's TIMESTAMP at data format versions 1-3. */
const TIMESTAMP = 16

const prepare = (c: HdbClient, sql: string): Promise<HdbStatement> => call<HdbStatement>((cb) => c.prepare(sql, cb))
const run = (st: HdbStatement, values: unknown[]): Promise<unknown> => call((cb) => st.exec(values, cb))

/**
 * A parameter HANA reads as a TIMESTAMP is described as one, and a datetime text bound there is read as one.
 * `CAST(? AS TIMESTAMP)` "converts the expression to the data type specified" (SAP HANA SQL Reference, "CAST
 * Function"); ADD_SECONDS, ADD_MONTHS and ADD_YEARS take a date (`ADD_SECONDS(<time>, <num_seconds>)`, "Datetime
 * Functions"), so a parameter there is a datetime, not the NVARCHAR an untyped placeholder defaults to.
 */
describe("HANA test server: parameters read as a TIMESTAMP (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: 8 } }, (opened) => (c = opened.client))

  it("ADD_SECONDS(CAST(? AS TIMESTAMP), 0.9) describes the parameter as a TIMESTAMP and reads a datetime text", async () => {
    const st = await prepare(c, "SELECT ADD_SECONDS(CAST(? AS TIMESTAMP), 0.9) AS X FROM DUMMY")
    expect(st.parameterMetadata.map((p) => p.dataType)).toEqual([LONGDATE])
    expect(await run(st, ["2024-01-01 10:00:00"])).toEqual([{ X: "2024-01-01 10:00:00.900000000" }])
    expect(await run(st, ["2024-01-01 10:00:00.1234567"])).toEqual([{ X: "2024-01-01 10:00:01.023456700" }])
  })

  it("ADD_MONTHS, ADD_YEARS and ADD_SECONDS of a bare parameter take a datetime text, as ADD_DAYS does", async () => {
    for (const [sql, expected] of [
      ["SELECT ADD_MONTHS(?, 1) AS X FROM DUMMY", "2024-02-29 10:00:00.000000000"],
      ["SELECT ADD_YEARS(?, 1) AS X FROM DUMMY", "2025-01-31 10:00:00.000000000"],
      ["SELECT ADD_SECONDS(?, 1) AS X FROM DUMMY", "2024-01-31 10:00:01.000000000"],
      ["SELECT ADD_DAYS(?, 1) AS X FROM DUMMY", "2024-02-01 10:00:00.000000000"]
    ] as const) {
      const st = await prepare(c, sql)
      expect([sql, st.parameterMetadata.map((p) => p.dataType)]).toEqual([sql, [LONGDATE]])
      expect([sql, await run(st, ["2024-01-31 10:00:00"])]).toEqual([sql, [{ X: expected }]])
    }
  })
})

describe("HANA test server: parameters read as a TIMESTAMP at data format version 1 (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: 1 } }, (opened) => (c = opened.client))

  it("describes CAST(? AS TIMESTAMP) inside ADD_SECONDS as the version's TIMESTAMP", async () => {
    const st = await prepare(c, "SELECT ADD_SECONDS(CAST(? AS TIMESTAMP), 1) AS X FROM DUMMY")
    expect(st.parameterMetadata.map((p) => p.dataType)).toEqual([TIMESTAMP])
    expect(await run(st, ["2024-01-01 10:00:00"])).toEqual([{ X: "2024-01-01T10:00:01" }])
  })
})
