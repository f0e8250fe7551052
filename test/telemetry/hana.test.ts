import { describe, expect, it } from "@effect/vitest"
import { HanaDriver } from "../../layers/hana/HanaDriver.ts"
import { connectionLayer, realHana, uniqueName, useServer } from "../hana/support.ts"
import { type DriverCase, endpointOf, telemetryScenarios } from "./drivers.ts"
import { metricScenarios } from "./metrics.ts"

const server = useServer()

const driverCase: DriverCase = {
  server,
  layer: connectionLayer,
  systemName: "sap.hana",
  namespace: realHana ? new URL(server.uri).searchParams.get("databaseName") ?? undefined : undefined,
  smallBatches: (rows) => ({
    "dba.statement.fetch_size": String(rows / 2),
    "dba.statement.read_batch_rows": String(rows)
  }),
  placeholder: "?",
  missingTableCode: "259",
  uniqueName
}

describe("telemetry on the HANA driver (hdb over sockets)", () => {
  telemetryScenarios(driverCase)
  metricScenarios(driverCase)

  it("the endpoint comes from the URI: host, port, the tenant database as namespace, never the credentials", () => {
    expect(endpointOf(HanaDriver, "hdb://SYSTEM:Secret1@hana.example.com:30041?databaseName=HXE")).toEqual({
      address: "hana.example.com",
      port: 30041,
      namespace: "HXE"
    })
  })
})
