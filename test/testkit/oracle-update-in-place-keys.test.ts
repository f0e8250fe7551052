/**
 * Oracle test server: UPDATEs returning values or assigning key columns, and MERGEs into a keyed table, write their
 * rows in place (raw node-oracledb). A row keeps its ROWID when an UPDATE changes it (Database Concepts, "Rowid Data
 * Types"), and a parent row that child rows reference may be updated, its key assigned its own value too: only
 * changing a referenced key is ORA-02292 (SQL Language Reference, "constraint", references clause; Database Error
 * Messages, ORA-02292). The forms ORMs send: every column key included set to its own value, RETURNING ... INTO, an
 * upsert MERGE; single and through executeMany, with volatile values (SYSDATE, NEXTVAL) and in PL/SQL blocks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, oracledb, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows
const message = async (sql: string, binds: unknown = {}) => String((await failure(() => conn.execute(sql, binds))).message).split("\n")[0]
/** ROWID, id and name of every parent row, by id. */
const parents = () => rows("SELECT ROWID, id, name FROM ip_parent ORDER BY id")
const children = () => rows("SELECT id, parent_id FROM ip_child ORDER BY id")
const outString = { dir: oracledb.BIND_OUT, type: oracledb.STRING }
const childFound = /^ORA-02292: integrity constraint \(TEST\.SYS_C\d+\) violated - child record found$/

