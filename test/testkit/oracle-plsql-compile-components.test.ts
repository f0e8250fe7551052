/**
 * Names Oracle's PL/SQL compiler resolves before a block runs, beyond plain names: a qualified name whose component
 * its record or package lacks (`rec.nofield`, `pkg.nomember`: PLS-00302 "component 'X' must be declared"), a name
 * inside the operand of CAST, EXTRACT, TRIM or JSON_VALUE, and a call of a function Oracle does not have
 * (`strlen('x')`: PLS-00201, as SQL reports ORA-00904 for it). The block fails before any of its statements ran, as
 * Oracle compiles a block before running it (PL/SQL Language Reference, "PL/SQL Name Resolution"); before, these
 * were found only when their statement ran, after the earlier statements' effects (a DBMS_OUTPUT line here).
 * Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: compile-time components, function names and operands in PL/SQL", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE OR REPLACE PACKAGE ccp AS TYPE r_t IS RECORD (id NUMBER, name VARCHAR2(10)); limit_v NUMBER := 5; END;")
    await conn.execute("CREATE TABLE ccp_t (id NUMBER, label VARCHAR2(10))")
    await conn.execute("BEGIN DBMS_OUTPUT.ENABLE; END;")
  })
  afterAll(() => closeConnection(opened))

  /** The block's error, and the DBMS_OUTPUT lines it left (none when it failed before running). */
  const compileFailure = async (block: string): Promise<[string, unknown]> => {
    let message = "ran"
    try {
      await conn.execute(block)
    } catch (e) {
      message = (e as Error).message.split("\nHelp:")[0]!
    }
    const out = await conn.execute("DECLARE l VARCHAR2(100); s NUMBER; BEGIN DBMS_OUTPUT.GET_LINE(l, s); :o := NVL(l, '-'); END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })
    return [message, out.outBinds.o]
  }

  it("a package member or a record field that does not exist is PLS-00302 before the block runs", async () => {
    expect(await compileFailure("DECLARE x NUMBER; BEGIN DBMS_OUTPUT.PUT_LINE('ran'); x := ccp.missing; END;")).toEqual([
      "ORA-06550: line 1, column 63:\nPLS-00302: component 'MISSING' must be declared\nORA-06550: line 1, column 54:\nPL/SQL: Statement ignored",
      "-"
    ])
    expect((await compileFailure("DECLARE r ccp.r_t; BEGIN DBMS_OUTPUT.PUT_LINE('ran'); r.nofield := 1; END;"))[0]).toMatch(/PLS-00302: component 'NOFIELD' must be declared/)
    expect((await compileFailure("DECLARE TYPE l_t IS RECORD (a NUMBER); r l_t; x NUMBER; BEGIN DBMS_OUTPUT.PUT_LINE('ran'); IF x > 0 THEN x := r.b; END IF; END;"))[1]).toBe("-")
    expect((await compileFailure("DECLARE r ccp_t%ROWTYPE; x VARCHAR2(10); BEGIN DBMS_OUTPUT.PUT_LINE('ran'); x := r.nolabel; END;"))[0]).toMatch(/PLS-00302: component 'NOLABEL' must be declared/)
    // the fields and members that exist run
    expect(await compileFailure("DECLARE r ccp.r_t; t ccp_t%ROWTYPE; BEGIN r.id := ccp.limit_v; t.label := 'l'; DBMS_OUTPUT.PUT_LINE(r.id || t.label); END;")).toEqual(["ran", "5l"])
  })

  it("a name in the operand of CAST, EXTRACT, TRIM or JSON_VALUE that no scope declares is PLS-00201 before the block runs", async () => {
    for (const expr of ["CAST(nosuch AS NUMBER)", "EXTRACT(YEAR FROM nosuch)", "TRIM(LEADING 'x' FROM nosuch)", "JSON_VALUE(nosuch, '$.a')"]) {
      expect(await compileFailure(`DECLARE x VARCHAR2(10); BEGIN DBMS_OUTPUT.PUT_LINE('ran'); x := ${expr}; END;`)).toEqual([
        expect.stringMatching(/^ORA-06550: line 1, column \d+:\nPLS-00201: identifier 'NOSUCH' must be declared/),
        "-"
      ])
    }
    expect(await compileFailure("DECLARE d DATE := DATE '2024-05-06'; v VARCHAR2(20) := '{\"a\":\"j\"}'; BEGIN DBMS_OUTPUT.PUT_LINE(CAST(EXTRACT(MONTH FROM d) AS VARCHAR2(2)) || TRIM(BOTH ' ' FROM ' t ') || JSON_VALUE(v, '$.a')); END;")).toEqual(["ran", "5tj"])
  })

  it("a call of a function Oracle does not have is PLS-00201, in a block and in a stored unit", async () => {
    expect(await compileFailure("DECLARE n NUMBER; BEGIN DBMS_OUTPUT.PUT_LINE('ran'); n := strlen('x'); END;")).toEqual([
      "ORA-06550: line 1, column 59:\nPLS-00201: identifier 'STRLEN' must be declared\nORA-06550: line 1, column 54:\nPL/SQL: Statement ignored",
      "-"
    ])
    const created = await conn.execute("CREATE OR REPLACE FUNCTION ccp_len(s VARCHAR2) RETURN NUMBER IS BEGIN RETURN strlen(s); END;")
    expect(created.warning?.message).toMatch(/^NJS-700/)
    expect((await conn.execute("SELECT text FROM user_errors WHERE name = 'CCP_LEN' ORDER BY sequence")).rows).toEqual([["PLS-00201: identifier 'STRLEN' must be declared"], ["PL/SQL: Statement ignored"]])
    // Oracle's own functions and the schema's are declared
    await conn.execute("CREATE OR REPLACE FUNCTION ccp_len2(s VARCHAR2) RETURN NUMBER IS BEGIN RETURN LENGTH(s); END;")
    expect(await compileFailure("BEGIN DBMS_OUTPUT.PUT_LINE(ccp_len2('abc') + LENGTH('ab')); END;")).toEqual(["ran", "5"])
  })
})
