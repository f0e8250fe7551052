import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// The query of CREATE VIEW ... AS and CREATE TABLE ... AS SELECT is any query (SQL Language Reference, "CREATE VIEW":
// "subquery", "CREATE TABLE": "AS subquery"), so SQL/JSON, JSON_TABLE and SQL/XML run there as in a plain SELECT.
// They failed with ORA-00933 while DDL rewrote its query with only three of the query path's token rewrites.
describe("Oracle test server: CREATE VIEW / CREATE TABLE AS over SQL/JSON, JSON_TABLE and SQL/XML", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE dq_docs (id NUMBER, doc VARCHAR2(200))")
    await conn.execute(`INSERT INTO dq_docs VALUES (1, '{"name":"Ann","items":[{"sku":"a"},{"sku":"b"}]}')`)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a view over JSON_VALUE and JSON_TABLE reads as the query does", async () => {
    await conn.execute("CREATE VIEW dq_names AS SELECT id, JSON_VALUE(doc, '$.name') AS name FROM dq_docs")
    expect((await conn.execute("SELECT id, name FROM dq_names")).rows).toEqual([[1, "Ann"]])
    await conn.execute(
      "CREATE VIEW dq_items AS SELECT d.id, jt.sku FROM dq_docs d, JSON_TABLE(d.doc, '$.items[*]' COLUMNS (sku VARCHAR2(5) PATH '$.sku')) jt"
    )
    expect((await conn.execute("SELECT id, sku FROM dq_items ORDER BY sku")).rows).toEqual([
      [1, "a"],
      [1, "b"]
    ])
  })

  it("CREATE TABLE AS SELECT stores XMLELEMENT's text and JSON_TABLE's rows", async () => {
    await conn.execute("CREATE TABLE dq_xml AS SELECT id, XMLSERIALIZE(CONTENT XMLELEMENT(\"n\", JSON_VALUE(doc, '$.name')) AS VARCHAR2(100)) AS x FROM dq_docs")
    expect((await conn.execute("SELECT id, x FROM dq_xml")).rows).toEqual([[1, "<n>Ann</n>"]])
    await conn.execute("CREATE TABLE dq_skus AS SELECT jt.sku FROM dq_docs d, JSON_TABLE(d.doc, '$.items[*]' COLUMNS (sku VARCHAR2(5) PATH '$.sku')) jt")
    expect((await conn.execute("SELECT sku FROM dq_skus ORDER BY sku")).rows).toEqual([["a"], ["b"]])
  })
})
