/**
 * A program that starts a test server in-process exits by itself once the server is released: closing leaves no
 * timer or listener behind. Its own file, so that no other test's servers share the worker's event loop.
 */
import { describe, expect, it } from "vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import { startOracleTestServer } from "../../testkit/oracle/index.ts"

const count = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length
const settled = () => new Promise((resolve) => setTimeout(resolve, 100))

describe("test server release", () => {
  for (const [name, start] of [["HANA", startHanaTestServer], ["Oracle", startOracleTestServer]] as const) {
    it(`closing the ${name} test server leaves no timer or listener that would keep the process alive`, async () => {
      await settled()
      const timers = count("Timeout")
      const listeners = count("TCPServerWrap")
      const server = await start({})
      await server.close()
      await new Promise((resolve) => setImmediate(resolve))
      expect(count("Timeout")).toBeLessThanOrEqual(timers)
      await settled()
      expect(count("TCPServerWrap")).toBe(listeners)
    })
  }
})
