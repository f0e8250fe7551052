import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import { installHooks } from "../../layers/oracle/DbPatches.ts"
import { LOB_PREFETCH, lobConverter } from "../../layers/oracle/LobPrefetch.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// The server's side of LOB prefetch, through raw oracledb with only the LOB prefetch hooks of
// layers/oracle/LobPrefetch.ts (no driver): a define asking for N characters / bytes gets each LOB's first N with
// its locator, and the locator still reads the whole LOB; a define without it (plain oracledb) gets locators only.

let server: OracleTestServerHandle
let plain: Conn
let prefetching: Conn

/** Prefetch length asked for on `prefetching`: small, so that a few characters tell whole values from prefixes. */
const N = 5

/** Values as the converter sees them: a whole prefetched value as it is, one read through its locator tagged. */
const converter = lobConverter(async (lob) => {
  try {
    return { read: await lob.getData() }
  } finally {
    lob.destroy()
  }
})
const fetchTypeHandler = (m: { dbType: unknown }) =>
  m.dbType === oracledb.DB_TYPE_CLOB || m.dbType === oracledb.DB_TYPE_NCLOB || m.dbType === oracledb.DB_TYPE_BLOB ? { converter } : undefined

describe("Oracle test server: LOB prefetch", () => {
  beforeAll(async () => {
    expect(installHooks()).toBeUndefined()
    const s = await withServer()
    server = s.server
    plain = await s.connect()
    prefetching = await s.connect()
    ;(prefetching as any)._impl._protocol.caps[LOB_PREFETCH] = N
    await plain.execute("CREATE TABLE lobs (id NUMBER PRIMARY KEY, c CLOB, nc NCLOB, b BLOB)")
    await plain.execute("INSERT INTO lobs VALUES (1, EMPTY_CLOB(), EMPTY_CLOB(), EMPTY_BLOB())")
    await plain.execute("INSERT INTO lobs VALUES (2, NULL, NULL, NULL)")
    await plain.execute("INSERT INTO lobs VALUES (3, 'héllo', N'ü😀ab', HEXTORAW('0001020304'))")
    await plain.execute("INSERT INTO lobs VALUES (4, 'héllo!', N'ü😀abc', HEXTORAW('000102030405'))")
    await plain.commit()
  })
  afterAll(async () => {
    await prefetching?.close()
    await plain?.close()
    await server?.close()
  })

  it("sends LOBs up to the define's prefetch length whole with their locators, longer ones as prefixes read through the locator", async () => {
    const result = await prefetching.execute("SELECT c, nc, b FROM lobs ORDER BY id", [], { fetchTypeHandler })
    const bin = (v: unknown) => (Buffer.isBuffer(v) ? [...v] : v)
    expect(result.rows.map((r: Array<unknown>) => r.map(bin))).toEqual([
      ["", "", []],
      [null, null, null],
      // 5 characters: "😀" counts two (UTF-16 code units, as CLOB lengths do)
      ["héllo", "ü😀ab", [0, 1, 2, 3, 4]],
      [{ read: "héllo!" }, { read: "ü😀abc" }, { read: Buffer.from([0, 1, 2, 3, 4, 5]) }]
    ])
    // the same cursor executed again (defined once) decodes the same way
    const again = await prefetching.execute("SELECT c, nc, b FROM lobs ORDER BY id", [], { fetchTypeHandler })
    expect(again.rows.map((r: Array<unknown>) => r.map(bin))).toEqual(result.rows.map((r: Array<unknown>) => r.map(bin)))
  })

  it("still sends locators only to a define without LOB prefetch (plain oracledb), whose Lobs read whole", async () => {
    const result = await plain.execute("SELECT c, nc, b FROM lobs ORDER BY id")
    const values = await Promise.all(result.rows.map((r: Array<any>) =>
      Promise.all(r.map(async (lob) => (lob === null ? null : [lob.length, await lob.getData()])))))
    expect(values).toEqual([
      [[0, null], [0, null], [0, null]],
      [null, null, null],
      [[5, "héllo"], [5, "ü😀ab"], [5, Buffer.from([0, 1, 2, 3, 4])]],
      [[6, "héllo!"], [6, "ü😀abc"], [6, Buffer.from([0, 1, 2, 3, 4, 5])]]
    ])
  })
})
