/**
 * The one error the catalog builders throw.
 *
 * `kind` tells the core how to map it onto an ADBC status:
 * - `"invalid-argument"`: the caller asked for something invalid (unknown GetObjects depth, info code outside
 *   uint32) — map to `INVALID_ARGUMENT`.
 * - `"invalid-row"`: a driver supplied a row the schema cannot hold (e.g. ordinal position outside int32,
 *   unknown constraint type) — a driver bug, map to `INTERNAL`.
 */
export class CatalogError extends Error {
  /** Discriminator, so the core can match on it without `instanceof`. */
  readonly _tag = "CatalogError" as const

  constructor(
    /** What went wrong: a bad caller argument or a bad driver-supplied row. */
    readonly kind: CatalogErrorKind,
    message: string
  ) {
    super(message)
    this.name = "CatalogError"
  }
}

/** Why a catalog builder rejected its input. */
export type CatalogErrorKind = "invalid-argument" | "invalid-row"

/** True for values thrown by the catalog builders. */
export const isCatalogError = (u: unknown): u is CatalogError =>
  typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === "CatalogError"
