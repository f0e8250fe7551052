/**
 * What `ALTER TABLE` asks a table rebuild to change (alter-table.ts carries it out), and the constraint names
 * `CONSTRAINT n` gives, which DuckDB does not keep.
 */
import { HanaError } from "./errors.ts"
import type { ColumnOptions } from "./column-options.ts"
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
  /** What its descriptive clauses (COMMENT, … LOADABLE, …; column-options.ts) say. */
  readonly options?: ColumnOptions
  /** The declared HANA type, kept as the column comment. */
  readonly typeText: string
}

/** A key or unique constraint a `CONSTRAINT <name>` names, found again by its kind and columns (DuckDB names). */
export interface NamedConstraint {
  readonly name: string
  readonly type: "PRIMARY KEY" | "UNIQUE" | "FOREIGN KEY" | "CHECK"
  /** The key's columns (DuckDB names); none for a CHECK. */
  readonly columns: ReadonlyArray<string>
  /** A CHECK's place among the table's own checks in declaration order (-1: the last one). */
  readonly checkOrdinal?: number
}

/**
 * The named constraint a `CONSTRAINT n {PRIMARY KEY | UNIQUE | FOREIGN KEY} (…)` or `CONSTRAINT n CHECK (…)` element
 * declares, if it is one (a CHECK as the last of the table's checks; CREATE TABLE sets its place).
 */
export const namedConstraint = (tokens: readonly Token[]): NamedConstraint | undefined => {
  const name = identOf(tokens[1])
  const kind = upper(tokens[2])
  if (upper(tokens[0]) === "CONSTRAINT" && name !== undefined && kind === "CHECK") return { name, type: "CHECK", columns: [], checkOrdinal: -1 }
  const open = kind === "UNIQUE" ? 3 : 4
  if (upper(tokens[0]) !== "CONSTRAINT" || name === undefined || tokens[open]?.v !== "(") return undefined
  if (kind !== "UNIQUE" && !((kind === "PRIMARY" || kind === "FOREIGN") && upper(tokens[3]) === "KEY")) return undefined
  const columns = splitTopLevel(tokens.slice(open + 1, matching(tokens, open))).map((c) => identOf(c[0]))
  if (columns.some((c) => c === undefined)) return undefined
  return { name, type: kind === "UNIQUE" ? "UNIQUE" : kind === "PRIMARY" ? "PRIMARY KEY" : "FOREIGN KEY", columns: columns.map((c) => encodeName(c!)) }
}

/** SAP HANA SQL Reference, "SQL Error Codes": 457 ERR_SQL_DPLC_CONSTRAINT "duplicate constraint name". */
export const duplicateConstraintName = (name: string): HanaError => new HanaError(457, "HY000", `duplicate constraint name: ${name}`)

/** Fails with {@link duplicateConstraintName} when two of `named` share a name (one CREATE TABLE). */
export const distinctConstraintNames = (named: ReadonlyArray<NamedConstraint>): void => {
  const seen = new Set<string>()
  for (const n of named) {
    if (seen.has(n.name)) throw duplicateConstraintName(n.name)
    seen.add(n.name)
  }
}

/**
 * The constraint a column definition names inline (`a INT CONSTRAINT n {PRIMARY KEY | UNIQUE | CHECK (…) |
 * REFERENCES p (…)}`), for column `column` (a DuckDB name); `checkOrdinal` is the place a CHECK has among the table's.
 */
export const inlineNamedConstraint = (tail: readonly Token[], column: string, checkOrdinal: number): NamedConstraint | undefined => {
  const at = tail.findIndex((t) => upper(t) === "CONSTRAINT")
  const name = identOf(tail[at + 1])
  if (at < 0 || name === undefined) return undefined
  const kind = upper(tail[at + 2])
  if (kind === "CHECK") return { name, type: "CHECK", columns: [], checkOrdinal }
  if (kind === "PRIMARY" && upper(tail[at + 3]) === "KEY") return { name, type: "PRIMARY KEY", columns: [column] }
  if (kind === "UNIQUE") return { name, type: "UNIQUE", columns: [column] }
  if (kind === "REFERENCES") return { name, type: "FOREIGN KEY", columns: [column] }
  return undefined
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

