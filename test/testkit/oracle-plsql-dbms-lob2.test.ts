/**
 * DBMS_LOB beyond WRITE / WRITEAPPEND / TRIM / ERASE (Oracle Database PL/SQL Packages and Types Reference, DBMS_LOB,
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/arpls/DBMS_LOB.html): temporary LOBs
 * (CREATETEMPORARY, FREETEMPORARY, ISTEMPORARY), READ, APPEND, COPY, OPEN / CLOSE / ISOPEN, COMPARE, GETCHUNKSIZE,
 * CONVERTTOCLOB / CONVERTTOBLOB, and the everyday idioms end to end: a CLOB built in a loop and returned as an OUT
 * bind, a temporary appended to a row selected FOR UPDATE, a BLOB read in chunks. Raw node-oracledb against the
 * Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oracledb, oraCode } from "./oracle/helpers.ts"
import { lobBytes, lobText } from "./oracle/lob-data.ts"

let env: TwoSessions

const asData = { fetchInfo: { DOC: { type: oracledb.STRING }, IMG: { type: oracledb.BUFFER } } }
const textOut = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 4000 }

describe("Oracle test server: DBMS_LOB temporary LOBs, READ, APPEND, COPY, OPEN / CLOSE, COMPARE and conversions", () => {
  beforeAll(async () => {
    env = await openTwoSessions([
      "CREATE TABLE dl_doc (id NUMBER PRIMARY KEY, doc CLOB)",
      "CREATE TABLE dl_img (id NUMBER PRIMARY KEY, img BLOB)",
      "INSERT INTO dl_doc VALUES (1, 'head:')",
      "INSERT INTO dl_doc VALUES (2, 'two')",
      "INSERT INTO dl_img VALUES (1, EMPTY_BLOB())"
    ])
  })
  afterAll(() => env?.env.close())

  it("a CLOB built with CREATETEMPORARY and WRITEAPPEND in a loop comes back as an OUT CLOB bind (a Lob, and as a string)", async () => {
    const block = `DECLARE c CLOB; BEGIN
        DBMS_LOB.CREATETEMPORARY(c, TRUE, DBMS_LOB.CALL);
        FOR i IN 1 .. 400 LOOP DBMS_LOB.WRITEAPPEND(c, 6, LPAD(i, 5, '0') || ','); END LOOP;
        :t := DBMS_LOB.ISTEMPORARY(c); :c := c; END;`
    const expected = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(5, "0")},`).join("")
    const r = await env.a.execute(block, { t: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, c: { dir: oracledb.BIND_OUT, type: oracledb.CLOB } })
    expect(r.outBinds.t).toBe(1)
    expect(await r.outBinds.c.getData()).toBe(expected)
    r.outBinds.c.destroy()
    const s = await env.a.execute(block, { t: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, c: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20000 } })
    expect(s.outBinds.c).toBe(expected)
  })

  it("the OUT bind itself as the temporary LOB, and FREETEMPORARY leaves an invalid locator (ORA-06502 / ORA-22275 on use), a NULL LOB's functions are NULL", async () => {
    const r = await env.a.execute("BEGIN DBMS_LOB.CREATETEMPORARY(:c, FALSE); DBMS_LOB.WRITEAPPEND(:c, 3, 'abc'); DBMS_LOB.APPEND(:c, TO_CLOB('def')); END;", {
      c: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }
    })
    expect(r.outBinds.c).toBe("abcdef")
    const e = await failure(() => env.a.execute("DECLARE c CLOB; BEGIN DBMS_LOB.CREATETEMPORARY(c, TRUE); DBMS_LOB.FREETEMPORARY(c); DBMS_LOB.WRITEAPPEND(c, 1, 'x'); END;"))
    expect(oraCode(e)).toBe("ORA-06502")
    expect(e.message).toContain("ORA-22275")
    const never = await failure(() => env.a.execute("DECLARE c CLOB; BEGIN DBMS_LOB.WRITEAPPEND(c, 1, 'x'); END;"))
    expect(never.message).toContain("ORA-22275")
    // a NULL LOB's GETLENGTH, SUBSTR, INSTR and ISTEMPORARY are NULL
    const n = await env.a.execute(
      "DECLARE c CLOB; b BLOB; BEGIN :x := NVL(TO_CHAR(DBMS_LOB.GETLENGTH(c)), 'n') || NVL(DBMS_LOB.SUBSTR(c, 1, 1), 'n') || NVL(TO_CHAR(DBMS_LOB.INSTR(b, HEXTORAW('01'))), 'n') || NVL(TO_CHAR(DBMS_LOB.ISTEMPORARY(c)), 'n'); END;",
      { x: textOut }
    )
    expect(n.outBinds.x).toBe("nnnn")
  })

  it("APPEND of a 300 KB temporary into a row's locator selected FOR UPDATE, read back; a row not locked refuses it (ORA-22920)", async () => {
    const r = await env.a.execute(
      `DECLARE t CLOB; d CLOB; BEGIN
         DBMS_LOB.CREATETEMPORARY(t, TRUE);
         FOR i IN 0 .. 9 LOOP DBMS_LOB.WRITEAPPEND(t, 30720, SUBSTR(:p, i * 30720 + 1, 30720)); END LOOP;
         SELECT doc INTO d FROM dl_doc WHERE id = 1 FOR UPDATE;
         DBMS_LOB.APPEND(d, t);
         DBMS_LOB.FREETEMPORARY(t);
         :t := DBMS_LOB.ISTEMPORARY(d);
       END;`,
      { p: lobText, t: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    // a table row's locator is no temporary LOB
    expect(r.outBinds.t).toBe(0)
    await env.a.commit()
    const rows = (await env.b.execute("SELECT id, doc FROM dl_doc WHERE id = 1", [], asData)).rows
    expect(rows[0][1].length).toBe(5 + lobText.length)
    expect(rows[0][1]).toBe("head:" + lobText)
    const e = await failure(() => env.a.execute("DECLARE d CLOB; BEGIN SELECT doc INTO d FROM dl_doc WHERE id = 2; DBMS_LOB.APPEND(d, TO_CLOB('!')); END;"))
    expect(oraCode(e)).toBe("ORA-22920")
  })

  it("READ of a 300 KB BLOB in 32 KB chunks until NO_DATA_FOUND, the chunks appended to a temporary BLOB returned as OUT bind", async () => {
    await env.a.execute("UPDATE dl_img SET img = :b WHERE id = 1", { b: lobBytes })
    await env.a.commit()
    const r = await env.a.execute(
      `DECLARE src BLOB; dst BLOB; buf RAW(32767); amt INTEGER; off INTEGER := 1; n INTEGER := 0; BEGIN
         SELECT img INTO src FROM dl_img WHERE id = 1;
         DBMS_LOB.CREATETEMPORARY(dst, TRUE);
         BEGIN
           LOOP
             amt := 32767;
             DBMS_LOB.READ(src, amt, off, buf);
             DBMS_LOB.WRITEAPPEND(dst, amt, buf);
             off := off + amt; n := n + 1;
           END LOOP;
         EXCEPTION WHEN NO_DATA_FOUND THEN NULL;
         END;
         :n := n; :b := dst;
       END;`,
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, b: { dir: oracledb.BIND_OUT, type: oracledb.BUFFER, maxSize: 400000 } }
    )
    expect(r.outBinds.n).toBe(Math.ceil(lobBytes.length / 32767))
    expect(Buffer.compare(r.outBinds.b, lobBytes)).toBe(0)
    // a BLOB OUT bind made a temporary BLOB in place
    const b = await env.a.execute("BEGIN DBMS_LOB.CREATETEMPORARY(:b, TRUE); DBMS_LOB.WRITEAPPEND(:b, 2, HEXTORAW('0102')); DBMS_LOB.APPEND(:b, TO_BLOB(HEXTORAW('03'))); END;", {
      b: { dir: oracledb.BIND_OUT, type: oracledb.BLOB }
    })
    expect(await b.outBinds.b.getData()).toEqual(Buffer.from([1, 2, 3]))
    b.outBinds.b.destroy()
  })

  it("a stored function returning the CLOB it builds in a temporary, from SQL and PL/SQL; a procedure's OUT CLOB parameter", async () => {
    await env.a.execute(
      "CREATE OR REPLACE FUNCTION dl_mk(n NUMBER) RETURN CLOB IS c CLOB; BEGIN DBMS_LOB.CREATETEMPORARY(c, TRUE); FOR i IN 1 .. n LOOP DBMS_LOB.WRITEAPPEND(c, 2, 'ab'); END LOOP; RETURN c; END;"
    )
    await env.a.execute("CREATE OR REPLACE PROCEDURE dl_mkp(c OUT CLOB) IS BEGIN DBMS_LOB.CREATETEMPORARY(c, TRUE); DBMS_LOB.WRITEAPPEND(c, 2, 'xy'); DBMS_LOB.APPEND(c, TO_CLOB('z')); END;")
    const q = await env.a.execute("SELECT dl_mk(3) AS doc FROM dual", [], asData)
    expect(q.rows).toEqual([["ababab"]])
    const r = await env.a.execute("DECLARE c CLOB; BEGIN dl_mkp(c); c := c || dl_mk(1); DBMS_LOB.WRITEAPPEND(c, 1, '!'); :x := c || DBMS_LOB.GETLENGTH(c); END;", { x: textOut })
    expect(r.outBinds.x).toBe("xyzab!6")
  })

  it("READ sets the amount it read; amount or offset out of range is ORA-21560; a buffer too small is ORA-06502", async () => {
    const out = { x: textOut }
    const r = await env.a.execute("DECLARE c CLOB := 'abcdefgh'; b VARCHAR2(10); a INTEGER := 10; BEGIN DBMS_LOB.READ(c, a, 6, b); :x := a || ':' || b; END;", out)
    expect(r.outBinds.x).toBe("3:fgh")
    expect(oraCode(await failure(() => env.a.execute("DECLARE c CLOB := 'abc'; b VARCHAR2(10); a INTEGER := 0; BEGIN DBMS_LOB.READ(c, a, 1, b); END;")))).toBe("ORA-21560")
    expect(oraCode(await failure(() => env.a.execute("DECLARE c CLOB := 'abc'; b VARCHAR2(10); a INTEGER := 2; BEGIN DBMS_LOB.READ(c, a, 0, b); END;")))).toBe("ORA-21560")
    expect(oraCode(await failure(() => env.a.execute("DECLARE c CLOB := 'abcdefgh'; b VARCHAR2(3); a INTEGER := 8; BEGIN DBMS_LOB.READ(c, a, 1, b); END;")))).toBe("ORA-06502")
    expect(oraCode(await failure(() => env.a.execute("DECLARE c CLOB := 'abc'; b VARCHAR2(10); a INTEGER := 2; BEGIN DBMS_LOB.READ(c, a, 4, b); END;")))).toBe("ORA-01403")
  })

  it("COPY into a temporary (the gap filled with blanks), COMPARE, OPEN / ISOPEN / CLOSE, GETCHUNKSIZE", async () => {
    const r = await env.a.execute(
      `DECLARE d CLOB; s CLOB := 'hello world'; BEGIN
         DBMS_LOB.CREATETEMPORARY(d, TRUE);
         DBMS_LOB.COPY(d, s, 5, 3, 7);
         DBMS_LOB.OPEN(d, DBMS_LOB.LOB_READWRITE);
         :x := '[' || d || ']' || DBMS_LOB.ISOPEN(d);
         DBMS_LOB.CLOSE(d);
         :x := :x || DBMS_LOB.ISOPEN(d) || ' ' || DBMS_LOB.COMPARE(s, TO_CLOB('hello world')) || ' ' || DBMS_LOB.COMPARE(s, TO_CLOB('hellp'))
           || ' ' || DBMS_LOB.COMPARE(s, TO_CLOB('xxworld'), 5, 7, 3) || ' ' || DBMS_LOB.ISTEMPORARY(s) || ' ' || SIGN(DBMS_LOB.GETCHUNKSIZE(d));
       END;`,
      { x: { dir: oracledb.BIND_INOUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.x).toBe("[  world]10 0 -1 0 1 1")
  })

  it("COMPARE in a client's query compares LOB columns with LOB values, with its amount and offsets", async () => {
    const r = await env.b.execute(
      "SELECT id, DBMS_LOB.COMPARE(doc, TO_CLOB('two')), DBMS_LOB.COMPARE(doc, 'xtwo', 3, 1, 2), DBMS_LOB.COMPARE(doc, doc, 0) FROM dl_doc WHERE DBMS_LOB.COMPARE(doc, TO_CLOB('two')) = 0"
    )
    expect(r.rows).toEqual([[2, 0, 0, null]])
    const b = await env.b.execute("SELECT DBMS_LOB.COMPARE(TO_BLOB(HEXTORAW('0102')), TO_BLOB(HEXTORAW('0103'))) FROM dual")
    expect(b.rows).toEqual([[-1]])
  })

  it("OPEN twice is ORA-22293, CLOSE of a LOB not open is ORA-22289, a write to a LOB opened read-only is ORA-22294", async () => {
    expect(oraCode(await failure(() => env.a.execute("DECLARE c CLOB := 'a'; BEGIN DBMS_LOB.OPEN(c, DBMS_LOB.LOB_READONLY); DBMS_LOB.OPEN(c, DBMS_LOB.LOB_READONLY); END;")))).toBe("ORA-22293")
    expect(oraCode(await failure(() => env.a.execute("DECLARE c CLOB := 'a'; BEGIN DBMS_LOB.CLOSE(c); END;")))).toBe("ORA-22289")
    expect(oraCode(await failure(() => env.a.execute("DECLARE c CLOB := 'a'; BEGIN DBMS_LOB.OPEN(c, DBMS_LOB.LOB_READONLY); DBMS_LOB.WRITEAPPEND(c, 1, 'b'); END;")))).toBe("ORA-22294")
  })

  it("CONVERTTOCLOB / CONVERTTOBLOB decode and encode UTF-8 and move their IN OUT offsets", async () => {
    const r = await env.a.execute(
      `DECLARE c CLOB; b BLOB; d INTEGER := 1; s INTEGER := 1; ctx INTEGER := DBMS_LOB.DEFAULT_LANG_CTX; w INTEGER; BEGIN
         DBMS_LOB.CREATETEMPORARY(c, TRUE);
         DBMS_LOB.CONVERTTOCLOB(c, TO_BLOB(HEXTORAW('6361C3A9')), DBMS_LOB.LOBMAXSIZE, d, s, DBMS_LOB.DEFAULT_CSID, ctx, w);
         :x := c || ' ' || d || ' ' || s || ' ' || w;
         DBMS_LOB.CREATETEMPORARY(b, TRUE);
         d := 1; s := 1;
         DBMS_LOB.CONVERTTOBLOB(b, TO_CLOB('é!'), DBMS_LOB.LOBMAXSIZE, d, s, DBMS_LOB.DEFAULT_CSID, ctx, w);
         :x := :x || ' ' || RAWTOHEX(b) || ' ' || d || ' ' || s;
       END;`,
      { x: { dir: oracledb.BIND_INOUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.x).toBe("caé 4 5 0 C3A921 4 3")
    // named notation, as the everyday BLOB-to-CLOB helper writes it
    const n = await env.a.execute(
      `DECLARE c CLOB; d INTEGER := 1; s INTEGER := 1; ctx INTEGER := DBMS_LOB.DEFAULT_LANG_CTX; w INTEGER; BEGIN
         DBMS_LOB.CREATETEMPORARY(lob_loc => c, cache => TRUE);
         DBMS_LOB.CONVERTTOCLOB(dest_lob => c, src_blob => TO_BLOB(HEXTORAW('4F4B')), amount => DBMS_LOB.LOBMAXSIZE, dest_offset => d,
           src_offset => s, blob_csid => DBMS_LOB.DEFAULT_CSID, lang_context => ctx, warning => w);
         :x := c || d || s || w;
       END;`,
      { x: textOut }
    )
    expect(n.outBinds.x).toBe("OK330")
  })

  it("a locator variable given another value no longer writes its table row; given another row's locator it writes that row", async () => {
    await env.a.execute("INSERT INTO dl_doc VALUES (3, 'three')")
    await env.a.execute("INSERT INTO dl_doc VALUES (4, 'four')")
    await env.a.commit()
    const r = await env.a.execute(
      `DECLARE d CLOB; e CLOB; BEGIN
         SELECT doc INTO d FROM dl_doc WHERE id = 3 FOR UPDATE;
         d := 'fresh';
         DBMS_LOB.WRITEAPPEND(d, 4, '-new');
         :d := d;
         SELECT doc INTO e FROM dl_doc WHERE id = 4 FOR UPDATE;
         d := e;
         DBMS_LOB.WRITEAPPEND(d, 4, '-via');
       END;`,
      { d: textOut }
    )
    expect(r.outBinds.d).toBe("fresh-new")
    await env.a.commit()
    const rows = (await env.b.execute("SELECT id, doc FROM dl_doc WHERE id IN (3, 4) ORDER BY id", [], asData)).rows
    // row 3 keeps its text: d held a temporary LOB when it was written
    expect(rows).toEqual([[3, "three"], [4, "four-via"]])
  })
})
