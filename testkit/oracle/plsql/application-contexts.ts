/**
 * Application contexts of the database: `CREATE [OR REPLACE] CONTEXT namespace USING [schema.]package` names the
 * package trusted to set the namespace, `DROP CONTEXT namespace` removes it, and DBMS_SESSION.SET_CONTEXT(namespace,
 * attribute, value) sets an attribute for the session (read by SYS_CONTEXT(namespace, attribute)) when called from
 * inside that package; from anywhere else, or for a namespace no CREATE CONTEXT made, it is ORA-01031 "insufficient
 * privileges" (SQL Language Reference, "CREATE CONTEXT"; PL/SQL Packages and Types Reference, "DBMS_SESSION.SET_CONTEXT":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/arpls/DBMS_SESSION.html).
 */
import { setApplicationContexts } from "../application-info.ts"
import type { OracleDatabase } from "../database.ts"
import { OraError, ora } from "../errors.ts"
import { isKw, isOp, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import { wrongArguments } from "./arguments.ts"
import type { CallContext } from "./context.ts"
import type { PlsqlHost } from "./host.ts"

/** Each database's namespaces: NAMESPACE → "OWNER.PACKAGE" trusted to set it. */
const namespaces = new WeakMap<OracleDatabase, Map<string, string>>()

const namespacesOf = (db: OracleDatabase): Map<string, string> => {
  let m = namespaces.get(db)
  if (m === undefined) namespaces.set(db, (m = new Map()))
  return m
}

/** `CREATE [OR REPLACE] CONTEXT ns USING [schema.]pkg [...]` from the token after CONTEXT (`k`). */
export const defineContext = (s: PlsqlHost, toks: ReadonlyArray<Tok>, k: number, orReplace: boolean): void => {
  const ns = toks[k]
  if (ns === undefined || !isKw(toks[k + 1], "USING") || toks[k + 2] === undefined) throw ora.invalidSql()
  const qualified = isOp(toks[k + 3], ".") && toks[k + 4] !== undefined
  const owner = qualified ? oracleName(toks[k + 2]!) : s.schema
  const pkg = oracleName(qualified ? toks[k + 4]! : toks[k + 2]!)
  const all = namespacesOf(s.db)
  const name = oracleName(ns)
  if (all.has(name) && !orReplace) throw ora.nameInUse()
  all.set(name, `${owner}.${pkg}`)
}

/** `DROP CONTEXT ns` (ORA-04043 for an unknown one). */
export const dropContext = (s: PlsqlHost, toks: ReadonlyArray<Tok>, k: number): void => {
  const ns = toks[k]
  if (ns === undefined) throw ora.invalidSql()
  if (!namespacesOf(s.db).delete(oracleName(ns))) throw new OraError(4043, `object ${oracleName(ns)} does not exist`)
}

/** DBMS_SESSION.SET_CONTEXT(namespace, attribute, value [, username, client_id]) from the trusted package. */
export const setContext = async (ctx: CallContext, args: ReadonlyArray<ReadonlyArray<Tok>>): Promise<void> => {
  if (args.length < 3 || args.length > 5) throw wrongArguments("SET_CONTEXT")
  const [ns, attribute, value] = [await ctx.evaluate(args[0]!), await ctx.evaluate(args[1]!), await ctx.evaluate(args[2]!)]
  const namespace = String(ns ?? "").toUpperCase()
  const trusted = namespacesOf(ctx.host.db).get(namespace)
  if (trusted === undefined || trusted !== ctx.unit) throw new OraError(1031, "insufficient privileges")
  if (attribute === null) throw new OraError(6502, "PL/SQL: numeric or value error")
  await setApplicationContexts(ctx.host.info, ctx.host.engine, [{ namespace, clear: false, entries: [[String(attribute), value === null ? "" : String(value)]] }])
}
