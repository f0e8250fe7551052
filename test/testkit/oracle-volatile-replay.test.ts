/**
 * Statement-level atomicity with values that change on every evaluation: a failed statement undoes only itself
 * (Database Concepts, "Transactions", "Statement-Level Atomicity"), so the rows earlier statements of the transaction
 * wrote with `seq.NEXTVAL`, SYSDATE, SYSTIMESTAMP, SYS_GUID or DBMS_RANDOM keep the values they were written with,
 * and a sequence is not advanced again ("Sequence numbers are generated independently of tables ... a sequence
 * number ... is not rolled back", "CREATE SEQUENCE"). The test server recovers from a failed statement by replaying
 * the transaction (testkit/oracle/session-transaction.ts): these scenarios fail if the replay evaluates them again.
 * Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const snapshot = async (table: string): Promise<Array<Array<unknown>>> =>
  (await conn.execute(`SELECT id, TO_CHAR(d, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(ts, 'HH24:MI:SS.FF6'), r, RAWTOHEX(g), amount, TO_CHAR(tz, 'HH24:MI:SS.FF6 TZH:TZM'), TO_CHAR(iv), note FROM ${table} ORDER BY id`)).rows as Array<Array<unknown>>

describe("Oracle test server: a failed statement leaves earlier volatile values as they were written", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE SEQUENCE vr_seq")
    for (const table of ["vr_a", "vr_b", "vr_c", "vr_d"])
      await conn.execute(`CREATE TABLE ${table} (id NUMBER PRIMARY KEY, d DATE, ts TIMESTAMP(6), r NUMBER, g RAW(16), amount NUMBER(10,2),
        tz TIMESTAMP WITH TIME ZONE, iv INTERVAL DAY TO SECOND, note VARCHAR2(20))`)
    await conn.execute("CREATE TABLE vr_src (n NUMBER)")
    await conn.executeMany("INSERT INTO vr_src VALUES (:1)", Array.from({ length: 300 }, (_, i) => [i]))
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const volatileRow = (table: string, note: string) =>
    `INSERT INTO ${table} VALUES (vr_seq.NEXTVAL, SYSDATE, SYSTIMESTAMP, DBMS_RANDOM.VALUE, SYS_GUID(), ROUND(DBMS_RANDOM.VALUE * 1000, 2),
      SYSTIMESTAMP, INTERVAL '1 02:03:04.5' DAY TO SECOND, '${note}')`

  it("keeps INSERT ... VALUES rows and the sequence after a failed statement and after a duplicate key", async () => {
    await conn.execute(volatileRow("vr_a", "one"))
    await conn.execute(volatileRow("vr_a", "two"))
    const before = await snapshot("vr_a")
    expect(before).toHaveLength(2)
    expect(oraCode(await failure(() => conn.execute("INSERT INTO vr_missing VALUES (1)")))).toBe("ORA-00942")
    expect(await snapshot("vr_a")).toEqual(before)
    const firstId = before[0]![0] as number
    expect(oraCode(await failure(() => conn.execute(`INSERT INTO vr_a (id, note) VALUES (${firstId}, 'dup')`)))).toBe("ORA-00001")
    expect(await snapshot("vr_a")).toEqual(before)
    expect((await conn.execute("SELECT vr_seq.NEXTVAL FROM dual")).rows).toEqual([[firstId + 2]])
    await conn.commit()
    expect(await snapshot("vr_a")).toEqual(before)
  })

  it("keeps the rows of an INSERT ... SELECT of many rows", async () => {
    await conn.execute("INSERT INTO vr_b (id, r, g, note) SELECT vr_seq.NEXTVAL, DBMS_RANDOM.VALUE, SYS_GUID(), 'n' || n FROM vr_src")
    const before = await snapshot("vr_b")
    expect(before).toHaveLength(300)
    expect(oraCode(await failure(() => conn.execute("UPDATE vr_b SET amount = 'x'")))).toBe("ORA-01722")
    expect(await snapshot("vr_b")).toEqual(before)
    await conn.rollback()
  })

  it("keeps rows written by executeMany, by a PL/SQL block, and before a savepoint rolled back to", async () => {
    await conn.executeMany("INSERT INTO vr_c (id, r, note) VALUES (vr_seq.NEXTVAL, DBMS_RANDOM.VALUE, :1)", [["m1"], ["m2"], ["m3"]])
    await conn.execute(`BEGIN ${volatileRow("vr_c", "block")}; END;`)
    const before = await snapshot("vr_c")
    expect(before).toHaveLength(4)
    await conn.execute("SAVEPOINT sp1")
    await conn.execute(volatileRow("vr_d", "after"))
    await conn.execute("ROLLBACK TO SAVEPOINT sp1")
    expect(await snapshot("vr_c")).toEqual(before)
    expect(await snapshot("vr_d")).toEqual([])
    const e = await failure(() => conn.execute(`BEGIN ${volatileRow("vr_d", "fails")}; INSERT INTO vr_d (id) VALUES (NULL); END;`))
    expect(oraCode(e)).toBe("ORA-01400")
    expect(await snapshot("vr_c")).toEqual(before)
    expect(await snapshot("vr_d")).toEqual([])
    await conn.rollback()
  })

  it("keeps the row an INSERT ... RETURNING INTO reported to the client", async () => {
    const out = { id: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, r: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    const r = await conn.execute("INSERT INTO vr_d (id, r, g) VALUES (vr_seq.NEXTVAL, DBMS_RANDOM.VALUE, SYS_GUID()) RETURNING id, r INTO :id, :r", out)
    const { id, r: value } = r.outBinds as { id: Array<number>; r: Array<number> }
    const before = await snapshot("vr_d")
    expect(before.map((row) => row.slice(0, 4))).toEqual([[id[0], null, null, value[0]]])
    expect(oraCode(await failure(() => conn.execute("INSERT INTO vr_missing VALUES (1)")))).toBe("ORA-00942")
    expect(await snapshot("vr_d")).toEqual(before)
    await conn.rollback()
  })
})
