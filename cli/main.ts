#!/usr/bin/env node
/**
 * `adbc`: the effect-adbc command line. Run `adbc --help` for its commands.
 *
 * The CLI needs two packages a library user does not (optional peers of effect-adbc); when one is missing this says
 * which to install instead of failing with Node's module-not-found error.
 */
const CLI_PACKAGES = ["@effect/platform-node", "csv-parse"] as const

const resolvable = (name: string): boolean => {
  try {
    import.meta.resolve(name)
    return true
  } catch {
    return false
  }
}

const missing = CLI_PACKAGES.filter((name) => !resolvable(name))
if (missing.length > 0) {
  process.stderr.write(
    `adbc: the command-line tool needs ${missing.join(" and ")}, which effect-adbc lists as optional peers; ` +
      `install ${missing.length === 1 ? "it" : "them"} next to effect-adbc: npm install ${missing.join(" ")}\n`
  )
  process.exit(1)
} else {
  await import("./adbc.ts")
}
