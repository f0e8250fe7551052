import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * How names in a block's SQL statements resolve, through raw node-oracledb. PL/SQL Language Reference (23ai),
 * "Column Name Precedence" (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/column-name-precedence.html):
 * where a name is both a column of the statement's tables and a variable, the column wins (Example B-2 deletes every
 * row). That rule applies where a column can stand: the VALUES clause of an INSERT cannot name a column of the table
 * it inserts into (SQL reports ORA-00984 "column not allowed here", https://docs.oracle.com/en/error-help/db/ora-00984/),
 * so there the variable is the only reading. A table alias is not a value at all: a variable named like one does not
 * replace it.
 */
describe("Oracle test server: PL/SQL name resolution in SQL statements", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE nr_emp (id NUMBER, name VARCHAR2(20))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async () => (await conn.execute("SELECT id, name FROM nr_emp ORDER BY id")).rows

  it("takes a variable named like a column in INSERT ... VALUES, and the column in WHERE", async () => {
    await conn.execute("DELETE FROM nr_emp")
    await conn.execute(
      `DECLARE
        id NUMBER := 5;
        name VARCHAR2(20) := 'from variable';
      BEGIN
        INSERT INTO nr_emp (id, name) VALUES (id, name);
        INSERT INTO nr_emp VALUES (id + 1, name || '!');
      END;`
    )
    expect(await rows()).toEqual([[5, "from variable"], [6, "from variable!"]])
    // Example B-2: in WHERE both sides are the column, so every row goes
    const r = await conn.execute(
      `DECLARE
        name VARCHAR2(20) := 'nobody';
      BEGIN
        DELETE FROM nr_emp WHERE name = name;
        :n := SQL%ROWCOUNT;
      END;`,
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(r.outBinds.n).toBe(2)
    expect(await rows()).toEqual([])
  })

  it("keeps the target's columns in an INSERT ... SELECT from the same table", async () => {
    await conn.execute("DELETE FROM nr_emp")
    await conn.execute("INSERT INTO nr_emp VALUES (1, 'a')")
    await conn.execute(
      `DECLARE
        id NUMBER := 100;
      BEGIN
        INSERT INTO nr_emp (id, name) SELECT id + 10, name FROM nr_emp WHERE id = 1;
      END;`
    )
    expect(await rows()).toEqual([[1, "a"], [11, "a"]])
  })

  it("does not replace a table alias named like a variable", async () => {
    await conn.execute("DELETE FROM nr_emp")
    await conn.execute("INSERT INTO nr_emp VALUES (1, 'a')")
    const r = await conn.execute(
      `DECLARE
        e NUMBER := 7;
        s VARCHAR2(20);
        n NUMBER;
      BEGIN
        SELECT e.name INTO s FROM nr_emp e WHERE e.id = 1;
        UPDATE nr_emp e SET name = 'b' WHERE e.id = 1;
        SELECT COUNT(*) INTO n FROM (SELECT id FROM nr_emp) e WHERE e.id = 1;
        :s := s || '/' || n || '/' || e;
      END;`,
      { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } }
    )
    expect(r.outBinds.s).toBe("a/1/7")
    expect(await rows()).toEqual([[1, "b"]])
  })
})
