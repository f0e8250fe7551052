import { describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

describe("HANA test server: the accepted SQL subset (testkit/hana/README.md)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({ setup: ["CREATE TABLE s1 (id INT PRIMARY KEY, v NVARCHAR(10))"] }, (opened) => {
    server = opened.server
    c = opened.client
  })

  it("runs INSERT … SELECT, UPSERT/REPLACE, TOP, LIMIT/OFFSET, CTEs, joins and FOR UPDATE", async () => {
    await exec(c, "INSERT INTO s1 VALUES (1, N'one')")
    await exec(c, "INSERT INTO s1 (id, v) SELECT 2, 'two' FROM DUMMY")
    await exec(c, "UPSERT s1 VALUES (1, 'uno') WITH PRIMARY KEY")
    await exec(c, "REPLACE s1 (id, v) VALUES (3, 'tres')")
    expect(await exec(c, "SELECT * FROM s1 ORDER BY id")).toEqual([
      { ID: 1, V: "uno" },
      { ID: 2, V: "two" },
      { ID: 3, V: "tres" }
    ])
    expect(await exec(c, "SELECT DISTINCT TOP 2 v FROM s1 ORDER BY v")).toEqual([{ V: "tres" }, { V: "two" }])
    expect(await exec(c, "SELECT v FROM s1 ORDER BY id LIMIT 1 OFFSET 1")).toEqual([{ V: "two" }])
    expect(await exec(c, "WITH x AS (SELECT id FROM s1) SELECT COUNT(*) AS N FROM x")).toEqual([{ N: 3 }])
    expect(await exec(c, "SELECT a.id, b.v FROM s1 a INNER JOIN s1 b ON a.id = b.id WHERE a.id IN (1, 2) ORDER BY a.id")).toEqual([
      { ID: 1, V: "uno" },
      { ID: 2, V: "two" }
    ])
    expect(await exec(c, "SELECT id FROM s1 WHERE id = 1 FOR UPDATE")).toEqual([{ ID: 1 }])
  })

  it("a schema named like one of DuckDB's own catalogs (SYSTEM, the default user's) works qualified", async () => {
    await exec(c, "CREATE TABLE q1 (x INT)")
    await exec(c, "INSERT INTO \"SYSTEM\".q1 VALUES (1)")
    expect(await exec(c, "SELECT x FROM SYSTEM.q1")).toEqual([{ X: 1 }])
    await exec(c, "CREATE SCHEMA MEMORY")
    await exec(c, "CREATE TABLE MEMORY.q2 (y INT)")
    await exec(c, "INSERT INTO MEMORY.q2 VALUES (2)")
    expect(await exec(c, "SELECT y FROM MEMORY.q2")).toEqual([{ Y: 2 }])
    expect(await exec(c, "SELECT SCHEMA_NAME FROM SYS.TABLES WHERE TABLE_NAME IN ('Q1', 'Q2') ORDER BY TABLE_NAME")).toEqual([
      { SCHEMA_NAME: "SYSTEM" },
      { SCHEMA_NAME: "MEMORY" }
    ])
  })

  it("returns integer aggregates (DuckDB HUGEINT) as HANA's BIGINT exactly, negative and beyond 2^53 included", async () => {
    await exec(c, "CREATE TABLE agg (x INTEGER)")
    await exec(c, "INSERT INTO agg VALUES (5)")
    await exec(c, "INSERT INTO agg VALUES (-7)")
    // hdb reads a BIGINT as a number up to 2^53 and as its decimal text beyond (lib/protocol/Reader.js readInt64).
    expect(await exec(c, "SELECT SUM(x) AS S FROM agg")).toEqual([{ S: -2 }])
    expect(await exec(c, "SELECT SUM(CAST(x AS BIGINT) * 10000000000000) AS S FROM agg")).toEqual([{ S: -20000000000000 }])
    expect(await exec(c, "SELECT SUM(CAST(x AS BIGINT) * 1000000000000000000) AS S FROM agg")).toEqual([{ S: "-2000000000000000000" }])
  })

  it("maps HANA functions, casts, literals and special values", async () => {
    expect(
      await exec(c, `SELECT CAST(1.5 AS NVARCHAR(10)) AS A, TO_VARCHAR(42) AS T, ADD_DAYS(TO_DATE('2024-01-31'), 1) AS N,
        DAYS_BETWEEN(TO_DATE('2024-01-01'), TO_DATE('2024-03-01')) AS B, LOCATE('hana', 'n') AS L, NVL(NULL, 2) AS V,
        X'ABCD' AS X, UCASE('a') AS U FROM DUMMY`)
    ).toEqual([{ A: "1.5", T: "42", N: "2024-02-01", B: 60, L: 3, V: 2, X: Buffer.from("abcd", "hex"), U: "A" }])
    expect(
      await exec(c, `SELECT SECONDS_BETWEEN(TO_TIMESTAMP('2024-01-01 00:00:00'), TO_TIMESTAMP('2024-01-01 00:01:30')) AS S,
        ADD_MONTHS(TO_DATE('2024-01-31'), 1) AS M, ADD_YEARS(TO_DATE('2024-02-29'), 1) AS Y, BINTOHEX(X'0aff') AS H,
        HEXTOBIN('0AFF') AS B, WEEKDAY(TO_DATE('2024-01-01')) AS W, LENGTH(BINTOHEX(NEWUID())) AS U FROM DUMMY`)
    ).toEqual([{ S: 90, M: "2024-02-29", Y: "2025-02-28", H: "0AFF", B: Buffer.from("0aff", "hex"), W: 0, U: 32 }])
    const [row] = await exec<Array<Record<string, unknown>>>(c, "SELECT CURRENT_DATE, CURRENT_TIMESTAMP, CURRENT_UTCTIMESTAMP FROM DUMMY")
    expect(Object.keys(row!)).toEqual(["CURRENT_DATE", "CURRENT_TIMESTAMP", "CURRENT_UTCTIMESTAMP"])
    expect(row!["CURRENT_DATE"]).toMatch(/^\d{4}-\d\d-\d\d$/)
  })

  it("runs CREATE TABLE LIKE / AS, ALTER TABLE ADD/DROP, TRUNCATE, indexes and sequences", async () => {
    await exec(c, "CREATE TABLE s2 LIKE s1 WITH DATA")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM s2")).toEqual([{ N: 3 }])
    await exec(c, "ALTER TABLE s2 ADD (extra DECIMAL(5,1), note NVARCHAR(3))")
    await exec(c, "ALTER TABLE s2 DROP (note)")
    expect(await exec(c, "SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH, SCALE FROM SYS.TABLE_COLUMNS WHERE TABLE_NAME = 'S2' ORDER BY POSITION")).toEqual([
      { COLUMN_NAME: "ID", DATA_TYPE_NAME: "INTEGER", LENGTH: 10, SCALE: null },
      { COLUMN_NAME: "V", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 10, SCALE: null },
      { COLUMN_NAME: "EXTRA", DATA_TYPE_NAME: "DECIMAL", LENGTH: 5, SCALE: 1 }
    ])
    await exec(c, "TRUNCATE TABLE s2")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM s2")).toEqual([{ N: 0 }])
    await exec(c, "CREATE TABLE s3 AS (SELECT id * 10 AS big FROM s1) WITH NO DATA")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM s3")).toEqual([{ N: 0 }])
    await exec(c, "CREATE INDEX i1 ON s1 (v)")
    await exec(c, "CREATE SEQUENCE seq1")
    const [first] = await exec<Array<Record<string, number>>>(c, "SELECT seq1.NEXTVAL FROM DUMMY")
    expect(Object.values(first!)).toEqual([1])
    await exec(c, "DROP SEQUENCE seq1")
  })

  it("names expression columns by their select-item text, like HANA", async () => {
    expect(await exec(c, "SELECT COUNT(*), count(*) AS n, MAX(id) FROM s1")).toEqual([{ "COUNT(*)": 3, N: 3, "MAX(ID)": 3 }])
    expect(await exec(c, "SELECT id + 1, upper(v), s1.v FROM s1 WHERE id = 1")).toEqual([{ "ID + 1": 2, "UPPER(V)": "UNO", V: "uno" }])
  })

  it("answers SESSION_CONTEXT from the client's session variables (CLIENT_INFO)", async () => {
    const app = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, "SESSIONVARIABLE:APPLICATION": "my-app" })
    try {
      expect(await exec(app, "SELECT SESSION_CONTEXT('APPLICATION') AS A, SESSION_CONTEXT('NOPE') AS N FROM DUMMY")).toEqual([{ A: "my-app", N: null }])
    } finally {
      closeQuietly(app)
    }
  })

  it("supports IDENTITY columns (sequence-backed defaults)", async () => {
    await exec(c, "CREATE TABLE ident (id BIGINT GENERATED BY DEFAULT AS IDENTITY (START WITH 100 INCREMENT BY 10) PRIMARY KEY, v NVARCHAR(5))")
    await exec(c, "INSERT INTO ident (v) VALUES ('a')")
    await exec(c, "INSERT INTO ident (v) VALUES ('b')")
    expect(await exec(c, "SELECT id, v FROM ident ORDER BY id")).toEqual([
      { ID: 100, V: "a" },
      { ID: 110, V: "b" }
    ])
    await exec(c, `CREATE LOCAL TEMPORARY TABLE "#IDENT" (id INT GENERATED ALWAYS AS IDENTITY, v INT)`)
    await exec(c, `INSERT INTO "#IDENT" (v) VALUES (7)`)
    expect(await exec(c, `SELECT id, v FROM "#IDENT"`)).toEqual([{ ID: 1, V: 7 }])
    await exec(c, "DROP TABLE ident")
    await exec(c, "CREATE TABLE ident (id INT GENERATED BY DEFAULT AS IDENTITY, v INT)")
    await exec(c, "INSERT INTO ident (v) VALUES (1)")
    expect(await exec(c, "SELECT id FROM ident")).toEqual([{ ID: 1 }])
  })

  it("accepts and ignores session settings, grants and isolation levels", async () => {
    await exec(c, "GRANT SELECT ON s1 TO PUBLIC")
    await exec(c, "SET 'APPLICATION' = 'tests'")
    await exec(c, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
    // The X.509/JWT/SAML set-up statements (PSEs, certificates, providers) are carried out: hana-identity.test.ts.
    expect(await exec(c, "SELECT COUNT(*) AS N FROM s1")).toEqual([{ N: 3 }])
  })

  it("fails a division by zero with error 304 where DuckDB would return NULL, and divides as before otherwise", async () => {
    await exec(c, "CREATE TABLE div0 (id INT, n INT)")
    await exec(c, "INSERT INTO div0 VALUES (1, 5)")
    await exec(c, "INSERT INTO div0 VALUES (2, 0)")
    await exec(c, "INSERT INTO div0 VALUES (3, NULL)")
    for (const sql of [
      "SELECT 1/0 FROM DUMMY",
      "SELECT 10 / -0 FROM DUMMY",
      "SELECT id / n AS Q FROM div0",
      "SELECT id FROM div0 WHERE 10 / (n - 0) > 1",
      "SELECT 1 + 10 / div0.n * 2 AS Q FROM div0 WHERE id = 2",
      "SELECT 10 / CASE WHEN id = 2 THEN 0 ELSE 1 END AS Q FROM div0",
      "SELECT 10 / ABS(n) AS Q FROM div0 WHERE id = 2",
      "UPDATE div0 SET n = 1 / n WHERE id = 2"
    ]) {
      const err = await failure(exec(c, sql))
      expect({ sql, code: err.code, message: err.message }).toEqual({ sql, code: 304, message: "division by zero undefined" })
    }
    // the failed UPDATE changed nothing; non-zero and NULL divisors divide as before (NULL gives NULL), precedence kept
    expect(await exec(c, "SELECT id, 10 / n AS Q FROM div0 WHERE id <> 2 ORDER BY id")).toEqual([{ ID: 1, Q: 2 }, { ID: 3, Q: null }])
    expect(await exec(c, "SELECT 1 + 12 / n * 5 - (8 / 2) / 2 AS Q FROM div0 WHERE id = 2 - 1")).toEqual([{ Q: 11 }])
    expect(await exec(c, "SELECT n FROM div0 WHERE id = 2")).toEqual([{ N: 0 }])
  })

  it("rejects what is outside the subset with a HANA error", async () => {
    // EXPLAIN PLAN is accepted (hana-explain-plan.test.ts); of anything but DML and queries it is not
    expect((await failure(exec(c, "EXPLAIN PLAN FOR DROP TABLE s1"))).code).toBe(257)
    expect((await failure(exec(c, "SELECT 1"))).code).toBe(257)
    expect((await failure(exec(c, "SELECT 1 FROM DUMMY UNION ALL SELECT 2"))).code).toBe(257)
    // procedures are accepted now (hana-procedures.test.ts); user-defined functions are not
    expect((await failure(exec(c, "CREATE FUNCTION f RETURNS INT AS BEGIN RETURN 1; END"))).code).toBe(257)
    expect((await failure(exec(c, "SELECT 'unterminated FROM DUMMY"))).code).toBe(257)
    expect((await failure(exec(c, "DROP SCHEMA nope"))).code).toBe(362)
    expect((await failure(exec(c, "SELECT CAST(1 AS FANCYTYPE) FROM DUMMY"))).code).toBe(257)
  })
})

