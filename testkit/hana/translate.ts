/**
 * HANA SQL → DuckDB SQL translation for the accepted subset (testkit/hana/README.md): tokenizes, classifies the
 * statement (query, DML, DDL, transaction control, session and security commands) and hands it to its translator
 * (query.ts, ddl.ts; expressions: sql-rewrite.ts). INSERT / UPSERT and UPDATE / DELETE are translated here with the
 * keys and rows they lock.
 */
import { translateExplainPlan } from "./explain-plan.ts"
import { parseIdentityStatement } from "./identity/statements.ts"
import { HanaError } from "./errors.ts"
import { assignmentsOf, type KeyTarget } from "./key-locks.ts"
import { countParams, identOf, matching, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { writtenRows } from "./row-locks.ts"
import type { LockSlices } from "./row-locks.ts"
import { encodeName } from "./names.ts"
import { qualifiedName, rewriteAlterTable, translateCreate, translateDrop } from "./ddl.ts"
import { lockTarget, translateQuery, withoutHint } from "./query.ts"
import { rewrite } from "./sql-rewrite.ts"
import type { SessionValues, Translated } from "./translated.ts"
import { rewriteSpatial } from "./spatial.ts"
import { rewriteContains } from "./text-search.ts"
import { rewriteRegexpr } from "./regexpr-functions.ts"
import { rewriteMiscCalls } from "./misc-functions.ts"
import { rewriteJsonCalls } from "./json-functions.ts"
import { translateMerge } from "./merge.ts"
import { translateRename } from "./rename.ts"
import { translateLockTable } from "./lock-table.ts"
import { translateAlterTableRebuild } from "./alter-table.ts"
import { commentOnColumn } from "./column-options.ts"
import { topAsLimit } from "./top-clauses.ts"

const savepointOf = (action: "set" | "rollback" | "release", name: Token | undefined, wellFormed: boolean): Translated => {
  const ident = identOf(name)
  if (!wellFormed || ident === undefined) throw HanaError.syntax(`savepoint name expected`, 0)
  return { kind: "savepoint", action, name: ident }
}

const withLockTarget = <T extends Translated>(t: T, slices: LockSlices | undefined, session: SessionValues): T =>
  slices === undefined ? t : { ...t, lockRows: lockTarget(slices, { nowait: false }, session) }

/** UPDATE of one table setting columns: the keys it writes (key-locks.ts; which columns are keys is known at run time). */
const withUpdateKeys = (t: Extract<Translated, { kind: "dml" }>, all: Token[], session: SessionValues): Translated => {
  const slices = writtenRows(all)
  const set = all.findIndex((tok) => upper(tok) === "SET")
  const where = slices === undefined || set < 0 ? -1 : slices.rest.length > 0 ? all.indexOf(slices.rest[0]!) : all.length
  const parts = where < 0 ? undefined : assignmentsOf(all.slice(set + 1, where))
  if (slices === undefined || parts === undefined) return t
  const values = parts.assignments.map((a) => rewrite([...a.value], session)).join(", ")
  const lockKeys: KeyTarget = {
    table: `${slices.schema ?? session.schema}.${slices.table}`,
    schema: slices.schema ?? session.schema,
    name: slices.table,
    columns: undefined,
    assigned: parts.assignments.map((a) => a.column),
    valuesSql: `SELECT ${values}, * FROM ${rewrite(slices.from, session)} ${slices.rest.length === 0 ? "" : rewrite(slices.rest, session)}`,
    firstParam: countParams(all.slice(0, set + 1)),
    params: countParams(all.slice(set + 1))
  }
  return { ...t, lockKeys }
}
/**
 * `SET [SESSION] '<key>' = '<value>'` / `UNSET [SESSION] '<key>'`: a session variable SESSION_CONTEXT reads (SAP ABAP
 * Keyword Documentation, "ABAP-Specific Session Variables in SAP HANA": "provided with a value by the statement
 * SET 'VAR' = :value; (SAP HANA Platform SPS12 and higher)"; the SQL Reference lists SET [SESSION] / UNSET [SESSION]
 * among the session management statements).
 */
const sessionVariableOf = (all: ReadonlyArray<Token>, action: "set" | "unset"): Translated => {
  const at = upper(all[1]) === "SESSION" ? 2 : 1
  const key = all[at]
  if (key?.t !== "string" || key.v === "") throw HanaError.syntax(`${action.toUpperCase()} [SESSION] '<key>'${action === "set" ? " = '<value>'" : ""} expected`, 0)
  if (action === "unset") {
    if (all.length !== at + 1) throw HanaError.syntax("UNSET [SESSION] '<key>' expected", 0)
    return { kind: "sessionVariable", key: key.v, value: undefined }
  }
  const value = all[at + 2]
  if (all[at + 1]?.v !== "=" || value?.t !== "string" || all.length !== at + 3) {
    throw HanaError.syntax("SET [SESSION] '<key>' = '<value>' expected", 0)
  }
  return { kind: "sessionVariable", key: key.v, value: value.v }
}

/** Translates one HANA statement. */
export const translate = (hanaSql: string, session: SessionValues): Translated => {
  const sql = rewriteJsonCalls(rewriteMiscCalls(rewriteRegexpr(rewriteContains(rewriteSpatial(hanaSql)))))
  const all = sig(tokenize(sql))
  while (all.length > 0 && all[all.length - 1]!.t === "op" && all[all.length - 1]!.v === ";") all.pop()
  if (all.length === 0) throw HanaError.syntax("empty statement", 0)
  if (all.some((t) => t.t === "op" && t.v === ";")) throw HanaError.syntax("multiple statements are not supported", 0)
  const w0 = upper(all[0])
  const w1 = upper(all[1])
  const params = countParams(all)
  const identity = ["CREATE", "DROP", "ALTER", "SET", "UNSET"].includes(w0) ? parseIdentityStatement(all) : undefined
  if (identity !== undefined) return { kind: "identity", command: identity }
  switch (w0) {
    case "SELECT":
    case "WITH":
    case "(":
    case "VALUES":
      return translateQuery(all, session, sql)
    case "":
      if (all[0]!.t === "op" && all[0]!.v === "(") return translateQuery(all, session)
      break
    case "INSERT":
      return translateInsert(all, session)
    case "UPSERT":
    case "REPLACE":
      return translateUpsert(all, session)
    case "UPDATE": {
      const update = withoutHint(all)
      return withUpdateKeys(withLockTarget({ kind: "dml", functionCode: 3, sql: rewrite(update, session), params }, writtenRows(update), session), update, session)
    }
    case "DELETE": {
      const del = withoutHint(all)
      return withLockTarget({ kind: "dml", functionCode: 4, sql: rewrite(del, session), params }, writtenRows(del), session)
    }
    case "EXPLAIN":
      return translateExplainPlan(all, sql, (inner) => translate(inner, session))
    case "COMMIT":
      return { kind: "commit" }
    // SAVEPOINT <name>, ROLLBACK TO SAVEPOINT <name>, RELEASE SAVEPOINT <name> (HANA SQL reference, transaction
    // management statements).
    case "SAVEPOINT":
      return savepointOf("set", all[1], all.length === 2)
    case "RELEASE":
      if (w1 === "SAVEPOINT") return savepointOf("release", all[2], all.length === 3)
      break
    case "ROLLBACK":
      if (w1 === "TO") return savepointOf("rollback", all[3], upper(all[2]) === "SAVEPOINT" && all.length === 4)
      return { kind: "rollback" }
    case "SET":
      if (w1 === "SCHEMA") {
        const name = identOf(all[2])
        if (name === undefined || all.length !== 3) throw HanaError.syntax("SET SCHEMA <name> expected", 0)
        return { kind: "setSchema", schema: name }
      }
      if (w1 === "TRANSACTION" && upper(all[2]) === "AUTOCOMMIT" && upper(all[3]) === "DDL") {
        const mode = upper(all[4])
        if (mode !== "ON" && mode !== "OFF") throw HanaError.syntax("SET TRANSACTION AUTOCOMMIT DDL ON|OFF expected", 0)
        return { kind: "ddlAutocommit", on: mode === "ON" }
      }
      if (w1 === "TRANSACTION" && upper(all[2]) === "LOCK" && upper(all[3]) === "WAIT" && upper(all[4]) === "TIMEOUT") {
        if (all[5]?.t !== "number" || all.length !== 6 || !/^\d+$/.test(all[5].v)) {
          throw HanaError.syntax("SET TRANSACTION LOCK WAIT TIMEOUT <milliseconds> expected", 0)
        }
        return { kind: "lockWaitTimeout", ms: Number(all[5].v) }
      }
      if (w1 === "SESSION" || all[1]?.t === "string") return sessionVariableOf(all, "set")
      if (w1 === "TRANSACTION" || w1 === "PSE") return { kind: "noop" }
      break
    case "UNSET":
      if (w1 === "SESSION" || all[1]?.t === "string") return sessionVariableOf(all, "unset")
      break
    case "ALTER":
      if (w1 === "SYSTEM") {
        const words = all.map(upper)
        const id = all.find((t) => t.t === "string")
        if ((words.includes("CANCEL") || words.includes("DISCONNECT")) && words.includes("SESSION") && id !== undefined) {
          return { kind: "cancelSession", connectionId: Number(id.v), disconnect: words.includes("DISCONNECT") }
        }
      }
      if (w1 === "TABLE") return translateAlterTableRebuild(all, session) ?? { kind: "ddl", ...rewriteAlterTable(all, session), params }
      if (w1 === "USER" || isSecurityAdministration(all)) return { kind: "noop" }
      break
    case "CREATE":
    case "DROP":
      // Security administration the identity store does not model (LDAP providers) is accepted and ignored.
      if (isSecurityAdministration(all)) return { kind: "noop" }
      return w0 === "CREATE" ? translateCreate(all, session) : translateDrop(all, session)
    case "MERGE":
      return translateMerge(all, session)
    case "LOCK":
      return translateLockTable(all, session)
    case "RENAME":
      return translateRename(all)
    case "TRUNCATE":
      return { kind: "ddl", sql: rewrite(all, session), params }
    case "COMMENT":
      return { kind: "ddl", sql: commentOnColumn(all) ?? rewrite(all, session), params }
    case "GRANT":
    case "REVOKE":
      return { kind: "noop" }
    default:
      break
  }
  throw HanaError.syntax(`incorrect syntax near "${all[0]!.v}"`, 1)
}
/** `CREATE|ALTER|DROP [X509|JWT|SAML] PROVIDER`, `… PSE`, `… CERTIFICATE`. */
const isSecurityAdministration = (all: readonly Token[]): boolean => {
  const w1 = upper(all[1])
  const w2 = upper(all[2])
  return w1 === "PSE" || w1 === "CERTIFICATE" || (["X509", "JWT", "SAML", "LDAP"].includes(w1) && w2 === "PROVIDER")
}
const translateInsert = (written: Token[], session: SessionValues): Translated => {
  const params = countParams(written)
  if (upper(written[1]) !== "INTO") throw HanaError.syntax("INSERT INTO expected", 0)
  const all = [...topAsLimit(written)]
  const [schema, table, used] = qualifiedName(all, 2)
  let i = 2 + used
  let columns: string[] | undefined
  // `INSERT INTO t (SELECT …)`: a subquery in parentheses, no column list
  if (all[i]?.t === "op" && all[i]!.v === "(" && !["SELECT", "WITH"].includes(upper(all[i + 1]))) {
    const close = matching(all, i)
    columns = splitTopLevel(all.slice(i + 1, close)).map((c) => {
      const name = identOf(c[0])
      if (name === undefined || c.length !== 1) throw HanaError.syntax("column name expected", 0)
      return name
    })
    i = close + 1
  }
  let insert: { schema: string | undefined; table: string; columns: readonly string[] | undefined; prefix: string } | undefined
  if (upper(all[i]) === "VALUES" && all[i + 1]?.v === "(") {
    const close = matching(all, i + 1)
    const items = splitTopLevel(all.slice(i + 2, close))
    if (close === all.length - 1 && items.every((it) => it.length === 1 && it[0]!.t === "param")) {
      insert = { schema, table, columns, prefix: rewrite(all.slice(0, i), session) }
    }
  }
  const sql = rewrite(all, session)
  // `VALUES (…)` or a subquery (SAP HANA SQL Reference, "INSERT Statement": `{ <value_list_clause> | <subquery> }`):
  // the rows it writes, whose keys it locks
  const values = ["VALUES", "SELECT", "WITH"].includes(upper(all[i])) || (all[i]?.t === "op" && all[i]!.v === "(") ? all.slice(i) : undefined
  const lockKeys: KeyTarget | undefined =
    values === undefined
      ? undefined
      : {
          table: `${schema ?? session.schema}.${table}`,
          schema: schema ?? session.schema,
          name: table,
          columns,
          valuesSql: insert === undefined ? `SELECT * FROM (${rewrite(values, session)})` : undefined,
          firstParam: countParams(all.slice(0, i)),
          params: countParams(values)
        }
  return { kind: "dml", functionCode: 2, sql, params, ...(insert === undefined ? {} : { insert }), ...(lockKeys === undefined ? {} : { lockKeys }) }
}

/** `UPSERT t [(cols)] VALUES (...) [WITH PRIMARY KEY]` / `REPLACE ...` → DuckDB `INSERT OR REPLACE INTO`. */
const translateUpsert = (all: Token[], session: SessionValues): Translated => {
  let tokens = all.slice(1)
  if (upper(tokens[0]) === "INTO") tokens = tokens.slice(1)
  const wpk = tokens.findIndex((t, i) => upper(t) === "WITH" && upper(tokens[i + 1]) === "PRIMARY")
  if (wpk >= 0) tokens = tokens.slice(0, wpk)
  if (tokens.some((t) => upper(t) === "WHERE")) throw HanaError.unsupported("UPSERT ... WHERE")
  const translated = translateInsert([{ t: "word", v: "INSERT" }, { t: "word", v: "INTO" }, ...tokens], session)
  if (translated.kind !== "dml") return translated
  return { ...translated, sql: translated.sql.replace(/^INSERT INTO/, "INSERT OR REPLACE INTO") }
}
export const duckIdentifier = encodeName
