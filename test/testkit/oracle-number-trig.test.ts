/**
 * SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH and TANH over NUMBER through raw node-oracledb against the
 * Oracle test server: computed in decimal to NUMBER's 40 digits ("accurate to 36 decimal digits" for COS, COSH, SIN,
 * SINH, TAN, TANH; "to 30 decimal digits" for ACOS, ASIN, ATAN, ATAN2: SQL Language Reference, "Numeric Functions",
 * https://docs.oracle.com/cd/E24693_01/server.11203/e17118/functions002.htm), where binary doubles keep 15-17.
 * The expected texts are the published constants (sin 1, cos 1, tan 1, sinh 1, cosh 1, tanh 1, π and its fractions)
 * rounded to NUMBER's digits: 40 significant digits for a value whose leading digit is at an odd power of ten, 39 at
 * an even one.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, numbersAsText, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const row = async (sql: string): Promise<Array<string | null>> => (await conn.execute(sql, [], numbersAsText)).rows[0]

// sin 1 = 0.84147098480789650665250232163029899962256306..., cos 1 = 0.54030230586813971740093660744297660373231042...,
// tan 1 = 1.55740772465490223050697480745836017308725077..., sinh 1 = 1.17520119364380145688238185059560081515571798...,
// cosh 1 = 1.54308063481524377847790562075706168260152911..., tanh 1 = 0.76159415595576488811945828260479359041276859...
const AT_ONE = {
  SIN: ".8414709848078965066525023216302989996226",
  COS: ".5403023058681397174009366074429766037323",
  TAN: "1.55740772465490223050697480745836017309",
  SINH: "1.17520119364380145688238185059560081516",
  COSH: "1.5430806348152437784779056207570616826",
  TANH: ".7615941559557648881194582826047935904128"
}

// π = 3.14159265358979323846264338327950288419716939937510...
const INVERSE = [
  ["ACOS(-1)", "3.1415926535897932384626433832795028842"],
  ["ASIN(1)", "1.5707963267948966192313216916397514421"],
  ["ATAN(1)", ".7853981633974483096156608458198757210493"],
  ["ASIN(.5)", ".5235987755982988730771072305465838140329"],
  ["ACOS(.5)", "1.04719755119659774615421446109316762807"],
  ["ATAN2(1, -1)", "2.35619449019234492884698253745962716315"],
  ["ATAN2(-1, 0)", "-1.5707963267948966192313216916397514421"],
  ["ACOS(1)", "0"],
  ["ASIN(-1)", "-1.5707963267948966192313216916397514421"]
] as const

describe("Oracle test server: trigonometric and hyperbolic functions of NUMBER through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE trig (id NUMBER(3), n NUMBER, p NUMBER(5,2), d BINARY_DOUBLE)")
    await conn.execute("INSERT INTO trig VALUES (1, 1, 1, 1)")
    await conn.execute("INSERT INTO trig VALUES (2, -1, -1, -1)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("computes SIN, COS, TAN, SINH, COSH and TANH of 1 on every digit (column without precision, NUMBER(p,s) and literal)", async () => {
    const names = Object.keys(AT_ONE) as Array<keyof typeof AT_ONE>
    const expected = names.map((f) => AT_ONE[f])
    expect(await row(`SELECT ${names.map((f) => `${f}(n)`).join(", ")} FROM trig WHERE id = 1`)).toEqual(expected)
    expect(await row(`SELECT ${names.map((f) => `${f}(p)`).join(", ")} FROM trig WHERE id = 1`)).toEqual(expected)
    expect(await row(`SELECT ${names.map((f) => `${f}(1)`).join(", ")} FROM DUAL`)).toEqual(expected)
    // odd and even functions at -1
    expect(await row("SELECT SIN(n), COS(n), TANH(n) FROM trig WHERE id = 2")).toEqual([`-${AT_ONE.SIN}`, AT_ONE.COS, `-${AT_ONE.TANH}`])
  })

  it("computes ASIN, ACOS, ATAN and ATAN2 to NUMBER's digits (π and its fractions)", async () => {
    expect(await row(`SELECT ${INVERSE.map(([sql]) => sql).join(", ")} FROM DUAL`)).toEqual(INVERSE.map(([, text]) => text))
  })

  it("keeps the digits in further NUMBER arithmetic and reduces large arguments by π exactly", async () => {
    // sin²x + cos²x = 1 to NUMBER's precision, also at 1E+100 where a double's argument is not 1E+100 at all
    for (const x of ["1", "1E+100", "123456789.123456789"]) {
      const [sum] = await row(`SELECT ROUND(POWER(SIN(${x}), 2) + POWER(COS(${x}), 2), 36) FROM DUAL`)
      expect(sum).toBe("1")
    }
    // 4·ATAN(1) is π to NUMBER's digits; SIN of π as a NUMBER is its distance from π (π = 3.14159265358979323846264338327950288419716939..., so 2.830600624894E-39)
    expect(await row("SELECT 4 * ATAN(1) FROM DUAL")).toEqual(["3.1415926535897932384626433832795028842"])
    const [nearPi] = await row("SELECT SIN(ACOS(-1)) FROM DUAL")
    expect(nearPi).toMatch(/^-\.0{38}283060062489\d{28}$/)
  })

  it("rejects ASIN / ACOS beyond 1 with ORA-01428 and a hyperbolic result beyond NUMBER's range with ORA-01426", async () => {
    expect(oraCode(await failure(() => row("SELECT ASIN(2) FROM DUAL")))).toBe("ORA-01428")
    expect(oraCode(await failure(() => row("SELECT ACOS(n - 3) FROM trig WHERE id = 1")))).toBe("ORA-01428")
    expect(oraCode(await failure(() => row("SELECT COSH(1000) FROM DUAL")))).toBe("ORA-01426")
    expect(await row("SELECT SIN(NULL), TANH(1000) FROM DUAL")).toEqual([null, "1"])
  })

  it("keeps BINARY_DOUBLE operands binary", async () => {
    const r = await conn.execute("SELECT SIN(d), ATAN2(d, n) FROM trig WHERE id = 1")
    expect(r.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_BINARY_DOUBLE, oracledb.DB_TYPE_BINARY_DOUBLE])
    expect(r.rows[0]).toEqual([Math.sin(1), Math.atan2(1, 1)])
  })
})
