/**
 * Oracle test server: an UPDATE writes its rows in place (raw node-oracledb). A row keeps its ROWID when an UPDATE
 * changes it (Database Concepts, "Rowid Data Types": a rowid changes only when the row moves, e.g. row movement
 * between partitions), and a parent row that child rows reference may be updated as long as its referenced key stays:
 * ORA-02292 is for deleting a parent key or changing it while children reference it (Database Error Messages,
 * ORA-02292: "attempted to delete a parent key value that had a foreign dependency"). That holds whatever the SET
 * reads, also a correlated subquery of the updated table, and for a join view's UPDATE and a MERGE's WHEN MATCHED.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows
const message = async (sql: string) => String((await failure(() => conn.execute(sql))).message).split("\n")[0]
const parents = () => rows("SELECT ROWID, id, name FROM ur_parent ORDER BY id")

describe("Oracle test server: UPDATE keeps the rows it writes in place", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE ur_parent (id NUMBER PRIMARY KEY, name VARCHAR2(20))",
      "CREATE TABLE ur_child (id NUMBER PRIMARY KEY, parent_id NUMBER REFERENCES ur_parent (id))",
      "CREATE TABLE ur_extra (id NUMBER PRIMARY KEY, note VARCHAR2(20))",
      "INSERT INTO ur_parent VALUES (1, 'a')",
      "INSERT INTO ur_parent VALUES (2, 'b')",
      "INSERT INTO ur_child VALUES (10, 1)",
      "INSERT INTO ur_extra VALUES (1, 'x')",
      "INSERT INTO ur_extra VALUES (2, 'y')",
      // joined on both tables' keys: both are key-preserved, so the parent's columns are updatable through it
      "CREATE VIEW ur_parent_extra AS SELECT p.id, p.name, e.note FROM ur_parent p JOIN ur_extra e ON e.id = p.id"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))
  afterEach(() => conn.rollback())

  it("an UPDATE whose SET reads a correlated subquery keeps the rows' ROWIDs", async () => {
    const before = await parents()
    const sql = "UPDATE ur_parent a SET name = (SELECT s.name || 'd' FROM ur_parent s WHERE s.id = a.id) WHERE id = 2"
    expect((await conn.execute(sql)).rowsAffected).toBe(1)
    expect(await parents()).toEqual([before[0], [before[1][0], 2, "bd"]])
  })

  it("a parent row with child rows is updated through a correlated subquery when its key stays", async () => {
    const before = await parents()
    const sql = "UPDATE ur_parent a SET name = (SELECT 'p' || s.id FROM ur_parent s WHERE s.id = a.id)"
    expect((await conn.execute(sql)).rowsAffected).toBe(2)
    expect(await parents()).toEqual([[before[0][0], 1, "p1"], [before[1][0], 2, "p2"]])
    expect(await rows("SELECT id, parent_id FROM ur_child")).toEqual([[10, 1]])
  })

  it("a join view's UPDATE of a parent row with child rows succeeds in place", async () => {
    const before = await parents()
    expect((await conn.execute("UPDATE ur_parent_extra SET name = name || note WHERE id = 1")).rowsAffected).toBe(1)
    expect(await parents()).toEqual([[before[0][0], 1, "ax"], before[1]])
  })

  it("a MERGE's WHEN MATCHED UPDATE of a parent row with child rows succeeds in place", async () => {
    const before = await parents()
    const sql = "MERGE INTO ur_parent p USING (SELECT 1 id, 'm' name FROM dual) s ON (p.id = s.id) WHEN MATCHED THEN UPDATE SET p.name = s.name"
    expect((await conn.execute(sql)).rowsAffected).toBe(1)
    expect(await parents()).toEqual([[before[0][0], 1, "m"], before[1]])
  })

  it("changing a referenced key through a correlated subquery is still ORA-02292", async () => {
    const sql = "UPDATE ur_parent a SET (id, name) = (SELECT s.id + 100, s.name FROM ur_parent s WHERE s.id = a.id) WHERE id = 1"
    expect(await message(sql)).toMatch(/^ORA-02292: integrity constraint \(TEST\.SYS_C\d+\) violated - child record found$/)
    expect(await rows("SELECT id, name FROM ur_parent ORDER BY id")).toEqual([[1, "a"], [2, "b"]])
  })
})
