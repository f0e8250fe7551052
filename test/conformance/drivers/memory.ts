/** The MemoryDriver's conformance record: the in-memory driver of test/support with a hard batch cap. */
import { Layer } from "effect"
import * as Connection from "../../../src/Connection.ts"
import * as Database from "../../../src/Database.ts"
import { Driver } from "../../../src/Driver.ts"
import { memoryDriver, MemoryServer } from "../../support/MemoryDriver.ts"
import type { ConformanceDriver } from "../harness.ts"

export const memory: ConformanceDriver = {
  name: "memory",
  start: async () => {
    const server = new MemoryServer()
    const driverLayer = Layer.succeed(Driver, memoryDriver(server, "hard"))
    return {
      layer: (databaseOptions = {}, connectionOptions = {}) =>
        Connection.layer(connectionOptions).pipe(
          Layer.provideMerge(Database.layer({ uri: "mem://local", ...databaseOptions })),
          Layer.provide(driverLayer)
        ),
      openCursors: () => server.openCursors,
      openSessions: () => server.openConnections,
      faults: {
        dropMidFetch: (on) => {
          server.failNextPage = on
        }
      },
      close: async () => {}
    }
  },
  sql: {
    selectAll: (table, orderBy) => `SELECT * FROM MAIN.${table}${orderBy === undefined ? "" : ` ORDER BY ${orderBy}`}`,
    count: (table) => `SELECT COUNT(*) FROM MAIN.${table}`,
    selectParameters: (n) => `SELECT PARAMS ${Array.from({ length: n }, () => "?").join(", ")}`,
    failing: { sql: "FAIL boom", error: { status: "INVALID_ARGUMENT", vendorCode: 257, sqlState: "42000" } },
    missingTable: { sql: "SELECT * FROM MAIN.NOPE", error: { status: "NOT_FOUND", vendorCode: 259, sqlState: "42S02" } }
  },
  batchRows: { key: "mem.read_batch_rows", mode: "hard" },
  batchBytes: { key: "mem.read_batch_bytes" },
  smallPages: { "mem.page_rows": "4" },
  badOption: { key: "mem.page_rows", value: "0" },
  ingestedTypes: { id: "Int32", name: "Utf8" },
  tableTypes: ["TABLE", "VIEW"],
  catalog: "mem",
  countsCursors: true,
  // no cancelledRead: the MemoryDriver's cancel does nothing (it runs no call a cancel could stop)
  overSocket: false,
  faults: { dropMidFetch: true, dropMidIngest: false, stallAfterHandshake: false, stallMidResult: false },
  ddlInTransaction: "refused",
  capabilities: { parameterSchema: true, ingestTemporary: true, ingestTargetCatalog: false }
}
