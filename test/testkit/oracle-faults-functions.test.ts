/**
 * No request of node-oracledb goes unanswered: every TTC function code and piggyback code its thin protocol defines
 * (lib/thin/protocol/constants.js, TNS_FUNC_*) sent through the raw client is answered (an ORA- error for what the
 * server does not implement, ORA-03001 "unimplemented feature" as Oracle names a feature it lacks: Database Error
 * Messages, docs.oracle.com/en/error-help/db/ora-03001) or its connection closed, and the session stays usable after an
 * error; malformed packets of each kind close their connection without harming the server. Synchronised on the
 * client's answers and on socket events; each wait is bounded so that a silent server fails the test instead of
 * hanging it.
 */
import { createRequire } from "node:module"
import * as net from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { type Conn, oraCode, withServer } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const require = createRequire(import.meta.url)
const oracledbMain = require.resolve("oracledb")
const thin = (path: string): any => require(oracledbMain.replace(/index\.js$/, `lib/thin/protocol/${path}`))
const constants = thin("constants.js")
const Message = thin("messages/base.js")

/** Every TNS_FUNC_* code of the installed client, by name. */
const FUNCTIONS: ReadonlyArray<[string, number]> = Object.entries(constants as Record<string, unknown>)
  .filter((e): e is [string, number] => e[0].startsWith("TNS_FUNC_") && typeof e[1] === "number")
  .sort((a, b) => a[1] - b[1])

/** A function message of `code` with nothing behind its header (or `body`), sent as `messageType`. */
const rawMessage = (conn: Conn, code: number, opts: { body?: (buf: any) => void; messageType?: number; piggyback?: number } = {}) => {
  const m = new Message(conn._impl)
  m.functionCode = code
  if (opts.messageType !== undefined) m.messageType = opts.messageType
  m.encode = (buf: any) => {
    if (opts.piggyback !== undefined) m.writePiggybackHeader(buf, opts.piggyback)
    m.writeFunctionHeader(buf)
    opts.body?.(buf)
  }
  return m
}

/** The outcome of one request, or "silence" when neither an answer nor a close came within `ms`. */
const outcome = async (p: Promise<unknown>, ms = 20_000): Promise<"answered" | Error | "silence"> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const silence = new Promise<"silence">((r) => (timer = setTimeout(() => r("silence"), ms)))
  try {
    return await Promise.race([p.then(() => "answered" as const, (e: Error) => e), silence])
  } finally {
    clearTimeout(timer)
  }
}

const closedError = (e: Error): boolean => /NJS-500|NJS-003|NJS-501|ECONNRESET|closed/i.test(e.message)

describe("Oracle test server: every function code answered", () => {
  it(`answers each of the client's ${FUNCTIONS.length} function codes sent as a call: an error for the unimplemented ones, the session usable after it`, async () => {
    const { server, connect } = await withServer()
    try {
      // functions the server runs, sent without their body: the truncated request closes the connection
      const implemented = new Set([4, 5, 9, 14, 15, 78, 94, 96, 115, 118, 128, 129, 130, 147, 200])
      const report: Array<string> = []
      let conn = await connect()
      for (const [name, code] of FUNCTIONS) {
        const result = await outcome(conn._impl._protocol._processMessage(rawMessage(conn, code)))
        expect(result, name).not.toBe("silence")
        if (result === "answered") {
          // COMMIT, ROLLBACK, PING, LOGOFF need no body
          expect([9, 14, 15, 147], name).toContain(code)
        } else if (closedError(result as Error)) {
          expect(implemented.has(code), `${name}: ${(result as Error).message}`).toBe(true)
        } else {
          expect(oraCode(result), name).toBe("ORA-03001")
          expect((result as Error).message).toContain(`TTC function ${code}`)
        }
        report.push(`${name}=${result instanceof Error ? (oraCode(result) ?? "closed") : result}`)
        // the session answers its next call, or the connection is gone and a new one works
        const next = await outcome(conn.execute("SELECT 1 FROM DUAL"))
        if (next instanceof Error || next === "silence") {
          expect(next === "silence" ? "silence" : closedError(next) || code === 9, `${name} then a query: ${String(next)}`).toBe(true)
          await conn.close().catch(() => undefined)
          conn = await connect()
        } else if (code === 9) {
          await conn.close().catch(() => undefined)
          conn = await connect()
        }
      }
      expect(report.length).toBe(FUNCTIONS.length)
      expect((await conn.execute("SELECT 2 FROM DUAL")).rows).toEqual([[2]])
      await conn.close().catch(() => undefined)
    } finally {
      await server.close()
    }
  })

  it("answers a piggyback code it does not know with ORA-03001 instead of the call behind it; the session stays usable", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      for (const code of [176, 205, 187, 1]) {
        const result = await outcome(conn._impl._protocol._processMessage(rawMessage(conn, constants.TNS_FUNC_PING, { piggyback: code })))
        expect(result).toBeInstanceOf(Error)
        expect(oraCode(result)).toBe("ORA-03001")
        expect((result as Error).message).toContain(`piggyback function ${code}`)
        expect((await conn.execute("SELECT 3 FROM DUAL")).rows).toEqual([[3]])
      }
      await conn.close()
    } finally {
      await server.close()
    }
  })

  it("takes the one-way SESSION_RELEASE without answering it, so the next call's answer is its own", async () => {
    const { server, connect } = await withServer()
    try {
      const conn = await connect()
      // one-way: the client reads no answer (protocol.js _processMessage)
      await conn._impl._protocol._processMessage(rawMessage(conn, constants.TNS_FUNC_SESSION_RELEASE, { messageType: constants.TNS_MSG_TYPE_ONEWAY_FN, body: (b) => b.writeUB4(0) }))
      expect((await conn.execute("SELECT 'after release' FROM DUAL")).rows).toEqual([["after release"]])
      await conn.ping()
      await conn.close()
    } finally {
      await server.close()
    }
  })
})

