import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Index-by (associative array) binds of oracledb into PL/SQL parameters and block variables, through raw oracledb:
 * node-oracledb documentation, "PL/SQL Collection Associative Array (Index-by) Bind Parameters"
 * (https://node-oracledb.readthedocs.io/en/latest/user_guide/plsql_execution.html): `{type, dir, val: [..],
 * maxArraySize}` binds a `TABLE OF ... INDEX BY PLS_INTEGER` parameter; OUT arrays come back as JavaScript arrays of
 * at most maxArraySize elements (more is ORA-06513).
 */
describe("Oracle test server: index-by array binds into PL/SQL parameters and variables (raw oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE OR REPLACE PACKAGE arr AS
      TYPE num_t IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
      TYPE str_t IS TABLE OF VARCHAR2(20) INDEX BY BINARY_INTEGER;
      PROCEDURE total(nums IN num_t, s OUT NUMBER);
      PROCEDURE doubled(nums IN num_t, out_nums OUT num_t);
      PROCEDURE upper_all(strs IN OUT str_t);
    END arr;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY arr AS
      PROCEDURE total(nums IN num_t, s OUT NUMBER) IS
      BEGIN
        s := 0;
        FOR i IN 1..nums.COUNT LOOP
          s := s + nums(i);
        END LOOP;
      END;
      PROCEDURE doubled(nums IN num_t, out_nums OUT num_t) IS
      BEGIN
        FOR i IN 1..nums.COUNT LOOP
          out_nums(i) := nums(i) * 2;
        END LOOP;
      END;
      PROCEDURE upper_all(strs IN OUT str_t) IS
      BEGIN
        FOR i IN 1..strs.COUNT LOOP
          strs(i) := UPPER(strs(i));
        END LOOP;
        strs(strs.COUNT + 1) := 'END';
      END;
    END arr;`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("binds IN arrays into a package type's parameter", async () => {
    const r = await conn.execute("BEGIN arr.total(:nums, :s); END;", {
      nums: { type: oracledb.NUMBER, dir: oracledb.BIND_IN, val: [1, 2, 3.5, 10] },
      s: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT }
    })
    expect(r.outBinds.s).toBe(16.5)
  })

  it("sends OUT and IN OUT arrays back", async () => {
    const r = await conn.execute("BEGIN arr.doubled(:nums, :o); END;", {
      nums: { type: oracledb.NUMBER, dir: oracledb.BIND_IN, val: [1, 2, 3] },
      o: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT, maxArraySize: 10 }
    })
    expect(r.outBinds.o).toEqual([2, 4, 6])
    const s = await conn.execute("BEGIN arr.upper_all(:a); END;", {
      a: { type: oracledb.STRING, dir: oracledb.BIND_INOUT, val: ["ab", "cd"], maxArraySize: 5, maxSize: 20 }
    })
    expect(s.outBinds.a).toEqual(["AB", "CD", "END"])
    // the connection reads the next reply in step
    expect((await conn.execute("SELECT 1 FROM dual")).rows).toEqual([[1]])
  })

  it("binds arrays into block variables and back", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE num_t IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
        v num_t;
      BEGIN
        v := :nums;
        v(v.COUNT + 1) := 100;
        :n := v.COUNT;
        :o := v;
      END;`,
      {
        nums: { type: oracledb.NUMBER, dir: oracledb.BIND_IN, val: [5, 6] },
        n: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT },
        o: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT, maxArraySize: 5 }
      }
    )
    expect(r.outBinds).toEqual({ n: 3, o: [5, 6, 100] })
  })

  it("reads and assigns elements of array binds: :arr(i), :arr.COUNT, :arr(i) := v", async () => {
    const r = await conn.execute(
      `BEGIN
        FOR i IN 1 .. :nums.COUNT LOOP
          :o(i) := :nums(i) * 10;
        END LOOP;
        :io(2) := 'two';
        :io(:io.COUNT + 1) := UPPER(:io(1));
        :n := :nums(2) + :nums.COUNT;
      END;`,
      {
        nums: { type: oracledb.NUMBER, dir: oracledb.BIND_IN, val: [1, 2, 3] },
        o: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT, maxArraySize: 5 },
        io: { type: oracledb.STRING, dir: oracledb.BIND_INOUT, val: ["a", "b"], maxArraySize: 5, maxSize: 10 },
        n: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT }
      }
    )
    expect(r.outBinds).toEqual({ o: [10, 20, 30], io: ["a", "two", "A"], n: 5 })
    // an element the array does not hold is NO_DATA_FOUND, as for a variable
    const e = await failure(() => conn.execute("BEGIN :n := :nums(4); END;", { nums: { type: oracledb.NUMBER, dir: oracledb.BIND_IN, val: [1] }, n: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT } }))
    expect(oraCode(e)).toBe("ORA-01403")
  })

  it("an OUT array longer than maxArraySize is ORA-06513", async () => {
    const e = await failure(() =>
      conn.execute("BEGIN arr.doubled(:nums, :o); END;", {
        nums: { type: oracledb.NUMBER, dir: oracledb.BIND_IN, val: [1, 2, 3] },
        o: { type: oracledb.NUMBER, dir: oracledb.BIND_OUT, maxArraySize: 2 }
      })
    )
    expect(oraCode(e)).toBe("ORA-06513")
  })
})
