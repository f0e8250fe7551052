import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// ORA- errors raised by the server, through the real client and the driver, surface with their vendor code, the
// server's message and the ADBC status / SQLSTATE of the mapping (layers/oracle/Errors.ts).
const server = useServer()

describe("ORA- errors through the driver", () => {
  it.effect("ORA-00001 (unique constraint) and ORA-01400 (NULL into NOT NULL) are INTEGRITY, SQLSTATE 23000", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ERRS")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10) PRIMARY KEY, NAME VARCHAR2(10) NOT NULL)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, 'a')`)
      const duplicate = yield* Effect.flip(conn.execute(`INSERT INTO ${t} VALUES (1, 'b')`))
      expect([duplicate.status, duplicate.vendorCode, duplicate.sqlState]).toEqual(["INTEGRITY", 1, "23000"])
      expect(duplicate.message).toContain("ORA-00001")
      const nulled = yield* Effect.flip(conn.execute(`INSERT INTO ${t} VALUES (2, NULL)`))
      expect([nulled.status, nulled.vendorCode, nulled.sqlState]).toEqual(["INTEGRITY", 1400, "23000"])
      expect(nulled.message).toContain("ORA-01400")
      expect(nulled.message).toContain("NAME")
      // the failed statements changed nothing
      const count = yield* conn.queryTable(`SELECT COUNT(*) AS N FROM ${t}`)
      expect(count.get(0)!.toJSON()["N"]).toBe(1)
    })))

  it.effect("ORA-01017 (wrong password) is UNAUTHENTICATED, SQLSTATE 28000, and the password never appears", () =>
    Effect.gen(function*() {
      const u = new URL(server.uri)
      u.password = "Wrong-Secret-77"
      const error = yield* Effect.flip(withConnection(u.toString(), Connection.Connection))
      expect([error.status, error.vendorCode, error.sqlState]).toEqual(["UNAUTHENTICATED", 1017, "28000"])
      expect(error.message).toContain("ORA-01017")
      expect(error.message).not.toContain("Wrong-Secret-77")
    }))
})
