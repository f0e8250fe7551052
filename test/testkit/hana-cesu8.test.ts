import { createRequire } from "node:module"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { CESU8_PAIRS, CESU8_PLAIN, scanCesu8 } from "../../testkit/hana/cesu8-check.ts"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

const require = createRequire(import.meta.url)
/** hdb's parameter writer (node_modules/hdb/lib/protocol/Writer.js); its string writer takes JavaScript strings only. */
const Writer = require("hdb/lib/protocol/Writer.js") as { prototype: Record<string, unknown> }
const writeCharacters = Writer.prototype["writeCharacters"] as (this: { push(b: Buffer): void }, type: number, value: unknown) => void

/**
 * Lets hdb send a hand-made Buffer as a string parameter: the bytes go into the PARAMETERS part unchanged, framed
 * as hdb frames a string (type code, length indicator: ≤ 245 one byte, else 246 + int16 / 247 + int32).
 */
const sendRawStrings = (): void => {
  Writer.prototype["writeCharacters"] = function (this: { push(b: Buffer): void }, type: number, value: unknown) {
    if (!Buffer.isBuffer(value)) return writeCharacters.call(this, type, value)
    const n = value.length
    const head = n <= 245 ? Buffer.from([type, n]) : Buffer.alloc(n <= 32767 ? 4 : 6)
    if (n > 245 && n <= 32767) head.writeUInt8(type, 0), head.writeUInt8(246, 1), head.writeInt16LE(n, 2)
    else if (n > 32767) head.writeUInt8(type, 0), head.writeUInt8(247, 1), head.writeInt32LE(n, 2)
    this.push(Buffer.concat([head, value]))
  }
}

/** U+1F600 as CESU-8: its surrogate pair D83D DE00, each half a 3-byte sequence. */
const EMOJI_CESU8 = Buffer.from("eda0bdedb880", "hex")

/** Byte strings that are not CESU-8, each with what is wrong with it. */
const INVALID: ReadonlyArray<readonly [string, Buffer]> = [
  ["a byte never used in UTF-8", Buffer.from("61ff62", "hex")],
  ["a stray continuation byte", Buffer.from("6180", "hex")],
  ["a truncated 2-byte sequence", Buffer.from("61c3", "hex")],
  ["an overlong form", Buffer.from("c0af", "hex")],
  ["an unpaired high surrogate", Buffer.from("78eda0bd79", "hex")],
  ["an unpaired low surrogate", Buffer.from("edb880", "hex")]
]

const isHanaError = (code: number) => (e: { code: unknown; message: string }) => e.code === code && /invalid CESU-8 string/.test(e.message)

