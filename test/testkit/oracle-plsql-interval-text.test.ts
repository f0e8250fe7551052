import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, openConnection, oracledb } from "./oracle/helpers.ts"

// INTERVAL values of PL/SQL as text and in a block's SQL, through raw node-oracledb. An interval converted to
// VARCHAR2 (TO_CHAR, `||`, an assignment to a character variable or bind, DBMS_OUTPUT.PUT_LINE's VARCHAR2 parameter)
// prints Oracle's interval literal form: sign, the leading field at its precision, the seconds at their fraction digits
// (SQL Language Reference, "INTERVAL DAY TO SECOND Data Type", "Implicit Data Conversion"; PL/SQL's defaults are DAY(2)
// TO SECOND(6) and YEAR(2) TO MONTH). These printed the engine's `2 days 04:00:00`.
const declarations = "v INTERVAL DAY TO SECOND := INTERVAL '1 02:00:00' DAY TO SECOND; y INTERVAL YEAR TO MONTH := INTERVAL '1-2' YEAR TO MONTH;"
const outText = { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }

describe("Oracle test server: PL/SQL INTERVAL values as text and in a block's SQL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const text = async (body: string, decl = ""): Promise<string> => ((await conn.execute(`DECLARE ${declarations} ${decl} BEGIN ${body} END;`, outText)).outBinds as { s: string }).s

  it("TO_CHAR and || of an interval expression of variables print Oracle's interval form", async () => {
    expect(await text(":s := TO_CHAR(v * 2);")).toBe("+02 04:00:00.000000")
    expect(await text(":s := 'x' || (v * 2);")).toBe("x+02 04:00:00.000000")
    expect(await text(":s := TO_CHAR(v + INTERVAL '30' MINUTE) || ' ' || TO_CHAR(y * 2);")).toBe("+01 02:30:00.000000 +02-04")
  })

  it("an INTERVAL value assigned to a VARCHAR2 OUT bind or variable is Oracle's interval text", async () => {
    expect(await text(":s := v;")).toBe("+01 02:00:00.000000")
    expect(await text(":s := y;")).toBe("+01-02")
    expect(await text("c := v * 2; :s := c;", "c VARCHAR2(40);")).toBe("+02 04:00:00.000000")
    expect(await text("c := y; :s := c;", "c VARCHAR2(40);")).toBe("+01-02")
    // a TIMESTAMP difference as TO_CHAR prints it (was the engine's `1 day 00:00:00.5`), DATE - DATE a number
    const stamps = "t TIMESTAMP := TIMESTAMP '2024-01-02 00:00:00.5'; d DATE := DATE '2024-01-01';"
    expect(await text("c := t - TIMESTAMP '2024-01-01 00:00:00'; :s := c || ' ' || TO_CHAR(t - TIMESTAMP '2024-01-01 00:00:00');", `${stamps} c VARCHAR2(60);`)).toBe(
      "+000000001 00:00:00.500000 +000000001 00:00:00.500000"
    )
    expect(await text(":s := d - t;", stamps)).toBe("-000000001 00:00:00.500000")
    expect(await text(":s := DATE '2024-01-05' - d;", stamps)).toBe("4")
    // a character subtype too
    expect(await text("c := v; :s := c;", "SUBTYPE txt IS VARCHAR2(40); c txt;")).toBe("+01 02:00:00.000000")
  })

  it("DBMS_OUTPUT.PUT_LINE of an INTERVAL variable prints Oracle's interval text", async () => {
    await conn.execute(`DECLARE ${declarations} BEGIN DBMS_OUTPUT.ENABLE(NULL); DBMS_OUTPUT.PUT_LINE(v); DBMS_OUTPUT.PUT_LINE(y); END;`)
    const lines = await conn.execute("BEGIN DBMS_OUTPUT.GET_LINES(:lines, :n); END;", {
      lines: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200, maxArraySize: 10 },
      n: { dir: oracledb.BIND_INOUT, val: 10 }
    })
    expect(lines.outBinds).toEqual({ lines: ["+01 02:00:00.000000", "+01-02"], n: 2 })
  })

  // an INTERVAL variable compared with an exact-storage column (DAY(9) TO SECOND(9)) is brought to that storage, as a
  // client's bind is (intervals.ts intervalParamsFor); it failed ORA-00932
  it("a block's SQL compares an exact-storage interval column with an INTERVAL variable", async () => {
    await conn.execute("CREATE TABLE pit_exact (id NUMBER, d INTERVAL DAY(9) TO SECOND(9), m INTERVAL YEAR(9) TO MONTH)")
    try {
      await conn.execute("INSERT INTO pit_exact VALUES (1, INTERVAL '1 00:00:00.000000001' DAY TO SECOND(9), INTERVAL '1-2' YEAR TO MONTH)")
      await conn.execute("INSERT INTO pit_exact VALUES (2, INTERVAL '2 00:00:00' DAY TO SECOND, INTERVAL '3' YEAR)")
      expect(await text("SELECT LISTAGG(id, ',') WITHIN GROUP (ORDER BY id) INTO :s FROM pit_exact WHERE d >= v;")).toBe("2")
      expect(await text("SELECT LISTAGG(id, ',') WITHIN GROUP (ORDER BY id) INTO :s FROM pit_exact WHERE v > d OR d = v;")).toBe("1")
      expect(await text("SELECT LISTAGG(id, ',') WITHIN GROUP (ORDER BY id) INTO :s FROM pit_exact WHERE m = y;")).toBe("1")
      expect(await text("UPDATE pit_exact SET id = id * 10 WHERE d >= v; DELETE FROM pit_exact WHERE m > y; :s := SQL%ROWCOUNT;")).toBe("1")
      expect((await conn.execute("SELECT id FROM pit_exact")).rows).toEqual([[1]])
    } finally {
      await conn.execute("DROP TABLE pit_exact")
    }
  })

  // a client's interval bind was brought to the column's storage for the statement but not for the query that finds
  // the rows an UPDATE / DELETE locks, which failed ORA-00932
  it("a client's UPDATE and DELETE compare an exact-storage interval column with an interval bind", async () => {
    await conn.execute("CREATE TABLE pit_bind (id NUMBER, d INTERVAL DAY(9) TO SECOND(9))")
    try {
      await conn.execute("INSERT INTO pit_bind VALUES (1, INTERVAL '2' DAY)")
      const bind = { val: new oracledb.IntervalDS({ days: 1, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }), type: oracledb.DB_TYPE_INTERVAL_DS }
      expect((await conn.execute("UPDATE pit_bind SET id = 2 WHERE d >= :b", { b: bind })).rowsAffected).toBe(1)
      expect((await conn.execute("DELETE FROM pit_bind WHERE d > :b", { b: bind })).rowsAffected).toBe(1)
    } finally {
      await conn.execute("DROP TABLE pit_bind")
    }
  })

  // "Datetime/Interval Arithmetic": TIMESTAMP - TIMESTAMP is an INTERVAL DAY TO SECOND; a cursor row's field was a
  // number of days
  it("a cursor row's TIMESTAMP field minus a TIMESTAMP is an INTERVAL DAY TO SECOND", async () => {
    await conn.execute("CREATE TABLE pit_ts (a TIMESTAMP, b TIMESTAMP)")
    try {
      await conn.execute("INSERT INTO pit_ts VALUES (TIMESTAMP '2024-01-02 02:30:00.5', TIMESTAMP '2024-01-01 00:00:00')")
      const interval = async (expr: string) => {
        const block = `DECLARE w INTERVAL DAY(9) TO SECOND; d DATE := DATE '2024-01-01'; BEGIN FOR r IN (SELECT a, b FROM pit_ts) LOOP w := ${expr}; END LOOP; :o := w; END;`
        return ((await conn.execute(block, { o: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_INTERVAL_DS } })).outBinds as { o: unknown }).o
      }
      expect(await interval("r.a - r.b")).toEqual(ds(1, 2, 30, 0, 500_000_000))
      expect(await interval("r.a - d")).toEqual(ds(1, 2, 30, 0, 500_000_000))
      expect(await interval("r.a - DATE '2024-01-01'")).toEqual(ds(1, 2, 30, 0, 500_000_000))
      expect(await text("FOR r IN (SELECT a, b FROM pit_ts) LOOP :s := EXTRACT(HOUR FROM (r.a - r.b)); END LOOP;")).toBe("2")
    } finally {
      await conn.execute("DROP TABLE pit_ts")
    }
  })

  // a LOCAL TIME ZONE value plus an INTERVAL literal is a LOCAL TIME ZONE value ("Datetime/Interval Arithmetic"); it
  // failed ORA-00932
  it("a LOCAL TIME ZONE variable or bind plus or minus an INTERVAL literal", async () => {
    const zone = ((await conn.execute("SELECT SESSIONTIMEZONE FROM dual")).rows as Array<[string]>)[0]![0]
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+02:00'")
    try {
      // 10:00 UTC is 12:00 in the session time zone, where a LOCAL TIME ZONE value shows
      const decl = "l TIMESTAMP WITH LOCAL TIME ZONE := TIMESTAMP '2024-01-01 10:00:00 +00:00'; w TIMESTAMP WITH LOCAL TIME ZONE;"
      expect(await text(":s := TO_CHAR(l + INTERVAL '1' HOUR, 'YYYY-MM-DD HH24:MI');", decl)).toBe("2024-01-01 13:00")
      expect(await text(":s := TO_CHAR(l - INTERVAL '1' DAY, 'DD HH24:MI') || ' ' || TO_CHAR(INTERVAL '30' MINUTE + l, 'HH24:MI');", decl)).toBe("31 12:00 12:30")
      expect(await text("w := l + INTERVAL '1-1' YEAR TO MONTH; :s := TO_CHAR(w, 'YYYY-MM-DD HH24:MI');", decl)).toBe("2025-02-01 12:00")
      const bound = await conn.execute("BEGIN :s := TO_CHAR(:l + INTERVAL '90' MINUTE, 'YYYY-MM-DD HH24:MI'); END;", {
        ...outText,
        l: { val: new Date(Date.UTC(2024, 0, 1, 10, 0, 0)), type: oracledb.DB_TYPE_TIMESTAMP_LTZ }
      })
      expect((bound.outBinds as { s: string }).s).toBe("2024-01-01 13:30")
    } finally {
      await conn.execute(`ALTER SESSION SET TIME_ZONE = '${zone}'`)
    }
  })
})
