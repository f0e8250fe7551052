/**
 * O5LOGON (messages/auth.js): phase one sends the verifier challenge, phase two checks the password, opens the
 * SQL session and answers with the session's identity. Key derivation lives in ../auth.ts.
 */
import { checkPhaseTwo, decryptPassword, makeChallenge, passwordMatches, makeVerifier, serverResponse, SDER_COUNT, VERIFIER_12C, VGEN_COUNT } from "../auth.ts"
import { type SessionInfo, versionInfo } from "../database.ts"
import { sessionTimeZoneOf } from "../datetime.ts"
import { ora, OraError } from "../errors.ts"
import { refusesLogon } from "../faults.ts"
import type { SessionState } from "../session-state.ts"
import { SqlSession } from "../sqlsession.ts"
import type { ReadBuffer, WriteBuffer } from "../wire.ts"
import { setApplicationContexts } from "../application-info.ts"
import { logonAppContexts } from "./app-context.ts"
import { writeEndOfCall, writeError } from "./end-of-call.ts"
import { writeKeyValues } from "./parameter.ts"

const readAuthRequest = (r: ReadBuffer): { user: string; pairs: Map<string, string>; list: Array<{ key: string; value: string }> } => {
  const hasUser = r.u8()
  const userLen = r.ub()
  r.ub() // auth mode
  r.u8()
  const n = r.ub()
  r.u8()
  r.u8()
  const user = hasUser === 1 && userLen > 0 ? (r.bytesWithLength()?.toString("utf8") ?? "") : ""
  const pairs = new Map<string, string>()
  const list: Array<{ key: string; value: string }> = []
  for (let i = 0; i < n; i++) {
    const kv = r.keyValue()
    const key = kv.key.replace(/\0$/, "")
    pairs.set(key, kv.value)
    list.push({ key, value: kv.value })
  }
  return { user, pairs, list }
}

/** Phase one (function 118): remembers the user and sends the challenge. */
export const authPhaseOne = (s: SessionState, r: ReadBuffer, w: WriteBuffer): void => {
  const { user, pairs } = readAuthRequest(r)
  // quoted user names keep their case; plain ones are case-insensitive
  s.user = user.startsWith('"') && user.endsWith('"') ? user.slice(1, -1) : user.toUpperCase()
  s.client.program = pairs.get("AUTH_PROGRAM_NM") ?? s.client.program
  s.client.machine = pairs.get("AUTH_MACHINE") ?? s.client.machine
  s.client.osUser = pairs.get("AUTH_SID") ?? s.client.osUser
  // unknown users get a challenge too (the failure is reported after phase two, as Oracle does)
  const verifier = s.db.verifier(s.user) ?? makeVerifier(`\u0000unknown-${Math.random()}`)
  const challenge = makeChallenge(verifier)
  s.verifier = verifier
  s.challenge = challenge
  writeKeyValues(w, [
    ["AUTH_SESSKEY", challenge.encodedServerKey, 1],
    ["AUTH_VFR_DATA", verifier.vfrData.toString("hex").toUpperCase(), VERIFIER_12C],
    ["AUTH_PBKDF2_CSK_SALT", challenge.cskSalt.toString("hex").toUpperCase()],
    ["AUTH_PBKDF2_VGEN_COUNT", String(VGEN_COUNT)],
    ["AUTH_PBKDF2_SDER_COUNT", String(SDER_COUNT)],
    ["AUTH_GLOBALLY_UNIQUE_DBID\0", "6B2F1C8A4E3D2B1A0F9E8D7C6B5A4938"]
  ])
  writeEndOfCall(s, w, 0, 0)
}

/**
 * Phase two (function 115): checks the password, logs the session on and describes it; with AUTH_NEWPASSWORD
 * (oracledb `getConnection({ newPassword })`) the password is changed first. On a session already logged on, the
 * message is oracledb's `changePassword`.
 */
