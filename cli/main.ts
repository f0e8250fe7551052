#!/usr/bin/env node
/**
 * `adbc`: the effect-adbc command line. Run `adbc --help` for its commands.
 *
 * The CLI needs two packages a library user does not (optional peers of effect-adbc); when one is missing this says
 * which to install instead of failing with Node's module-not-found error.
 */
import { installHint, resolvable } from "./packages.ts"

const CLI_PACKAGES = ["@effect/platform-node", "csv-parse"] as const

const missing = CLI_PACKAGES.filter((name) => !resolvable(name))
if (missing.length > 0) {
  process.stderr.write(`adbc: ${installHint("the command-line tool", missing)}\n`)
  process.exit(1)
} else {
  await import("./adbc.ts")
}
