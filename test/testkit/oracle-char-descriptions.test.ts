/**
 * How CHAR expressions are described and padded, and CONNECT_BY_ROOT outside the select list. Before: a select item
 * that is a CHAR expression other than a column or a bare text literal (CAST AS CHAR(n), UPPER of a CHAR(n), NULLIF,
 * a CASE of CHAR(n) columns) was described as VARCHAR2(4000), where Oracle describes it as CHAR of its length;
 * `CAST(x AS NCHAR(n))` / `NATIONAL CHARACTER(n)` was not blank-padded to n; CONNECT_BY_ROOT in a hierarchical query's
 * WHERE clause failed ORA-00904. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR expressions described as CHAR(n), NCHAR casts, CONNECT_BY_ROOT in WHERE", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE cd_t (id NUMBER, c CHAR(5), d CHAR(5), v VARCHAR2(5))")
    await conn.execute("INSERT INTO cd_t VALUES (1, 'ab', 'xy', 'ab')")
    await conn.execute("CREATE TABLE cd_tree (id NUMBER, parent NUMBER, name VARCHAR2(10))")
    for (const [id, parent, name] of [[1, null, "A"], [2, 1, "B"], [3, 2, "C"], [4, null, "X"], [5, 4, "Y"]] as const)
      await conn.execute("INSERT INTO cd_tree VALUES (:1, :2, :3)", [id, parent, name])
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const described = async (sql: string) => {
    const r = await conn.execute(sql)
    return { rows: r.rows, meta: r.metaData.map((m: Meta) => ({ type: m.dbType, size: m.byteSize })) }
  }
  type Meta = { readonly dbType?: unknown; readonly byteSize?: number }
  const char = (size: number) => ({ type: oracledb.DB_TYPE_CHAR, size })

  it("describes CAST AS CHAR(n), UPPER of a CHAR(n), NULLIF and a CASE of CHAR(n) columns as CHAR of their length", async () => {
    // CAST "converts one built-in data type ... into another": CHAR(6); UPPER "returns ... the same data type as char"
    expect(await described("SELECT CAST(v AS CHAR(6)) x, UPPER(c), NULLIF(c, 'x') n, CASE WHEN id = 1 THEN c ELSE d END k FROM cd_t")).toEqual({
      rows: [["ab    ", "AB   ", "ab   ", "ab   "]],
      meta: [char(6), char(5), char(5), char(5)]
    })
    // getStatementInfo describes without running
    const info = await conn.getStatementInfo("SELECT LOWER(c) l, CAST(id AS CHAR(3)) FROM cd_t")
    expect(info.metaData?.map((m: Meta) => ({ type: m.dbType, size: m.byteSize }))).toEqual([char(5), char(3)])
    // MAX returns one of its argument's values; a set operation of CHAR(6) branches is CHAR(6) ("The Set Operators")
    expect(await described("SELECT MAX(c) FROM cd_t")).toEqual({ rows: [["ab   "]], meta: [char(5)] })
    expect(await described("SELECT CAST(v AS CHAR(6)) FROM cd_t UNION ALL SELECT CAST(c AS CHAR(6)) FROM cd_t")).toEqual({ rows: [["ab    "], ["ab    "]], meta: [char(6)] })
    // VARCHAR2-valued ones stay VARCHAR2
    expect((await described("SELECT RTRIM(c), UPPER(v) FROM cd_t")).meta.map((m: Meta & { type?: unknown }) => m.type)).toEqual([oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_VARCHAR])
  })

  it("pads CAST AS NCHAR(n) and NATIONAL CHARACTER(n) to n and describes them as NCHAR(n)", async () => {
    const r = await conn.execute("SELECT CAST('ab' AS NCHAR(4)) a, CAST(v AS NATIONAL CHARACTER(6)) b, CAST(v AS NATIONAL CHAR(3)) c, LENGTH(CAST('ab' AS NCHAR(4))) l FROM cd_t")
    expect(r.rows).toEqual([["ab  ", "ab    ", "ab ", 4]])
    expect(r.metaData.slice(0, 3).map((m: Meta) => m.dbType)).toEqual([oracledb.DB_TYPE_NCHAR, oracledb.DB_TYPE_NCHAR, oracledb.DB_TYPE_NCHAR])
  })

  it("reads CONNECT_BY_ROOT in WHERE, and refuses it in START WITH / CONNECT BY with ORA-30007", async () => {
    // "You cannot specify this operator in the START WITH condition or the CONNECT BY condition" (SQL Language
    // Reference, "Hierarchical Query Operators"): elsewhere, WHERE included, it is the root row's value
    const r = await conn.execute("SELECT name FROM cd_tree WHERE CONNECT_BY_ROOT name = 'X' START WITH parent IS NULL CONNECT BY PRIOR id = parent")
    expect(r.rows).toEqual([["X"], ["Y"]])
    const both = await conn.execute(
      "SELECT name, CONNECT_BY_ROOT name r FROM cd_tree WHERE CONNECT_BY_ROOT id = 1 AND LEVEL > 1 START WITH parent IS NULL CONNECT BY PRIOR id = parent"
    )
    expect(both.rows).toEqual([["B", "A"], ["C", "A"]])
    expect(oraCode(await failure(() => conn.execute("SELECT name FROM cd_tree START WITH CONNECT_BY_ROOT id = 1 CONNECT BY PRIOR id = parent")))).toBe("ORA-30007")
    expect(oraCode(await failure(() => conn.execute("SELECT name FROM cd_tree START WITH parent IS NULL CONNECT BY PRIOR id = parent AND CONNECT_BY_ROOT id = 1")))).toBe("ORA-30007")
  })
})
