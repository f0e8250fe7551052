/**
 * The CLI's optional peer packages: effect-adbc lists them as optional peers (a library user does not install them),
 * so the CLI checks for them and, when one is missing, says which package to install instead of failing with Node's
 * module-not-found error. Imports nothing else, so that the bin's entry point can use it before its peers load.
 */

/** True when `name` resolves from the CLI's own location (installed next to effect-adbc or in it). */
export const resolvable = (name: string): boolean => {
  try {
    import.meta.resolve(name)
    return true
  } catch {
    return false
  }
}

/** The line that tells a user to install `names`, which `purpose` needs. */
export const installHint = (purpose: string, names: ReadonlyArray<string>): string =>
  `${purpose} needs ${names.join(" and ")}, which effect-adbc lists as ` +
  `${names.length === 1 ? "an optional peer; install it" : "optional peers; install them"} next to effect-adbc: ` +
  `npm install ${names.join(" ")}`
