import { describe, expect, it } from "@effect/vitest"
import { exec } from "./hana/client.ts"
import type { HdbClient, HdbSqlError } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"

/**
 * EXPLAIN PLAN as SAP's reference describes it ("EXPLAIN PLAN Statement (Data Manipulation)": `EXPLAIN PLAN [SET
 * STATEMENT_NAME = '<name>'] FOR <subquery>`, the plan stored in the EXPLAIN_PLAN_TABLE view, read back by
 * statement name and removed with `DELETE FROM explain_plan_table WHERE statement_name = …`; "EXPLAIN_PLAN_TABLE
 * System View": OPERATOR_ID from 1, PARENT_OPERATOR_ID NULL at the root, LEVEL from 1, POSITION among siblings).
 */
describe("HANA test server: EXPLAIN PLAN and EXPLAIN_PLAN_TABLE (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession(
    {
      setup: [
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, amount DECIMAL(10,2))",
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, name NVARCHAR(20))",
        "INSERT INTO orders VALUES (1, 1, 10), (2, 2, 20), (3, 1, 30)",
        "INSERT INTO customers VALUES (1, 'a'), (2, 'b')"
      ]
    },
    (opened) => (c = opened.client)
  )

  it("stores a query's plan as a tree of HANA operators under its statement name", async () => {
    await exec(
      c,
      "EXPLAIN PLAN SET STATEMENT_NAME = 'top customers' FOR SELECT c.name, SUM(o.amount) AS total FROM orders o JOIN customers c ON o.customer = c.id " +
        "WHERE o.amount > 5 GROUP BY c.name ORDER BY total DESC LIMIT 5"
    )
    const rows = await exec<Array<Record<string, unknown>>>(
      c,
      "SELECT OPERATOR_NAME, OPERATOR_DETAILS, TABLE_NAME, OPERATOR_ID, PARENT_OPERATOR_ID, LEVEL, POSITION FROM explain_plan_table " +
        "WHERE statement_name = 'top customers' ORDER BY operator_id"
    )
    expect(rows[0]).toEqual({ OPERATOR_NAME: "COLUMN SEARCH", OPERATOR_DETAILS: "NAME, TOTAL", TABLE_NAME: null, OPERATOR_ID: 1, PARENT_OPERATOR_ID: null, LEVEL: 1, POSITION: 1 })
    expect(rows.slice(1, 4).map((r) => [r.OPERATOR_NAME, r.PARENT_OPERATOR_ID, r.LEVEL])).toEqual([["LIMIT", 1, 2], ["ORDER BY", 2, 3], ["GROUP BY", 3, 4]])
    expect(rows[1]!.OPERATOR_DETAILS).toBe("NUM RECORDS: 5")
    expect(rows.some((r) => String(r.OPERATOR_NAME).endsWith("JOIN"))).toBe(true)
    const scans = rows.filter((r) => r.OPERATOR_NAME === "TABLE SCAN")
    expect(scans.map((r) => r.TABLE_NAME).sort()).toEqual(["CUSTOMERS", "ORDERS"])
    // every operator but the root hangs below an earlier one, siblings numbered from 1
    for (const r of rows.slice(1)) expect(Number(r.PARENT_OPERATOR_ID)).toBeLessThan(Number(r.OPERATOR_ID))
    expect(await exec(c, "SELECT DISTINCT SCHEMA_NAME, EXECUTION_ENGINE, CONNECTION_ID FROM SYS.EXPLAIN_PLAN_TABLE WHERE OPERATOR_NAME = 'TABLE SCAN'"))
      .toEqual([{ SCHEMA_NAME: "SYSTEM", EXECUTION_ENGINE: "COLUMN", CONNECTION_ID: c.connectOptions.connectionId }])
  })

  it("explains DML without running it, and DELETE FROM explain_plan_table removes a plan", async () => {
    await exec(c, "EXPLAIN PLAN SET STATEMENT_NAME = 'raise' FOR UPDATE orders SET amount = amount * 2 WHERE customer = 1")
    await exec(c, "EXPLAIN PLAN FOR DELETE FROM orders")
    expect(await exec(c, "SELECT SUM(amount) AS S FROM orders")).toEqual([{ S: "60.00" }])
    expect(await exec(c, "SELECT OPERATOR_NAME FROM explain_plan_table WHERE statement_name = 'raise' AND OPERATOR_ID = 1")).toEqual([{ OPERATOR_NAME: "UPDATE" }])
    expect(await exec(c, "SELECT OPERATOR_NAME FROM explain_plan_table WHERE statement_name = '' AND OPERATOR_ID = 1")).toEqual([{ OPERATOR_NAME: "DELETE" }])
    await exec(c, "DELETE FROM explain_plan_table WHERE statement_name = 'raise'")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM explain_plan_table WHERE statement_name = 'raise'")).toEqual([{ N: 0 }])
  })

  it("refuses what it cannot explain: DDL, and a SQL plan cache entry the server does not keep", async () => {
    await expect(exec(c, "EXPLAIN PLAN FOR CREATE TABLE x (a INTEGER)")).rejects.toMatchObject({ code: 257 } satisfies Partial<HdbSqlError>)
    await expect(exec(c, "EXPLAIN PLAN FOR SQL PLAN CACHE ENTRY 1")).rejects.toMatchObject({ code: 7 } satisfies Partial<HdbSqlError>)
  })
})
