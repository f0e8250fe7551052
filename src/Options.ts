/**
 * ADBC options: string key/value pairs set on a database, a connection or a statement, each key declared once with
 * a Schema that decodes its string form. The same declarations validate `setOption` calls and options loaded from
 * Effect `Config`, so a bad value fails when it is set or loaded, not when the first query runs.
 *
 * Precedence: the narrowest level that has a value wins (statement, then connection, then database).
 *
 * @since 0.1.0
 */
import { Config, ConfigProvider, Effect, Redacted, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { type AdbcError, invalidArgument, notFound, notImplemented } from "./AdbcError.ts"

/**
 * Where an option may be set.
 *
 * @category models
 * @since 0.1.0
 */
export type OptionLevel = "database" | "connection" | "statement"

/**
 * The declaration of one option key.
 *
 * @category models
 * @since 0.1.0
 */
export interface OptionSpec<A> {
  /** The ADBC key, verbatim (`dba.statement.fetch_size`). */
  readonly key: string
  /** Decodes the string form of the value. */
  readonly schema: Schema.Codec<A, string>
  /** What is accepted, for error messages ("a positive integer", "`true` or `false`"). */
  readonly accepted: string
  /** Levels at which the key may be set. */
  readonly levels: ReadonlyArray<OptionLevel>
  /** The value is a secret: it never appears in an error, log or span. */
  readonly secret?: boolean | undefined
  /** The value in force when no level sets the key; declared here so the default lives in one place. */
  readonly default?: A | undefined
}

/**
 * An option declared with its default.
 *
 * @category models
 * @since 0.1.0
 */
export type OptionWithDefault<A> = OptionSpec<A> & { readonly default: A }

/**
 * Declares an option key.
 *
 * @category constructors
 * @since 0.1.0
 */
export function option<A>(spec: Omit<OptionSpec<A>, "default"> & { readonly default: NoInfer<A> }): OptionWithDefault<A>
export function option<A>(spec: OptionSpec<A>): OptionSpec<A>
export function option<A>(spec: OptionSpec<A>): OptionSpec<A> {
  return spec
}

/**
 * Levels shorthands.
 *
 * @category constants
 * @since 0.1.0
 */
export const ALL_LEVELS: ReadonlyArray<OptionLevel> = ["database", "connection", "statement"]
/** @category constants @since 0.1.0 */
export const DATABASE_LEVEL: ReadonlyArray<OptionLevel> = ["database"]
/** @category constants @since 0.1.0 */
export const CONNECT_LEVELS: ReadonlyArray<OptionLevel> = ["database", "connection"]
/** @category constants @since 0.1.0 */
export const STATEMENT_LEVEL: ReadonlyArray<OptionLevel> = ["statement"]

/**
 * Value schemas for the common option shapes, all decoding from strings.
 *
 * @category schemas
 * @since 0.1.0
 */
export const OptionSchemas = {
  /** Any string, including empty. */
  string: Schema.String as Schema.Codec<string, string>,
  /** A non-empty string. */
  nonEmptyString: Schema.String.check(Schema.isNonEmpty()) as Schema.Codec<string, string>,
  /** `true` or `false`. */
  boolean: Schema.Literals(["true", "false"]).pipe(
    Schema.decodeTo(
      Schema.Boolean,
      SchemaTransformation.transform({ decode: (s) => s === "true", encode: (b) => (b ? "true" : "false") })
    )
  ) as Schema.Codec<boolean, string>,
  /** An integer greater than zero. */
  positiveInt: Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0)) as Schema.Codec<number, string>,
  /** An integer greater than or equal to zero. */
  nonNegativeInt: Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)) as Schema.Codec<
    number,
    string
  >,
  /** One of the given strings. */
  literals: <const L extends ReadonlyArray<string>>(values: L): Schema.Codec<L[number], string> =>
    Schema.Literals(values) as unknown as Schema.Codec<L[number], string>
}

const formatIssue = SchemaIssue.makeFormatterDefault()

/**
 * Decodes one option value, failing with INVALID_ARGUMENT that names the key, the value (never a secret's) and what
 * is accepted.
 *
 * @category decoding
 * @since 0.1.0
 */
export const decodeOption = <A>(spec: OptionSpec<A>, raw: string): Result.Result<A, AdbcError> => {
  const result = Schema.decodeUnknownResult(spec.schema)(raw)
  if (Result.isSuccess(result)) return Result.succeed(result.success)
  const shown = spec.secret ? "" : ` '${raw}'`
  const detail = spec.secret ? "" : ` (${formatIssue(result.failure.issue).split("\n")[0]})`
  return Result.fail(invalidArgument(`invalid value${shown} for option ${spec.key}: expected ${spec.accepted}${detail}`))
}

/**
 * A set of declared option keys: the standard ADBC ones plus a driver's own.
 *
 * @category models
 * @since 0.1.0
 */
export class OptionRegistry {
  private readonly byKey: ReadonlyMap<string, OptionSpec<unknown>>

