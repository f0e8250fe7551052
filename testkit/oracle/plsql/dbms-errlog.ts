/**
 * DBMS_ERRLOG (PL/SQL Packages and Types Reference, "DBMS_ERRLOG"): CREATE_ERROR_LOG(dml_table_name
 * [, err_log_table_name [, err_log_table_owner [, err_log_table_space [, skip_unsupported]]]]) creates the error
 * logging table of DML error logging (dml-error-logging.ts): ORA_ERR_NUMBER$ NUMBER, ORA_ERR_MESG$ VARCHAR2(2000),
 * ORA_ERR_ROWID$ UROWID, ORA_ERR_OPTYP$ VARCHAR2(2), ORA_ERR_TAG$ VARCHAR2(2000), then each column of the DML table
 * as VARCHAR2(4000) (a LOB column left out). Its default name is `ERR$_` and the first 25 characters of the DML
 * table's name, in the DML table's schema. ORA-00942 when the DML table does not exist.
 */
import { quoteDuck } from "../names.ts"
import { OraError } from "../errors.ts"
import { argumentsByName } from "./arguments.ts"
import type { BuiltinPackage } from "./context.ts"


/** A name argument as Oracle takes it: upper case unless it is quoted. */
const nameOf = (v: unknown): string | undefined => {
  if (v === null || v === undefined) return undefined
  const s = String(v)
  return /^".*"$/.test(s) ? s.slice(1, -1) : s.toUpperCase()
}

/** DBMS_ERRLOG's CREATE_ERROR_LOG. */
export const dbmsErrlog: BuiltinPackage = async (ctx, procedure, args) => {
  if (procedure !== "CREATE_ERROR_LOG") return false
  const byName = argumentsByName(args, ["DML_TABLE_NAME", "ERR_LOG_TABLE_NAME", "ERR_LOG_TABLE_OWNER", "ERR_LOG_TABLE_SPACE", "SKIP_UNSUPPORTED"])
  const value = async (name: string) => {
    const e = byName.get(name)
    return e === undefined ? undefined : nameOf(await ctx.evaluate(e))
  }
  const dml = (await value("DML_TABLE_NAME")) ?? ""
  const [schema, name] = dml.includes(".") ? (dml.split(".", 2) as [string, string]) : [undefined, dml]
  const table = ctx.host.lookupTable(schema, name)
  if (table === undefined) throw new OraError(942, "table or view does not exist")
  const owner = (await value("ERR_LOG_TABLE_OWNER")) ?? table.owner
  const logName = (await value("ERR_LOG_TABLE_NAME")) ?? `ERR$_${table.name.slice(0, 25)}`
  const columns = table.columns.filter((c) => !/LOB$/i.test(c.type.dictName)).map((c) => `${quoteDuck(c.name)} VARCHAR2(4000)`)
  const ddl = `CREATE TABLE ${quoteDuck(owner)}.${quoteDuck(logName)} (ORA_ERR_NUMBER$ NUMBER, ORA_ERR_MESG$ VARCHAR2(2000), ORA_ERR_ROWID$ UROWID, ORA_ERR_OPTYP$ VARCHAR2(2), ORA_ERR_TAG$ VARCHAR2(2000)${columns.map((c) => `, ${c}`).join("")})`
  await ctx.host.execute(ddl, [[]], [], { batchErrors: false, dmlRowCounts: false })
  return true
}
