import { afterEach, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oraCode, oracledb } from "./oracle/helpers.ts"

/**
 * Data dictionary views read inside a session's open transaction on the Oracle test server, through raw node-oracledb.
 * A statement naming a view runs in the session's transaction: it sees the transaction's own uncommitted rows (a
 * transaction sees its own changes, Database Concepts "Data Concurrency and Consistency") and the catalog as other
 * sessions committed it before the statement began ("Read Committed Isolation Level"), whether it is a client's
 * query, a block's query or a write reading a view; a rollback, a failed statement and two sessions doing so at once
 * keep their usual outcome.
 */
describe("Oracle test server: dictionary views inside an open transaction", () => {
  let two: TwoSessions | undefined
  afterEach(async () => {
    await two?.env.close()
    two = undefined
  })

  it("a query joining a table with USER_TABLES sees the transaction's uncommitted rows, and not after a rollback", async () => {
    two = await openTwoSessions([`CREATE TABLE dt_rows (x NUMBER)`])
    const { a } = two
    const joined = `SELECT COUNT(*) FROM dt_rows r JOIN user_tables u ON u.table_name = 'DT_ROWS'`
    await a.execute(`INSERT INTO dt_rows VALUES (1)`)
    await a.execute(`INSERT INTO dt_rows VALUES (2)`)
    expect((await a.execute(joined)).rows).toEqual([[2]])
    expect((await a.execute(`SELECT COUNT(*) FROM all_tab_columns c, dt_rows r WHERE c.table_name = 'DT_ROWS' AND r.x = 2`)).rows).toEqual([[1]])
    expect((await a.execute(`SELECT COUNT(*) FROM dt_rows r JOIN sys.user_tables u ON u.table_name = 'DT_ROWS'`)).rows).toEqual([[2]])
    await a.rollback()
    expect((await a.execute(joined)).rows).toEqual([[0]])
  })

  it("a PL/SQL block's query of a dictionary view joined with a table sees the transaction's uncommitted rows", async () => {
    two = await openTwoSessions([`CREATE TABLE dt_block (x NUMBER)`])
    const { a } = two
    await a.execute(`INSERT INTO dt_block VALUES (7)`)
    const r = await a.execute(
      `BEGIN SELECT COUNT(*) INTO :n FROM dt_block b JOIN user_objects o ON o.object_name = 'DT_BLOCK' AND o.object_type = 'TABLE'; END;`,
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(r.outBinds.n).toBe(1)
  })

  it("a query of USER_TABLES in an open transaction sees a table another session created meanwhile", async () => {
    two = await openTwoSessions([`CREATE TABLE dt_log (name VARCHAR2(128))`])
    const { a, b } = two
    await a.execute(`INSERT INTO dt_log VALUES ('first')`)
    await b.execute(`CREATE TABLE dt_new (x NUMBER)`)
    expect((await a.execute(`SELECT COUNT(*) FROM user_tables WHERE table_name = 'DT_NEW'`)).rows).toEqual([[1]])
    await a.commit()
    expect((await b.execute(`SELECT COUNT(*) FROM dt_log`)).rows).toEqual([[1]])
  })

  it("a write reading USER_TABLES in an open transaction keeps what it wrote when a later failure rolls back only that statement", async () => {
    two = await openTwoSessions([`CREATE TABLE dt_rlog (name VARCHAR2(128))`, `CREATE TABLE dt_rkey (id NUMBER PRIMARY KEY)`])
    const { a, b } = two
    await a.execute(`INSERT INTO dt_rkey VALUES (1)`)
    await b.execute(`CREATE TABLE dt_rnew (x NUMBER)`)
    const written = (await a.execute(`INSERT INTO dt_rlog SELECT table_name FROM user_tables WHERE table_name LIKE 'DT_R%'`)).rowsAffected
    // the failed INSERT is undone alone (statement-level atomicity): the rows written before it stay as they were
    expect(oraCode(await failure(() => a.execute(`INSERT INTO dt_rkey VALUES (1)`)))).toBe("ORA-00001")
    expect((await a.execute(`SELECT COUNT(*) FROM dt_rlog`)).rows).toEqual([[written]])
    await a.commit()
    expect((await b.execute(`SELECT COUNT(*) FROM dt_rlog`)).rows).toEqual([[written]])
  })

  it("a failing dictionary query in an open transaction undoes only itself", async () => {
    two = await openTwoSessions([`CREATE TABLE dt_keep (x NUMBER)`])
    const { a } = two
    await a.execute(`INSERT INTO dt_keep VALUES (1)`)
    const e = await failure(() => a.execute(`SELECT 1 / (COUNT(*) - COUNT(*)) FROM dt_keep k JOIN user_tables u ON u.table_name = 'DT_KEEP'`))
    expect(oraCode(e)).toBe("ORA-01476")
    expect((await a.execute(`SELECT COUNT(*) FROM dt_keep k JOIN user_tables u ON u.table_name = 'DT_KEEP'`)).rows).toEqual([[1]])
    await a.commit()
    expect((await a.execute(`SELECT COUNT(*) FROM dt_keep`)).rows).toEqual([[1]])
  })

  it("a table of the user's own named USER_TABLES is read before the dictionary view inside a transaction too", async () => {
    two = await openTwoSessions([`CREATE TABLE user_tables (table_name VARCHAR2(128))`])
    const { a } = two
    await a.execute(`INSERT INTO user_tables VALUES ('MINE')`)
    expect((await a.execute(`SELECT table_name FROM user_tables`)).rows).toEqual([["MINE"]])
    await a.rollback()
    expect((await a.execute(`SELECT COUNT(*) FROM user_tables`)).rows).toEqual([[0]])
  })

  it("two sessions read the dictionary inside their open transactions and both commit", async () => {
    two = await openTwoSessions([`CREATE TABLE dt_both (x NUMBER)`])
    const { a, b } = two
    await a.execute(`INSERT INTO dt_both VALUES (1)`)
    await b.execute(`INSERT INTO dt_both VALUES (2)`)
    const count = `SELECT COUNT(*) FROM dt_both d JOIN user_tables u ON u.table_name = 'DT_BOTH'`
    expect((await a.execute(count)).rows).toEqual([[1]])
    expect((await b.execute(count)).rows).toEqual([[1]])
    await a.commit()
    await b.commit()
    expect((await a.execute(count)).rows).toEqual([[2]])
  })

  it("a string literal spelling a SYS view name is compared as written inside an open transaction", async () => {
    two = await openTwoSessions([`CREATE TABLE dt_lit (name VARCHAR2(128))`])
    const { a } = two
    await a.execute(`INSERT INTO dt_lit VALUES ('SYS.ALL_TABLES')`)
    // the literal names no view: it is neither a reason to copy ALL_TABLES nor rewritten to the copy's name
    expect((await a.execute(`SELECT l.name FROM dt_lit l JOIN user_tables u ON u.table_name = 'DT_LIT' WHERE l.name = 'SYS.ALL_TABLES'`)).rows).toEqual([["SYS.ALL_TABLES"]])
    expect((await a.execute(`SELECT COUNT(*) FROM user_tables WHERE table_name = 'SYS.USER_TABLES' OR 'x"SYS"."USER_TABLES"' = 'x' || '"SYS"."USER_TABLES"'`)).rows).toEqual([[1]])
    expect((await a.execute(`SELECT 'USER_VIEWS' FROM dt_lit`)).rows).toEqual([["USER_VIEWS"]])
  })

  it("a stored function reading USER_TABLES called by a query that reads USER_TABLES in an open transaction keeps the query's copies", async () => {
    two = await openTwoSessions([
      `CREATE TABLE dt_nest (x NUMBER)`,
      `CREATE OR REPLACE FUNCTION dt_nest_count RETURN NUMBER IS n NUMBER; BEGIN SELECT COUNT(*) INTO n FROM user_tables WHERE table_name = 'DT_NEST'; RETURN n; END;`
    ])
    const { a } = two
    await a.execute(`INSERT INTO dt_nest VALUES (1)`)
    expect((await a.execute(`SELECT dt_nest_count(), (SELECT COUNT(*) FROM user_tables WHERE table_name = 'DT_NEST') FROM dual`)).rows).toEqual([[1, 1]])
    expect((await a.execute(`SELECT COUNT(*) FROM dt_nest n JOIN user_tables u ON u.table_name = 'DT_NEST' WHERE dt_nest_count() = 1`)).rows).toEqual([[1]])
  })

  it("a trigger reading USER_TABLES fired by a write that reads USER_TABLES in an open transaction sees the catalog", async () => {
    two = await openTwoSessions([
      `CREATE TABLE dt_trig (x NUMBER)`,
      `CREATE TABLE dt_tlog (n NUMBER)`,
      `CREATE OR REPLACE TRIGGER dt_trig_ai AFTER INSERT ON dt_trig FOR EACH ROW DECLARE n NUMBER; BEGIN SELECT COUNT(*) INTO n FROM user_tables WHERE table_name = 'DT_TLOG'; INSERT INTO dt_tlog VALUES (n); END;`
    ])
    const { a } = two
    await a.execute(`INSERT INTO dt_tlog VALUES (0)`)
    expect((await a.execute(`INSERT INTO dt_trig SELECT COUNT(*) FROM user_tables WHERE table_name = 'DT_TRIG'`)).rowsAffected).toBe(1)
    expect((await a.execute(`SELECT x FROM dt_trig`)).rows).toEqual([[1]])
    expect((await a.execute(`SELECT n FROM dt_tlog ORDER BY n`)).rows).toEqual([[0], [1]])
  })
})
