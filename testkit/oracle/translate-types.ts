/** The types the Oracle translator shares with its callers: the translation context and a query's select-list shape. */
import type { Tok } from "./lexer.ts"
import type { BinaryKind } from "./expression-names.ts"
import type { NumberDescription } from "./number-describe.ts"
import type { OraType } from "./types.ts"

/** A select-list item, as far as type resolution cares. */
export type SelectItem =
  | { readonly kind: "star"; readonly qualifier?: string }
  | { readonly kind: "col"; readonly qualifier?: string; readonly column: string }
  | { readonly kind: "rowid" }
  /**
   * Any other expression; `binary` when it is of a native floating-point type, `params` the binds it uses,
   * `number` how Oracle describes it when it is a NUMBER (number-describe.ts; results.ts applies it).
   */
  | { readonly kind: "expr"; readonly binary?: BinaryKind; readonly params?: ReadonlyArray<number>; readonly number?: NumberDescription }
  /** COUNT / SUM / AVG over the whole item: a NUMBER computed over columns (number-describe.ts). */
  | { readonly kind: "aggregate"; readonly binary?: BinaryKind; readonly params?: ReadonlyArray<number> }
  /** A bind variable as the whole item (`$param` after translation): described with the bind's own type. */
  | { readonly kind: "bind"; readonly param: number }
  /** An expression whose Oracle type the DuckDB result type cannot tell (an INTERVAL YEAR TO MONTH literal). */
  | { readonly kind: "typed"; readonly type: OraType }

/** A table reference of the top-level FROM clause. */
export interface FromRef {
  readonly schema?: string
  readonly table: string
  readonly alias?: string
  /** A subquery's select-list shape with its items' output names (subquery-shapes.ts); `table` is then empty. */
  readonly query?: QueryShape & { readonly names: ReadonlyArray<string | undefined> }
  /**
   * How the item is joined to the FROM items before it when the join makes their common columns one (which a `*`
   * lists once, at the left item's place: DuckDB's order): `JOIN ... USING (cols)` its columns, NATURAL every name
   * the earlier items share with it (subquery-shapes.ts fromRefs).
   */
  readonly merged?: { readonly using: ReadonlyArray<string> } | "natural"
}

/** Shape of a top-level query used to map result columns to declared table columns. */
export interface QueryShape {
  readonly items: ReadonlyArray<SelectItem>
  readonly from: ReadonlyArray<FromRef>
  /** `FOR UPDATE`: the rows the query selects are locked in its FROM tables (or the `OF` columns' tables). */
  readonly lock?: RowLockClause
}

/** `FOR UPDATE [OF ...] [NOWAIT | WAIT n | SKIP LOCKED]` of a query. */
export interface RowLockClause {
  /** The `OF` columns: only the tables they belong to are locked (all FROM tables without OF). */
  readonly of: ReadonlyArray<{ readonly qualifier?: string; readonly column: string }>
  /** How long to wait for rows another transaction locked: "nowait", seconds, or undefined (until the lock is free). */
  readonly wait: "nowait" | "skip" | number | undefined
  /** The query's translated `FROM ... [WHERE ...]` (without ROWNUM limits), selecting the rows to lock. */
  readonly source: string
}

