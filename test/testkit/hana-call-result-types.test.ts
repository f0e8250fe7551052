import { describe, expect, it } from "@effect/vitest"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

/** hdb calls back a CALL with (err, parameters, ...resultSets) (hdb lib/protocol/Result.js handleDBCall). */
const executeCall = (st: HdbStatement, values: unknown[]): Promise<unknown[]> =>
  new Promise((resolve, reject) =>
    (st.execute as unknown as (v: unknown[], cb: (err: Error | null, ...rest: unknown[]) => void) => void)(values, (err, ...rest) =>
      err ? reject(err) : resolve(rest)
    )
  )

type Described = ReadonlyArray<readonly [string, number, number]>

/** Name, hdb type code and length of each column (hdb lib/protocol/ResultSetMetadata.js). */
const describe_ = (rs: HdbResultSet): Described =>
  rs.metadata.map((m) => {
    const col = m as unknown as { columnDisplayName: string; dataType: number; length: number }
    return [col.columnDisplayName, col.dataType, col.length] as const
  })

/**
 * A bare SELECT inside a procedure body reaches the client as a result set of the CALL (hana-procedures.test.ts);
 * its columns are typed by the same rules as the SELECT run on its own: declared column types through qualifiers and
 * stars, LENGTH and YEAR INTEGER, the hashes VARBINARY(32) / (16) (hana-function-types.test.ts,
 * hana-result-types.test.ts, hana-builtin-functions.test.ts).
 */
describe("HANA test server: result sets of CALL typed as the same SELECT outside a procedure (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({
    client: { dataFormatSupport: 8 },
    setup: [
      "CREATE TABLE crt (id INTEGER PRIMARY KEY, name NVARCHAR(20), b VARBINARY(8), ts TIMESTAMP)",
      "CREATE TABLE crt_other (id INTEGER, name NVARCHAR(7))",
      "INSERT INTO crt VALUES (1, 'apple', X'0102', '2024-01-02 03:04:05')",
      "INSERT INTO crt_other VALUES (1, 'red')"
    ]
  }, (opened) => (c = opened.client))

  const selects = [
    "SELECT q.id, q.name, LENGTH(q.name) AS L, HASH_SHA256(q.b) AS H, HASH_MD5(q.b) AS M, YEAR(q.ts) AS Y FROM crt q",
    "SELECT a.name, o.name FROM crt a JOIN crt_other o ON a.id = o.id",
    "SELECT * FROM crt a JOIN crt_other o ON a.id = o.id"
  ]

  it("each result set's column types are those of the SELECT run directly", async () => {
    const direct: Described[] = []
    for (const sql of selects) {
      const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
      rs.close()
      direct.push(describe_(rs))
    }
    // The direct path's types are HANA's (test/testkit/hana-function-types.test.ts, hana-result-types.test.ts).
    expect(direct[0]!.map(([, t, n]) => [t, n])).toEqual([
      [3, 10],
      [11, 20],
      [3, 10],
      [13, 32],
      [13, 16],
      [3, 10]
    ])
    await exec(c, `CREATE PROCEDURE crt_sets () LANGUAGE SQLSCRIPT READS SQL DATA AS BEGIN ${selects.map((s) => `${s};`).join(" ")} END`)
    const st = await call<HdbStatement>((cb) => c.prepare("CALL crt_sets()", cb))
    const [, ...sets] = await executeCall(st, [])
    const called = (sets as HdbResultSet[]).map((rs) => {
      rs.close()
      return describe_(rs)
    })
    expect(called).toEqual(direct)
  })
})
