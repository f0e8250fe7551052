/**
 * PREPARE: a statement translated and prepared, its parameters and result columns described.
 */
import { DuckDBTypeId } from "@duckdb/node-api"
import { columnInfo } from "../../engine/index.ts"
import type { Prepared, Session } from "../../engine/index.ts"
import { declaredColumnTypes, declaredTypes } from "../catalog.ts"
import { encodeParameterMetadata } from "../metadata.ts"
import { parameterNames } from "../lexer.ts"
import { exactLiteralWrites } from "../literal-writes.ts"
import { typedSetOperations } from "../set-operation-types.ts"
import { encodeName } from "../names.ts"
import { parameterColumns } from "../parameter-columns.ts"
import { procedureStatement } from "../procedures/definition.ts"
import { prepareProcedure } from "../procedures/requests.ts"
import { ok, u64 } from "../replies.ts"
import type { Reply } from "../replies.ts"
import { describeColumns, resultSetMetadata } from "../results.ts"
import type { ResultColumn } from "../results.ts"
import { translate } from "../translate.ts"
import type { Translated } from "../translated.ts"
import { duckType, parameterWireType, parseTypeText, typeOfDuck, typeOfDuckName } from "../types.ts"
import type { HanaType } from "../types.ts"
import { prepareTyped, ticksPlaceholders } from "../untyped-parameters.ts"
import { FunctionCode, PartKind } from "../wire.ts"
import type { ReplyPart } from "../wire.ts"
import { sessionValues } from "../session-state.ts"
import type { SqlSessionState } from "../session-state.ts"
import { procedureHost } from "./procedure-host.ts"
import { tablesOf, tablesRead } from "./result-sets.ts"

const TIMESTAMP: HanaType = { name: "TIMESTAMP", length: 0, scale: 0 }

/** PREPARE: the statement id, parameter metadata and (for a query) result set metadata. */
export const prepare = async (s: SqlSessionState, session: Session, sql: string): Promise<Reply> => {
  const procedure = procedureStatement(sql, s.schema)
  if (procedure !== undefined) {
    const id = s.nextId++
    const { reply, inputTypes } = prepareProcedure(procedureHost(s, session), procedure, id)
    s.statements.set(id, { id, batches: new Map(), translated: { kind: "noop" }, prepared: undefined, parameterTypes: inputTypes, columns: undefined, tables: [], procedure })
    return reply
  }
  const t = translate(await typedSetOperations(session, await exactLiteralWrites(session, sql), sessionValues(s)), sessionValues(s))
  let prepared: Prepared | undefined
  let columns: ResultColumn[] | undefined
  let parameterTypes: HanaType[] = []
  let tables: string[] = []
  if (t.kind === "query" || t.kind === "dml") {
    prepared = await prepareTyped(session, t.sql)
    if (t.kind === "query") {
      tables = tablesOf(session, t)
      columns = await describeColumns(session, prepared.columns, tables, s.dfv, t.columnNames, t.columnSources, t.fromItems, t.columnTypes)
    }
    parameterTypes = await parameterTypesOf(session, sql, t, prepared)
  }
  const names = parameterNames(sql)
  const id = s.nextId++
  s.statements.set(id, { id, batches: new Map(), translated: t, prepared, parameterTypes, columns, tables })
  const fc = t.kind === "query" ? FunctionCode.SELECT : t.kind === "dml" ? t.functionCode : FunctionCode.DDL
  const parts: ReplyPart[] = [
    { kind: PartKind.STATEMENT_ID, argc: 1, data: u64(id) },
    {
      kind: PartKind.PARAMETER_METADATA,
      argc: parameterTypes.length,
      data: encodeParameterMetadata(
        parameterTypes.map((p, i) => ({ nullable: true, wire: parameterWireType(p, s.dfv), name: names.length === parameterTypes.length ? names[i] : undefined }))
      )
    }
  ]
  if (columns !== undefined) parts.push({ kind: PartKind.RESULT_SET_METADATA, argc: columns.length, data: resultSetMetadata(columns) })
  return ok(fc, parts)
}

/** The types of a prepared statement's parameters: an INSERT's target columns, a compared column's declared type, else DuckDB's. */
const parameterTypesOf = async (session: Session, sql: string, t: Translated, prepared: Prepared): Promise<HanaType[]> => {
  const count = prepared.parameterCount
  const out: HanaType[] = []
  let declared: HanaType[] | undefined
  if (t.kind === "dml" && t.insert !== undefined) {
    const columnTypes = await declaredColumnTypes(session, t.insert.schema, t.insert.table)
    const typeOf = (text: string): HanaType => parseTypeText(text) ?? typeOfDuckName(text)
    const byName = new Map([...columnTypes.byName].map(([name, text]) => [name, typeOf(text)]))
    const ordered = columnTypes.ordered.map(typeOf)
    declared = t.insert.columns === undefined ? ordered : t.insert.columns.map((c) => byName.get(encodeName(c)) ?? typeOfDuckName("VARCHAR"))
  }
  const columns = parameterColumns(sql)
  let tableColumns: Map<string, { type: string }> | undefined
  let ticks: ReadonlySet<number> | undefined
  for (let i = 0; i < count; i++) {
    const d = declared?.[i]
    if (d !== undefined) {
      out.push(d)
      continue
    }
    const inferred = prepared.parameterType(i)
    // A parameter read as a TIMESTAMP that DuckDB could only type as text (untyped-parameters.ts castPlaceholders)
    // is described as the TIMESTAMP it is: `CAST(? AS TIMESTAMP)` "converts the expression to the data type
    // specified" (SAP HANA SQL Reference, "CAST Function"), so hdb sends a TIMESTAMP, which hana_ld reads.
    if ((inferred === undefined || inferred.typeId === DuckDBTypeId.VARCHAR) && (ticks ??= ticksPlaceholders(t.kind === "query" || t.kind === "dml" ? t.sql : "")).has(i)) {
      out.push(TIMESTAMP)
      continue
    }
    if (inferred === undefined) {
      out.push({ name: "NVARCHAR", length: 5000, scale: 0 })
      continue
    }
    const column = columns.length === count ? columns[i] : undefined
    if (column !== undefined) {
      tableColumns ??= await declaredTypes(session, tablesRead(session, t))
      const text = tableColumns.get(encodeName(column))?.type
      const parsed = text === undefined ? undefined : parseTypeText(text)
      // Only when the column's storage is what DuckDB inferred: then the declared type describes the value exactly.
      if (parsed !== undefined && duckType(parsed).replace(/\s/g, "") === inferred.toString().replace(/\s/g, "")) {
        out.push(parsed)
        continue
      }
    }
    out.push(typeOfDuck(columnInfo("", inferred)))
  }
  return out
}
