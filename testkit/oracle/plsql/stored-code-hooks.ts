/**
 * The PL/SQL engine's part of a database, as the server hands it to OracleDatabase.create: stored functions callable
 * from SQL and the stored-code dictionary rows.
 */
import type { OracleDatabase, StoredCodeHooks } from "../database.ts"
import { registerSqlCallFunctions } from "./sql-functions.ts"
import { objectStatus, storedCodeDictionaryRows } from "./stored-code.ts"
import { typeBodiesOf, typeBodyDictionaryRows } from "./type-bodies.ts"

/** The stored-code rows with the type bodies' ALL_SOURCE and ALL_ERRORS rows added. */
const dictionaryRows = (db: OracleDatabase): ReadonlyArray<readonly [string, Array<Array<unknown>>]> => {
  const typeBodies = typeBodyDictionaryRows(db)
  return storedCodeDictionaryRows(db).map(([view, rows]) =>
    view === "ALL_SOURCE" ? [view, [...rows, ...typeBodies.source]] : view === "ALL_ERRORS" ? [view, [...rows, ...typeBodies.errors]] : [view, rows]
  )
}

/** The hooks every Oracle test database is created with. */
export const storedCodeHooks: StoredCodeHooks = {
  registerFunctions: registerSqlCallFunctions,
  dictionaryRows,
  objectStatus: (db, owner, type, name) => (type === "TYPE BODY" ? (typeBodiesOf(db).get(`${owner}.${name}`)?.errors !== undefined ? "INVALID" : "VALID") : objectStatus(db, owner, type, name))
}
