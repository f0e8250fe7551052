/**
 * `adbc demo` (also `npm start`): the main job.
 */
import { Config, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { OptionSchemas } from "../../src/Options.ts"
import { demoDefaults, runDemo } from "../demo/job.ts"
import * as Progress from "../progress.ts"

/** `adbc demo [--rows N] [--seed N] [--table T]`. */
export const demo = Command.make(
  "demo",
  {
    rows: Flag.String("rows").pipe(
      Flag.withSchema(OptionSchemas.positiveInt),
      Flag.withFallbackConfig(Config.Int("ADBC_DEMO_ROWS")),
      Flag.withDefault(demoDefaults.rows),
      Flag.withDescription("rows of lineitem data to generate (env ADBC_DEMO_ROWS)")
    ),
    seed: Flag.String("seed").pipe(
      Flag.withSchema(OptionSchemas.nonNegativeInt),
      Flag.withFallbackConfig(Config.Int("ADBC_DEMO_SEED")),
      Flag.withDefault(demoDefaults.seed),
      Flag.withDescription("seed of the generated data: the same seed gives the same rows (env ADBC_DEMO_SEED)")
    ),
    table: Flag.String("table").pipe(
      Flag.withSchema(OptionSchemas.nonEmptyString),
      Flag.withDefault(demoDefaults.table),
      Flag.withDescription("table created (replaced) on both databases")
    )
  },
  (options) => Effect.scoped(runDemo(options)).pipe(Effect.asVoid, Effect.provide(Progress.layerStdout))
).pipe(
  Command.withDescription(
    "The main job: generate lineitem data, ingest it into HANA, copy it HANA → Oracle as Arrow batches, verify counts and checksums on both, list the tables. Uses HANA_URI / ORACLE_URI when set, else starts both test servers."
  )
)

