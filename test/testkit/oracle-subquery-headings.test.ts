/**
 * An unaliased expression of a subquery's select list is named by its heading, as Oracle names it (the expression's
 * text, upper-cased and without blanks: `V*2`), so that `SELECT *` shows that name and the
 * enclosing query can name it (SQL Language Reference, SELECT, c_alias: without an alias the column heading is the expression).
 * Raw node-oracledb against the test server (it named such a column by its DuckDB translation: ORA-00904).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: headings of a subquery's unaliased expressions", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE sh (id NUMBER PRIMARY KEY, v NUMBER, n NUMBER(6,2))")
    await conn.execute("INSERT INTO sh VALUES (1, 10, 1.5)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("names the enclosing query's columns by the expressions' headings", async () => {
    const r = await conn.execute("SELECT * FROM (SELECT v*2, n + 1, id FROM sh)")
    expect((r.metaData ?? []).map((m: { name: string }) => m.name)).toEqual(["V*2", "N+1", "ID"])
    expect(r.rows).toEqual([[20, 2.5, 1]])
  })

  it("computes on such a column as on the expression it names (it was ORA-00932)", async () => {
    const r = await conn.execute(`SELECT "V*2" + 1, "N+1" * 2, "V*2" / 3 FROM (SELECT v*2, n + 1 FROM sh)`)
    expect(r.rows).toEqual([[21, 5, 20 / 3]])
    expect((r.metaData ?? []).map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["NUMBER", "NUMBER", "NUMBER"])
    expect((await conn.execute(`SELECT TO_CHAR("V*2" / 3) FROM (SELECT v * 2 FROM sh)`)).rows).toEqual([["6.66666666666666666666666666666666666667"]])
  })
})
