/**
 * MERGE ... RETURNING lob_column INTO :lob gives locators of the rows the MERGE updated or inserted, which the MERGE
 * locked (Database Concepts, "Row Locks (TX)"): the client writes them as it writes those of INSERT / UPDATE
 * RETURNING (SecureFiles and Large Objects Developer's Guide, "LOB Locators"; 23ai's RETURNING clause takes MERGE:
 * Error Messages, ORA-06547 "RETURNING clause must be used with INSERT, UPDATE, DELETE, or MERGE statements").
 * Raw node-oracledb.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { writeThrough } from "./oracle/lob-data.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: LOB locators from MERGE RETURNING INTO", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE mdocs (id NUMBER PRIMARY KEY, c CLOB)")
    await conn.execute("INSERT INTO mdocs VALUES (1, 'old')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const merge = (id: number) =>
    conn.execute(
      "MERGE INTO mdocs t USING (SELECT :id AS id FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.c = EMPTY_CLOB() WHEN NOT MATCHED THEN INSERT (id, c) VALUES (s.id, EMPTY_CLOB()) RETURNING c INTO :c",
      { id, c: { type: oracledb.CLOB, dir: oracledb.BIND_OUT } }
    )

  it("writes through the locator of a row the MERGE updated and of one it inserted", async () => {
    const updated = await merge(1)
    await writeThrough(updated.outBinds.c[0], "updated text", 5)
    const inserted = await merge(2)
    await writeThrough(inserted.outBinds.c[0], "inserted text", 5)
    await conn.commit()
    expect((await conn.execute("SELECT id, c FROM mdocs ORDER BY id", [], { fetchInfo: { C: { type: oracledb.STRING } } })).rows).toEqual([
      [1, "updated text"],
      [2, "inserted text"]
    ])
  })
})

// "When a LOB is returned from a SQL or PL/SQL built-in function, the result returned is a temporary LOB"
// (SecureFiles and Large Objects Developer's Guide 23, "Temporary LOBs Created by SQL and PL/SQL Built-in Functions"):
// a returned expression's LOB is the session's, written through its locator without touching the row.
describe("Oracle test server: a LOB expression DML RETURNING gives is a temporary LOB", () => {
  let server2: OracleTestServerHandle
  let c2: Conn
  beforeAll(async () => {
    ;({ server: server2, conn: c2 } = await openConnection())
    await c2.execute("CREATE TABLE edocs (id NUMBER PRIMARY KEY, c CLOB)")
    await c2.execute("INSERT INTO edocs VALUES (1, 'row text')")
    await c2.commit()
  })
  afterAll(() => closeConnection({ server: server2, conn: c2 }))

  it("writes the returned TO_CLOB(...) through its locator; the row keeps what the UPDATE wrote", async () => {
    const r = await c2.execute("UPDATE edocs SET c = 'new text' WHERE id = 1 RETURNING TO_CLOB(c) INTO :c", { c: { type: oracledb.CLOB, dir: oracledb.BIND_OUT } })
    const lob = r.outBinds.c[0]
    await new Promise<void>((resolve, reject) => lob.write("changed", (e: unknown) => (e ? reject(e) : resolve())))
    expect(await lob.getData()).toBe("changedt")
    await c2.commit()
    expect((await c2.execute("SELECT c FROM edocs", [], { fetchInfo: { C: { type: oracledb.STRING } } })).rows).toEqual([["new text"]])
  })
})
