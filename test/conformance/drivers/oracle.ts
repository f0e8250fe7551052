/**
 * The Oracle driver's conformance record: the real `oracledb` thin client over sockets against the Oracle test
 * server, run by `oracle.test.ts`.
 */
import * as Oracle from "../../../layers/oracle/index.ts"
import { startOracleTestServer } from "../../../testkit/oracle/index.ts"
import { type ConformanceDriver, quotedSql, socketEnv } from "../harness.ts"

export const oracle: ConformanceDriver = {
  name: "oracle",
  start: async () => {
    const server = await startOracleTestServer()
    return socketEnv(server, Oracle.layerDatabase, (ms) => {
      server.faults.replyDelayMs = ms
    })
  },
  sql: {
    ...quotedSql({ fromNothing: " FROM DUAL", placeholder: (i) => `:${i + 1}` }),
    failing: { sql: "SELEC 1", error: { status: "INVALID_ARGUMENT", vendorCode: 900 } },
    missingTable: { sql: "SELECT * FROM NO_SUCH_TABLE_X", error: { status: "NOT_FOUND", vendorCode: 942 } }
  },
  batchRows: { key: "redo.statement.read_batch_rows", mode: "hard" },
  batchBytes: { key: "redo.statement.read_batch_approx_bytes" },
  smallPages: { "redo.statement.fetch_array_size": "4" },
  // ingest gathers rows across batches into calls of insert_batch_rows: 100 makes one call per 100-row batch
  smallIngestCalls: { "redo.statement.insert_batch_rows": "100" },
  badOption: { key: "redo.statement.fetch_array_size", value: "0" },
  // ingest creates NUMBER(10,0), which reads back as int64 (NUMBER(p,0), p <= 18), and NVARCHAR2(2000)
  ingestedTypes: { id: "Int64", name: "Utf8" },
  tableTypes: ["TABLE", "VIEW"],
  catalog: "FREEPDB1",
  // the test server counts results the client has not fetched, closed or cancelled (openResultSets)
  countsCursors: true,
  // ORA-01013, as Oracle answers a fetch from a query cancelled on the server
  cancelledRead: { status: "CANCELLED", vendorCode: 1013, sqlState: "HY008" },
  overSocket: true,
  faults: { dropMidFetch: true, dropMidIngest: true, stallAfterHandshake: true, stallMidResult: true },
  ddlInTransaction: "refused",
  capabilities: { parameterSchema: false, ingestTemporary: false, ingestTargetCatalog: false }
}
