/**
 * Binds that are datetimes kept as text. A TIMESTAMP WITH TIME ZONE bind reaches DuckDB as the server's zoned text
 * (params.ts, datetime-functions.ts), so an expression over it (`:1 + INTERVAL '1' HOUR`, `TO_CHAR(:1, ...)`, also a
 * PL/SQL IN OUT bind) must be computed by the text datetime functions, as over a TIMESTAMP WITH TIME ZONE column.
 * The translator asks by parameter number (`TranslateContext.datetimeBind`).
 */
import type { BindSpec } from "./statement.ts"
import { Dty } from "./types.ts"

/** The text datetime kind of a bind of `spec`: "zoned" for TIMESTAMP WITH TIME ZONE, else undefined. */
export const textDatetimeOfBind = (spec: BindSpec | undefined): "zoned" | undefined => (spec?.dty === Dty.TIMESTAMP_TZ ? "zoned" : undefined)

/** `datetimeBind` of a statement whose binds, numbered from 1 in order, have `specs`. */
export const zonedBinds = (specs: ReadonlyArray<BindSpec | undefined>) => (param: number): "zoned" | undefined => textDatetimeOfBind(specs[param - 1])
