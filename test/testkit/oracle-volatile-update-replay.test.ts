/**
 * Statement-level atomicity for UPDATE and MERGE with values that change on every evaluation: a failed statement
 * undoes only itself (Database Concepts, "Transactions", "Statement-Level Atomicity"), so the rows an earlier UPDATE
 * or MERGE of the transaction wrote with `seq.NEXTVAL`, SYSTIMESTAMP, SYS_GUID or DBMS_RANDOM keep the values the
 * client saw, and a sequence is not advanced again ("CREATE SEQUENCE": sequence numbers are not rolled back). The test
 * server recovers from a failed statement by replaying the transaction (testkit/oracle/session-transaction.ts,
 * volatile-updates.ts): these scenarios fail if the replay evaluates the UPDATE or MERGE again. The INSERT version is
 * oracle-volatile-replay.test.ts. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const snapshot = async (table: string): Promise<Array<Array<unknown>>> =>
  (await conn.execute(`SELECT id, n, TO_CHAR(ts, 'YYYY-MM-DD HH24:MI:SS.FF6'), RAWTOHEX(g), r, TO_CHAR(tz, 'HH24:MI:SS.FF6 TZH:TZM'), note FROM ${table} ORDER BY id`)).rows as Array<Array<unknown>>

/** The value the sequence gives next (taking it). */
const nextValue = async (seq: string): Promise<number> => ((await conn.execute(`SELECT ${seq}.NEXTVAL FROM dual`)).rows as Array<[number]>)[0]![0]

/** A statement that fails with ORA-00001 (row 1 of every table exists), caught as a client would. */
const failDuplicate = async (table: string) => expect(oraCode(await failure(() => conn.execute(`INSERT INTO ${table} (id) VALUES (1)`)))).toBe("ORA-00001")

const volatileSet = "n = vu_seq.NEXTVAL, ts = SYSTIMESTAMP, g = SYS_GUID(), r = DBMS_RANDOM.VALUE, tz = SYSTIMESTAMP"

