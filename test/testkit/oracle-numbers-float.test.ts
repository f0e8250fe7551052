import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, numbersAsText, openConnection, oracledb } from "./oracle/helpers.ts"

// FLOAT(b), REAL (FLOAT(63)) and DOUBLE PRECISION (FLOAT(126)) are NUMBER subtypes: "FLOAT [(p)]: A subtype of the
// NUMBER data type having precision p ... binary precision 1 to 126"; "To convert from binary to decimal precision,
// multiply n by 0.30103", and a FLOAT(5) column stores 123.45 as 120 and 12.79 as 13 (SQL Language Reference,
// "Data Types", FLOAT Data Type: https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Types.html).
// So they hold decimal NUMBERs of up to 38 significant digits (FLOAT(126)), rounded to ceil(b x 0.30103) digits,
// and are described as NUMBER with precision b and scale -127 (node-oracledb: dbType NUMBER).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: FLOAT(b) columns are decimal NUMBERs (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fl (id NUMBER(3), f5 FLOAT(5), r REAL, d DOUBLE PRECISION, f FLOAT)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("keeps 38 significant decimal digits in FLOAT(126), rounds to the binary precision's decimal digits (was a double)", async () => {
    const d38 = "1234567890.1234567890123456789012345678"
    await conn.execute(`INSERT INTO fl VALUES (1, 123.45, 0.1, ${d38}, 0.1)`)
    await conn.execute("INSERT INTO fl VALUES (2, 12.79, :r, :d, :f)", [
      { val: "12345678901234567890123", type: oracledb.STRING },
      { val: "-9.87654321098765432109876543210987654321E-100", type: oracledb.STRING },
      0.3
    ])
    await conn.execute("INSERT INTO fl VALUES (3, 1.23, 1E125, 1E-130, 7.89)")
    const r = await conn.execute("SELECT f5, r, d, f FROM fl ORDER BY id", [], numbersAsText)
    expect(r.rows).toEqual([
      ["120", ".1", d38, ".1"],
      // REAL: 19 digits (63 x 0.30103 = 18.96); DOUBLE PRECISION: 38 digits
      ["13", "12345678901234567890000", `-.${"0".repeat(99)}98765432109876543210987654321098765432`, ".3"],
      ["1.2", `1${"0".repeat(125)}`, `.${"0".repeat(129)}1`, "7.89"]
    ])
    const meta = (r.metaData ?? []).map((m: { dbType?: unknown; precision?: number; scale?: number }) => [m.dbType, m.precision, m.scale])
    expect(meta).toEqual([
      [oracledb.DB_TYPE_NUMBER, 5, -127],
      [oracledb.DB_TYPE_NUMBER, 63, -127],
      [oracledb.DB_TYPE_NUMBER, 126, -127],
      [oracledb.DB_TYPE_NUMBER, 126, -127]
    ])
    await conn.rollback()
  })

  it("computes, compares and updates FLOAT values on every digit, the written value rounded (was a double)", async () => {
    await conn.execute("INSERT INTO fl (id, d, f5) VALUES (4, 0.1, 1)")
    await conn.execute("INSERT INTO fl (id, d, f5) VALUES (5, 0.2, 2)")
    const sum = await conn.execute("SELECT SUM(d), d + 0.2, d / 3 FROM fl WHERE id = 4 GROUP BY d", [], numbersAsText)
    expect(sum.rows).toEqual([[".1", ".3", `.0${"3".repeat(39)}`]])
    const found = await conn.execute("SELECT id FROM fl WHERE d + 0.1 = 0.3 ORDER BY id")
    expect(found.rows).toEqual([[5]])
    await conn.execute("UPDATE fl SET f5 = f5 * 987.6 WHERE id = 4")
    await conn.executeMany("UPDATE fl SET d = :1 WHERE id = :2", [["3.14159265358979323846264338327950288419716939937510", 5]], {
      bindDefs: [{ type: oracledb.STRING, maxSize: 60 }, { type: oracledb.NUMBER }]
    })
    await conn.executeMany("INSERT INTO fl (id, f5, r) VALUES (:1, :2, :3)", [[6, 123.45, 1 / 3], [7, -7.89, 2 / 3]])
    const many = await conn.execute("SELECT f5, r FROM fl WHERE id IN (6, 7) ORDER BY id", [], numbersAsText)
    // a double bind is the decimal text of its shortest form (node-oracledb), then rounded to REAL's 19 digits
    expect(many.rows).toEqual([["120", ".3333333333333333"], ["-7.9", ".6666666666666666"]])
    const after = await conn.execute("SELECT f5, d FROM fl WHERE id IN (4, 5) ORDER BY id", [], numbersAsText)
    expect(after.rows).toEqual([["990", ".1"], ["2", "3.1415926535897932384626433832795028842"]])
    await conn.rollback()
  })
})
