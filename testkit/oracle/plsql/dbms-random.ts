/**
 * DBMS_RANDOM's procedures (Oracle Database PL/SQL Packages and Types Reference, DBMS_RANDOM): SEED(n | text) restarts
 * the generator so that the same seed repeats the same values; INITIALIZE(n) is SEED's deprecated name; TERMINATE
 * does nothing. The functions (VALUE, NORMAL, STRING, RANDOM) are SQL functions (builtin-functions.ts).
 */
import { seedRandom } from "../builtin-functions.ts"
import type { BuiltinPackage } from "./context.ts"
import { wrongArguments } from "./arguments.ts"

/** DBMS_RANDOM.SEED / INITIALIZE / TERMINATE. */
export const dbmsRandom: BuiltinPackage = async (ctx, procedure, args) => {
  switch (procedure) {
    case "SEED":
    case "INITIALIZE":
      if (args.length !== 1) throw wrongArguments(procedure)
      seedRandom(await ctx.evaluate(args[0]!))
      return true
    case "TERMINATE":
      return true
    default:
      return false
  }
}
