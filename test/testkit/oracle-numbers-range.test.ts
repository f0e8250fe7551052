import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, numbersAsText, openConnection, oracledb } from "./oracle/helpers.ts"

// Oracle NUMBER holds "positive numbers in the range 1 x 10^-130 to 9.99...9 x 10^125 with up to 38 significant
// digits" (SQL Language Reference, "NUMBER Data Type"). node-oracledb's text of a NUMBER fetched as a string is
// its decimal expansion (lib/impl/datahandlers/oson.js / thin decodeNumber), so the expected values are plain decimals.
let server: OracleTestServerHandle
let conn: Conn

const NINES = `9.${"9".repeat(37)}E125`
const plain = {
  big: `1${"0".repeat(125)}`,
  tiny: `.${"0".repeat(129)}1`,
  nines: `${"9".repeat(38)}${"0".repeat(88)}`
}

describe("Oracle test server: NUMBER over its whole range, exactly", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE nr (id NUMBER(3), v NUMBER)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("round-trips 1E125, 1E-130 and 38 nines x 10^125 digit for digit: literals, string and number binds, RETURNING and PL/SQL OUT binds", async () => {
    await conn.execute(`INSERT INTO nr VALUES (1, 1E125)`)
    await conn.execute(`INSERT INTO nr VALUES (2, 1E-130)`)
    await conn.execute(`INSERT INTO nr VALUES (3, ${NINES})`)
    await conn.execute(`INSERT INTO nr VALUES (4, :v)`, [{ val: `-${NINES}`, type: oracledb.STRING }])
    await conn.execute(`INSERT INTO nr VALUES (5, :v)`, [1e125])
    await conn.execute(`INSERT INTO nr VALUES (6, :v)`, [1e-130])
    const r = await conn.execute("SELECT v, TO_CHAR(v) FROM nr ORDER BY id", [], numbersAsText)
    expect(r.rows).toEqual([
      [plain.big, "1E+125"],
      [plain.tiny, "1E-130"],
      [plain.nines, `${NINES.replace("E", "E+")}`],
      [`-${plain.nines}`, `-${NINES.replace("E", "E+")}`],
      [plain.big, "1E+125"],
      [plain.tiny, "1E-130"]
    ])
    const out = await conn.execute("UPDATE nr SET v = v WHERE id = 3 RETURNING v INTO :o", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING } })
    expect(out.outBinds.o).toEqual([`${NINES.replace("E", "E+")}`])
    const block = await conn.execute("BEGIN SELECT v INTO :o FROM nr WHERE id = 2; END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING } })
    expect(block.outBinds.o).toBe("1E-130")
    await conn.rollback()
  })

  it("divides NUMBER binds exactly in DML (INSERT, UPDATE, executeMany)", async () => {
    await conn.execute("INSERT INTO nr VALUES (10, :a / :b)", [1, 3])
    await conn.execute("INSERT INTO nr VALUES (11, 0)")
    await conn.execute("UPDATE nr SET v = :a / :b WHERE id = 11", [2, 3])
    await conn.executeMany("INSERT INTO nr VALUES (:1, :2 / :3)", [[12, 7, 3], [13, 1, 7]])
    const r = await conn.execute("SELECT TO_CHAR(v) FROM nr WHERE id >= 10 ORDER BY id")
    // 40 digits for a quotient below 1 (20 base-100 digits), 39 for 7/3 (its first base-100 digit is 02)
    expect(r.rows).toEqual([[`.${"3".repeat(40)}`], [`.${"6".repeat(39)}7`], [`2.${"3".repeat(38)}`], [".1428571428571428571428571428571428571429"]])
    await conn.rollback()
  })

  it("applies TO_CHAR number format models in the select list, WHERE, ORDER BY and nested calls", async () => {
    await conn.executeMany("INSERT INTO nr VALUES (:1, :2)", [[20, 1234.5], [21, 7], [22, -0.25]])
    const r = await conn.execute(
      `SELECT TO_CHAR(v, '9,999.99'), UPPER(TRIM(TO_CHAR(v, 'S0000.0'))) || 'x' FROM nr
        WHERE id >= 20 AND TO_CHAR(v, 'FM9999.00') <> '7.00' ORDER BY TO_CHAR(v, 'S0000.00') DESC`
    )
    // the ORDER BY compares the formatted text: '-' sorts after '+'
    expect(r.rows).toEqual([
      ["     -.25", "-0000.3x"],
      [" 1,234.50", "+1234.5x"]
    ])
    await conn.rollback()
  })
})
