#!/usr/bin/env node
/**
 * `adbc`: the effect-adbc command line. Run `adbc --help` for its commands.
 *
 * The CLI needs a package a library user does not (@effect/platform-node, an optional peer of effect-adbc); when it is
 * missing this says which to install instead of failing with Node's module-not-found error. The readers' peers
 * (csv-parse, parquet-wasm) are checked only by the commands that read those files.
 */
import { installHint, nodeTooOld, resolvable } from "./packages.ts"

const CLI_PACKAGES = ["@effect/platform-node"] as const

const tooOld = nodeTooOld(process.versions.node)
const missing = CLI_PACKAGES.filter((name) => !resolvable(name))
if (tooOld !== undefined) {
  process.stderr.write(`adbc: ${tooOld}\n`)
  process.exit(1)
} else if (missing.length > 0) {
  process.stderr.write(`adbc: ${installHint("the command-line tool", missing)}\n`)
  process.exit(1)
} else {
  await import("./adbc.ts")
}
