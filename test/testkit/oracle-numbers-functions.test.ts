import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, numbersAsText, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const asText = numbersAsText
const texts = async (sql: string, binds: Array<unknown> = []): Promise<Array<Array<string | null>>> => (await conn.execute(sql, binds, asText)).rows
const oraCode = (run: () => Promise<unknown>): Promise<string> =>
  run().then(
    () => "no error",
    (e: Error) => e.message.slice(0, 9)
  )
/** [type name, precision, scale] of each result column. */
const described = async (sql: string) =>
  (await conn.execute(sql, [], asText)).metaData.map((m: { dbTypeName: string; precision: number; scale: number }) => [m.dbTypeName, m.precision, m.scale])
const UNBOUNDED = ["NUMBER", 0, -127]
/** Values computed over columns (arithmetic, functions, CASE, aggregates): precision 0, scale 0 (testkit/oracle/number-describe.ts cites Oracle's metadata). */
const EXPRESSION = ["NUMBER", 0, 0]

const BIG = "12345678901234567890123456789012345678.5"
const TINY = "." + "0".repeat(129) + "1" // 1E-130
const HUGE = "999" + "0".repeat(123) // 9.99E125

describe("Oracle test server: functions of unbounded NUMBER through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE nf (id NUMBER(3), v NUMBER, w NUMBER, d BINARY_DOUBLE)")
    await conn.executeMany("INSERT INTO nf (id, v, w) VALUES (:1, :2, :3)", [
      [1, BIG, "7"],
      [2, "-2.5", "-3"],
      [3, null, "0"],
      [4, TINY, "2"],
      [5, HUGE, "-11"],
      [6, "0", "4"]
    ])
  })
  afterAll(() => closeConnection({ server, conn }))

  it("ROUND halves away from zero, TRUNC goes toward zero, CEIL and FLOOR, on every digit and at negative places", async () => {
    expect(await texts("SELECT ROUND(v), TRUNC(v), CEIL(v), FLOOR(v), ROUND(v, -36), TRUNC(v, 1) FROM nf WHERE id = 1")).toEqual([
      ["12345678901234567890123456789012345679", "12345678901234567890123456789012345678", "12345678901234567890123456789012345679", "12345678901234567890123456789012345678", "12000000000000000000000000000000000000", BIG]
    ])
    expect(await texts("SELECT ROUND(v), TRUNC(v), CEIL(v), FLOOR(v), ROUND(v, 1), ROUND(-v) FROM nf WHERE id = 2")).toEqual([["-3", "-2", "-2", "-3", "-2.5", "3"]])
    // the exponent range's ends: 1E-130 rounds to 0 and ceils to 1; 9.99E125 truncates at 10^125 and overflows when rounded
    expect(await texts("SELECT ROUND(v), CEIL(v), FLOOR(v), ROUND(v, 130), ROUND(v, 129) FROM nf WHERE id = 4")).toEqual([["0", "1", "0", TINY, "0"]])
    expect(await texts("SELECT TRUNC(v, -125) FROM nf WHERE id = 5")).toEqual([["9" + "0".repeat(125)]])
    expect(await oraCode(() => conn.execute("SELECT ROUND(v, -125) FROM nf WHERE id = 5"))).toBe("ORA-01426")
    expect(await texts("SELECT ROUND(v), TRUNC(v, 2) FROM nf WHERE id = 3")).toEqual([[null, null]])
    expect(await described("SELECT ROUND(v), TRUNC(v, 1), CEIL(v), FLOOR(v) FROM nf WHERE id = 2")).toEqual([EXPRESSION, EXPRESSION, EXPRESSION, EXPRESSION])
  })

  it("ABS, SIGN and MOD (the dividend's sign, MOD(n, 0) = n) on every digit", async () => {
    expect(await texts("SELECT ABS(v), SIGN(v), MOD(v, 10), MOD(v, 0), MOD(v, w) FROM nf WHERE id IN (1, 2, 6) ORDER BY id")).toEqual([
      [BIG, "1", "8.5", BIG, (BigInt(BIG.slice(0, -2)) % 7n) + ".5"],
      ["2.5", "-1", "-2.5", "-2.5", "-2.5"],
      ["0", "0", "0", "0", "0"]
    ])
    // Oracle's table of MOD against the classical modulus: 11,4 → 3; 11,-4 → 3; -11,4 → -3; -11,-4 → -3
    expect(await texts("SELECT MOD(-w, 4), MOD(-w, -4), MOD(w, 4), MOD(w, -4) FROM nf WHERE id = 5")).toEqual([["3", "3", "-3", "-3"]])
    expect(await texts("SELECT MOD(v, 1E-130), MOD(v, 3) FROM nf WHERE id = 5")).toEqual([["0", "0"]])
    expect(await described("SELECT ABS(v), SIGN(v), MOD(v, 3) FROM nf WHERE id = 2")).toEqual([EXPRESSION, EXPRESSION, EXPRESSION])
  })

  it("NVL, COALESCE, NVL2, NULLIF, DECODE and CASE mix unbounded NUMBERs with other numbers without losing a digit", async () => {
    expect(await texts("SELECT id, NVL(v, 0), COALESCE(v, w, 1), NVL2(v, v, -1), NULLIF(v, -2.5) FROM nf WHERE id <= 3 ORDER BY id")).toEqual([
      ["1", BIG, BIG, BIG, BIG],
      ["2", "-2.5", "-2.5", "-2.5", null],
      ["3", "0", "0", "-1", null]
    ])
    expect(await texts("SELECT DECODE(id, 1, v, 2, 5, 0), DECODE(v, -2.5, 'minus', NULL, 'none', 'other'), CASE WHEN id = 1 THEN v ELSE 3 END, CASE v WHEN -2.5 THEN 'b' END FROM nf WHERE id <= 3 ORDER BY id")).toEqual([
      [BIG, "other", BIG, null],
      ["5", "minus", "3", "b"],
      ["0", "none", "3", null]
    ])
    // a CASE result computed on further keeps its digits
    expect(await texts("SELECT CASE WHEN id = 1 THEN v END * 2, NVL(v, 0) + 1 FROM nf WHERE id = 1")).toEqual([["24691357802469135780246913578024691357", "12345678901234567890123456789012345679.5"]])
    expect(await described("SELECT NVL(v, 0), COALESCE(v, 1), NULLIF(v, 1), DECODE(id, 1, v, 0), CASE WHEN id = 1 THEN v ELSE 0 END FROM nf WHERE id = 2")).toEqual(Array(5).fill(EXPRESSION))
  })

  it("window SUM, AVG, MIN, MAX and COUNT over unbounded NUMBER compute on every digit", async () => {
    // (7 - 3 + 0) / 3 to 39 digits (the leading base-100 digit is 1)
    const AVG = "1." + "3".repeat(38)
    const r = await conn.execute(
      "SELECT id, SUM(v) OVER (ORDER BY id), MAX(v) OVER (), MIN(w) OVER (ORDER BY w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), COUNT(v) OVER (), AVG(w) OVER () FROM nf WHERE id <= 3 ORDER BY id",
      [],
      asText
    )
    expect(r.rows).toEqual([
      ["1", BIG, BIG, "0", "2", AVG],
      ["2", "12345678901234567890123456789012345676", BIG, "-3", "2", AVG],
      ["3", "12345678901234567890123456789012345676", BIG, "-3", "2", AVG]
    ])
    // SUM, COUNT and AVG computed over columns; MIN and MAX of the argument's type
    expect(r.metaData.slice(1).map((m: { dbTypeName: string; precision: number; scale: number }) => [m.dbTypeName, m.precision, m.scale])).toEqual([EXPRESSION, UNBOUNDED, UNBOUNDED, EXPRESSION, EXPRESSION])
    // LISTAGG joins Oracle's TO_CHAR texts, in the WITHIN GROUP order (numeric)
    expect(await texts("SELECT LISTAGG(v, ',') WITHIN GROUP (ORDER BY v DESC) FROM nf WHERE id IN (1, 2, 4, 6)")).toEqual([[`${BIG},1E-130,0,-2.5`]])
    expect(await texts("SELECT id, SUM(v) OVER (PARTITION BY SIGN(w)) FROM nf WHERE id IN (1, 4, 6) ORDER BY id")).toEqual([
      ["1", "12345678901234567890123456789012345678.5"],
      ["4", "12345678901234567890123456789012345678.5"],
      ["6", "12345678901234567890123456789012345678.5"]
    ])
  })

  it("GREATEST, LEAST, POWER, SQRT, EXP, LN and LOG to NUMBER's 40 digits", async () => {
    expect(await texts("SELECT GREATEST(v, w), LEAST(v, w, 100), GREATEST(v, NULL) FROM nf WHERE id IN (1, 2) ORDER BY id")).toEqual([
      [BIG, "7", null],
      ["-2.5", "-3", null]
    ])
    // 2^200 = 1606938044258990275541962092341162602522202993782792835301376: 39 digits kept (leading base-100 digit "1")
    expect(await texts("SELECT POWER(w, 200), POWER(w, -1), POWER(-w, 3), POWER(w, 0) FROM nf WHERE id = 4")).toEqual([
      ["160693804425899027554196209234116260252" + "0".repeat(22), ".5", "-8", "1"]
    ])
    expect(await texts("SELECT POWER(v, 2) FROM nf WHERE id = 2")).toEqual([["6.25"]])
    expect(await oraCode(() => conn.execute("SELECT POWER(v, 2) FROM nf WHERE id = 5"))).toBe("ORA-01426")
    // √2 and √7 to NUMBER's digits; √(1E-130) = 1E-65
    expect(await texts("SELECT SQRT(w), POWER(w, .5), SQRT(v) FROM nf WHERE id = 4")).toEqual([["1.41421356237309504880168872420969807857", "1.41421356237309504880168872420969807857", "." + "0".repeat(64) + "1"]])
    expect(await texts("SELECT SQRT(w) FROM nf WHERE id = 1")).toEqual([["2.64575131106459059050161575363926042571"]])
    // 2^1.5 = 2.8284271247461900976033774484193961571393…, e² = 7.3890560989306502272304274605750078131803…,
    // ln 2 = .69314718055994530941723212145817656807550…, log10 2 = .30102999566398119521373889472449302676818…
    expect(await texts("SELECT POWER(w, 1.5), EXP(w), LN(w), LOG(10, w) FROM nf WHERE id = 4")).toEqual([
      ["2.82842712474619009760337744841939615714", "7.38905609893065022723042746057500781318", ".6931471805599453094172321214581765680755", ".3010299956639811952137388947244930267682"]
    ])
    expect(await oraCode(() => conn.execute("SELECT LN(w) FROM nf WHERE id = 3"))).toBe("ORA-01428")
    expect(await oraCode(() => conn.execute("SELECT EXP(w) FROM nf WHERE id = 1 OR id = 5"))).toBe("no error")
    expect(await oraCode(() => conn.execute("SELECT EXP(v) FROM nf WHERE id = 1"))).toBe("ORA-01426")
    expect(await oraCode(() => conn.execute("SELECT SQRT(v) FROM nf WHERE id = 2"))).toBe("ORA-01428")
    expect(await described("SELECT GREATEST(v, w), LEAST(v, 1), POWER(v, 2), SQRT(ABS(v)) FROM nf WHERE id = 2")).toEqual(Array(4).fill(EXPRESSION))
  })

  it("TO_NUMBER and CAST(... AS NUMBER) give exact NUMBERs that compute with other numbers, also in PL/SQL blocks", async () => {
    await conn.execute("CREATE TABLE np (id NUMBER(10), amt NUMBER(10,2), s VARCHAR2(60))")
    await conn.execute("INSERT INTO np VALUES (2, 2.50, '123456789012345678901234567890123456.75')")
    expect(await texts("SELECT TO_NUMBER(s), TO_NUMBER(s) + amt, CAST('1.5' AS NUMBER) * 2 FROM np")).toEqual([
      ["123456789012345678901234567890123456.75", "123456789012345678901234567890123459.25", "3"]
    ])
    expect(await texts("SELECT id FROM np WHERE id = TO_NUMBER('2') AND TO_NUMBER(s) > amt")).toEqual([["2"]])
    expect(await oraCode(() => conn.execute("SELECT TO_NUMBER('12a') FROM dual"))).toBe("ORA-01722")
    await conn.execute("BEGIN UPDATE nf SET v = v + 1 WHERE id = 2; INSERT INTO nf (id, v) VALUES (7, 1.50); END;")
    expect(await texts("SELECT id, v, CAST(v AS VARCHAR2(10)) FROM nf WHERE id IN (2, 7) ORDER BY id")).toEqual([
      ["2", "-1.5", "-1.5"],
      ["7", "1.5", "1.5"]
    ])
    await conn.rollback()
  })

  it("computes on unbounded NUMBERs passed on by views, subqueries and WITH blocks", async () => {
    await conn.execute("CREATE VIEW nf_twice AS SELECT id, v * 2 AS twice FROM nf WHERE id < 5")
    expect(await texts("SELECT twice + 1, ROUND(twice, -37) FROM nf_twice WHERE id = 1")).toEqual([["24691357802469135780246913578024691358", "20000000000000000000000000000000000000"]])
    expect(await described("SELECT twice + 1 FROM nf_twice WHERE id = 1")).toEqual([EXPRESSION])
    expect(await texts("SELECT x + 1 FROM (SELECT v AS x FROM nf WHERE id IN (1, 2, 4)) ORDER BY 1")).toEqual([["-1.5"], ["1"], ["12345678901234567890123456789012345679.5"]])
    expect(await texts("WITH q AS (SELECT id, v * 2 AS x FROM nf), r AS (SELECT x + 1 y FROM q WHERE id = 1) SELECT SUM(y), MAX(y) FROM r")).toEqual([
      ["24691357802469135780246913578024691358", "24691357802469135780246913578024691358"]
    ])
    // a text made of a number stays text
    expect(await texts("SELECT s FROM (SELECT TO_CHAR(v) s FROM nf) WHERE s = '-2.5'")).toEqual([["-2.5"]])
    await conn.execute("DROP VIEW nf_twice")
  })

  describe("one stored text per number", () => {
    beforeAll(async () => {
      await conn.execute("CREATE TABLE nk (k NUMBER PRIMARY KEY, n NUMBER(5))")
      await conn.execute("CREATE TABLE ng (v NUMBER, d BINARY_DOUBLE)")
    })

    it("makes equal numbers one key however they were written (literal, string and number binds, executeMany, UPDATE, MERGE)", async () => {
      await conn.execute("INSERT INTO nk VALUES (1.50, 1)")
      for (const [sql, binds] of [
        ["INSERT INTO nk VALUES (:1, 2)", ["01.500"]],
        ["INSERT INTO nk (k, n) VALUES (:1, 2)", [1.5]],
        ["INSERT INTO nk (n, k) SELECT 3, 15E-1 FROM dual", []],
        ["INSERT INTO nk (k, n) VALUES ('+1.5', 4)", []]
      ] as const)
        expect(await oraCode(() => conn.execute(sql, binds))).toBe("ORA-00001")
      await conn.executeMany("INSERT INTO nk (k, n) VALUES (:1, :2)", [["20.0", 5], ["2.5E1", 6]])
      expect(await oraCode(() => conn.executeMany("INSERT INTO nk (k, n) VALUES (:1, :2)", [["2E1", 7]]))).toBe("ORA-00001")
      await conn.execute("UPDATE nk SET k = '30.000' WHERE n = 6")
      expect(await oraCode(() => conn.execute("UPDATE nk SET k = 3E1 WHERE n = 5"))).toBe("ORA-00001")
      await conn.execute("MERGE INTO nk USING (SELECT 9 AS n FROM dual) s ON (nk.n = s.n) WHEN NOT MATCHED THEN INSERT (k, n) VALUES (0.0400, 9)")
      // the text Oracle's TO_CHAR gives (CAST to VARCHAR2 reads the stored text)
      expect(await texts("SELECT k, CAST(k AS VARCHAR2(40)) FROM nk ORDER BY k")).toEqual([
        [".04", ".04"],
        ["1.5", "1.5"],
        ["20", "20"],
        ["30", "30"]
      ])
      await conn.commit()
    })

    it("groups and de-duplicates numbers, not their texts, also from BINARY_DOUBLE values", async () => {
      await conn.execute("INSERT INTO ng (v, d) VALUES (1.50, 1e20)")
      await conn.execute("INSERT INTO ng (v) VALUES (:1)", ["1.5000"])
      await conn.execute("INSERT INTO ng (v) SELECT d FROM ng WHERE d IS NOT NULL")
      await conn.execute("INSERT INTO ng (v) VALUES (100000000000000000000)")
      await conn.execute("INSERT INTO ng (v) VALUES (1E20d)")
      await conn.execute("UPDATE ng SET v = d WHERE d IS NOT NULL")
      expect(await texts("SELECT v, COUNT(*) FROM ng GROUP BY v ORDER BY v")).toEqual([
        ["1.5", "1"],
        ["100000000000000000000", "4"]
      ])
      expect(await texts("SELECT COUNT(DISTINCT v) FROM ng")).toEqual([["2"]])
      expect(await texts("SELECT v FROM ng UNION SELECT 1.5 FROM dual ORDER BY 1")).toEqual([["1.5"], ["100000000000000000000"]])
      await conn.rollback()
    })

    it("orders a set operation's result by the numbers of its unbounded NUMBER columns (position or name)", async () => {
      const values = [BIG, "-2.5", TINY, "7", "-3", "2", "4"]
      const byNumber = (a: string, b: string) => (Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0)
      expect(await texts("SELECT v FROM nf WHERE id IN (1, 2, 4) UNION SELECT w FROM nf WHERE id IN (1, 2, 4, 6) ORDER BY 1")).toEqual(
        [...new Set(values)].sort(byNumber).map((x) => [x])
      )
      expect(await texts("SELECT id, v AS x FROM nf WHERE id IN (1, 2, 4) UNION ALL SELECT id, w FROM nf WHERE id = 3 ORDER BY x DESC NULLS LAST")).toEqual([
        ["1", BIG],
        ["4", TINY],
        ["3", "0"],
        ["2", "-2.5"]
      ])
      expect(await texts("SELECT id, SUM(v) s FROM nf WHERE id <= 4 GROUP BY id ORDER BY s")).toEqual([
        ["2", "-2.5"],
        ["4", TINY],
        ["1", BIG],
        ["3", null]
      ])
    })
  })

  it("NUMBER mixed with BINARY_DOUBLE / BINARY_FLOAT computes in the floating-point type, as numeric precedence converts it", async () => {
    await conn.execute("CREATE TABLE nmix (n NUMBER, bd BINARY_DOUBLE, bf BINARY_FLOAT)")
    await conn.execute("INSERT INTO nmix VALUES ('2.5', 4, 0.5)")
    const sql = "SELECT n + bd, n * 1.5d, n - bf, bd / n, n + bf, n * 2 FROM nmix"
    const result = await conn.execute(sql, [], asText)
    expect(result.rows).toEqual([[6.5, 3.75, 2, 1.6, 3, "5"]])
    expect(result.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["BINARY_DOUBLE", "BINARY_DOUBLE", "BINARY_FLOAT", "BINARY_DOUBLE", "BINARY_FLOAT", "NUMBER"])
    // in a condition too: the exact column is compared as a double
    expect(await texts("SELECT COUNT(*) FROM nmix WHERE n + bd > 6.4d")).toEqual([["1"]])
  })

  it("divides literals and NUMBER(p,s) columns and averages them on every digit, described as unbounded NUMBER", async () => {
    await conn.execute("CREATE TABLE nbound (i NUMBER(10), p NUMBER(6,2))")
    await conn.executeMany("INSERT INTO nbound VALUES (:1, :2)", [[1, 1.25], [2, 3.5], [2, -0.75]])
    const third = "." + "3".repeat(40)
    expect(await texts("SELECT 1/3, 2/4, -1/3 FROM dual")).toEqual([[third, ".5", "-" + third]])
    expect(await described("SELECT 1/3, i/7, AVG(i) FROM nbound GROUP BY i")).toEqual([UNBOUNDED, EXPRESSION, EXPRESSION])
    expect(await texts("SELECT i/7, (i + 1)/3, p/3, ROUND(i/7, 3) FROM nbound WHERE p = 1.25")).toEqual([
      [".1428571428571428571428571428571428571429", ".6666666666666666666666666666666666666667", ".4166666666666666666666666666666666666667", ".143"]
    ])
    expect(await texts("SELECT AVG(i), AVG(p), AVG(DISTINCT i) FROM nbound")).toEqual([["1.66666666666666666666666666666666666667", "1.33333333333333333333333333333333333333", "1.5"]])
    // the exact quotient is compared and ordered as a number
    expect(await texts("SELECT p FROM nbound WHERE p/3 > 0.4 ORDER BY p/3 DESC")).toEqual([["3.5"], ["1.25"]])
    expect(await oraCode(() => conn.execute("SELECT i/0 FROM nbound"))).toBe("ORA-01476")
    // a NUMBER bind divides on every digit; a BINARY_DOUBLE bind makes the quotient a BINARY_DOUBLE
    expect(await texts("SELECT :1/3, i/:2 FROM nbound WHERE p = 1.25", [1, 3])).toEqual([[third, third]])
    const doubleBind = await conn.execute("SELECT i/:1 FROM nbound WHERE p = 1.25", [{ val: 3, type: oracledb.DB_TYPE_BINARY_DOUBLE }], asText)
    expect([doubleBind.rows, doubleBind.metaData[0].dbTypeName]).toEqual([[[1 / 3]], "BINARY_DOUBLE"])
    // a date plus a fraction of a day still adds hours
    expect(await texts("SELECT TO_CHAR(DATE '2024-01-01' + 1/24, 'HH24:MI') FROM dual")).toEqual([["01:00"]])
  })

  it("passes exact quotients and averages on through subqueries, WITH blocks, views, CTAS and functions", async () => {
    await conn.execute("CREATE TABLE nq (i NUMBER(10))")
    await conn.execute("INSERT INTO nq VALUES (1)")
    const seventh = ".1428571428571428571428571428571428571429"
    expect(await texts("SELECT x, x * 2, SUM(x) FROM (SELECT i/7 AS x FROM nq) GROUP BY x")).toEqual([[seventh, ".2857142857142857142857142857142857142858", seventh]])
    expect(await texts("WITH q AS (SELECT AVG(i) / 3 a FROM nq) SELECT a + 1 FROM q")).toEqual([["1.33333333333333333333333333333333333333"]])
    expect(await texts("SELECT NVL(i/3, 0) + 1, COUNT(*)/3, TO_CHAR(1/3) FROM nq GROUP BY i")).toEqual([
      ["1.33333333333333333333333333333333333333", ".3333333333333333333333333333333333333333", ".3333333333333333333333333333333333333333"]
    ])
    await conn.execute("CREATE VIEW nqv AS SELECT i/7 x FROM nq")
    await conn.execute("CREATE TABLE nqc AS SELECT i/7 x FROM nq")
    expect(await texts("SELECT v.x, c.x FROM nqv v, nqc c")).toEqual([[seventh, seventh]])
    expect(await described("SELECT x FROM nqc")).toEqual([UNBOUNDED])
  })
})