export const authPhaseTwo = async (s: SessionState, r: ReadBuffer, w: WriteBuffer): Promise<void> => {
  const { user, pairs, list } = readAuthRequest(r)
  if (s.sql !== undefined) return changePassword(s, user, pairs, w)
  const db = s.db
  const version = db.settings.version
  const userMeta = db.catalog.users.get(s.user)
  const ok =
    userMeta !== undefined && !userMeta.oracleMaintained && s.verifier !== undefined && s.challenge !== undefined
      ? checkPhaseTwo(s.verifier, s.challenge, pairs.get("AUTH_SESSKEY") ?? "", pairs.get("AUTH_PASSWORD") ?? "", userMeta.password)
      : ({ ok: false } as const)
  if (!ok.ok || refusesLogon(s.host.faults, s.user)) {
    writeError(s, w, ora.logonDenied(version), 0, 0)
    return
  }
  // a user without CREATE SESSION (directly, through a role or PUBLIC) may not log on (system-privileges.ts)
  if (!db.auth.has(s.user, "CREATE SESSION")) {
    writeError(s, w, new OraError(1045, `user ${s.user} lacks CREATE SESSION privilege; logon denied`), 0, 0)
    return
  }
  const newPassword = newPasswordOf(ok.comboKey, pairs)
  if (newPassword === null) {
    writeError(s, w, ora.logonDenied(version), 0, 0)
    return
  }
  if (newPassword !== undefined) db.setPassword(s.user, newPassword)
  s.comboKey = ok.comboKey
  const alter = (pairs.get("AUTH_ALTER_SESSION") ?? "").replace(/\0/g, "")
  const tzm = /TIME_ZONE\s*=\s*'([^']*)'/i.exec(alter)
  const clientTz = s.host.sessionTimeZone ?? sessionTimeZoneOf(tzm?.[1] ?? "+00:00") ?? tzm?.[1] ?? "+00:00"
  const sid = db.newSid()
  const info: SessionInfo = {
    sid,
    serial: 1000 + sid,
    user: s.user,
    schema: s.user,
    status: "INACTIVE",
    sqlId: null,
    prevSqlId: null,
    program: s.client.program,
    machine: s.client.machine,
    osUser: s.client.osUser,
    logonTime: new Date(),
    cursors: s.cursors,
    cursorsOpened: 0
  }
  const engineSession = await db.engine.session()
  const sql = new SqlSession(db, engineSession, info)
  await sql.init(clientTz)
  s.sql = sql
  s.info = info
  db.sessions.set(sid, info)
  await setApplicationContexts(info, engineSession, logonAppContexts(list))
  const vi = versionInfo(version)
  const pdb = db.pdbName()
  writeKeyValues(w, [
    ["AUTH_VERSION_STRING", `- ${vi.banner.replace(/^Oracle Database /, "")}`],
    ["AUTH_VERSION_SQL", "25"],
    ["AUTH_XACTION_TRAITS", "3"],
    ["AUTH_VERSION_NO", String(vi.authVersion)],
    ["AUTH_VERSION_STATUS", "0"],
    ["AUTH_CAPABILITY_TABLE", ""],
    ["AUTH_LAST_LOGIN", ""],
    ["AUTH_DBNAME", pdb],
    ["AUTH_DB_MOUNT_ID", "1234567890"],
    ["AUTH_DB_ID", "1234567890"],
    ["AUTH_USER_ID", String(userMeta!.userId)],
    ["AUTH_SESSION_ID", String(sid)],
    ["AUTH_SERIAL_NUM", String(info.serial)],
    ["AUTH_INSTANCE_NO", "1"],
    ["AUTH_FAILOVER_ID", ""],
    ["AUTH_SERVER_PID", String(process.pid)],
    ["AUTH_SC_SERVER_HOST", "localhost"],
    ["AUTH_SC_DBUNIQUE_NAME", "FREE"],
    ["AUTH_SC_INSTANCE_NAME", "FREE"],
    ["AUTH_SC_INSTANCE_ID", "1"],
    ["AUTH_SC_INSTANCE_START_TIME", "2024-01-01 00:00:00.000000000 +00:00"],
    ["AUTH_SC_DB_DOMAIN", ""],
    ["AUTH_SC_SERVICE_NAME", db.settings.serviceName],
    ["AUTH_SC_REAL_DBUNIQUE_NAME", "FREE"],
    ["AUTH_INSTANCENAME", "FREE"],
    ["AUTH_MAX_OPEN_CURSORS", "300"],
    ["AUTH_MAX_IDEN_LENGTH", "128"],
    ["AUTH_NLS_LXLAN", "AMERICAN"],
    ["AUTH_NLS_LXCTERRITORY", "AMERICA"],
    ["AUTH_NLS_LXCCHARSET", "AL32UTF8"],
    ["AUTH_SVR_RESPONSE", serverResponse(ok.comboKey)]
  ])
  writeEndOfCall(s, w, 0, 0)
}

/** AUTH_NEWPASSWORD decrypted: undefined when the request has none, null when it does not decrypt. */
const newPasswordOf = (comboKey: Buffer, pairs: ReadonlyMap<string, string>): string | undefined | null => {
  const encoded = pairs.get("AUTH_NEWPASSWORD")
  if (encoded === undefined) return undefined
  return decryptPassword(comboKey, encoded)?.toString("utf8") ?? null
}

/**
 * oracledb's `changePassword(user, old, new)` on an open session: AUTH_PASSWORD and AUTH_NEWPASSWORD encrypted with
 * the logon's combo key (node-oracledb lib/thin/protocol/encryptDecrypt.js `updatePasswordsWithComboKey`). A wrong
 * old password is ORA-28008 "invalid old password" (Database Error Messages); another user's password needs ALTER
 * USER, as ALTER USER ... IDENTIFIED BY does (ORA-01031; **unconfirmed** for this call).
 */
const changePassword = (s: SessionState, named: string, pairs: ReadonlyMap<string, string>, w: WriteBuffer): void => {
  const user = named.startsWith('"') && named.endsWith('"') ? named.slice(1, -1) : named.toUpperCase()
  const meta = s.db.catalog.users.get(user)
  if (user !== s.info?.user && !s.db.auth.has(s.info?.user ?? "", "ALTER USER")) return writeError(s, w, new OraError(1031, "insufficient privileges"), 0, 0)
  if (meta === undefined) return writeError(s, w, ora.userNotFound(user), 0, 0)
  const newPassword = s.comboKey === undefined ? null : newPasswordOf(s.comboKey, pairs)
  if (s.comboKey === undefined || !passwordMatches(s.comboKey, pairs.get("AUTH_PASSWORD") ?? "", meta.password)) {
    return writeError(s, w, new OraError(28008, "invalid old password"), 0, 0)
  }
  if (newPassword === undefined || newPassword === null) return writeError(s, w, ora.logonDenied(s.db.settings.version), 0, 0)
  s.db.setPassword(user, newPassword)
  writeEndOfCall(s, w, 0, 0)
}
