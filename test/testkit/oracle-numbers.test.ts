import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, numbersAsText, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const asText = numbersAsText
/** Rows of a query with every NUMBER as its exact text. */
const texts = async (sql: string, binds: Array<unknown> = []): Promise<Array<Array<string | null>>> => (await conn.execute(sql, binds, asText)).rows
const oraCode = async (run: () => Promise<unknown>): Promise<string> =>
  run().then(
    () => "no error",
    (e: Error) => e.message.slice(0, 9)
  )

/** Values at NUMBER's limits: 38 to 40 significant digits, the exponent range's ends, negatives and zero. */
const EXTREMES = [
  ["1", "12345678901234567890123456789012345678"],
  ["2", "1234567890123456789012345678901234567890"],
  ["3", "-9876543210987654321098765432109876543.21"],
  ["4", ".1234567890123456789012345678901234567891"],
  ["5", "1" + "0".repeat(125)],
  ["6", "9999999999999999999999999999999999999999" + "0".repeat(86)],
  ["7", "." + "0".repeat(129) + "1"],
  ["8", "-." + "0".repeat(129) + "1"],
  ["9", "0"],
  ["10", "-.5"]
] as const

describe("Oracle test server: NUMBER through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE num (id NUMBER(3), v NUMBER, p NUMBER(10,2))")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("keeps unbounded NUMBER values across Oracle's exponent range (1E-130 .. 9.99E125)", async () => {
    const values = ["1E125", "9.99E125", "1E-130", "-1E-130", "-4.5E100", "123.25", "0.001"]
    await conn.executeMany(
      "INSERT INTO num (id, v) VALUES (:1, :2)",
      values.map((v, i) => [i, Number(v)])
    )
    const r = await conn.execute("SELECT v FROM num WHERE v IS NOT NULL ORDER BY id", [], asText)
    expect(r.rows.map((x: Array<string>) => Number(x[0]))).toEqual(values.map(Number))
    expect(r.rows[5][0]).toBe("123.25")
    expect(r.rows[6][0]).toBe(".001")
    expect(r.metaData[0].precision).toBe(0)
    expect(r.metaData[0].scale).toBe(-127)
  })

  // Oracle describes COUNT, SUM and AVG as values computed over columns, precision 0 and scale 0 (JDBC metadata of
  // COUNT(*) and AVG: https://github.com/confluentinc/kafka-connect-jdbc/issues/1066,
  // https://github.com/dbeaver/dbeaver/issues/1767; testkit/oracle/number-describe.ts)
  it("describes COUNT, SUM and AVG as NUMBER with precision 0 and scale 0, whatever the argument's", async () => {
    await conn.execute("INSERT INTO num (id, p) VALUES (100, 12.5)")
    await conn.execute("INSERT INTO num (id, p) VALUES (101, 0.25)")
    const r = await conn.execute("SELECT COUNT(*), SUM(p), AVG(p) total_avg, COUNT(p) AS n, MAX(p) FROM num WHERE id >= 100")
    expect(r.rows[0].slice(0, 4)).toEqual([2, 12.75, 6.375, 2])
    for (const m of r.metaData.slice(0, 4)) {
      expect(m.dbTypeName).toBe("NUMBER")
      expect([m.precision, m.scale]).toEqual([0, 0])
    }
    // MAX keeps its argument's declared type
    expect([r.metaData[4].precision, r.metaData[4].scale]).toEqual([10, 2])
    // also as window functions
    const w = await conn.execute("SELECT SUM(p) OVER (), AVG(p) OVER (PARTITION BY id) a, COUNT(p) OVER () FROM num WHERE id >= 100 ORDER BY id")
    expect(w.rows).toEqual([
      [12.75, 12.5, 2],
      [12.75, 0.25, 2]
    ])
    for (const m of w.metaData) expect([m.dbTypeName, m.precision, m.scale]).toEqual(["NUMBER", 0, 0])
  })

  // Oracle describes arithmetic over columns as NUMBER with precision 0 and scale 0, and over constants with precision
  // 0 and scale -127, whatever the operands' declared types (JDBC metadata of `X1 / X2` and `1/10`:
  // https://github.com/OHDSI/DatabaseConnector/pull/189; python-oracledb typed expressions over columns by their scale
  // 0 until https://github.com/oracle/python-oracledb/issues/510); a CAST or a plain column keeps its declared type
  it("describes arithmetic over NUMBER(p,s) columns as NUMBER without precision, and a CREATE TABLE AS of it as NUMBER", async () => {
    await conn.execute("INSERT INTO num (id, p) VALUES (110, 12.5)")
    const r = await conn.execute("SELECT id + 1, id * 2 AS twice, p - 1 less, -p, (p + id) / 2, 1.5 * 2 three, CAST(p AS NUMBER(5,2)), p, id FROM num WHERE id = 110")
    expect(r.rows).toEqual([[111, 220, 11.5, -12.5, 61.25, 3, 12.5, 12.5, 110]])
    const expression = ["NUMBER", 0, 0]
    const described = (m: { dbTypeName: string; precision: number; scale: number }) => [m.dbTypeName, m.precision, m.scale]
    expect(r.metaData.map(described)).toEqual([expression, expression, expression, expression, expression, ["NUMBER", 0, -127], ["NUMBER", 5, 2], ["NUMBER", 10, 2], ["NUMBER", 3, 0]])
    // the table's column is a NUMBER without precision, its values Oracle's text of the number: 25.00 and 25 are one
    await conn.execute("CREATE TABLE num_twice AS SELECT p * 2 AS twice FROM num WHERE id = 110")
    await conn.execute("INSERT INTO num_twice (twice) VALUES (25)")
    const copy = await conn.execute("SELECT twice, COUNT(*) FROM num_twice GROUP BY twice", [], asText)
    expect(copy.rows).toEqual([["25", "2"]])
    expect(described(copy.metaData[0])).toEqual(["NUMBER", 0, -127])
    await conn.execute("DROP TABLE num_twice PURGE")
    await conn.execute("DELETE FROM num WHERE id = 110")
  })

  describe("every digit of NUMBER without precision", () => {
    beforeAll(async () => {
      await conn.execute("CREATE TABLE exact_num (id NUMBER(3), v NUMBER)")
      // node-oracledb binds strings as VARCHAR2, which the server converts to NUMBER as Oracle does
      await conn.executeMany(
        "INSERT INTO exact_num (id, v) VALUES (:1, :2)",
        EXTREMES.map(([id, v]) => [Number(id), v])
      )
    })

    it("keeps 38 to 40 significant digits and the exponent range's ends exactly, in numeric order", async () => {
      const sorted = [...EXTREMES].sort((a, b) => (a[1] === b[1] ? 0 : Number(a[1]) < Number(b[1]) ? -1 : 1))
      expect(await texts("SELECT id, v FROM exact_num ORDER BY v")).toEqual(sorted.map(([id, v]) => [id, v]))
      const r = await conn.execute("SELECT v FROM exact_num ORDER BY id")
      expect(r.rows.map((x: Array<number>) => x[0])).toEqual(EXTREMES.map(([, v]) => Number(v)))
      expect([r.metaData[0].dbTypeName, r.metaData[0].precision, r.metaData[0].scale]).toEqual(["NUMBER", 0, -127])
    })

    it("stores literals exactly, rounds beyond NUMBER's 40 digits, fails from 1E126 with ORA-01426 and takes 1E-131 as 0", async () => {
      await conn.execute("INSERT INTO exact_num (id, v) VALUES (20, 98765432109876543210987654321098765432.1)")
      await conn.execute("INSERT INTO exact_num (id, v) VALUES (21, 1234567890123456789012345678901234567890123)")
      await conn.execute("INSERT INTO exact_num (id, v) VALUES (22, 1E-131)")
      expect(await texts("SELECT v FROM exact_num WHERE id BETWEEN 20 AND 22 ORDER BY id")).toEqual([
        ["98765432109876543210987654321098765432.1"],
        ["1234567890123456789012345678901234567890000"],
        ["0"]
      ])
      expect(await oraCode(() => conn.execute("INSERT INTO exact_num (id, v) VALUES (23, 1E126)"))).toBe("ORA-01426")
      expect(await texts("SELECT COUNT(*) FROM exact_num WHERE id = 23")).toEqual([["0"]])
      await conn.execute("DELETE FROM exact_num WHERE id >= 20")
    })

    it("compares on every digit: =, <, BETWEEN, IN, MIN and MAX", async () => {
      const big = "1234567890123456789012345678901234567890"
      expect(await texts(`SELECT id FROM exact_num WHERE v = ${big}`)).toEqual([["2"]])
      expect(await texts(`SELECT id FROM exact_num WHERE v = :1`, ["1234567890123456789012345678901234567891"])).toEqual([])
      expect(await texts(`SELECT id FROM exact_num WHERE v > 12345678901234567890123456789012345677 ORDER BY id`)).toEqual([["1"], ["2"], ["5"], ["6"]])
      expect(await texts("SELECT id FROM exact_num WHERE v BETWEEN -1 AND 1 ORDER BY id")).toEqual([["4"], ["7"], ["8"], ["9"], ["10"]])
      expect(await texts("SELECT id FROM exact_num WHERE v IN (0, -.5, 12345678901234567890123456789012345678) ORDER BY id")).toEqual([["1"], ["9"], ["10"]])
      expect(await texts("SELECT MIN(v), MAX(v) FROM exact_num WHERE id <= 4")).toEqual([["-9876543210987654321098765432109876543.21", big]])
      // ORDER BY a select-list position or alias orders by the number, not by its text (as text ".1…" sorts before "0")
      const byNumber = [["10"], ["9"], ["4"], ["1"]]
      expect(await texts("SELECT id, v AS x FROM exact_num WHERE id IN (1, 4, 9, 10) ORDER BY 2")).toEqual(byNumber.map(([id]) => [id, EXTREMES[Number(id) - 1]![1]]))
      expect(await texts("SELECT id, v x FROM exact_num WHERE id IN (1, 4, 9, 10) ORDER BY x DESC")).toEqual([...byNumber].reverse().map(([id]) => [id, EXTREMES[Number(id) - 1]![1]]))
    })

    it("computes + - * / on every digit as Oracle's decimal arithmetic does, rounding to 40 digits", async () => {
      expect(await texts("SELECT v + 1, v - 1, v * 2, v / 2, -v FROM exact_num WHERE id = 1")).toEqual([
        ["12345678901234567890123456789012345679", "12345678901234567890123456789012345677", "24691357802469135780246913578024691356", "6172839450617283945061728394506172839", "-12345678901234567890123456789012345678"]
      ])
      expect(await texts("SELECT v / 3, (v + 1) * 10, v * v FROM exact_num WHERE id = 10")).toEqual([["-.1666666666666666666666666666666666666667", "5", ".25"]])
      expect(await texts("SELECT v * 1E100 FROM exact_num WHERE id = 7")).toEqual([["." + "0".repeat(29) + "1"]])
      expect(await oraCode(() => conn.execute("SELECT v * 10 FROM exact_num WHERE id = 6"))).toBe("ORA-01426")
      expect(await oraCode(() => conn.execute("SELECT v / 0 FROM exact_num WHERE id = 1"))).toBe("ORA-01476")
      await conn.execute("UPDATE exact_num SET v = v + .0000000000000000000000000000000000001 WHERE id = 1")
      expect(await texts("SELECT v FROM exact_num WHERE id = 1")).toEqual([["12345678901234567890123456789012345678"]])
      await conn.execute("UPDATE exact_num SET v = v + .1 WHERE id = 1")
      expect(await texts("SELECT v FROM exact_num WHERE id = 1")).toEqual([["12345678901234567890123456789012345678.1"]])
      await conn.execute("UPDATE exact_num SET v = 12345678901234567890123456789012345678 WHERE id = 1")
    })

    // NUMBER keeps "up to 20 base-100 digits, which is equivalent to 39 or 40 decimal digits depending on the position
    // of the decimal point" (SQL Language Reference, "Data Types", NUMBER:
    // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Types.html): a quotient with bind
    // operands written by INSERT, UPDATE or INSERT ... SELECT keeps them as a query's does
    it("divides NUMBER binds on every digit inside INSERT, UPDATE, INSERT ... SELECT, MERGE and DELETE", async () => {
      const third = "." + "3".repeat(40)
      await conn.execute("INSERT INTO exact_num (id, v) VALUES (30, :1 / :2)", [1, 3])
      // a 38-digit integer (a BigInt binds as NUMBER) divided by 7: 37 integer digits, so 39 significant digits
      await conn.execute("INSERT INTO exact_num (id, v) VALUES (31, :1 / :2)", [12345678901234567890123456789012345678n, 7])
      await conn.execute("INSERT INTO exact_num (id, v) VALUES (32, 10)")
      await conn.execute("UPDATE exact_num SET v = v / :1 WHERE id = :2", [3, 32])
      await conn.execute("INSERT INTO exact_num (id, v) SELECT 33, id / :1 FROM exact_num WHERE id = 30", [7])
      // executeMany's bulk path computes the same way
      await conn.executeMany("INSERT INTO exact_num (id, v) VALUES (:1, :2 / :3)", [[34, 2, 3], [35, 12345678901234567890123456789012345678n, 7]])
      expect(await texts("SELECT id, v FROM exact_num WHERE id BETWEEN 30 AND 35 ORDER BY id")).toEqual([
        ["30", third],
        ["31", "1763668414462081127160493827001763668.29"],
        ["32", "3." + "3".repeat(38)],
        ["33", "4.28571428571428571428571428571428571429"],
        ["34", "." + "6".repeat(39) + "7"],
        ["35", "1763668414462081127160493827001763668.29"]
      ])
      // MERGE writes such a quotient, and DELETE compares with one, on every digit too
      await conn.execute("MERGE INTO exact_num e USING (SELECT 34 k FROM DUAL) s ON (e.id = s.k) WHEN MATCHED THEN UPDATE SET v = :1 / :2", [1, 7])
      expect(await texts("SELECT v FROM exact_num WHERE id = 34")).toEqual([["." + "142857".repeat(6) + "1429"]])
      expect((await conn.execute("DELETE FROM exact_num WHERE v = :1 / :2", [1, 7])).rowsAffected).toBe(1)
      expect(await oraCode(() => conn.execute("INSERT INTO exact_num (id, v) VALUES (36, :1 / :2)", [1, 0]))).toBe("ORA-01476")
      expect(await oraCode(() => conn.execute("UPDATE exact_num SET v = v / :1 WHERE id = 30", [0]))).toBe("ORA-01476")
      expect(await texts("SELECT v FROM exact_num WHERE id IN (30, 36) ORDER BY id")).toEqual([[third]])
      await conn.execute("DELETE FROM exact_num WHERE id >= 30")
    })

    it("sums and averages exactly and describes COUNT, SUM and AVG as NUMBER without precision", async () => {
      const r = await conn.execute("SELECT SUM(v), AVG(v), COUNT(v), COUNT(*) FROM exact_num WHERE id IN (1, 2, 10)", [], asText)
      expect(r.rows).toEqual([["1246913569024691356902469135690246913568", "415637856341563785634156378563415637856", "3", "3"]])
      for (const m of r.metaData) expect([m.dbTypeName, m.precision, m.scale]).toEqual(["NUMBER", 0, 0])
      expect(await texts("SELECT id, SUM(v) FROM exact_num WHERE id > 8 GROUP BY id ORDER BY id")).toEqual([["9", "0"], ["10", "-.5"]])
      expect(await texts("SELECT SUM(v) FROM exact_num WHERE id > 100")).toEqual([[null]])
    })

    it("prints TO_CHAR as Oracle's text-minimum format: no leading zero, scientific beyond 64 characters", async () => {
      expect(await texts("SELECT TO_CHAR(v) FROM exact_num WHERE id IN (4, 5, 7, 10) ORDER BY id")).toEqual([
        [".1234567890123456789012345678901234567891"],
        ["1E+125"],
        ["1E-130"],
        ["-.5"]
      ])
    })

    it("keeps every digit through CAST, subqueries, views and CREATE TABLE AS", async () => {
      expect(await texts("SELECT CAST('-123456789012345678901234567890.125' AS NUMBER) FROM DUAL")).toEqual([["-123456789012345678901234567890.125"]])
      const sub = await conn.execute("SELECT v FROM (SELECT id, v FROM exact_num) WHERE id = 2", [], asText)
      expect(sub.rows).toEqual([["1234567890123456789012345678901234567890"]])
      expect([sub.metaData[0].dbTypeName, sub.metaData[0].precision, sub.metaData[0].scale]).toEqual(["NUMBER", 0, -127])
      await conn.execute("CREATE TABLE exact_copy AS SELECT id, v, v * 2 AS twice FROM exact_num WHERE id < 5")
      const copy = await conn.execute("SELECT v, twice FROM exact_copy WHERE id = 2", [], asText)
      expect(copy.rows).toEqual([["1234567890123456789012345678901234567890", "2469135780246913578024691357802469135780"]])
      expect(copy.metaData.map((m: { dbTypeName: string; precision: number; scale: number }) => [m.dbTypeName, m.precision, m.scale])).toEqual([
        ["NUMBER", 0, -127],
        ["NUMBER", 0, -127]
      ])
      await conn.execute("DROP TABLE exact_copy PURGE")
    })
  })
})
