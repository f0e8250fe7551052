/**
 * `EXPLAIN [RECOMPILED] PLAN [SET STATEMENT_NAME = '<name>'] FOR <statement>` (SAP HANA SQL Reference, "EXPLAIN PLAN
 * Statement (Data Manipulation)": the statement is a SELECT, INSERT, UPDATE, DELETE, REPLACE, UPSERT or MERGE INTO,
 * and the plan is stored in the EXPLAIN_PLAN_TABLE view). The plan is DuckDB's (`EXPLAIN (FORMAT JSON)`), its
 * operators named as SAP's "EXPLAIN_PLAN_TABLE System View" names HANA's (TABLE SCAN, FILTER, HASH JOIN, NESTED LOOP
 * JOIN, GROUP BY, ORDER BY, LIMIT, UNION ALL) under a COLUMN SEARCH root whose OPERATOR_DETAILS lists the projected
 * columns; DuckDB's projections are left out, and an operator HANA has no name for keeps DuckDB's (`WINDOW`). Rows
 * go into SYS.EXPLAIN_PLAN_TABLE in the session's transaction, so `DELETE FROM explain_plan_table WHERE
 * statement_name = …` (the reference's own example) works as on HANA.
 */
import type { EngineValue, Session } from "../engine/index.ts"
import { HanaError } from "./errors.ts"
import { upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { nowTicks } from "./longdate.ts"
import { decodeName } from "./names.ts"
import type { Translated } from "./translated.ts"

/** The table EXPLAIN PLAN writes, with the columns of SAP's "EXPLAIN_PLAN_TABLE System View" (catalog.ts creates it). */
export const EXPLAIN_PLAN_TABLE = `CREATE TABLE "SYS"."EXPLAIN_PLAN_TABLE" (STATEMENT_NAME VARCHAR, OPERATOR_NAME VARCHAR,
  OPERATOR_DETAILS VARCHAR, OPERATOR_PROPERTIES VARCHAR, EXECUTION_ENGINE VARCHAR, DATABASE_NAME VARCHAR, SCHEMA_NAME VARCHAR,
  TABLE_NAME VARCHAR, TABLE_TYPE VARCHAR, TABLE_SIZE DOUBLE, OUTPUT_SIZE DOUBLE, SUBTREE_COST DOUBLE, OPERATOR_ID INTEGER,
  PARENT_OPERATOR_ID INTEGER, "LEVEL" INTEGER, "POSITION" INTEGER, HOST VARCHAR, PORT INTEGER, "TIMESTAMP" UBIGINT,
  CONNECTION_ID INTEGER)`

const EXPLAINABLE = new Set(["SELECT", "WITH", "(", "INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "MERGE"])

/** `EXPLAIN … FOR <statement>`, the statement translated by `translateInner` from its own text. */
export const translateExplainPlan = (all: readonly Token[], sql: string, translateInner: (text: string) => Translated): Translated => {
  let i = 1
  if (upper(all[i]) === "RECOMPILED") i++
  if (upper(all[i]) !== "PLAN") throw HanaError.syntax("EXPLAIN PLAN expected", 0)
  i++
  let name = ""
  if (upper(all[i]) === "SET") {
    if (upper(all[i + 1]) !== "STATEMENT_NAME" || all[i + 2]?.v !== "=" || all[i + 3]?.t !== "string") {
      throw HanaError.syntax("SET STATEMENT_NAME = <string literal> expected", 0)
    }
    name = all[i + 3]!.v
    i += 4
  }
  if (upper(all[i]) !== "FOR") throw HanaError.syntax("FOR expected in EXPLAIN PLAN", 0)
  const first = all[i + 1]
  if (upper(first) === "SQL" && upper(all[i + 2]) === "PLAN") {
    // The server keeps no SQL plan cache (M_SQL_PLAN_CACHE), so there is no entry to explain.
    throw HanaError.unsupported("EXPLAIN PLAN FOR SQL PLAN CACHE ENTRY: the test server has no SQL plan cache")
  }
  const word = first?.t === "op" ? first.v : upper(first)
  if (first?.pos === undefined || !EXPLAINABLE.has(word)) {
    throw HanaError.syntax("EXPLAIN PLAN explains SELECT, INSERT, UPDATE, DELETE, REPLACE, UPSERT and MERGE INTO only", 0)
  }
  const inner = translateInner(sql.slice(first.pos))
  if (inner.kind !== "query" && inner.kind !== "dml") throw HanaError.syntax("EXPLAIN PLAN explains DML and queries only", 0)
  if (inner.params > 0) throw HanaError.unsupported("EXPLAIN PLAN of a statement with parameters")
  return { kind: "explainPlan", name, sql: inner.sql, query: inner.kind === "query" }
}

/** One node of DuckDB's `EXPLAIN (FORMAT JSON)` plan. */
interface DuckPlanNode {
  readonly name: string
  readonly children: readonly DuckPlanNode[]
  readonly extra_info?: Record<string, unknown>
}

/** One row of EXPLAIN_PLAN_TABLE, before its ids are given. */
interface Operator {
  readonly name: string
  readonly details: string | null
  readonly schema: string | null
  readonly table: string | null
  readonly tableSize: number | null
  readonly outputSize: number | null
  readonly children: Operator[]
}

const text = (v: unknown): string | null => (v === undefined || v === null ? null : Array.isArray(v) ? v.join(", ") : String(v))
const cardinality = (info: Record<string, unknown>): number | null => {
  const n = Number(info["Estimated Cardinality"])
  return info["Estimated Cardinality"] === undefined || Number.isNaN(n) ? null : n
}

/** HANA's join name with its type suffix ("BTREE INDEX JOIN (LEFT OUTER)"; no suffix for an inner join). */
const joinName = (base: string, info: Record<string, unknown>): string => {
  const type = String(info["Join Type"] ?? "INNER").toUpperCase()
  return type === "INNER" ? base : `${base} (${type === "LEFT" || type === "RIGHT" || type === "FULL" ? `${type} OUTER` : type})`
}

/** DuckDB's plan node as HANA's operators (none for a projection or an empty result, two for TOP_N). */
const operatorsOf = (node: DuckPlanNode): Operator[] => {
  const info = node.extra_info ?? {}
  const children = node.children.flatMap(operatorsOf)
  const op = (name: string, details: string | null, kids: Operator[] = children, table?: string): Operator => {
    // DuckDB's `memory."SYSTEM"."T"`: names quoted where they need it
    const parts = [...(table ?? "").matchAll(/"((?:[^"]|"")*)"|[^".]+/g)].map((m) => (m[1] === undefined ? m[0] : m[1].replace(/""/g, '"')))
    return {
      name,
      details,
      schema: parts.length >= 2 ? decodeName(parts[parts.length - 2]!) : null,
      table: parts.length >= 1 ? decodeName(parts[parts.length - 1]!) : null,
      tableSize: table === undefined ? null : cardinality(info),
      outputSize: cardinality(info),
      children: kids
    }
  }
  switch (node.name) {
    case "PROJECTION":
    case "EMPTY_RESULT":
      return children
    case "SEQ_SCAN":
    case "TABLE_SCAN":
    case "READ_CSV":
      return [op("TABLE SCAN", info.Filters === undefined ? null : `FILTER CONDITION: ${text(info.Filters)}`, [], String(info.Table ?? ""))]
    case "FILTER":
      return [op("FILTER", `FILTER CONDITION: ${text(info.Expression)}`)]
    case "HASH_JOIN":
      return [op(joinName("HASH JOIN", info), `JOIN CONDITION: ${text(info.Conditions)}`)]
    case "NESTED_LOOP_JOIN":
    case "PIECEWISE_MERGE_JOIN":
    case "BLOCKWISE_NL_JOIN":
    case "CROSS_PRODUCT":
      return [op(joinName("NESTED LOOP JOIN", info), info.Conditions === undefined ? null : `JOIN CONDITION: ${text(info.Conditions)}`)]
    case "HASH_GROUP_BY":
    case "PERFECT_HASH_GROUP_BY":
    case "UNGROUPED_AGGREGATE":
    case "SIMPLE_AGGREGATE": {
      const groups = text(info.Groups)
      const aggregates = text(info.Aggregates)
      const details = [groups === null ? undefined : `GROUPING: ${groups}`, aggregates === null ? undefined : `AGGREGATION: ${aggregates}`].filter((d) => d !== undefined)
      return [op("GROUP BY", details.length === 0 ? null : details.join(", "))]
    }
    case "ORDER_BY":
      return [op("ORDER BY", text(info.Order ?? info["Order By"]))]
    case "TOP_N":
      return [op("LIMIT", `NUM RECORDS: ${text(info.Top)}`, [op("ORDER BY", text(info["Order By"]))])]
    case "LIMIT":
    case "STREAMING_LIMIT":
    case "LIMIT_PERCENT":
      return [op("LIMIT", info.Limit === undefined ? null : `NUM RECORDS: ${text(info.Limit)}`)]
    case "UNION":
      return [op("UNION ALL", null)]
    default:
      return [op(node.name.replace(/_/g, " "), null)]
  }
}

