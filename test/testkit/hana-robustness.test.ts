import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient } from "./hana/client.ts"

describe("HANA test server: SQL errors and robustness with the raw hdb client", () => {
  let server: HanaTestServerHandle
  let client: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer({ users: [{ name: "SYSTEM", password: "Manager1" }, { name: "BOB", password: "Bob12345" }] })
    client = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1" })
    await exec(client, "CREATE TABLE errs (id INTEGER PRIMARY KEY, name NVARCHAR(10) NOT NULL)")
    await exec(client, "INSERT INTO errs VALUES (1, 'one')")
  })
  afterAll(async () => {
    closeQuietly(client)
    await server.close()
  })

  it.each([
    ["SELEC 1 FROM DUMMY", 257, "42000"],
    ["SELECT * FROM no_such_table", 259, "HY000"],
    ["SELECT no_such_column FROM errs", 260, "HY000"],
    ["INSERT INTO errs VALUES (2, NULL)", 287, "23000"],
    ["CREATE TABLE errs (x INT)", 288, "HY000"],
    ["INSERT INTO errs VALUES (1, 'dup')", 301, "23000"],
    // procedures are supported (hana-procedures.test.ts): an unknown one is 328 ERR_SQL_INV_PROC
    ["CALL some_procedure()", 328, "HY000"],
    ["SELECT 1 FROM DUMMY; SELECT 2 FROM DUMMY", 257, "42000"],
    ["CREATE TABLE gencol (a INT, b INT GENERATED ALWAYS AS (a + 1))", 7, "HY000"],
    // HANA codes from the SAP HANA SQL Reference "SQL Error Codes": 274 ERR_SQL_INS_LARGE_VALUE, 308 ERR_SQL_EXST_COLUMN
    ["INSERT INTO errs VALUES (3, 'elevenchars')", 274, "HY000"],
    ["CREATE TABLE dupcol (a INT, a INT)", 308, "HY000"],
    ["ALTER TABLE errs ADD (name INT)", 308, "HY000"]
  ] as const)("maps %s to HANA error %i", async (sql, code, sqlState) => {
    const err = await failure(exec(client, sql))
    expect(err.code).toBe(code)
    expect(err.sqlState).toBe(sqlState)
    expect(typeof err.message).toBe("string")
    // The session stays usable after every error.
    expect(await exec(client, "SELECT COUNT(*) AS N FROM errs")).toEqual([{ N: 1 }])
  })

  it("answers 258 insufficient privilege for administration by other users", async () => {
    const bob = await connect({ host: server.host, port: server.port, user: "BOB", password: "Bob12345" })
    try {
      const err = await failure(exec(bob, "CREATE USER EVE PASSWORD Eve12345"))
      expect(err.code).toBe(258)
      expect(err.sqlState).toBe("HY000")
      expect(err.message).toMatch(/^insufficient privilege/)
      expect((await failure(exec(bob, "ALTER SYSTEM CANCEL SESSION '1'"))).code).toBe(258)
    } finally {
      closeQuietly(bob)
    }
  })

  it("closes only the session that sent a malformed packet", async () => {
    const socket = net.connect(server.port, server.host)
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    socket.write(Buffer.from("ffffffff04140004010001010101", "hex").subarray(0, 14))
    const init = await new Promise<Buffer>((resolve) => socket.once("data", (b: Buffer) => resolve(b)))
    // Init reply (hdb PhysicalConnection): int8 product major, int16 minor, int8 protocol major 4, int16 minor, 2 filler.
    expect(init.length).toBe(8)
    expect([init[0], init[3]]).toEqual([4, 4])
    const garbage = Buffer.alloc(64, 0x41)
    garbage.writeUInt32LE(32, 12)
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()))
    socket.write(garbage)
    await closed
    expect(await exec(client, "SELECT 'alive' AS S FROM DUMMY")).toEqual([{ S: "alive" }])
  })

  it("survives random packets before and after login without crashing", async () => {
    let seed = 42
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed / 0x7fffffff
    }
    for (let round = 0; round < 20; round++) {
      const socket = net.connect(server.port, server.host)
      socket.on("error", () => undefined)
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
      socket.write(Buffer.from("ffffffff0414000401000101 0101".replace(/ /g, ""), "hex"))
      const body = Buffer.alloc(24 + Math.floor(random() * 200))
      for (let i = 0; i < body.length; i++) body[i] = Math.floor(random() * 256)
      const header = Buffer.alloc(32)
      header.writeUInt32LE(body.length, 12)
      header.writeInt16LE(1, 20)
      // Plausible segment header with a random message type and part count.
      body.writeInt32LE(body.length, 0)
      body.writeInt16LE(Math.floor(random() * 4), 8)
      body[13] = [2, 3, 13, 16, 17, 65, 66, 71, 82][Math.floor(random() * 9)]!
      const done = new Promise<void>((resolve) => {
        socket.once("close", () => resolve())
        setTimeout(() => resolve(), 80)
      })
      socket.write(Buffer.concat([header, body]))
      await done
      socket.destroy()
    }
    expect(await exec(client, "SELECT 'alive' AS S FROM DUMMY")).toEqual([{ S: "alive" }])
  })

  it("serves 32 concurrent sessions independently", async () => {
    const clients = await Promise.all(
      Array.from({ length: 32 }, () => connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1" }))
    )
    try {
      const ids = new Set(clients.map((c) => c.connectOptions.connectionId))
      expect(ids.size).toBe(32)
      const results = await Promise.all(
        clients.map(async (c, i) => {
          await exec(c, `CREATE LOCAL TEMPORARY TABLE "#T" (v INTEGER)`)
          await exec(c, `INSERT INTO "#T" VALUES (${i})`)
          return exec<Array<{ V: number }>>(c, `SELECT v FROM "#T"`)
        })
      )
      expect(results.map((r) => r[0]?.V)).toEqual(Array.from({ length: 32 }, (_, i) => i))
    } finally {
      clients.forEach(closeQuietly)
    }
  })

  it("close() ends every session and frees the port", async () => {
    const other = await startHanaTestServer()
    const c = await connect({ host: other.host, port: other.port, user: other.user, password: other.password })
    const closedEvent = new Promise<void>((resolve) => c.on("close", () => resolve()))
    await other.close()
    await closedEvent
    expect(c.readyState).not.toBe("connected")
    const again = await startHanaTestServer({ port: other.port })
    expect(again.port).toBe(other.port)
    await again.close()
  })
})
