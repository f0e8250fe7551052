/**
 * Oracle test server: NOT INSTANTIABLE object types and methods (raw node-oracledb). Object-Relational Developer's
 * Guide, "NOT INSTANTIABLE Types and Methods": no constructor call makes an instance of a NOT INSTANTIABLE type
 * (ORA-22826 in SQL, PLS-00713 in PL/SQL), such a type must be NOT FINAL, a NOT INSTANTIABLE method has no body and a
 * type declaring one must be NOT INSTANTIABLE; an instantiable subtype implements it (OVERRIDING) and a call through
 * the supertype runs the subtype's body.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: NOT INSTANTIABLE types and methods (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      `CREATE TYPE ni_shape AS OBJECT (name VARCHAR2(20), NOT INSTANTIABLE MEMBER FUNCTION area RETURN NUMBER, MEMBER FUNCTION label RETURN VARCHAR2) NOT INSTANTIABLE NOT FINAL`,
      // the body defines label only: area has no body
      `CREATE TYPE BODY ni_shape AS MEMBER FUNCTION label RETURN VARCHAR2 IS BEGIN RETURN 'shape ' || name; END; END;`,
      `CREATE TYPE ni_square UNDER ni_shape (side NUMBER, OVERRIDING MEMBER FUNCTION area RETURN NUMBER)`,
      `CREATE TYPE BODY ni_square AS OVERRIDING MEMBER FUNCTION area RETURN NUMBER IS BEGIN RETURN side * side; END; END;`,
      "CREATE TABLE ni_t (id NUMBER, s ni_shape)",
      "INSERT INTO ni_t VALUES (1, ni_square('sq', 3))"
    ])
      await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("SQL: a constructor call of a NOT INSTANTIABLE type is ORA-22826, in a query and in an INSERT", async () => {
    expect(oraCode(await failure(() => conn.execute("SELECT ni_shape('x') FROM dual")))).toBe("ORA-22826")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO ni_t VALUES (2, ni_shape('x'))")))).toBe("ORA-22826")
    expect((await conn.execute("SELECT COUNT(*) FROM ni_t")).rows).toEqual([[1]])
  })

  it("SQL: a NOT INSTANTIABLE method called on a supertype column runs the subtype's implementation", async () => {
    expect((await conn.execute("SELECT t.s.area(), t.s.label() FROM ni_t t")).rows).toEqual([[9, "shape sq"]])
  })

  it("PL/SQL: constructing the type is PLS-00713 before the block runs; a supertype variable dispatches", async () => {
    const e = await failure(() => conn.execute("DECLARE v ni_shape; BEGIN :r := 1; v := ni_shape('x'); END;", { r: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }))
    expect(oraCode(e)).toBe("ORA-06550")
    expect(String((e as Error).message)).toContain("PLS-00713: attempting to instantiate a type that is NOT INSTANTIABLE")
    const r = await conn.execute("DECLARE v ni_shape := ni_square('s', 4); BEGIN :r := v.area(); END;", { r: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(r.outBinds).toEqual({ r: 16 })
  })

  it("a NOT INSTANTIABLE type must be NOT FINAL, a type with a NOT INSTANTIABLE method NOT INSTANTIABLE", async () => {
    expect(oraCode(await failure(() => conn.execute("CREATE TYPE ni_bad1 AS OBJECT (a NUMBER) NOT INSTANTIABLE")))).toBe("ORA-24344")
    expect(oraCode(await failure(() => conn.execute("CREATE TYPE ni_bad2 AS OBJECT (a NUMBER, NOT INSTANTIABLE MEMBER FUNCTION f RETURN NUMBER) NOT FINAL")))).toBe("ORA-24344")
    // a subtype leaving an inherited NOT INSTANTIABLE method unimplemented must itself be NOT INSTANTIABLE
    expect(oraCode(await failure(() => conn.execute("CREATE TYPE ni_bad3 UNDER ni_shape (r NUMBER)")))).toBe("ORA-24344")
    expect((await conn.execute("SELECT COUNT(*) FROM user_types WHERE type_name LIKE 'NI\\_BAD%' ESCAPE '\\'")).rows).toEqual([[0]])
    await conn.execute("CREATE TYPE ni_abstract UNDER ni_shape (r NUMBER) NOT INSTANTIABLE NOT FINAL")
    expect((await conn.execute("SELECT type_name, instantiable, final FROM user_types WHERE type_name IN ('NI_SHAPE', 'NI_SQUARE', 'NI_ABSTRACT') ORDER BY type_name")).rows).toEqual([
      ["NI_ABSTRACT", "NO", "NO"],
      ["NI_SHAPE", "NO", "NO"],
      ["NI_SQUARE", "YES", "YES"]
    ])
  })
})
