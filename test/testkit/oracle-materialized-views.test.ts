import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// Materialized views through raw node-oracledb (SQL Language Reference, "CREATE MATERIALIZED VIEW" / "DROP
// MATERIALIZED VIEW"; PL/SQL Packages and Types Reference, "DBMS_MVIEW"; Database Reference, "ALL_MVIEWS"): stored
// rows, queried like a table, recomputed by DBMS_MVIEW.REFRESH, listed in USER_MVIEWS. CREATE failed ORA-03001.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: materialized views", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE mv_emp (id NUMBER(4), dept NUMBER(4), sal NUMBER)")
    await conn.executeMany("INSERT INTO mv_emp VALUES (:1, :2, :3)", [[1, 10, 100], [2, 10, 200], [3, 20, 50]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("stores the query's rows at creation and keeps them until DBMS_MVIEW.REFRESH recomputes them", async () => {
    await conn.execute("CREATE MATERIALIZED VIEW mv_dept BUILD IMMEDIATE REFRESH COMPLETE ON DEMAND AS SELECT dept, SUM(sal) total, COUNT(*) n FROM mv_emp GROUP BY dept")
    expect(await rows("SELECT dept, total, n FROM mv_dept ORDER BY dept")).toEqual([[10, 300, 2], [20, 50, 1]])
    await conn.execute("INSERT INTO mv_emp VALUES (4, 30, 1000)")
    await conn.execute("UPDATE mv_emp SET sal = 60 WHERE id = 3")
    await conn.commit()
    expect(await rows("SELECT dept, total FROM mv_dept ORDER BY dept")).toEqual([[10, 300], [20, 50]])
    await conn.execute("BEGIN DBMS_MVIEW.REFRESH('MV_DEPT'); END;")
    expect(await rows("SELECT dept, total FROM mv_dept ORDER BY dept")).toEqual([[10, 300], [20, 60], [30, 1000]])
    // joins and filters over it, as over a table
    expect(await rows("SELECT e.id FROM mv_emp e JOIN mv_dept d ON d.dept = e.dept WHERE d.total > 100 ORDER BY e.id")).toEqual([[1], [2], [4]])
  })

  it("BUILD DEFERRED is empty until its first refresh; column aliases name its columns; USER_MVIEWS and USER_OBJECTS list it", async () => {
    await conn.execute("CREATE MATERIALIZED VIEW mv_counts (d, cnt) BUILD DEFERRED REFRESH FORCE ON DEMAND AS SELECT dept, COUNT(*) FROM mv_emp GROUP BY dept")
    expect(await rows("SELECT COUNT(*) FROM mv_counts")).toEqual([[0]])
    expect(await rows("SELECT mview_name, refresh_mode, refresh_method, build_mode, staleness, last_refresh_type FROM user_mviews ORDER BY mview_name")).toEqual([
      ["MV_COUNTS", "DEMAND", "FORCE", "DEFERRED", "UNUSABLE", "NA"],
      ["MV_DEPT", "DEMAND", "COMPLETE", "IMMEDIATE", "FRESH", "COMPLETE"]
    ])
    await conn.execute("BEGIN DBMS_MVIEW.REFRESH(list => 'mv_counts', method => 'C'); END;")
    expect(await rows("SELECT d, cnt FROM mv_counts ORDER BY d")).toEqual([[10, 2], [20, 1], [30, 1]])
    expect(await rows("SELECT query FROM user_mviews WHERE mview_name = 'MV_COUNTS'")).toEqual([["SELECT dept, COUNT(*) FROM mv_emp GROUP BY dept"]])
    expect(await rows("SELECT object_type FROM user_objects WHERE object_name = 'MV_COUNTS' ORDER BY object_type")).toEqual([["MATERIALIZED VIEW"], ["TABLE"]])
  })

  it("STALENESS turns STALE when a committed write changes a base table and FRESH again after a refresh", async () => {
    // Database Reference, "ALL_MVIEWS": STALE "out of date because one or more of its masters has changed"
    const staleness = async () => (await rows("SELECT staleness FROM user_mviews WHERE mview_name = 'MV_DEPT'"))[0]![0]
    await conn.execute("BEGIN DBMS_MVIEW.REFRESH('MV_DEPT'); END;")
    expect(await staleness()).toBe("FRESH")
    await conn.execute("UPDATE mv_emp SET sal = sal WHERE id = 1")
    await conn.rollback()
    expect(await staleness()).toBe("FRESH")
    await conn.execute("UPDATE mv_emp SET sal = sal + 1 WHERE id = 1")
    expect(await staleness()).toBe("FRESH")
    await conn.commit()
    expect(await staleness()).toBe("STALE")
    await conn.execute("BEGIN DBMS_MVIEW.REFRESH('MV_DEPT'); END;")
    expect(await staleness()).toBe("FRESH")
    expect(await rows("SELECT total FROM mv_dept WHERE dept = 10")).toEqual([[301]])
    await conn.execute("INSERT INTO mv_emp VALUES (5, 40, 1)", [], { autoCommit: true })
    expect(await staleness()).toBe("STALE")
    await conn.execute("BEGIN DBMS_MVIEW.REFRESH('MV_DEPT'); END;")
  })

  it("DROP MATERIALIZED VIEW drops it; errors as Oracle's", async () => {
    await expect(conn.execute("BEGIN DBMS_MVIEW.REFRESH('NO_SUCH_MV'); END;")).rejects.toThrow(/ORA-23401/)
    await expect(conn.execute("DROP TABLE mv_counts")).rejects.toThrow(/ORA-12083/)
    await expect(conn.execute("CREATE MATERIALIZED VIEW mv_c REFRESH ON COMMIT AS SELECT * FROM mv_emp")).rejects.toThrow(/ORA-03001/)
    await expect(conn.execute("INSERT INTO mv_counts VALUES (40, 1)")).rejects.toThrow(/ORA-01732/)
    await expect(conn.execute("DELETE FROM mv_counts")).rejects.toThrow(/ORA-01732/)
    await conn.execute("DROP MATERIALIZED VIEW mv_counts")
    await expect(conn.execute("SELECT * FROM mv_counts")).rejects.toThrow(/ORA-00942/)
    expect(await rows("SELECT mview_name FROM user_mviews")).toEqual([["MV_DEPT"]])
    await expect(conn.execute("DROP MATERIALIZED VIEW mv_counts")).rejects.toThrow(/ORA-12003/)
  })
})
