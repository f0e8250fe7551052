/**
 * JSON_MERGEPATCH (SQL Language Reference 19c+, "JSON_MERGEPATCH"; JSON Developer's Guide, "Oracle SQL Function
 * JSON_MERGEPATCH"): a target document patched by a JSON Merge Patch document (IETF RFC 7396). A patch that is no
 * object replaces the target; an object patch applies member by member to the target (taken as `{}` when it is no
 * object): a member whose value is null removes the target's member, any other is merged into the target's member of
 * that name, recursively, and added at the end when the target has none. NULL in, NULL out. json-sql.ts rewrites
 * the call (its RETURNING, PRETTY, ASCII, TRUNCATE and ON ERROR clauses) into `ora_json_mergepatch`.
 */
import { BLOB, BOOLEAN, VARCHAR } from "@duckdb/node-api"
import type { DuckDBConnection } from "@duckdb/node-api"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { OraError } from "./errors.ts"
import { fromExtendedJson, toExtendedJson } from "./extended-json.ts"
import { documentText, plainJson } from "./json-functions.ts"
import type { JsonNode } from "./oson.ts"

/** RFC 7396 MergePatch(target, patch); `target` undefined when the member is absent. */
export const mergePatch = (target: JsonNode | undefined, patch: JsonNode): JsonNode => {
  if (patch.kind !== "object") return patch
  const fields = target?.kind === "object" ? [...target.fields] : []
  for (const [name, value] of patch.fields) {
    const at = fields.findIndex(([k]) => k === name)
    if (value.kind === "null") {
      if (at >= 0) fields.splice(at, 1)
    } else if (at >= 0) fields[at] = [name, mergePatch(fields[at]![1], value)]
    else fields.push([name, mergePatch(undefined, value)])
  }
  return { kind: "object", fields }
}

const parsed = (text: string): JsonNode => {
  try {
    return fromExtendedJson(text)
  } catch {
    throw new OraError(40441, "JSON syntax error")
  }
}

/**
 * The patched document as text: a JSON column's stored extended JSON when `asJson` (the result is a JSON value),
 * else standard JSON text. ORA-40441 when either document is not JSON.
 */
export const jsonMergePatch = (target: string, patch: string, asJson: boolean): string => {
  const result = mergePatch(parsed(target), parsed(patch))
  return asJson ? toExtendedJson(result) : plainJson(result)
}


/** Registers `ora_json_mergepatch(target, patch, asJson)` over VARCHAR / JSON text and BLOB documents. */
export const registerJsonMergePatch = (connection: DuckDBConnection): void => {
  for (const target of [VARCHAR, BLOB]) {
    for (const patch of [VARCHAR, BLOB]) {
      connection.registerScalarFunction(fn("ora_json_mergepatch", [target, patch, BOOLEAN], VARCHAR, ([t, p, j]) => jsonMergePatch(documentText(t!), documentText(p!), j === true)))
    }
  }
}
