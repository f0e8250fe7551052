/**
 * DBMS_APPLICATION_INFO (PL/SQL Packages and Types Reference): SET_MODULE(module_name, action_name),
 * SET_ACTION(action_name), SET_CLIENT_INFO(client_info), READ_MODULE(module_name OUT, action_name OUT),
 * READ_CLIENT_INFO(client_info OUT). The values are the ones V$SESSION shows in MODULE / ACTION / CLIENT_INFO and
 * SYS_CONTEXT('USERENV', ...) returns, shared with oracledb's connection.module / action / clientInfo; longer values
 * are cut to the package's limits (module 48 bytes, action 32, client info 64).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { setTraceAttributes } from "../application-info.ts"
import { wrongArguments } from "./arguments.ts"
import type { BuiltinPackage } from "./context.ts"

/** A value as text of at most `bytes` UTF-8 bytes (null stays null). */
const cut = (v: DuckDBValue, bytes: number): string | null => {
  if (v === null) return null
  const b = Buffer.from(String(v))
  if (b.length <= bytes) return String(v)
  // do not split a character
  let end = bytes
  while (end > 0 && (b[end]! & 0xc0) === 0x80) end--
  return b.subarray(0, end).toString()
}

/** DBMS_APPLICATION_INFO's procedures. */
export const dbmsApplicationInfo: BuiltinPackage = async (ctx, procedure, args) => {
  const { info, engine } = ctx.host
  switch (procedure) {
    case "SET_MODULE": {
      if (args.length !== 2) throw wrongArguments(procedure)
      const module = cut(await ctx.evaluate(args[0]!), 48)
      const action = cut(await ctx.evaluate(args[1]!), 32)
      await setTraceAttributes(info, engine, { module, action })
      return true
    }
    case "SET_ACTION":
      if (args.length !== 1) throw wrongArguments(procedure)
      await setTraceAttributes(info, engine, { action: cut(await ctx.evaluate(args[0]!), 32) })
      return true
    case "SET_CLIENT_INFO":
      if (args.length !== 1) throw wrongArguments(procedure)
      await setTraceAttributes(info, engine, { clientInfo: cut(await ctx.evaluate(args[0]!), 64) })
      return true
    case "READ_MODULE":
      if (args.length !== 2) throw wrongArguments(procedure)
      ctx.assign(args[0]!, info.module === undefined ? info.program : info.module)
      ctx.assign(args[1]!, info.action ?? null)
      return true
    case "READ_CLIENT_INFO":
      if (args.length !== 1) throw wrongArguments(procedure)
      ctx.assign(args[0]!, info.clientInfo ?? null)
      return true
    default:
      return false
  }
}
