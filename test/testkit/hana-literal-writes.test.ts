import { describe, expect, it } from "@effect/vitest"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/**
 * Literals in SQL text written into DECIMAL(p,s) and SECONDDATE columns keep what HANA keeps: extra fraction digits
 * and fractions of a second are cut off, never rounded (SAP HANA SQL Reference, "Numeric Data Types": DECIMAL(5,4)
 * stores 3.141592 as 3.1415; "Datetime Data Types": SECONDDATE holds whole seconds).
 */
describe.each([1, 8])("HANA test server: literals written exactly at data format version %i (raw hdb client)", (dfv) => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: dfv } }, (opened) => (c = opened.client))

  const seconds = (s: string): string => (dfv >= 4 ? s : s.replace(" ", "T"))

  it("a DECIMAL(p,s) literal in INSERT … VALUES keeps s fraction digits, truncated", async () => {
    await exec(c, "CREATE TABLE decl (id INTEGER, v DECIMAL(5,2), w DECIMAL(5,4))")
    await exec(c, "INSERT INTO decl VALUES (1, 1.239, 3.141592)")
    await exec(c, "INSERT INTO decl (w, id, v) VALUES (-2.71828, 2, -1.999), (0.99999, 3, .005)")
    expect(await exec(c, "SELECT v, w FROM decl ORDER BY id")).toEqual([
      { V: "1.23", W: "3.1415" },
      { V: "-1.99", W: "-2.7182" },
      { V: "0.00", W: "0.9999" }
    ])
  })

  it("a DECIMAL(p,s) literal in UPDATE … SET, UPSERT, REPLACE and a prepared INSERT is truncated as well", async () => {
    await exec(c, "CREATE TABLE decu (id INTEGER, v DECIMAL(5,2))")
    await exec(c, "INSERT INTO decu VALUES (1, 0), (2, 0)")
    await exec(c, "UPDATE decu SET v = 9.999 WHERE id = 1")
    await exec(c, "UPDATE decu SET v = -0.019 WHERE id = 2")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO decu VALUES (?, 4.567)", cb))
    await call((cb) => st.exec([3], cb))
    expect(await exec(c, "SELECT v FROM decu ORDER BY id")).toEqual([{ V: "9.99" }, { V: "-0.01" }, { V: "4.56" }])
    await exec(c, "CREATE TABLE decup (id INTEGER PRIMARY KEY, v DECIMAL(5,2))")
    await exec(c, "UPSERT decup VALUES (1, 2.345) WITH PRIMARY KEY")
    await exec(c, "UPSERT decup (id, v) VALUES (1, 6.789) WITH PRIMARY KEY")
    await exec(c, "REPLACE decup VALUES (2, 0.999) WITH PRIMARY KEY")
    expect(await exec(c, "SELECT v FROM decup ORDER BY id")).toEqual([{ V: "6.78" }, { V: "0.99" }])
  })

  it("a SECONDDATE text literal keeps whole seconds, truncated, in INSERT and UPDATE", async () => {
    await exec(c, "CREATE TABLE sdl (id INTEGER, sd SECONDDATE)")
    await exec(c, "INSERT INTO sdl VALUES (1, '2024-01-01 10:00:00.9')")
    await exec(c, "INSERT INTO sdl (id, sd) VALUES (2, TIMESTAMP '2024-12-31 23:59:59.999')")
    await exec(c, "INSERT INTO sdl VALUES (3, NULL)")
    await exec(c, "UPDATE sdl SET sd = '2024-06-30 12:34:56.5' WHERE id = 3")
    expect(await exec(c, "SELECT sd FROM sdl ORDER BY id")).toEqual([
      { SD: seconds("2024-01-01 10:00:00") },
      { SD: seconds("2024-12-31 23:59:59") },
      { SD: seconds("2024-06-30 12:34:56") }
    ])
  })

  it("literals selected by INSERT … SELECT are truncated, in every branch of a UNION ALL", async () => {
    await exec(c, "CREATE TABLE decs (id INTEGER, v DECIMAL(5,2), sd SECONDDATE)")
    await exec(c, "INSERT INTO decs SELECT 1, 1.239 AS v, '2024-01-01 10:00:00.9' FROM DUMMY UNION ALL SELECT 2, 5.555, NULL FROM DUMMY")
    await exec(c, "INSERT INTO decs (v, id) SELECT -7.777 x, 3 FROM DUMMY")
    expect(await exec(c, "SELECT v, sd FROM decs ORDER BY id")).toEqual([
      { V: "1.23", SD: seconds("2024-01-01 10:00:00") },
      { V: "5.55", SD: null },
      { V: "-7.77", SD: null }
    ])
  })

  it("a SECONDTIME or TIME text literal drops its fraction of a second", async () => {
    await exec(c, "CREATE TABLE stl (id INTEGER, st SECONDTIME, t TIME)")
    await exec(c, "INSERT INTO stl VALUES (1, '10:00:00.9', '23:59:59.999')")
    expect(await exec(c, "SELECT st, t FROM stl")).toEqual([{ ST: "10:00:00", T: "23:59:59" }])
  })

  it("a literal that needs no cut, a text column and a string that merely looks like a number are left as written", async () => {
    await exec(c, "CREATE TABLE keep (id INTEGER, v DECIMAL(5,2), s NVARCHAR(30), d DOUBLE)")
    await exec(c, "INSERT INTO keep VALUES (1, 1.2, '1.239', 1.239)")
    await exec(c, "UPDATE keep SET s = '2024-01-01 10:00:00.9' WHERE v = 1.2")
    expect(await exec(c, "SELECT v, s, d FROM keep")).toEqual([{ V: "1.20", S: "2024-01-01 10:00:00.9", D: 1.239 }])
  })

  it("an expression written into DECIMAL(p,s) or SECONDDATE is cut too: computations, columns, functions, subqueries", async () => {
    await exec(c, "CREATE TABLE dsrc (id INTEGER, x DECIMAL(10,6), f DOUBLE, ts TIMESTAMP)")
    await exec(c, "INSERT INTO dsrc VALUES (1, 3.141592, 2.71828, '2024-01-01 10:00:00.9'), (2, -1.999999, 1.5e-7, '2024-12-31 23:59:59.999')")
    await exec(c, "CREATE TABLE dexp (id INTEGER, v DECIMAL(5,2), w DECIMAL(5,4), sd SECONDDATE)")
    await exec(c, "INSERT INTO dexp SELECT id, x, f, ts FROM dsrc")
    await exec(c, "INSERT INTO dexp VALUES (3, 1.0 + 0.239, ROUND(3.141592, 5), ADD_SECONDS(TO_TIMESTAMP('2024-01-01 10:00:00'), 0.9))")
    await exec(c, "INSERT INTO dexp (id, v, w) VALUES (4, (SELECT MAX(x) FROM dsrc), 2 / 3)")
    await exec(c, "UPDATE dexp SET v = v * 1.5, sd = ADD_SECONDS(sd, 59.99) WHERE id = 1")
    expect(await exec(c, "SELECT v, w, sd FROM dexp ORDER BY id")).toEqual([
      // 3.14 * 1.5 = 4.71; 2024-01-01 10:00:00 + 59.99 s = 10:00:59.99, cut to 10:00:59
      { V: "4.71", W: "2.7182", SD: seconds("2024-01-01 10:00:59") },
      { V: "-1.99", W: "0.0000", SD: seconds("2024-12-31 23:59:59") },
      { V: "1.23", W: "3.1415", SD: seconds("2024-01-01 10:00:00") },
      { V: "3.14", W: "0.6666", SD: null }
    ])
  })

  it("CAST to SECONDDATE or DECIMAL(p,s) cuts, never rounds", async () => {
    // SAP's blog "HANA SQL: Casting to decimal (implicit or explicit) will not provide rounding" (SAP Note 1895981)
    expect(
      await exec(
        c,
        "SELECT CAST('2024-01-01 10:00:00.9' AS SECONDDATE) AS A, CAST(TIMESTAMP '2024-12-31 23:59:59.999' AS SECONDDATE) AS B, " +
          "CAST(1.239 AS DECIMAL(5,2)) AS C, CAST('-1.999' AS DECIMAL(5,2)) AS D, CAST(2.0 / 3 AS DECIMAL(5,4)) AS E, CAST(1.239E0 AS DECIMAL(5,2)) AS F FROM DUMMY"
      )
    ).toEqual([{ A: seconds("2024-01-01 10:00:00"), B: seconds("2024-12-31 23:59:59"), C: "1.23", D: "-1.99", E: "0.6666", F: "1.23" }])
  })

  it("a number in exponent form and a number's text written into DECIMAL(p,s) are cut", async () => {
    await exec(c, "CREATE TABLE dlit (id INTEGER, v DECIMAL(5,2))")
    await exec(c, "INSERT INTO dlit VALUES (1, 1.239E0), (2, '1.239'), (3, ' -7.777 '), (4, 1239E-3)")
    await exec(c, "UPDATE dlit SET v = '9.999' WHERE id = 4")
    expect(await exec(c, "SELECT v FROM dlit ORDER BY id")).toEqual([{ V: "1.23" }, { V: "1.23" }, { V: "-7.77" }, { V: "9.99" }])
  })

  it("an expression holding a parameter is cut as it is written", async () => {
    await exec(c, "CREATE TABLE dpar (id INTEGER, v DECIMAL(5,2), sd SECONDDATE)")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO dpar VALUES (?, ? + 0.009, ADD_SECONDS(CAST(? AS SECONDDATE), 0.9))", cb))
    // the parameter is typed DECIMAL(4,3) by the literal beside it: 1.237 + 0.009 = 1.246
    await call((cb) => st.exec([1, "1.237", "2024-01-01 10:00:00"], cb))
    const up = await call<HdbStatement>((cb) => c.prepare("UPDATE dpar SET sd = ADD_SECONDS(sd, CAST(? AS DECIMAL(5,2))) WHERE id = ?", cb))
    await call((cb) => up.exec(["59.99", 1], cb))
    expect(await exec(c, "SELECT v, sd FROM dpar")).toEqual([{ V: "1.24", SD: seconds("2024-01-01 10:00:59") }])
  })

  it("a query that merges rows or starts with WITH is cut as its rows are stored, after they merge", async () => {
    await exec(c, "CREATE TABLE dmrg (id INTEGER, v DECIMAL(5,2), sd SECONDDATE)")
    await exec(c, "INSERT INTO dmrg SELECT DISTINCT 1, 1.239, '2024-01-01 10:00:00.9' FROM DUMMY")
    await exec(c, "INSERT INTO dmrg SELECT 2, 2.229, '2024-01-01 10:00:00.5' FROM DUMMY UNION SELECT 2, 2.221, '2024-01-01 10:00:00.5' FROM DUMMY")
    await exec(c, "INSERT INTO dmrg (sd, id, v) SELECT '2024-01-01 10:00:00.7', 3, 3.339 FROM DUMMY INTERSECT SELECT '2024-01-01 10:00:00.7', 3, 3.339 FROM DUMMY")
    await exec(c, "INSERT INTO dmrg SELECT 4, 4.449, NULL FROM DUMMY EXCEPT SELECT 4, 4.441, NULL FROM DUMMY")
    await exec(c, "INSERT INTO dmrg WITH w AS (SELECT 6 AS id, 6.669 AS v, '2024-01-01 10:00:00.9' AS sd FROM DUMMY) SELECT * FROM w")
    await exec(c, "INSERT INTO dmrg WITH w AS (SELECT 7 AS id, 7.779 AS v, NULL AS sd FROM DUMMY) SELECT * FROM w")
    // a query that does not fill the table fails as an INSERT's does, naming the table (not the wrapper around the query)
    await expect(exec(c, "INSERT INTO dmrg SELECT DISTINCT 1, 1.239 FROM DUMMY")).rejects.toMatchObject({ code: 257, message: expect.stringContaining("DMRG") })
    // 2.229 and 2.221 are two rows of the UNION, both stored as 2.22; 4.449 is not 4.441, so EXCEPT keeps it
    expect(await exec(c, "SELECT id, v, sd FROM dmrg ORDER BY id, v")).toEqual([
      { ID: 1, V: "1.23", SD: seconds("2024-01-01 10:00:00") },
      { ID: 2, V: "2.22", SD: seconds("2024-01-01 10:00:00") },
      { ID: 2, V: "2.22", SD: seconds("2024-01-01 10:00:00") },
      { ID: 3, V: "3.33", SD: seconds("2024-01-01 10:00:00") },
      { ID: 4, V: "4.44", SD: null },
      { ID: 6, V: "6.66", SD: seconds("2024-01-01 10:00:00") },
      { ID: 7, V: "7.77", SD: null }
    ])
  })

  it("MERGE INTO cuts what its UPDATE SET and INSERT VALUES write", async () => {
    await exec(c, "CREATE TABLE dmt (id INTEGER PRIMARY KEY, v DECIMAL(5,2), sd SECONDDATE)")
    await exec(c, "INSERT INTO dmt VALUES (1, 0, NULL)")
    await exec(c, "CREATE TABLE dms (id INTEGER, x DECIMAL(10,6), ts TIMESTAMP)")
    await exec(c, "INSERT INTO dms VALUES (1, 3.141592, '2024-01-01 10:00:00.9'), (2, -1.999999, '2024-12-31 23:59:59.999')")
    await exec(
      c,
      "MERGE INTO dmt USING dms ON dmt.id = dms.id WHEN MATCHED THEN UPDATE SET dmt.v = dms.x, sd = dms.ts " +
        "WHEN NOT MATCHED THEN INSERT (id, v, sd) VALUES (dms.id, dms.x, dms.ts)"
    )
    await exec(c, "MERGE INTO dmt USING DUMMY ON dmt.id = 3 WHEN NOT MATCHED THEN INSERT VALUES (3, 7.777, '2024-01-01 10:00:00.9')")
    expect(await exec(c, "SELECT v, sd FROM dmt ORDER BY id")).toEqual([
      { V: "3.14", SD: seconds("2024-01-01 10:00:00") },
      { V: "-1.99", SD: seconds("2024-12-31 23:59:59") },
      { V: "7.77", SD: seconds("2024-01-01 10:00:00") }
    ])
  })

  it("an integer target truncates toward 0: CAST and values written into integer columns", async () => {
    // SAP HANA SQL Reference, "CAST Function (Data Type Conversion)": CAST (10.5 AS INTEGER) is 10, "truncating the
    // mantissa"; "Data Type Conversion": DECIMAL(10,2) 12345.67 converted to BIGINT is 12345
    expect(
      await exec(c, "SELECT CAST(10.5 AS INTEGER) AS A, CAST(-10.9 AS BIGINT) AS B, CAST('7.9' AS SMALLINT) AS C, CAST(2.5E0 AS TINYINT) AS D, CAST(12345.67 AS BIGINT) AS E, CAST(5 AS INTEGER) AS F FROM DUMMY")
    ).toEqual([{ A: 10, B: -10, C: 7, D: 2, E: 12345, F: 5 }])
    await exec(c, "CREATE TABLE dint (id INTEGER, i INTEGER, b BIGINT)")
    await exec(c, "INSERT INTO dint VALUES (1, 10.5, -3.7)")
    await exec(c, "INSERT INTO dint SELECT 2, 2.5 * 3, '9.9' FROM DUMMY")
    await exec(c, "INSERT INTO dint SELECT DISTINCT 3, 0.9, 1.5 FROM DUMMY")
    await exec(c, "UPDATE dint SET b = b + 0.9 WHERE id = 1")
    expect(await exec(c, "SELECT i, b FROM dint ORDER BY id")).toEqual([{ I: 10, B: -2 }, { I: 7, B: 9 }, { I: 0, B: 1 }])
  })
})