  constructor(specs: Iterable<OptionSpec<any>>) {
    const map = new Map<string, OptionSpec<unknown>>()
    for (const spec of specs) map.set(spec.key, spec)
    this.byKey = map
  }

  /** The declaration of `key`, if any. */
  lookup(key: string): OptionSpec<unknown> | undefined {
    return this.byKey.get(key)
  }

  /** Every declared key. */
  get specs(): ReadonlyArray<OptionSpec<unknown>> {
    return [...this.byKey.values()]
  }

  /**
   * The declared key an unknown `key` most likely meant: one that ends with it (`fetch_size`), else the nearest by
   * edit distance when at most a quarter of the key (at least 2 edits) differs.
   */
  closestKey(key: string): string | undefined {
    const keys = [...this.byKey.keys()]
    const suffixed = keys.find((candidate) => candidate.endsWith(`.${key}`))
    if (suffixed !== undefined) return suffixed
    let best: { readonly key: string; readonly distance: number } | undefined
    for (const candidate of keys) {
      const distance = editDistance(key.toLowerCase(), candidate)
      if (best === undefined || distance < best.distance) best = { key: candidate, distance }
    }
    return best !== undefined && best.distance <= Math.max(2, Math.floor(key.length / 4)) ? best.key : undefined
  }

  /** Keys whose values are secrets. */
  get secretKeys(): ReadonlyArray<string> {
    return this.specs.filter((s) => s.secret).map((s) => s.key)
  }

  /**
   * Checks that `key` may be set at `level` to `raw`: unknown or misplaced keys fail NOT_IMPLEMENTED (ADBC's rule
   * for SetOption), bad values INVALID_ARGUMENT.
   */
  validate(level: OptionLevel, key: string, raw: string): Result.Result<void, AdbcError> {
    const spec = this.lookup(key)
    if (spec === undefined) {
      const closest = this.closestKey(key)
      return Result.fail(notImplemented(`unknown option ${key}${closest === undefined ? "" : `; did you mean ${closest}?`}`))
    }
    if (!spec.levels.includes(level)) {
      return Result.fail(
        notImplemented(`option ${key} cannot be set on a ${level}; it is accepted on: ${spec.levels.join(", ")}`)
      )
    }
    const decoded = decodeOption(spec, raw)
    return Result.isFailure(decoded) ? Result.fail(decoded.failure) : Result.void
  }
}

/** Levenshtein distance: insertions, deletions and substitutions turning `a` into `b`. */
const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * The raw values set at one level. Values are validated on the way in.
 *
 * @category models
 * @since 0.1.0
 */
export class OptionStore {
  /** Secrets are held as `Redacted` from the moment they are set, so no dump or log of the store shows them. */
  private readonly values = new Map<string, string | Redacted.Redacted<string>>()

  constructor(readonly registry: OptionRegistry, readonly level: OptionLevel) {}

  /** Creates a store holding `initial`, validated; fails on the first bad entry. */
  static make(
    registry: OptionRegistry,
    level: OptionLevel,
    initial: Readonly<Record<string, string>> = {}
  ): Result.Result<OptionStore, AdbcError> {
    const store = new OptionStore(registry, level)
    for (const [key, value] of Object.entries(initial)) {
      const set = store.setSync(key, value)
      if (Result.isFailure(set)) return Result.fail(set.failure)
    }
    return Result.succeed(store)
  }

  /** Validates and stores a value. */
  setSync(key: string, value: string): Result.Result<void, AdbcError> {
    const valid = this.registry.validate(this.level, key, value)
    if (Result.isSuccess(valid)) this.values.set(key, this.registry.lookup(key)?.secret ? Redacted.make(value) : value)
    return valid
  }

  /** Validates and stores a value. */
  set(key: string, value: string): Effect.Effect<void, AdbcError> {
    return Effect.fromResult(this.setSync(key, value))
  }

  /** Puts back a value read before a failed change (undefined removes the key). */
  restore(key: string, previous: string | undefined): void {
    if (previous === undefined) this.values.delete(key)
    else this.values.set(key, this.registry.lookup(key)?.secret ? Redacted.make(previous) : previous)
  }

  /** The raw value at this level (a secret in clear: for the driver only, never for GetOption). */
  raw(key: string): string | undefined {
    const value = this.values.get(key)
    return value === undefined || typeof value === "string" ? value : Redacted.value(value)
  }

  /** All raw values at this level (secrets in clear, as {@link raw}). */
  entries(): ReadonlyArray<readonly [string, string]> {
    return [...this.values.keys()].map((key) => [key, this.raw(key)!] as const)
  }
}

/**
 * The options in force for one operation: levels from narrowest to widest.
 *
 * @category models
 * @since 0.1.0
 */
export class ResolvedOptions {
  constructor(private readonly levels: ReadonlyArray<OptionStore>) {}

