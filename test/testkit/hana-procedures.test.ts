import { describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** hdb calls back a CALL with (err, parameters, ...resultSets) (hdb lib/protocol/Result.js handleDBCall). */
const callback = (run: (cb: (err: Error | null, ...rest: unknown[]) => void) => void): Promise<unknown[]> =>
  new Promise((resolve, reject) => run((err, ...rest) => (err ? reject(err) : resolve(rest))))

const execCall = (st: HdbStatement, values: unknown[] | Record<string, unknown>): Promise<unknown[]> =>
  callback((cb) => (st.exec as (v: unknown, cb: (err: Error | null, ...rest: unknown[]) => void) => void)(values, cb))

const prepare = (c: HdbClient, sql: string): Promise<HdbStatement> => call<HdbStatement>((cb) => c.prepare(sql, cb))

describe("HANA test server: SQLScript procedures through raw hdb (CREATE PROCEDURE, CALL, DROP PROCEDURE)", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({
    setup: [
      "CREATE TABLE items (id INT PRIMARY KEY, name NVARCHAR(20), price DECIMAL(10,2))",
      "INSERT INTO items VALUES (1, 'apple', 1.50)",
      "INSERT INTO items VALUES (2, 'pear', 2.25)",
      "INSERT INTO items VALUES (3, 'plum', 0.75)"
    ]
  }, (opened) => {
    server = opened.server
    c = opened.client
  })

  it("CALL through prepare/exec returns scalar OUT and INOUT parameters by name, typed as declared", async () => {
    await exec(
      c,
      `CREATE PROCEDURE price_of (IN p_id INT, OUT p_name NVARCHAR(20), OUT p_price DECIMAL(10,2), INOUT p_count INT)
       LANGUAGE SQLSCRIPT READS SQL DATA AS
       BEGIN
         SELECT name, price INTO p_name, p_price FROM items WHERE id = :p_id;
         p_count = :p_count + 1;
       END`
    )
    const st = await prepare(c, "CALL price_of(?, ?, ?, ?)")
    // PARAMETER_METADATA carries each parameter's direction (hdb IoType: 1 IN, 2 INOUT, 4 OUT) and name.
    expect(st.parameterMetadata.map((p) => [(p as unknown as { name: string }).name, (p as unknown as { ioType: number }).ioType, p.dataType])).toEqual([
      ["P_ID", 1, 3],
      ["P_NAME", 4, 11],
      ["P_PRICE", 4, 5],
      ["P_COUNT", 2, 3]
    ])
    // Only IN and INOUT values are bound (hdb Statement.js filters the metadata by ioType).
    const [params, ...resultSets] = await execCall(st, [2, 41])
    expect(params).toEqual({ P_NAME: "pear", P_PRICE: "2.25", P_COUNT: 42 })
    expect(resultSets).toEqual([])
    const [named] = await execCall(st, { P_ID: 3, P_COUNT: 0 })
    expect(named).toEqual({ P_NAME: "plum", P_PRICE: "0.75", P_COUNT: 1 })
  })

  it("table-typed OUT parameters and bare SELECTs come back as result sets, in that order", async () => {
    await exec(
      c,
      `CREATE OR REPLACE PROCEDURE cheap_items (IN max_price DECIMAL(10,2), OUT result TABLE (id INT, name NVARCHAR(20)), OUT n INT) AS
       BEGIN
         cheap = SELECT id, name FROM items WHERE price <= :max_price;
         result = SELECT id, name FROM :cheap ORDER BY id;
         SELECT COUNT(*) INTO n FROM :cheap;
         SELECT 'done' AS status FROM DUMMY;
       END`
    )
    const st = await prepare(c, "CALL cheap_items(?, ?, ?)")
    // The table parameter takes a `?` in the text but has no parameter metadata, as on a real HANA.
    expect(st.parameterMetadata.length).toBe(2)
    const [params, table, status] = await execCall(st, [1.5])
    expect(params).toEqual({ N: 2 })
    expect(table).toEqual([
      { ID: 1, NAME: "apple" },
      { ID: 3, NAME: "plum" }
    ])
    expect(status).toEqual([{ STATUS: "done" }])
  })

  it("a result set larger than the first reply is fetched to its end", async () => {
    await exec(
      c,
      `CREATE PROCEDURE many_rows (OUT r TABLE (n INT)) AS
       BEGIN
         r = SELECT GENERATED_PERIOD_START AS n FROM SERIES_GENERATE_INTEGER(1, 0, 100);
       END`
    )
    const [, rows] = await callback((cb) => c.exec("CALL many_rows(?)", cb as never))
    expect((rows as Array<{ N: number }>).map((r) => r.N)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    expect(server.openResultSets()).toBe(0)
  })

  it("runs INSERT/UPDATE/DELETE with variables, DECLARE and assignments; direct CALL with literal arguments", async () => {
    await exec(c, "CREATE TABLE audit (id INT, note NVARCHAR(40))")
    await exec(
      c,
      `CREATE PROCEDURE add_item (IN p_id INT, IN p_name NVARCHAR(20)) AS
       BEGIN
         DECLARE v_note NVARCHAR(40) := 'added ' || :p_name;
         DECLARE v_price DECIMAL(10,2);
         v_price := 9.99;
         INSERT INTO items VALUES (:p_id, :p_name, :v_price);
         INSERT INTO audit VALUES (:p_id, :v_note);
         UPDATE items SET price = price + 1 WHERE id = :p_id;
         DELETE FROM audit WHERE id = :p_id AND note <> :v_note;
       END`
    )
    const [params] = await callback((cb) => c.exec("CALL add_item(10, 'fig')", cb as never))
    expect(params).toEqual({})
    expect(await exec(c, "SELECT name, price FROM items WHERE id = 10")).toEqual([{ NAME: "fig", PRICE: "10.99" }])
    expect(await exec(c, "SELECT note FROM audit WHERE id = 10")).toEqual([{ NOTE: "added fig" }])
  })

  it("an error inside the body is HANA's own error, names the procedure, and undoes the CALL's writes", async () => {
    await exec(
      c,
      `CREATE PROCEDURE add_twice (IN p_id INT) AS
       BEGIN
         INSERT INTO audit VALUES (:p_id, 'first');
         INSERT INTO items VALUES (:p_id, 'dup', 1);
         INSERT INTO items VALUES (:p_id, 'dup', 1);
       END`
    )
    const err = await failure(callback((cb) => c.exec("CALL add_twice(20)", cb as never)))
    expect(err.code).toBe(301)
    expect(err.message).toContain('"SYSTEM"."ADD_TWICE"')
    expect(await exec(c, "SELECT COUNT(*) AS N FROM audit WHERE id = 20")).toEqual([{ N: 0 }])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM items WHERE id = 20")).toEqual([{ N: 0 }])
    // Inside a transaction only the CALL is undone; the transaction's earlier write stays.
    c.setAutoCommit(false)
    try {
      await exec(c, "INSERT INTO audit VALUES (21, 'before')")
      expect((await failure(callback((cb) => c.exec("CALL add_twice(21)", cb as never)))).code).toBe(301)
      expect(await exec(c, "SELECT note FROM audit WHERE id = 21")).toEqual([{ NOTE: "before" }])
      await call((cb) => c.rollback(cb))
    } finally {
      c.setAutoCommit(true)
    }
  })

  it("SELECT INTO without a row fails 1299, with several 1300; SIGNAL raises its own code", async () => {
    await exec(
      c,
      `CREATE PROCEDURE name_of (IN p_id INT, OUT p_name NVARCHAR(20)) AS
       BEGIN
         SELECT name INTO p_name FROM items WHERE id = :p_id OR :p_id = 0;
       END`
    )
    const st = await prepare(c, "CALL name_of(?, ?)")
    expect((await failure(execCall(st, [999]))).code).toBe(1299)
    expect((await failure(execCall(st, [0]))).code).toBe(1300)
    await exec(c, "CREATE PROCEDURE refuse AS BEGIN SIGNAL SQL_ERROR_CODE 10001 SET MESSAGE_TEXT = 'not today'; END")
    const signalled = await failure(callback((cb) => c.exec("CALL refuse", cb as never)))
    expect(signalled.code).toBe(10001)
    expect(signalled.message).toContain("not today")
  })

  it("unknown, duplicate and dropped procedures, wrong arguments and unsupported bodies fail with HANA's codes", async () => {
    expect((await failure(exec(c, "CALL nowhere(1)"))).code).toBe(328)
    await exec(c, "CREATE PROCEDURE twice AS BEGIN SELECT 1 AS x FROM DUMMY; END")
    expect((await failure(exec(c, "CREATE PROCEDURE twice AS BEGIN SELECT 2 AS x FROM DUMMY; END"))).code).toBe(329)
    await exec(c, "CREATE OR REPLACE PROCEDURE twice AS BEGIN SELECT 2 AS x FROM DUMMY; END")
    const [, rows] = await callback((cb) => c.exec("CALL twice", cb as never))
    expect(rows).toEqual([{ X: 2 }])
    await exec(c, "DROP PROCEDURE twice")
    expect((await failure(exec(c, "CALL twice"))).code).toBe(328)
    expect((await failure(exec(c, "DROP PROCEDURE twice"))).code).toBe(328)
    expect((await failure(prepare(c, "CALL price_of(?, ?)"))).code).toBe(1281)
    // a `?` for an IN parameter needs PREPARE/EXECUTE; executed directly it has no value
    expect((await failure(exec(c, "CALL price_of(?, ?, ?, ?)"))).code).toBe(257)
    const loop = await failure(exec(c, "CREATE PROCEDURE looping AS BEGIN LOOP SELECT 1 AS x FROM DUMMY; END LOOP; END"))
    expect(loop.code).toBe(7)
    expect(loop.message).toContain("LOOP")
    for (const body of [
      "DECLARE CONTINUE HANDLER FOR SQLEXCEPTION SELECT 1 AS x FROM DUMMY; SELECT 2 AS x FROM DUMMY;",
      "DECLARE c CURSOR FOR SELECT 1 AS x FROM DUMMY;",
      "DECLARE t TABLE (a INT);",
      "CALL twice;",
      "EXEC 'SELECT 1 FROM DUMMY';"
    ]) {
      const refused = await failure(exec(c, `CREATE PROCEDURE refused_body AS BEGIN ${body} END`))
      expect([body, refused.code]).toEqual([body, 7])
    }
    expect((await failure(exec(c, "CREATE PROCEDURE bad_type (IN x REAL_VECTOR(3)) AS BEGIN SELECT 1 AS x FROM DUMMY; END"))).code).toBe(264)
    expect((await failure(exec(c, "CREATE PROCEDURE nowhere_schema.p AS BEGIN SELECT 1 AS x FROM DUMMY; END"))).code).toBe(362)
  })

  it("procedures are shared by the server's sessions, in the schema they were created in", async () => {
    const other = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      const [params] = await callback((cb) => other.exec("CALL SYSTEM.add_item(30, 'kiwi')", cb as never))
      expect(params).toEqual({})
      expect(await exec(other, "SELECT name FROM SYSTEM.items WHERE id = 30")).toEqual([{ NAME: "kiwi" }])
    } finally {
      closeQuietly(other)
    }
  })
})