describe("Oracle test server: a failed statement leaves the values of earlier volatile UPDATEs and MERGEs as written", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE SEQUENCE vu_seq")
    for (const table of ["vu_a", "vu_b", "vu_c", "vu_d", "vu_e"]) {
      await conn.execute(`CREATE TABLE ${table} (id NUMBER PRIMARY KEY, n NUMBER, ts TIMESTAMP(6), g RAW(16), r NUMBER, tz TIMESTAMP WITH TIME ZONE, note VARCHAR2(20))`)
      await conn.executeMany(`INSERT INTO ${table} (id, note) VALUES (:1, :2)`, Array.from({ length: 3 }, (_, i) => [i + 1, `row ${i + 1}`]))
    }
    await conn.execute("CREATE TABLE vu_many (id NUMBER PRIMARY KEY, r NUMBER, g RAW(16))")
    await conn.executeMany("INSERT INTO vu_many (id) VALUES (:1)", Array.from({ length: 600 }, (_, i) => [i + 1]))
    await conn.execute("CREATE TABLE vu_src (id NUMBER, v NUMBER)")
    await conn.executeMany("INSERT INTO vu_src VALUES (:1, :2)", [[2, 20], [3, 30], [4, 40], [5, 50]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("keeps the rows an UPDATE wrote with NEXTVAL, SYSTIMESTAMP, SYS_GUID and DBMS_RANDOM, and advances the sequence once", async () => {
    const start = await nextValue("vu_seq")
    expect((await conn.execute(`UPDATE vu_a SET ${volatileSet} WHERE id <= 2`)).rowsAffected).toBe(2)
    // a second UPDATE of the same rows, and one of a row the first left alone
    expect((await conn.execute("UPDATE vu_a SET r = DBMS_RANDOM.VALUE * 1000, note = 'again' WHERE id >= 2")).rowsAffected).toBe(2)
    const before = await snapshot("vu_a")
    expect(before.map((row) => row[1])).toEqual([start + 1, start + 2, null])
    expect(before.every((row) => row[4] !== null && row[3] !== null === (row[0] !== 3))).toBe(true)
    await failDuplicate("vu_a")
    expect(await snapshot("vu_a")).toEqual(before)
    expect(oraCode(await failure(() => conn.execute("UPDATE vu_a SET n = 'x'")))).toBe("ORA-01722")
    expect(await snapshot("vu_a")).toEqual(before)
    expect(await nextValue("vu_seq")).toBe(start + 3)
    await conn.commit()
    expect(await snapshot("vu_a")).toEqual(before)
  })

  it("keeps the keys an UPDATE wrote from a sequence, and many rows written in several statements", async () => {
    const start = await nextValue("vu_seq")
    expect((await conn.execute("UPDATE vu_b SET id = vu_seq.NEXTVAL + 100, g = SYS_GUID() WHERE id > 1")).rowsAffected).toBe(2)
    expect((await conn.execute("UPDATE vu_many SET r = DBMS_RANDOM.VALUE, g = SYS_GUID()")).rowsAffected).toBe(600)
    const before = await snapshot("vu_b")
    expect(before.map((row) => row[0])).toEqual([1, start + 101, start + 102])
    const many = (await conn.execute("SELECT id, r, RAWTOHEX(g) FROM vu_many ORDER BY id")).rows
    await failDuplicate("vu_b")
    expect(await snapshot("vu_b")).toEqual(before)
    expect((await conn.execute("SELECT id, r, RAWTOHEX(g) FROM vu_many ORDER BY id")).rows).toEqual(many)
    // the keys moved: the old ones are free, the new ones taken
    await conn.execute("INSERT INTO vu_b (id, note) VALUES (2, 'old key')")
    expect(oraCode(await failure(() => conn.execute(`INSERT INTO vu_b (id) VALUES (${start + 101})`)))).toBe("ORA-00001")
    expect(await nextValue("vu_seq")).toBe(start + 3)
    await conn.rollback()
  })

  it("keeps the rows a MERGE updated and inserted", async () => {
    await conn.execute("UPDATE vu_c SET note = 'plain' WHERE id = 1")
    const merged = await conn.execute(`MERGE INTO vu_c t USING vu_src s ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.n = vu_seq.NEXTVAL, t.g = SYS_GUID(), t.r = DBMS_RANDOM.VALUE + s.v
      WHEN NOT MATCHED THEN INSERT (id, n, ts, g, r, note) VALUES (s.id, vu_seq.NEXTVAL, SYSTIMESTAMP, SYS_GUID(), DBMS_RANDOM.VALUE, 'new')`)
    expect(merged.rowsAffected).toBe(4)
    const after = await nextValue("vu_seq")
    const before = await snapshot("vu_c")
    expect(before.map((row) => [row[0], row[6]])).toEqual([[1, "plain"], [2, "row 2"], [3, "row 3"], [4, "new"], [5, "new"]])
    expect(before.slice(1).every((row) => row[1] !== null && row[3] !== null && (row[4] as number) >= 0)).toBe(true)
    expect(new Set(before.slice(1).map((row) => row[1])).size).toBe(4)
    await failDuplicate("vu_c")
    expect(await snapshot("vu_c")).toEqual(before)
    expect(await nextValue("vu_seq")).toBe(after + 1)
    await conn.rollback()
  })

  it("keeps the rows a MERGE wrote from a source computing NEXTVAL, SYSTIMESTAMP and DBMS_RANDOM", async () => {
    const merge = (id: string) => `MERGE INTO vu_c t USING (SELECT ${id} id, SYSTIMESTAMP ts, DBMS_RANDOM.VALUE r, SYS_GUID() g FROM dual) s ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.ts = s.ts, t.r = s.r, t.g = s.g
      WHEN NOT MATCHED THEN INSERT (id, n, ts, r, g, note) VALUES (s.id, s.id, s.ts, s.r, s.g, 'src')`
    expect((await conn.execute(merge("1"))).rowsAffected).toBe(1)
    expect((await conn.execute(merge("vu_seq.NEXTVAL + 100"))).rowsAffected).toBe(1)
    const after = await nextValue("vu_seq")
    const before = await snapshot("vu_c")
    expect(before.map((row) => [row[0], row[6]])).toEqual([[1, "row 1"], [2, "row 2"], [3, "row 3"], [after + 99, "src"]])
    expect(before[0]![4]).not.toBeNull()
    await failDuplicate("vu_c")
    expect(await snapshot("vu_c")).toEqual(before)
    expect(await nextValue("vu_seq")).toBe(after + 1)
    // a source that gives no row changes nothing
    expect((await conn.execute("MERGE INTO vu_c t USING (SELECT id, DBMS_RANDOM.VALUE r FROM vu_src WHERE v > 100) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.r = s.r")).rowsAffected).toBe(0)
    await conn.rollback()
  })

  it("keeps the rows of a MERGE with an update condition and DELETE WHERE", async () => {
    const merged = await conn.execute(`MERGE INTO vu_d t USING vu_src s ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.r = DBMS_RANDOM.VALUE, t.n = s.v WHERE s.v < 40 DELETE WHERE t.n = 30`)
    expect(merged.rowsAffected).toBe(2)
    const before = await snapshot("vu_d")
    expect(before.map((row) => [row[0], row[1]])).toEqual([[1, null], [2, 20]])
    expect(before[1]![4]).not.toBeNull()
    await failDuplicate("vu_d")
    expect(await snapshot("vu_d")).toEqual(before)
    await conn.rollback()
  })

  it("keeps the rows a MERGE wrote from an unaliased source query or from a view computing DBMS_RANDOM and SYS_GUID", async () => {
    await conn.execute("CREATE TABLE vu_m (id NUMBER PRIMARY KEY, r NUMBER, g RAW(16))")
    await conn.execute("CREATE VIEW vu_rv AS SELECT id, DBMS_RANDOM.VALUE r, SYS_GUID() g FROM vu_src")
    const rows = async () => (await conn.execute("SELECT id, r, RAWTOHEX(g) FROM vu_m ORDER BY id")).rows
    await conn.execute("INSERT INTO vu_m (id) VALUES (1)")
    await conn.execute("INSERT INTO vu_m (id) VALUES (2)")
    const unaliased = await conn.execute(`MERGE INTO vu_m t USING (SELECT id sid, DBMS_RANDOM.VALUE sr FROM vu_src WHERE id <= 3) ON (t.id = sid)
      WHEN MATCHED THEN UPDATE SET t.r = sr WHEN NOT MATCHED THEN INSERT (id, r) VALUES (sid, sr)`)
    expect(unaliased.rowsAffected).toBe(2)
    const viewed = await conn.execute(`MERGE INTO vu_m t USING vu_rv s ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.g = s.g WHEN NOT MATCHED THEN INSERT (id, r, g) VALUES (s.id, s.r, s.g)`)
    expect(viewed.rowsAffected).toBe(4)
    const before = await rows()
    expect((before as Array<Array<unknown>>).map((row) => row[0])).toEqual([1, 2, 3, 4, 5])
    await failDuplicate("vu_m")
    expect(await rows()).toEqual(before)
    await conn.rollback()
    await conn.execute("DROP VIEW vu_rv")
    await conn.execute("DROP TABLE vu_m")
  })

  it("a MERGE's DELETE WHERE sees the NEXTVAL its UPDATE wrote, takes no value of its own, and a replay keeps the outcome", async () => {
    await conn.execute("CREATE SEQUENCE vu_dseq")
    await conn.execute("CREATE TABLE vu_dw (id NUMBER PRIMARY KEY, n NUMBER)")
    await conn.executeMany("INSERT INTO vu_dw (id) VALUES (:1)", [[1], [2], [3], [4], [5]])
    // rows 2..5 take 1..4 in some order; those given an even value are then deleted ("The DELETE WHERE condition
    // evaluates the updated value", SQL Language Reference, "MERGE")
    const merged = await conn.execute(`MERGE INTO vu_dw t USING vu_src s ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.n = vu_dseq.NEXTVAL DELETE WHERE MOD(t.n, 2) = 0`)
    expect(merged.rowsAffected).toBe(4)
    const before = (await conn.execute("SELECT id, n FROM vu_dw ORDER BY n")).rows as Array<[number, number]>
    expect(before.map((row) => row[1])).toEqual([1, 3, null])
    expect((await conn.execute("SELECT vu_dseq.CURRVAL FROM dual")).rows).toEqual([[4]])
    await failDuplicate("vu_dw")
    expect((await conn.execute("SELECT id, n FROM vu_dw ORDER BY n")).rows).toEqual(before)
    expect(await nextValue("vu_dseq")).toBe(5)
    await conn.rollback()
    await conn.execute("DROP TABLE vu_dw")
    await conn.execute("DROP SEQUENCE vu_dseq")
  })

  it("keeps the rows a PL/SQL block's UPDATE wrote, and undoes a failing block's own", async () => {
    const start = await nextValue("vu_seq")
    await conn.execute(`BEGIN UPDATE vu_e SET ${volatileSet} WHERE id = 1; END;`)
    const before = await snapshot("vu_e")
    expect(before[0]![1]).toBe(start + 1)
    const e = await failure(() => conn.execute(`BEGIN UPDATE vu_e SET ${volatileSet} WHERE id = 2; INSERT INTO vu_e (id) VALUES (1); END;`))
    expect(oraCode(e)).toBe("ORA-00001")
    expect(await snapshot("vu_e")).toEqual(before)
    await failDuplicate("vu_e")
    expect(await snapshot("vu_e")).toEqual(before)
    // the failed block's NEXTVAL is used up (sequences are not rolled back), the replay takes none
    expect(await nextValue("vu_seq")).toBe(start + 3)
    await conn.rollback()
  })

  it("keeps the rows updated before a savepoint rolled back to", async () => {
    await conn.execute(`UPDATE vu_e SET ${volatileSet} WHERE id = 1`)
    const before = await snapshot("vu_e")
    await conn.execute("SAVEPOINT vu_sp")
    await conn.execute(`UPDATE vu_e SET ${volatileSet}`)
    expect(await snapshot("vu_e")).not.toEqual(before)
    await conn.execute("ROLLBACK TO SAVEPOINT vu_sp")
    expect(await snapshot("vu_e")).toEqual(before)
    await conn.commit()
    expect(await snapshot("vu_e")).toEqual(before)
  })

  it("keeps values of every storage the UPDATE wrote, also by executeMany", async () => {
    await conn.execute(`CREATE TABLE vu_types (id NUMBER PRIMARY KEY, n NUMBER(10,2), c CLOB, j JSON, iv INTERVAL DAY TO SECOND,
      tz TIMESTAMP(9) WITH TIME ZONE, ltz TIMESTAMP WITH LOCAL TIME ZONE, d DATE, t9 TIMESTAMP(9), bf BINARY_DOUBLE, vc VARCHAR2(40), nc NCHAR(5))`)
    await conn.executeMany("INSERT INTO vu_types (id) VALUES (:1)", [[1], [2], [3]])
    await conn.commit()
    await conn.execute(`UPDATE vu_types x SET x.n = DBMS_RANDOM.VALUE * 100, c = 'c' || vu_seq.NEXTVAL, j = JSON_OBJECT('a' VALUE DBMS_RANDOM.VALUE),
      iv = NUMTODSINTERVAL(DBMS_RANDOM.VALUE, 'SECOND'), tz = SYSTIMESTAMP, ltz = SYSTIMESTAMP, d = SYSDATE, t9 = SYSTIMESTAMP,
      bf = DBMS_RANDOM.VALUE, vc = TO_CHAR(DBMS_RANDOM.VALUE), nc = DBMS_RANDOM.STRING('U', 5) WHERE id = 1`)
    expect((await conn.executeMany("UPDATE vu_types SET vc = DBMS_RANDOM.STRING('X', 5) || :1, n = vu_seq.NEXTVAL WHERE id = :2", [["a", 2], ["b", 3]])).rowsAffected).toBe(2)
    const snapshotTypes = async () =>
      (await conn.execute(`SELECT id, n, TO_CHAR(c), JSON_SERIALIZE(j), TO_CHAR(iv), TO_CHAR(tz, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'),
        TO_CHAR(ltz, 'HH24:MI:SS.FF6'), TO_CHAR(d, 'HH24:MI:SS'), TO_CHAR(t9, 'HH24:MI:SS.FF9'), bf, vc, nc FROM vu_types ORDER BY id`)).rows as Array<Array<unknown>>
    const before = await snapshotTypes()
    expect(before[0]!.every((v) => v !== null)).toBe(true)
    expect(before.slice(1).every((row) => row[1] !== null && row[10] !== null)).toBe(true)
    await failDuplicate("vu_types")
    expect(await snapshotTypes()).toEqual(before)
    await conn.rollback()
  })

  it("keeps the values an UPDATE ... RETURNING INTO reported to the client", async () => {
    const out = { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, r: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    const res = await conn.execute("UPDATE vu_e SET n = vu_seq.NEXTVAL, r = DBMS_RANDOM.VALUE WHERE id = 3 RETURNING n, r INTO :n, :r", out)
    const { n, r } = res.outBinds as { n: Array<number>; r: Array<number> }
    const row = async () => (await conn.execute("SELECT n, r FROM vu_e WHERE id = 3")).rows
    expect(await row()).toEqual([[n[0], r[0]]])
    await failDuplicate("vu_e")
    expect(await row()).toEqual([[n[0], r[0]]])
    await conn.rollback()
  })
})