  /** The raw value from the narrowest level that has one. */
  raw(key: string): string | undefined {
    for (const level of this.levels) {
      const value = level.raw(key)
      if (value !== undefined) return value
    }
    return undefined
  }

  /** The decoded value of `spec`, or undefined when no level sets it (values were validated when set). */
  get<A>(spec: OptionSpec<A>): A | undefined {
    const raw = this.raw(spec.key)
    if (raw === undefined) return undefined
    const decoded = decodeOption(spec, raw)
    return Result.isSuccess(decoded) ? decoded.success : undefined
  }

  /** The decoded value of `spec`, or `fallback`. */
  getOr<A>(spec: OptionSpec<A>, fallback: A): A {
    const value = this.get(spec)
    return value === undefined ? fallback : value
  }

  /** The decoded value of `spec`, or its declared default. */
  value<A>(spec: OptionWithDefault<A>): A {
    return this.getOr(spec, spec.default)
  }

  /** Values of every secret option in force, for redaction. */
  secrets(): ReadonlyArray<string> {
    const registry = this.levels[0]?.registry
    if (registry === undefined) return []
    return registry.secretKeys.flatMap((key) => {
      const value = this.raw(key)
      return value === undefined ? [] : [value, ...uriPassword(value)]
    })
  }

  /** Whether `key` is declared as a secret. */
  isSecret(key: string): boolean {
    return this.levels[0]?.registry.lookup(key)?.secret === true
  }

  /** A view with `narrower` in front. */
  narrow(narrower: OptionStore): ResolvedOptions {
    return new ResolvedOptions([narrower, ...this.levels])
  }
}

const uriPassword = (value: string): ReadonlyArray<string> => {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^:@/]*:([^@/]*)@/i.exec(value)
  if (match?.[1] === undefined || match[1] === "") return []
  let decoded = match[1]
  try {
    decoded = decodeURIComponent(match[1])
  } catch {
    // keep the raw form
  }
  return [match[1], decoded]
}

/** The mark that replaces a password in a URI read back with GetOption. */
export const MASK = "***"

/**
 * A URI with its password masked: the userinfo password (`scheme://user:***@host`) and any `password` query
 * parameter.
 *
 * @category getters
 * @since 0.1.0
 */
export const maskUri = (uri: string): string =>
  uri
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^@/]*@/i, `$1${MASK}@`)
    .replace(/([?&](?:password|pwd)=)[^&#]*/gi, `$1${MASK}`)

/**
 * Reads ADBC GetOption semantics from a store chain: NOT_FOUND when no level has the key. A secret is never read
 * back: the URI comes with its password masked, any other secret key fails NOT_FOUND.
 *
 * @category getters
 * @since 0.1.0
 */
export const getRaw = (options: ResolvedOptions, key: string): Effect.Effect<string, AdbcError> => {
  const value = options.raw(key)
  if (value === undefined) return Effect.fail(notFound(`option ${key} is not set`))
  if (!options.isSecret(key)) return Effect.succeed(value)
  if (key === "uri") return Effect.succeed(maskUri(value))
  return Effect.fail(notFound(`option ${key} holds a secret, which is never read back`))
}

/**
 * The environment variable name of an option key: `prefix` + the key upper-cased with dots as underscores
 * (`dba.statement.fetch_size` with prefix `HANA_` reads `HANA_DBA_STATEMENT_FETCH_SIZE`).
 *
 * @category config
 * @since 0.1.0
 */
export const envName = (prefix: string, key: string): string => prefix + key.toUpperCase().replace(/[.\-]/g, "_")

/**
 * Loads every declared option of `registry` settable at `level` from Effect `Config`, validated by the same Schemas
 * as `setOption`: a bad value fails the config load with a message naming the variable, the key and what is
 * accepted. Secrets are read as plain strings but never echoed.
 *
 * @category config
 * @since 0.1.0
 */
export const optionsConfig = (
  registry: OptionRegistry,
  options: { readonly prefix: string; readonly level?: OptionLevel | undefined }
): Config.Config<Record<string, string>> => {
  const level = options.level ?? "database"
  const specs = registry.specs.filter((spec) => spec.levels.includes(level))
  const entries = specs.map((spec) => {
    const name = envName(options.prefix, spec.key)
    return Config.option(Config.String(name)).pipe(
      Config.mapEffect((value) => {
        if (value._tag === "None") return Effect.succeed(undefined)
        const decoded = decodeOption(spec, value.value)
        return Result.isSuccess(decoded)
          ? Effect.succeed([spec.key, value.value] as const)
          : Effect.fail(
            new Config.ConfigError(
              new ConfigProvider.SourceError({ message: `${name}: ${decoded.failure.message}` })
            )
          )
      })
    )
  })
  return Config.all(entries).pipe(
    Config.map((pairs) => {
      const out: Record<string, string> = {}
      for (const pair of pairs) if (pair !== undefined) out[pair[0]] = pair[1]
      return out
    })
  )
}
