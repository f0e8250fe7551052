/**
 * What `ALTER TABLE` asks a table rebuild to change (alter-table.ts carries it out), and the constraint names
 * `CONSTRAINT n` gives, which DuckDB does not keep.
 */
import { identOf, matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { encodeName } from "./names.ts"

/** A column's new definition in `ALTER (…)`. */
export interface AlteredColumn {
  /** HANA name. */
  readonly name: string
  /** DuckDB column definition (name, storage type, NULL / NOT NULL, DEFAULT), without the length check. */
  readonly definition: string
  /** DuckDB storage type. */
  readonly storage: string
  /** The length / range CHECK of the new type ("" when it has none). */
  readonly check: string
  /** The declared HANA type, kept as the column comment. */
  readonly typeText: string
}

/** A key or unique constraint a `CONSTRAINT <name>` names, found again by its kind and columns (DuckDB names). */
export interface NamedConstraint {
  readonly name: string
  readonly type: "PRIMARY KEY" | "UNIQUE" | "FOREIGN KEY"
  readonly columns: ReadonlyArray<string>
}

/** The named constraint a `CONSTRAINT n {PRIMARY KEY | UNIQUE | FOREIGN KEY} (…)` element declares, if it is one. */
export const namedConstraint = (tokens: readonly Token[]): NamedConstraint | undefined => {
  const name = identOf(tokens[1])
  const kind = upper(tokens[2])
  const open = kind === "UNIQUE" ? 3 : 4
  if (upper(tokens[0]) !== "CONSTRAINT" || name === undefined || tokens[open]?.v !== "(") return undefined
  if (kind !== "UNIQUE" && !((kind === "PRIMARY" || kind === "FOREIGN") && upper(tokens[3]) === "KEY")) return undefined
  const columns = splitTopLevel(tokens.slice(open + 1, matching(tokens, open))).map((c) => identOf(c[0]))
  if (columns.some((c) => c === undefined)) return undefined
  return { name, type: kind === "UNIQUE" ? "UNIQUE" : kind === "PRIMARY" ? "PRIMARY KEY" : "FOREIGN KEY", columns: columns.map((c) => encodeName(c!)) }
}

/** The table a rebuild changes: its quoted DuckDB name and HANA's names for error texts. */
export interface RebuiltTable {
  readonly table: string
  readonly schemaName: string
  readonly tableName: string
}

/** What a table rebuild changes, carried from translation to the run (requests/transaction.ts). */
export type TableRebuild = RebuiltTable & (
  | { readonly kind: "alterColumns"; readonly columns: ReadonlyArray<AlteredColumn> }
  | { readonly kind: "addConstraint"; readonly constraint: string; readonly named: NamedConstraint | undefined }
  | { readonly kind: "dropPrimaryKey" }
  | { readonly kind: "dropConstraint"; readonly name: string }
)