describe("HANA test server: datetime types in DDL (raw hdb client)", () => {
  it("rejects a length or precision on TIMESTAMP and the other datetime types with 257, as HANA does", async () => {
    const server = await startHanaTestServer()
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      for (const type of ["TIMESTAMP(6)", "SECONDDATE(0)", "DATE(10)", "TIME(3)"]) {
        const err = await failure(exec(c, `CREATE TABLE dt_bad (c ${type})`))
        expect([type, err.code]).toEqual([type, 257])
      }
      await exec(c, "CREATE TABLE dt_ok (a TIMESTAMP, b SECONDDATE, c DATE, d TIME)")
      expect(await exec(c, "SELECT COUNT(*) AS N FROM dt_ok")).toEqual([{ N: 0 }])
      // in every place a type is written, in any case and spacing the driver's normalisation also accepts
      for (const sql of ["ALTER TABLE dt_ok ADD (e timestamp (3))", "CREATE TABLE dt_bad2 (x LONGDATE(7))", "SELECT CAST(a AS TIMESTAMP(6)) AS X FROM dt_ok"]) {
        expect([sql, (await failure(exec(c, sql))).code]).toEqual([sql, 257])
      }
      await exec(c, "ALTER TABLE dt_ok ADD (e TIMESTAMP)")
    } finally {
      closeQuietly(c)
      await server.close()
    }
  })
})

