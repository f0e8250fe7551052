import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

/** A fetched DbObject as plain data: attributes by name (DbObject.toJSON). */
const plain = (o: any): unknown => (o === null ? null : JSON.parse(JSON.stringify(o)))

// SQL Language Reference, "REF", "DEREF", "REFTOHEX", "REF Data Type", "IS DANGLING Condition"; Object-Relational
// Developer's Guide, "REFs". node-oracledb has no REF type (User Guide, "Oracle Database Object Type Limitations":
// "Oracle objects with REF references are not supported"; thin mode knows no type number 111), so REFs are read
// through DEREF, navigation and REFTOHEX, and a REF fetched as it is fails on the client.
describe("Oracle test server: REFs to rows of object tables through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE boss_t AS OBJECT (id NUMBER, name VARCHAR2(20))")
    await conn.execute("CREATE TABLE bosses OF boss_t (PRIMARY KEY (id))")
    await conn.execute("INSERT INTO bosses VALUES (boss_t(1, 'Ann'))")
    await conn.execute("INSERT INTO bosses VALUES (boss_t(2, 'Bob'))")
    await conn.execute("CREATE TABLE staff (id NUMBER, mgr REF boss_t SCOPE IS bosses)")
    await conn.execute("INSERT INTO staff SELECT 10, REF(b) FROM bosses b WHERE b.id = 1")
    await conn.execute("INSERT INTO staff VALUES (11, (SELECT REF(b) FROM bosses b WHERE b.id = 2))")
    await conn.execute("INSERT INTO staff VALUES (12, NULL)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("shows a REF as REFTOHEX's hexadecimal text: a header, the row's and the table's 16-byte identifiers", async () => {
    const r = await conn.execute("SELECT b.id, REFTOHEX(REF(b)) FROM bosses b ORDER BY b.id")
    expect(r.metaData[1].name).toBe("REFTOHEX(REF(B))")
    const [one, two] = r.rows.map((row: Array<any>) => row[1] as string)
    expect(one).toMatch(/^0000220208[0-9A-F]{64}$/)
    expect(two).toMatch(/^0000220208[0-9A-F]{64}$/)
    expect(one).not.toBe(two)
    // the same table: the same trailing table identifier
    expect(one!.slice(-32)).toBe(two!.slice(-32))
    const stored = await conn.execute("SELECT REFTOHEX(s.mgr) FROM staff s WHERE s.id = 10")
    expect(stored.rows[0][0]).toBe(one)
  })

  it("reads the object a REF column points to through DEREF and through navigation", async () => {
    const r = await conn.execute("SELECT s.id, s.mgr.name, DEREF(s.mgr) FROM staff s ORDER BY s.id")
    expect(r.metaData[1]).toMatchObject({ name: "S.MGR.NAME", dbType: oracledb.DB_TYPE_VARCHAR })
    expect(r.metaData[2]).toMatchObject({ name: "DEREF(S.MGR)", dbType: oracledb.DB_TYPE_OBJECT, dbTypeName: "TEST.BOSS_T" })
    expect(r.rows.map((row: Array<any>) => [row[0], row[1], plain(row[2])])).toEqual([
      [10, "Ann", { ID: 1, NAME: "Ann" }],
      [11, "Bob", { ID: 2, NAME: "Bob" }],
      [12, null, null]
    ])
    const filtered = await conn.execute("SELECT s.id FROM staff s WHERE s.mgr.name = 'Bob'")
    expect(filtered.rows).toEqual([[11]])
    const direct = await conn.execute("SELECT DEREF(REF(b)) FROM bosses b WHERE b.id = 2")
    expect(plain(direct.rows[0][0])).toEqual({ ID: 2, NAME: "Bob" })
  })

  it("fails on the client, as node-oracledb thin does with Oracle's REF type 111, when a REF is fetched as it is", async () => {
    const e = await failure(() => conn.execute("SELECT REF(b) FROM bosses b"))
    expect(e.message).toMatch(/^NJS-110: invalid Oracle type number 111/)
    const star = await failure(() => conn.execute("SELECT * FROM staff"))
    expect(star.message).toMatch(/^NJS-110: invalid Oracle type number 111/)
    // the connection goes on after the client gives up on the reply
    const r = await conn.execute("SELECT COUNT(*) FROM staff")
    expect(r.rows[0][0]).toBe(3)
  })

  it("tells dangling REFs from live ones after the row they point to is deleted", async () => {
    await conn.execute("CREATE TABLE staff2 (id NUMBER, mgr REF boss_t SCOPE IS bosses)")
    await conn.execute("INSERT INTO bosses VALUES (boss_t(3, 'Cy'))")
    await conn.execute("INSERT INTO staff2 SELECT b.id * 10, REF(b) FROM bosses b")
    await conn.execute("INSERT INTO staff2 VALUES (99, NULL)")
    await conn.execute("DELETE FROM bosses WHERE id = 3")
    const dangling = await conn.execute("SELECT s.id FROM staff2 s WHERE s.mgr IS DANGLING ORDER BY s.id")
    expect(dangling.rows).toEqual([[30]])
    const live = await conn.execute("SELECT s.id FROM staff2 s WHERE s.mgr IS NOT DANGLING ORDER BY s.id")
    expect(live.rows).toEqual([[10], [20]])
    const gone = await conn.execute("SELECT DEREF(s.mgr), s.mgr.name FROM staff2 s WHERE s.id = 30")
    expect(gone.rows).toEqual([[null, null]])
  })

  it("follows a REF without a scope into any object table of its type", async () => {
    await conn.execute("CREATE TABLE more_bosses OF boss_t (PRIMARY KEY (id))")
    await conn.execute("INSERT INTO more_bosses VALUES (1, 'Other Ann')")
    await conn.execute("CREATE TABLE loose (id NUMBER, mgr REF boss_t)")
    await conn.execute("INSERT INTO loose SELECT 1, REF(b) FROM bosses b WHERE b.id = 1")
    await conn.execute("INSERT INTO loose SELECT 2, REF(m) FROM more_bosses m WHERE m.id = 1")
    const r = await conn.execute("SELECT l.id, l.mgr.name FROM loose l ORDER BY l.id")
    expect(r.rows).toEqual([
      [1, "Ann"],
      [2, "Other Ann"]
    ])
  })

  it("lists a REF column under its type, and keeps the type from being dropped while the column uses it", async () => {
    const r = await conn.execute("SELECT data_type, data_type_mod, data_type_owner FROM user_tab_columns WHERE table_name = 'STAFF' AND column_name = 'MGR'")
    expect(r.rows).toEqual([["BOSS_T", "REF", "TEST"]])
    expect(oraCode(await failure(() => conn.execute("DROP TYPE boss_t")))).toBe("ORA-02303")
  })

  it("has the pseudocolumns OBJECT_VALUE / SYS_NC_ROWINFO$ (the row's object) and OBJECT_ID / SYS_NC_OID$ (its identifier)", async () => {
    const r = await conn.execute("SELECT OBJECT_VALUE, OBJECT_ID FROM bosses WHERE id = 1")
    expect(r.metaData[0]).toMatchObject({ name: "OBJECT_VALUE", dbType: oracledb.DB_TYPE_OBJECT, dbTypeName: "TEST.BOSS_T" })
    expect(r.metaData[1]).toMatchObject({ name: "OBJECT_ID", dbType: oracledb.DB_TYPE_RAW })
    expect(plain(r.rows[0][0])).toEqual({ ID: 1, NAME: "Ann" })
    const oid = r.rows[0][1] as Buffer
    expect(oid.length).toBe(16)
    // the identifier a REF to the row carries after its header
    const q = await conn.execute("SELECT b.SYS_NC_ROWINFO$, RAWTOHEX(b.sys_nc_oid$), REFTOHEX(REF(b)) FROM bosses b WHERE b.id = 1")
    expect(plain(q.rows[0][0])).toEqual({ ID: 1, NAME: "Ann" })
    expect(q.rows[0][1]).toBe(oid.toString("hex").toUpperCase())
    expect((q.rows[0][2] as string).slice(10, 42)).toBe(q.rows[0][1])
  })

  it("refuses REF of a row of an object table without a primary key (not implemented here)", async () => {
    await conn.execute("CREATE TABLE keyless OF boss_t")
    await conn.execute("INSERT INTO keyless VALUES (boss_t(1, 'K'))")
    expect(oraCode(await failure(() => conn.execute("SELECT REFTOHEX(REF(k)) FROM keyless k")))).toBe("ORA-03001")
  })
})
