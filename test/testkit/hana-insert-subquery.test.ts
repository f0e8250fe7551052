import { describe, expect, it } from "@effect/vitest"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/**
 * `INSERT INTO <table_name> [(<column_list>)] {<value_list_clause> | <subquery>}` (SAP HANA SQL Reference, "INSERT
 * Statement"): the subquery may stand in parentheses without a column list, and its select clause may hold
 * `TOP <unsigned_integer>` as every subquery's may ("SELECT Statement": `SELECT [TOP <unsigned_integer>] …`).
 */
describe("HANA test server: INSERT … subquery forms and TOP in subqueries (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({
    setup: [
      "CREATE COLUMN TABLE src (id INTEGER, v NVARCHAR(10))",
      "INSERT INTO src VALUES (1, 'a')",
      "INSERT INTO src VALUES (2, 'b')",
      "INSERT INTO src VALUES (3, 'c')",
      "CREATE COLUMN TABLE dst (id INTEGER PRIMARY KEY, v NVARCHAR(10))"
    ]
  }, (opened) => (c = opened.client))

  const rows = (): Promise<unknown> => exec(c, "SELECT id, v FROM dst ORDER BY id")

  it("INSERT INTO t SELECT TOP n … writes the first n rows of the subquery", async () => {
    await exec(c, "DELETE FROM dst")
    expect(await exec(c, "INSERT INTO dst SELECT TOP 2 id, v FROM src ORDER BY id")).toBe(2)
    expect(await rows()).toEqual([{ ID: 1, V: "a" }, { ID: 2, V: "b" }])
    expect(await exec(c, "INSERT INTO dst (id, v) SELECT DISTINCT TOP 1 id, v FROM src ORDER BY id DESC")).toBe(1)
    expect(await rows()).toEqual([{ ID: 1, V: "a" }, { ID: 2, V: "b" }, { ID: 3, V: "c" }])
  })

  it("INSERT INTO t (SELECT …) takes the parenthesised subquery as the rows, not as a column list", async () => {
    await exec(c, "DELETE FROM dst")
    expect(await exec(c, "INSERT INTO dst (SELECT id, v FROM src WHERE id > 1)")).toBe(2)
    expect(await exec(c, "INSERT INTO dst (SELECT TOP 1 id, v FROM src ORDER BY id)")).toBe(1)
    expect(await rows()).toEqual([{ ID: 1, V: "a" }, { ID: 2, V: "b" }, { ID: 3, V: "c" }])
  })

  it("a TOP in a query's subquery (FROM, IN) limits that subquery", async () => {
    expect(await exec(c, "SELECT * FROM (SELECT TOP 2 id FROM src ORDER BY id DESC) x ORDER BY id")).toEqual([{ ID: 2 }, { ID: 3 }])
    expect(await exec(c, "SELECT TOP 1 id FROM src WHERE id IN (SELECT TOP 2 id FROM src ORDER BY id DESC) ORDER BY id")).toEqual([{ ID: 2 }])
  })

  it("SELECT TOP ? … WHERE id > ? binds the row count from the first parameter, as written", async () => {
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT TOP ? id FROM src WHERE id > ? ORDER BY id", cb))
    expect(await call((cb) => st.exec([2, 1], cb))).toEqual([{ ID: 2 }, { ID: 3 }])
    expect(await call((cb) => st.exec([1, 0], cb))).toEqual([{ ID: 1 }])
  })

  it("a prepared INSERT … SELECT TOP ? binds the row count; a duplicate key from the subquery fails with 301", async () => {
    await exec(c, "DELETE FROM dst")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO dst SELECT TOP ? id, v FROM src ORDER BY id", cb))
    expect(await call((cb) => st.exec([2], cb))).toBe(2)
    expect(await rows()).toEqual([{ ID: 1, V: "a" }, { ID: 2, V: "b" }])
    await expect(exec(c, "INSERT INTO dst (SELECT TOP 1 id, v FROM src ORDER BY id)")).rejects.toMatchObject({ code: 301 })
  })
  it("a TOP before a set operation in a subquery limits the subquery's whole result, as the same TOP of a statement does", async () => {
    // SAP HANA SQL Reference, "SELECT Statement": <subquery> ::= <select_clause> <from_clause> … [<set_operator>
    // <subquery> …] [<order_by_clause>] [<limit>], TOP in the select clause: "the first <unsigned_integer> records
    // from the SQL statement". A statement's own TOP limits its whole set operation here, so a subquery's does too.
    const statement = "SELECT TOP 2 id FROM src UNION ALL SELECT id FROM src ORDER BY id DESC"
    const whole = [{ ID: 3 }, { ID: 3 }]
    expect(await exec(c, statement)).toEqual(whole)
    expect(await exec(c, `SELECT id FROM (${statement}) x ORDER BY id DESC`)).toEqual(whole)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM src WHERE id IN (SELECT TOP 1 id FROM src UNION SELECT id FROM src ORDER BY id)")).toEqual([{ N: 1 }])
    await exec(c, "DELETE FROM dst")
    expect(await exec(c, "INSERT INTO dst SELECT TOP 2 id, v FROM src EXCEPT SELECT id, v FROM src WHERE id = 1 ORDER BY id")).toBe(2)
    expect(await rows()).toEqual([{ ID: 2, V: "b" }, { ID: 3, V: "c" }])
  })
})
