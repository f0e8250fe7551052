/**
 * Optional peers loaded when a command first needs them (a driver's client, the test servers' embedded DuckDB, the
 * CSV and Parquet readers): a missing one fails NOT_IMPLEMENTED with the npm command that installs it, never Node's
 * module-not-found stack.
 */
import { Effect } from "effect"
import { type AdbcError, adbcError } from "../src/AdbcError.ts"
import { installHint, resolvable } from "./packages.ts"
import { messageOf } from "./errors.ts"

/**
 * Loads what needs the optional peers `names` with `load`: NOT_IMPLEMENTED with the install command naming every
 * missing one (`resolve` says which are installed; a test passes its own), INTERNAL naming them when they are
 * installed but loading fails.
 */
export const loadOptionalPeers = <A>(
  names: ReadonlyArray<string>,
  purpose: string,
  load: () => Promise<A>,
  resolve: (name: string) => boolean = resolvable
): Effect.Effect<A, AdbcError> =>
  Effect.suspend(() => {
    const missing = names.filter((name) => !resolve(name))
    return missing.length > 0
      ? Effect.fail(adbcError("NOT_IMPLEMENTED", installHint(purpose, missing)))
      : Effect.tryPromise({
        try: load,
        catch: (cause) => adbcError("INTERNAL", `cannot load ${names.join(" / ")}: ${messageOf(cause)}`)
      })
  })

/** {@link loadOptionalPeers} of one package. */
export const loadOptionalPeer = <A>(
  name: string,
  purpose: string,
  load: () => Promise<A>,
  resolve: (name: string) => boolean = resolvable
): Effect.Effect<A, AdbcError> => loadOptionalPeers([name], purpose, load, resolve)
