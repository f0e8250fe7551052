/**
 * Runs `adbc` on the process: its stdout and stderr, Node's runtime (SIGINT / SIGTERM interrupt the program, which
 * cancels the running server call), and the exit code `describeExit` gives. Started by `main.ts` once the CLI's own
 * dependencies are found.
 */
import { createRequire } from "node:module"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, type Exit, Layer } from "effect"
import { describeExit } from "./errors.ts"
import { isVerbose, runAdbc } from "./program.ts"
import { layerProcess } from "./stdio.ts"

const argv = process.argv.slice(2)
const verbose = isVerbose(argv)

const { version } = createRequire(import.meta.url)("effect-adbc/package.json") as { version: string }

runAdbc(argv, version).pipe(
  Effect.provide(Layer.merge(NodeServices.layer, layerProcess)),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    teardown: (exit, onExit) => {
      const { code, lines } = describeExit(exit as Exit.Exit<unknown, unknown>, verbose)
      for (const line of lines) process.stderr.write(`${line}\n`)
      onExit(code)
      process.exit(code)
    }
  })
)
