/**
 * Integration test support: the Oracle test server over real sockets, or a real Oracle Database when ORACLE_URI is
 * set (`ORACLE_URI=oracle://USER:PASSWORD@localhost:1521/FREEPDB1 npx vitest run test/oracle`).
 */
import * as Oracle from "../../layers/oracle/index.ts"
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
