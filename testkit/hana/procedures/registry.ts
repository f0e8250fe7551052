/**
 * The procedures of one HANA test server, by schema and name (shared by its sessions, as a catalog is). Kept in
 * memory beside the engine: procedures are not part of the DuckDB catalog, so `DROP SCHEMA … CASCADE` leaves them
 * (README "still differs").
 */
import type { Engine } from "../../engine/index.ts"
import type { ProcedureDefinition } from "./definition.ts"

const registries = new WeakMap<Engine, Map<string, ProcedureDefinition>>()

const keyOf = (schema: string, name: string): string => `${schema}\u0000${name}`

/** The procedure store of a server's engine. */
export const procedureStore = (engine: Engine) => {
  let map = registries.get(engine)
  if (map === undefined) {
    map = new Map()
    registries.set(engine, map)
  }
  const procedures = map
  return {
    get: (schema: string, name: string): ProcedureDefinition | undefined => procedures.get(keyOf(schema, name)),
    put: (definition: ProcedureDefinition): void => {
      procedures.set(keyOf(definition.schema, definition.name), definition)
    },
    remove: (schema: string, name: string): boolean => procedures.delete(keyOf(schema, name))
  }
}
