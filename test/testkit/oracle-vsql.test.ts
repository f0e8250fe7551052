import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

/**
 * V$SQL through raw node-oracledb against the Oracle test server (Oracle Database Reference, "V$SQL": one row per
 * child cursor; EXECUTIONS "number of executions that took place on this object since it was brought into the library
 * cache", PARSE_CALLS "number of parse calls for this child cursor"). node-oracledb's statement cache (stmtCacheSize)
 * re-executes a cached cursor without sending its text again, so only the first execute of a text parses; a
 * connection without a cache parses on every execute.
 */
describe("Oracle test server: V$SQL", () => {
  let env: Awaited<ReturnType<typeof withServer>>
  let cached: Conn
  let uncached: Conn
  beforeAll(async () => {
    env = await withServer()
    cached = await env.connect()
    uncached = await oracledb.getConnection({ user: env.server.user, password: env.server.password, connectString: env.server.connectString, stmtCacheSize: 0 })
    await cached.execute("CREATE TABLE vsql_t (n NUMBER)")
  })
  afterAll(async () => {
    await cached?.close()
    await uncached?.close()
    await env?.server.close()
  })

  const stats = async (text: string) =>
    (
      await cached.execute("SELECT sql_id, child_number, executions, parse_calls, parsing_schema_name, module FROM v$sql WHERE sql_text = :t", { t: text }, { outFormat: oracledb.OUT_FORMAT_OBJECT })
    ).rows as Array<Record<string, unknown>>

  it("lists each statement run with its SQL_ID (as V$SESSION shows it), executions and parse calls", async () => {
    const query = "SELECT /* vsql-1 */ COUNT(*) FROM vsql_t WHERE n > :1"
    for (let i = 0; i < 3; i++) await cached.execute(query, [i])
    const insert = "INSERT /* vsql-2 */ INTO vsql_t VALUES (:1)"
    await cached.executeMany(insert, [[1], [2], [3]])
    for (let i = 0; i < 2; i++) await uncached.execute(query, [i])
    const [row] = await stats(query)
    expect(row).toMatchObject({ CHILD_NUMBER: 0, EXECUTIONS: 5, PARSE_CALLS: 3, PARSING_SCHEMA_NAME: env.server.user.toUpperCase() })
    expect(row!.SQL_ID).toMatch(/^[0-9a-z]{13}$/)
    // an executeMany is one execution
    expect(await stats(insert)).toMatchObject([{ EXECUTIONS: 1, PARSE_CALLS: 1 }])
    // the SQL_ID is the one V$SESSION reports for the statement
    const sid = ((await uncached.execute("SELECT SYS_CONTEXT('USERENV', 'SID') FROM dual")).rows as Array<Array<string>>)[0]![0]
    await uncached.execute(query, [9])
    expect((await cached.execute("SELECT prev_sql_id FROM v$session WHERE sid = :s", [sid])).rows).toEqual([[row!.SQL_ID]])
    expect((await stats(query))[0]!.EXECUTIONS).toBe(6)
  })

  it("shows the module the session set and lists a statement that failed to run", async () => {
    cached.module = "vsql-module"
    const text = "SELECT /* vsql-3 */ * FROM vsql_missing"
    await expect(cached.execute(text)).rejects.toThrow(/ORA-00942/)
    expect(await stats(text)).toMatchObject([{ EXECUTIONS: 1, PARSE_CALLS: 1, MODULE: "vsql-module" }])
  })
})
