/**
 * A session's settings as its SQL sees them: the DuckDB variables SYS_CONTEXT('USERENV'), USER and the session time
 * zone functions read, the search path of its current schema, and ALTER SESSION SET, which changes them.
 */
import type { Session as EngineSession } from "../engine/index.ts"
import type { OracleDatabase, SessionInfo } from "./database.ts"
import { dateLanguageOf } from "./date-language.ts"
import { currentOffsetMinutes, sessionTimeZoneOf } from "./datetime.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, sqlString, type Tok } from "./lexer.ts"
import { encodeName, quoteDuck } from "./names.ts"
import { checkOutputFormat } from "./datetime-format-checks.ts"
import { NLS_FORMAT_PARAMETERS, type NlsFormats } from "./nls-formats.ts"
import { isAcceptedNoOp, isSessionParameter, unknownSessionParameter } from "./session-settings.ts"
import { oracleName } from "./translate.ts"
import { parseCcflags } from "./plsql/conditional-compilation.ts"

/** The settings of one session that ALTER SESSION changes. */
export interface SessionSettingsHost {
  readonly db: OracleDatabase
  readonly engine: EngineSession
  readonly info: SessionInfo
  /** The user whose privileges are active: the session user's, a definer's rights unit's owner while it runs. */
  readonly currentUser?: string
  /** The roles the session has enabled (at logon its default roles; SET ROLE changes them: role-statements.ts). */
  readonly enabledRoles: ReadonlySet<string>
  schema: string
  sessionTz: string
  numericCharacters: string
  dateLanguage: string
  /** NLS_DATE_FORMAT, NLS_TIMESTAMP_FORMAT, NLS_TIMESTAMP_TZ_FORMAT as ALTER SESSION set them (nls-formats.ts). */
  nlsFormats: NlsFormats
  /** PLSQL_CCFLAGS as ALTER SESSION set it: the names conditional compilation reads (plsql/conditional-compilation.ts). */
  plsqlCcflags: string
}

/** Sets the session's variables on `s` (its own engine session, or the admin session running a dictionary query for it). */
export const setSessionVariables = async (host: SessionSettingsHost, s: EngineSession): Promise<void> => {
  const u = host.db.catalog.users.get(host.info.user)
  const sch = host.db.catalog.users.get(host.schema)
  const vars: Record<string, string | number> = {
    ora_user: host.info.user,
    ora_current_user: host.currentUser ?? host.info.user,
    ora_uid: u?.userId ?? 0,
    ora_dba: host.enabledRoles.has("DBA") ? 1 : 0,
    // the session's enabled roles, whose grants the ALL_* views count (dictionary-privileges.ts)
    ora_roles: [...host.enabledRoles].join(","),
    ora_schema: host.schema,
    ora_schema_id: sch?.userId ?? 0,
    ora_sid: host.info.sid,
    ora_machine: host.info.machine,
    ora_osuser: host.info.osUser,
    ora_module: host.info.program,
    ora_action: "",
    ora_client_id: "",
    ora_client_info: "",
    ora_session_tz: host.sessionTz,
    ora_nls_numeric: host.numericCharacters,
    ora_nls_date_language: host.dateLanguage,
    ora_nls_date_format: host.nlsFormats.date,
    ora_nls_timestamp_format: host.nlsFormats.timestamp,
    ora_nls_timestamp_tz_format: host.nlsFormats.timestampTz,
    ora_session_tz_min: currentOffsetMinutes(host.sessionTz) ?? host.db.dbOffsetMinutes(),
    ora_session_tz_region: /^[+-]\d{1,2}:\d{2}$/.test(host.sessionTz) ? "" : host.sessionTz
  }
  await s.execute(
    Object.entries(vars)
      .map(([k, v]) => `SET VARIABLE ${k} = ${typeof v === "number" ? v : sqlString(v)}`)
      .join("; ")
  )
}

/**
 * The statements that make `schema` the one a stored unit's SQL resolves names in and `user` the one whose privileges
 * are active, as SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA' | 'CURRENT_SCHEMAID' | 'CURRENT_USER') show them.
 */
export const unitRightsSql = (db: OracleDatabase, schema: string, user: string): string =>
  [searchPathSql(schema), `SET VARIABLE ora_schema = ${sqlString(schema)}`, `SET VARIABLE ora_schema_id = ${db.catalog.users.get(schema)?.userId ?? 0}`, `SET VARIABLE ora_current_user = ${sqlString(user)}`].join("; ")

/** The statement that makes `schema` the first schema unqualified names resolve in, then SYS. */
export const searchPathSql = (schema: string): string => `SET search_path = '${quoteDuck(encodeName(schema)).replace(/'/g, "''")},"SYS",main'`

/** ALTER SESSION SET CURRENT_SCHEMA | TIME_ZONE | NLS_NUMERIC_CHARACTERS | NLS_DATE_LANGUAGE | NLS_DATE_FORMAT | NLS_TIMESTAMP[_TZ]_FORMAT (others are accepted and ignored). */
export const alterSession = async (host: SessionSettingsHost, toks: ReadonlyArray<Tok>): Promise<void> => {
  if (isAcceptedNoOp(toks)) return
  if (!isKw(toks[2], "SET")) throw new OraError(922, "missing or invalid option")
  const param = toks[3]?.value
  const valueTok = toks[5]
  if (!isOp(toks[4], "=") || valueTok === undefined) throw new OraError(922, "missing or invalid option")
  if (param === undefined || !isSessionParameter(param)) throw unknownSessionParameter()
  if (param === "CURRENT_SCHEMA") {
    const name = oracleName(valueTok)
    if (!host.db.catalog.users.has(name)) throw ora.userNotFound(name)
    host.schema = name
    host.info.schema = name
    await setSessionVariables(host, host.engine)
    await host.engine.execute(searchPathSql(host.schema))
    return
  }
  if (param === "PLSQL_CCFLAGS" && valueTok.kind === "str") {
    parseCcflags(valueTok.value)
    host.plsqlCcflags = valueTok.value
    return
  }
  if (param === "TIME_ZONE") {
    const v = valueTok.kind === "str" ? valueTok.value : valueTok.value
    const zone = v === "LOCAL" || v === "DBTIMEZONE" ? host.db.settings.dbTimeZone : sessionTimeZoneOf(v)
    if (zone === undefined) throw new OraError(1882, "timezone region not found")
    host.sessionTz = zone
    await setSessionVariables(host, host.engine)
    return
  }
  if (param === "NLS_NUMERIC_CHARACTERS" && valueTok.kind === "str") {
    host.numericCharacters = valueTok.value
    await setSessionVariables(host, host.engine)
    return
  }
  if (param === "NLS_DATE_LANGUAGE") {
    host.dateLanguage = dateLanguageOf(valueTok.kind === "str" || valueTok.kind === "qident" ? valueTok.value : toks.slice(5).map((t) => t.value).join(" "), false)
    await setSessionVariables(host, host.engine)
    return
  }
  const format = NLS_FORMAT_PARAMETERS.find((f) => f[0] === param)
  if (format !== undefined) {
    // a format model Oracle does not know is refused when set (ORA-01821), as a TO_CHAR's would be
    if (valueTok.kind !== "str") throw new OraError(922, "missing or invalid option")
    checkOutputFormat(valueTok.value)
    host.nlsFormats[format[1]] = valueTok.value
    await setSessionVariables(host, host.engine)
    return
  }
  // the other parameters Oracle knows are accepted and ignored
}
