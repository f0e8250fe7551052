import { describe, expect, it } from "@effect/vitest"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/**
 * TIME and SECONDTIME hold whole seconds (SAP HANA SQL Reference, "Datetime Data Types": TIME and SECONDTIME have
 * second precision), so a fraction of a second written or cast into one is cut off and not stored: what the column
 * holds is checked with TO_VARCHAR, equality and COUNT(DISTINCT …), not only with what hdb reads back.
 */
describe.each([1, 3, 8])("HANA test server: TIME and SECONDTIME keep whole seconds at data format version %i (raw hdb client)", (dfv) => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: dfv } }, (opened) => (c = opened.client))

  it("a text literal in INSERT and UPDATE is stored without its fraction", async () => {
    await exec(c, "CREATE TABLE tsl (id INTEGER, st SECONDTIME, t TIME)")
    await exec(c, "INSERT INTO tsl VALUES (1, '10:00:00.9', '23:59:59.999')")
    await exec(c, "INSERT INTO tsl (id, t, st) VALUES (2, '23:59:59', TIME '11:00:00.25')")
    expect(await exec(c, "SELECT TO_VARCHAR(st) AS ST, TO_VARCHAR(t) AS T FROM tsl ORDER BY id")).toEqual([
      { ST: "10:00:00", T: "23:59:59" },
      { ST: "11:00:00", T: "23:59:59" }
    ])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM tsl WHERE st = '10:00:00'")).toEqual([{ N: 1 }])
    expect(await exec(c, "SELECT COUNT(DISTINCT t) AS N FROM tsl")).toEqual([{ N: 1 }])
    await exec(c, "UPDATE tsl SET st = '12:00:00.5', t = '08:15:30.75' WHERE id = 1")
    expect(await exec(c, "SELECT TO_VARCHAR(st) AS ST, TO_VARCHAR(t) AS T FROM tsl WHERE id = 1")).toEqual([{ ST: "12:00:00", T: "08:15:30" }])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM tsl WHERE st = '12:00:00' AND t = '08:15:30'")).toEqual([{ N: 1 }])
  })

  it("an expression and INSERT … SELECT written into a TIME column are cut too", async () => {
    await exec(c, "CREATE TABLE tsrc (id INTEGER, ts TIMESTAMP, s NVARCHAR(20))")
    await exec(c, "INSERT INTO tsrc VALUES (1, '2024-01-01 10:00:00.9', '10:00:00.5')")
    await exec(c, "CREATE TABLE tse (id INTEGER, t TIME, st SECONDTIME)")
    await exec(c, "INSERT INTO tse SELECT id, ts, s FROM tsrc")
    await exec(c, "INSERT INTO tse VALUES (2, (SELECT s FROM tsrc), (SELECT ts FROM tsrc))")
    await exec(c, "UPDATE tse SET st = (SELECT s FROM tsrc) WHERE id = 2")
    expect(await exec(c, "SELECT TO_VARCHAR(t) AS T, TO_VARCHAR(st) AS ST FROM tse ORDER BY id")).toEqual([
      { T: "10:00:00", ST: "10:00:00" },
      { T: "10:00:00", ST: "10:00:00" }
    ])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM tse WHERE t = '10:00:00' AND st = '10:00:00'")).toEqual([{ N: 2 }])
  })

  it("CAST to TIME or SECONDTIME drops the fraction", async () => {
    expect(
      await exec(
        c,
        "SELECT TO_VARCHAR(CAST('10:00:00.9' AS SECONDTIME)) AS A, TO_VARCHAR(CAST('23:59:59.999' AS TIME)) AS B, " +
          "CASE WHEN CAST('10:00:00.9' AS TIME) = CAST('10:00:00' AS TIME) THEN 1 ELSE 0 END AS C FROM DUMMY"
      )
    ).toEqual([{ A: "10:00:00", B: "23:59:59", C: 1 }])
  })

  it("a TIME parameter, single or batched, is stored as whole seconds", async () => {
    await exec(c, "CREATE TABLE tsp (id INTEGER, st SECONDTIME, t TIME)")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO tsp VALUES (?, ?, ?)", cb))
    await call((cb) => st.exec([1, "10:00:00.900", "23:59:59.999"], cb))
    await call((cb) => st.exec([2, "10:00:00", "23:59:59"], cb))
    expect(await exec(c, "SELECT COUNT(DISTINCT st) AS S, COUNT(DISTINCT t) AS T FROM tsp")).toEqual([{ S: 1, T: 1 }])
    expect(await exec(c, "SELECT TO_VARCHAR(st) AS ST, TO_VARCHAR(t) AS T FROM tsp WHERE id = 1")).toEqual([{ ST: "10:00:00", T: "23:59:59" }])
    const up = await call<HdbStatement>((cb) => c.prepare("UPDATE tsp SET t = ? WHERE id = 2", cb))
    await call((cb) => up.exec(["08:15:30.750"], cb))
    expect(await exec(c, "SELECT COUNT(*) AS N FROM tsp WHERE t = '08:15:30'")).toEqual([{ N: 1 }])
    await call((cb) => st.exec([[3, "07:00:00.100", "07:00:00.999"], [4, "07:00:00", "07:00:00"]], cb))
    expect(await exec(c, "SELECT COUNT(*) AS N FROM tsp WHERE id >= 3 AND st = '07:00:00' AND t = '07:00:00'")).toEqual([{ N: 2 }])
  })
})
