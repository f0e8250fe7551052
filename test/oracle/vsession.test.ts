import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Stream } from "effect"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { failure } from "../conformance/harness.ts"
import { realOracle, useServer, withConnection } from "./support.ts"

// V$SESSION as another session sees a session the driver runs (Oracle Database Reference, V$SESSION: STATUS "ACTIVE -
// Session currently executing SQL", SQL_ID "SQL identifier of the SQL statement that is currently being executed",
// PREV_SQL_ID that of the last one executed): a running query ACTIVE with its SQL_ID, a cancelled one INACTIVE with
// that SQL_ID kept until the next statement (the test server's choice, testkit/oracle/README.md "Data dictionary"), a
// completed one INACTIVE with SQL_ID NULL, and the session gone once the driver closed its connection.
const server = useServer()

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

/** A raw oracledb connection to `uri` (no driver in between): the watcher. */
const rawConnection = (uri: string) =>
  Effect.acquireRelease(
    Effect.promise(() => {
      const u = new URL(uri)
      return oracledb.getConnection({ user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectString: `${u.host}${u.pathname}` }) as Promise<any>
    }),
    (raw) => Effect.promise(() => raw.close())
  )

describe.skipIf(realOracle)("V$SESSION of a session the Oracle driver runs", () => {
  it.live("a running call is ACTIVE with its SQL_ID; cancelled, INACTIVE with it; completed, SQL_ID NULL; closed, gone", () =>
    Effect.scoped(Effect.gen(function*() {
      const watcher = yield* rawConnection(server.uri)
      const view = (sid: number) =>
        Effect.promise(async () => (await watcher.execute("SELECT status, sql_id, prev_sql_id FROM v$session WHERE sid = :1", [sid])).rows as Array<Array<string | null>>)
      let sid = 0
      yield* withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const ids = yield* Stream.runCollect(conn.query("SELECT SYS_CONTEXT('USERENV', 'SID') AS SID FROM DUAL"))
        sid = Number(ids[0]!.getChild("SID")!.get(0))
        expect((yield* view(sid))[0]?.slice(0, 2)).toEqual(["INACTIVE", null])
        // a call the server keeps running until it is cancelled (DBMS_SESSION.SLEEP, testkit/oracle/plsql/sleep.ts)
        const reading = yield* Effect.forkChild(conn.execute("BEGIN DBMS_SESSION.SLEEP(60); END;"))
        // synchronised on the view itself: polled until the running call shows (no fixed sleep)
        let during = yield* view(sid)
        while (during[0]?.[0] !== "ACTIVE" && reading.pollUnsafe() === undefined) during = yield* view(sid)
        expect(during[0]?.[0]).toBe("ACTIVE")
        const runningId = during[0]?.[1]
        expect(runningId).toMatch(/^[0-9a-z]{13}$/)
        yield* conn.cancel
        expect(failure(yield* Fiber.await(reading)).vendorCode).toBe(1013)
        expect((yield* view(sid))[0]?.slice(0, 2)).toEqual(["INACTIVE", runningId])
        yield* Stream.runCollect(conn.query("SELECT 1 AS X FROM DUAL"))
        const after = (yield* view(sid))[0]!
        expect(after.slice(0, 2)).toEqual(["INACTIVE", null])
        expect(after[2]).not.toBe(runningId)
      }))
      // the driver's connection closed (LOGOFF): the session left V$SESSION
      expect(yield* view(sid)).toEqual([])
    })), 30_000)
})
