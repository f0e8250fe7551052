/**
 * PL/SQL `SELECT lob INTO v` locators written with DBMS_LOB: the locator names the row it was read from, whatever
 * the query (one table or a join), and DBMS_LOB.WRITE / WRITEAPPEND write it once the block's transaction holds the
 * row, locked by FOR UPDATE or by the transaction's own DML (SecureFiles and Large Objects Developer's Guide, "LOB
 * Locators"; ORA-22920 "row containing the LOB value is not locked", https://docs.oracle.com/en/error-help/db/ora-22920;
 * Database Concepts, "Row Locks (TX)": an UPDATE locks the rows it changes). Raw node-oracledb against the Oracle
 * test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oracledb, oraCode } from "./oracle/helpers.ts"
import { lobBytes, lobText } from "./oracle/lob-data.ts"

let env: TwoSessions

const asData = { fetchInfo: { DOC: { type: oracledb.STRING }, IMG: { type: oracledb.BUFFER } } }
/** Ten DBMS_LOB.WRITEAPPEND calls of 30 KB each (300 KB) on the variable `v`, the piece bound as :p, its size as :n. */
const tenAppends = (v: string) => Array.from({ length: 10 }, () => `DBMS_LOB.WRITEAPPEND(${v}, :n, :p);`).join(" ")
const textPiece = lobText.slice(0, 30 * 1024)
const bytePiece = lobBytes.subarray(0, 30 * 1024)

describe("Oracle test server: PL/SQL LOB locators through joins and rows the block's own DML locked", () => {
  beforeAll(async () => {
    env = await openTwoSessions([
      "CREATE TABLE pl_doc (id NUMBER PRIMARY KEY, tag VARCHAR2(5), doc CLOB)",
      "CREATE TABLE pl_tag (id NUMBER PRIMARY KEY, label VARCHAR2(5), img BLOB)",
      "CREATE TABLE pl_more (id NUMBER PRIMARY KEY, img BLOB)",
      "INSERT INTO pl_more VALUES (5, HEXTORAW('05'))",
      "INSERT INTO pl_doc VALUES (1, 'a', 'one')",
      "INSERT INTO pl_doc VALUES (2, 'b', 'two')",
      "INSERT INTO pl_tag VALUES (1, 'x', HEXTORAW('01'))",
      "INSERT INTO pl_tag VALUES (2, 'y', HEXTORAW('02'))"
    ])
  })
  afterAll(() => env?.env.close())

  const docs = async () => (await env.a.execute("SELECT id, doc FROM pl_doc ORDER BY id", [], asData)).rows
  const imgs = async () => (await env.a.execute("SELECT id, img FROM pl_tag ORDER BY id", [], asData)).rows

  it("a row the block's own UPDATE locked (no FOR UPDATE) takes DBMS_LOB.WRITE and 300 KB of WRITEAPPENDs", async () => {
    await env.a.execute(`DECLARE x CLOB; BEGIN UPDATE pl_doc SET tag = 'u' WHERE id = 1; SELECT doc INTO x FROM pl_doc WHERE id = 1; DBMS_LOB.WRITE(x, 3, 1, 'ONE'); ${tenAppends("x")} END;`, {
      n: textPiece.length,
      p: textPiece
    })
    await env.a.commit()
    expect(await docs()).toEqual([[1, "ONE" + textPiece.repeat(10)], [2, "two"]])
  })

  it("a row an earlier UPDATE of the transaction locked is writable from a later block; another row is not (ORA-22920)", async () => {
    await env.a.execute("UPDATE pl_doc SET tag = 'v' WHERE id = 2")
    await env.a.execute("DECLARE x CLOB; BEGIN SELECT doc INTO x FROM pl_doc WHERE id = 2; DBMS_LOB.WRITEAPPEND(x, 4, ' too'); END;")
    const e = await failure(() => env.a.execute("DECLARE x CLOB; BEGIN SELECT doc INTO x FROM pl_doc WHERE id = 1; DBMS_LOB.WRITEAPPEND(x, 1, 'z'); END;"))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.a.commit()
    expect((await docs())[1]).toEqual([2, "two too"])
    expect(((await docs())[0]![1] as string).length).toBe(3 + 10 * textPiece.length)
  })

  it("SELECT ... INTO through a JOIN ... FOR UPDATE gives a locator of its own table's row: 300 KB of BLOB appends", async () => {
    await env.a.execute(
      `DECLARE y BLOB; BEGIN SELECT t.img INTO y FROM pl_doc d JOIN pl_tag t ON t.id = d.id WHERE d.tag = 'v' FOR UPDATE; DBMS_LOB.TRIM(y, 0); ${tenAppends("y")} END;`,
      { n: bytePiece.length, p: bytePiece }
    )
    await env.a.commit()
    const rows = await imgs()
    expect(rows[0]).toEqual([1, Buffer.from([1])])
    expect(Buffer.compare(rows[1]![1] as Buffer, Buffer.concat(Array.from({ length: 10 }, () => bytePiece)))).toBe(0)
  })

  it("a comma join's LOB columns of both tables, selected INTO two variables FOR UPDATE, each write their own row", async () => {
    await env.a.execute(
      "DECLARE x CLOB; y BLOB; BEGIN SELECT d.doc, img INTO x, y FROM pl_doc d, pl_tag t WHERE t.id = d.id AND d.id = 2 FOR UPDATE; DBMS_LOB.WRITEAPPEND(x, 1, '!'); DBMS_LOB.WRITE(y, 2, 1, HEXTORAW('0A0B')); END;"
    )
    await env.a.commit()
    expect((await docs())[1]).toEqual([2, "two too!"])
    expect(((await imgs())[1]![1] as Buffer).subarray(0, 3)).toEqual(Buffer.from([0x0a, 0x0b, bytePiece[2]!]))
  })

  it("SELECT ... INTO through a FROM subquery and through a UNION ALL of two tables writes the row its own DML locked", async () => {
    await env.a.execute("UPDATE pl_doc SET tag = 'w' WHERE id = 1")
    await env.a.execute("UPDATE pl_tag SET label = 'z' WHERE id = 1")
    await env.a.execute(
      `DECLARE x CLOB; y BLOB; BEGIN
         SELECT s.doc INTO x FROM (SELECT id, doc FROM pl_doc WHERE tag = 'w') s; DBMS_LOB.TRIM(x, 0); ${tenAppends("x")}
         SELECT img INTO y FROM (SELECT id, img FROM pl_more UNION ALL SELECT id, img FROM pl_tag WHERE label = 'z') WHERE id = 1;
         DBMS_LOB.WRITE(y, 1, 1, HEXTORAW('FF'));
       END;`,
      { n: textPiece.length, p: textPiece }
    )
    await env.a.commit()
    expect((await docs())[0]).toEqual([1, textPiece.repeat(10)])
    expect((await imgs())[0]).toEqual([1, Buffer.from([0xff])])
  })

  it("a join selected without FOR UPDATE on rows the transaction did not lock refuses the write with ORA-22920 and changes nothing", async () => {
    const e = await failure(() => env.a.execute("DECLARE x CLOB; BEGIN SELECT d.doc INTO x FROM pl_doc d JOIN pl_tag t ON t.id = d.id WHERE d.id = 2; DBMS_LOB.WRITEAPPEND(x, 1, '?'); END;"))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.a.rollback()
    expect((await docs())[1]).toEqual([2, "two too!"])
  })
})
