import { describe, expect, it } from "@effect/vitest"
import { OracleDriver } from "../../layers/oracle/OracleDriver.ts"
import { connectionLayer, uniqueName, useServer } from "../oracle/support.ts"
import { endpointOf, telemetryScenarios } from "./drivers.ts"

const server = useServer()

describe("telemetry on the Oracle driver (node-oracledb thin over sockets)", () => {
  telemetryScenarios({
    server,
    layer: connectionLayer,
    systemName: "oracle.db",
    get namespace() {
      return new URL(server.uri).pathname.slice(1) || undefined
    },
    smallBatches: (rows) => ({ "redo.statement.read_batch_rows": String(rows) }),
    placeholder: ":1",
    missingTableCode: "ORA-00942",
    uniqueName
  })

  it("the endpoint comes from the URI: host, port (1521 when not given), service name; ORA- status codes", () => {
    const endpoint = (uri: string) => endpointOf(OracleDriver, uri)
    expect(endpoint("oracle://scott:tiger@db.example.com/ORCLPDB1")).toEqual({
      address: "db.example.com",
      port: 1521,
      namespace: "ORCLPDB1"
    })
    expect(endpoint("oracle://scott:tiger@db.example.com:1522/SALES")?.port).toBe(1522)
    expect(OracleDriver.telemetry?.statusCode?.(942)).toBe("ORA-00942")
  })
})
