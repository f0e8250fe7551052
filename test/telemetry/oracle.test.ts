import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { OracleDriver } from "../../layers/oracle/OracleDriver.ts"
import * as Connection from "../../src/Connection.ts"
import { connectionLayer, uniqueName, useServer } from "../oracle/support.ts"
import { type DriverCase, endpointOf, telemetryScenarios } from "./drivers.ts"
import { metricScenarios } from "./metrics.ts"
import { makeRecorder } from "./support.ts"

const server = useServer()

const driverCase: DriverCase = {
  server,
  layer: connectionLayer,
  systemName: "oracle.db",
  // Before logon only an instance name in the URI (`/service/instance`) identifies the database; the test URI has
  // none, so the connect span has no db.namespace (the statements' spans have the logon reply's, tested below).
  namespace: undefined,
  smallBatches: (rows) => ({ "redo.statement.read_batch_rows": String(rows) }),
  placeholder: ":1",
  missingTableCode: "ORA-00942",
  uniqueName
}

describe("telemetry on the Oracle driver (node-oracledb thin over sockets)", () => {
  telemetryScenarios(driverCase)
  metricScenarios(driverCase)

  it.effect("after logon, spans carry the instance the server reported as db.namespace and the URI's service", () => {
    const recorder = makeRecorder()
    const service = new URL(server.uri).pathname.slice(1)
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute("SELECT 1 FROM DUAL")
      const [connect] = recorder.named("connect")
      expect(connect?.attributes.get("oracle.db.service")).toBe(service)
      expect(connect?.attributes.has("db.namespace")).toBe(false)
      const [select] = recorder.named("SELECT")
      // the test server's logon reply says AUTH_INSTANCENAME=FREE, like Oracle Database Free
      expect(select?.attributes.get("db.namespace")).toBe("FREE")
      expect(select?.attributes.get("oracle.db.service")).toBe(service)
    }).pipe(Effect.provide(connectionLayer(server.uri)), Effect.provide(recorder.layer))
  })

  it("the endpoint comes from the URI: host, port (1521 when not given), service name, instance name; ORA- codes", () => {
    const endpoint = (uri: string) => endpointOf(OracleDriver, uri)
    expect(endpoint("oracle://scott:tiger@db.example.com/ORCLPDB1")).toEqual({
      address: "db.example.com",
      port: 1521,
      namespace: undefined,
      attributes: { "oracle.db.service": "ORCLPDB1" }
    })
    expect(endpoint("oracle://scott:tiger@db.example.com/SALES/ORCL2")?.namespace).toBe("ORCL2")
    expect(endpoint("oracle://scott:tiger@db.example.com:1522/SALES")?.port).toBe(1522)
    expect(OracleDriver.telemetry?.statusCode?.(942)).toBe("ORA-00942")
  })
})
