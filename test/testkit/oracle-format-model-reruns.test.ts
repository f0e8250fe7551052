import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// A format model that is an expression is evaluated per row (SQL Language Reference, "TO_CHAR (datetime)": "fmt ...
// can be a character expression", https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/TO_CHAR-datetime.html),
// and a statement takes one NEXTVAL per row ("Sequence Pseudocolumns"). The server compiles such a call into a CASE
// over the values met (format-model-sites.ts); these are the statements that ran more than once to meet them, taking
// sequence values on each run.
describe("Oracle test server: format expressions in statements that take NEXTVAL run once (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const currval = async (seq: string) => ((await conn.execute(`SELECT ${seq}.CURRVAL FROM dual`)).rows as Array<[number]>)[0]![0]
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fmr (id NUMBER, d DATE, f VARCHAR2(30))")
    await conn.execute("INSERT INTO fmr VALUES (1, DATE '2024-02-29', 'DD.MM.YYYY')")
    await conn.execute("INSERT INTO fmr VALUES (2, DATE '2024-03-01', 'YYYY-MM-DD')")
    await conn.execute("INSERT INTO fmr VALUES (3, DATE '2024-03-02', 'MM/DD')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a MERGE whose ON condition holds a format expression advances the sequence once per row", async () => {
    await conn.execute("CREATE SEQUENCE fmr_mseq")
    await conn.execute("CREATE TABLE fmr_m (k NUMBER, s VARCHAR2(30))")
    await conn.execute("INSERT INTO fmr_m VALUES (0, '2024-03-01')")
    const merge = "MERGE INTO fmr_m t USING fmr s ON (t.s = TO_CHAR(s.d, s.f)) WHEN MATCHED THEN UPDATE SET t.k = fmr_mseq.NEXTVAL WHEN NOT MATCHED THEN INSERT (k, s) VALUES (fmr_mseq.NEXTVAL, TO_CHAR(s.d, s.f) || '!')"
    await conn.execute(merge)
    // one row matched (id 2), two inserted: three values
    expect(await currval("fmr_mseq")).toBe(3)
    expect(((await conn.execute("SELECT s FROM fmr_m ORDER BY s")).rows as Array<[string]>).map((r) => r[0])).toEqual(["03/02!", "2024-03-01", "29.02.2024!"])
    expect(((await conn.execute("SELECT k FROM fmr_m ORDER BY k")).rows as Array<[number]>).map((r) => r[0])).toEqual([1, 2, 3])
    await conn.rollback()
  })
})
