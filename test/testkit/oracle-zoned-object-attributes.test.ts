import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * Objects of a type without a MAP or ORDER method compare attribute by attribute (Object-Relational Developer's
 * Guide, "Comparing Objects"); a TIMESTAMP WITH TIME ZONE attribute compares as its instant, as two values at the
 * same instant in UTC are identical whatever their offsets (SQL Language Reference, "TIMESTAMP WITH TIME ZONE Data
 * Type"): in `a = b` of objects and in MEMBER OF / IS A SET over a nested table of them, through raw node-oracledb
 * against the Oracle test server.
 */
describe("Oracle test server: objects with TIMESTAMP WITH TIME ZONE attributes compare by instant", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE zoa_ev AS OBJECT (n NUMBER, at TIMESTAMP WITH TIME ZONE)")
    await conn.execute("CREATE TYPE zoa_evs AS TABLE OF zoa_ev")
    await conn.execute("CREATE TABLE zoa (id NUMBER, o zoa_ev, p zoa_ev, e zoa_evs) NESTED TABLE e STORE AS zoa_e")
    await conn.execute(`INSERT INTO zoa VALUES (1, zoa_ev(1, TIMESTAMP '2024-01-01 10:00:00 +01:00'), zoa_ev(1, TIMESTAMP '2024-01-01 09:00:00 +00:00'),
      zoa_evs(zoa_ev(1, TIMESTAMP '2024-01-01 10:00:00 +01:00'), zoa_ev(1, TIMESTAMP '2024-01-01 09:00:00 +00:00')))`)
    await conn.execute(`INSERT INTO zoa VALUES (2, zoa_ev(2, TIMESTAMP '2024-07-01 12:00:00 Europe/Berlin'), zoa_ev(2, TIMESTAMP '2024-07-01 12:00:00 +00:00'),
      zoa_evs(zoa_ev(2, TIMESTAMP '2024-07-01 12:00:00 Europe/Berlin'), zoa_ev(3, TIMESTAMP '2024-07-01 10:00:00 +00:00')))`)
  })
  afterAll(() => closeConnection({ server, conn }))

  const ids = async (sql: string, binds: Record<string, unknown> = {}) =>
    ((await conn.execute(sql, binds, { outFormat: oracledb.OUT_FORMAT_ARRAY })).rows as Array<Array<unknown>>).map((r) => r[0])

  it("takes one instant written at two offsets as one value in a = b of objects", async () => {
    expect(await ids("SELECT id FROM zoa WHERE o = p ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM zoa t WHERE t.o <> t.p ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM zoa WHERE o = zoa_ev(2, TIMESTAMP '2024-07-01 10:00:00 +00:00') ORDER BY id")).toEqual([2])
  })

  it("compares a nested object's zoned attribute by its instant too", async () => {
    await conn.execute("CREATE TYPE zoa_in AS OBJECT (at TIMESTAMP WITH TIME ZONE, s VARCHAR2(5))")
    await conn.execute("CREATE TYPE zoa_out AS OBJECT (k NUMBER, i zoa_in)")
    await conn.execute("CREATE TYPE zoa_outs AS TABLE OF zoa_out")
    await conn.execute("CREATE TABLE zoa_n (id NUMBER, a zoa_out, b zoa_out, e zoa_outs) NESTED TABLE e STORE AS zoa_n_e")
    await conn.execute(`INSERT INTO zoa_n VALUES (1, zoa_out(1, zoa_in(TIMESTAMP '2024-01-01 10:00:00 +01:00', 'x')), zoa_out(1, zoa_in(TIMESTAMP '2024-01-01 09:00:00 +00:00', 'x')),
      zoa_outs(zoa_out(1, zoa_in(TIMESTAMP '2024-01-01 10:00:00 +01:00', 'x'))))`)
    await conn.execute(`INSERT INTO zoa_n VALUES (2, zoa_out(1, zoa_in(TIMESTAMP '2024-01-01 10:00:00 +01:00', 'x')), zoa_out(1, zoa_in(TIMESTAMP '2024-01-01 10:00:00 +00:00', 'x')),
      zoa_outs(zoa_out(1, zoa_in(TIMESTAMP '2024-01-01 10:00:00 +01:00', 'y'))))`)
    expect(await ids("SELECT id FROM zoa_n WHERE a = b ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM zoa_n WHERE a <> b ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM zoa_n WHERE zoa_out(1, zoa_in(TIMESTAMP '2024-01-01 08:00:00 -01:00', 'x')) MEMBER OF e ORDER BY id")).toEqual([1])
  })

  it("compares an object a client bound by its instant too", async () => {
    const Ev = await conn.getDbObjectClass("ZOA_EV")
    await conn.execute("INSERT INTO zoa (id, o) VALUES (3, :o)", { o: new Ev({ N: 3, AT: new Date(Date.UTC(2024, 2, 1, 8)) }) })
    expect(await ids("SELECT id FROM zoa WHERE o = zoa_ev(3, TIMESTAMP '2024-03-01 13:30:00 +05:30') ORDER BY id")).toEqual([3])
    expect(await ids("SELECT id FROM zoa WHERE o = :o ORDER BY id", { o: new Ev({ N: 3, AT: new Date(Date.UTC(2024, 2, 1, 8)) }) })).toEqual([3])
    // row 1's o was written at +01:00, the bind's instant is the same one in UTC
    expect(await ids("SELECT id FROM zoa WHERE :o = o ORDER BY id", { o: new Ev({ N: 1, AT: new Date(Date.UTC(2024, 0, 1, 9)) }) })).toEqual([1])
    await conn.execute("DELETE FROM zoa WHERE id = 3")
  })

  it("takes one instant written at two offsets as one value in MEMBER OF and IS A SET", async () => {
    expect(await ids("SELECT id FROM zoa WHERE zoa_ev(1, TIMESTAMP '2024-01-01 11:00:00 +02:00') MEMBER OF e ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM zoa WHERE zoa_ev(3, TIMESTAMP '2024-07-01 12:00:00 Europe/Berlin') MEMBER OF e ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM zoa WHERE zoa_ev(1, TIMESTAMP '2024-01-01 10:00:00 +00:00') NOT MEMBER OF e ORDER BY id")).toEqual([1, 2])
    expect(await ids("SELECT id FROM zoa WHERE e IS A SET ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM zoa WHERE e IS NOT A SET ORDER BY id")).toEqual([1])
  })
})
