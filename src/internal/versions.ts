/** Versions of the packages effect-adbc runs on, read from their installed package.json files. */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const require = createRequire(import.meta.url)

/** The installed version of an npm package whose main entry sits at its root. */
export const packageVersion = (name: string): string => {
  const manifest = join(dirname(require.resolve(name)), "package.json")
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version
}

/** The apache-arrow version batches are built with. */
export const ARROW_VERSION = packageVersion("apache-arrow")