describe("HANA test server: declared lengths of columns made by ALTER TABLE ADD and CREATE TABLE AS (raw hdb client)", () => {
  /** Runs `test` against a fresh server with one connected client. */
  const withClient = async (test: (c: HdbClient) => Promise<void>): Promise<void> => {
    const server = await startHanaTestServer()
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      await test(c)
    } finally {
      closeQuietly(c)
      await server.close()
    }
  }

  // HANA refuses a value longer than the column's declared length with 274 ERR_SQL_INS_LARGE_VALUE (SAP HANA SQL
  // Reference, "SQL Error Codes"), whichever statement made the column.
  it("refuses an over-long value with 274 and keeps the table's rows, constraints and other columns", () =>
    withClient(async (c) => {
      await exec(c, "CREATE TABLE grown (id INT PRIMARY KEY, note NVARCHAR(5) NOT NULL)")
      await exec(c, "INSERT INTO grown VALUES (1, 'one')")
      await exec(c, "CREATE UNIQUE INDEX grown_note ON grown (note)")
      await exec(c, "ALTER TABLE grown ADD (tag NVARCHAR(3), raw VARBINARY(2), n INT)")
      await exec(c, "INSERT INTO grown VALUES (2, 'two', 'abc', x'0102', 7)")
      expect((await failure(exec(c, "INSERT INTO grown VALUES (3, 'x', 'abcd', NULL, NULL)"))).code).toBe(274)
      expect((await failure(exec(c, "UPDATE grown SET raw = x'010203' WHERE id = 2"))).code).toBe(274)
      // what the table had before the ADD still holds
      expect((await failure(exec(c, "INSERT INTO grown VALUES (4, 'sixsix', NULL, NULL, NULL)"))).code).toBe(274)
      expect((await failure(exec(c, "INSERT INTO grown VALUES (1, 'dup', NULL, NULL, NULL)"))).code).toBe(301)
      expect((await failure(exec(c, "INSERT INTO grown (id) VALUES (5)"))).code).toBe(287)
      expect((await failure(exec(c, "INSERT INTO grown VALUES (6, 'one', NULL, NULL, NULL)"))).code).toBe(301)
      expect(await exec(c, "SELECT id, note, tag, n FROM grown ORDER BY id")).toEqual([
        { ID: 1, NOTE: "one", TAG: null, N: null },
        { ID: 2, NOTE: "two", TAG: "abc", N: 7 }
      ])
      const declared = await exec<Array<Record<string, unknown>>>(c, "SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH FROM SYS.TABLE_COLUMNS WHERE TABLE_NAME = 'GROWN' ORDER BY POSITION")
      expect(declared.map((r) => [r.COLUMN_NAME, r.DATA_TYPE_NAME, r.LENGTH])).toEqual([
        ["ID", "INTEGER", 10],
        ["NOTE", "NVARCHAR", 5],
        ["TAG", "NVARCHAR", 3],
        ["RAW", "VARBINARY", 2],
        ["N", "INTEGER", 10]
      ])

      await exec(c, "CREATE TABLE copied AS (SELECT id, tag FROM grown)")
      await exec(c, "CREATE TABLE liked LIKE grown WITH DATA")
      expect(await exec(c, "SELECT COUNT(*) AS N FROM copied")).toEqual([{ N: 2 }])
      expect(await exec(c, "SELECT COUNT(*) AS N FROM liked")).toEqual([{ N: 2 }])
      expect((await failure(exec(c, "INSERT INTO copied VALUES (9, 'wxyz')"))).code).toBe(274)
      expect((await failure(exec(c, "INSERT INTO liked (id, note) VALUES (9, 'toolong')"))).code).toBe(274)
      await exec(c, "INSERT INTO copied VALUES (9, 'xyz')")
      expect(await exec(c, "SELECT tag FROM copied WHERE id = 9")).toEqual([{ TAG: "xyz" }])
    }))

  it("holds them on a table other tables reference by foreign key, keeping the referencing tables, rows and keys", () =>
    withClient(async (c) => {
      // Mixed-case quoted names in the user's schema: DuckDB keeps their FOREIGN KEY clauses with escaped names.
      await exec(c, 'CREATE ROW TABLE "Parent" ("id" INT PRIMARY KEY, name NVARCHAR(5))')
      await exec(c, 'CREATE TABLE child (id INT PRIMARY KEY, pid INT REFERENCES "Parent" ("id"), label VARCHAR(4))')
      await exec(c, "CREATE TABLE grandchild (id INT, cid INT, FOREIGN KEY (cid) REFERENCES child (id))")
      await exec(c, "CREATE INDEX child_label ON child (label)")
      await exec(c, `INSERT INTO "Parent" VALUES (1, 'one')`)
      await exec(c, "INSERT INTO child VALUES (10, 1, 'ten')")
      await exec(c, "INSERT INTO grandchild VALUES (100, 10)")
      await exec(c, 'ALTER TABLE "Parent" ADD (tag NVARCHAR(3))')
      expect((await failure(exec(c, `INSERT INTO "Parent" VALUES (2, 'two', 'abcd')`))).code).toBe(274)
      expect((await failure(exec(c, `UPDATE "Parent" SET tag = 'wxyz' WHERE "id" = 1`))).code).toBe(274)
      // a batch goes through the same check: all rows or none
      const st = await call<HdbStatement>((cb) => c.prepare(`INSERT INTO "Parent" VALUES (?, ?, ?)`, cb))
      expect((await failure(call((cb) => st.exec([[3, "a", "ok"], [4, "b", "long"]], cb)))).code).toBe(274)
      await exec(c, `INSERT INTO "Parent" VALUES (2, 'two', 'abc')`)
      expect(await exec(c, `SELECT "id", name, tag FROM "Parent" ORDER BY "id"`)).toEqual([
        { id: 1, NAME: "one", TAG: null },
        { id: 2, NAME: "two", TAG: "abc" }
      ])
      // the referencing tables kept their rows, keys, declared lengths and index
      expect(await exec(c, "SELECT g.id, c.label FROM grandchild g JOIN child c ON g.cid = c.id")).toEqual([{ ID: 100, LABEL: "ten" }])
      expect((await failure(exec(c, "INSERT INTO child VALUES (11, 9, 'x')"))).code).toBe(461)
      expect((await failure(exec(c, "INSERT INTO grandchild VALUES (101, 99)"))).code).toBe(461)
      expect((await failure(exec(c, "INSERT INTO child VALUES (11, 2, 'abcde')"))).code).toBe(274)
      expect((await failure(exec(c, "INSERT INTO child VALUES (10, 2, 'dup')"))).code).toBe(301)
      expect((await failure(exec(c, `DELETE FROM "Parent" WHERE "id" = 1`))).code).toBe(461)
      const declared = await exec<Array<Record<string, unknown>>>(c, "SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH FROM SYS.TABLE_COLUMNS WHERE TABLE_NAME = 'CHILD' ORDER BY POSITION")
      expect(declared.map((r) => [r.COLUMN_NAME, r.DATA_TYPE_NAME, r.LENGTH])).toEqual([["ID", "INTEGER", 10], ["PID", "INTEGER", 10], ["LABEL", "VARCHAR", 4]])
      expect(await exec(c, "SELECT COUNT(*) AS N FROM SYS.REFERENTIAL_CONSTRAINTS WHERE TABLE_NAME IN ('CHILD', 'GRANDCHILD')")).toEqual([{ N: 2 }])
      expect(await exec(c, `SELECT TABLE_TYPE FROM SYS.TABLES WHERE TABLE_NAME = 'Parent'`)).toEqual([{ TABLE_TYPE: "ROW" }])
    }))

  // DuckDB resolves an unqualified self-reference in its own main schema; the server names the table's schema.
  it("a table whose foreign key references itself takes rows in the user's schema, keeps its key and can grow", () =>
    withClient(async (c) => {
      await exec(c, "CREATE TABLE tree (id INT PRIMARY KEY, parent INT REFERENCES tree (id), name NVARCHAR(3))")
      await exec(c, "CREATE TABLE tree2 (id INT PRIMARY KEY, parent INT, FOREIGN KEY (parent) REFERENCES tree2 (id))")
      await exec(c, "INSERT INTO tree VALUES (1, NULL, 'a')")
      await exec(c, "INSERT INTO tree VALUES (2, 1, 'b')")
      await exec(c, "INSERT INTO tree2 VALUES (1, NULL)")
      expect((await failure(exec(c, "INSERT INTO tree VALUES (3, 9, 'c')"))).code).toBe(461)
      expect((await failure(exec(c, "INSERT INTO tree2 VALUES (2, 9)"))).code).toBe(461)
      expect((await failure(exec(c, "INSERT INTO tree VALUES (3, 1, 'long')"))).code).toBe(274)
      await exec(c, "ALTER TABLE tree ADD (tag NVARCHAR(2))")
      await exec(c, "INSERT INTO tree VALUES (3, 2, 'c', 'ok')")
      expect(await exec(c, "SELECT id, parent, tag FROM tree ORDER BY id")).toEqual([
        { ID: 1, PARENT: null, TAG: null },
        { ID: 2, PARENT: 1, TAG: null },
        { ID: 3, PARENT: 2, TAG: "ok" }
      ])
    }))

  it("holds them on a local temporary table", () =>
    withClient(async (c) => {
      await exec(c, 'CREATE LOCAL TEMPORARY TABLE "#scratch" (id INT, v VARCHAR(2))')
      await exec(c, `INSERT INTO "#scratch" VALUES (1, 'ab')`)
      await exec(c, 'ALTER TABLE "#scratch" ADD (w VARCHAR(2))')
      expect((await failure(exec(c, `INSERT INTO "#scratch" VALUES (2, 'ab', 'abc')`))).code).toBe(274)
      expect((await failure(exec(c, `INSERT INTO "#scratch" VALUES (2, 'abc', 'ab')`))).code).toBe(274)
      await exec(c, `INSERT INTO "#scratch" VALUES (2, 'cd', 'ef')`)
      expect(await exec(c, 'SELECT id, v, w FROM "#scratch" ORDER BY id')).toEqual([{ ID: 1, V: "ab", W: null }, { ID: 2, V: "cd", W: "ef" }])
      expect(await exec(c, `SELECT TABLE_NAME FROM SYS.M_TEMPORARY_TABLES`)).toEqual([{ TABLE_NAME: "#scratch" }])
    }))
})
