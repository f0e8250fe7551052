/** The HANA driver's conformance record: the real `hdb` client over sockets against the HANA test server. */
import { Layer } from "effect"
import * as Connection from "../../../src/Connection.ts"
import * as Hana from "../../../layers/hana/index.ts"
import { startHanaTestServer } from "../../../testkit/hana/index.ts"
import type { ConformanceDriver } from "../harness.ts"

const quote = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`

export const hana: ConformanceDriver = {
  name: "hana",
  start: async () => {
    const server = await startHanaTestServer()
    return {
      layer: (databaseOptions = {}, connectionOptions = {}) =>
        Connection.layer(connectionOptions).pipe(
          Layer.provideMerge(Hana.layerDatabase({ uri: server.uri, ...databaseOptions }))
        ),
      // The test server does not expose its open result sets yet.
      openCursors: undefined,
      openSessions: () => server.sessionCount(),
      faults: {
        dropMidFetch: (on) => {
          server.faults.dropMidResult = on
        }
      },
      close: () => server.close()
    }
  },
  sql: {
    selectAll: (table, orderBy) =>
      `SELECT * FROM ${quote(table)}${orderBy === undefined ? "" : ` ORDER BY ${quote(orderBy)}`}`,
    count: (table) => `SELECT COUNT(*) AS C FROM ${quote(table)}`,
    selectParameters: (n) =>
      `SELECT ${Array.from({ length: n }, (_, i) => `? AS P${i}`).join(", ")} FROM DUMMY`,
    failing: { sql: "SELEC 1", error: { status: "INVALID_ARGUMENT", vendorCode: 257 } },
    missingTable: { sql: "SELECT * FROM NO_SUCH_TABLE_X", error: { status: "NOT_FOUND", vendorCode: 259 } }
  },
  batchRows: { key: "dba.statement.read_batch_rows", mode: "best-effort" },
  smallPages: { "dba.statement.fetch_size": "4" },
  badOption: { key: "dba.statement.fetch_size", value: "0" },
  tableTypes: ["TABLE", "VIEW"],
  catalog: "db",
  capabilities: { parameterSchema: true, ingestTemporary: true, ingestTargetCatalog: false }
}
