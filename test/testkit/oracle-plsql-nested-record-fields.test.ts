/**
 * A record field that is itself a record (`TYPE dept_t IS RECORD (id NUMBER, e emp_t)`) is a record variable of its
 * own: its fields are read and assigned as `r.e.name` ("A record variable means either a record variable or a record
 * component of a composite variable. To any record variable, you can assign a value to each field individually":
 * PL/SQL Language Reference 19c, "Assigning Values to Record Variables"), in PL/SQL expressions, in SQL statements
 * of the block and as INTO targets; the nested record starts with its type's initial field values. Before, such a
 * read failed PLS-00382 and such an assignment PLS-00103. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: fields of record fields in PL/SQL", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
  })
  afterAll(() => closeConnection(opened))

  const decl = "DECLARE TYPE emp_t IS RECORD (name VARCHAR2(20) := 'nobody', sal NUMBER); TYPE dept_t IS RECORD (id NUMBER, e emp_t); r dept_t; "
  const outText = async (block: string): Promise<unknown> =>
    (await conn.execute(decl + block, { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds.o

  it("reads and assigns a field of a record field, starting from its type's initial values", async () => {
    expect(await outText("BEGIN :o := r.e.name || '/' || NVL(TO_CHAR(r.e.sal), 'null'); END;")).toBe("nobody/null")
    expect(await outText("BEGIN r.e.name := 'x'; r.e.sal := 5; r.e.sal := r.e.sal + 1; IF r.e.sal > 5 THEN :o := r.e.name || r.e.sal; END IF; END;")).toBe("x6")
  })

  it("assigns a whole record field and copies it out, as values", async () => {
    expect(await outText("x emp_t; BEGIN x.name := 'y'; r.e := x; x.name := 'changed'; :o := r.e.name; END;")).toBe("y")
    expect(await outText("x emp_t; BEGIN r.e.name := 'z'; x := r.e; r.e.name := 'changed'; :o := x.name; END;")).toBe("z")
    expect(await outText("s dept_t; BEGIN r.e.name := 'a'; s := r; s.e.name := 'b'; :o := r.e.name || s.e.name; END;")).toBe("ab")
  })

  it("in SQL statements of the block and as SELECT INTO targets", async () => {
    expect(await outText("BEGIN r.e.name := 'q'; r.e.sal := 0.1; SELECT r.e.name || '!' || TO_CHAR(r.e.sal * 3) INTO :o FROM DUAL; END;")).toBe("q!.3")
    expect(await outText("BEGIN SELECT 'w', 7 INTO r.e.name, r.e.sal FROM DUAL; :o := r.e.name || r.e.sal; END;")).toBe("w7")
  })

  it("an attribute of a record field of an object type is assigned as it is read", async () => {
    await conn.execute("CREATE TYPE nrf_point AS OBJECT (x NUMBER, y NUMBER)")
    const block = "DECLARE TYPE holder_t IS RECORD (p nrf_point); h holder_t; BEGIN h.p := nrf_point(1, 2); h.p.x := 5; :o := h.p.x || h.p.y; END;"
    expect((await conn.execute(block, { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds.o).toBe("52")
  })

  it("three levels deep, and a missing field is PLS-00302", async () => {
    const deep = "DECLARE TYPE a_t IS RECORD (v NUMBER); TYPE b_t IS RECORD (a a_t); TYPE c_t IS RECORD (b b_t); r c_t; "
    const run = async (body: string) => (await conn.execute(deep + body, { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds.o
    expect(await run("BEGIN r.b.a.v := 41; r.b.a.v := r.b.a.v + 1; :o := r.b.a.v; END;")).toBe("42")
    await expect(run("BEGIN r.b.x.v := 1; :o := 1; END;")).rejects.toThrow(/PLS-00302: component 'X' must be declared/)
    await expect(run("BEGIN :o := r.b.a.w; END;")).rejects.toThrow(/PLS-00302: component 'W' must be declared/)
  })
})
