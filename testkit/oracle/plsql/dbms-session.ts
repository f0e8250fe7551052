/**
 * DBMS_SESSION: SLEEP(seconds); SET_IDENTIFIER(client_id) and CLEAR_IDENTIFIER, which set V$SESSION's
 * CLIENT_IDENTIFIER and SYS_CONTEXT('USERENV', 'CLIENT_IDENTIFIER') as oracledb's connection.clientId does.
 */
import { setTraceAttributes } from "../application-info.ts"
import { wrongArguments } from "./arguments.ts"
import type { BuiltinPackage } from "./context.ts"
import { sleep } from "./sleep.ts"
import { setContext } from "./application-contexts.ts"

/** DBMS_SESSION.SLEEP / SET_IDENTIFIER / CLEAR_IDENTIFIER / SET_CONTEXT (application-contexts.ts). */
export const dbmsSession: BuiltinPackage = async (ctx, procedure, args) => {
  switch (procedure) {
    case "SLEEP":
      await sleep(ctx, procedure, args)
      return true
    case "SET_IDENTIFIER": {
      if (args.length !== 1) throw wrongArguments(procedure)
      const id = await ctx.evaluate(args[0]!)
      // client_id: "up to 64 bytes" (PL/SQL Packages and Types Reference, DBMS_SESSION.SET_IDENTIFIER)
      await setTraceAttributes(ctx.host.info, ctx.host.engine, { clientIdentifier: id === null ? null : Buffer.from(String(id)).subarray(0, 64).toString() })
      return true
    }
    case "SET_CONTEXT":
      await setContext(ctx, args)
      return true
    case "CLEAR_IDENTIFIER":
      if (args.length !== 0) throw wrongArguments(procedure)
      await setTraceAttributes(ctx.host.info, ctx.host.engine, { clientIdentifier: null })
      return true
    default:
      return false
  }
}