/** Translation context. */
export interface TranslateContext {
  /** Called for each bind placeholder when rendered (possibly more than once per token); returns the parameter text. */
  readonly bind: (name: string, tok: Tok) => string
  /** DBTIMEZONE text, e.g. "+00:00". */
  readonly dbTimeZone: string
  /** Names of DATE/TIMESTAMP columns of the tables the statement mentions (for date arithmetic and TRUNC). */
  readonly dateColumns?: ReadonlySet<string>
  /** Names of the NUMBER columns without precision (stored as exact decimal text) of the tables the statement mentions. */
  readonly exactNumberColumns?: ReadonlySet<string>
  /**
   * Names of the NUMBER(p[,s]) columns of the tables the statement mentions (DuckDB DECIMAL / integers, on which
   * DuckDB computes `+ - *` exactly): their `/` and AVG go through number-functions.ts (see {@link exactNumericRange}).
   */
  readonly boundedNumberColumns?: ReadonlySet<string>
  /** True when the bind rendered as `$param` is sent as a NUMBER (an exact number, see {@link boundedNumberColumns}). */
  readonly numberBind?: (param: number) => boolean
  /** True when the bind rendered as `$param` holds an exact NUMBER as decimal text (a PL/SQL NUMBER variable's quotient). */
  readonly exactBind?: (param: number) => boolean
  /** True when the bind rendered as `$param` is a DATE or TIMESTAMP value (PL/SQL variables and binds: `d + n` adds days). */
  readonly dateBind?: (param: number) => boolean
  /** True when the bind rendered as `$param` is an INTERVAL DAY TO SECOND in exact storage (DECIMAL seconds, intervals.ts). */
  readonly exactSecondsBind?: (param: number) => boolean
  /** True when the bind rendered as `$param` is a PL/SQL TIMESTAMP variable (`t - t2` is an INTERVAL DAY TO SECOND). */
  readonly timestampBind?: (param: number) => boolean
  /** The text datetime kind of the bind rendered as `$param` (a TIMESTAMP WITH TIME ZONE bind is zoned text, params.ts). */
  readonly datetimeBind?: (param: number) => TextDatetimeKind | undefined
  /**
   * Interval kinds whose columns in the tables the statement mentions are all stored exactly (intervals.ts): their
   * literals are written in that storage (DECIMAL seconds, BIGINT months), since DuckDB casts no INTERVAL to it.
   */
  readonly exactIntervals?: ExactIntervals
  /** Names of the DATE columns of the tables the statement mentions (DATE ± INTERVAL is a DATE). */
  readonly dayColumns?: ReadonlySet<string>
  /** Names of the interval columns of the tables the statement mentions, however stored (datetime ± them adds them). */
  readonly intervalColumns?: ReadonlySet<string>
  /** The interval columns stored exactly (DAY TO SECOND(7-9), YEAR(9) TO MONTH) of the tables the statement mentions. */
  readonly exactIntervalColumns?: ReadonlyMap<string, ExactIntervalKind>
  /** The interval columns of the tables the statement mentions, with their declared types (interval-exprs.ts). */
  readonly intervalColumnTypes?: ReadonlyMap<string, OraType>
  /** NUMBER(p,-s) columns of the tables the statement mentions, by name, with their declared types (MIN / MAX describe them). */
  readonly negativeScaleColumns?: ReadonlyMap<string, OraType>
  /** Declared fractional second precisions of the TIMESTAMP columns of the tables the statement mentions, by name (FF prints that many digits). */
  readonly timestampPrecisions?: ReadonlyMap<string, number>
  /** The declared fractional second precision of the TIMESTAMP bind rendered as `$param` (a PL/SQL TIMESTAMP(p) variable), which FF prints. */
  readonly bindFraction?: (param: number) => number | undefined
  /** Names of TIMESTAMP WITH LOCAL TIME ZONE columns of the tables the statement mentions (shown in the session zone). */
  readonly localZoneColumns?: ReadonlySet<string>
  /** Names of the CHAR / NCHAR columns of the tables the statement mentions (no VARCHAR2 column has the name): DUMP's Typ=96. */
  readonly blankPaddedColumns?: ReadonlySet<string>
  /** Names of the character columns of the tables the statement mentions: arithmetic converts them to NUMBER. */
  readonly characterColumns?: ReadonlySet<string>
  /** True when the bind rendered as `$param` is sent as character text (arithmetic converts it to NUMBER). */
  readonly textBind?: (param: number) => boolean
  /** The native floating-point type of the bind rendered as `$param`, when it is sent as BINARY_DOUBLE / BINARY_FLOAT. */
  readonly binaryBind?: (param: number) => BinaryKind | undefined
  /** SESSIONTIMEZONE text (an offset or a region): CURRENT_TIMESTAMP's zone. */
  readonly sessionTimeZone?: string
  /** BINARY_DOUBLE / BINARY_FLOAT columns of the tables the statement mentions, by name (IEEE arithmetic). */
  readonly binaryColumns?: ReadonlyMap<string, BinaryKind>
  /**
   * Names of the datetime columns of the tables the statement mentions that are stored as text (datetime-functions.ts):
   * TIMESTAMP WITH TIME ZONE ("zoned") and TIMESTAMP(7-9) ("wall").
   */
  readonly textDatetimeColumns?: ReadonlyMap<string, TextDatetimeKind>
}

/** A datetime kept as text (datetime-functions.ts): with its own time zone, or a zoneless wall clock. */
export type TextDatetimeKind = "zoned" | "wall"

/** Which interval kinds a statement's literals are written in exact storage. */
export interface ExactIntervals {
  readonly dayToSecond: boolean
  readonly yearToMonth: boolean
}

/** An interval kind stored exactly (intervals.ts): DECIMAL(38,9) seconds or BIGINT months. */
export type ExactIntervalKind = keyof ExactIntervals

/** A translated range's pieces: top-level separators and the segments between them. */
export interface Part {
  text: string
  readonly from: number
  readonly to: number
  readonly separator: boolean
}

/** A datetime with the time zone TO_CHAR shows: its wall clock there, the offset there in minutes, the zone's name. */
export interface ZonedOperand {
  readonly local: string
  readonly offsetMinutes: string
  readonly region: string
}
