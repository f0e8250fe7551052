#!/usr/bin/env node
/**
 * `adbc`: the effect-adbc command line. Run `adbc --help` for its commands.
 */
import { createRequire } from "node:module"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Exit } from "effect"
import { Command, Flag, GlobalFlag } from "effect/cli"
import { info, objects, query, tableSchema, tableTypes } from "./commands/database.ts"
import { demo } from "./commands/demo.ts"
import { testkit } from "./commands/testkit.ts"
import { copy, ingest } from "./commands/transfer.ts"
import { describeExit } from "./errors.ts"

/** `--verbose`: errors also print their cause (read from the arguments before parsing, so usage errors get it too). */
export const Verbose = GlobalFlag.Setting("verbose")({
  flag: Flag.Boolean("verbose").pipe(Flag.withDefault(false), Flag.withDescription("on failure, also print the cause"))
})

/** The `adbc` command and its subcommands. */
export const adbc = Command.make("adbc").pipe(
  Command.withDescription("Arrow-native database connectivity for HANA and Oracle, from the shell"),
  Command.withGlobalFlags([Verbose]),
  Command.withSubcommands([query, ingest, copy, objects, info, tableSchema, tableTypes, testkit, demo])
)

const argv = process.argv.slice(2)
const verbose = argv.includes("--verbose")

const { version } = createRequire(import.meta.url)("effect-adbc/package.json") as { version: string }

Command.runWith(adbc, { version })(argv).pipe(
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
