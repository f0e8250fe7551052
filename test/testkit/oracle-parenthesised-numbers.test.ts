/**
 * An unbounded NUMBER column in parentheses, `(n)`, is the same NUMBER value: compared with a BINARY_DOUBLE (NUMBER
 * converts to BINARY_DOUBLE: SQL Language Reference, "Numeric Precedence"), as a BETWEEN bound and inside arithmetic,
 * as the bare column is. Raw node-oracledb against the test server (`f > (n)` failed ORA-00932, `f BETWEEN n AND 3`
 * ORA-00932 and `f < (n) + 2` ORA-01722).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const ids = async (where: string): Promise<Array<number>> => ((await conn.execute(`SELECT id FROM pn WHERE ${where} ORDER BY id`)).rows ?? []).map((r: Array<number>) => r[0]!)

describe("Oracle test server: a parenthesised NUMBER column compared and computed as the column", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE pn (id NUMBER, f BINARY_DOUBLE, n NUMBER)")
    await conn.execute("INSERT INTO pn VALUES (1, 2.5, 1)")
    await conn.execute("INSERT INTO pn VALUES (2, 0.5, 3)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("compares a BINARY_DOUBLE with (n) on either side", async () => {
    expect(await ids("f > (n)")).toEqual([1])
    expect(await ids("(n) < f")).toEqual([1])
    expect(await ids("f <= ((n))")).toEqual([2])
    expect(((await conn.execute("SELECT CASE WHEN f > (n) THEN 'y' ELSE 'n' END FROM pn ORDER BY id")).rows ?? []).map((r: Array<string>) => r[0])).toEqual(["y", "n"])
  })

  it("takes a NUMBER bound of a BINARY_DOUBLE's BETWEEN, bare or in parentheses", async () => {
    expect(await ids("f BETWEEN n AND 3")).toEqual([1])
    expect(await ids("f BETWEEN (n) AND 3")).toEqual([1])
    expect(await ids("f NOT BETWEEN (n) AND 3")).toEqual([2])
  })

  it("computes on (n) as on n", async () => {
    expect(await ids("f < (n) + 2")).toEqual([1, 2])
    expect(await ids("f BETWEEN 0 AND (n) - 1")).toEqual([2])
    expect((await conn.execute("SELECT (n) + 1, (n) / 3 FROM pn WHERE id = 2")).rows).toEqual([[4, 1]])
  })
})
