import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// A column name is typed by the tables that can hold it where it stands: an INSERT's target columns are not in scope of
// its SELECT or VALUES (SQL Language Reference, "INSERT": the subquery's columns come from its own FROM clause), so a
// VARCHAR2 `note` of the source table is text even when the target has a DATE `note`. Before, a name that was a DATE
// in any table of the statement was framed as one: TO_CHAR(CAST(note AS DATE)) failed ORA-01722 on 'hello'.
describe("Oracle test server: datetime typing of names by the tables in scope (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE dns_dst (id NUMBER, v VARCHAR2(60), note DATE, d DATE)`)
    await conn.execute(`CREATE TABLE dns_src (id NUMBER, note VARCHAR2(20), d VARCHAR2(20))`)
    await conn.execute(`INSERT INTO dns_src VALUES (1, 'hello', '01-JAN-24')`)
    await conn.execute(`INSERT INTO dns_src VALUES (2, NULL, '02-JAN-24')`)
    await conn.execute(`CREATE TABLE dns_days (id NUMBER, d DATE)`)
    await conn.execute(`INSERT INTO dns_days VALUES (1, DATE '2024-01-01')`)
    await conn.execute(`CREATE TABLE dns_texts (id NUMBER, d VARCHAR2(20))`)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const stored = async () => (await conn.execute(`SELECT id, v FROM dns_dst ORDER BY id`)).rows
  const clear = () => conn.execute(`DELETE FROM dns_dst`)

  it("NVL / COALESCE / CASE of a VARCHAR2 source column beside a DATE target column of that name stay text", async () => {
    await clear()
    await conn.execute(`INSERT INTO dns_dst (id, v) SELECT id, NVL(note, 'none') FROM dns_src`)
    expect(await stored()).toEqual([[1, "hello"], [2, "none"]])
    await clear()
    await conn.execute(`INSERT INTO dns_dst (id, v) SELECT id, COALESCE(note, 'none') FROM dns_src`)
    expect(await stored()).toEqual([[1, "hello"], [2, "none"]])
    await clear()
    await conn.execute(`INSERT INTO dns_dst (id, v) SELECT id, CASE WHEN id = 1 THEN note ELSE 'other' END FROM dns_src`)
    expect(await stored()).toEqual([[1, "hello"], [2, "other"]])
  })

  it("NVL / DECODE / NVL2 of a VARCHAR2 source column beside a DATE target column of that name stay text", async () => {
    await clear()
    await conn.execute(`INSERT INTO dns_dst (id, v) SELECT id, NVL(d, 'none') FROM dns_src`)
    await conn.execute(`INSERT INTO dns_dst (id, v) SELECT id + 10, DECODE(id, 1, d, 'x') FROM dns_src`)
    await conn.execute(`INSERT INTO dns_dst (id, v) SELECT id + 20, NVL2(note, d, 'none') FROM dns_src`)
    expect(await stored()).toEqual([[1, "01-JAN-24"], [2, "02-JAN-24"], [11, "01-JAN-24"], [12, "x"], [21, "01-JAN-24"], [22, "none"]])
  })

  it("a DATE source column compared with text reads it in NLS_DATE_FORMAT beside a VARCHAR2 target column of that name", async () => {
    // before, the target's VARCHAR2 `d` made the name no DATE for sure: DuckDB's cast of '01-JAN-24' failed (ORA-01722)
    await conn.execute(`INSERT INTO dns_texts (id, d) SELECT id, 'found' FROM dns_days WHERE d = '01-JAN-24'`)
    await conn.execute(`INSERT INTO dns_texts (id, d) SELECT id + 1, 'found' FROM dns_days WHERE d BETWEEN '31-DEC-23' AND '02-JAN-24'`)
    expect((await conn.execute(`SELECT id, d FROM dns_texts ORDER BY id`)).rows).toEqual([[1, "found"], [2, "found"]])
  })

  it("a VARCHAR2 column compared with text is compared as text beside a DATE column of that name", async () => {
    await clear()
    await conn.execute(`INSERT INTO dns_dst (id, v) SELECT s.id, s.d FROM dns_src s WHERE s.d = '01-JAN-24'`)
    expect(await stored()).toEqual([[1, "01-JAN-24"]])
    // a text bind written into the target's DATE `d` is still read in NLS_DATE_FORMAT
    await conn.execute(`INSERT INTO dns_dst (id, d) VALUES (21, :1)`, ["01-JAN-24"])
    expect((await conn.execute(`SELECT TO_CHAR(d, 'YYYY-MM-DD') FROM dns_dst WHERE id = 21`)).rows).toEqual([["2024-01-01"]])
  })
})
