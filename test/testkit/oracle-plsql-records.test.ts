import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Record types, REF CURSOR types and constrained subtypes on the Oracle test server, through raw node-oracledb.
 * Semantics as the Oracle Database PL/SQL Language Reference (23ai) states them: "PL/SQL Collections and Records"
 * (`TYPE r IS RECORD (f type [NOT NULL] := x, ...)`, record assignment copies, `INSERT INTO t VALUES rec`,
 * `UPDATE t SET ROW = rec`), "Static SQL", "Cursor Variables" (`TYPE c IS REF CURSOR [RETURN ...]`) and "PL/SQL Data
 * Types", "Constrained Subtypes" (a RANGE violation is ORA-06502; a NOT NULL variable needs an initial value,
 * PLS-00218, and NULL assigned to it is PLS-00382)
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/).
 */
describe("Oracle test server: PL/SQL records, REF CURSOR types, constrained subtypes", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE part (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20), price NUMBER(8,2))")
    await conn.executeMany("INSERT INTO part VALUES (:1, :2, :3)", [[1, "bolt", 0.5], [2, "nut", 0.25], [3, "gear", 4]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = (type = oracledb.STRING) => ({ dir: oracledb.BIND_OUT, type, maxSize: 400 })

  it("declares record types with defaults, assigns fields and copies records", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE part_r IS RECORD (id NUMBER NOT NULL := 0, name VARCHAR2(10) DEFAULT 'none', price NUMBER(8,2));
        a part_r;
        b part_r;
      BEGIN
        :s := a.id || '/' || a.name || '/' || NVL(TO_CHAR(a.price), 'null');
        a.id := 7;
        a.price := 1.234;
        b := a;
        b.name := 'copy';
        :t := a.id || '/' || a.name || '/' || a.price || '|' || b.id || '/' || b.name;
      END;`,
      { s: out(), t: out() }
    )
    expect(r.outBinds).toEqual({ s: "0/none/null", t: "7/none/1.23|7/copy" })
  })

  it("fills records from SELECT INTO and FETCH by position, and bulk collects into a collection of records", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE item_r IS RECORD (item_id NUMBER, label VARCHAR2(20));
        TYPE items_t IS TABLE OF item_r INDEX BY PLS_INTEGER;
        one item_r;
        many items_t;
        s VARCHAR2(400);
      BEGIN
        SELECT id, name INTO one FROM part WHERE id = 2;
        s := one.item_id || one.label;
        SELECT id, name BULK COLLECT INTO many FROM part ORDER BY id;
        FOR i IN 1..many.COUNT LOOP
          s := s || ',' || many(i).item_id || many(i).label;
        END LOOP;
        many(10).label := 'ten';
        many(10).item_id := 10;
        one := many(10);
        :s := s || ',' || one.item_id || one.label || ',' || many.COUNT;
      END;`,
      { s: out() }
    )
    expect(r.outBinds.s).toBe("2nut,1bolt,2nut,3gear,10ten,4")
  })

  it("passes records to local subprograms, inserts them with VALUES rec and updates with SET ROW", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE part_r IS RECORD (id NUMBER, name VARCHAR2(20), price NUMBER(8,2));
        p part_r;
        PROCEDURE raise_price(x IN OUT part_r, pct NUMBER) IS
        BEGIN
          x.price := x.price * (1 + pct / 100);
        END;
        FUNCTION label(x part_r) RETURN VARCHAR2 IS
        BEGIN
          RETURN x.name || '@' || x.price;
        END;
      BEGIN
        p.id := 10;
        p.name := 'spring';
        p.price := 2;
        INSERT INTO part VALUES p;
        raise_price(p, 50);
        p.name := 'coil';
        UPDATE part SET ROW = p WHERE id = 10;
        :n := SQL%ROWCOUNT;
        :s := label(p);
      END;`,
      { n: out(oracledb.NUMBER), s: out() }
    )
    expect(r.outBinds).toEqual({ n: 1, s: "coil@3" })
    const rows = await conn.execute("SELECT id, name, price FROM part WHERE id = 10")
    expect(rows.rows).toEqual([[10, "coil", 3]])
    await conn.rollback()
  })

  it("checks record fields' sizes and NOT NULL", async () => {
    const long = await failure(() => conn.execute(`DECLARE TYPE r IS RECORD (code VARCHAR2(3)); v r; BEGIN v.code := 'abcd'; END;`))
    expect(long.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error: character string buffer too small/)
    const noInit = await failure(() => conn.execute(`DECLARE TYPE r IS RECORD (id NUMBER NOT NULL); v r; BEGIN NULL; END;`))
    expect(noInit.message).toMatch(/PLS-00218: a variable declared NOT NULL must have an initialization assignment/)
  })

  it("declares REF CURSOR types, weak and strong, and returns them to the client", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE any_cur IS REF CURSOR;
        TYPE part_cur IS REF CURSOR RETURN part%ROWTYPE;
        c1 any_cur;
        c2 part_cur;
        row part%ROWTYPE;
      BEGIN
        OPEN c2 FOR SELECT * FROM part WHERE id = 3;
        FETCH c2 INTO row;
        CLOSE c2;
        :s := row.name;
        OPEN c1 FOR SELECT id, name FROM part ORDER BY id;
        :rc := c1;
      END;`,
      { s: out(), rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } }
    )
    expect(r.outBinds.s).toBe("gear")
    const rows = await r.outBinds.rc.getRows()
    await r.outBinds.rc.close()
    expect(rows).toEqual([[1, "bolt"], [2, "nut"], [3, "gear"]])
  })

  it("names a package's record, REF CURSOR and subtypes from outside", async () => {
    await conn.execute(`CREATE OR REPLACE PACKAGE parts AS
      TYPE part_r IS RECORD (id NUMBER, name VARCHAR2(20));
      TYPE part_cur IS REF CURSOR;
      SUBTYPE small IS NUMBER(3);
      FUNCTION first_part RETURN part_r;
      PROCEDURE all_parts(c OUT part_cur);
    END parts;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY parts AS
      FUNCTION first_part RETURN part_r IS
        r part_r;
      BEGIN
        SELECT id, name INTO r FROM part WHERE id = 1;
        RETURN r;
      END;
      PROCEDURE all_parts(c OUT part_cur) IS
      BEGIN
        OPEN c FOR SELECT name FROM part ORDER BY id DESC;
      END;
    END parts;`)
    const r = await conn.execute(
      `DECLARE
        p parts.part_r;
        n parts.small;
        c parts.part_cur;
      BEGIN
        p := parts.first_part;
        n := 12.4;
        :s := p.id || p.name || n;
        parts.all_parts(:rc);
      END;`,
      { s: out(), rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } }
    )
    expect(r.outBinds.s).toBe("1bolt12")
    const rows = await r.outBinds.rc.getRows()
    await r.outBinds.rc.close()
    expect(rows).toEqual([["gear"], ["nut"], ["bolt"]])
    const big = await failure(() => conn.execute(`DECLARE n parts.small; BEGIN n := 1000; END;`))
    expect(big.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error: number precision too large/)
  })

  it("enforces a subtype's RANGE and NOT NULL constraints", async () => {
    const ok = await conn.execute(`DECLARE SUBTYPE digit IS PLS_INTEGER RANGE 0..9; d digit := 9; BEGIN :s := d; END;`, { s: out() })
    expect(ok.outBinds.s).toBe("9")
    const range = await failure(() => conn.execute(`DECLARE SUBTYPE digit IS PLS_INTEGER RANGE 0..9; d digit := 3; BEGIN d := d + 7; END;`))
    expect(range.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error\n/)
    const below = await failure(() => conn.execute(`DECLARE SUBTYPE temp IS NUMBER RANGE -10..40; t temp; BEGIN t := -11; END;`))
    expect(below.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error\n/)
    const noInit = await failure(() => conn.execute(`DECLARE SUBTYPE id_t IS NUMBER NOT NULL; i id_t; BEGIN NULL; END;`))
    expect(noInit.message).toMatch(/PLS-00218: a variable declared NOT NULL must have an initialization assignment/)
    const literal = await failure(() => conn.execute(`DECLARE SUBTYPE id_t IS NUMBER NOT NULL; i id_t := 1; BEGIN i := NULL; END;`))
    expect(literal.message).toMatch(/PLS-00382: expression is of wrong type/)
    const atRun = await failure(() => conn.execute(`DECLARE SUBTYPE id_t IS NUMBER NOT NULL; i id_t := 1; j NUMBER; BEGIN i := j; END;`))
    expect(atRun.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error\n/)
    const plain = await failure(() => conn.execute(`DECLARE i NUMBER NOT NULL := 1; j NUMBER; BEGIN i := j; END;`))
    expect(plain.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error\n/)
  })
})
