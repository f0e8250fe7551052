/**
 * `adbc demo` (also `npm start`): the main job.
 */
import { Effect } from "effect"
import { Command } from "effect/cli"
import { OptionSchemas } from "../../src/Options.ts"
import { demoDefaults, runDemo } from "../demo/job.ts"
import { envName, integerFlag, valueFlag } from "../flags.ts"
import * as Progress from "../progress.ts"

/** `adbc demo [--rows N] [--seed N] [--table T]`. */
export const demo = Command.make(
  "demo",
  {
    rows: integerFlag(
      "rows",
      OptionSchemas.positiveInt,
      envName("demo", "rows"),
      demoDefaults.rows,
      "rows of lineitem data to generate"
    ),
    seed: integerFlag(
      "seed",
      OptionSchemas.nonNegativeInt,
      envName("demo", "seed"),
      demoDefaults.seed,
      "seed of the generated data: the same seed gives the same rows"
    ),
    table: valueFlag(
      "table",
      OptionSchemas.nonEmptyString,
      envName("demo", "table"),
      demoDefaults.table,
      "table created (replaced) on both databases"
    )
  },
  (options) => Effect.scoped(runDemo(options)).pipe(Effect.asVoid, Effect.provide(Progress.layerStdout))
).pipe(
  Command.withDescription(
    "The main job: generate lineitem data, ingest it into HANA, copy it HANA → Oracle as Arrow batches, verify counts and checksums on both, list the tables. Uses HANA_URI / ORACLE_URI when set, else starts both test servers."
  )
)

