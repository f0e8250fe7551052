import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let connect: (user?: string, password?: string) => Promise<Conn>
let app: Conn

describe("Oracle test server: integrity, privilege and tablespace errors, BINARY_DOUBLE constants", () => {
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "dba", password: "dba", dba: true }] })
    server = s.server
    connect = s.connect
    app = await connect()
    await app.execute("CREATE TABLE parent (id NUMBER PRIMARY KEY)")
    await app.execute("CREATE TABLE child (id NUMBER, pid NUMBER CONSTRAINT child_fk REFERENCES parent(id), x NUMBER CONSTRAINT child_pos CHECK (x > 0))")
    await app.execute("INSERT INTO parent VALUES (1)")
    await app.execute("INSERT INTO child VALUES (1, 1, 5)")
    await app.commit()
  })
  afterAll(async () => {
    await app?.close()
    await server?.close()
  })

  const message = async (sql: string, conn: Conn = app) => (await failure(() => conn.execute(sql))).message.split("\n")[0]

  it("raises ORA-02291 / ORA-02292 / ORA-02290 naming the violated constraint, and keeps the table as it was", async () => {
    expect(await message("INSERT INTO child VALUES (2, 99, 1)")).toBe("ORA-02291: integrity constraint (APP.CHILD_FK) violated - parent key not found")
    expect(await message("DELETE FROM parent WHERE id = 1")).toBe("ORA-02292: integrity constraint (APP.CHILD_FK) violated - child record found")
    expect(await message("INSERT INTO child VALUES (3, NULL, -1)")).toBe("ORA-02290: check constraint (APP.CHILD_POS) violated")
    expect(await message("UPDATE child SET x = -5")).toBe("ORA-02290: check constraint (APP.CHILD_POS) violated")
    const rows = await app.execute("SELECT id, pid, x FROM child ORDER BY id")
    expect(rows.rows).toEqual([[1, 1, 5]])
  })

  // ORA-01400 for an INSERT of NULL, ORA-01407 for an UPDATE to NULL (https://docs.oracle.com/en/error-help/db/ora-01407/)
  it("raises ORA-01407 for an UPDATE of a NOT NULL column to NULL, naming the table's owner", async () => {
    await app.execute("CREATE TABLE nn_t (id NUMBER PRIMARY KEY, name VARCHAR2(5) NOT NULL)")
    await app.execute("INSERT INTO nn_t VALUES (1, 'a')")
    expect(await message("UPDATE nn_t SET name = NULL")).toBe('ORA-01407: cannot update ("APP"."NN_T"."NAME") to NULL')
    expect(await message("INSERT INTO nn_t VALUES (2, NULL)")).toBe('ORA-01400: cannot insert NULL into ("APP"."NN_T"."NAME")')
    expect((await app.execute("SELECT name FROM nn_t")).rows).toEqual([["a"]])
    await app.rollback()
  })

  it("refuses user management without the privilege (ORA-01031) and allows it to a DBA", async () => {
    expect(oraCode(await failure(() => app.execute("CREATE USER eve IDENTIFIED BY eve")))).toBe("ORA-01031")
    expect(oraCode(await failure(() => app.execute("DROP USER dba")))).toBe("ORA-01031")
    expect(oraCode(await failure(() => app.execute("ALTER USER dba IDENTIFIED BY x")))).toBe("ORA-01031")
    // a user may change its own password
    await app.execute("ALTER USER app IDENTIFIED BY app")
    const dba = await connect("dba", "dba")
    try {
      await dba.execute("CREATE USER eve IDENTIFIED BY eve DEFAULT TABLESPACE users")
      // a new user holds no privilege: it logs on once granted CREATE SESSION (oracle-system-privileges.test.ts)
      await dba.execute("GRANT CREATE SESSION TO eve")
      const eve = await connect("eve", "eve")
      await eve.close()
      await dba.execute("DROP USER eve")
    } finally {
      await dba.close()
    }
  })

  it("rejects unknown tablespaces with ORA-00959 and accepts Oracle Free's", async () => {
    expect(await message("CREATE TABLE t1 (a NUMBER) TABLESPACE nosuch")).toBe("ORA-00959: tablespace 'NOSUCH' does not exist")
    await app.execute("CREATE TABLE t2 (a NUMBER) TABLESPACE users")
    await app.execute("DROP TABLE t2")
  })

  it("has BINARY_DOUBLE_NAN and BINARY_DOUBLE_INFINITY, described as BINARY_DOUBLE", async () => {
    const r = await app.execute("SELECT BINARY_DOUBLE_NAN, BINARY_DOUBLE_INFINITY, -BINARY_DOUBLE_INFINITY AS ninf, CAST(1.5 AS BINARY_DOUBLE) FROM dual")
    expect(r.rows[0][0]).toBeNaN()
    expect(r.rows[0].slice(1)).toEqual([Infinity, -Infinity, 1.5])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["BINARY_DOUBLE", "BINARY_DOUBLE", "BINARY_DOUBLE", "BINARY_DOUBLE"])
    await app.execute("CREATE TABLE bd (x BINARY_DOUBLE)")
    await app.execute("INSERT INTO bd VALUES (BINARY_DOUBLE_NAN)")
    const stored = await app.execute("SELECT x FROM bd")
    expect(stored.rows[0][0]).toBeNaN()
  })

  it("raises ORA-01476 for division by zero wherever the division is", async () => {
    await app.execute("CREATE TABLE d (n NUMBER)")
    await app.executeMany("INSERT INTO d VALUES (:1)", [[4], [5], [6]])
    expect(oraCode(await failure(() => app.execute("SELECT 10/(n-5) FROM d")))).toBe("ORA-01476")
    expect(oraCode(await failure(() => app.execute("SELECT n FROM d WHERE 10/(n-5) > 0")))).toBe("ORA-01476")
    expect(oraCode(await failure(() => app.execute("SELECT SUM(10/(n-5)) FROM d")))).toBe("ORA-01476")
    expect(oraCode(await failure(() => app.execute("UPDATE d SET n = 1/(n-5)")))).toBe("ORA-01476")
  })
})
