/**
 * How a flag is read besides the command line: from its environment variable through Effect Config, decoded by the
 * same Schema as the flag, with its default and its variable named in `--help` (effect/cli prints neither itself).
 */
import { Config, type Option, type Schema } from "effect"
import { Flag } from "effect/cli"

/** `ADBC_` + the words in upper snake case: `envName("demo", "table")` is `ADBC_DEMO_TABLE`. */
export const envName = (...words: ReadonlyArray<string>): string =>
  `ADBC_${words.join("_").replaceAll("-", "_").toUpperCase()}`

/**
 * `flag` with the default `value` and the environment variable `env` (decoded by `codec`, the flag's own Schema), both
 * named after `description` in `--help`. The command line wins over the environment, the environment over the default.
 */
export const withEnvDefault = <A>(env: string, codec: Schema.Codec<A, string>, value: A, description: string) =>
(flag: Flag.Flag<A>): Flag.Flag<A> =>
  flag.pipe(
    Flag.withFallbackConfig(Config.schema(codec, env)),
    Flag.withDefault(value),
    Flag.withDescription(`${description} (default ${String(value)}; env ${env})`)
  )

/** `flag` made optional, with the environment variable `env` (decoded by `codec`) named in `--help`. */
export const withEnvOptional = <A>(env: string, codec: Schema.Codec<A, string>, description: string) =>
(flag: Flag.Flag<A>): Flag.Flag<Option.Option<A>> =>
  flag.pipe(
    Flag.withFallbackConfig(Config.schema(codec, env)),
    Flag.optional,
    Flag.withDescription(`${description} (env ${env})`)
  )

/** A `--name VALUE` flag decoded by `codec`, with a default and an environment variable (see {@link withEnvDefault}). */
export const valueFlag = <A>(name: string, codec: Schema.Codec<A, string>, env: string, value: A, description: string) =>
  Flag.String(name).pipe(Flag.withSchema(codec), withEnvDefault(env, codec, value, description))

/** A {@link valueFlag} of an integer, shown as `--name integer` in `--help` rather than `string`. */
export const integerFlag = (name: string, codec: Schema.Codec<number, string>, env: string, value: number, description: string) =>
  valueFlag(name, codec, env, value, description).pipe(Flag.withMetavar("integer"))
