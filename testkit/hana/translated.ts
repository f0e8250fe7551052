/**
 * What a HANA statement is after translation (translate.ts): its kind, its DuckDB SQL and what the session needs to
 * run it (locks, declared types, result column names), and the session values substituted into SQL.
 */
import type { NamedConstraint, TableRebuild } from "./table-changes.ts"
import type { IdentityCommand } from "./identity/statements.ts"
import type { KeyTarget } from "./key-locks.ts"
import type { LockTarget } from "./row-locks.ts"
import type { FromItem, SelectItemSource } from "./select-items.ts"
import type { HanaType } from "./types.ts"

/** Session values substituted into SQL. */
export interface SessionValues {
  readonly schema: string
  readonly user: string
  readonly connectionId: number
  /** Session context variables (set by the client's CLIENT_INFO part, e.g. APPLICATION), read by SESSION_CONTEXT. */
  readonly context?: ReadonlyMap<string, string>
}

/** A column declared by CREATE TABLE, remembered as the DuckDB column comment. */
export interface DeclaredColumn {
  readonly name: string
  readonly type: HanaType
}

/** What a statement is, after translation. */
export type Translated =
  | {
      readonly kind: "query"
      readonly sql: string
      readonly params: number
      readonly forUpdate: boolean
      /** SELECT ... FOR UPDATE: the rows it locks, one target per table (row-locks.ts, join-locks.ts). */
      readonly lockRows?: LockTarget | ReadonlyArray<LockTarget>
      /** HANA's names of the result columns that are expressions (the select item's text), by position. */
      readonly columnNames?: ReadonlyArray<string | undefined>
      /** HANA's types of result columns that are calls of functions typed more narrowly than DuckDB types them. */
      readonly columnTypes?: ReadonlyArray<HanaType | undefined>
      /** The table columns plain column items read, by position (result nullability). */
      readonly columnSources?: ReadonlyArray<SelectItemSource>
      /** The top-level FROM items in order (undefined entries: subqueries and other unnamed items). */
      readonly fromItems?: ReadonlyArray<FromItem | undefined>
    }
  | {
      readonly kind: "dml"
      readonly functionCode: 2 | 3 | 4
      readonly sql: string
      readonly params: number
      /** UPDATE / DELETE of one table: the rows it writes and locks (row-locks.ts). */
      readonly lockRows?: LockTarget
      /** `INSERT INTO t [(cols)] VALUES (...)`: the keys it writes and locks (key-locks.ts). */
      readonly lockKeys?: KeyTarget
      /** For `INSERT INTO t [(cols)] VALUES (?, ...)`: the target and the column of each `?`, in order. */
      readonly insert?: {
        readonly schema: string | undefined
        readonly table: string
        readonly columns: readonly string[] | undefined
        /** DuckDB SQL before `VALUES`, for multi-row batch statements. */
        readonly prefix: string
      }
    }
  | {
      readonly kind: "ddl"
      readonly sql: string
      readonly params: number
      /** CREATE TABLE … LIKE: copy the declared column types (comments) from this DuckDB table to the new one. */
      readonly copyTypes?: { readonly from: string; readonly to: string }
      /** RENAME COLUMN: the table (a quoted DuckDB name) whose length check must name the column by its new name. */
      readonly renamedColumn?: { readonly table: string; readonly from: string; readonly to: string }
      /**
       * CREATE VIEW (and CREATE TABLE … AS query): the new object and its query, so the declared types of plain
       * column references carry over.
       */
      readonly view?: { readonly target: string; readonly query: string }
      /**
       * ALTER TABLE … ADD and CREATE TABLE … AS / LIKE make columns DuckDB cannot give a CHECK: their declared
       * lengths are enforced afterwards (declared-lengths.ts) for these columns (absent: all).
       */
      readonly declaredLengths?: { readonly table: string; readonly columns?: readonly string[] }
      /** ALTER TABLE … ALTER (…) and ADD / DROP of keys: the table rebuild that carries them out (alter-table.ts). */
      readonly rebuild?: TableRebuild
      /** CREATE TABLE's `CONSTRAINT n …` keys: their names, kept beside DuckDB's constraints (alter-table.ts). */
      readonly constraintNames?: { readonly table: string; readonly constraints: ReadonlyArray<NamedConstraint> }
    }
  | { readonly kind: "commit" }
  /** SET TRANSACTION LOCK WAIT TIMEOUT <ms> (row-locks.ts). */
  | { readonly kind: "lockWaitTimeout"; readonly ms: number }
  | { readonly kind: "rollback" }
  | { readonly kind: "savepoint"; readonly action: "set" | "rollback" | "release"; readonly name: string }
  | { readonly kind: "setSchema"; readonly schema: string }
  /** SET / UNSET [SESSION] '<key>' [= '<value>']: a session variable (value undefined: removed). */
  | { readonly kind: "sessionVariable"; readonly key: string; readonly value: string | undefined }
  | { readonly kind: "cancelSession"; readonly connectionId: number; readonly disconnect: boolean }
  | { readonly kind: "createUser"; readonly user: string; readonly password: string }
  | { readonly kind: "dropUser"; readonly user: string }
  /** Security administration (PSEs, certificates, providers, user identities): identity/statements.ts. */
  | { readonly kind: "identity"; readonly command: IdentityCommand }
  | { readonly kind: "ddlAutocommit"; readonly on: boolean }
  /** LOCK TABLE: the rows it locks until the transaction ends (lock-table.ts). */
  | { readonly kind: "lockTable"; readonly targets: ReadonlyArray<LockTarget> }
  /** EXPLAIN PLAN: the statement's DuckDB SQL, its plan stored under `name` (explain-plan.ts). */
  | { readonly kind: "explainPlan"; readonly name: string; readonly sql: string; readonly query: boolean }
  | { readonly kind: "noop" }