describe("HANA test server: character data must be CESU-8 (raw hdb client)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: 7 })
    await exec(c, "CREATE TABLE cs (id INT, nv NVARCHAR(40), v VARCHAR(40), st SHORTTEXT(40), an ALPHANUM(20), t TEXT, bt BINTEXT, nc NCLOB)")
  })
  afterEach(() => {
    Writer.prototype["writeCharacters"] = writeCharacters
  })
  afterAll(async () => {
    closeQuietly(c)
    await server.close()
  })

  const prepare = (sql: string) => call<HdbStatement>((cb) => c.prepare(sql, cb))
  const count = async () => ((await exec<Array<{ N: number }>>(c, "SELECT COUNT(*) AS N FROM cs"))[0]!.N)

  it("refuses hand-made bytes that are not CESU-8 for a string parameter with 609, stores nothing, and the session goes on", async () => {
    sendRawStrings()
    const before = await count()
    for (const column of ["nv", "v", "st", "an"]) {
      const insert = await prepare(`INSERT INTO cs (id, ${column}) VALUES (?, ?)`)
      for (const [what, bytes] of INVALID) {
        const err = await failure(call((cb) => insert.exec([1, bytes], cb)))
        expect(isHanaError(609)(err), `${column}: ${what}: ${err.message}`).toBe(true)
        expect(err.message).toContain("parameter 2")
      }
    }
    expect(await count()).toBe(before)
    expect(await exec(c, "SELECT 1 AS X FROM DUMMY")).toEqual([{ X: 1 }])
  })

  it("refuses an unpaired surrogate hdb encodes from a JavaScript string (single and batch), keeping the table as it was", async () => {
    const before = await count()
    const insert = await prepare("INSERT INTO cs (id, nv) VALUES (?, ?)")
    const single = await failure(call((cb) => insert.exec([1, "x\uD800y"], cb)))
    expect(isHanaError(609)(single), single.message).toBe(true)
    // A batch: valid rows around the bad one; all rows or none.
    const batch = await failure(call((cb) => insert.exec([[1, "fine"], [2, "lone \uDC00"], [3, "also fine"]], cb)))
    expect(isHanaError(609)(batch), batch.message).toBe(true)
    expect(batch.message).toContain("parameter 2 of row 2")
    expect(await count()).toBe(before)
  })

  it("refuses such bytes in TEXT, BINTEXT and NCLOB values, inline and written with WRITELOB", async () => {
    const before = await count()
    for (const column of ["t", "bt", "nc"]) {
      const insert = await prepare(`INSERT INTO cs (id, ${column}) VALUES (?, ?)`)
      for (const [what, bytes] of INVALID) {
        const err = await failure(call((cb) => insert.exec([1, bytes], cb)))
        expect(isHanaError(609)(err), `${column}: ${what}: ${err.message}`).toBe(true)
      }
      // A value larger than one request: hdb sends the rest with WRITELOB, and the bad byte is at the very end.
      const large = Buffer.concat([Buffer.alloc(300_000, 0x61), Buffer.from([0xff])])
      const err = await failure(call((cb) => insert.exec([2, large], cb)))
      expect(isHanaError(609)(err), `${column} via WRITELOB: ${err.message}`).toBe(true)
    }
    expect(await count()).toBe(before)
    expect(await exec(c, "SELECT 1 AS X FROM DUMMY")).toEqual([{ X: 1 }])
  })

  it("refuses statement text that is not CESU-8 (a literal with an unpaired surrogate)", async () => {
    const err = await failure(exec(c, "SELECT 'x\uD800' AS S FROM DUMMY"))
    expect(isHanaError(609)(err), err.message).toBe(true)
    const prepared = await failure(prepare("SELECT 'x\uDC00' AS S FROM DUMMY"))
    expect(isHanaError(609)(prepared), prepared.message).toBe(true)
  })

  it("accepts surrogate pairs (the 6-byte CESU-8 form) everywhere and reads them back exactly", async () => {
    const text = "a\u{1F600}b\u{10400}"
    const insert = await prepare("INSERT INTO cs (id, nv, v, st, an, t, bt, nc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    await call((cb) => insert.exec([10, text, text, text, text, text, text, text], cb))
    await call((cb) => insert.exec([[11, text, text, text, text, text, text, text], [12, "x", "x", "x", "x", "x", "x", "x"]], cb))
    // Hand-made CESU-8 bytes of the pair, sent as they are, for a string and for an NCLOB.
    sendRawStrings()
    await call((cb) => insert.exec([13, EMOJI_CESU8, EMOJI_CESU8, EMOJI_CESU8, EMOJI_CESU8, EMOJI_CESU8, EMOJI_CESU8, EMOJI_CESU8], cb))
    const rows = await exec<Array<Record<string, unknown>>>(c, "SELECT id, nv, v, st, an, t, bt, nc FROM cs WHERE id >= 10 ORDER BY id")
    const cesu = (s: string) => Buffer.from(require("hdb/lib/util/convert.js").encode(s, true) as Buffer)
    const expected = (s: string) => ({ NV: s, V: s, ST: s, AN: s, T: cesu(s), BT: cesu(s), NC: cesu(s) })
    expect(rows.map(({ ID: _id, ...rest }) => rest)).toEqual([expected(text), expected(text), expected("x"), expected("\u{1F600}")])
  })
})

describe("scanCesu8", () => {
  const scan = (hex: string) => {
    const b = Buffer.from(hex, "hex")
    return scanCesu8(b, 0, b.length)
  }
  it("tells plain text, surrogate pairs and the offset of the first bad byte apart", () => {
    expect(scan("")).toBe(CESU8_PLAIN)
    expect(scan("61c3a4e282ac")).toBe(CESU8_PLAIN) // a, ä, €
    expect(scan("f09f9880")).toBe(CESU8_PLAIN) // U+1F600 as 4-byte UTF-8 (hdb with useCesu8: false)
    expect(scan("61eda0bdedb880")).toBe(CESU8_PAIRS)
    expect(scan("6161e080af")).toBe(2) // overlong 3-byte form
    expect(scan("61f4908080")).toBe(1) // beyond U+10FFFF
    expect(scan("61eda0bd61")).toBe(1) // high half without its low half
    expect(scan("eda0bdeda0bd")).toBe(0) // two high halves
    expect(scan("61e282")).toBe(1) // truncated at the end
    expect(scan("c1bf")).toBe(0)
  })
})
