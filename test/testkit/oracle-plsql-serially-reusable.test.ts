import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb } from "./oracle/helpers.ts"

/**
 * PRAGMA SERIALLY_REUSABLE through raw node-oracledb: the package's state lasts one server call, and the next call
 * naming it finds its variables initialised again (PL/SQL Language Reference 19c, "SERIALLY_REUSABLE Packages":
 * "The package state persists only for the life of a server call"), while a package without the pragma keeps its
 * state for the session; a body marked without its specification (or the reverse) is PLS-00709.
 */
describe("Oracle test server: SERIALLY_REUSABLE packages", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const readN = async (pkg: string): Promise<unknown> => {
    const r = await conn.execute(`BEGIN :n := ${pkg}.n; END;`, { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    return r.outBinds?.n
  }

  it("gives each server call a fresh instance of a serially reusable package, and keeps a plain package's state", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE sr_pkg IS\n  PRAGMA SERIALLY_REUSABLE;\n  n NUMBER := 5;\nEND;")
    await conn.execute("CREATE OR REPLACE PACKAGE plain_pkg IS\n  n NUMBER := 5;\nEND;")
    // inside one call the assignment holds
    const same = await conn.execute("BEGIN sr_pkg.n := 10; :n := sr_pkg.n; END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(same.outBinds?.n).toBe(10)
    await conn.execute("BEGIN plain_pkg.n := 10; END;")
    // the next call sees the serially reusable package initialised again, the plain one as it was left
    expect(await readN("sr_pkg")).toBe(5)
    expect(await readN("plain_pkg")).toBe(10)
  })

  it("runs a serially reusable package body's initialisation on every call that names it", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE sr_init IS\n  PRAGMA SERIALLY_REUSABLE;\n  n NUMBER;\n  PROCEDURE bump;\nEND;")
    const body = await conn.execute(
      "CREATE OR REPLACE PACKAGE BODY sr_init IS\n  PRAGMA SERIALLY_REUSABLE;\n  PROCEDURE bump IS BEGIN n := n + 1; END;\nBEGIN\n  n := 100;\nEND;"
    )
    expect(body.warning).toBeUndefined()
    await conn.execute("BEGIN sr_init.bump; sr_init.bump; END;")
    const twice = await conn.execute("BEGIN sr_init.bump; sr_init.bump; :n := sr_init.n; END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(twice.outBinds?.n).toBe(102)
    expect(await readN("sr_init")).toBe(100)
  })

  it("stores a body whose SERIALLY_REUSABLE pragma the specification lacks INVALID with PLS-00709, and the reverse too", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE sr_body_only IS\n  n NUMBER := 1;\n  PROCEDURE p;\nEND;")
    const r = await conn.execute("CREATE OR REPLACE PACKAGE BODY sr_body_only IS\n  PRAGMA SERIALLY_REUSABLE;\n  PROCEDURE p IS BEGIN NULL; END;\nEND;")
    expect(r.warning?.message).toMatch(/^NJS-700: creation succeeded with compilation errors/)
    const errors = (await conn.execute("SELECT line, text FROM user_errors WHERE name = 'SR_BODY_ONLY' ORDER BY sequence")).rows
    expect(errors?.[0]).toEqual([2, "PLS-00709: pragma SERIALLY_REUSABLE must be declared in package specification and body"])
    const call = await failure(() => conn.execute("BEGIN sr_body_only.p; END;"))
    expect(call.message).toMatch(new RegExp(`^ORA-04063: package body "${server.user}\\.SR_BODY_ONLY" has errors`))

    await conn.execute("CREATE OR REPLACE PACKAGE sr_spec_only IS\n  PRAGMA SERIALLY_REUSABLE;\n  PROCEDURE p;\nEND;")
    const r2 = await conn.execute("CREATE OR REPLACE PACKAGE BODY sr_spec_only IS\n  PROCEDURE p IS BEGIN NULL; END;\nEND;")
    expect(r2.warning?.message).toMatch(/^NJS-700/)
    const errors2 = (await conn.execute("SELECT text FROM user_errors WHERE name = 'SR_SPEC_ONLY' ORDER BY sequence")).rows
    expect(errors2?.[0]?.[0]).toMatch(/^PLS-00709/)
  })

  it("refuses a serially reusable package in a trigger and in a function a SQL statement calls, and keeps it usable from blocks", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE sr_guard IS\n  PRAGMA SERIALLY_REUSABLE;\n  n NUMBER := 7;\n  FUNCTION f RETURN NUMBER;\nEND;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY sr_guard IS\n  PRAGMA SERIALLY_REUSABLE;\n  FUNCTION f RETURN NUMBER IS BEGIN RETURN n; END;\nEND;")
    await conn.execute("CREATE OR REPLACE FUNCTION reads_sr RETURN NUMBER IS BEGIN RETURN sr_guard.n; END;")
    await conn.execute("CREATE TABLE sr_guard_t (id NUMBER, v NUMBER)")
    await conn.execute("CREATE OR REPLACE TRIGGER sr_guard_trg BEFORE INSERT ON sr_guard_t FOR EACH ROW BEGIN :NEW.v := sr_guard.n; END;")

    // a function a query calls, directly in the package or through a standalone one
    const direct = await failure(() => conn.execute("SELECT sr_guard.f FROM dual"))
    expect(direct.message).toMatch(/^ORA-06534: Cannot access Serially Reusable package ".*\.SR_GUARD"/)
    const indirect = await failure(() => conn.execute("SELECT reads_sr() FROM dual"))
    expect(indirect.message).toMatch(/^ORA-06534/)
    // a block's SQL statement calling it is SQL too
    const fromBlockSql = await failure(() => conn.execute("DECLARE x NUMBER; BEGIN SELECT reads_sr() INTO x FROM dual; END;"))
    expect(fromBlockSql.message).toMatch(/^ORA-06534/)

    // a trigger: the insert fails and writes nothing
    const trig = await failure(() => conn.execute("INSERT INTO sr_guard_t (id) VALUES (1)"))
    expect(trig.message).toMatch(/^ORA-06534/)
    expect(trig.message).toMatch(/ORA-04088: error during execution of trigger/)
    expect((await conn.execute("SELECT COUNT(*) FROM sr_guard_t")).rows).toEqual([[0]])

    // PL/SQL statements reach it as before, also after the refusals
    expect(await readN("sr_guard")).toBe(7)
    const viaFn = await conn.execute("BEGIN :n := reads_sr(); END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(viaFn.outBinds?.n).toBe(7)
  })
})