/** Runs EXPLAIN PLAN: DuckDB's plan of the statement, stored as HANA's operators in SYS.EXPLAIN_PLAN_TABLE. */
export const runExplainPlan = async (
  session: Session,
  plan: { readonly name: string; readonly sql: string; readonly query: boolean },
  where: { readonly database: string; readonly connectionId: number }
): Promise<void> => {
  const [[, json] = []] = await session.queryAll(`EXPLAIN (FORMAT JSON) ${plan.sql}`)
  const nodes = JSON.parse(String(json)) as DuckPlanNode[]
  let operators = nodes.flatMap(operatorsOf)
  if (plan.query) {
    const prepared = await session.prepare(plan.sql)
    const columns = prepared.columns.map((c) => c.name)
    prepared.close()
    operators = [{ name: "COLUMN SEARCH", details: columns.join(", "), schema: null, table: null, tableSize: null, outputSize: null, children: operators }]
  }
  const rows: EngineValue[][] = []
  const visit = (o: Operator, parent: number | null, level: number, position: number): void => {
    const id = rows.length + 1
    rows.push([plan.name, o.name, o.details, null, "COLUMN", where.database, o.schema, o.table, o.table === null ? null : "COLUMN",
      o.tableSize, o.outputSize, null, id, parent, level, position, "localhost", 30015, where.connectionId])
    o.children.forEach((child, k) => visit(child, id, level + 1, k + 1))
  }
  operators.forEach((o, k) => visit(o, null, 1, k + 1))
  const placeholders = `(${Array.from({ length: 18 }, () => "?").join(", ")}, ${nowTicks("CAST(now() AS TIMESTAMP)")}, ?)`
  for (const row of rows) await session.run(`INSERT INTO "SYS"."EXPLAIN_PLAN_TABLE" VALUES ${placeholders}`, row)
}
