import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, oraCode, waitsForLock, withSessions } from "./oracle/helpers.ts"

// DBMS_LOCK's user locks between two sessions, through raw node-oracledb, as the PL/SQL Packages and Types Reference
// ("DBMS_LOCK") describes them: REQUEST returns 0 (success), 1 (timeout), 3 (parameter error), 4 (already own the
// lock), 5 (illegal lock handle); RELEASE 0 or 4 (do not own it); X_MODE is the default mode and MAXWAIT the default
// timeout; S_MODE holders share; a lock is held until RELEASE, the end of the session, or with release_on_commit the
// end of the transaction; ALLOCATE_UNIQUE gives every session the same handle for a name.
describe("Oracle test server: DBMS_LOCK user locks", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  let c: Conn
  let x: Conn
  let y: Conn
  beforeAll(async () => {
    env = await withSessions(5)
    ;[a, b, c, x, y] = env.sessions as [Conn, Conn, Conn, Conn, Conn]
  })
  // one test ends session b itself
  afterAll(async () => {
    for (const s of env?.sessions ?? []) await s.close().catch(() => undefined)
    await env?.server.close()
  })

  const status = async (c: Conn, call: string): Promise<number> =>
    ((await c.execute(`BEGIN :s := ${call}; END;`, { s: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })).outBinds as { s: number }).s

  it("an exclusive lock makes another session's request time out, then wait until it is released", async () => {
    expect(await status(a, "DBMS_LOCK.REQUEST(42, DBMS_LOCK.X_MODE, 0)")).toBe(0)
    expect(await status(a, "DBMS_LOCK.REQUEST(42)")).toBe(4)
    expect(await status(b, "DBMS_LOCK.REQUEST(42, timeout => 0)")).toBe(1)
    const waiting = waitsForLock(env.server, () => status(b, "DBMS_LOCK.REQUEST(id => 42, lockmode => DBMS_LOCK.X_MODE, timeout => DBMS_LOCK.MAXWAIT)"))
    expect(await waiting.waiting).toBe(true)
    expect(await status(a, "DBMS_LOCK.RELEASE(42)")).toBe(0)
    expect(await waiting.result).toBe(0)
    expect(await status(a, "DBMS_LOCK.RELEASE(42)")).toBe(4)
    expect(await status(b, "DBMS_LOCK.RELEASE(42)")).toBe(0)
  })

  it("shared locks are held together; an exclusive request waits for both; bad arguments give 3 and 5", async () => {
    expect(await status(a, "DBMS_LOCK.REQUEST(7, DBMS_LOCK.S_MODE, 0)")).toBe(0)
    expect(await status(b, "DBMS_LOCK.REQUEST(7, DBMS_LOCK.S_MODE, 0)")).toBe(0)
    expect(await status(b, "DBMS_LOCK.CONVERT(7, DBMS_LOCK.X_MODE, 0)")).toBe(1)
    expect(await status(a, "DBMS_LOCK.RELEASE(7)")).toBe(0)
    expect(await status(b, "DBMS_LOCK.CONVERT(7, DBMS_LOCK.X_MODE, 0)")).toBe(0)
    expect(await status(a, "DBMS_LOCK.REQUEST(7, DBMS_LOCK.S_MODE, 0)")).toBe(1)
    expect(await status(b, "DBMS_LOCK.RELEASE(7)")).toBe(0)
    expect(await status(a, "DBMS_LOCK.REQUEST(8, 9, 0)")).toBe(3)
    expect(await status(a, "DBMS_LOCK.REQUEST('no such handle', 6, 0)")).toBe(5)
  })

  it("ALLOCATE_UNIQUE's handle is the same in every session; release_on_commit ends with the transaction, a session's end frees its locks", async () => {
    const handleOf = async (c: Conn) =>
      ((await c.execute(`BEGIN DBMS_LOCK.ALLOCATE_UNIQUE('app.job', :h); END;`, { h: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 128 } })).outBinds as { h: string }).h
    const handle = await handleOf(a)
    expect(await handleOf(b)).toBe(handle)
    const r = await a.execute(`BEGIN :s := DBMS_LOCK.REQUEST(lockhandle => :h, lockmode => DBMS_LOCK.X_MODE, timeout => 0, release_on_commit => TRUE); END;`, {
      s: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      h: handle
    })
    expect((r.outBinds as { s: number }).s).toBe(0)
    const byHandle = (c: Conn) => c.execute(`BEGIN :s := DBMS_LOCK.REQUEST(:h, DBMS_LOCK.X_MODE, 0); END;`, { s: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, h: handle })
    expect(((await byHandle(b)).outBinds as { s: number }).s).toBe(1)
    await a.commit()
    expect(((await byHandle(b)).outBinds as { s: number }).s).toBe(0)
    // b holds it until its session ends: a third session gets it once b has closed
    expect(((await byHandle(c)).outBinds as { s: number }).s).toBe(1)
    await b.close()
    expect(((await byHandle(c)).outBinds as { s: number }).s).toBe(0)
  })

  it("a break ends a request waiting for a lock with ORA-01013", async () => {
    expect(await status(x, "DBMS_LOCK.REQUEST(99)")).toBe(0)
    const waiting = waitsForLock(env.server, () => status(y, "DBMS_LOCK.REQUEST(99)"))
    expect(await waiting.waiting).toBe(true)
    await y.break()
    expect(oraCode(await failure(() => waiting.result))).toBe("ORA-01013")
    // y goes on: the lock is still x's
    expect(await status(y, "DBMS_LOCK.REQUEST(99, timeout => 0)")).toBe(1)
  })
})
