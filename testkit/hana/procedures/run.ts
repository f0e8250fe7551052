/**
 * Runs a CALL of a SQLScript procedure: binds its parameters to variables, runs its body with the interpreter
 * (procedures/interpreter.ts) and reads back its scalar OUT / INOUT values and table-typed OUT parameters.
 */
import type { Cursor, EngineValue, Session } from "../../engine/index.ts"
import { bindTypes } from "../binding.ts"
import { fromEngineError, HanaError } from "../errors.ts"
import { quoteName, quoteString } from "../names.ts"
import type { ResultColumn } from "../results.ts"
import type { SessionValues } from "../translated.ts"
import { duckType, typeText, wireType } from "../types.ts"
import type { HanaType } from "../types.ts"
import { isTableParameter } from "./definition.ts"
import type { CallArgument, ProcedureDefinition, TableColumn } from "./definition.ts"
import { castTo, Interpreter, Scope } from "./interpreter.ts"
import type { CallResult, Variable } from "./interpreter.ts"

export type { CallResult } from "./interpreter.ts"

/** What a CALL produced: its scalar output parameters (one row) and its result sets, in order. */
export interface CallOutcome {
  readonly outputs: CallResult | undefined
  readonly resultSets: readonly CallResult[]
}

/** Where a CALL's values come from. */
export interface CallContext {
  readonly session: Session
  readonly values: SessionValues
  readonly dfv: number
}

/**
 * The parameters of a CALL that the client binds or receives, in `?` order: IN/INOUT scalars bound by `?`, and
 * scalar OUT/INOUT ones, with their direction. Table parameters take a `?` in the CALL text but none in the
 * parameter metadata, as a real HANA describes them (SAP/node-hdb test/mock/data/prepare.js, a captured
 * `call read_numbers_between (?, ?, ?)` whose third, table-typed parameter is not described).
 */
export const callParameters = (
  definition: ProcedureDefinition,
  args: readonly CallArgument[]
): Array<{ readonly name: string; readonly type: HanaType; readonly mode: "IN" | "OUT" | "INOUT" }> => {
  checkArity(definition, args)
  const out: Array<{ name: string; type: HanaType; mode: "IN" | "OUT" | "INOUT" }> = []
  definition.parameters.forEach((p, i) => {
    if (isTableParameter(p) || args[i]!.kind !== "param") return
    out.push({ name: p.name, type: p.type as HanaType, mode: p.mode })
  })
  return out
}

/** `"SCHEMA"."NAME"` as HANA prints a procedure's name in its messages. */
const printedName = (definition: ProcedureDefinition): string =>
  `"${definition.schema.replace(/"/g, '""')}"."${definition.name.replace(/"/g, '""')}"`

const wrongParameters = (definition: ProcedureDefinition, detail: string): HanaError =>
  // SAP HANA SQL Reference, "SQL Error Codes": 1281 ERR_SQLSCRIPT_WRONG_PARAMS "wrong number or types of parameters in call".
  new HanaError(1281, "HY000", `wrong number or types of parameters in call: ${printedName(definition)}: ${detail}`)

const checkArity = (definition: ProcedureDefinition, args: readonly CallArgument[]): void => {
  if (args.length !== definition.parameters.length) {
    throw wrongParameters(definition, `${definition.parameters.length} parameters declared, ${args.length} given`)
  }
  definition.parameters.forEach((p, i) => {
    const arg = args[i]!
    if (isTableParameter(p)) {
      if (p.mode !== "OUT") throw HanaError.unsupported(`table-typed ${p.mode} parameter ${p.name} (the test server accepts table-typed OUT parameters)`)
      if (arg.kind !== "param") throw wrongParameters(definition, `OUT parameter ${p.name} needs ? as its argument`)
    } else if (p.mode !== "IN" && arg.kind !== "param") {
      throw wrongParameters(definition, `${p.mode} parameter ${p.name} needs ? as its argument`)
    }
  })
}

const declaredColumn = (name: string, type: HanaType, dfv: number): ResultColumn => {
  const wire = wireType(type, dfv)
  return { type, wire, metadata: { nullable: true, wire, tableName: undefined, schemaName: undefined, columnName: name, displayName: name } }
}

/** `SELECT CAST(c1 AS t1) AS "A", …` over a DuckDB query, typing its columns as a table type declares them. */
const typedAs = (duckSql: string, columns: readonly TableColumn[]): string => {
  const names = columns.map((_, i) => `c${i + 1}`)
  const items = columns.map((c, i) => `${castTo(names[i]!, c.type)} AS ${quoteName(c.name)}`)
  return `SELECT ${items.join(", ")} FROM (${duckSql}) AS q(${names.join(", ")})`
}

