/**
 * The columns of each type of the tables a statement mentions (identifier match against the catalog, as the
 * session sees it), and the names its subqueries and WITH blocks give such values: what the translator computes on
 * exactly (NUMBER, intervals, zoned and fractional datetimes, binary floats).
 */
import type { TableMeta } from "./catalog.ts"
import { withBinaryAliases } from "./binary-aliases.ts"
import { rewriteCollectionColumns } from "./collection-columns.ts"
import { intervalColumnTypesOf, isExactInterval } from "./interval-exprs.ts"
import { jsonCheckedColumns } from "./json-checks.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "./lexer.ts"
import { withBoundedAliases, withExactAliases } from "./number-aliases.ts"
import { LEVEL_COLUMN } from "./hierarchical.ts"
import { rewritePivotClauses } from "./pivot-clauses.ts"
import { type BinaryKind, type ExactIntervalKind, type ExactIntervals, oracleName, type QueryShape, type TextDatetimeKind } from "./translate.ts"
import type { OraType, ValueKind } from "./types.ts"
import { isZonedValue, withZonedAliases } from "./zoned-aliases.ts"
import { markTextDatetimeReferences } from "./zoned-references.ts"
import { withDatetimeAliases } from "./datetime-operand-types.ts"
import { timestampPrecisionsOf } from "./timestamp-precisions.ts"

/** Resolves a table name as the session sees it. */
export type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** The typed columns of the tables statements mention, for one session's name resolution. */
export class StatementColumns {
  constructor(private readonly lookupTable: TableLookup) {}

  /** DATE/TIMESTAMP column names of the tables a statement mentions (identifier match against the catalog). */
  dateColumnsOf(sql: string): ReadonlySet<string> {
    const out = new Set(this.columnsOf(sql, (t) => ["date", "timestamp", "timestamptz", "timestampltz"].includes(t.kind)))
    // and the names the statement's subqueries and WITH blocks give DATE / TIMESTAMP expressions
    const aliases = this.datetimeAliasesOf(sql)
    for (const name of [...aliases.days, ...aliases.timestamps]) out.add(name)
    return out
  }

  /** DATE column names of the tables a statement mentions and the names its subqueries give DATE expressions. */
  dayColumnsOf(sql: string): ReadonlySet<string> {
    return this.datetimeAliasesOf(sql).days
  }

  private datetimeAliasesOf(sql: string) {
    const timestamps = this.columnsOf(sql, (t) => t.kind === "timestamp" && t.duck !== "VARCHAR")
    return withDatetimeAliases(significant(tokenize(sql)), this.columnsOfKind(sql, "date"), timestamps)
  }

  /** Names of the NUMBER columns without precision (stored as exact decimal text) of the tables a statement mentions. */
  exactNumberColumnsOf(sql: string): ReadonlySet<string> {
    const out = new Set(this.columnsOf(sql, (t) => t.kind === "number" && t.duck === "VARCHAR"))
    // and those the statement itself declares (CHECK constraints of CREATE TABLE / ALTER TABLE ADD name them)
    // TABLE(t.collection) is read as the JSON_TABLE it becomes (collection-columns.ts)
    // (and PIVOT / UNPIVOT as the subqueries they become: pivot-clauses.ts)
    const toks = significant(rewritePivotClauses(rewriteCollectionColumns(tokenize(sql), this.lookupTable), this.lookupTable))
    if (isKw(toks[0], "CREATE", "ALTER"))
      toks.forEach((t, k) => {
        if ((t.kind === "ident" || t.kind === "qident") && isKw(toks[k + 1], "NUMBER") && !isOp(toks[k + 2], "(")) out.add(oracleName(t))
      })
    // and the names the statement's subqueries and WITH blocks give such values
    return withExactAliases(toks, out, this.boundedNumberColumnsOf(sql))
  }

  /** NUMBER(p[,s]) column names (DuckDB DECIMAL / integers) of the tables a statement mentions. */
  boundedNumberColumnsOf(sql: string): ReadonlySet<string> {
    const out = new Set(this.columnsOf(sql, (t) => t.kind === "number" && t.duck !== "VARCHAR"))
    // a hierarchical query's LEVEL (hierarchical.ts): `LEVEL / 7` is a NUMBER quotient too
    if (/\bCONNECT\b/i.test(sql)) for (const name of [LEVEL_COLUMN, "LEVEL"]) out.add(name)
    // and the aliases subqueries give them
    return withBoundedAliases(significant(tokenize(sql)), out)
  }

