#!/usr/bin/env node
/**
 * `adbc`: the effect-adbc command line. Run `adbc --help` for its commands.
 */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect, Exit } from "effect"
import { Command } from "effect/cli"
import { VERSION } from "../layers/hana/index.ts"
import { demo } from "./commands/demo.ts"
import { describeExit } from "./errors.ts"

/** The `adbc` command and its subcommands. */
export const adbc = Command.make("adbc").pipe(
  Command.withDescription("Arrow-native database connectivity for HANA and Oracle, from the shell"),
  Command.withSubcommands([demo])
)

const argv = process.argv.slice(2)
const verbose = argv.includes("--verbose")

Command.runWith(adbc, { version: VERSION })(argv).pipe(
  Effect.provide(NodeServices.layer),
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
