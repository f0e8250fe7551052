/**
 * The listener's decision on a connect descriptor: accept the service (or SID) this server offers, refuse
 * anything else with the TNS error Oracle's listener gives.
 */

/** The one instance behind the listener (AUTH_INSTANCENAME at logon, V$INSTANCE). */
const INSTANCE_NAME = "FREE"

/** Client details a connect descriptor carries (shown in V$SESSION). */
export interface ClientIdentity {
  readonly program: string | undefined
  readonly machine: string | undefined
  readonly osUser: string | undefined
}

/** Accepted with the client's identity, or refused with a TNS error code. */
export type ListenerDecision = { readonly accept: true; readonly client: ClientIdentity } | { readonly accept: false; readonly code: number }

/** Decides on the connect data of a CONNECT packet. */
export const listen = (connectData: string, serviceName: string, refuseLogins: boolean): ListenerDecision => {
  const cd = connectData
  const service = /\(SERVICE_NAME=([^)]*)\)/i.exec(cd)?.[1]
  const sid = /\(SID=([^)]*)\)/i.exec(cd)?.[1]
  const client: ClientIdentity = {
    program: /\(PROGRAM=([^)]*)\)/i.exec(cd)?.[1],
    machine: /\(HOST=([^)]*)\)(?=[^(]*\(USER=)/i.exec(cd)?.[1],
    osUser: /\(USER=([^)]*)\)/i.exec(cd)?.[1]
  }
  const instance = /\(INSTANCE_NAME=([^)]*)\)/i.exec(cd)?.[1]
  const wanted = serviceName.toUpperCase()
  if (refuseLogins) return { accept: false, code: 12516 }
  if (sid !== undefined && service === undefined) {
    // a SID names an instance: the pluggable database is a service, not an instance, so only the instance (FREE)
    // is known by SID (Oracle Support note "ORA-12505 connecting to a PDB with SID", unless the listener sets
    // USE_SID_AS_SERVICE_<listener>=ON): anything else is TNS-12505
    if (sid.toUpperCase() !== INSTANCE_NAME) return { accept: false, code: 12505 }
  } else if ((service ?? "").toUpperCase() !== wanted) {
    // the listener refuses unknown services with TNS-12514 (ORA-12514)
    return { accept: false, code: 12514 }
  }
  // Easy Connect `/service:server/instance` adds INSTANCE_NAME: an instance the listener does not know is TNS-12521
  // ("listener does not currently know of instance requested in connect descriptor")
  if (instance !== undefined && instance.toUpperCase() !== INSTANCE_NAME) return { accept: false, code: 12521 }
  // Oracle Free runs no shared servers (no dispatchers) and has its connection pool (DRCP) stopped: its listener has
  // only the dedicated handler, so SHARED or POOLED is TNS-12520, "listener could not find available handler for
  // requested type of server" (Database Error Messages, ORA-12520; Net Services Reference, "SERVER")
  const serverType = /\(SERVER=([^)]*)\)/i.exec(cd)?.[1]?.trim().toUpperCase()
  if (serverType === "SHARED" || serverType === "POOLED") return { accept: false, code: 12520 }
  return { accept: true, client }
}
