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

/**
 * The oldest Node the package runs on, as `engines` in package.json says: the command line's runtime
 * (@effect/platform-node and its undici) needs 22.19.
 */
export const NODE_FLOOR = "22.19.0"

/** Why Node `version` (`22.12.0`) is too old for the package, or undefined when it is not. */
export const nodeTooOld = (version: string): string | undefined => {
  const [major = 0, minor = 0, patch = 0] = version.replace(/^v/, "").split(".").map(Number)
  const [floorMajor = 0, floorMinor = 0, floorPatch = 0] = NODE_FLOOR.split(".").map(Number)
  const older = major !== floorMajor ? major < floorMajor : minor !== floorMinor ? minor < floorMinor : patch < floorPatch
  return older ? `needs Node.js ${NODE_FLOOR} or later; this is ${version} (https://nodejs.org)` : undefined
}
