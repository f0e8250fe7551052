/** The stored packages of a database (stored-packages.ts defines them, unit-compilation.ts reads their specifications). */
import type { OracleDatabase } from "../database.ts"
import type { Block } from "./ast.ts"
import type { CompileError } from "./compile-errors.ts"

/** A package as created: its specification and, once created, its body, both parsed. */
export interface PackageDef {
  readonly owner: string
  readonly name: string
  readonly spec: { readonly source: string; readonly block: Block }
  /** The body: its block (an empty one when it does not compile) and, when it has them, its compile errors (INVALID). */
  readonly body?: { readonly source: string; readonly block: Block; readonly errors?: ReadonlyArray<CompileError> }
  /** The names the specification declares (reachable as `package.name` from outside). */
  readonly publicNames: ReadonlySet<string>
  /** A compound trigger's shared declarations (compound-triggers.ts): in no dictionary view. */
  readonly hidden?: boolean
  /** The specification says PRAGMA SERIALLY_REUSABLE: a session's instance lasts one server call. */
  readonly seriallyReusable?: boolean
}

const definitions = new WeakMap<OracleDatabase, Map<string, PackageDef>>()

/** The packages of a database, by `OWNER.NAME`. */
export const packagesOf = (db: OracleDatabase): Map<string, PackageDef> => {
  let m = definitions.get(db)
  if (m === undefined) definitions.set(db, (m = new Map()))
  return m
}