/** The client's socket under a raw oracledb connection. */
const socketOf = (conn: Conn): net.Socket => conn._impl.nscon.ntAdapter.stream

/** Resolves with what the server did after `bytes` reached it: answered (sent data) or closed the socket. */
const reaction = (socket: net.Socket, bytes: Buffer): Promise<"answered" | "closed"> =>
  new Promise((resolve) => {
    socket.removeAllListeners("data")
    socket.once("data", () => resolve("answered"))
    socket.once("close", () => resolve("closed"))
    socket.write(bytes)
  })

/** A TNS packet (large-SDU framing after logon: 4-byte length). */
const packet = (type: number, body: Buffer, large = true): Buffer => {
  const head = Buffer.alloc(8)
  if (large) head.writeUInt32BE(8 + body.length, 0)
  else head.writeUInt16BE(8 + body.length, 0)
  head[4] = type
  return Buffer.concat([head, body])
}

describe("Oracle test server: malformed packets", () => {
  const afterLogon: ReadonlyArray<[string, () => Buffer]> = [
    ["a packet shorter than its header", () => Buffer.from([0, 0, 0, 4, 6, 0, 0, 0])],
    ["a packet longer than any SDU", () => Buffer.from([0x7f, 0xff, 0xff, 0xff, 6, 0, 0, 0])],
    ["a DATA packet without data flags", () => packet(6, Buffer.alloc(0))],
    ["an unknown TTC message type", () => packet(6, Buffer.from([0x08, 0x00, 0x55, 0x01, 0x02]))],
    ["a FUNCTION message cut after its code", () => packet(6, Buffer.from([0x08, 0x00, 0x03, 0x5e]))],
    ["an EXECUTE whose fields are garbage", () => packet(6, Buffer.concat([Buffer.from([0x08, 0x00, 0x03, 0x5e, 0x01, 0x00]), Buffer.alloc(64, 0xff)]))],
    ["a PIGGYBACK cut in its body", () => packet(6, Buffer.from([0x08, 0x00, 0x11, 0x9a, 0x01, 0x00, 0x01]))],
    ["a CONNECT packet in a session", () => packet(1, Buffer.alloc(40))],
    ["a packet of an unknown type", () => packet(99, Buffer.alloc(4))],
    ["a CONTROL packet", () => packet(14, Buffer.alloc(4))],
    ["a MARKER packet without a kind", () => packet(12, Buffer.alloc(0))],
    ["a MARKER packet of an unknown kind", () => packet(12, Buffer.from([1, 0, 9]))]
  ]
  for (const [what, bytes] of afterLogon) {
    it(`after logon, ${what} is answered or closes that connection only`, async () => {
      const { server, connect } = await withServer()
      try {
        const victim = await connect()
        const other = await connect()
        const result = await outcome(reaction(socketOf(victim), bytes()))
        expect(result).not.toBe("silence")
        // the server lives on: another session and a new one work
        expect((await other.execute("SELECT 4 FROM DUAL")).rows).toEqual([[4]])
        const fresh = await connect()
        expect((await fresh.execute("SELECT 5 FROM DUAL")).rows).toEqual([[5]])
        await Promise.all([fresh.close(), other.close(), victim.close().catch(() => undefined)])
      } finally {
        await server.close()
      }
    })
  }

  const beforeLogon: ReadonlyArray<[string, Buffer]> = [
    ["text that is no TNS at all", Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n")],
    ["a DATA packet before CONNECT", packet(6, Buffer.from([0, 0, 1, 2, 3]), false)],
    ["a CONNECT packet cut short", packet(1, Buffer.from([1, 0x3f, 1, 0x2c]), false)],
    ["a MARKER packet before CONNECT", packet(12, Buffer.from([1, 0, 1]), false)]
  ]
  for (const [what, bytes] of beforeLogon) {
    it(`on a new connection, ${what} is refused or closes it`, async () => {
      const { server, connect } = await withServer()
      try {
        const socket = net.connect(server.port, "127.0.0.1")
        await new Promise((r) => socket.once("connect", r))
        // resolves (outcome "answered") when the server closed the socket
        const ended = new Promise<void>((r) => socket.once("close", () => r()))
        socket.on("error", () => undefined)
        socket.on("data", () => undefined)
        socket.write(bytes)
        expect(await outcome(ended)).toBe("answered")
        const conn = await connect()
        expect((await conn.execute("SELECT 6 FROM DUAL")).rows).toEqual([[6]])
        await conn.close()
      } finally {
        await server.close()
      }
    })
  }
})