  /** Names of the VARCHAR2 / CLOB / BLOB columns with an IS JSON check constraint of the tables a statement mentions (json-checks.ts). */
  jsonCheckedColumnsOf(sql: string): ReadonlySet<string> {
    if (!sql.includes(".")) return new Set()
    const out = new Set<string>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      for (const name of jsonCheckedColumns(this.lookupTable(undefined, oracleName(t)))) out.add(name)
    }
    return out
  }

  /** Names of the columns of a type `keep` accepts, of the tables a statement mentions (identifier match against the catalog). */
  columnsOf(sql: string, keep: (type: OraType) => boolean): ReadonlySet<string> {
    const out = new Set<string>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      const meta = this.lookupTable(undefined, oracleName(t))
      if (meta === undefined) continue
      for (const c of meta.columns) if (keep(c.type)) out.add(c.name)
    }
    return out
  }

  /**
   * NUMBER(p,-s) columns (stored as integers, which DuckDB describes as NUMBER(p+s)) of the tables a statement mentions,
   * with their declared types (a name two such columns give different types is left out).
   */
  negativeScaleColumnsOf(sql: string): ReadonlyMap<string, OraType> {
    const out = new Map<string, OraType>()
    const clash = new Set<string>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      for (const c of this.lookupTable(undefined, oracleName(t))?.columns ?? []) {
        if (c.type.kind !== "number" || c.type.dictName !== "NUMBER" || c.type.scale >= 0 || c.type.scale === -127) continue
        const known = out.get(c.name)
        if (known !== undefined && (known.precision !== c.type.precision || known.scale !== c.type.scale)) clash.add(c.name)
        out.set(c.name, c.type)
      }
    }
    for (const name of clash) out.delete(name)
    return out
  }

  /** TIMESTAMP WITH TIME ZONE and TIMESTAMP(7-9) columns (stored as text) of the tables a statement mentions. */
  textDatetimeColumnsOf(sql: string): ReadonlyMap<string, TextDatetimeKind> {
    const out = new Map<string, TextDatetimeKind>()
    for (const name of this.columnsOf(sql, (t) => t.kind === "timestamp" && t.duck === "VARCHAR")) out.set(name, "wall")
    for (const name of this.columnsOfKind(sql, "timestamptz")) out.set(name, "zoned")
    for (const name of this.columnsOf(sql, (t) => t.kind === "timestampltz" && t.duck === "VARCHAR")) out.set(name, "zoned")
    // and the names the statement's subqueries and WITH blocks give zoned values (zoned-aliases.ts), not those of
    // columns of the same names but other types (zoned-references.ts)
    const toks = significant(tokenize(sql))
    markTextDatetimeReferences(toks, this.lookupTable, out, (from, to) => isZonedValue(toks, from, to, out))
    const learnt = withZonedAliases(toks, out)
    markTextDatetimeReferences(toks, this.lookupTable, learnt, (from, to) => isZonedValue(toks, from, to, learnt))
    return withZonedAliases(toks, out)
  }

  /**
   * The declared fractional second precision of the TIMESTAMP [WITH [LOCAL] TIME ZONE] columns of the tables a statement
   * mentions, by name and by `table.name` / `alias.name` (a key two such columns give different precisions is left
   * out): what FF prints.
   */
  timestampPrecisionsOf(sql: string): ReadonlyMap<string, number> {
    return timestampPrecisionsOf(sql, (schema, name) => this.lookupTable(schema, name))
  }

  /** Names of the columns of `kind` of the tables a statement mentions (identifier match against the catalog). */
  columnsOfKind(sql: string, kind: ValueKind): ReadonlySet<string> {
    const out = new Set<string>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      for (const c of this.lookupTable(undefined, oracleName(t))?.columns ?? []) if (c.type.kind === kind) out.add(c.name)
    }
    return out
  }

  /** BINARY_DOUBLE / BINARY_FLOAT column names of the tables a statement mentions (identifier match, as dateColumnsOf). */
  binaryColumnsOf(sql: string): ReadonlyMap<string, BinaryKind> {
    const out = new Map<string, BinaryKind>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      const meta = this.lookupTable(undefined, oracleName(t))
      if (meta === undefined) continue
      for (const c of meta.columns) if (c.type.kind === "double" || c.type.kind === "float") out.set(c.name, c.type.kind)
    }
    // and the names the statement's subqueries and WITH blocks give such values (binary-aliases.ts)
    return withBinaryAliases(significant(tokenize(sql)), out)
  }

  /** Interval kinds all of whose columns in the tables a statement mentions are stored exactly (intervals.ts). */
  exactIntervalsOf(sql: string): ExactIntervals {
    const exact = { ds: false, ym: false }
    const plain = { ds: false, ym: false }
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      for (const c of this.lookupTable(undefined, oracleName(t))?.columns ?? []) {
        const kind = c.type.kind === "intervalds" ? "ds" : c.type.kind === "intervalym" ? "ym" : undefined
        if (kind !== undefined) (c.type.duck === "INTERVAL" ? plain : exact)[kind] = true
      }
    }
    return { dayToSecond: exact.ds && !plain.ds, yearToMonth: exact.ym && !plain.ym }
  }

  /** The interval columns stored exactly (intervals.ts) of the tables a statement mentions, by name. */
  exactIntervalColumnsOf(sql: string): ReadonlyMap<string, ExactIntervalKind> {
    const out = new Map<string, ExactIntervalKind>()
    for (const name of this.columnsOf(sql, (t) => t.kind === "intervalds" && t.duck !== "INTERVAL")) out.set(name, "dayToSecond")
    for (const name of this.columnsOf(sql, (t) => t.kind === "intervalym" && t.duck !== "INTERVAL")) out.set(name, "yearToMonth")
    // aliases a subquery gives exact interval columns (interval-exprs.ts)
    for (const [name, t] of intervalColumnTypesOf(sql, (schema, table) => this.lookupTable(schema, table))) if (!out.has(name) && isExactInterval(t)) out.set(name, t.kind === "intervalds" ? "dayToSecond" : "yearToMonth")
    return out
  }

  /**
   * The FROM tables (indexes into `shape.from`) whose LOB columns a query reads row by row (no grouping, DISTINCT
   * or set operation), so that their locators can name the row a LOB write goes to: one table or several joined, a
   * locator naming its own table's row (SecureFiles and Large Objects Developer's Guide, "LOB Locators"). Empty when
   * the query reads none.
   */
  lobTablesOf(toks: ReadonlyArray<Tok>, shape: QueryShape): ReadonlyArray<number> {
    if (shape.items.some((i) => i.kind === "aggregate")) return []
    const tables = shape.from.map((ref) => {
      const meta = ref.query === undefined ? this.lookupTable(ref.schema, ref.table) : undefined
      return { ref, meta: meta?.kind === "TABLE" ? meta : undefined }
    })
    const isLob = (t: OraType) => t.kind === "clob" || t.kind === "nclob" || t.kind === "blob"
    const named = (qualifier: string | undefined) => tables.flatMap((t, k) => (qualifier === undefined || t.ref.alias === qualifier || (t.ref.alias === undefined && t.ref.table === qualifier) ? [k] : []))
    const out = new Set<number>()
    for (const item of shape.items) {
      if (item.kind === "star") {
        for (const k of named(item.qualifier)) if (tables[k]!.meta?.columns.some((c) => isLob(c.type)) === true) out.add(k)
      } else if (item.kind === "col") {
        // the first table with the column, as describeColumns reads it
        const k = named(item.qualifier).find((k) => tables[k]!.meta?.columns.some((c) => c.name === item.column) === true)
        if (k !== undefined && tables[k]!.meta!.columns.some((c) => c.name === item.column && isLob(c.type))) out.add(k)
      }
    }
    if (out.size === 0) return []
    let depth = 0
    for (const t of toks) {
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && isKw(t, "GROUP", "DISTINCT", "UNIQUE", "UNION", "INTERSECT", "MINUS", "EXCEPT", "HAVING", "CONNECT")) return []
    }
    return [...out].sort((a, b) => a - b)
  }
}
