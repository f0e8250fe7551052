import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * PL/SQL control flow on the Oracle test server, through raw node-oracledb: nested blocks and scoping, IF / CASE,
 * loops of every kind, explicit and implicit cursors with their attributes, EXECUTE IMMEDIATE with USING / INTO.
 * Semantics as the Oracle Database PL/SQL Language Reference (23ai) describes them, "PL/SQL Control Statements" and
 * "Static SQL" (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/).
 */
describe("Oracle test server: PL/SQL control flow", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fruit (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20), price NUMBER(8,2))")
    await conn.executeMany("INSERT INTO fruit VALUES (:1, :2, :3)", [[1, "apple", 0.5], [2, "pear", 0.75], [3, "plum", 1.25]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = (type = oracledb.NUMBER) => ({ dir: oracledb.BIND_OUT, type, maxSize: 200 })

  it("builds rows in numeric FOR loops (REVERSE too), WHILE and LOOP / EXIT WHEN / CONTINUE", async () => {
    await conn.execute("CREATE TABLE squares (n NUMBER(10), sq NUMBER(10), src VARCHAR2(10))")
    await conn.execute(`DECLARE
        i PLS_INTEGER := 0;
      BEGIN
        FOR k IN 1..4 LOOP
          INSERT INTO squares VALUES (k, k * k, 'for');
        END LOOP;
        FOR k IN REVERSE 1..2 LOOP
          INSERT INTO squares VALUES (k + 10, k, 'reverse');
        END LOOP;
        WHILE i < 3 LOOP
          i := i + 1;
          INSERT INTO squares VALUES (i + 20, i, 'while');
        END LOOP;
        i := 0;
        LOOP
          i := i + 1;
          EXIT WHEN i > 5;
          CONTINUE WHEN MOD(i, 2) = 0;
          INSERT INTO squares VALUES (i + 30, i, 'loop');
        END LOOP;
      END;`)
    const r = await conn.execute("SELECT n, sq, src FROM squares ORDER BY n")
    expect(r.rows).toEqual([
      [1, 1, "for"], [2, 4, "for"], [3, 9, "for"], [4, 16, "for"],
      [11, 1, "reverse"], [12, 2, "reverse"],
      [21, 1, "while"], [22, 2, "while"], [23, 3, "while"],
      [31, 1, "loop"], [33, 3, "loop"], [35, 5, "loop"]
    ])
    // REVERSE counts down: the order the rows were made in
    const order = await conn.execute(`DECLARE s VARCHAR2(50); BEGIN FOR k IN REVERSE 1..3 LOOP s := s || k; END LOOP; :s := s; END;`, { s: out(oracledb.STRING) })
    expect(order.outBinds).toEqual({ s: "321" })
    await conn.rollback()
  })

  it("IF / ELSIF / ELSE, CASE statements and CASE expressions", async () => {
    const classify = async (n: number) =>
      (await conn.execute(`DECLARE n NUMBER := :n; r VARCHAR2(20); BEGIN
          IF n < 0 THEN r := 'negative';
          ELSIF n = 0 THEN r := 'zero';
          ELSIF n < 10 THEN r := 'small';
          ELSE r := 'large';
          END IF;
          CASE
            WHEN MOD(n, 2) = 0 THEN r := r || '/even';
            ELSE r := r || '/odd';
          END CASE;
          CASE n WHEN 7 THEN r := r || '/seven'; WHEN 0 THEN NULL; ELSE r := r || '/' || (CASE WHEN n > 100 THEN 'huge' ELSE 'other' END); END CASE;
          :r := r;
        END;`, { n, r: out(oracledb.STRING) })).outBinds.r
    expect(await classify(-3)).toBe("negative/odd/other")
    expect(await classify(0)).toBe("zero/even")
    expect(await classify(7)).toBe("small/odd/seven")
    expect(await classify(500)).toBe("large/even/huge")
    // a CASE statement without ELSE that matches nothing raises CASE_NOT_FOUND (ORA-06592)
    const e = await failure(() => conn.execute("DECLARE n NUMBER := 5; BEGIN CASE n WHEN 1 THEN NULL; END CASE; END;"))
    expect(e.message).toMatch(/^ORA-06592: CASE not found while executing CASE statement/)
  })

  it("cursor FOR loops over a query and over an explicit cursor with a parameter; %ROWTYPE records", async () => {
    const r = await conn.execute(`DECLARE
        CURSOR dear (p_min NUMBER) IS SELECT id, name FROM fruit WHERE price >= p_min ORDER BY id;
        total NUMBER := 0;
        names VARCHAR2(100);
        f fruit%ROWTYPE;
      BEGIN
        FOR rec IN (SELECT id, price FROM fruit ORDER BY id) LOOP
          total := total + rec.price * rec.id;
        END LOOP;
        FOR d IN dear(0.7) LOOP
          names := names || d.name || ';';
        END LOOP;
        SELECT * INTO f FROM fruit WHERE id = 2;
        :total := total; :names := names; :fname := f.name; :fprice := f.price;
      END;`, { total: out(), names: out(oracledb.STRING), fname: out(oracledb.STRING), fprice: out() })
    expect(r.outBinds).toEqual({ total: 0.5 + 1.5 + 3.75, names: "pear;plum;", fname: "pear", fprice: 0.75 })
  })

  it("OPEN / FETCH / CLOSE with %FOUND, %NOTFOUND, %ROWCOUNT, %ISOPEN; SQL%ROWCOUNT after DML", async () => {
    const r = await conn.execute(`DECLARE
        CURSOR c IS SELECT name FROM fruit ORDER BY id;
        v fruit.name%TYPE;
        seen VARCHAR2(100);
        opened_before BOOLEAN;
      BEGIN
        opened_before := c%ISOPEN;
        OPEN c;
        LOOP
          FETCH c INTO v;
          EXIT WHEN c%NOTFOUND;
          seen := seen || c%ROWCOUNT || v;
        END LOOP;
        :count := c%ROWCOUNT;
        :open := CASE WHEN c%ISOPEN AND NOT opened_before THEN 'yes' ELSE 'no' END;
        CLOSE c;
        :closed := CASE WHEN c%ISOPEN THEN 'open' ELSE 'closed' END;
        UPDATE fruit SET price = price + 1 WHERE id >= 2;
        :updated := SQL%ROWCOUNT;
        DELETE FROM fruit WHERE id = 99;
        :deleted := SQL%ROWCOUNT;
        :found := CASE WHEN SQL%FOUND THEN 'found' ELSE 'none' END;
        ROLLBACK;
      END;`, { count: out(), open: out(oracledb.STRING), closed: out(oracledb.STRING), updated: out(), deleted: out(), found: out(oracledb.STRING) })
    expect(r.outBinds).toEqual({ count: 3, open: "yes", closed: "closed", updated: 2, deleted: 0, found: "none" })
    // fetching from a cursor that is not open: INVALID_CURSOR (ORA-01001)
    const e = await failure(() => conn.execute("DECLARE CURSOR c IS SELECT 1 FROM dual; x NUMBER; BEGIN FETCH c INTO x; END;"))
    expect(e.message).toMatch(/^ORA-01001: invalid cursor/)
  })

  it("nested blocks with their own DECLARE sections; inner declarations shadow outer ones and end with their block", async () => {
    const r = await conn.execute(`DECLARE
        x NUMBER := 1;
        y NUMBER := 10;
      BEGIN
        <<middle>>
        DECLARE
          x NUMBER := 5;
        BEGIN
          DECLARE
            x NUMBER := 2;
          BEGIN
            x := x + 100;
            y := y + x;
            :inner := x;
            :middle_seen := middle.x;
          END;
          :middle := x;
        END middle;
        :outer := x;
        :y := y;
      END;`, { inner: out(), middle_seen: out(), middle: out(), outer: out(), y: out() })
    expect(r.outBinds).toEqual({ inner: 102, middle_seen: 5, middle: 5, outer: 1, y: 112 })
    const c = await conn.execute("DECLARE k CONSTANT NUMBER := 42; s VARCHAR2(10) DEFAULT 'd'; BEGIN :k := k; :s := s; END;", { k: out(), s: out(oracledb.STRING) })
    expect(c.outBinds).toEqual({ k: 42, s: "d" })
    // declared types shape what a variable holds: NUMBER(p,s) rounds to s decimals, INTEGER to a whole number,
    // VARCHAR2(n CHAR) counts characters; %TYPE of a NUMBER(8,2) column rounds as the column does
    const typed = await conn.execute(
      "DECLARE a NUMBER(5,2) := 1.239; i INTEGER := 2.5; s VARCHAR2(3 CHAR) := 'ünï'; p fruit.price%TYPE := 0.125; BEGIN :a := a; :i := i; :s := s; :p := p; END;",
      { a: out(), i: out(), s: out(oracledb.STRING), p: out() }
    )
    expect(typed.outBinds).toEqual({ a: 1.24, i: 3, s: "ünï", p: 0.13 })
    const big = await failure(() => conn.execute("DECLARE a NUMBER(3,1); BEGIN a := 123.4; END;"))
    expect(big.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error: number precision too large/)
  })

  it("SAVEPOINT and ROLLBACK TO inside a block undo only the work after the savepoint", async () => {
    await conn.execute("CREATE TABLE sp_t (v NUMBER(10))")
    await conn.execute(`BEGIN
        INSERT INTO sp_t VALUES (1);
        SAVEPOINT before_two;
        INSERT INTO sp_t VALUES (2);
        ROLLBACK TO before_two;
        INSERT INTO sp_t VALUES (3);
      END;`)
    expect((await conn.execute("SELECT v FROM sp_t ORDER BY v")).rows).toEqual([[1], [3]])
    await conn.rollback()
  })

  it("a block that loops forever is stopped by a break (ORA-01013); other sessions are answered meanwhile", async () => {
    const other = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
    try {
      const sid = (await conn.execute("SELECT SYS_CONTEXT('USERENV', 'SID') FROM dual")).rows[0][0]
      const running = conn.execute("DECLARE done BOOLEAN := FALSE; BEGIN LOOP EXIT WHEN done; END LOOP; END;")
      // synchronised on the server's state: the other session sees this one ACTIVE while the block runs
      while ((await other.execute("SELECT status FROM v$session WHERE sid = :1", [Number(sid)])).rows[0]?.[0] !== "ACTIVE") {
        // polls until the call is under way
      }
      await conn.break()
      const e = await failure(() => running)
      expect(e.message).toMatch(/^ORA-01013: user requested cancel of current operation/)
      expect((await conn.execute("SELECT 1 FROM dual")).rows).toEqual([[1]])
    } finally {
      await other.close()
    }
  })

  it("DML with RETURNING ... INTO variables; a declaration that is no type fails PLS-00103", async () => {
    const r = await conn.execute(`DECLARE
        new_id NUMBER;
        new_price NUMBER;
        nm VARCHAR2(20);
      BEGIN
        INSERT INTO fruit (id, name, price) VALUES (10, 'kiwi', 2) RETURNING id, name INTO new_id, nm;
        UPDATE fruit SET price = price * 2 WHERE id = new_id RETURNING price INTO new_price;
        :id := new_id; :nm := nm; :price := new_price; :n := SQL%ROWCOUNT;
      END;`, { id: out(), nm: out(oracledb.STRING), price: out(), n: out() })
    expect(r.outBinds).toEqual({ id: 10, nm: "kiwi", price: 4, n: 1 })
    expect((await conn.execute("SELECT price FROM fruit WHERE id = 10")).rows).toEqual([[4]])
    await conn.rollback()
    const e = await failure(() => conn.execute("DECLARE c CURSOR IS SELECT 1 FROM dual; BEGIN NULL; END;"))
    expect(e.message).toMatch(/^ORA-06550: line 1, column 11:\nPLS-00103: Encountered the symbol "CURSOR"/)
  })

  it("DBMS_OUTPUT: lines written after ENABLE are read back with GET_LINE as oracledb's example reads them", async () => {
    const line = { ln: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 32767 }, st: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    // not enabled yet: nothing is kept
    await conn.execute("BEGIN DBMS_OUTPUT.PUT_LINE('lost'); END;")
    await conn.execute("BEGIN DBMS_OUTPUT.ENABLE(NULL); END;")
    await conn.execute(`BEGIN
        FOR i IN 1..2 LOOP DBMS_OUTPUT.PUT_LINE('line ' || i); END LOOP;
        DBMS_OUTPUT.PUT('a'); DBMS_OUTPUT.PUT('b'); DBMS_OUTPUT.NEW_LINE;
      END;`)
    const read: Array<unknown> = []
    for (;;) {
      const r = await conn.execute("BEGIN DBMS_OUTPUT.GET_LINE(:ln, :st); END;", line)
      if (r.outBinds.st !== 0) break
      read.push(r.outBinds.ln)
    }
    expect(read).toEqual(["line 1", "line 2", "ab"])
    await conn.execute("BEGIN DBMS_OUTPUT.DISABLE; END;")
  })

  it("keeps Oracle's arithmetic and three-valued logic in conditions: decimals exact, NULL neither true nor false, MOD's sign", async () => {
    const r = await conn.execute(`DECLARE
        n NUMBER;
        s VARCHAR2(100);
        big NUMBER := 9007199254740993;
      BEGIN
        IF 0.1 + 0.2 = 0.3 THEN s := s || 'exact;'; END IF;
        IF n = 1 THEN s := s || 'null=1;'; END IF;
        IF NOT (n = 1) THEN s := s || 'not(null=1);'; END IF;
        IF n IS NULL AND 2 * 3 - 1 = 5 THEN s := s || 'isnull;'; END IF;
        s := s || MOD(-7, 3) || ';' || MOD(7, 0) || ';' || (big + 1 - big) || ';';
        FOR i IN 1..3000 LOOP
          IF MOD(i, 1000) = 0 OR i = 1 THEN s := s || i || ','; END IF;
        END LOOP;
        :s := s;
      END;`, { s: out(oracledb.STRING) })
    expect(r.outBinds).toEqual({ s: "exact;isnull;-1;7;1;1,1000,2000,3000," })
  })

  it("EXECUTE IMMEDIATE of any expression, with USING IN / OUT / IN OUT and INTO", async () => {
    const r = await conn.execute(`DECLARE
        tab VARCHAR2(30) := 'FRUIT';
        n NUMBER;
        nm VARCHAR2(20);
        a NUMBER := 5;
        b NUMBER;
        c NUMBER := 1;
      BEGIN
        EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM ' || tab INTO n;
        EXECUTE IMMEDIATE 'SELECT name FROM fruit WHERE id = :id' INTO nm USING 3;
        EXECUTE IMMEDIATE 'CREATE TABLE dyn_t (v NUMBER(10))';
        EXECUTE IMMEDIATE 'INSERT INTO dyn_t VALUES (:1)' USING a + 1;
        :ins := SQL%ROWCOUNT;
        EXECUTE IMMEDIATE 'BEGIN :o := :i * 2; :io := :io + 1; END;' USING OUT b, IN a, IN OUT c;
        :n := n; :nm := nm; :b := b; :c := c;
      END;`, { n: out(), nm: out(oracledb.STRING), b: out(), c: out(), ins: out() })
    expect(r.outBinds).toEqual({ n: 3, nm: "plum", b: 10, c: 2, ins: 1 })
    expect((await conn.execute("SELECT v FROM dyn_t")).rows).toEqual([[6]])
    await conn.execute("DROP TABLE dyn_t")
  })
})
