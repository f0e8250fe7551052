/**
 * The PL/SQL engine's part of a database, as the server hands it to OracleDatabase.create: stored functions callable
 * from SQL and the stored-code dictionary rows.
 */
import type { StoredCodeHooks } from "../database.ts"
import { registerSqlCallFunctions } from "./sql-functions.ts"
import { objectStatus, storedCodeDictionaryRows } from "./stored-code.ts"

/** The hooks every Oracle test database is created with. */
export const storedCodeHooks: StoredCodeHooks = {
  registerFunctions: registerSqlCallFunctions,
  dictionaryRows: storedCodeDictionaryRows,
  objectStatus
}
