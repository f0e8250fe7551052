import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// NEXTVAL in both branches of a MERGE, through raw node-oracledb: "the sequence is incremented once for each row and
// returns the same value for all occurrences of NEXTVAL for that row" (SQL Language Reference, "Sequence
// Pseudocolumns"). The server took one value too many per row (a matched row 1, the inserted row 3, the next 4).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: MERGE takes one sequence value per merged row", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE SEQUENCE msq")
    await conn.execute("CREATE TABLE mt (id NUMBER, x NUMBER)")
    await conn.execute("CREATE TABLE ms (k NUMBER)")
    await conn.execute("INSERT INTO mt VALUES (1, 0)")
    await conn.executeMany("INSERT INTO ms VALUES (:1)", [[1], [2]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("one value per source row whichever branch merges it, NEXTVAL and CURRVAL of a row alike", async () => {
    const merged = await conn.execute("MERGE INTO mt USING (SELECT k FROM ms) s ON (mt.id = s.k) WHEN MATCHED THEN UPDATE SET x = msq.NEXTVAL WHEN NOT MATCHED THEN INSERT VALUES (s.k + 10, msq.NEXTVAL)")
    expect(merged.rowsAffected).toBe(2)
    const rows = (await conn.execute("SELECT id, x FROM mt ORDER BY id")).rows as Array<[number, number]>
    expect(rows.map(([id]) => id)).toEqual([1, 12])
    expect(rows.map(([, x]) => x).sort()).toEqual([1, 2])
    expect((await conn.execute("SELECT msq.NEXTVAL FROM dual")).rows).toEqual([[3]])
    // a table source with an alias for the target, NEXTVAL and CURRVAL in one branch: one value (4 and 5)
    await conn.execute("MERGE INTO mt m USING ms ON (m.id = ms.k) WHEN MATCHED THEN UPDATE SET x = msq.NEXTVAL + 100 * msq.CURRVAL WHEN NOT MATCHED THEN INSERT (id, x) VALUES (ms.k, msq.NEXTVAL)")
    const after = (await conn.execute("SELECT id, x FROM mt ORDER BY id")).rows as Array<[number, number]>
    expect(after.map(([id]) => id)).toEqual([1, 2, 12])
    expect([after[0]![1], after[1]![1]].sort()).toEqual(after[0]![1] > 100 ? [5, 404].sort() : [4, 505].sort())
    expect((await conn.execute("SELECT msq.NEXTVAL FROM dual")).rows).toEqual([[6]])
  })
})
