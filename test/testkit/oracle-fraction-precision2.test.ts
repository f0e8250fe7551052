import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// The fractional second precision of TIMESTAMP values the first file (oracle-fraction-precision.test.ts) left at six:
// FF without digits prints "the precision specified for the datetime data type" ("Datetime Format Elements", SQL
// Language Reference), and the value is described with that precision (node-oracledb's metaData `precision`).
describe("Oracle test server: TIMESTAMP precisions of literals, writes, PL/SQL values and unqualified columns (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const described = async (sql: string) =>
    ((await conn.execute(sql)).metaData as Array<{ dbTypeName: string; precision: number }>).map((m) => [m.dbTypeName, m.precision])
  const text = async (block: string): Promise<string> =>
    ((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } })).outBinds as { s: string }).s

  // the literal and TO_TIMESTAMP print nine FF digits (oracle-fraction-precision.test.ts), so they are described with
  // precision 9 (unconfirmed on Oracle: no source found gives their described precision; testkit/oracle/README.md)
  it("a TIMESTAMP literal and TO_TIMESTAMP are described as TIMESTAMP(9), and fetch their fraction", async () => {
    expect(await described(
      `SELECT TIMESTAMP '2024-01-01 10:00:00.125', TO_TIMESTAMP('2024-01-01 10:00:00.5', 'YYYY-MM-DD HH24:MI:SS.FF') x, TIMESTAMP '2024-01-01 10:00:00' AS y, ` +
        `TIMESTAMP '2024-01-01 10:00:00.5 +02:00' FROM dual`
    )).toEqual([["TIMESTAMP", 9], ["TIMESTAMP", 9], ["TIMESTAMP", 9], ["TIMESTAMP WITH TIME ZONE", 9]])
    expect(await described(`SELECT * FROM (SELECT TIMESTAMP '2024-01-01 10:00:00.125' a, TO_TIMESTAMP('2024-01-01', 'YYYY-MM-DD') b, TIMESTAMP '2024-01-01 10:00:00 +02:00' c FROM dual)`)).toEqual([
      ["TIMESTAMP", 9],
      ["TIMESTAMP", 9],
      ["TIMESTAMP WITH TIME ZONE", 9]
    ])
    const viewed = await conn.execute(`SELECT c FROM (SELECT TIMESTAMP '2024-01-01 10:00:00.25 +02:00' c FROM dual)`)
    expect((viewed.rows[0] as Array<Date>)[0]!.toISOString()).toBe("2024-01-01T08:00:00.250Z")
    const r = await conn.execute(`SELECT TIMESTAMP '2024-01-01 10:00:00.125', TO_TIMESTAMP('2024-01-01 10:00:00.5', 'YYYY-MM-DD HH24:MI:SS.FF'), TIMESTAMP '2024-01-01 10:00:00.5 +02:00' FROM dual`)
    expect((r.rows[0] as Array<Date>).map((d) => d.toISOString())).toEqual(["2024-01-01T10:00:00.125Z", "2024-01-01T10:00:00.500Z", "2024-01-01T08:00:00.500Z"])
  })

  // "If you try to add a row with more digits in your fractional second than your TIMESTAMP can store, your fraction is
  // rounded" (Oracle Database 10g SQL, Oracle Press, quoted by java2s.com "Use timestamps")
  it("INSERT ... SELECT t.* over a join and UPDATE ... SET (c) = (subquery) round into a TIMESTAMP(0-5) column", async () => {
    await conn.execute(`CREATE TABLE fp2src (id NUMBER, ts TIMESTAMP(6))`)
    await conn.execute(`CREATE TABLE fp2key (id NUMBER)`)
    await conn.execute(`CREATE TABLE fp2dst (id NUMBER, ts TIMESTAMP(2))`)
    await conn.execute(`INSERT INTO fp2src VALUES (1, TIMESTAMP '2024-01-01 10:00:00.125')`)
    await conn.execute(`INSERT INTO fp2key VALUES (1)`)
    await conn.execute(`INSERT INTO fp2dst SELECT s.* FROM fp2src s JOIN fp2key k ON k.id = s.id`)
    await conn.execute(`INSERT INTO fp2dst VALUES (2, NULL)`)
    await conn.execute(`UPDATE fp2dst SET (ts) = (SELECT TIMESTAMP '2024-01-01 10:00:00.994' FROM dual) WHERE id = 2`)
    const r = await conn.execute(`SELECT id, TO_CHAR(ts, 'SS.FF9') FROM fp2dst ORDER BY id`)
    expect(r.rows).toEqual([[1, "00.130000000"], [2, "00.990000000"]])
    await conn.rollback()
  })

  it("FF of PL/SQL TIMESTAMP(p) WITH LOCAL TIME ZONE variables and zoned columns and fields prints p digits", async () => {
    expect(await text("DECLARE z TIMESTAMP(3) WITH LOCAL TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.1235 +00:00'; BEGIN :s := TO_CHAR(z, 'SS.FF') || '|' || TO_CHAR(z); END;")).toBe(
      "09.124|06-MAY-24 07.08.09.124 AM"
    )
    await conn.execute("CREATE TABLE fp2z (id NUMBER, tz TIMESTAMP(3) WITH TIME ZONE)")
    await conn.execute("INSERT INTO fp2z VALUES (1, TIMESTAMP '2024-05-06 07:08:09.123456 +02:00')")
    expect(await text("BEGIN SELECT TO_CHAR(tz, 'SS.FF TZH:TZM') INTO :s FROM fp2z WHERE id = 1; END;")).toBe("09.123 +02:00")
    expect(await text("DECLARE r fp2z%ROWTYPE; BEGIN SELECT * INTO r FROM fp2z; :s := TO_CHAR(r.tz, 'SS.FF TZH:TZM'); END;")).toBe("09.123 +02:00")
    expect(await text("BEGIN FOR r IN (SELECT tz FROM fp2z) LOOP :s := TO_CHAR(r.tz, 'SS.FF'); END LOOP; END;")).toBe("09.123")
    await conn.rollback()
  })

  // an unqualified column name is the one column of that name among the query block's FROM items; two of them make it
  // ambiguous, ORA-00918 (SQL Language Reference, "Selecting from Multiple Tables" / Error Messages, ORA-00918)
  it("FF of an unqualified column prints the precision of the one table of its query block that has it", async () => {
    await conn.execute(`CREATE TABLE fp2a (id NUMBER, ts TIMESTAMP(2))`)
    await conn.execute(`CREATE TABLE fp2b (id NUMBER, tb TIMESTAMP(4), ts TIMESTAMP(4))`)
    await conn.execute(`INSERT INTO fp2a VALUES (1, TIMESTAMP '2024-01-01 10:00:00.12')`)
    await conn.execute(`INSERT INTO fp2b VALUES (1, TIMESTAMP '2024-01-01 10:00:00.1234', TIMESTAMP '2024-01-01 10:00:00.5678')`)
    // the subquery's `ts` is its own FROM item's, the outer `ts` fp2a's (fp2b is not in the outer block)
    const r = await conn.execute(`SELECT TO_CHAR(ts, 'SS.FF'), (SELECT TO_CHAR(ts, 'SS.FF') FROM fp2b WHERE fp2b.id = a.id), ts || '' FROM fp2a a`)
    expect(r.rows).toEqual([["00.12", "00.5678", "01-JAN-24 10.00.00.12 AM"]])
    const joined = await conn.execute(`SELECT TO_CHAR(a.ts, 'SS.FF'), (SELECT TO_CHAR(ts, 'SS.FF') FROM fp2a WHERE fp2a.id = b.id) FROM fp2b b JOIN fp2a a ON a.id = b.id`)
    expect(joined.rows).toEqual([["00.12", "00.12"]])
    await expect(conn.execute(`SELECT TO_CHAR(ts, 'SS.FF') FROM fp2a a, fp2b b`)).rejects.toThrow(/ORA-00918/)
  })
})
