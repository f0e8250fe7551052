/**
 * Runs a SQLScript procedure body on the engine session: scalar variables and parameters live in DuckDB session
 * variables (`SET VARIABLE`, read back with `getvariable`, typed by their declared type), table variables are their
 * query text, substituted where `:name` reads them. Each statement goes through the HANA SQL translator, so a body
 * statement accepts what a top-level statement accepts.
 */
import type { Cursor, EngineValue, Session } from "../../engine/index.ts"
import { bindTypes } from "../binding.ts"
import { fromEngineError, HanaError } from "../errors.ts"
import { quoteName, quoteString } from "../names.ts"
import { describeColumns } from "../results.ts"
import type { ResultColumn } from "../results.ts"
import { translate } from "../translate.ts"
import type { SessionValues } from "../translated.ts"
import { duckType, typeText, wireType } from "../types.ts"
import type { HanaType } from "../types.ts"
import { isTableParameter } from "./definition.ts"
import type { CallArgument, ProcedureDefinition, StatementText, TableColumn } from "./definition.ts"


/** `expr` as a value of HANA type `type`: a TIMESTAMP as its ticks (longdate.ts: texts and datetimes converted), else DuckDB's CAST. */
const castTo = (expr: string, type: HanaType): string => (type.name === "TIMESTAMP" ? `hana_ld(${expr})` : `CAST(${expr} AS ${duckType(type)})`)

/** A result of a CALL: the rows and how they are described. */
export interface CallResult {
  readonly cursor: Cursor
  readonly columns: ResultColumn[]
}

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

type Variable = { readonly kind: "scalar"; readonly key: string; readonly type: HanaType } | { readonly kind: "table"; readonly sql: string }

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

const variableKey = (name: string): string => `__hana_proc_${name}`

/** A DuckDB variable name in SET/RESET VARIABLE (not case-folded, unlike table names). */
const variableName = (key: string): string => `"${key.replace(/"/g, '""')}"`

/** Replaces each `:name` of a statement by the variable it reads. */
const substitute = (text: StatementText, variables: ReadonlyMap<string, Variable>): string => {
  let out = ""
  let at = 0
  for (const t of text.tokens) {
    if (t.t !== "param" || t.name === undefined || t.pos === undefined || t.end === undefined) continue
    const v = variables.get(t.name)
    // SQLScript Reference, "Referencing Variables": an unknown name fails (HANA: 1287 identifier must be declared).
    if (v === undefined) throw new HanaError(1287, "HY000", `identifier must be declared: ${t.name}`)
    out += text.sql.slice(at, t.pos) + (v.kind === "scalar" ? `getvariable(${quoteString(v.key)})` : `(${v.sql})`)
    at = t.end
  }
  return out + text.sql.slice(at)
}

