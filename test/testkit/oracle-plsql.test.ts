import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"


for (const version of ["23ai", "19c"] as const)
describe(`Oracle test server: PL/SQL, implicit results and LOBs (${version} layout)`, () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    const s = await withServer({ version })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE items (id NUMBER(10) PRIMARY KEY, name VARCHAR2(30), price NUMBER(8,2))")
    await conn.executeMany("INSERT INTO items VALUES (:1, :2, :3)", [[1, "apple", 0.5], [2, "pear", 0.75], [3, "plum", 1.25]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("returns OUT and IN OUT binds from anonymous blocks", async () => {
    const r = await conn.execute(
      `DECLARE
         v_total NUMBER;
       BEGIN
         SELECT SUM(price), COUNT(*) INTO v_total, :cnt FROM items WHERE id <= :maxid;
         :total := v_total * 2;
         :greeting := 'hello ' || :who;
         :counter := :counter + 1;
       END;`,
      {
        maxid: 2,
        cnt: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
        total: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
        greeting: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 },
        who: "world",
        counter: { dir: oracledb.BIND_INOUT, val: 41 }
      }
    )
    expect(r.outBinds).toEqual({ cnt: 2, total: 2.5, greeting: "hello world", counter: 42 })
  })

  it("an OUT string longer than its bind's buffer fails ORA-06502 and undoes the block; 32,767 bytes fit a 32,767-byte bind", async () => {
    // Oracle raises ORA-06502 "PL/SQL: value or conversion error: character string buffer too small" when a value
    // does not fit the bind variable (https://docs.oracle.com/en/error-help/db/ora-06502/)
    await conn.execute("CREATE TABLE plsql_outsize (id NUMBER(10))")
    const e = await failure(() =>
      conn.execute("BEGIN INSERT INTO plsql_outsize VALUES (1); :s := RPAD('x', 4001, 'x'); END;", {
        s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 4000 }
      }))
    expect(oraCode(e)).toBe("ORA-06502")
    expect((await conn.execute("SELECT COUNT(*) FROM plsql_outsize")).rows).toEqual([[0]])
    const n = await failure(() => conn.execute("BEGIN :s := N'ünï'; END;", { s: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_NVARCHAR, maxSize: 2 } }))
    expect(oraCode(n)).toBe("ORA-06502")
    const r = await conn.execute("BEGIN :s := RPAD('x', 32767, 'x'); :n := N'ünï'; END;", {
      s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 32767 },
      n: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_NVARCHAR, maxSize: 3 }
    })
    const outs = r.outBinds as { s: string; n: string }
    expect([outs.s.length, outs.n]).toEqual([32767, "ünï"])
    await conn.rollback()
  })

  it("returns INTERVAL OUT and IN OUT binds in their wire form (YEAR TO MONTH, DAY TO SECOND with nanoseconds)", async () => {
    const r = await conn.execute(
      "BEGIN :ds := INTERVAL '3 04:05:06.123456789' DAY TO SECOND(9); :ym := INTERVAL '-3-7' YEAR TO MONTH; :neg := INTERVAL '-1 00:00:00.5' DAY TO SECOND; :io := :io + INTERVAL '1' MONTH; END;",
      {
        ds: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_INTERVAL_DS },
        ym: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_INTERVAL_YM },
        neg: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_INTERVAL_DS },
        io: { dir: oracledb.BIND_INOUT, type: oracledb.DB_TYPE_INTERVAL_YM, val: new oracledb.IntervalYM({ years: 0, months: -5 }) }
      }
    )
    const plain = (v: object) => ({ ...v })
    const outs = r.outBinds as Record<string, object>
    expect(plain(outs["ds"]!)).toEqual({ days: 3, hours: 4, minutes: 5, seconds: 6, fseconds: 123456789 })
    expect(plain(outs["ym"]!)).toEqual({ years: -3, months: -7 })
    expect(plain(outs["neg"]!)).toEqual({ days: -1, hours: 0, minutes: 0, seconds: 0, fseconds: -500000000 })
    expect(plain(outs["io"]!)).toEqual({ years: 0, months: -4 })
  })

  it("runs a block sent by executeMany once per bind row (oracledb sends the first row alone, then the rest)", async () => {
    await conn.execute("CREATE TABLE plsql_many (id NUMBER(10) PRIMARY KEY, name VARCHAR2(10))")
    await conn.executeMany("BEGIN INSERT INTO plsql_many VALUES (:1, :2); END;", [[1, "a"], [2, "b"], [3, "c"], [4, "d"]])
    expect((await conn.execute("SELECT id, name FROM plsql_many ORDER BY id")).rows).toEqual([[1, "a"], [2, "b"], [3, "c"], [4, "d"]])
    // a failing iteration stops the run there: ORA-00001 for the repeated key, the row after it is not run
    const e = await failure(() => conn.executeMany("BEGIN INSERT INTO plsql_many VALUES (:1, :2); END;", [[5, "e"], [6, "f"], [1, "dup"], [7, "g"]]))
    expect(oraCode(e)).toBe("ORA-00001")
    expect((await conn.execute("SELECT id FROM plsql_many WHERE id >= 5 ORDER BY id")).rows).toEqual([[5], [6]])
    await conn.rollback()
  })

  it("returns CLOB, NCLOB and BLOB OUT binds as temporary LOBs", async () => {
    const r = await conn.execute("BEGIN :c := 'clob ü value'; :b := HEXTORAW('0102'); :n := NULL; :nc := N'ünï'; END;", {
      c: { dir: oracledb.BIND_OUT, type: oracledb.CLOB },
      b: { dir: oracledb.BIND_OUT, type: oracledb.BLOB },
      n: { dir: oracledb.BIND_OUT, type: oracledb.CLOB },
      nc: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_NCLOB }
    })
    expect(r.outBinds.c.type).toBe(oracledb.DB_TYPE_CLOB)
    expect(r.outBinds.c.length).toBe(12)
    expect(await r.outBinds.c.getData()).toBe("clob ü value")
    expect(await r.outBinds.b.getData()).toEqual(Buffer.from([1, 2]))
    expect(r.outBinds.n).toBeNull()
    expect(await r.outBinds.nc.getData()).toBe("ünï")
    for (const lob of [r.outBinds.c, r.outBinds.b, r.outBinds.nc]) await lob.close()
  })

  it("runs DML inside blocks and reports NO_DATA_FOUND for an empty SELECT INTO", async () => {
    await conn.execute("BEGIN INSERT INTO items VALUES (:id, :name, 2); UPDATE items SET price = price + 1 WHERE id = :id; END;", { id: 4, name: "fig" })
    expect((await conn.execute("SELECT price FROM items WHERE id = 4")).rows).toEqual([[3]])
    const e = await failure(() =>
      conn.execute("DECLARE x NUMBER; BEGIN SELECT price INTO x FROM items WHERE id = 999; END;")
    )
    expect(oraCode(e)).toBe("ORA-01403")
    await conn.rollback()
  })

  it("calls procedures created with CREATE PROCEDURE (IN, OUT, IN OUT parameters)", async () => {
    await conn.execute(`CREATE OR REPLACE PROCEDURE price_of (p_id IN NUMBER, p_price OUT NUMBER, p_tag IN OUT VARCHAR2) AS
      BEGIN
        SELECT price INTO p_price FROM items WHERE id = p_id;
        p_tag := p_tag || '#' || p_id;
      END;`)
    const r = await conn.execute("BEGIN price_of(:id, :price, :tag); END;", {
      id: 3,
      price: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      tag: { dir: oracledb.BIND_INOUT, val: "item", maxSize: 30 }
    })
    expect(r.outBinds).toEqual({ price: 1.25, tag: "item#3" })
    const named = await conn.execute("BEGIN price_of(p_tag => :tag, p_price => :price, p_id => 1); END;", {
      price: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      tag: { dir: oracledb.BIND_INOUT, val: "x", maxSize: 30 }
    })
    expect(named.outBinds).toEqual({ price: 0.5, tag: "x#1" })
    const objs = await conn.execute("SELECT object_name, object_type FROM user_objects WHERE object_type = 'PROCEDURE'")
    expect(objs.rows).toEqual([["PRICE_OF", "PROCEDURE"]])
  })

  it("returns implicit results from DBMS_SQL.RETURN_RESULT", async () => {
    const r = await conn.execute(`DECLARE
        c1 SYS_REFCURSOR;
        c2 SYS_REFCURSOR;
      BEGIN
        OPEN c1 FOR SELECT id, name FROM items ORDER BY id;
        DBMS_SQL.RETURN_RESULT(c1);
        OPEN c2 FOR SELECT COUNT(*) AS n FROM items;
        DBMS_SQL.RETURN_RESULT(c2);
      END;`)
    expect(r.implicitResults).toHaveLength(2)
    expect(r.implicitResults[0]).toEqual([[1, "apple"], [2, "pear"], [3, "plum"]])
    expect(r.implicitResults[1]).toEqual([[3]])
    const rs = await conn.execute(`DECLARE c SYS_REFCURSOR; BEGIN OPEN c FOR SELECT id FROM items ORDER BY id; DBMS_SQL.RETURN_RESULT(c); END;`, [], {
      resultSet: true
    })
    const cursor = rs.implicitResults[0]
    expect(await cursor.getRows(2)).toEqual([[1], [2]])
    expect(await cursor.getRows(5)).toEqual([[3]])
    await cursor.close()
  })

  it("returns every row of implicit results and REF CURSORs with CLOB and BLOB columns", async () => {
    // oracledb's first call on such a cursor is a define (its LOB columns need one) without the fetch option; it must
    // bring the first rows, else oracledb reads an empty buffer as the end of the result and returns no rows at all
    await conn.execute("CREATE TABLE docs (id NUMBER(10), body CLOB, raw BLOB)")
    await conn.execute("INSERT INTO docs VALUES (1, 'first', HEXTORAW('0102'))")
    await conn.execute("INSERT INTO docs VALUES (2, EMPTY_CLOB(), NULL)")
    await conn.execute("INSERT INTO docs VALUES (3, NULL, EMPTY_BLOB())")
    await conn.execute("INSERT INTO docs SELECT id + 3, body, raw FROM docs")
    await conn.commit()
    // fetched inline as a string / Buffer, an empty LOB reads as null, as oracledb reads a zero-length LONG value
    const expected = [
      [1, "first", Buffer.from([1, 2])],
      [2, null, null],
      [3, null, null],
      [4, "first", Buffer.from([1, 2])],
      [5, null, null],
      [6, null, null]
    ]
    const fetchInfo = { BODY: { type: oracledb.STRING }, RAW: { type: oracledb.BUFFER } }
    const r = await conn.execute(
      "DECLARE c SYS_REFCURSOR; BEGIN OPEN c FOR SELECT id, body, raw FROM docs ORDER BY id; DBMS_SQL.RETURN_RESULT(c); END;",
      [],
      { fetchInfo }
    )
    expect(r.implicitResults).toHaveLength(1)
    expect(r.implicitResults[0]).toEqual(expected)
    const out = await conn.execute(
      "BEGIN OPEN :rc FOR SELECT id, body, raw FROM docs ORDER BY id; END;",
      { rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } },
      { fetchInfo }
    )
    const rc = out.outBinds.rc
    expect(await rc.getRows(100)).toEqual(expected)
    await rc.close()
    await conn.execute("DROP TABLE docs")
  })

  it("returns a REF CURSOR as an OUT bind", async () => {
    const r = await conn.execute("BEGIN OPEN :rc FOR SELECT name FROM items WHERE price > :p ORDER BY name; END;", {
      rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR },
      p: 0.6
    })
    const rows = await r.outBinds.rc.getRows(10)
    expect(rows).toEqual([["pear"], ["plum"]])
    await r.outBinds.rc.close()
  })

  it("writes temporary LOBs and binds them", async () => {
    await conn.execute("CREATE TABLE docs (id NUMBER, body CLOB, data BLOB)")
    const clob = await conn.createLob(oracledb.CLOB)
    await clob.write("hello ")
    await clob.write("lob world")
    const blob = await conn.createLob(oracledb.BLOB)
    await blob.write(Buffer.from([1, 2, 3, 4]))
    await conn.execute("INSERT INTO docs VALUES (1, :c, :b)", { c: clob, b: blob })
    await clob.close()
    await blob.close()
    await conn.execute("INSERT INTO docs VALUES (2, :c, :b)", {
      c: { val: "x".repeat(100_000), type: oracledb.CLOB },
      b: { val: Buffer.alloc(70_000, 7), type: oracledb.BLOB }
    })
    const r = await conn.execute("SELECT body, data FROM docs ORDER BY id", [], { fetchInfo: { BODY: { type: oracledb.STRING }, DATA: { type: oracledb.BUFFER } } })
    expect(r.rows[0]).toEqual(["hello lob world", Buffer.from([1, 2, 3, 4])])
    expect(r.rows[1][0]).toBe("x".repeat(100_000))
    expect(r.rows[1][1]).toEqual(Buffer.alloc(70_000, 7))
    const lobs = await conn.execute("SELECT body FROM docs WHERE id = 2")
    const lob = lobs.rows[0][0]
    expect(lob.length).toBe(100_000)
    expect((await lob.getData()).length).toBe(100_000)
  })

  const writeLob = (lob: any, data: string | Buffer) =>
    new Promise((resolve, reject) => {
      lob.on("finish", resolve)
      lob.on("error", reject)
      lob.end(data)
    })

  it("writes through a LOB locator fetched from a locked table row, and refuses it without the row lock (ORA-22920)", async () => {
    await conn.execute("CREATE TABLE pdocs (id NUMBER, body CLOB, img BLOB)")
    await conn.execute("INSERT INTO pdocs VALUES (1, 'hello', HEXTORAW('0102'))")
    await conn.execute("INSERT INTO pdocs VALUES (2, 'other', NULL)")
    await conn.commit()
    // no transaction holds the row: Oracle refuses the write (https://docs.oracle.com/en/error-help/db/ora-22920)
    const unlocked = (await conn.execute("SELECT body FROM pdocs WHERE id = 1")).rows[0][0]
    expect(oraCode(await failure(() => writeLob(unlocked, "NOPE")))).toBe("ORA-22920")
    const row = (await conn.execute("SELECT body, img FROM pdocs WHERE id = 1 FOR UPDATE")).rows[0]
    await writeLob(row[0], "HELLO, LOB")
    await writeLob(row[1], Buffer.from([9, 8, 7, 6]))
    const read = async () => (await conn.execute("SELECT id, body, img FROM pdocs ORDER BY id", [], { fetchInfo: { BODY: { type: oracledb.STRING }, IMG: { type: oracledb.BUFFER } } })).rows
    expect(await read()).toEqual([[1, "HELLO, LOB", Buffer.from([9, 8, 7, 6])], [2, "other", null]])
    // the write belongs to the transaction: a rollback undoes it
    await conn.rollback()
    expect(await read()).toEqual([[1, "hello", Buffer.from([1, 2])], [2, "other", null]])
    // SELECT * and an aliased table name the row as well
    const star = (await conn.execute("SELECT * FROM pdocs p WHERE p.id = 2 FOR UPDATE")).rows[0]
    await writeLob(star[1], "changed")
    await conn.commit()
    expect((await read())[1]).toEqual([2, "changed", null])
  })

  it("moves CLOB and BLOB values of several MB (many packets) both ways, as locators and as strings/Buffers", async () => {
    await conn.execute("CREATE TABLE bigdocs (id NUMBER, body CLOB, img BLOB)")
    const text = Array.from({ length: 6 * 1024 * 1024 / 16 }, (_, i) => `line ${String(i).padStart(9, "0")}\n`).join("") // 6 MB
    const bytes = Buffer.alloc(5 * 1024 * 1024)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff
    await conn.execute("INSERT INTO bigdocs VALUES (:1, :2, :3)", [1, { val: text, type: oracledb.CLOB }, { val: bytes, type: oracledb.BLOB }])
    await conn.commit()
    const inline = await conn.execute("SELECT body, img FROM bigdocs", [], { fetchInfo: { BODY: { type: oracledb.STRING }, IMG: { type: oracledb.BUFFER } } })
    expect(inline.rows[0][0].length).toBe(text.length)
    expect(inline.rows[0][0] === text).toBe(true)
    expect(Buffer.compare(inline.rows[0][1], bytes)).toBe(0)
    const locators = (await conn.execute("SELECT body, img FROM bigdocs FOR UPDATE")).rows[0]
    expect(locators[0].length).toBe(text.length)
    expect((await locators[0].getData()) === text).toBe(true)
    expect(Buffer.compare(await locators[1].getData(), bytes)).toBe(0)
    // and back through the locators: the client writes in chunks
    const upper = text.toUpperCase()
    await writeLob(locators[0], upper)
    await conn.commit()
    const again = await conn.execute("SELECT body FROM bigdocs", [], { fetchInfo: { BODY: { type: oracledb.STRING } } })
    expect(again.rows[0][0] === upper).toBe(true)
  })

  it("re-executes cached LOB queries and binds long strings after the short ones", async () => {
    await conn.execute("CREATE TABLE notes (id NUMBER, body CLOB, tag NVARCHAR2(10))")
    const long = "é".repeat(40_000)
    await conn.execute("INSERT INTO notes (id, body, tag) VALUES (:1, :2, :3)", [1, long, { val: "ünï", type: oracledb.DB_TYPE_NVARCHAR }])
    await conn.execute("INSERT INTO notes (id, body, tag) VALUES (:1, :2, :3)", [2, "short", null])
    for (let k = 0; k < 3; k++) {
      const r = await conn.execute("SELECT id, body, tag FROM notes WHERE id = :1", [1], { fetchInfo: { BODY: { type: oracledb.STRING } } })
      expect(r.rows).toEqual([[1, long, "ünï"]])
      const l = await conn.execute("SELECT body FROM notes ORDER BY id")
      expect(await l.rows[1][0].getData()).toBe("short")
    }
    await conn.rollback()
  })

  it("binds a PL/SQL block by name: a name used twice takes one value (SQL statements bind by position)", async () => {
    // The thin client sends one bind per distinct name for PL/SQL and one per occurrence for SQL (node-oracledb
    // lib/thin/statement.js _addBind, as python-oracledb impl/thin/statement.pyx _add_bind); Oracle binds a PL/SQL
    // block by name (OCI Programmer's Guide, "Named Binds and Positional Binds")
    await conn.execute("CREATE TABLE plsql_rep_t (v NUMBER(10))")
    await conn.execute("CREATE TABLE plsql_rep_u (v NUMBER(10))")
    await conn.execute("BEGIN INSERT INTO plsql_rep_t VALUES (:a); INSERT INTO plsql_rep_u VALUES (:a); END;", { a: 7 })
    await conn.execute("BEGIN INSERT INTO plsql_rep_t VALUES (:1); INSERT INTO plsql_rep_u VALUES (:1 + :2); END;", [8, 100])
    expect((await conn.execute("SELECT v FROM plsql_rep_t ORDER BY v")).rows).toEqual([[7], [8]])
    expect((await conn.execute("SELECT v FROM plsql_rep_u ORDER BY v")).rows).toEqual([[7], [108]])
    const r = await conn.execute("BEGIN :o := :a || '-' || :a; END;", { a: "x", o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 } })
    expect(r.outBinds).toEqual({ o: "x-x" })
    await conn.rollback()
  })

  it("rejects PL/SQL outside the subset with an ORA- error", async () => {
    // PIPE ROW outside a pipelined function (Error Messages, PLS-00629 "PIPE statement cannot be used in non-pipelined functions")
    const e = await failure(() => conn.execute("BEGIN PIPE ROW (1); END;"))
    expect(oraCode(e)).toBe("ORA-06550")
    expect(e.message).toMatch(/PLS-00629: PIPE statement cannot be used in non-pipelined functions/)
    const e2 = await failure(() => conn.execute("BEGIN no_such_proc(1); END;"))
    expect(oraCode(e2)).toBe("ORA-06550")
  })
})
