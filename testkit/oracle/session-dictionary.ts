/**
 * The data dictionary views a session's query reads (ALL_ / USER_ / DBA_ views, V$ views, TABS / COLS): they are
 * snapshot tables the admin session refreshes from the catalog before the query runs there, with the session's
 * variables and search path (catalog.ts `dictionaryShapes`, database.ts `refreshDictionary`). Inside an open
 * transaction the session reads copies of its own instead (transaction-dictionary.ts).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { Cursor, Session as EngineSession } from "../engine/index.ts"
import { dictionaryShapes, OWNED_VIEWS } from "./catalog.ts"
import type { Tok } from "./lexer.ts"

/** The ALL_ views and V$ views, and the USER_ / DBA_ views made of each owned ALL_ view (database.ts), with TABS / COLS. */
const DICTIONARY_NAMES = new Set([
  ...Object.keys(dictionaryShapes).filter((n) => n !== "DUAL"),
  ...[...Object.keys(OWNED_VIEWS), "ALL_USERS"].flatMap((n) => [`USER_${n.slice(4)}`, `DBA_${n.slice(4)}`]),
  "TABS",
  "COLS"
])

/** True for the name of a data dictionary view. */
export const isDictionaryName = (v: string) => DICTIONARY_NAMES.has(v)

/** The dictionary snapshot tables a query's tokens name (USER_ / DBA_ views read their ALL_ table), empty for none. */
export const dictionaryTablesOf = (toks: ReadonlyArray<Tok>): ReadonlySet<string> => {
  const dict = new Set(toks.filter((t) => t.kind === "ident" && isDictionaryName(t.value)).map((t) => t.value))
  return new Set([...dict].map((n) => n.replace(/^(USER|DBA)_/, "ALL_")).map((n) => (n === "TABS" ? "ALL_TABLES" : n === "COLS" ? "ALL_TAB_COLUMNS" : n)))
}

/** What a dictionary query needs from the database. */
export interface DictionaryDatabase {
  withAdmin<A>(f: (admin: EngineSession) => Promise<A>): Promise<A>
  /** `asker`: the querying session's user and enabled roles (SESSION_ROLES, SESSION_PRIVS). */
  refreshDictionary(s: EngineSession, names: ReadonlySet<string>, asker?: { readonly user: string; readonly roles: ReadonlySet<string> }): Promise<void>
}

/**
 * Runs a translated query over dictionary `tables` on the admin session, after refreshing them and giving the admin
 * session the querying session's variables and search path (`asSession`).
 */
export const queryDictionary = (
  db: DictionaryDatabase,
  tables: ReadonlySet<string>,
  asSession: (admin: EngineSession) => Promise<void>,
  duckSql: string,
  params: ReadonlyArray<DuckDBValue>,
  asker?: { readonly user: string; readonly roles: ReadonlySet<string> }
): Promise<Cursor> =>
  db.withAdmin(async (admin) => {
    await db.refreshDictionary(admin, tables, asker)
    await asSession(admin)
    return admin.query(duckSql, params)
  })
