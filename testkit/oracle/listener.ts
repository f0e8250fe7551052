/**
 * The listener's decision on a connect descriptor: accept the service (or SID) this server offers, refuse
 * anything else with the TNS error Oracle's listener gives.
 */

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
  const wanted = serviceName.toUpperCase()
  if (refuseLogins) return { accept: false, code: 12516 }
  if (sid !== undefined && service === undefined) {
    if (sid.toUpperCase() !== wanted && sid.toUpperCase() !== "FREE") return { accept: false, code: 12505 }
  } else if ((service ?? "").toUpperCase() !== wanted) {
    // the listener refuses unknown services with TNS-12514 (ORA-12514)
    return { accept: false, code: 12514 }
  }
  return { accept: true, client }
}
