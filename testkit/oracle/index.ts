/**
 * Wire-compatible Oracle Database test server for the unmodified node-oracledb thin client
 * (see README.md in this folder for the accepted SQL and PL/SQL subset).
 */
export { startOracleTestServer, VERIFIED_ORACLEDB_VERSION } from "./server.ts"
export type { OracleFaults, OracleTestServerHandle, OracleTestServerOptions, OracleUser, OracleVersion } from "./server.ts"
export { acquire, layer, OracleTestServer } from "./layer.ts"
export type { ServerStats } from "../common/stats.ts"
