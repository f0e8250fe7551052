/**
 * A DbObject bound IN by a client holds its CHAR / NCHAR attributes blank-padded to their declared length, as a CHAR
 * column or a constructor's CHAR attribute holds them (SQL Language Reference, "Blank-Padded and Nonpadded Comparison
 * Semantics"), in a PL/SQL variable and when stored. Before, they kept the text as sent. Raw node-oracledb against the
 * Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR attributes of DbObject IN binds", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TYPE ocb_t AS OBJECT (c CHAR(5), n NCHAR(4), v VARCHAR2(10))")
    await conn.execute("CREATE TABLE ocb_tab (o ocb_t)")
  })
  afterAll(() => closeConnection(opened))

  it("are blank-padded in a PL/SQL variable and in a stored object; VARCHAR2 attributes are not", async () => {
    const T = await conn.getDbObjectClass("OCB_T")
    const r = await conn.execute("DECLARE x ocb_t := :x; BEGIN :o := '[' || x.c || '][' || x.n || '][' || x.v || ']' || LENGTH(x.c) || LENGTH(x.n); END;", {
      x: new T({ C: "ab", N: "é", V: "q" }),
      o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }
    })
    expect(r.outBinds.o).toBe("[ab   ][é   ][q]54")
    await conn.execute("INSERT INTO ocb_tab VALUES (:x)", { x: new T({ C: "ab", N: "é", V: "q" }) })
    expect((await conn.execute("SELECT '[' || t.o.c || ']', t.o.c FROM ocb_tab t")).rows).toEqual([["[ab   ]", "ab   "]])
  })
})
