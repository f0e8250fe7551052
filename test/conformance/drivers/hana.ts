/** The HANA driver's conformance record: the real `hdb` client over sockets against the HANA test server. */
import * as Hana from "../../../layers/hana/index.ts"
import { startHanaTestServer } from "../../../testkit/hana/index.ts"
import { type ConformanceDriver, quotedSql, socketEnv } from "../harness.ts"

export const hana: ConformanceDriver = {
  name: "hana",
  start: async () => {
    const server = await startHanaTestServer()
    return socketEnv(server, Hana.layerDatabase, (ms) => {
      server.faults.replyDelayMs = ms
    })
  },
  sql: {
    ...quotedSql({ fromNothing: " FROM DUMMY", placeholder: () => "?" }),
    failing: { sql: "SELEC 1", error: { status: "INVALID_ARGUMENT", vendorCode: 257 } },
    missingTable: { sql: "SELECT * FROM NO_SUCH_TABLE_X", error: { status: "NOT_FOUND", vendorCode: 259 } }
  },
  batchRows: { key: "dba.statement.read_batch_rows", mode: "best-effort" },
  smallPages: { "dba.statement.fetch_size": "4" },
  badOption: { key: "dba.statement.fetch_size", value: "0" },
  ingestedTypes: { id: "Int32", name: "Utf8" },
  tableTypes: ["TABLE", "VIEW"],
  catalog: "db",
  countsCursors: true,
  // 139, the code of a statement cancelled on the server
  cancelledRead: { status: "CANCELLED", vendorCode: 139, sqlState: "HY008" },
  overSocket: true,
  faults: { dropMidFetch: true, dropMidIngest: true, stallAfterHandshake: true, stallMidResult: true },
  ddlInTransaction: "rolls back",
  capabilities: { parameterSchema: true, ingestTemporary: true, ingestTargetCatalog: false }
}
