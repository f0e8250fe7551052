import { describe, expect, it } from "@effect/vitest"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** hdb calls back a CALL with (err, parameters, ...resultSets) (hdb lib/protocol/Result.js handleDBCall). */
const callback = (run: (cb: (err: Error | null, ...rest: unknown[]) => void) => void): Promise<unknown[]> =>
  new Promise((resolve, reject) => run((err, ...rest) => (err ? reject(err) : resolve(rest))))

const execCall = (st: HdbStatement, values: unknown[]): Promise<unknown[]> =>
  callback((cb) => (st.exec as (v: unknown, cb: (err: Error | null, ...rest: unknown[]) => void) => void)(values, cb))

const prepare = (c: HdbClient, sql: string): Promise<HdbStatement> => call<HdbStatement>((cb) => c.prepare(sql, cb))

const callDirect = (c: HdbClient, sql: string): Promise<unknown[]> => callback((cb) => c.exec(sql, cb as never))

describe("HANA test server: SQLScript control flow in procedures through raw hdb", () => {
  let c: HdbClient
  useRawHanaSession(
    {
      setup: [
        "CREATE TABLE orders (id INT PRIMARY KEY, amount DECIMAL(10,2), status NVARCHAR(10))",
        "INSERT INTO orders VALUES (1, 10.00, 'open')",
        "INSERT INTO orders VALUES (2, 250.00, 'open')",
        "INSERT INTO orders VALUES (3, 40.00, 'closed')",
        "CREATE TABLE log (n INT, note NVARCHAR(200))"
      ]
    },
    (opened) => {
      c = opened.client
    }
  )

  it("IF / ELSEIF / ELSE picks one branch; SELECT … INTO feeds the condition", async () => {
    await exec(
      c,
      `CREATE PROCEDURE classify (IN p_id INT, OUT p_class NVARCHAR(10)) AS
       BEGIN
         DECLARE v_amount DECIMAL(10,2);
         SELECT amount INTO v_amount FROM orders WHERE id = :p_id;
         IF :v_amount >= 100 THEN
           p_class := 'big';
         ELSEIF :v_amount >= 20 THEN
           p_class := 'medium';
         ELSE
           p_class := CASE WHEN :v_amount > 5 THEN 'small' ELSE 'tiny' END;
         END IF;
       END`
    )
    const st = await prepare(c, "CALL classify(?, ?)")
    expect((await execCall(st, [2]))[0]).toEqual({ P_CLASS: "big" })
    expect((await execCall(st, [3]))[0]).toEqual({ P_CLASS: "medium" })
    expect((await execCall(st, [1]))[0]).toEqual({ P_CLASS: "small" })
  })

  it("WHILE with BREAK and CONTINUE, FOR over a range (and REVERSE), nested BEGIN … END blocks with their own DECLAREs", async () => {
    await exec(
      c,
      `CREATE PROCEDURE loops (IN p_n INT, OUT p_sum INT, OUT p_odd INT, OUT p_down NVARCHAR(100)) AS
       BEGIN
         DECLARE i INT := 0;
         p_sum := 0;
         p_odd := 0;
         p_down := '';
         WHILE :i < 100 DO
           i := :i + 1;
           IF :i > :p_n THEN BREAK; END IF;
           IF MOD(:i, 2) = 0 THEN CONTINUE; END IF;
           p_odd := :p_odd + 1;
         END WHILE;
         FOR k IN 1..:p_n DO
           p_sum := :p_sum + :k;
         END FOR;
         FOR k IN REVERSE 1..3 DO
           BEGIN
             DECLARE i NVARCHAR(5) := TO_NVARCHAR(:k);
             p_down := :p_down || :i;
           END;
         END FOR;
       END`
    )
    const st = await prepare(c, "CALL loops(?, ?, ?, ?)")
    expect((await execCall(st, [5]))[0]).toEqual({ P_SUM: 15, P_ODD: 3, P_DOWN: "321" })
    expect((await execCall(st, [0]))[0]).toEqual({ P_SUM: 0, P_ODD: 0, P_DOWN: "321" })
  })

  it("FOR row AS cursor walks the cursor's rows with row.column and :row.column; cursor parameters", async () => {
    await exec(c, "DELETE FROM log")
    await exec(
      c,
      `CREATE PROCEDURE walk (IN p_status NVARCHAR(10), OUT p_total DECIMAL(10,2)) AS
       BEGIN
         DECLARE CURSOR c_orders (v_status NVARCHAR(10)) FOR SELECT id, amount FROM orders WHERE status = :v_status ORDER BY id;
         p_total := 0;
         FOR r AS c_orders(:p_status) DO
           p_total := :p_total + r.amount;
           INSERT INTO log VALUES (:r.id, 'seen');
         END FOR;
       END`
    )
    const st = await prepare(c, "CALL walk(?, ?)")
    expect((await execCall(st, ["open"]))[0]).toEqual({ P_TOTAL: "260.00" })
    expect(await exec(c, "SELECT n FROM log ORDER BY n")).toEqual([{ N: 1 }, { N: 2 }])
    expect((await execCall(st, ["none"]))[0]).toEqual({ P_TOTAL: "0.00" })
  })

  it("an EXIT HANDLER FOR SQLEXCEPTION catches a unique violation: the failing INSERT is undone, earlier work stays, ::SQL_ERROR_CODE and ::SQL_ERROR_MESSAGE are the error's", async () => {
    await exec(c, "DELETE FROM log")
    await exec(
      c,
      `CREATE PROCEDURE guarded (OUT p_code INT, OUT p_after INT) AS
       BEGIN
         DECLARE EXIT HANDLER FOR SQLEXCEPTION
         BEGIN
           p_code := ::SQL_ERROR_CODE;
           INSERT INTO log VALUES (::SQL_ERROR_CODE, ::SQL_ERROR_MESSAGE);
         END;
         INSERT INTO log VALUES (1, 'first');
         INSERT INTO orders VALUES (1, 1, 'dup');
         p_after := 1;
       END`
    )
    const [params] = await execCall(await prepare(c, "CALL guarded(?, ?)"), [])
    // The handler ran and the block ended: the statement after the failing one did not run.
    expect(params).toEqual({ P_CODE: 301, P_AFTER: null })
    const rows = (await exec(c, "SELECT n, note FROM log ORDER BY n")) as Array<{ N: number; NOTE: string }>
    expect(rows.map((r) => r.N)).toEqual([1, 301])
    expect(rows[1]!.NOTE).toContain("unique constraint violated")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM orders")).toEqual([{ N: 3 }])
  })

  it("SAP's own example: a handler's SELECT ::SQL_ERROR_CODE, ::SQL_ERROR_MESSAGE FROM DUMMY is the CALL's result set", async () => {
    // SAP blog "Exception Handling of SAP HANA SQLScript Procedure" (blogs.sap.com, 2014-06-24), MYPROC1.
    await exec(c, "CREATE TABLE mytab (i INTEGER PRIMARY KEY)")
    await exec(
      c,
      `CREATE PROCEDURE myproc1 AS BEGIN
         DECLARE EXIT HANDLER FOR SQLEXCEPTION SELECT ::SQL_ERROR_CODE, ::SQL_ERROR_MESSAGE FROM DUMMY;
         INSERT INTO mytab VALUES (1);
         INSERT INTO mytab VALUES (1);
       END`
    )
    const [, rows] = await callDirect(c, "CALL myproc1")
    const values = Object.values((rows as Array<Record<string, unknown>>)[0]!)
    expect(values[0]).toBe(301)
    expect(String(values[1])).toContain("unique constraint violated")
    expect(Object.keys((rows as Array<Record<string, unknown>>)[0]!)).toEqual(["::SQL_ERROR_CODE", "::SQL_ERROR_MESSAGE"])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM mytab")).toEqual([{ N: 1 }])
  })

  it("a loop's writes keep the values they wrote when a later error is undone: in the CALL, and later in its transaction", async () => {
    // The server undoes a failed statement by replaying the transaction's earlier writes; each must write the value its
    // variables had when it ran, not the loop's last one (nor nothing once the CALL has ended).
    await exec(c, "CREATE TABLE seen (id INT PRIMARY KEY)")
    await exec(
      c,
      `CREATE PROCEDURE fill (IN p_n INT) AS
       BEGIN
         DECLARE EXIT HANDLER FOR SQL_ERROR_CODE 301 SELECT ::SQL_ERROR_CODE AS CODE FROM DUMMY;
         FOR i IN 1..:p_n DO
           INSERT INTO seen VALUES (:i);
         END FOR;
         INSERT INTO seen VALUES (1);
       END`
    )
    const [, handled] = await callDirect(c, "CALL fill(3)")
    expect(handled).toEqual([{ CODE: 301 }])
    expect(await exec(c, "SELECT id FROM seen ORDER BY id")).toEqual([{ ID: 1 }, { ID: 2 }, { ID: 3 }])
    c.setAutoCommit(false)
    try {
      await exec(c, "DELETE FROM seen")
      await callDirect(c, "CALL fill(2)")
      expect((await failure(exec(c, "INSERT INTO seen VALUES (2)"))).code).toBe(301)
      expect(await exec(c, "SELECT id FROM seen ORDER BY id")).toEqual([{ ID: 1 }, { ID: 2 }])
      await call((cb) => c.rollback(cb))
    } finally {
      c.setAutoCommit(true)
    }
  })

  it("a handler for SQL_ERROR_CODE n catches only that code; an inner block's handler leaves the outer block running", async () => {
    await exec(
      c,
      `CREATE PROCEDURE picky (IN p_what INT, OUT p_trace NVARCHAR(50)) AS
       BEGIN
         p_trace := 'start';
         BEGIN
           DECLARE EXIT HANDLER FOR SQL_ERROR_CODE 1299 p_trace := :p_trace || ',nodata';
           DECLARE v INT;
           IF :p_what = 1 THEN SELECT id INTO v FROM orders WHERE id = 999; END IF;
           IF :p_what = 2 THEN SELECT id INTO v FROM orders; END IF;
           p_trace := :p_trace || ',inner';
         END;
         p_trace := :p_trace || ',outer';
       END`
    )
    const st = await prepare(c, "CALL picky(?, ?)")
    expect((await execCall(st, [0]))[0]).toEqual({ P_TRACE: "start,inner,outer" })
    expect((await execCall(st, [1]))[0]).toEqual({ P_TRACE: "start,nodata,outer" })
    // 1300 (more than one row) is not the handled code: it reaches the caller.
    const err = await failure(execCall(st, [2]))
    expect(err.code).toBe(1300)
  })

  it("SIGNAL of a declared condition, caught by a handler for it; RESIGNAL passes it on with a new text; an unhandled SIGNAL reaches hdb", async () => {
    await exec(
      c,
      `CREATE PROCEDURE checked (IN p_amount DECIMAL(10,2), OUT p_msg NVARCHAR(100)) AS
       BEGIN
         DECLARE too_big CONDITION FOR SQL_ERROR_CODE 10001;
         DECLARE EXIT HANDLER FOR too_big
           IF ::SQL_ERROR_CODE = 10001 THEN p_msg := ::SQL_ERROR_CODE || ': ' || ::SQL_ERROR_MESSAGE; END IF;
         IF :p_amount > 100 THEN
           SIGNAL too_big SET MESSAGE_TEXT = 'amount ' || :p_amount || ' too big';
         END IF;
         p_msg := 'ok';
       END`
    )
    const st = await prepare(c, "CALL checked(?, ?)")
    expect((await execCall(st, [5]))[0]).toEqual({ P_MSG: "ok" })
    expect((await execCall(st, [500]))[0]).toEqual({ P_MSG: "10001: amount 500.00 too big" })

    await exec(
      c,
      `CREATE PROCEDURE rethrow (IN p_id INT) AS
       BEGIN
         DECLARE EXIT HANDLER FOR SQLEXCEPTION RESIGNAL SET MESSAGE_TEXT = 'insert failed: ' || ::SQL_ERROR_MESSAGE;
         INSERT INTO orders VALUES (:p_id, 1, 'x');
       END`
    )
    const err = await failure(callDirect(c, "CALL rethrow(1)"))
    expect(err.code).toBe(301)
    expect(err.message).toContain("insert failed: unique constraint violated")

    await exec(
      c,
      `CREATE PROCEDURE refuse_big AS
       BEGIN
         DECLARE nope CONDITION FOR SQL_ERROR_CODE 10002;
         SIGNAL nope SET MESSAGE_TEXT = 'never';
       END`
    )
    const signalled = await failure(callDirect(c, "CALL refuse_big"))
    expect(signalled.code).toBe(10002)
    expect(signalled.message).toContain("never")
  })

  it("table variables assigned in branches are read after END IF; RETURN ends the procedure with its outputs", async () => {
    await exec(
      c,
      `CREATE PROCEDURE pick (IN p_open INT, OUT p_n INT, OUT r TABLE (id INT)) AS
       BEGIN
         IF :p_open = 1 THEN
           t = SELECT id FROM orders WHERE status = 'open';
         ELSE
           t = SELECT id FROM orders WHERE status <> 'open';
         END IF;
         r = SELECT id FROM :t ORDER BY id;
         SELECT COUNT(*) INTO p_n FROM :t;
         IF :p_n > 0 THEN RETURN; END IF;
         p_n := -1;
       END`
    )
    const st = await prepare(c, "CALL pick(?, ?, ?)")
    const [params, table] = await execCall(st, [1])
    expect(params).toEqual({ P_N: 2 })
    expect(table).toEqual([{ ID: 1 }, { ID: 2 }])
    const [closed, closedTable] = await execCall(st, [0])
    expect(closed).toEqual({ P_N: 1 })
    expect(closedTable).toEqual([{ ID: 3 }])
  })

  it("control-flow mistakes fail at CREATE: BREAK outside a loop, RESIGNAL outside a handler, END IF missing", async () => {
    for (const body of ["BREAK;", "RESIGNAL;", "IF 1 = 1 THEN SELECT 1 AS x FROM DUMMY;"]) {
      const err = await failure(exec(c, `CREATE PROCEDURE broken AS BEGIN ${body} END`))
      expect([body, err.code]).toEqual([body, 257])
    }
  })
})
