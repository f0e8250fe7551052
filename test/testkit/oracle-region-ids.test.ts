/**
 * Oracle test server: a TIMESTAMP WITH TIME ZONE value in any region of Oracle's time zone file goes on the wire with
 * that region's id (13 bits after the UTC date and time: `0x80 | id >> 6`, `(id & 0x3f) << 2`), not as its offset,
 * and TO_CHAR / EXTRACT name the region. Raw node-oracledb through a byte-recording proxy, no driver in between.
 *
 * The ids are the ones Oracle's time zone file gives these regions, as the go-ora thin driver lists them
 * (github.com/sijms/go-ora, v3/types/oracle_zones.go): written out here rather than read from the server's table, so
 * a wrong table fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"
import { startRoundTripProxy } from "./oracle/proxy.ts"

/** Region, its Oracle id, its offset in minutes on 2024-01-15, and the UTC instant of 2024-01-15 12:00 there. */
const REGIONS = [
  ["America/Argentina/Buenos_Aires", 687, -180],
  ["Asia/Kathmandu", 797, 345],
  ["Pacific/Chatham", 472, 825],
  ["Australia/Lord_Howe", 354, 660],
  ["Asia/Kolkata", 772, 330]
] as const

describe("Oracle test server: region ids for every region of Oracle's time zone file (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tzr (id NUMBER, a TIMESTAMP WITH TIME ZONE)")
    for (const [k, [region]] of REGIONS.entries()) {
      await conn.execute(`INSERT INTO tzr VALUES (${k}, TIMESTAMP '2024-01-15 12:00:00 ${region}')`)
    }
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("names the region and keeps the instant: TO_CHAR TZR, EXTRACT(TIMEZONE_REGION), the fetched Date", async () => {
    const r = await conn.execute("SELECT TO_CHAR(a, 'YYYY-MM-DD HH24:MI TZR'), EXTRACT(TIMEZONE_REGION FROM a), a FROM tzr ORDER BY id")
    expect(r.rows).toEqual(REGIONS.map(([region, , offset]) => [
      `2024-01-15 12:00 ${region}`,
      region,
      new Date(Date.UTC(2024, 0, 15, 12) - offset * 60_000)
    ]))
  })

  it("sends each value with its region's id, not its offset", async () => {
    const proxy = await startRoundTripProxy(server.port)
    try {
      const c = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
      const r = await c.execute("SELECT a FROM tzr ORDER BY id")
      await c.close()
      expect(r.rows).toHaveLength(REGIONS.length)
      const bytes = proxy.serverBytes()
      for (const [region, id, offset] of REGIONS) {
        const utc = new Date(Date.UTC(2024, 0, 15, 12) - offset * 60_000)
        const value = Buffer.from([13, 120, 124, utc.getUTCMonth() + 1, utc.getUTCDate(), utc.getUTCHours() + 1, utc.getUTCMinutes() + 1, 1, 0, 0, 0, 0, 0x80 | (id >> 6), (id & 0x3f) << 2])
        expect(bytes.includes(value), region).toBe(true)
      }
    } finally {
      await proxy.close()
    }
  })
})
