import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** Everyday HANA SQL, sent through raw hdb, that the test server once refused or answered wrongly. */
describe("HANA test server: everyday SQL", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({}, (opened) => {
    server = opened.server
    c = opened.client
  })

  it("SET [SESSION] '<key>' = '<value>' and UNSET [SESSION] '<key>' set the session variables SESSION_CONTEXT reads", async () => {
    const other = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      await exec(c, "SET 'APPLICATION' = 'billing'")
      await exec(c, "SET SESSION 'MY_VAR' = 'v1'")
      expect(await exec(c, "SELECT SESSION_CONTEXT('APPLICATION') AS A, SESSION_CONTEXT('MY_VAR') AS V FROM DUMMY")).toEqual([
        { A: "billing", V: "v1" }
      ])
      // per session: another connection does not see them
      expect(await exec(other, "SELECT SESSION_CONTEXT('MY_VAR') AS V FROM DUMMY")).toEqual([{ V: null }])
      await exec(c, "UNSET SESSION 'MY_VAR'")
      await exec(c, "UNSET 'APPLICATION'")
      expect(await exec(c, "SELECT SESSION_CONTEXT('APPLICATION') AS A, SESSION_CONTEXT('MY_VAR') AS V FROM DUMMY")).toEqual([
        { A: null, V: null }
      ])
      expect(await failure(exec(c, "SET 'X' = 5"))).toMatchObject({ code: 257 })
      expect(await failure(exec(c, "UNSET"))).toMatchObject({ code: 257 })
    } finally {
      closeQuietly(other)
    }
  })

  it("MERGE INTO updates, inserts and deletes as HANA's MERGE does, qualified SET targets included", async () => {
    await exec(c, "CREATE COLUMN TABLE m1 (a INT PRIMARY KEY, b NVARCHAR(5))")
    await exec(c, "CREATE COLUMN TABLE m2 (a INT PRIMARY KEY, b NVARCHAR(5))")
    await exec(c, "INSERT INTO m1 VALUES (1, 'one')")
    await exec(c, "INSERT INTO m1 VALUES (2, 'two')")
    await exec(c, "INSERT INTO m2 VALUES (2, 'TWO')")
    await exec(c, "INSERT INTO m2 VALUES (3, 'THREE')")
    // the SAP HANA SQL Reference's example form: a qualified column in UPDATE SET, INSERT without a column list
    expect(await exec(c, "MERGE INTO m1 USING m2 ON m1.a = m2.a WHEN MATCHED THEN UPDATE SET m1.b = m2.b WHEN NOT MATCHED THEN INSERT VALUES (m2.a, m2.b)")).toBe(2)
    expect(await exec(c, "SELECT a, b FROM m1 ORDER BY a")).toEqual([{ A: 1, B: "one" }, { A: 2, B: "TWO" }, { A: 3, B: "THREE" }])
    expect(await exec(c, "MERGE INTO m1 USING m2 ON m1.a = m2.a WHEN MATCHED AND m1.a > 2 THEN UPDATE SET b = 'big' WHEN NOT MATCHED AND m2.a > 3 THEN INSERT VALUES (m2.a, m2.b)")).toBe(1)
    expect(await exec(c, `MERGE INTO "${server.user}".m1 x USING (SELECT 9 AS a, 'nine' AS b FROM DUMMY) s ON x.a = s.a WHEN NOT MATCHED THEN INSERT (a, b) VALUES (s.a, s.b)`)).toBe(1)
    expect(await exec(c, "MERGE INTO m1 USING (SELECT 1 AS a FROM DUMMY) s ON m1.a = s.a WHEN MATCHED THEN DELETE")).toBe(1)
    expect(await exec(c, "SELECT a, b FROM m1 ORDER BY a")).toEqual([{ A: 2, B: "TWO" }, { A: 3, B: "big" }, { A: 9, B: "nine" }])
    // parameters, through hdb's prepare / exec
    const st = await call<HdbStatement>((cb) => c.prepare("MERGE INTO m1 USING (SELECT CAST(? AS INTEGER) AS a, CAST(? AS NVARCHAR(5)) AS b FROM DUMMY) s ON m1.a = s.a WHEN MATCHED THEN UPDATE SET m1.b = s.b WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)", cb))
    expect(await call((cb) => st.exec([9, "NINE"], cb))).toBe(1)
    expect(await call((cb) => st.exec([10, "ten"], cb))).toBe(1)
    expect(await exec(c, "SELECT a, b FROM m1 WHERE a >= 9 ORDER BY a")).toEqual([{ A: 9, B: "NINE" }, { A: 10, B: "ten" }])
    // a failing MERGE leaves the table as it was: a too-long value (274), a duplicate key from the insert branch (301)
    const before = await exec(c, "SELECT a, b FROM m1 ORDER BY a")
    expect(await failure(exec(c, "MERGE INTO m1 USING m2 ON m1.a = m2.a WHEN MATCHED THEN UPDATE SET b = 'far too long'"))).toMatchObject({ code: 274 })
    expect(await failure(exec(c, "MERGE INTO m1 USING (SELECT 2 AS a, 'x' AS b FROM DUMMY) s ON 1 = 0 WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)"))).toMatchObject({ code: 301 })
    expect(await exec(c, "SELECT a, b FROM m1 ORDER BY a")).toEqual(before)
    expect(await failure(exec(c, "MERGE INTO m1 USING m2"))).toMatchObject({ code: 257 })
  })

  it("RENAME TABLE and RENAME COLUMN keep the rows, the declared type and the length check (naming the new column)", async () => {
    await exec(c, "CREATE COLUMN TABLE rn1 (a INT PRIMARY KEY, b NVARCHAR(3))")
    await exec(c, "INSERT INTO rn1 VALUES (1, 'abc')")
    await exec(c, "RENAME COLUMN rn1.b TO c")
    expect(await exec(c, "SELECT a, c FROM rn1")).toEqual([{ A: 1, C: "abc" }])
    expect(await failure(exec(c, "INSERT INTO rn1 VALUES (2, 'abcd')"))).toMatchObject({
      code: 274,
      message: `inserted value too large for column: Failed in "C" column with the value 'abcd'`
    })
    await exec(c, "RENAME TABLE rn1 TO rn2")
    expect(await failure(exec(c, "SELECT * FROM rn1"))).toMatchObject({ code: 259 })
    await exec(c, `RENAME COLUMN "${server.user}".rn2.c TO d`)
    expect(await exec(c, "SELECT a, d FROM rn2")).toEqual([{ A: 1, D: "abc" }])
    expect(await exec(c, "SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH FROM TABLE_COLUMNS WHERE TABLE_NAME = 'RN2' ORDER BY POSITION")).toEqual([
      { COLUMN_NAME: "A", DATA_TYPE_NAME: "INTEGER", LENGTH: 10 },
      { COLUMN_NAME: "D", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 3 }
    ])
    expect(await failure(exec(c, "INSERT INTO rn2 VALUES (2, 'abcd')"))).toMatchObject({ code: 274, message: expect.stringContaining(`Failed in "D" column`) })
    await exec(c, "CREATE COLUMN TABLE rn3 (a INT)")
    expect(await failure(exec(c, "RENAME TABLE rn2 TO rn3"))).toMatchObject({ code: 288 })
    expect(await failure(exec(c, "RENAME COLUMN rn2.nope TO x"))).toMatchObject({ code: 260 })
    expect(await failure(exec(c, "RENAME TABLE no_such TO x"))).toMatchObject({ code: 259 })
    // a table other tables reference: refused with a clear 7 (the test server's limit), nothing changed
    await exec(c, "CREATE COLUMN TABLE rn_p (id INT PRIMARY KEY)")
    await exec(c, "CREATE COLUMN TABLE rn_c (pid INT, FOREIGN KEY (pid) REFERENCES rn_p (id))")
    const refused = await failure(exec(c, "RENAME TABLE rn_p TO rn_p2"))
    expect([refused.code, refused.message]).toEqual([7, "feature not supported: altering RN_P, which other tables reference by foreign key (a test-server limit)"])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM rn_p")).toEqual([{ N: 0 }])
  })

  it("NOW() is a TIMESTAMP like CURRENT_TIMESTAMP: TO_VARCHAR applies its format", async () => {
    const [row] = await exec(c, "SELECT TO_VARCHAR(NOW(), 'YYYYMMDD') AS N, TO_VARCHAR(CURRENT_DATE, 'YYYYMMDD') AS D, TO_VARCHAR(NOW(), 'HH24') AS H FROM DUMMY") as Array<{ N: string; D: string; H: string }>
    expect(row!.N).toMatch(/^\d{8}$/)
    expect(row!.H).toMatch(/^\d{2}$/)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM DUMMY WHERE NOW() >= CURRENT_DATE AND NOW() <= ADD_DAYS(CURRENT_DATE, 1)")).toEqual([{ N: 1 }])
    // a TIMESTAMP compared with a DATE or a text converts as HANA converts; SET assigns, it does not compare
    await exec(c, "CREATE COLUMN TABLE nw (ts TIMESTAMP, d DATE)")
    await exec(c, "INSERT INTO nw VALUES ('2024-01-02 03:04:05.1234567', '2024-01-02')")
    expect(await exec(c, "UPDATE nw SET ts = ADD_DAYS(ts, 1), d = CURRENT_DATE WHERE ts < CURRENT_DATE AND d = TO_DATE('2024-01-02')")).toBe(1)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM nw HAVING MAX(ts) > '2024-01-03 03:04:05.1234566' AND MIN(ts) <= '2024-01-03 03:04:05.1234567'")).toEqual([{ N: 1 }])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM nw HAVING MAX(ts) > '2024-01-03 03:04:05.1234567'")).toEqual([])
    expect(await exec(c, "SELECT TO_VARCHAR(ts) AS TS FROM nw WHERE ADD_DAYS(ts, 1) > '2024-01-03' AND d = CURRENT_DATE AND CURRENT_DATE > ts")).toEqual([
      { TS: "2024-01-03 03:04:05.1234567" }
    ])
  })
})

