import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// IS JSON check constraints and simple dot notation on textual JSON columns through raw node-oracledb. Expected
// behaviour: JSON Developer's Guide 19c/23ai, "Creating a Table With a JSON Column" (an IS JSON check constraint
// ensures the column holds only well-formed JSON; a violation is ORA-02290 naming the constraint, as for any CHECK)
// and "Simple Dot-Notation Access to JSON Data" (on a VARCHAR2 / CLOB / BLOB column only when it has an IS JSON check
// constraint; the value is returned as VARCHAR2(4000) JSON text, one value as it is, several in an array).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: IS JSON check constraints and dot notation on textual JSON (19c)", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "19c" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE jck (id NUMBER, doc VARCHAR2(400) CONSTRAINT jck_doc_json CHECK (doc IS JSON), note CLOB, CONSTRAINT jck_note_json CHECK (note IS JSON STRICT))")
    await conn.execute(`INSERT INTO jck VALUES (1, '{"a":{"b":"x","n":12},"items":[{"p":"u","q":1},{"p":"v","q":2}],"d":"2024-05-06"}', '{"k":[1,2]}')`)
    await conn.execute(`INSERT INTO jck (id) VALUES (2)`)
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("refuses text that is no JSON on INSERT and UPDATE with ORA-02290 naming the constraint", async () => {
    const insert = await failure(() => conn.execute(`INSERT INTO jck (id, doc) VALUES (3, 'not json')`))
    expect(oraCode(insert)).toBe("ORA-02290")
    expect(insert.message).toContain("check constraint (TEST.JCK_DOC_JSON) violated")
    const update = await failure(() => conn.execute(`UPDATE jck SET note = '{a:1' WHERE id = 1`))
    expect(update.message).toContain("check constraint (TEST.JCK_NOTE_JSON) violated")
    // 19c: a scalar is no JSON document
    expect(oraCode(await failure(() => conn.execute(`INSERT INTO jck (id, doc) VALUES (4, '42')`)))).toBe("ORA-02290")
    // NULL passes, as with any check
    await conn.execute(`UPDATE jck SET doc = NULL WHERE id = 2`)
    expect((await conn.execute(`SELECT COUNT(*) FROM jck`)).rows).toEqual([[2]])
  })

  it("ALTER TABLE ADD CONSTRAINT ... CHECK (col IS JSON) validates the rows present, then holds new ones to it", async () => {
    await conn.execute("CREATE TABLE jck2 (id NUMBER, doc CLOB)")
    await conn.execute(`INSERT INTO jck2 VALUES (1, '{"a":1}')`)
    await conn.execute(`INSERT INTO jck2 VALUES (2, 'nope')`)
    const invalid = await failure(() => conn.execute("ALTER TABLE jck2 ADD CONSTRAINT jck2_json CHECK (doc IS JSON)"))
    expect(oraCode(invalid)).toBe("ORA-02293")
    await conn.execute("DELETE FROM jck2 WHERE id = 2")
    await conn.execute("ALTER TABLE jck2 ADD CONSTRAINT jck2_json CHECK (doc IS JSON)")
    expect((await failure(() => conn.execute(`INSERT INTO jck2 VALUES (3, '[1,')`))).message).toContain("check constraint (TEST.JCK2_JSON) violated")
    expect((await conn.execute(`SELECT j.doc.a FROM jck2 j`)).rows).toEqual([["1"]])
  })

  it("reads simple dot notation on a VARCHAR2 / CLOB column with an IS JSON check", async () => {
    const r = await conn.execute(`SELECT j.doc.a.b, j.doc.a, j.doc.items.p, j.doc.items[1].q, j.doc.zz, j.note.k FROM jck j WHERE j.id = 1`)
    // a string is its text, as json_value gives it ("similar to that of function json_value for a scalar value")
    expect(r.rows).toEqual([["x", '{"b":"x","n":12}', '["u","v"]', "2", null, "[1,2]"]])
    expect(r.metaData[0]).toMatchObject({ dbTypeName: "VARCHAR2" })
  })

  // M. D'Souza, "Dot Notation for JSON in Oracle SQL" (talkapex.com), runs this on Oracle: the unaliased
  // `d.json_data.name` is headed NAME and gives Martin, `d.json_data.colors[2]` blue.
  it("heads a dot-notation item by its last field and gives a string's text, as Oracle's output shows", async () => {
    await conn.execute(`CREATE TABLE demo_json (id NUMBER, json_data VARCHAR2(4000))`)
    await conn.execute(`INSERT INTO demo_json (id, json_data) VALUES (1, '{"name": "Martin", "company": "Oracle", "colors": ["red", "white", "blue"], "age": 25}')`)
    await conn.execute(`ALTER TABLE demo_json ADD CONSTRAINT demo_json_ck1 CHECK (json_data IS JSON)`)
    const r = await conn.execute(`SELECT d.json_data.name, d.json_data.colors[2] third_color, d.json_data.age.number() age FROM demo_json d`)
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["NAME", "THIRD_COLOR", "AGE"])
    expect(r.rows).toEqual([["Martin", "blue", 25]])
  })

  it("dot notation ending in an item method returns the method's SQL type", async () => {
    const r = await conn.execute(`SELECT j.doc.a.n.number() + 1, j.doc.items.size(), j.doc.a.b.upper(), j.doc.d.date() FROM jck j WHERE j.id = 1`)
    expect(r.rows).toEqual([[13, 2, "X", new Date(2024, 4, 6)]])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["NUMBER", "NUMBER", "VARCHAR2", "DATE"])
  })
})

describe("Oracle test server: IS JSON checks on the bulk path (23ai)", () => {
  let bulkServer: OracleTestServerHandle
  let bulk: Conn
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    bulkServer = s.server
    bulk = await s.connect()
  })
  afterAll(async () => {
    await bulk?.close()
    await bulkServer?.close()
  })

  it("executeMany and direct path loads into a table with IS JSON checks write the documents and refuse a bad one", async () => {
    // a keyless table's rows go through the bulk path, whose appender hung on the checks before they were kept from it
    await bulk.execute(`CREATE TABLE jck3 ("id" NUMBER(10), "doc" NVARCHAR2(100) CONSTRAINT jck3_json CHECK ("doc" IS JSON), "xs" NVARCHAR2(100) CHECK ("xs" IS JSON))`)
    await bulk.executeMany("INSERT INTO jck3 VALUES (:1, :2, :3)", [
      [1, '{"a":1}', "[1]"],
      [2, null, "[2]"]
    ])
    expect((await bulk.execute(`SELECT "id", "doc", "xs" FROM jck3 ORDER BY 1`)).rows).toEqual([
      [1, '{"a":1}', "[1]"],
      [2, null, "[2]"]
    ])
    const bad = await failure(() => bulk.executeMany("INSERT INTO jck3 VALUES (:1, :2, :3)", [[3, '{"b":3}', null], [4, "oops", null]]))
    expect(bad.message).toContain("check constraint (TEST.JCK3_JSON) violated")
    // array DML stops at the failing row: the rows before it stay written, as on Oracle
    expect((await bulk.execute(`SELECT "id" FROM jck3 ORDER BY 1`)).rows).toEqual([[1], [2], [3]])
    await bulk.directPathLoad(bulkServer.user, "JCK3", ["id", "doc", "xs"], [[5, '{"c":5}', null], [6, "[6]", "{}"]])
    expect((await bulk.execute("SELECT COUNT(*) FROM jck3")).rows).toEqual([[5]])
  })
})