const cursorOf = async (session: Session, sql: string, params?: readonly EngineValue[]): Promise<Cursor> => {
  const outcome = await session.run(sql, params, params === undefined ? undefined : bindTypes(params))
  if (outcome.kind !== "rows") throw HanaError.general("statement returned no rows")
  return outcome.cursor
}

/**
 * Runs `definition` with the CALL's arguments: `inputs` are the values bound to its `?` IN/INOUT parameters, in
 * order. Errors are HANA's: a statement's own error, named with the procedure, 1299 for a SELECT INTO without a
 * row, 1300 for one with several, the SIGNALled code.
 */
export const runProcedure = async (
  ctx: CallContext,
  definition: ProcedureDefinition,
  args: readonly CallArgument[],
  inputs: readonly EngineValue[]
): Promise<CallOutcome> => {
  const { session, dfv } = ctx
  checkArity(definition, args)
  const interpreter = new Interpreter(session, ctx.values, dfv)
  const variables = new Scope(undefined, true)
  const outputKeys = new Map<string, string>()
  const resultSets = interpreter.resultSets
  const qualifiedName = printedName(definition)
  try {
    let input = 0
    const tables = new Map<string, Extract<Variable, { kind: "table" }>>()
    for (const [i, p] of definition.parameters.entries()) {
      variables.declared.add(p.name)
      if (isTableParameter(p)) {
        // An OUT table parameter is a table variable; unassigned it returns no rows.
        const empty = p.type.table.map((c) => `CAST(NULL AS ${typeText(c.type)}) AS ${quoteName(c.name)}`).join(", ")
        const v = { kind: "table" as const, sql: `SELECT ${empty} FROM DUMMY WHERE 1 = 0` }
        variables.set(p.name, v)
        tables.set(p.name, v)
        continue
      }
      const type = p.type as HanaType
      const v = interpreter.scalar(variables, p.name, type)
      outputKeys.set(p.name, v.key)
      const arg = args[i]!
      if (p.mode === "OUT") await interpreter.setRaw(v.key, `CAST(NULL AS ${duckType(type)})`)
      else if (arg.kind === "param") {
        // Only EXECUTE of a prepared CALL binds values; a `?` for an IN parameter of a directly executed one has none.
        if (input >= inputs.length) throw HanaError.syntax(`parameters are only allowed in prepared statements (IN parameter ${p.name})`, 0)
        const value = inputs[input++] ?? null
        await interpreter.setRaw(v.key, castTo("?", type), [value], bindTypes([value]))
      } else await interpreter.setScalar(v, interpreter.queryOf(`SELECT CAST(${arg.text} AS ${typeText(type)}) FROM DUMMY`))
    }
    try {
      await interpreter.block(definition.body, variables, undefined)
    } catch (e) {
      const err = fromEngineError(e, ctx.values.schema)
      // HANA names the procedure in the message of an error raised inside it ("SCHEMA"."PROC": line …).
      throw new HanaError(err.code, err.sqlState, `${qualifiedName}: ${err.message}`, err.position, err.level)
    }
    const tableOutputs: CallResult[] = []
    for (const p of definition.parameters) {
      if (!isTableParameter(p)) continue
      const columns = p.type.table
      const source = interpreter.queryOf(tables.get(p.name)!.sql)
      const cursor = await cursorOf(session, typedAs(source, columns))
      tableOutputs.push({ cursor, columns: columns.map((c) => declaredColumn(c.name, c.type, dfv)) })
    }
    const scalarOutputs = definition.parameters.filter((p, i) => !isTableParameter(p) && p.mode !== "IN" && args[i]!.kind === "param")
    let outputs: CallResult | undefined
    if (scalarOutputs.length > 0) {
      const items = scalarOutputs.map((p) => castTo(`getvariable(${quoteString(outputKeys.get(p.name)!)})`, p.type as HanaType))
      const cursor = await cursorOf(session, `SELECT ${items.join(", ")}`)
      outputs = { cursor, columns: scalarOutputs.map((p) => declaredColumn(p.name, p.type as HanaType, dfv)) }
    }
    // Table-typed OUT parameters first, in declaration order, then the body's own result sets in execution order.
    return { outputs, resultSets: [...tableOutputs, ...resultSets] }
  } catch (e) {
    for (const r of resultSets) r.cursor.close()
    throw e
  } finally {
    for (const key of interpreter.keys) await session.runUnrecorded(`RESET VARIABLE "${key.replace(/"/g, '""')}"`).catch(() => undefined)
  }
}