describe("HANA test server: SYS views by their public synonyms", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
  })
  afterAll(async () => {
    closeQuietly(c)
    await server.close()
  })

  it("TABLES, TABLE_COLUMNS, VIEWS and M_DATABASE answer unqualified, from any current schema", async () => {
    await exec(c, "CREATE COLUMN TABLE syn_t (id INT PRIMARY KEY, v NVARCHAR(5))")
    await exec(c, "CREATE VIEW syn_v AS SELECT id FROM syn_t")
    expect(await exec(c, "SELECT TABLE_NAME, TABLE_TYPE FROM TABLES WHERE SCHEMA_NAME = CURRENT_SCHEMA AND TABLE_NAME = 'SYN_T'")).toEqual([
      { TABLE_NAME: "SYN_T", TABLE_TYPE: "COLUMN" }
    ])
    expect(await exec(c, "SELECT COLUMN_NAME FROM TABLE_COLUMNS WHERE TABLE_NAME = 'SYN_T' ORDER BY POSITION")).toEqual([
      { COLUMN_NAME: "ID" },
      { COLUMN_NAME: "V" }
    ])
    expect(await exec(c, "SELECT VIEW_NAME FROM VIEWS WHERE VIEW_NAME = 'SYN_V'")).toEqual([{ VIEW_NAME: "SYN_V" }])
    await exec(c, "CREATE SCHEMA syn_s")
    await exec(c, "SET SCHEMA syn_s")
    try {
      expect(await exec(c, "SELECT COUNT(*) AS N FROM M_DATABASE")).toEqual([{ N: 1 }])
      // an object of the current schema comes first, as it does before a public synonym on HANA
      await exec(c, "CREATE TABLE TABLES (x INT)")
      await exec(c, "INSERT INTO TABLES VALUES (7)")
      expect(await exec(c, "SELECT x FROM TABLES")).toEqual([{ X: 7 }])
      expect(await exec(c, "SELECT COUNT(*) AS N FROM SYS.TABLES WHERE SCHEMA_NAME = 'SYN_S' AND TABLE_NAME = 'TABLES'")).toEqual([{ N: 1 }])
      // new objects still go to the current schema
      await exec(c, "CREATE TABLE in_s (a INT)")
      expect(await exec(c, "SELECT SCHEMA_NAME FROM SYS.TABLES WHERE TABLE_NAME = 'IN_S'")).toEqual([{ SCHEMA_NAME: "SYN_S" }])
      expect(await failure(exec(c, "SELECT * FROM no_such_table"))).toMatchObject({ code: 259 })
    } finally {
      await exec(c, `SET SCHEMA ${server.user}`)
    }
  })
})
