/**
 * Where a SERIALLY_REUSABLE package may not be used: inside a database trigger and inside a PL/SQL function a SQL
 * statement calls ("Trying to access a SERIALLY_REUSABLE package from a database trigger, or from a PL/SQL subprogram
 * invoked by a SQL statement, raises an error", PL/SQL Language Reference 19c, "SERIALLY_REUSABLE Packages",
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/lnpls/serially_reusable-packages.html). The code,
 * ORA-06534 "Cannot access Serially Reusable package", is taken from Oracle's message list as recalled: unconfirmed.
 */
import { OraError } from "../errors.ts"
import { clientSessionOf } from "./host.ts"
import type { PlsqlHost } from "./host.ts"

const depth = new WeakMap<PlsqlHost, number>()

/** Runs `body` as a trigger's body or a function a SQL statement calls, in the client's session of `host`. */
export const asRestrictedCall = async <T>(host: PlsqlHost, body: () => Promise<T>): Promise<T> => {
  const session = clientSessionOf(host)
  depth.set(session, (depth.get(session) ?? 0) + 1)
  try {
    return await body()
  } finally {
    depth.set(session, (depth.get(session) ?? 1) - 1)
  }
}

/** ORA-06534 when package `key` (`OWNER.NAME`) is reached from a trigger or a function SQL called. */
export const checkSeriallyReusableUse = (host: PlsqlHost, key: string): void => {
  if ((depth.get(clientSessionOf(host)) ?? 0) > 0) throw new OraError(6534, `Cannot access Serially Reusable package "${key}"`)
}
