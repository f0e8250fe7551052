import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let connect: (user?: string, password?: string) => Promise<Conn>
let conn: Conn

describe("Oracle test server: errors and robustness", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "19c" })
    server = s.server
    connect = s.connect
    conn = await connect()
    await conn.execute("CREATE TABLE e (id NUMBER PRIMARY KEY, name VARCHAR2(10) NOT NULL)")
    await conn.execute("INSERT INTO e VALUES (1, 'one')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const code = async (sql: string, binds: unknown = []) => oraCode(await failure(() => conn.execute(sql, binds)))

  it("maps failures to Oracle error numbers", async () => {
    expect(await code("FROBNICATE THE DATABASE")).toBe("ORA-00900")
    expect(await code("SELECT 1 FROM DUAL DUAL2 DUAL3")).toBe("ORA-00933")
    expect(await code("SELECT nope FROM e")).toBe("ORA-00904")
    expect(await code("SELECT * FROM no_such_table")).toBe("ORA-00942")
    // a name that holds "interrupt" is still a missing table, not a cancelled call (ORA-01013)
    expect(await code("SELECT * FROM items_interrupted")).toBe("ORA-00942")
    expect(await code("CREATE TABLE e (x NUMBER)")).toBe("ORA-00955")
    expect(await code("INSERT INTO e VALUES (1, 'dup')")).toBe("ORA-00001")
    expect(await code("INSERT INTO e (id) VALUES (2)")).toBe("ORA-01400")
    // (+) on a table the FROM clause does not name: Oracle's ORA-00904 "A"."B": invalid identifier
    expect(await code("SELECT * FROM e WHERE id = a.b (+)")).toBe("ORA-00904")
    const e = await failure(() => conn.execute("SELECT * FROM no_such_table"))
    expect(e.message).toContain("ORA-00942: table or view does not exist")
    const dup = await failure(() => conn.execute("INSERT INTO e VALUES (1, 'dup')"))
    expect(dup.message).toMatch(/^ORA-00001: unique constraint \(TEST\.SYS_C\d+\) violated$/m)
    expect((e as any).errorNum).toBe(942)
    // the session is still usable and nothing of the failed statements remained
    expect((await conn.execute("SELECT COUNT(*) FROM e")).rows).toEqual([[1]])
  })

  it("names the objects in ORA-00942 and ORA-00001 with the 23ai layout", async () => {
    const s = await withServer({ version: "23ai" })
    try {
      const c = await s.connect()
      const e = await failure(() => c.execute("SELECT * FROM missing_t"))
      expect(e.message).toContain('ORA-00942: table or view "TEST"."MISSING_T" does not exist')
      await c.execute("CREATE TABLE u (id NUMBER CONSTRAINT u_pk PRIMARY KEY)")
      await c.execute("INSERT INTO u VALUES (1)")
      const dup = await failure(() => c.execute("INSERT INTO u VALUES (1)"))
      expect(dup.message).toContain("ORA-00001: unique constraint (TEST.U_PK) violated on table TEST.U columns (ID)")
      await c.close()
    } finally {
      await s.server.close()
    }
  })

  it("keeps the transaction after a failed statement (statement-level rollback)", async () => {
    await conn.execute("INSERT INTO e VALUES (10, 'ten')")
    expect(await code("INSERT INTO e VALUES (10, 'again')")).toBe("ORA-00001")
    await conn.execute("INSERT INTO e VALUES (11, 'eleven')")
    await conn.rollback()
    expect((await conn.execute("SELECT COUNT(*) FROM e WHERE id >= 10")).rows).toEqual([[0]])
    await conn.execute("INSERT INTO e VALUES (12, 'twelve')")
    expect(await code("INSERT INTO e VALUES (12, 'again')")).toBe("ORA-00001")
    await conn.commit()
    expect((await conn.execute("SELECT name FROM e WHERE id >= 10")).rows).toEqual([["twelve"]])
  })

  it("answers anything outside the subset with an ORA- error and keeps the session", async () => {
    await conn.commit()
    const count = (await conn.execute("SELECT COUNT(*) FROM e")).rows
    const odd = [
      "",
      ";",
      "SELECT",
      "SELECT 'unterminated FROM DUAL",
      'SELECT "unterminated FROM DUAL',
      "SELECT ((((1 FROM DUAL",
      "SELECT * FROM e MODEL DIMENSION BY (id) MEASURES (name) RULES ()",
      "SELECT 1 FROM DUAL a, DUAL b CONNECT BY LEVEL < 3",
      "INSERT INTO e VALUES",
      "UPDATE e SET",
      "CREATE TABLE x (a WEIRDTYPE)",
      "CREATE TRIGGER t BEFORE INSERT ON no_such_table BEGIN NULL; END;",
      "BEGIN IF 1 = 1 THEN NULL; END; END;",
      "BEGIN GOTO done; END;",
      "DECLARE x NUMBER; BEGIN x := ; END;",
      "SELECT :1 FROM DUAL",
      "ALTER SESSION SET",
      "EXPLAIN PLAN FOR SELECT 1 FROM DUAL",
      "SELECT TO_NUMBER('abc') FROM DUAL"
    ]
    for (const sql of odd) {
      const e = await failure(() => conn.execute(sql))
      expect(e.message, sql).toMatch(/^(ORA-\d{5}|NJS-\d{3})/)
    }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom("SELECT", "FROM", "DUAL", "e", "(", ")", ",", "'x'", "1", "*", "WHERE", "=", ":1", "INSERT", "INTO", "VALUES", "||", "ROWNUM", "BEGIN", "END", ";", "--", '"Q"'), { maxLength: 12 }), async (words) => {
        const sql = words.join(" ")
        try {
          await conn.execute(sql, sql.includes(":1") ? [1] : [])
        } catch (err) {
          expect((err as Error).message, sql).toMatch(/^(ORA-\d{5}|NJS-\d{3})/)
        }
        return true
      }),
      { numRuns: 150, seed: 42 }
    )
    await conn.rollback()
    expect((await conn.execute("SELECT COUNT(*) FROM e")).rows).toEqual(count)
  })

  it("closes only the offending session on a malformed packet", async () => {
    const other = await connect()
    const socket = net.connect(server.port, "127.0.0.1")
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()))
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()))
    socket.write(Buffer.from([0x00, 0x03, 0, 0, 0x01, 0, 0, 0, 1, 2, 3]))
    await closed
    expect((await other.execute("SELECT 1 FROM DUAL")).rows).toEqual([[1]])
    // a garbage TTC request after a valid logon closes only that session too
    const victim = await connect()
    const before = server.sessionCount()
    victim._impl.nscon.ntAdapter.stream.write(Buffer.from([0, 0, 0, 14, 6, 0, 0, 0, 0x08, 0x00, 3, 94, 1, 0]))
    await expect(victim.execute("SELECT 1 FROM DUAL")).rejects.toThrow()
    for (let i = 0; i < 50 && server.sessionCount() >= before; i++) await new Promise((r) => setTimeout(r, 10))
    expect(server.sessionCount()).toBe(before - 1)
    expect((await other.execute("SELECT 2 FROM DUAL")).rows).toEqual([[2]])
    await other.close()
  })

  it("keeps Oracle's codes for names with blanks, dots, dollars and other characters, with no DuckDB text", async () => {
    // names.ts encodes such names with `$`; the DuckDB messages print them bare, so they used to fall through to
    // ORA-00604 with DuckDB's catalog text. Codes: Oracle Database Error Messages (ora-00942, ora-00904, ora-00913,
    // ora-00918, ora-00947, ora-00979, ora-01785, ora-01789).
    await conn.execute('CREATE TABLE "odd t" ("a col" NUMBER, b NUMBER)')
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['SELECT * FROM "my table"', "ORA-00942", "table or view does not exist"],
      ['SELECT * FROM "tàble ü"', "ORA-00942", ""],
      ['SELECT * FROM "a$b c"', "ORA-00942", ""],
      ['SELECT * FROM test."my table"', "ORA-00942", ""],
      ['SELECT * FROM "no schema"."my table"', "ORA-00942", ""],
      ['INSERT INTO "my table" VALUES (1)', "ORA-00942", ""],
      ['UPDATE "my table" SET a = 1', "ORA-00942", ""],
      ['DELETE FROM "my table"', "ORA-00942", ""],
      ['DROP TABLE "my table"', "ORA-00942", ""],
      ['SELECT "no col" FROM "odd t"', "ORA-00904", '"no col": invalid identifier'],
      ['SELECT * FROM "odd t" WHERE "x y" = 1', "ORA-00904", '"x y"'],
      ['UPDATE "odd t" SET "x y" = 1', "ORA-00904", '"x y"'],
      ['INSERT INTO "odd t" ("x y") VALUES (1)', "ORA-00904", '"x y"'],
      ['SELECT t."zz z" FROM "odd t" t', "ORA-00904", '"zz z"'],
      ['SELECT "my func"(1) FROM dual', "ORA-00904", '"my func"'],
      ["SELECT id FROM e e1, e e2", "ORA-00918", "column ambiguously defined"],
      ["INSERT INTO e VALUES (1, 'a', 2)", "ORA-00913", "too many values"],
      ['INSERT INTO "odd t" VALUES (1)', "ORA-00947", "not enough values"],
      ['SELECT "a col", b FROM "odd t" GROUP BY "a col"', "ORA-00979", "not a GROUP BY expression"],
      ["SELECT id FROM e ORDER BY 5", "ORA-01785", ""],
      ["SELECT id FROM e UNION SELECT 1, 2 FROM dual", "ORA-01789", ""],
      // text in date arithmetic is converted to a number of days: `SYSDATE - '01-01-01'` is ORA-01722 on Oracle
      // (https://super-unix.com/database/date-type-implicit-conversion)
      ["SELECT 'a' + DATE '2020-01-01' FROM dual", "ORA-01722", "invalid number"]
    ]
    for (const [sql, expected, text] of cases) {
      const e = await failure(() => conn.execute(sql))
      expect([sql, oraCode(e)]).toEqual([sql, expected])
      expect(e.message).toContain(text)
      expect(e.message).not.toMatch(/Binder Error|Catalog Error|Parser Error|\$[a-z]|DuckDB|STRING_LITERAL/)
    }
    await conn.execute('DROP TABLE "odd t"')
  })

  it("serves 32 concurrent sessions", async () => {
    const conns = await Promise.all(Array.from({ length: 32 }, () => connect()))
    const rows = await Promise.all(conns.map((c: Conn, i: number) => c.execute("SELECT :1 * 2 FROM DUAL", [i])))
    expect(rows.map((r: any) => r.rows[0][0])).toEqual(Array.from({ length: 32 }, (_, i) => i * 2))
    const sids = await Promise.all(conns.map((c: Conn) => c.execute("SELECT SYS_CONTEXT('USERENV','SID') FROM DUAL")))
    expect(new Set(sids.map((r: any) => r.rows[0][0])).size).toBe(32)
    await Promise.all(conns.map((c: Conn) => c.close()))
  })

  it("closes every session and frees the port on close()", async () => {
    const s = await withServer()
    const c = await s.connect()
    await s.server.close()
    expect(s.server.sessionCount()).toBe(0)
    await expect(c.execute("SELECT 1 FROM DUAL")).rejects.toThrow()
    // the port can be bound again
    const probe = net.createServer()
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject)
      probe.listen(s.server.port, "127.0.0.1", () => resolve())
    })
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  })
})

