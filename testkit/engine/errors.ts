/**
 * The engine's error type: every DuckDB failure surfaces as an {@link EngineError} carrying DuckDB's error class.
 */
/** Error raised by DuckDB, with DuckDB's message (e.g. `Catalog Error: Table with name X does not exist!`). */
export class EngineError extends Error {
  override readonly name = "EngineError"
  constructor(
    message: string,
    /** DuckDB error class: the text before the first `:` (`Parser Error`, `Catalog Error`, `Constraint Error`...). */
    readonly kind: string,
    override readonly cause?: unknown
  ) {
    super(message)
  }
}

/** Wraps any DuckDB failure as an {@link EngineError} (its kind = the text before the first `:`). */
export const toEngineError = (e: unknown): EngineError => {
  if (e instanceof EngineError) return e
  const message = e instanceof Error ? e.message : String(e)
  const colon = message.indexOf(":")
  return new EngineError(message, colon > 0 ? message.slice(0, colon) : "Error", e)
}

