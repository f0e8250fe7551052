import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// TIMESTAMP(p) WITH TIME ZONE variables in PL/SQL, through raw node-oracledb. The declared type keeps "WITH TIME
// ZONE" after a precision (it was read as a plain TIMESTAMP(p)), the variable holds its value's own offset or region
// (TZH, TZM, TZR print it: they printed +00 / 00 / +00:00, the value having been taken as a UTC DATE), and the value is
// rounded to p fraction digits as a value written into such a column is (PL/SQL Language Reference, "PL/SQL Data
// Types" -> SQL Language Reference, "TIMESTAMP WITH TIME ZONE Data Type": "fractional_seconds_precision ... the number
// of digits in the fractional part of the SECOND datetime field"; "Datetime Format Elements": TZH / TZM / TZR are the
// value's time zone hour, minute and region).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: PL/SQL TIMESTAMP(p) WITH TIME ZONE variables", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const text = async (block: string): Promise<string> =>
    ((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } })).outBinds as { s: string }).s

  const zoneParts = ":s := TO_CHAR(z, 'TZH') || '|' || TO_CHAR(z, 'TZM') || '|' || TO_CHAR(z, 'TZR') || '|' || TO_CHAR(z, 'YYYY-MM-DD HH24:MI:SS.FF');"

  it("TZH, TZM and TZR of a TIMESTAMP(3) WITH TIME ZONE variable print its offset (were +00, 00, +00:00)", async () => {
    expect(await text(`DECLARE z TIMESTAMP(3) WITH TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.123456 +02:00'; BEGIN ${zoneParts} END;`)).toBe(
      "+02|00|+02:00|2024-05-06 07:08:09.123"
    )
    expect(await text(`DECLARE z TIMESTAMP WITH TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.123456 -05:30'; BEGIN ${zoneParts} END;`)).toBe(
      "-05|30|-05:30|2024-05-06 07:08:09.123456"
    )
  })

  it("the value keeps its own zone whatever the session time zone, and EXTRACT reads it", async () => {
    await conn.execute("ALTER SESSION SET TIME_ZONE = '-03:00'")
    try {
      const block = "DECLARE z TIMESTAMP(6) WITH TIME ZONE; BEGIN z := TIMESTAMP '2024-05-06 07:08:09.5 +02:00'; :s := TO_CHAR(z, 'HH24:MI:SS TZH:TZM') || ' ' || EXTRACT(TIMEZONE_HOUR FROM z) || ' ' || EXTRACT(HOUR FROM z); END;"
      // EXTRACT(HOUR ...) of a zoned value is its UTC hour (SQL Language Reference, "EXTRACT (datetime)")
      expect(await text(block)).toBe("07:08:09 +02:00 2 5")
    } finally {
      await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    }
  })

  it("the value is rounded to the declared precision, its offset or region kept", async () => {
    expect(await text("DECLARE z TIMESTAMP(3) WITH TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.1235 -05:30'; BEGIN :s := TO_CHAR(z, 'HH24:MI:SS.FF9 TZH:TZM'); END;")).toBe(
      "07:08:09.124000000 -05:30"
    )
    expect(await text("DECLARE z TIMESTAMP(0) WITH TIME ZONE; BEGIN z := TIMESTAMP '2024-05-06 07:08:09.6 Europe/Berlin'; :s := TO_CHAR(z, 'YYYY-MM-DD HH24:MI:SS TZR'); END;")).toBe(
      "2024-05-06 07:08:10 Europe/Berlin"
    )
    // a LOCAL TIME ZONE variable is rounded to its precision too (shown in the session time zone, +00:00 here)
    expect(await text("DECLARE z TIMESTAMP(3) WITH LOCAL TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.1235 +02:00'; BEGIN :s := TO_CHAR(z, 'HH24:MI:SS.FF3'); END;")).toBe("05:08:09.124")
  })

  it("a %TYPE of a TIMESTAMP(3) WITH TIME ZONE column and the column in a block's SQL keep the value's offset (were +00:00)", async () => {
    await conn.execute("CREATE TABLE pzt (id NUMBER, tz TIMESTAMP(3) WITH TIME ZONE)")
    await conn.execute("INSERT INTO pzt VALUES (1, TIMESTAMP '2024-05-06 07:08:09.123456 +02:00')")
    expect(await text("DECLARE z pzt.tz%TYPE; BEGIN SELECT tz INTO z FROM pzt WHERE id = 1; :s := TO_CHAR(z, 'TZH:TZM HH24:MI:SS.FF'); END;")).toBe("+02:00 07:08:09.123")
    expect(await text("BEGIN SELECT TO_CHAR(tz, 'TZH:TZM HH24:MI:SS') INTO :s FROM pzt WHERE id = 1; END;")).toBe("+02:00 07:08:09")
    // a zoned variable written into the column keeps its offset there
    expect(await text("DECLARE z TIMESTAMP(3) WITH TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.5 -03:00'; BEGIN INSERT INTO pzt VALUES (2, z); SELECT TO_CHAR(tz, 'TZH:TZM HH24:MI:SS') INTO :s FROM pzt WHERE id = 2; END;")).toBe(
      "-03:00 07:08:09"
    )
    const fetched = await conn.execute("SELECT TO_CHAR(tz, 'TZH:TZM HH24:MI:SS.FF') FROM pzt ORDER BY id")
    expect(fetched.rows).toEqual([["+02:00 07:08:09.123"], ["-03:00 07:08:09.500"]])
    await conn.rollback()
  })

  it("zoned variables compare as instants and go to a TIMESTAMP WITH TIME ZONE OUT bind as their instant", async () => {
    expect(
      await text("DECLARE z TIMESTAMP(3) WITH TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.5 +02:00'; y TIMESTAMP WITH TIME ZONE := TIMESTAMP '2024-05-06 05:08:09.5 +00:00'; BEGIN IF z = y THEN :s := 'same'; ELSE :s := 'differ'; END IF; END;")
    ).toBe("same")
    const r = await conn.execute("DECLARE z TIMESTAMP(3) WITH TIME ZONE := TIMESTAMP '2024-05-06 07:08:09.1236 +02:00'; BEGIN :t := z; END;", {
      t: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_TIMESTAMP_TZ }
    })
    expect(((r.outBinds as { t: Date }).t).toISOString()).toBe("2024-05-06T05:08:09.124Z")
  })

  // a record read from a table or query (`%ROWTYPE`, a cursor FOR loop's row) holds a TIMESTAMP WITH TIME ZONE column's
  // value with its offset, as a variable of that type does: TZH / TZM printed +00:00 (the field was taken as a plain
  // TIMESTAMP), EXTRACT(TIMEZONE_HOUR) failed ORA-30076 and `+ INTERVAL` ORA-00932
  it("a %ROWTYPE or cursor row's TIMESTAMP WITH TIME ZONE field keeps its offset", async () => {
    await conn.execute("CREATE TABLE zoned_rows (id NUMBER, z TIMESTAMP WITH TIME ZONE)")
    try {
      await conn.execute("INSERT INTO zoned_rows VALUES (1, TIMESTAMP '2024-05-06 07:08:09.5 +02:00')")
      expect(await text("DECLARE r zoned_rows%ROWTYPE; BEGIN SELECT * INTO r FROM zoned_rows; :s := TO_CHAR(r.z, 'YYYY-MM-DD HH24:MI:SS.FF1 TZH:TZM'); END;")).toBe("2024-05-06 07:08:09.5 +02:00")
      expect(await text("BEGIN FOR r IN (SELECT z FROM zoned_rows) LOOP :s := TO_CHAR(r.z, 'HH24:MI TZH:TZM') || ' ' || EXTRACT(TIMEZONE_HOUR FROM r.z); END LOOP; END;")).toBe("07:08 +02:00 2")
      expect(await text("DECLARE r zoned_rows%ROWTYPE; BEGIN SELECT * INTO r FROM zoned_rows; :s := TO_CHAR(r.z + INTERVAL '1' HOUR, 'HH24:MI TZH:TZM'); END;")).toBe("08:08 +02:00")
    } finally {
      await conn.execute("DROP TABLE zoned_rows")
    }
  })
})

