import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

/**
 * Pipelined table functions through raw node-oracledb (PL/SQL Language Reference 23ai, "PIPE ROW Statement" and
 * "Pipelined Table Functions": a function declared PIPELINED returns its rows one PIPE ROW at a time and ends with a
 * RETURN without a value; `SELECT ... FROM TABLE(f(args))` reads them), standalone and in a package.
 */
describe("Oracle test server: pipelined table functions", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE pl_num_list AS TABLE OF NUMBER")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a standalone PIPELINED function's rows, its arguments from literals and binds", async () => {
    await conn.execute(`CREATE OR REPLACE FUNCTION pl_tens(n NUMBER) RETURN pl_num_list PIPELINED IS
      BEGIN
        FOR i IN 1 .. n LOOP
          PIPE ROW(i * 10);
        END LOOP;
        RETURN;
      END;`)
    expect((await conn.execute("SELECT * FROM TABLE(pl_tens(3))")).rows).toEqual([[10], [20], [30]])
    const r = await conn.execute("SELECT column_value AS v FROM TABLE(pl_tens(:n)) WHERE column_value > :m ORDER BY v DESC", { n: 4, m: 15 })
    expect(r.rows).toEqual([[40], [30], [20]])
    expect((await conn.execute("SELECT COUNT(*) FROM TABLE(pl_tens(0))")).rows).toEqual([[0]])
  })

  it("a package's PIPELINED function over a package collection type of records", async () => {
    await conn.execute(`CREATE OR REPLACE PACKAGE pl_pkg IS
      TYPE row_t IS RECORD (id NUMBER, label VARCHAR2(20));
      TYPE rows_t IS TABLE OF row_t;
      FUNCTION labels(prefix VARCHAR2) RETURN rows_t PIPELINED;
    END pl_pkg;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY pl_pkg IS
      FUNCTION labels(prefix VARCHAR2) RETURN rows_t PIPELINED IS
        r row_t;
      BEGIN
        FOR i IN 1 .. 2 LOOP
          r.id := i;
          r.label := prefix || i;
          PIPE ROW(r);
        END LOOP;
        RETURN;
      END labels;
    END pl_pkg;`)
    const r = await conn.execute("SELECT t.label, t.id FROM TABLE(pl_pkg.labels('x')) t ORDER BY t.id")
    expect(r.rows).toEqual([
      ["x1", 1],
      ["x2", 2]
    ])
  })
})