// Message texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-00900/, ora-00933,
// ora-00904, ora-00942, ora-00955, ora-00001, ora-01400). 23ai names the object in ORA-00942 and the table and
// columns in ORA-00001; the other texts are the same in both releases.
for (const version of ["23ai", "19c"] as const)
describe(`Oracle test server: ORA- message texts (${version} layout)`, () => {
  it("sends Oracle's message text for each mapped error", async () => {
    const s = await withServer({ version })
    try {
      const c = await s.connect()
      await c.execute("CREATE TABLE e (id NUMBER CONSTRAINT e_pk PRIMARY KEY, name VARCHAR2(10) NOT NULL)")
      await c.execute("INSERT INTO e VALUES (1, 'one')")
      const first = async (sql: string) => {
        const e = await failure(() => c.execute(sql))
        return { line: e.message.split("\n")[0], errorNum: (e as any).errorNum }
      }
      expect(await first("FROBNICATE THE DATABASE")).toEqual({ line: "ORA-00900: invalid SQL statement", errorNum: 900 })
      expect(await first("SELECT 1 FROM DUAL DUAL2 DUAL3")).toEqual({ line: "ORA-00933: SQL command not properly ended", errorNum: 933 })
      expect(await first("SELECT nope FROM e")).toEqual({ line: 'ORA-00904: "NOPE": invalid identifier', errorNum: 904 })
      expect(await first("SELECT * FROM missing_t")).toEqual({
        line: version === "23ai" ? 'ORA-00942: table or view "TEST"."MISSING_T" does not exist' : "ORA-00942: table or view does not exist",
        errorNum: 942
      })
      expect(await first("CREATE TABLE e (x NUMBER)")).toEqual({ line: "ORA-00955: name is already used by an existing object", errorNum: 955 })
      // tables, views and sequences share one namespace; indexes have their own
      // (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Database-Object-Names-and-Qualifiers.html)
      expect((await first("CREATE SEQUENCE e")).errorNum).toBe(955)
      await c.execute("CREATE SEQUENCE e_seq")
      expect((await first("CREATE TABLE e_seq (x NUMBER)")).errorNum).toBe(955)
      expect((await first("CREATE VIEW e_seq AS SELECT 1 x FROM DUAL")).errorNum).toBe(955)
      await c.execute("CREATE INDEX e_seq ON e (name)")
      expect(await first("INSERT INTO e VALUES (1, 'dup')")).toEqual({
        line: version === "23ai" ? "ORA-00001: unique constraint (TEST.E_PK) violated on table TEST.E columns (ID)" : "ORA-00001: unique constraint (TEST.E_PK) violated",
        errorNum: 1
      })
      expect(await first("INSERT INTO e (id) VALUES (2)")).toEqual({ line: 'ORA-01400: cannot insert NULL into ("TEST"."E"."NAME")', errorNum: 1400 })
      // sizes are enforced: VARCHAR2(10) counts bytes (BYTE semantics by default), https://docs.oracle.com/en/error-help/db/ora-12899/
      expect(await first("INSERT INTO e VALUES (3, 'eleven chrs')")).toEqual({ line: 'ORA-12899: value too large for column "TEST"."E"."NAME" (actual: 11, maximum: 10)', errorNum: 12899 })
      expect((await c.execute("INSERT INTO e VALUES (3, 'ten chars!')")).rowsAffected).toBe(1)
      expect(await first("UPDATE e SET name = 'ünïcödé!' WHERE id = 1")).toEqual({ line: 'ORA-12899: value too large for column "TEST"."E"."NAME" (actual: 12, maximum: 10)', errorNum: 12899 })
      await c.execute("CREATE TABLE nums (p5 NUMBER(5), p52 NUMBER(5,2))")
      const tooBig = await first("INSERT INTO nums (p52) VALUES (1234.567)")
      expect(tooBig.errorNum).toBe(1438)
      if (version === "19c") expect(tooBig.line).toBe("ORA-01438: value larger than specified precision allowed for this column")
      expect((await first("INSERT INTO nums (p5) VALUES (123456)")).errorNum).toBe(1438)
      expect((await c.execute("INSERT INTO nums VALUES (99999, 999.994)")).rowsAffected).toBe(1)
      await c.close()
    } finally {
      await s.server.close()
    }
  })
})
