/**
 * Integration test support: the Oracle test server over real sockets, or a real Oracle Database when ORACLE_URI is
 * set (`ORACLE_URI=oracle://USER:PASSWORD@localhost:1521/FREEPDB1 npx vitest run test/oracle`).
 */
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { createRequire } from "node:module"
import * as Oracle from "../../layers/oracle/index.ts"
import type * as Connection from "../../src/Connection.ts"
import { startOracleTestServer } from "../../testkit/oracle/index.ts"
import { makeDriverSupport } from "../support/driverSupport.ts"

export { uniqueName } from "../support/driverSupport.ts"

const support = makeDriverSupport({
  realUriVariable: "ORACLE_URI",
  startServer: startOracleTestServer,
  layerDatabase: Oracle.layerDatabase
})

/** True when the suite runs against a real Oracle Database. */
export const realOracle = support.real
/** A server for the current test file: started before its tests, closed after. */
export const useServer = support.useServer
/** Connection + Database layers on `uri` with extra database and connection options. */
export const connectionLayer = support.connectionLayer
/** Runs `program` with a fresh connection. */
export const withConnection = support.withConnection

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

/** Runs `f` on a raw oracledb connection to `uri` (no driver in between), closed afterwards. */
export const withRawConnection = (uri: string, f: (raw: any) => Promise<void>) =>
  Effect.promise(async () => {
    const u = new URL(uri)
    const raw = await oracledb.getConnection({ user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectString: `${u.host}${u.pathname}` })
    try {
      await f(raw)
    } finally {
      await raw.close()
    }
  })

/** Reads all of `sql` through the driver in execution `mode` into one table. */
export const readTable = (conn: Connection.Connection["Service"], sql: string, mode: string) =>
  Effect.map(Stream.runCollect(conn.query(sql, { "redo.statement.execution_mode": mode })), (batches) => new Arrow.Table(batches))
