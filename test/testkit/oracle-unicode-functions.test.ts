import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// LNNVL, NLSSORT (BINARY, BINARY_CI, BINARY_AI), UNISTR and ASCIISTR through raw node-oracledb (SQL Language Reference
// 23ai). They failed ORA-00904.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: LNNVL, NLSSORT, UNISTR, ASCIISTR", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE un (id NUMBER(4), name VARCHAR2(10), sal NUMBER)")
    await conn.executeMany("INSERT INTO un VALUES (:1, :2, :3)", [[1, "Ärger", 100], [2, "apfel", null], [3, "APFEL", 300], [4, "Zebra", 50]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("LNNVL is TRUE where its condition is FALSE or UNKNOWN", async () => {
    expect(await rows("SELECT id FROM un WHERE LNNVL(sal > 60) ORDER BY id")).toEqual([[2], [4]])
    expect(await rows("SELECT COUNT(*) FROM un WHERE LNNVL(name = 'apfel') AND LNNVL(sal IS NULL)")).toEqual([[3]])
  })

  it("NLSSORT gives BINARY, BINARY_CI and BINARY_AI keys that compare and order as those sorts", async () => {
    expect(await rows("SELECT NLSSORT('ab', 'NLS_SORT=BINARY'), NLSSORT('ab') FROM dual")).toEqual([[Buffer.from([0x61, 0x62, 0]), Buffer.from([0x61, 0x62, 0])]])
    expect(await rows("SELECT id FROM un WHERE NLSSORT(name, 'NLS_SORT=BINARY_CI') = NLSSORT('Apfel', 'NLS_SORT=BINARY_CI') ORDER BY id")).toEqual([[2], [3]])
    expect(await rows("SELECT id FROM un ORDER BY NLSSORT(name, 'NLS_SORT = BINARY_AI'), id")).toEqual([[2], [3], [1], [4]])
    expect(await rows("SELECT id FROM un ORDER BY NLSSORT(name, 'NLS_SORT=BINARY')")).toEqual([[3], [4], [2], [1]])
    await expect(conn.execute("SELECT NLSSORT('a', 'NLS_SORT=NO_SUCH_SORT') FROM dual")).rejects.toThrow(/ORA-12702/)
  })

  it("UNISTR reads \\xxxx and \\\\, ASCIISTR writes every non-ASCII UTF-16 unit and the backslash as \\xxxx", async () => {
    expect(await rows("SELECT UNISTR('a\\00e9b\\\\c'), UNISTR('\\D83D\\DE00'), ASCIISTR('aéb\\c'), ASCIISTR(UNISTR('x\\D83D\\DE00')) FROM dual")).toEqual([["aéb\\c", "😀", "a\\00E9b\\005Cc", "x\\D83D\\DE00"]])
    expect(await rows("SELECT ASCIISTR(name) FROM un WHERE id = 1")).toEqual([["\\00C4rger"]])
    await expect(conn.execute("SELECT UNISTR('a\\x') FROM dual")).rejects.toThrow(/ORA-30186/)
  })
})
