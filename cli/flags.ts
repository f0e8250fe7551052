/**
 * How a flag is read besides the command line: from its environment variable through Effect Config, decoded by the
 * same Schema as the flag, with its default and its variable named in `--help` (effect/cli prints neither itself).
 */
import { Cause, Config, Exit, type Option, Schema } from "effect"
import { SourceError } from "effect/ConfigProvider"
import { Flag } from "effect/cli"
import { OptionSchemas } from "../src/Options.ts"

/** `ADBC_` + the words in upper snake case: `envName("demo", "table")` is `ADBC_DEMO_TABLE`. */
export const envName = (...words: ReadonlyArray<string>): string =>
  `ADBC_${words.join("_").replaceAll("-", "_").toUpperCase()}`

/** What a rejected environment value is told: the variable, the value, and what the flag accepts. */
export const envValueMessage = (env: string, value: string, expected: string): string =>
  `environment variable ${env}=${JSON.stringify(value)} is not accepted: ${expected}`

/**
 * The flag's environment variable `env`, decoded by `codec`: a value the codec rejects fails with a message naming
 * the variable, its value and what is accepted (effect/cli would print only "config" and the Schema's issue path).
 */
export const envConfig = <A, I>(env: string, codec: Schema.Codec<A, I>): Config.Config<A> =>
  Config.String(env).pipe(Config.flatMap((raw) => {
    const decoded = Schema.decodeUnknownExit(codec)(raw)
    if (Exit.isSuccess(decoded)) return Config.succeed(decoded.value)
    const error = Cause.squash(decoded.cause)
    const issue = error instanceof Error ? error.message : String(error)
    return Config.fail(new SourceError({ message: envValueMessage(env, raw, issue.replace(/\s*\n\s*/g, " ").trim()) }))
  }))

/**
 * `flag` with the default `value` and the environment variable `env` (decoded by `codec`, the flag's own Schema), both
 * named after `description` in `--help`. The command line wins over the environment, the environment over the default.
 */
export const withEnvDefault = <A>(env: string, codec: Schema.Codec<A, string>, value: A, description: string) =>
(flag: Flag.Flag<A>): Flag.Flag<A> =>
  flag.pipe(
    Flag.withFallbackConfig(envConfig(env, codec)),
    Flag.withDefault(value),
    Flag.withDescription(`${description} (default ${value === "" ? `""` : String(value)}; env ${env})`)
  )

/** `flag` made optional, with the environment variable `env` (decoded by `codec`) named in `--help`. */
export const withEnvOptional = <A>(env: string, codec: Schema.Codec<A, string>, description: string) =>
(flag: Flag.Flag<A>): Flag.Flag<Option.Option<A>> =>
  flag.pipe(
    Flag.withFallbackConfig(envConfig(env, codec)),
    Flag.optional,
    Flag.withDescription(`${description} (env ${env})`)
  )

/** A `--name VALUE` flag decoded by `codec`, with a default and an environment variable (see {@link withEnvDefault}). */
export const valueFlag = <A>(name: string, codec: Schema.Codec<A, string>, env: string, value: A, description: string) =>
  Flag.String(name).pipe(Flag.withSchema(codec), withEnvDefault(env, codec, value, description))

/** A {@link valueFlag} of an integer, shown as `--name integer` in `--help` rather than `string`. */
export const integerFlag = (name: string, codec: Schema.Codec<number, string>, env: string, value: number, description: string) =>
  valueFlag(name, codec, env, value, description).pipe(Flag.withMetavar("integer"))

/** `--null TEXT` of `command`: the CSV field text that means NULL. */
export const nullFlag = (command: string) =>
  Flag.String("null").pipe(
    withEnvDefault(
      envName(command, "null"),
      OptionSchemas.string,
      "",
      "CSV: the unquoted field that means NULL (an empty string is written and read as \"\")"
    )
  )

/** `--quiet`: no progress lines. */
export const quietFlag = (command: string) =>
  Flag.Boolean("quiet").pipe(
    withEnvDefault(envName(command, "quiet"), OptionSchemas.boolean, false, "no progress (it is drawn only on a terminal)")
  )
