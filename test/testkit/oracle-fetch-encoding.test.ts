import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, numbersAsText, openConnection } from "./oracle/helpers.ts"

// The server encodes DATE / TIMESTAMP cells with their date bytes memoised per day in a table of 4,096 slots, and
// NUMBER cells of integers with int32 arithmetic below 2^31 (testkit/oracle/encode.ts, number.ts). These rows put
// days that share a slot next to each other, and integers on both sides of 2^31 and 2^53, so that a stale slot or a
// wrong switch between the two arithmetic paths shows as a wrong value.

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")
const DAY_MS = 86_400_000

/** `YYYY-MM-DD HH24:MI:SS.FFFFFF` of a UTC instant given in milliseconds plus extra microseconds. */
const text = (ms: number, micros: number): string => {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds() * 1000 + micros, 6)}`
}

/** The same fields of a Date node-oracledb built from DATE / TIMESTAMP bytes (in the client's local time). */
const localText = (d: Date): string =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`

describe("Oracle test server: result cells encoded from DuckDB's vectors (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("DATE and TIMESTAMP values whose days lie 4,096 days apart (one slot of the day table) read back as stored, alternating in one result", async () => {
    await conn.execute("CREATE TABLE day_slots (id NUMBER, d DATE, t TIMESTAMP(6), t3 TIMESTAMP(3))")
    // days around 1970, before it, and far from it, each next to days sharing its slot
    const days = [0, 4096, -4096, 1, 4097, -1, -4097, 19_000, 19_000 + 4096, 19_000 - 3 * 4096, -200_000, -200_000 + 4096, 2_900_000, 2_900_000 - 4096]
    const texts = days.map((day, k) => text(day * DAY_MS + ((k * 7919) % 86_400) * 1000 + (k % 1000), (k * 131) % 1000))
    for (const [k, t] of texts.entries()) {
      await conn.execute(
        // (t3 given its three digits: a TIMESTAMP(3) column rounds more, as Oracle rounds on write)
        `INSERT INTO day_slots VALUES (${k}, TO_DATE('${t.slice(0, 19)}', 'YYYY-MM-DD HH24:MI:SS'), TIMESTAMP '${t}', TIMESTAMP '${t.slice(0, 23)}')`
      )
    }
    const r = await conn.execute("SELECT d, t, t3, TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF6') FROM day_slots ORDER BY id")
    expect(r.rows.map((row: Array<unknown>) => row[3])).toEqual(texts)
    expect(r.rows.map((row: Array<Date>) => [localText(row[0]!), localText(row[1]!), localText(row[2]!)])).toEqual(
      texts.map((t) => [`${t.slice(0, 19)}.000`, t.slice(0, 23), t.slice(0, 23)])
    )
    // a second read finds the slots filled by the first and must not take another day's bytes from them
    const again = await conn.execute("SELECT d, t FROM day_slots ORDER BY id DESC")
    expect(again.rows.map((row: Array<Date>) => localText(row[1]!))).toEqual(texts.map((t) => t.slice(0, 23)).reverse())
  })

  it("NUMBER(18) and NUMBER(12,2) integers on both sides of 2^31 and up to 2^53 read back digit for digit", async () => {
    await conn.execute("CREATE TABLE int_edges (id NUMBER, n NUMBER(18), a NUMBER(12,2))")
    const values: Array<[string, string]> = [
      ["0", "0"],
      ["99", ".99"],
      ["100", "1"],
      ["2147483647", "21474836.47"],
      ["2147483648", "21474836.48"],
      ["-2147483647", "-21474836.47"],
      ["-2147483648", "-21474836.48"],
      ["-2147483649", "-21474836.49"],
      ["4294967296", "9999999999.99"],
      ["9007199254740991", "-9999999999.99"],
      ["-9007199254740991", "1000000000"],
      ["100000000000000000", "-.01"]
    ]
    for (const [k, [n, a]] of values.entries()) await conn.execute(`INSERT INTO int_edges VALUES (${k}, ${n}, ${a})`)
    const r = await conn.execute("SELECT n, a FROM int_edges ORDER BY id", [], numbersAsText)
    expect(r.rows).toEqual(values)
  })
})
