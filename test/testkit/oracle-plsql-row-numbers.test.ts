/**
 * A record read from a query's row (a cursor FOR loop's record, FETCH or SELECT INTO a `%ROWTYPE` record) holds its
 * NUMBER and DATE fields as numbers and dates: `n + r.id` adds, exactly as NUMBER arithmetic does, and `r.d + 1` adds
 * a day (PL/SQL Language Reference, "Cursor FOR LOOP Statement": the record's fields have the query's column types;
 * "%ROWTYPE Attribute"). Before, an unconstrained NUMBER column's exact decimal text reached PL/SQL arithmetic as a
 * character value and failed ORA-06502, and a fraction held as a double was computed on as one (0.1 * 3 gave
 * .30000000000000004, where Oracle's decimal NUMBER gives .3). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: NUMBER and DATE fields of records read from rows", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE rn_t (id NUMBER, amount NUMBER, big NUMBER, d DATE, s VARCHAR2(10))")
    await conn.execute("INSERT INTO rn_t VALUES (1, 0.1, 12345678901234567890.123, DATE '2024-02-28', 'a')")
    await conn.execute("INSERT INTO rn_t VALUES (2, 0.2, 1, DATE '2024-12-31', 'b')")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const outText = async (block: string): Promise<unknown> =>
    (await conn.execute(block, { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds.o

  it("a cursor FOR loop's record adds its NUMBER field to a NUMBER, a PLS_INTEGER and a NUMBER(10)", async () => {
    for (const decl of ["NUMBER", "PLS_INTEGER", "NUMBER(10)"]) {
      expect(await outText(`DECLARE n ${decl} := 0; BEGIN FOR r IN (SELECT id, s FROM rn_t) LOOP n := n + r.id; END LOOP; :o := n; END;`)).toBe("3")
    }
  })

  it("over an explicit cursor and over a derived table", async () => {
    expect(await outText("DECLARE n NUMBER := 0; CURSOR c IS SELECT id, s FROM rn_t; BEGIN FOR r IN c LOOP n := n + r.id * 10; END LOOP; :o := n; END;")).toBe("30")
    expect(await outText("DECLARE n NUMBER := 0; BEGIN FOR r IN (SELECT x.id AS k FROM (SELECT id FROM rn_t) x) LOOP n := n + 80 + r.k; END LOOP; :o := n; END;")).toBe("163")
  })

  it("decimal fields add as NUMBER, not as doubles, and a field beyond a double's digits stays exact", async () => {
    expect(await outText("DECLARE n NUMBER := 0; BEGIN FOR r IN (SELECT amount FROM rn_t) LOOP n := n + r.amount * 3; END LOOP; :o := TO_CHAR(n); END;")).toBe(".9")
    expect(await outText("DECLARE n NUMBER; BEGIN FOR r IN (SELECT big FROM rn_t WHERE id = 1) LOOP n := r.big * 2; END LOOP; :o := TO_CHAR(n); END;")).toBe(
      "24691357802469135780.246"
    )
  })

  it("NUMBER variables holding fractions compute as decimals in SQL expressions", async () => {
    expect(await outText("DECLARE a NUMBER := 0.1; n NUMBER; BEGIN n := a * 3; :o := TO_CHAR(n); END;")).toBe(".3")
    expect(await outText("DECLARE a NUMBER := 0.1; b NUMBER := 0.2; BEGIN :o := TO_CHAR(a + b); END;")).toBe(".3")
    expect(await outText("DECLARE a NUMBER := 1.0000001; BEGIN :o := TO_CHAR(a * 1E-7); END;")).toBe(".00000010000001")
  })

  it("a %ROWTYPE record filled by SELECT INTO and by FETCH computes on its fields", async () => {
    expect(await outText("DECLARE v rn_t%ROWTYPE; BEGIN SELECT * INTO v FROM rn_t WHERE id = 2; :o := TO_CHAR(v.id + v.amount); END;")).toBe("2.2")
    expect(
      await outText("DECLARE CURSOR c IS SELECT * FROM rn_t ORDER BY id; v c%ROWTYPE; n NUMBER := 0; BEGIN OPEN c; LOOP FETCH c INTO v; EXIT WHEN c%NOTFOUND; n := n + v.id; END LOOP; CLOSE c; :o := n; END;")
    ).toBe("3")
  })

  it("a DATE field plus a number adds days", async () => {
    expect(await outText("DECLARE t VARCHAR2(100); BEGIN FOR r IN (SELECT d FROM rn_t ORDER BY id) LOOP t := t || TO_CHAR(r.d + 1, 'YYYY-MM-DD') || ' '; END LOOP; :o := t; END;")).toBe(
      "2024-02-29 2025-01-01 "
    )
  })
})