const queryOf = (sql: string, values: SessionValues): string => {
  const t = translate(sql, values)
  if (t.kind !== "query") throw HanaError.syntax("a query is expected here", 0)
  return t.sql
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

const setScalar = async (session: Session, key: string, type: HanaType, duckQuery: string): Promise<void> => {
  await session.run(`SET VARIABLE ${variableName(key)} = (SELECT ${castTo("c1", type)} FROM (${duckQuery}) AS q(c1))`)
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
  const { session, values, dfv } = ctx
  checkArity(definition, args)
  const variables = new Map<string, Variable>()
  const keys: string[] = []
  const scalar = (name: string, type: HanaType): Variable => {
    const v: Variable = { kind: "scalar", key: variableKey(name), type }
    variables.set(name, v)
    keys.push(v.key)
    return v
  }
  const resultSets: CallResult[] = []
  const qualifiedName = printedName(definition)
  try {
    let input = 0
    for (const [i, p] of definition.parameters.entries()) {
      if (isTableParameter(p)) continue
      const type = p.type as HanaType
      const v = scalar(p.name, type) as Extract<Variable, { kind: "scalar" }>
      const arg = args[i]!
      if (p.mode === "OUT") await session.run(`SET VARIABLE ${variableName(v.key)} = CAST(NULL AS ${duckType(type)})`)
      else if (arg.kind === "param") {
        // Only EXECUTE of a prepared CALL binds values; a `?` for an IN parameter of a directly executed one has none.
        if (input >= inputs.length) throw HanaError.syntax(`parameters are only allowed in prepared statements (IN parameter ${p.name})`, 0)
        const value = inputs[input++] ?? null
        await session.run(`SET VARIABLE ${variableName(v.key)} = ${castTo("?", type)}`, [value], bindTypes([value]))
      } else await setScalar(session, v.key, type, queryOf(`SELECT CAST(${arg.text} AS ${typeText(type)}) FROM DUMMY`, values))
    }
    for (const statement of definition.body) {
      try {
        switch (statement.kind) {
          case "declare": {
            if (variables.has(statement.name)) throw new HanaError(1286, "HY000", `duplicate variable name: ${statement.name}`)
            const v = scalar(statement.name, statement.type) as Extract<Variable, { kind: "scalar" }>
            if (statement.init === undefined) await session.run(`SET VARIABLE ${variableName(v.key)} = CAST(NULL AS ${duckType(v.type)})`)
            else await setScalar(session, v.key, v.type, queryOf(`SELECT ${substitute(statement.init, variables)} FROM DUMMY`, values))
            break
          }
          case "assign": {
            const v = variables.get(statement.name)
            if (v === undefined || v.kind !== "scalar") throw new HanaError(1287, "HY000", `identifier must be declared: ${statement.name}`)
            await setScalar(session, v.key, v.type, queryOf(`SELECT ${substitute(statement.value, variables)} FROM DUMMY`, values))
            break
          }
          case "table": {
            const existing = variables.get(statement.name)
            if (existing?.kind === "scalar") throw wrongParameters(definition, `${statement.name} is not a table variable`)
            // Checked now, so a mistake fails at its own statement.
            const sql = substitute(statement.query, variables)
            queryOf(sql, values)
            variables.set(statement.name, { kind: "table", sql })
            break
          }
          case "selectInto": {
            const duck = queryOf(substitute(statement.query, variables), values)
            const rows = await session.queryAll(`SELECT count(*) FROM (${duck})`)
            const count = Number(rows[0]?.[0] ?? 0)
            // SAP HANA SQL Reference, "SQL Error Codes": 1299 ERR_SQLSCRIPT_NO_DATA_FOUND "no data found";
            // 1300 ERR_SQLSCRIPT_FETCH_MORE_ROWS "fetch returns more than requested number of rows".
            if (count === 0) throw new HanaError(1299, "HY000", "no data found")
            if (count > 1) throw new HanaError(1300, "HY000", "fetch returns more than requested number of rows")
            const width = statement.targets.length
            const names = Array.from({ length: width }, (_, k) => `c${k + 1}`)
            for (const [k, name] of statement.targets.entries()) {
              const v = variables.get(name)
              if (v === undefined || v.kind !== "scalar") throw new HanaError(1287, "HY000", `identifier must be declared: ${name}`)
              await session.run(
                `SET VARIABLE ${variableName(v.key)} = (SELECT ${castTo(names[k]!, v.type)} FROM (${duck}) AS q(${names.join(", ")}))`
              )
            }
            break
          }
          case "resultSet": {
            const t = translate(substitute(statement.query, variables), values)
            if (t.kind !== "query") throw HanaError.syntax("a query is expected here", 0)
            const cursor = await cursorOf(session, t.sql)
            let tables: string[] = []
            try {
              tables = session.tableNames(t.sql)
            } catch {
              // DuckDB could not tell: types come from the values.
            }
            // Typed as the same SELECT run on its own (requests/result-sets.ts): declared types through qualifiers and
            // stars, HANA's types of computed columns.
            const columns = await describeColumns(session, cursor.columns, tables, dfv, t.columnNames, t.columnSources, t.fromItems, t.columnTypes)
            resultSets.push({ cursor, columns })
            break
          }
          case "dml": {
            const t = translate(substitute(statement.statement, variables), values)
            if (t.kind !== "dml" && t.kind !== "ddl") throw HanaError.unsupported("this statement in a procedure body")
            await session.run(t.sql)
            break
          }
          case "signal":
            // SQLScript Reference, "SIGNAL and RESIGNAL": the user-defined code and MESSAGE_TEXT reach the caller.
            throw new HanaError(statement.code, "HY000", `user-defined error: ${statement.message}`)
        }
      } catch (e) {
        const err = fromEngineError(e, values.schema)
        // HANA names the procedure in the message of an error raised inside it ("SCHEMA"."PROC": line …).
        throw new HanaError(err.code, err.sqlState, `${qualifiedName}: ${err.message}`, err.position, err.level)
      }
    }
    const tableOutputs: CallResult[] = []
    for (const p of definition.parameters) {
      if (!isTableParameter(p)) continue
      const columns = p.type.table
      const assigned = variables.get(p.name)
      const source =
        assigned?.kind === "table"
          ? queryOf(assigned.sql, values)
          : `SELECT ${columns.map((c) => `CAST(NULL AS ${duckType(c.type)})`).join(", ")} WHERE false`
      const cursor = await cursorOf(session, typedAs(source, columns))
      tableOutputs.push({ cursor, columns: columns.map((c) => declaredColumn(c.name, c.type, dfv)) })
    }
    const scalarOutputs = definition.parameters.filter((p, i) => !isTableParameter(p) && p.mode !== "IN" && args[i]!.kind === "param")
    let outputs: CallResult | undefined
    if (scalarOutputs.length > 0) {
      const items = scalarOutputs.map((p) => castTo(`getvariable(${quoteString(variableKey(p.name))})`, p.type as HanaType))
      const cursor = await cursorOf(session, `SELECT ${items.join(", ")}`)
      outputs = { cursor, columns: scalarOutputs.map((p) => declaredColumn(p.name, p.type as HanaType, dfv)) }
    }
    // Table-typed OUT parameters first, in declaration order, then the body's own result sets in execution order.
    return { outputs, resultSets: [...tableOutputs, ...resultSets] }
  } catch (e) {
    for (const r of resultSets) r.cursor.close()
    throw e
  } finally {
    for (const key of keys) await session.run(`RESET VARIABLE ${variableName(key)}`).catch(() => undefined)
  }
}
