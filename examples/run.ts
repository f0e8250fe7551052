/**
 * `npm run example -- NAME [--driver hana|oracle]`: runs examples/NAME.ts (default: quickstart) on the test servers
 * started in-process, or on the real database named by HANA_URI / ORACLE_URI. `--driver` picks the database of the
 * quickstart (default hana); the other examples say in their file which database they use.
 */
import { Effect } from "effect"
import { readdirSync } from "node:fs"
import { main as quickstart } from "./quickstart.ts"

const args = process.argv.slice(2)
const name = args.find((a) => !a.startsWith("--") && args[args.indexOf(a) - 1] !== "--driver") ?? "quickstart"
const driver = args[args.indexOf("--driver") + 1] === "oracle" ? "oracle" : "hana"
const available = readdirSync(new URL(".", import.meta.url)).filter((f) => f.endsWith(".ts") && f !== "run.ts")
  .map((f) => f.slice(0, -3))

const load = async (): Promise<Effect.Effect<unknown, unknown>> => {
  if (name === "quickstart") return quickstart(driver)
  if (!available.includes(name)) throw new Error(`no example named ${name}; available: ${available.join(", ")}`)
  const module = (await import(`./${name}.ts`)) as { main: Effect.Effect<unknown, unknown> }
  return module.main
}

load().then(Effect.runPromise).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(String(error))
    process.exit(1)
  }
)
