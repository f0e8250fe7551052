/**
 * A package's record variables and record types used from outside the package, and records and collections as
 * values. `pkg.r.e.f := x` assigns a field of a record field of a package's record variable, and a block's first
 * reference to a package may be an assignment (`BEGIN pkg.n := 1; END;`) or an INTO target; a variable of a
 * package's record type whose field is of another of the package's record types (`TYPE n_t IS RECORD (e e_t)`) has
 * that field as a record of its own ("A record variable means either a record variable or a record component of a
 * composite variable": PL/SQL Language Reference 19c, "Assigning Values to Record Variables"). Assigning a record
 * or collection copies it, the records and collections inside it too ("Assigning Values to Collection Variables":
 * the assigned collection is a copy). Before, these assignments failed PLS-00201 / PLS-00103, and an element of a
 * collection or an assigned collection shared its records with the source. Raw node-oracledb against the Oracle test
 * server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: package record fields and record / collection copies in PL/SQL", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE OR REPLACE PACKAGE prf AS TYPE e_t IS RECORD (f NUMBER, g VARCHAR2(3) := 'ini'); TYPE n_t IS RECORD (id NUMBER, e e_t); r n_t; n NUMBER := 0; END;")
  })
  afterAll(() => closeConnection(opened))

  const outText = async (block: string): Promise<unknown> =>
    (await conn.execute(block, { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds.o

  it("assigns a package variable and a field of its record field as the block's first reference to the package", async () => {
    // a new session: the package has no instance yet
    const c2 = await oracledb.getConnection({ user: opened.server.user, password: opened.server.password, connectString: opened.server.connectString })
    try {
      const r = await c2.execute("BEGIN prf.n := 41; prf.n := prf.n + 1; :o := prf.n; END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 } })
      expect(r.outBinds.o).toBe("42")
      const s = await c2.execute("BEGIN prf.r.e.f := 5; :o := prf.r.e.f || prf.r.e.g; END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 } })
      expect(s.outBinds.o).toBe("5ini")
    } finally {
      await c2.close()
    }
    expect(await outText("BEGIN prf.r.e.g := 'xy'; :o := prf.r.e.g; END;")).toBe("xy")
    expect(await outText("BEGIN SELECT 7 INTO prf.r.e.f FROM dual; :o := prf.r.e.f; END;")).toBe("7")
    await expect(outText("BEGIN prf.r.e.g := 'toolong'; :o := 'x'; END;")).rejects.toThrow(/ORA-06502/)
    await expect(outText("BEGIN prf.r.e.nofield := 1; :o := 'x'; END;")).rejects.toThrow(/PLS-00302: component 'NOFIELD' must be declared/)
  })

  it("a block's variable of a package's record type has its record field as a record of the field's type", async () => {
    expect(await outText("DECLARE s prf.n_t; BEGIN s.e.f := 1; :o := s.e.f || s.e.g; END;")).toBe("1ini")
  })

  it("an element of a collection of records is a copy of the record assigned, nested records too", async () => {
    expect(await outText("DECLARE TYPE t IS TABLE OF prf.n_t INDEX BY PLS_INTEGER; c t; s prf.n_t; BEGIN s.e.f := 1; c(1) := s; s.e.f := 2; :o := c(1).e.f || s.e.f; END;")).toBe("12")
    expect(await outText("DECLARE TYPE t IS TABLE OF prf.n_t; c t := t(); s prf.n_t; BEGIN s.e.f := 1; c.EXTEND; c(1) := s; c(1).e.f := 3; :o := s.e.f || c(1).e.f; END;")).toBe("13")
  })

  it("assigning a collection copies it and its elements", async () => {
    expect(await outText("DECLARE TYPE t IS TABLE OF NUMBER; c t := t(1, 2); d t; BEGIN d := c; d(1) := 5; :o := c(1) || d(1); END;")).toBe("15")
    expect(await outText("DECLARE TYPE t IS TABLE OF NUMBER INDEX BY PLS_INTEGER; c t; d t; BEGIN c(1) := 1; d := c; d(1) := 5; d(2) := 6; :o := c(1) || c.COUNT || d(1); END;")).toBe("115")
    expect(await outText("DECLARE TYPE t IS TABLE OF prf.n_t; c t := t(); d t; s prf.n_t; BEGIN s.e.f := 1; c.EXTEND; c(1) := s; d := c; d(1).e.f := 3; :o := c(1).e.f || d(1).e.f; END;")).toBe("13")
  })
})
