import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"
import { closeTwoClients, openTwoClients } from "./hana/transactions.ts"

describe("HANA test server: transactions, temporary tables, constraints, catalog views", () => {
  let server: HanaTestServerHandle
  let a: HdbClient
  let b: HdbClient
  let login: () => Promise<HdbClient>
  beforeAll(async () => {
    ;({ server, a, b, login } = await openTwoClients())
  })
  afterAll(() => closeTwoClients({ server, a, b }))

  it("isolates uncommitted work per session and honours COMMIT / ROLLBACK", async () => {
    await exec(a, "CREATE TABLE tx (id INT PRIMARY KEY)")
    a.setAutoCommit(false)
    try {
      await exec(a, "INSERT INTO tx VALUES (1)")
      expect(await exec(b, "SELECT COUNT(*) AS N FROM tx")).toEqual([{ N: 0 }])
      expect(await exec(a, "SELECT COUNT(*) AS N FROM tx")).toEqual([{ N: 1 }])
      await call((cb) => a.commit(cb))
      expect(await exec(b, "SELECT COUNT(*) AS N FROM tx")).toEqual([{ N: 1 }])
      await exec(a, "INSERT INTO tx VALUES (2)")
      await call((cb) => a.rollback(cb))
      expect(await exec(a, "SELECT COUNT(*) AS N FROM tx")).toEqual([{ N: 1 }])
      const st = await call<HdbStatement>((cb) => a.prepare("INSERT INTO tx VALUES (?)", cb))
      await call((cb) => st.exec([[3], [4]], cb))
      await exec(a, "ROLLBACK")
      expect(await exec(a, "SELECT COUNT(*) AS N FROM tx")).toEqual([{ N: 1 }])
      await exec(a, "INSERT INTO tx VALUES (5)")
      // A failing statement undoes only itself, as in HANA: syntax/catalog errors and execution errors alike.
      expect((await failure(exec(a, "SELECT * FROM no_such_table"))).code).toBe(259)
      expect(await exec(a, "SELECT COUNT(*) AS N FROM tx")).toEqual([{ N: 2 }])
      await exec(a, "INSERT INTO tx VALUES (6)")
      expect((await failure(exec(a, "INSERT INTO tx VALUES (6)"))).code).toBe(301)
      expect((await failure(exec(a, "INSERT INTO tx VALUES ('x')"))).code).toBe(339)
      expect(await exec(a, "SELECT id FROM tx ORDER BY id")).toEqual([{ ID: 1 }, { ID: 5 }, { ID: 6 }])
      await exec(a, "COMMIT")
      expect(await exec(b, "SELECT id FROM tx ORDER BY id")).toEqual([{ ID: 1 }, { ID: 5 }, { ID: 6 }])
    } finally {
      a.setAutoCommit(true)
    }
  })

  it("SAVEPOINT / ROLLBACK TO SAVEPOINT / RELEASE SAVEPOINT undo only the work after the savepoint", async () => {
    await exec(a, "CREATE TABLE sp (id INT PRIMARY KEY)")
    a.setAutoCommit(false)
    try {
      await exec(a, "INSERT INTO sp VALUES (1)")
      await exec(a, "SAVEPOINT s1")
      await exec(a, "INSERT INTO sp VALUES (2)")
      await exec(a, "SAVEPOINT s2")
      await exec(a, "INSERT INTO sp VALUES (3)")
      await exec(a, "ROLLBACK TO SAVEPOINT s2")
      expect(await exec(a, "SELECT id FROM sp ORDER BY id")).toEqual([{ ID: 1 }, { ID: 2 }])
      await exec(a, "ROLLBACK TO SAVEPOINT s1")
      expect(await exec(a, "SELECT id FROM sp ORDER BY id")).toEqual([{ ID: 1 }])
      // s2 was set after s1: rolling back to s1 released it
      expect((await failure(exec(a, "ROLLBACK TO SAVEPOINT s2"))).message).toContain("S2")
      await exec(a, "RELEASE SAVEPOINT s1")
      expect((await failure(exec(a, "ROLLBACK TO SAVEPOINT s1"))).message).toContain("S1")
      expect(await exec(b, "SELECT COUNT(*) AS N FROM sp")).toEqual([{ N: 0 }])
      await exec(a, "COMMIT")
      expect(await exec(b, "SELECT id FROM sp ORDER BY id")).toEqual([{ ID: 1 }])
    } finally {
      a.setAutoCommit(true)
    }
  })

  it("commits DDL immediately (with the open transaction) unless AUTOCOMMIT DDL is OFF", async () => {
    a.setAutoCommit(false)
    try {
      await exec(a, "CREATE TABLE ddl1 (x INT)")
      await exec(a, "INSERT INTO ddl1 VALUES (1)")
      await exec(a, "CREATE TABLE ddl2 (y INT)")
      await exec(a, "INSERT INTO ddl1 VALUES (2)")
      await exec(a, "ROLLBACK")
      // The second CREATE committed the first insert; the second insert was rolled back; both tables exist.
      expect(await exec(b, "SELECT x FROM ddl1")).toEqual([{ X: 1 }])
      expect(await exec(b, "SELECT COUNT(*) AS N FROM ddl2")).toEqual([{ N: 0 }])
      await exec(a, "SET TRANSACTION AUTOCOMMIT DDL OFF")
      await exec(a, "CREATE TABLE ddl3 (z INT)")
      await exec(a, "ROLLBACK")
      expect((await failure(exec(a, "SELECT * FROM ddl3"))).code).toBe(259)
      await exec(a, "SET TRANSACTION AUTOCOMMIT DDL ON")
    } finally {
      a.setAutoCommit(true)
    }
  })

  it("reads committed data of other sessions inside an open read-only transaction (READ COMMITTED)", async () => {
    await exec(a, "CREATE TABLE rc (id INT)")
    b.setAutoCommit(false)
    try {
      expect(await exec(b, "SELECT COUNT(*) AS N FROM rc")).toEqual([{ N: 0 }])
      await exec(a, "INSERT INTO rc VALUES (1)")
      expect(await exec(b, "SELECT COUNT(*) AS N FROM rc")).toEqual([{ N: 1 }])
      await exec(b, "ROLLBACK")
    } finally {
      b.setAutoCommit(true)
    }
  })

  it("runs a failing batch atomically: error 301, no row inserted, session usable", async () => {
    await exec(a, "CREATE TABLE batch_err (id INT PRIMARY KEY, label NVARCHAR(10), d DATE)")
    const st = await call<HdbStatement>((cb) => a.prepare("INSERT INTO batch_err VALUES (?, ?, ?)", cb))
    const err = await failure(call((cb) => st.exec([[1, "a", "2024-01-01"], [2, null, null], [1, "dup", "2024-01-02"]], cb)))
    expect(err.code).toBe(301)
    expect(await exec(a, "SELECT COUNT(*) AS N FROM batch_err")).toEqual([{ N: 0 }])
    expect(await call((cb) => st.exec([[1, "a", "2024-01-01"], [2, null, null]], cb))).toEqual([1, 1])
    expect(await exec(a, "SELECT id, label, d FROM batch_err ORDER BY id")).toEqual([
      { ID: 1, LABEL: "a", D: "2024-01-01" },
      { ID: 2, LABEL: null, D: null }
    ])
  })

  it("keeps local temporary tables per session and drops them at session end", async () => {
    await exec(a, `CREATE LOCAL TEMPORARY COLUMN TABLE "#SCRATCH" (k NVARCHAR(5), v DOUBLE)`)
    await exec(a, `INSERT INTO "#SCRATCH" VALUES ('x', 1.5)`)
    expect(await exec(a, `SELECT k, v FROM "#SCRATCH"`)).toEqual([{ K: "x", V: 1.5 }])
    expect((await failure(exec(b, `SELECT * FROM "#SCRATCH"`))).code).toBe(259)
    expect(await exec(a, `SELECT TABLE_NAME, CONNECTION_ID FROM SYS.M_TEMPORARY_TABLES`)).toEqual([
      { TABLE_NAME: "#SCRATCH", CONNECTION_ID: a.connectOptions.connectionId }
    ])
    expect(await exec(a, `SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH FROM SYS.M_TEMPORARY_TABLE_COLUMNS ORDER BY POSITION`)).toEqual([
      { COLUMN_NAME: "K", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 5 },
      { COLUMN_NAME: "V", DATA_TYPE_NAME: "DOUBLE", LENGTH: 53 }
    ])
    expect((await failure(exec(a, "CREATE LOCAL TEMPORARY TABLE NOHASH (x INT)"))).code).toBe(257)
    const c = await login()
    await exec(c, `CREATE LOCAL TEMPORARY TABLE "#GONE" (x INT)`)
    closeQuietly(c)
    const d = await login()
    try {
      expect(await exec(d, "SELECT COUNT(*) AS N FROM SYS.M_TEMPORARY_TABLES WHERE TABLE_NAME = '#GONE'")).toEqual([{ N: 0 }])
    } finally {
      closeQuietly(d)
    }
    await exec(a, `DROP TABLE "#SCRATCH"`)
  })

  it("enforces PRIMARY KEY, UNIQUE, FOREIGN KEY and NOT NULL and lists them in the catalog", async () => {
    await exec(a, "CREATE ROW TABLE parent (id INT NOT NULL, code VARCHAR(4), PRIMARY KEY (id), UNIQUE (code))")
    await exec(a, "CREATE TABLE child (id INT PRIMARY KEY, parent_id INT NOT NULL REFERENCES parent (id), note NCLOB)")
    await exec(a, "INSERT INTO parent VALUES (1, 'A')")
    expect((await failure(exec(a, "INSERT INTO parent VALUES (2, 'A')"))).code).toBe(301)
    expect((await failure(exec(a, "INSERT INTO child VALUES (1, 99, NULL)"))).code).toBe(461)
    expect((await failure(exec(a, "INSERT INTO child VALUES (1, NULL, NULL)"))).code).toBe(287)
    expect(await exec(a, "INSERT INTO child VALUES (1, 1, 'n')")).toBe(1)
    const constraints = await exec(a, `SELECT TABLE_NAME, COLUMN_NAME, IS_PRIMARY_KEY, IS_UNIQUE_KEY FROM SYS.CONSTRAINTS
      WHERE SCHEMA_NAME = 'SYSTEM' AND TABLE_NAME IN ('PARENT', 'CHILD') ORDER BY TABLE_NAME, IS_PRIMARY_KEY DESC`)
    expect(constraints).toEqual([
      { TABLE_NAME: "CHILD", COLUMN_NAME: "ID", IS_PRIMARY_KEY: "TRUE", IS_UNIQUE_KEY: "TRUE" },
      { TABLE_NAME: "PARENT", COLUMN_NAME: "ID", IS_PRIMARY_KEY: "TRUE", IS_UNIQUE_KEY: "TRUE" },
      { TABLE_NAME: "PARENT", COLUMN_NAME: "CODE", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "TRUE" }
    ])
    expect(await exec(a, `SELECT TABLE_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM SYS.REFERENTIAL_CONSTRAINTS WHERE SCHEMA_NAME = 'SYSTEM'`)).toEqual([
      { TABLE_NAME: "CHILD", COLUMN_NAME: "PARENT_ID", REFERENCED_TABLE_NAME: "PARENT", REFERENCED_COLUMN_NAME: "ID" }
    ])
  })

  it("exposes schemas, tables, views, columns, users and the database in SYS views with HANA names", async () => {
    await exec(a, "CREATE SCHEMA \"Reporting\"")
    await exec(a, `CREATE TABLE "Reporting"."Facts" ("Id" BIGINT NOT NULL, amount DECIMAL(15,2), label NVARCHAR(40), payload BLOB)`)
    await exec(a, `CREATE VIEW "Reporting".big_facts AS SELECT "Id", amount FROM "Reporting"."Facts" WHERE amount > 100`)
    const schemas = await exec<Array<{ SCHEMA_NAME: string }>>(a, "SELECT SCHEMA_NAME FROM SYS.SCHEMAS")
    expect(schemas.map((s) => s.SCHEMA_NAME)).toEqual(expect.arrayContaining(["SYS", "_SYS_BIC", "SYSTEM", "Reporting"]))
    expect(await exec(a, "SELECT TABLE_NAME, TABLE_TYPE, IS_COLUMN_TABLE FROM SYS.TABLES WHERE SCHEMA_NAME = 'Reporting'")).toEqual([
      { TABLE_NAME: "Facts", TABLE_TYPE: "COLUMN", IS_COLUMN_TABLE: "TRUE" }
    ])
    expect(await exec(a, "SELECT VIEW_NAME FROM SYS.VIEWS WHERE SCHEMA_NAME = 'Reporting'")).toEqual([{ VIEW_NAME: "BIG_FACTS" }])
    expect(
      await exec(a, `SELECT COLUMN_NAME, POSITION, DATA_TYPE_NAME, DATA_TYPE_ID, LENGTH, SCALE, IS_NULLABLE FROM SYS.TABLE_COLUMNS
        WHERE SCHEMA_NAME = 'Reporting' AND TABLE_NAME = 'Facts' ORDER BY POSITION`)
    ).toEqual([
      { COLUMN_NAME: "Id", POSITION: 1, DATA_TYPE_NAME: "BIGINT", DATA_TYPE_ID: -5, LENGTH: 19, SCALE: null, IS_NULLABLE: "FALSE" },
      { COLUMN_NAME: "AMOUNT", POSITION: 2, DATA_TYPE_NAME: "DECIMAL", DATA_TYPE_ID: 3, LENGTH: 15, SCALE: 2, IS_NULLABLE: "TRUE" },
      { COLUMN_NAME: "LABEL", POSITION: 3, DATA_TYPE_NAME: "NVARCHAR", DATA_TYPE_ID: -9, LENGTH: 40, SCALE: null, IS_NULLABLE: "TRUE" },
      { COLUMN_NAME: "PAYLOAD", POSITION: 4, DATA_TYPE_NAME: "BLOB", DATA_TYPE_ID: 2004, LENGTH: 0, SCALE: null, IS_NULLABLE: "TRUE" }
    ])
    expect(await exec(a, `SELECT VIEW_NAME, COLUMN_NAME, DATA_TYPE_NAME, LENGTH, SCALE FROM SYS.VIEW_COLUMNS WHERE SCHEMA_NAME = 'Reporting' ORDER BY POSITION`)).toEqual([
      { VIEW_NAME: "BIG_FACTS", COLUMN_NAME: "Id", DATA_TYPE_NAME: "BIGINT", LENGTH: 19, SCALE: null },
      { VIEW_NAME: "BIG_FACTS", COLUMN_NAME: "AMOUNT", DATA_TYPE_NAME: "DECIMAL", LENGTH: 15, SCALE: 2 }
    ])
    await exec(a, `CREATE VIEW "Reporting".labels AS SELECT label, UPPER(label) AS shout FROM "Reporting"."Facts"`)
    const rs = await call<HdbResultSet>((cb) => a.execute(`SELECT * FROM "Reporting".labels`, cb))
    expect(rs.metadata.map((m) => [m.columnDisplayName, m.dataType, m.length])).toEqual([
      ["LABEL", 11, 40],
      ["SHOUT", 11, 5000]
    ])
    await call((cb) => rs.close(cb))
    await exec(a, `DROP VIEW "Reporting".labels`)
    expect(await exec(a, "SELECT USER_NAME FROM SYS.USERS")).toEqual([{ USER_NAME: "SYSTEM" }])
    const db = await exec<Array<Record<string, unknown>>>(a, "SELECT SYSTEM_ID, DATABASE_NAME, VERSION FROM SYS.M_DATABASE")
    expect(db).toEqual([{ SYSTEM_ID: "HXE", DATABASE_NAME: "HXE", VERSION: "2.00.070.00.1686119400" }])
    await exec(a, `DROP VIEW "Reporting".big_facts`)
    await exec(a, `DROP TABLE "Reporting"."Facts"`)
    expect(await exec(a, "SELECT COUNT(*) AS N FROM SYS.TABLES WHERE SCHEMA_NAME = 'Reporting'")).toEqual([{ N: 0 }])
  })

  it("creates users with CREATE USER who log in to their own schema", async () => {
    await exec(a, "CREATE USER CAROL PASSWORD \"Carol1234\" NO FORCE_FIRST_PASSWORD_CHANGE")
    const carol = await connect({ host: server.host, port: server.port, user: "CAROL", password: "Carol1234" })
    try {
      expect(await exec(carol, "SELECT CURRENT_USER, CURRENT_SCHEMA FROM DUMMY")).toEqual([{ CURRENT_USER: "CAROL", CURRENT_SCHEMA: "CAROL" }])
    } finally {
      closeQuietly(carol)
    }
    await exec(a, "DROP USER CAROL")
    expect((await failure(connect({ host: server.host, port: server.port, user: "CAROL", password: "Carol1234" }))).code).toBe(10)
  })
})
