/**
 * A session's application attributes: the end-to-end tracing attributes (MODULE, ACTION, CLIENT_INFO,
 * CLIENT_IDENTIFIER, ECID, DBOP) that oracledb sends as piggybacks (connection.module, .action, .clientInfo,
 * .clientId, .ecid, .dbOp) and DBMS_APPLICATION_INFO / DBMS_SESSION.SET_IDENTIFIER set from PL/SQL, and the
 * application contexts oracledb sets (`appContext` at connect, connection.appContext() / clearAppContext() later).
 * They are kept on the session's V$SESSION entry and in the DuckDB variables SYS_CONTEXT reads (database.ts macro
 * `sys_context`: USERENV's MODULE, ACTION, CLIENT_INFO, CLIENT_IDENTIFIER; any other namespace from `ora_appctx`).
 */
import type { Session as EngineSession } from "../engine/index.ts"
import type { SessionInfo } from "./database.ts"
import { sqlString } from "./lexer.ts"

/** The end-to-end attributes a session carries. */
export type TraceAttribute = "module" | "action" | "clientInfo" | "clientIdentifier" | "ecid" | "dbOp"

/** The DuckDB variable SYS_CONTEXT('USERENV', ...) reads for each attribute it shows. */
const VARIABLES: Partial<Record<TraceAttribute, string>> = {
  module: "ora_module",
  action: "ora_action",
  clientInfo: "ora_client_info",
  clientIdentifier: "ora_client_id"
}

/** Sets end-to-end attributes (null or "" clears one, as Oracle keeps no empty strings). */
export const setTraceAttributes = async (info: SessionInfo, engine: EngineSession, changes: Partial<Record<TraceAttribute, string | null>>): Promise<void> => {
  const sets: Array<string> = []
  for (const [name, raw] of Object.entries(changes) as Array<[TraceAttribute, string | null | undefined]>) {
    const value = raw === undefined || raw === null || raw === "" ? null : raw
    info[name] = value
    const variable = VARIABLES[name]
    if (variable !== undefined) sets.push(`SET VARIABLE ${variable} = ${value === null ? "NULL" : sqlString(value)}`)
  }
  if (sets.length > 0) await engine.execute(sets.join("; "))
}

/** The application contexts of each session: "NAMESPACE.ATTRIBUTE" (upper case, as SYS_CONTEXT compares) → value. */
const contexts = new WeakMap<SessionInfo, Map<string, string>>()

/** One change to a namespace of application context: its entries set, after clearing the namespace first if asked. */
export interface ContextChange {
  readonly namespace: string
  readonly clear: boolean
  readonly entries: ReadonlyArray<readonly [attribute: string, value: string]>
}

/** Applies application context changes and publishes the session's contexts to SYS_CONTEXT. */
export const setApplicationContexts = async (info: SessionInfo, engine: EngineSession, changes: ReadonlyArray<ContextChange>): Promise<void> => {
  if (changes.length === 0) return
  let map = contexts.get(info)
  if (map === undefined) contexts.set(info, (map = new Map()))
  for (const c of changes) {
    const ns = c.namespace.toUpperCase()
    if (c.clear) for (const key of [...map.keys()]) if (key.startsWith(`${ns}.`)) map.delete(key)
    for (const [attribute, value] of c.entries) {
      const key = `${ns}.${attribute.toUpperCase()}`
      if (value === "") map.delete(key)
      else map.set(key, value)
    }
  }
  const entries = [...map].map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`).join(", ")
  await engine.execute(`SET VARIABLE ora_appctx = CAST(MAP {${entries}} AS MAP(VARCHAR, VARCHAR))`)
}

/**
 * Gives the session of an autonomous transaction (`to`, on its own engine session) the application contexts and
 * end-to-end attributes of the session that started it (`from`): it is the same Oracle session.
 */
export const shareSessionAttributes = async (from: SessionInfo, to: SessionInfo, engine: EngineSession): Promise<void> => {
  await setTraceAttributes(to, engine, { module: from.module ?? null, action: from.action ?? null, clientInfo: from.clientInfo ?? null, clientIdentifier: from.clientIdentifier ?? null })
  const changes = [...(contexts.get(from) ?? [])].map(([key, value]): ContextChange => {
    const dot = key.indexOf(".")
    return { namespace: key.slice(0, dot), clear: false, entries: [[key.slice(dot + 1), value]] }
  })
  await setApplicationContexts(to, engine, changes)
}
