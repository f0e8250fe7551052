import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// Oracle's regular expression functions and the character / hash functions DuckDB lacks, through raw node-oracledb.
// Expected values are the SQL Language Reference 23ai's own examples ("REGEXP_SUBSTR", "REGEXP_INSTR",
// "REGEXP_COUNT", "REGEXP_REPLACE", "REGEXP_LIKE Condition", "INITCAP", "RATIO_TO_REPORT") and the MD5 / SHA-1 digests
// of the bytes (STANDARD_HASH).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: REGEXP_* and character functions", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE rx (id NUMBER, addr VARCHAR2(60), phone VARCHAR2(20), sal NUMBER(8,2))")
    await conn.execute("INSERT INTO rx VALUES (1, '500 Oracle Parkway, Redwood Shores, CA', '515.123.4567', 100)")
    await conn.execute("INSERT INTO rx VALUES (2, 'steven', NULL, 300)")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const one = async (expr: string): Promise<unknown> => ((await conn.execute(`SELECT ${expr} FROM rx WHERE id = 1`)).rows as Array<Array<unknown>>)[0]![0]

  it("REGEXP_SUBSTR, REGEXP_INSTR and REGEXP_COUNT as the reference's examples give them", async () => {
    expect(await one("REGEXP_SUBSTR(addr, ',[^,]+,')")).toBe(", Redwood Shores,")
    expect(await one("REGEXP_SUBSTR('http://www.example.com/products', 'http://([[:alnum:]]+\\.?){3,4}/?')")).toBe("http://www.example.com/")
    expect(await one("REGEXP_SUBSTR('1234567890', '(123)(4(56)(78))', 1, 1, 'i', 4)")).toBe("78")
    expect(await one("REGEXP_SUBSTR(addr, 'nothing')")).toBeNull()
    expect(await one("REGEXP_INSTR(addr, '[^ ]+', 1, 6)")).toBe(37)
    expect(await one("REGEXP_INSTR(addr, '[s|r|p][[:alpha:]]{6}', 3, 2, 1, 'i')")).toBe(28)
    expect(await one("REGEXP_COUNT('123123123123123', '(12)3', 1, 'i')")).toBe(5)
    expect(await one("REGEXP_COUNT('123123123123', '123', 3, 'i')")).toBe(3)
  })

  it("REGEXP_REPLACE replaces every occurrence by default, with back references; REGEXP_LIKE takes a match parameter", async () => {
    expect(await one("REGEXP_REPLACE('500   Oracle     Parkway,    Redwood  Shores, CA', '( ){2,}', ' ')")).toBe("500 Oracle Parkway, Redwood Shores, CA")
    expect(await one("REGEXP_REPLACE(phone, '([[:digit:]]{3})\\.([[:digit:]]{3})\\.([[:digit:]]{4})', '(\\1) \\2-\\3')")).toBe("(515) 123-4567")
    expect(await one("REGEXP_REPLACE('abab', 'b', 'X', 1, 2)")).toBe("abaX")
    expect(await one("REGEXP_REPLACE('abab', 'b')")).toBe("aa")
    const like = await conn.execute("SELECT id FROM rx WHERE REGEXP_LIKE(addr, '^ste(v|ph)en$', 'i') OR REGEXP_LIKE(addr, '^500')  ORDER BY id")
    expect(like.rows).toEqual([[1], [2]])
    expect((await conn.execute("SELECT id FROM rx WHERE REGEXP_LIKE(addr, '^STEVEN$')")).rows).toEqual([])
    expect(oraCode(await failure(() => conn.execute("SELECT REGEXP_SUBSTR(addr) FROM rx")))).toBe("ORA-00938")
    // a pattern Oracle cannot read: its regular expression errors (Database Error Messages ORA-12725, ORA-12726)
    expect(oraCode(await failure(() => conn.execute("SELECT id FROM rx WHERE REGEXP_LIKE(addr, '(')")))).toBe("ORA-12725")
    expect(oraCode(await failure(() => conn.execute("SELECT REGEXP_COUNT(addr, '[a') FROM rx")))).toBe("ORA-12726")
  })

  it("INITCAP, STANDARD_HASH, ORA_HASH and RATIO_TO_REPORT", async () => {
    expect(await one("INITCAP('the soap')")).toBe("The Soap")
    expect(await one("INITCAP('o''NEIL-smith jr.')")).toBe("O'Neil-Smith Jr.")
    expect(await one("RAWTOHEX(STANDARD_HASH('foo', 'MD5'))")).toBe("ACBD18DB4CC2F85CEDEF654FCCC4A4D8")
    expect(await one("RAWTOHEX(STANDARD_HASH('foo'))")).toBe("0BEEC7B5EA3F0FDBC95D0DD47F3C5BC275DA8A33")
    const bucket = (await one("ORA_HASH(addr, 9)")) as number
    expect(bucket >= 0 && bucket <= 9).toBe(true)
    expect(await one("ORA_HASH(addr, 9)")).toBe(bucket)
    const r = await conn.execute("SELECT id, RATIO_TO_REPORT(sal) OVER () FROM rx ORDER BY id")
    expect(r.rows).toEqual([
      [1, 0.25],
      [2, 0.75]
    ])
  })
})
