/**
 * Oracle test server: constraining substitutability of an object column (raw node-oracledb). SQL Language Reference,
 * CREATE TABLE, "substitutable_column_clause" (`COLUMN c [NOT] SUBSTITUTABLE AT ALL LEVELS`, `COLUMN c IS OF [TYPE]
 * (ONLY t)`); Object-Relational Developer's Guide, "Turning Off Substitutability in a New Table" and "Constraining
 * Substitutability": such a column holds instances of its declared type (or of the one type named) only, and writing
 * an instance of another type into it is ORA-00932.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: NOT SUBSTITUTABLE and IS OF TYPE (ONLY ...) object columns (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TYPE sc_base AS OBJECT (num NUMBER) NOT FINAL",
      "CREATE TYPE sc_deriv UNDER sc_base (str VARCHAR2(10)) NOT FINAL",
      "CREATE TYPE sc_deeper UNDER sc_deriv (flag NUMBER)",
      "CREATE TABLE sc_any (id NUMBER, bt sc_base) COLUMN bt SUBSTITUTABLE AT ALL LEVELS",
      "CREATE TABLE sc_none (id NUMBER, bt sc_base) COLUMN bt NOT SUBSTITUTABLE AT ALL LEVELS",
      "CREATE TABLE sc_only (id NUMBER, bt sc_base, other sc_base) COLUMN bt IS OF TYPE (ONLY sc_deriv)",
      "CREATE TYPE sc_holder AS OBJECT (label VARCHAR2(10), inner sc_base) NOT FINAL",
      "CREATE TABLE sc_nested (id NUMBER, h sc_holder) COLUMN h NOT SUBSTITUTABLE AT ALL LEVELS",
      "CREATE TABLE sc_nested_any (id NUMBER, h sc_holder)"
    ])
      await conn.execute(sql)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a SUBSTITUTABLE column (the default) takes subtype instances", async () => {
    await conn.execute("INSERT INTO sc_any VALUES (1, sc_deriv(1, 'x'))")
    expect((await conn.execute("SELECT TREAT(t.bt AS sc_deriv).str FROM sc_any t")).rows).toEqual([["x"]])
    await conn.rollback()
  })

  it("NOT SUBSTITUTABLE AT ALL LEVELS: the declared type only; a subtype instance is ORA-00932", async () => {
    await conn.execute("INSERT INTO sc_none VALUES (1, sc_base(1))")
    const e = await failure(() => conn.execute("INSERT INTO sc_none VALUES (2, sc_deriv(2, 'x'))"))
    expect(oraCode(e)).toBe("ORA-00932")
    expect(e.message).toContain("expected")
    expect(oraCode(await failure(() => conn.execute("UPDATE sc_none SET bt = sc_deeper(3, 'y', 1)")))).toBe("ORA-00932")
    expect((await conn.execute("SELECT t.bt.num FROM sc_none t")).rows).toEqual([[1]])
    await conn.rollback()
  })

  it("a DbObject bind of a subtype is refused as a constructor call is; one of the column's own type is taken", async () => {
    const Base = await conn.getDbObjectClass("SC_BASE")
    const Deriv = await conn.getDbObjectClass("SC_DERIV")
    await conn.execute("INSERT INTO sc_none VALUES (1, :b)", { b: new Base({ NUM: 1 }) })
    expect(oraCode(await failure(() => conn.execute("INSERT INTO sc_none VALUES (2, :b)", { b: new Deriv({ NUM: 2, STR: "x" }) })))).toBe("ORA-00932")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO sc_only (id, bt) VALUES (3, :b)", { b: new Base({ NUM: 3 }) })))).toBe("ORA-00932")
    await conn.execute("INSERT INTO sc_only (id, bt) VALUES (4, :b)", { b: new Deriv({ NUM: 4, STR: "y" }) })
    expect((await conn.execute("SELECT (SELECT COUNT(*) FROM sc_none) + (SELECT COUNT(*) FROM sc_only) FROM dual")).rows).toEqual([[2]])
    await conn.rollback()
  })

  it("AT ALL LEVELS: an object attribute of the written object holds its declared type only too", async () => {
    await conn.execute("INSERT INTO sc_nested VALUES (1, sc_holder('a', sc_base(1)))")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO sc_nested VALUES (2, sc_holder('b', sc_deriv(2, 'x')))")))).toBe("ORA-00932")
    await conn.execute("INSERT INTO sc_nested_any VALUES (2, sc_holder('b', sc_deriv(2, 'x')))")
    expect((await conn.execute("SELECT COUNT(*) FROM sc_nested")).rows).toEqual([[1]])
    await conn.rollback()
  })

  it("IS OF TYPE (ONLY t): instances of t only, neither its supertype nor its subtypes; other columns unconstrained", async () => {
    await conn.execute("INSERT INTO sc_only VALUES (1, sc_deriv(1, 'x'), sc_deeper(1, 'z', 0))")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO sc_only VALUES (2, sc_base(2), NULL)")))).toBe("ORA-00932")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO sc_only (id, bt) VALUES (3, sc_deeper(3, 'y', 1))")))).toBe("ORA-00932")
    expect((await conn.execute("SELECT t.id, TREAT(t.bt AS sc_deriv).str FROM sc_only t")).rows).toEqual([[1, "x"]])
    await conn.rollback()
  })

  it("IS OF TYPE names a subtype of the column's type (else ORA-00932 at CREATE TABLE)", async () => {
    await conn.execute("CREATE TYPE sc_other AS OBJECT (n NUMBER) NOT FINAL")
    expect(oraCode(await failure(() => conn.execute("CREATE TABLE sc_bad (bt sc_base) COLUMN bt IS OF TYPE (ONLY sc_other)")))).toBe("ORA-00932")
    expect((await conn.execute("SELECT COUNT(*) FROM user_tables WHERE table_name = 'SC_BAD'")).rows).toEqual([[0]])
  })
})
