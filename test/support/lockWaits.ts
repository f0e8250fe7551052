/**
 * Synchronising a test on a test server's lock waits (its `stats.lockWaits` counter) instead of on sleeps.
 */

/**
 * Starts `call` and resolves `waiting` once the server counts one more call waiting for a lock: then true when the
 * call is still running, as a call waiting for another transaction's lock must be; false when the call ended without
 * the server counting a wait. Synchronised on the server's counter, so it does not depend on the machine's speed.
 */
export const waitsForLock = <R = { readonly rowsAffected?: number }>(server: { readonly stats: { readonly lockWaits: number } }, call: () => Promise<R>) => {
  const before = server.stats.lockWaits
  let settled = false
  const result = call()
  void result.then(() => (settled = true), () => (settled = true))
  const waiting = (async () => {
    while (server.stats.lockWaits === before) {
      if (settled) return false
      await new Promise((r) => setTimeout(r, 5))
    }
    return !settled
  })()
  return { result, waiting }
}
