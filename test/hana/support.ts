/**
 * Integration test support: the HANA test server over real sockets, or a real HANA when HANA_URI is set
 * (`HANA_URI=hdb://USER:PASSWORD@host:port npx vitest run test/hana`).
 */
import * as Hana from "../../layers/hana/index.ts"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import { makeDriverSupport } from "../support/driverSupport.ts"

export { uniqueName } from "../support/driverSupport.ts"

const support = makeDriverSupport({
  realUriVariable: "HANA_URI",
  startServer: startHanaTestServer,
  layerDatabase: Hana.layerDatabase
})

/** True when the suite runs against a real HANA. */
export const realHana = support.real
/** A server for the current test file: started before its tests, closed after. */
export const useServer = support.useServer
/** Connection + Database layers on `uri` with extra database and connection options. */
export const connectionLayer = support.connectionLayer
/** Runs `program` with a fresh connection. */
export const withConnection = support.withConnection