describe("Oracle test server: UPDATE ... RETURNING, key columns set to their own values and MERGE write in place", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE ip_parent (id NUMBER PRIMARY KEY, name VARCHAR2(20), code VARCHAR2(10) UNIQUE, changed DATE)",
      "CREATE TABLE ip_child (id NUMBER PRIMARY KEY, parent_id NUMBER REFERENCES ip_parent (id))",
      "CREATE SEQUENCE ip_seq START WITH 1000",
      "INSERT INTO ip_parent VALUES (1, 'a', 'A', NULL)",
      "INSERT INTO ip_parent VALUES (2, 'b', 'B', NULL)",
      "INSERT INTO ip_parent VALUES (3, 'c', 'C', NULL)",
      "INSERT INTO ip_child VALUES (10, 1)",
      "INSERT INTO ip_child VALUES (11, 2)"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))
  afterEach(() => conn.rollback())

  it("an UPDATE setting every column, the key to its own value, updates a parent with children in place", async () => {
    const before = await parents()
    const sql = "UPDATE ip_parent SET id = :id, name = :name, code = :code WHERE id = :id"
    expect((await conn.execute(sql, { id: 1, name: "orm", code: "A" })).rowsAffected).toBe(1)
    expect(await parents()).toEqual([[before[0][0], 1, "orm"], before[1], before[2]])
    expect(await children()).toEqual([[10, 1], [11, 2]])
  })

  it("executeMany of that UPDATE updates every parent in place", async () => {
    const before = await parents()
    const sql = "UPDATE ip_parent SET id = :id, name = :name WHERE id = :id"
    const result = await conn.executeMany(sql, [{ id: 1, name: "x" }, { id: 2, name: "y" }, { id: 3, name: "z" }])
    expect(result.rowsAffected).toBe(3)
    expect(await parents()).toEqual([[before[0][0], 1, "x"], [before[1][0], 2, "y"], [before[2][0], 3, "z"]])
  })

  it("UPDATE ... RETURNING INTO of a parent with children returns the new values and keeps the ROWID", async () => {
    const before = await parents()
    const result = await conn.execute("UPDATE ip_parent SET name = name || '!' WHERE id = 1 RETURNING id, name INTO :id, :name", {
      id: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      name: outString
    })
    expect(result.outBinds).toEqual({ id: [1], name: ["a!"] })
    expect(await parents()).toEqual([[before[0][0], 1, "a!"], before[1], before[2]])
  })

  it("UPDATE ... RETURNING INTO through executeMany, the key set to its own value, keeps every ROWID", async () => {
    const before = await parents()
    const result = await conn.executeMany("UPDATE ip_parent SET id = :1, name = :2 WHERE id = :3 RETURNING name INTO :4", [[1, "p", 1], [2, "q", 2]], {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20, dir: oracledb.BIND_OUT }]
    })
    expect(result.outBinds).toEqual([[["p"]], [["q"]]])
    expect(await parents()).toEqual([[before[0][0], 1, "p"], [before[1][0], 2, "q"], before[2]])
  })

  it("an upsert MERGE into a parent with children updates the matched row in place and inserts the others", async () => {
    const before = await parents()
    const sql =
      "MERGE INTO ip_parent p USING (SELECT :id id, :name name FROM dual) s ON (p.id = s.id) " +
      "WHEN MATCHED THEN UPDATE SET p.name = s.name WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)"
    expect((await conn.execute(sql, { id: 1, name: "m" })).rowsAffected).toBe(1)
    expect((await conn.executeMany(sql, [{ id: 2, name: "n" }, { id: 4, name: "new" }])).rowsAffected).toBe(2)
    const after = await parents()
    expect(after.slice(0, 3)).toEqual([[before[0][0], 1, "m"], [before[1][0], 2, "n"], before[2]])
    expect(after[3].slice(1)).toEqual([4, "new"])
  })

  it("volatile values: SYSDATE with the key set to its own value, with RETURNING INTO, and in a MERGE keep the ROWIDs", async () => {
    const before = await parents()
    await conn.execute("UPDATE ip_parent SET id = :id, name = :name, changed = SYSDATE WHERE id = :id", { id: 1, name: "s" })
    const returned = await conn.execute("UPDATE ip_parent SET name = 'r', changed = SYSDATE WHERE id = 2 RETURNING name INTO :o", { o: outString })
    expect(returned.outBinds).toEqual({ o: ["r"] })
    await conn.execute("MERGE INTO ip_parent p USING (SELECT 3 id FROM dual) s ON (p.id = s.id) WHEN MATCHED THEN UPDATE SET p.changed = SYSDATE, p.name = TO_CHAR(ip_seq.NEXTVAL) WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, 'x')")
    expect(await parents()).toEqual([[before[0][0], 1, "s"], [before[1][0], 2, "r"], [before[2][0], 3, "1000"]])
    expect(await rows("SELECT COUNT(*) FROM ip_parent WHERE changed IS NULL")).toEqual([[0]])
  })

  it("PL/SQL blocks: the key set to its own value and RETURNING INTO update a parent with children in place", async () => {
    const before = await parents()
    await conn.execute("BEGIN UPDATE ip_parent SET id = 1, name = 'blk' WHERE id = 1; END;")
    const result = await conn.execute("DECLARE n VARCHAR2(20); BEGIN UPDATE ip_parent SET name = 'ret' WHERE id = 2 RETURNING name INTO n; :v := n; END;", { v: outString })
    expect(result.outBinds).toEqual({ v: "ret" })
    expect(await parents()).toEqual([[before[0][0], 1, "blk"], [before[1][0], 2, "ret"], before[2]])
  })

  it("a key that really changes keeps Oracle's checks: ORA-02292 with children, ORA-00001 on a duplicate", async () => {
    const before = await parents()
    expect(await message("UPDATE ip_parent SET id = :id, name = 'k' WHERE id = 1", { id: 100 })).toMatch(childFound)
    expect(await message("UPDATE ip_parent SET id = 101 WHERE id = 2 RETURNING name INTO :o", { o: outString })).toMatch(childFound)
    expect(await message("UPDATE ip_parent SET id = ip_seq.NEXTVAL, changed = SYSDATE WHERE id = 1")).toMatch(childFound)
    expect(await message("UPDATE ip_parent SET code = 'A' WHERE id = 3")).toMatch(/^ORA-00001: unique constraint \(TEST\.SYS_C\d+\) violated/)
    expect(await parents()).toEqual(before)
    expect(await children()).toEqual([[10, 1], [11, 2]])
  })

  it("rows keeping their key are written in place beside a row whose key changes, and stay so after a failed statement", async () => {
    const before = await parents()
    const sql = "UPDATE ip_parent SET id = CASE WHEN id = 3 THEN 30 ELSE id END, name = 'mix' RETURNING id INTO :ids"
    const result = await conn.execute(sql, { ids: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect([...result.outBinds.ids].sort((x: number, y: number) => x - y)).toEqual([1, 2, 30])
    const after = await parents()
    expect(after.slice(0, 2)).toEqual([[before[0][0], 1, "mix"], [before[1][0], 2, "mix"]])
    expect(after[2].slice(1)).toEqual([30, "mix"])
    // the statement-level rollback of a failing statement replays the transaction's writes to the same rows
    expect(await message("UPDATE ip_parent SET id = 200 WHERE id = 1")).toMatch(childFound)
    expect(await parents()).toEqual(after)
    await conn.execute("UPDATE ip_parent SET name = 'again' WHERE id = 2 RETURNING name INTO :o", { o: outString })
    expect((await parents())[1]).toEqual([before[1][0], 2, "again"])
  })

  describe("a column another index covers", () => {
    const tagged = () => rows("SELECT ROWID, id, name, tag FROM ip_tagged ORDER BY id")
    const outNumber = { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    beforeAll(async () => {
      for (const sql of [
        "CREATE TABLE ip_tagged (id NUMBER PRIMARY KEY, name VARCHAR2(20), tag VARCHAR2(10), changed DATE)",
        "CREATE INDEX ip_tagged_tag ON ip_tagged (tag)",
        "CREATE TABLE ip_tag_child (id NUMBER PRIMARY KEY, tagged_id NUMBER REFERENCES ip_tagged (id))",
        "CREATE TABLE ip_plain (id NUMBER, name VARCHAR2(20), tag VARCHAR2(10), changed DATE)",
        "CREATE INDEX ip_plain_tag ON ip_plain (tag)",
        "CREATE TABLE ip_many (id NUMBER PRIMARY KEY, name VARCHAR2(20))",
        "INSERT INTO ip_tagged VALUES (1, 'a', 'x', NULL)",
        "INSERT INTO ip_tagged VALUES (2, 'b', 'y', NULL)",
        "INSERT INTO ip_tagged VALUES (3, 'c', 'z', NULL)",
        "INSERT INTO ip_tag_child VALUES (10, 1)",
        "INSERT INTO ip_plain VALUES (1, 'a', 'x', NULL)",
        "INSERT INTO ip_plain VALUES (2, 'b', 'y', NULL)",
        "INSERT INTO ip_many SELECT LEVEL, 'm' FROM dual CONNECT BY LEVEL <= 300"
      ]) await conn.execute(sql)
      await conn.commit()
    })

    it("UPDATE ... RETURNING INTO assigning an indexed column returns its rows, also with SYSDATE, without a key and in PL/SQL", async () => {
      const before = await tagged()
      const changed = await conn.execute("UPDATE ip_tagged SET tag = 'q' WHERE id = 2 RETURNING name INTO :o", { o: outString })
      expect([changed.rowsAffected, changed.outBinds]).toEqual([1, { o: ["b"] }])
      const volatile = await conn.execute("UPDATE ip_tagged SET tag = 'w', changed = SYSDATE WHERE id = 3 RETURNING name INTO :o", { o: outString })
      expect([volatile.rowsAffected, volatile.outBinds]).toEqual([1, { o: ["c"] }])
      const plain = await conn.execute("UPDATE ip_plain SET tag = 'v', changed = SYSDATE WHERE id = 2 RETURNING name INTO :o", { o: outString })
      expect([plain.rowsAffected, plain.outBinds]).toEqual([1, { o: ["b"] }])
      const block = await conn.execute("DECLARE n VARCHAR2(20); BEGIN UPDATE ip_tagged SET tag = 'p' WHERE id = 2 RETURNING name INTO n; :v := n; END;", { v: outString })
      expect(block.outBinds).toEqual({ v: "b" })
      const after = await tagged()
      expect(after.map((row: Array<unknown>) => row.slice(1))).toEqual([[1, "a", "x"], [2, "b", "p"], [3, "c", "w"]])
      expect(after[0]).toEqual(before[0])
    })

    it("an indexed column assigned its own value is left out: the row keeps its ROWID, a parent with children too", async () => {
      const before = await tagged()
      const result = await conn.execute("UPDATE ip_tagged SET id = 1, tag = tag, name = 'same' WHERE id = 1 RETURNING name INTO :o", { o: outString })
      expect(result.outBinds).toEqual({ o: ["same"] })
      expect(await tagged()).toEqual([[before[0][0], 1, "same", "x"], before[1], before[2]])
      // a foreign key's column is indexed too
      const childRowid = await rows("SELECT ROWID FROM ip_tag_child")
      const child = await conn.execute("UPDATE ip_tag_child SET tagged_id = 1 WHERE id = 10 RETURNING id INTO :o", { o: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
      expect([child.rowsAffected, child.outBinds]).toEqual([1, { o: [10] }])
      expect(await rows("SELECT ROWID FROM ip_tag_child")).toEqual(childRowid)
      const plainRowids = await rows("SELECT ROWID FROM ip_plain ORDER BY id")
      await conn.execute("UPDATE ip_plain SET name = 'r' WHERE id = 1 RETURNING name INTO :o", { o: outString })
      expect(await rows("SELECT ROWID FROM ip_plain ORDER BY id")).toEqual(plainRowids)
    })

    it("RETURNING an aggregate gives one value and the rows written as rowsAffected, also in PL/SQL", async () => {
      const sum = await conn.execute("UPDATE ip_tagged SET name = 'x' WHERE id < 3 RETURNING SUM(id) INTO :s", { s: outNumber })
      expect([sum.rowsAffected, sum.outBinds]).toEqual([2, { s: [3] }])
      const many = await conn.execute("UPDATE ip_many SET name = 'y' RETURNING COUNT(*), SUM(id) INTO :c, :s", { c: outNumber, s: outNumber })
      expect([many.rowsAffected, many.outBinds]).toEqual([300, { c: [300], s: [45150] }])
      const volatile = await conn.execute("UPDATE ip_tagged SET changed = SYSDATE WHERE id > 1 RETURNING MAX(name) INTO :m", { m: outString })
      expect([volatile.rowsAffected, volatile.outBinds]).toEqual([2, { m: ["x"] }])
      const block = await conn.execute(
        "DECLARE TYPE nums IS TABLE OF NUMBER; s NUMBER; all_s nums; BEGIN UPDATE ip_tagged SET name = 'z' WHERE id < 3 RETURNING SUM(id) INTO s; " +
          "UPDATE ip_tagged SET name = 'w' RETURNING SUM(id) BULK COLLECT INTO all_s; :v := s || '/' || all_s.COUNT || '/' || all_s(1) || '/' || SQL%ROWCOUNT; END;",
        { v: outString }
      )
      expect(block.outBinds).toEqual({ v: "3/1/6/3" })
    })

    it("hundreds of rows keeping their key beside one whose key changes are all written and returned", async () => {
      const before = await rows("SELECT ROWID, id FROM ip_many ORDER BY id")
      const sql = "UPDATE ip_many SET id = CASE WHEN id = 300 THEN 301 ELSE id END, name = 'k' RETURNING id INTO :ids"
      const result = await conn.execute(sql, { ids: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
      expect(result.rowsAffected).toBe(300)
      expect([...result.outBinds.ids].sort((x: number, y: number) => x - y)).toEqual([...Array.from({ length: 299 }, (_, i) => i + 1), 301])
      const after = await rows("SELECT ROWID, id, name FROM ip_many ORDER BY id")
      expect(after.slice(0, 299)).toEqual(before.slice(0, 299).map((row: Array<unknown>) => [...row, "k"]))
      expect(after[299].slice(1)).toEqual([301, "k"])
    })
  })
})
