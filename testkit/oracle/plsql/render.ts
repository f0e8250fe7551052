/**
 * PL/SQL expressions and SQL statements of a block as engine SQL, the PL/SQL names they use bound as parameters. Names
 * in a SQL statement resolve to a column of the statement's tables before a variable of the same name, as the PL/SQL
 * Language Reference, "PL/SQL Name Resolution" states
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-name-resolution.html).
 */
import { DuckDBBlobValue, DuckDBTimestampValue, type DuckDBValue } from "@duckdb/node-api"
import { datetimeTextReads, isCharacterBind } from "../datetime-text-reads.ts"
import { datetimeTextWrites } from "../datetime-text-writes.ts"
import { rewriteBuiltinCalls } from "../builtin-functions.ts"
import { zonedBinds } from "../datetime-binds.ts"
import { timestampPrecisionsOf } from "../timestamp-precisions.ts"
import { parseDatetimeText } from "../datetime.ts"
import { rewriteFloatConditions } from "../float-conditions.ts"
import { formatModelsAsLiterals } from "../format-model-binds.ts"
import { dynamicFormatModels, hasFormatExpressions } from "../format-model-sites.ts"
import { rewriteHierarchical } from "../hierarchical.ts"
import { intervalColumnTypesOf } from "../interval-exprs.ts"
import { rewriteNumericIntervals } from "../numeric-intervals.ts"
import { exactSecondsOfBind } from "../intervals.ts"
import { rewriteJsonSql } from "../json-sql.ts"
import { namedTypesOf, objectColumnTypeOf } from "../named-types.ts"
import { findTopLevel, isKw, isOp, matchParen, type Tok } from "../lexer.ts"
import { rewriteDbmsLob } from "../lob-functions.ts"
import { rewriteAttributeAccess } from "../object-attributes.ts"
import { expandObjectTableWrites } from "../object-tables.ts"
import { rewriteObjectReferences } from "../object-references.ts"
import { rewriteOuterJoinPlus } from "../outer-join-plus.ts"
import { rewriteNestedTableEquality, statementOperandTypes } from "../nested-table-equality.ts"
import { rewriteObjectKeyComparisons } from "../object-key-comparisons.ts"
import { rewriteCollectionColumns } from "../collection-columns.ts"
import { rewriteJsonTables } from "../json-table.ts"
import { rewritePivotClauses } from "../pivot-clauses.ts"
import { rowidOf } from "../row-locks.ts"
import { StatementColumns } from "../session-columns.ts"
import { withAliasAs } from "../select-aliases-as.ts"
import type { BindSpec } from "../statement.ts"
import { padCharOperands } from "../char-operands.ts"
import { charTypes } from "../char-expressions.ts"
import { isBlankPadded } from "../char-writes.ts"
import { makeTranslator, oracleName, type QueryShape, translateQuery } from "../translate.ts"
import { rewriteGroupIds } from "../group-ids.ts"
import type { Expr, TypeSpec } from "./ast.ts"
import { intervalBindKind, type IntervalBindKind, isLocalZoneBind, localZoneArithmetic } from "../local-zone-arithmetic.ts"
import { PlsqlCollection } from "./collections.ts"
import { intervalTextOperands, type KindOfBind } from "./interval-text.ts"
import { storedOfCollection } from "./schema-collections.ts"
import type { Frame } from "./context.ts"
import { PlsCompileError } from "./errors.ts"
import { formatScopeOf } from "./format-probes.ts"
import { nameValue } from "./names.ts"
import { FieldKinds, PlsqlRecord } from "./records.ts"
import { isCursorValue } from "./row-reader.ts"
import { lookup } from "./scope.ts"
import { collectionType, fieldType, recordType, resolveType } from "./conversion.ts"
import { charType, Dty, type OraType } from "../types.ts"
import { datetimeParameter, intervalParameter, isExactNumberText, kindOfSpec, kindOfType, numberParameter, type ValueKind } from "./value-kinds.ts"
import { markTextDatetimeReferences } from "../zoned-references.ts"
import { isZonedValue } from "../zoned-aliases.ts"

/** Column names of the tables a SQL statement names: they win over variables of the same name. */
export function columnsOf(ctx: Frame, toks: Expr): Set<string> {
  const out = new Set<string>()
  toks.forEach((t, k) => {
    if (t.kind !== "ident" && t.kind !== "qident") return
    // `INSERT INTO t (cols)`: a table, not a call
    if ((isOp(toks[k + 1], "(") && !isKw(toks[k - 1], "INTO")) || isOp(toks[k - 1], ".")) return
    const meta = isOp(toks[k + 1], ".") && toks[k + 2] !== undefined ? ctx.host.lookupTable(oracleName(t), oracleName(toks[k + 2]!)) : ctx.host.lookupTable(undefined, oracleName(t))
    for (const c of meta?.columns ?? []) out.add(c.name)
  })
  return out
}

/** The tokens inside an INSERT's top-level `VALUES (...)`, as a range; undefined for other statements. */
const insertValues = (toks: Expr): { readonly from: number; readonly to: number } | undefined => {
  if (!isKw(toks[0], "INSERT")) return undefined
  const at = findTopLevel(toks, 0, toks.length, (t) => isKw(t, "VALUES"))
  if (at < 0 || !isOp(toks[at + 1], "(")) return undefined
  const close = matchParen(toks, at + 1)
  return close < 0 ? undefined : { from: at + 2, to: close }
}

/**
 * Whether the name at `k` is a table alias (`FROM emp e`, `UPDATE emp e`, `FROM (subquery) e`): a name right after a
 * table name or a closing parenthesis, itself neither qualified nor called, is no value a variable could give.
 */
const isAlias = (ctx: Frame, toks: Expr, k: number): boolean => {
  if (isOp(toks[k + 1], ".") || isOp(toks[k + 1], "(")) return false
  const prev = toks[k - 1]
  if (isOp(prev, ")")) return true
  if (prev === undefined || (prev.kind !== "ident" && prev.kind !== "qident")) return false
  const schema = isOp(toks[k - 2], ".") ? toks[k - 3] : undefined
  return ctx.host.lookupTable(schema === undefined ? undefined : oracleName(schema), oracleName(prev)) !== undefined
}

/** The kind of a record variable's field `r.f` at `k` (a DATE field takes `+ n` days), from the field's declared type. */
const fieldKind = (ctx: Frame, source: Expr, k: number, width: number): ValueKind => {
  const found = fieldOf(ctx, source, k, width)
  if (found === undefined) return undefined
  const declared = found.record.type?.fields.find((f) => f.name === found.field)
  return declared !== undefined ? kindOfType(declared.type) : found.record.kinds?.get(found.field)
}

/** The declared fractional second precision of the TIMESTAMP field `r.f` at `k` of a record read from columns. */
const fieldFraction = (ctx: Frame, source: Expr, k: number, width: number): number | undefined => {
  const found = fieldOf(ctx, source, k, width)
  return found?.record.kinds instanceof FieldKinds ? found.record.kinds.fractions.get(found.field) : undefined
}

/** The column type of the INTERVAL field `r.f` at `k` of a record read from columns (a cursor row's), whose precisions TO_CHAR prints. */
const fieldInterval = (ctx: Frame, source: Expr, k: number, width: number): TypeSpec | undefined => {
  const found = fieldOf(ctx, source, k, width)
  return found?.record.kinds instanceof FieldKinds ? found.record.kinds.intervals.get(found.field) : undefined
}

/** The record and field name of a record variable's field `r.f` (`r.e.f`) at `k`. */
const fieldOf = (ctx: Frame, source: Expr, k: number, width: number): { readonly record: PlsqlRecord; readonly field: string } | undefined => {
  if (width < 3 || width % 2 === 0 || !isOp(source[k + 1], ".")) return undefined
  const slot = lookup(ctx, oracleName(source[k]!))
  if (slot?.k !== "var" || !(slot.value instanceof PlsqlRecord)) return undefined
  // `r.e.f`: through the fields that are records themselves
  let record: PlsqlRecord = slot.value
  for (let at = k + 2; at < k + width - 1; at += 2) {
    const inner = record.fields.get(oracleName(source[at]!))
    if (!(inner instanceof PlsqlRecord) || !isOp(source[at + 1], ".")) return undefined
    record = inner
  }
  return { record, field: oracleName(source[k + width - 1]!) }
}

/** The kind of a collection's element `c(i)` at `k` (an INTERVAL element is computed on as an interval), from its element type. */
const elementKind = (ctx: Frame, source: Expr, k: number): ValueKind => {
  if (!isOp(source[k + 1], "(")) return undefined
  const slot = lookup(ctx, oracleName(source[k]!))
  return slot?.k === "var" && slot.value instanceof PlsqlCollection && slot.value.type.element.kind === "named" && /^INTERVAL /.test(slot.value.type.element.name) ? kindOfType(slot.value.type.element) : undefined
}

/**
 * The tokens with every PL/SQL name (variable, record field, cursor attribute, SQLCODE, bind) replaced by a bind
 * placeholder, and the placeholders' values in order. `sql` marks a SQL statement, whose table columns hide
 * variables of the same name.
 */
export function bindNames(ctx: Frame, source: Expr, sql: boolean): { rewritten: Array<Tok>; values: Array<DuckDBValue>; specs: Array<BindSpec | undefined>; kinds: Array<ValueKind>; types: Array<TypeSpec | undefined> } {
  const hiddenOutside = sql ? columnsOf(ctx, source) : new Set<string>()
  // INSERT ... VALUES (...) cannot name a column of its table (ORA-00984): there a variable is what the name means
  const valuesRange = sql ? insertValues(source) : undefined
  const hiddenInValues = valuesRange === undefined ? hiddenOutside : columnsOf(ctx, source.slice(valuesRange.from, valuesRange.to))
  const values: Array<DuckDBValue> = []
  const specs: Array<BindSpec | undefined> = []
  const kinds: Array<ValueKind> = []
  // the declared types of the variables bound (a LOCAL TIME ZONE or INTERVAL variable is computed on as its type)
  const types: Array<TypeSpec | undefined> = []
  const rewritten: Array<Tok> = []
  for (let k = 0; k < source.length; k++) {
    const t = source[k]!
    const isName = t.kind === "ident" || t.kind === "qident"
    const hidden = valuesRange !== undefined && k >= valuesRange.from && k < valuesRange.to ? hiddenInValues : hiddenOutside
    const found = t.kind === "bind" || (isName && !hidden.has(oracleName(t)) && !isKw(source[k - 1], "AS") && !(sql && isAlias(ctx, source, k))) ? nameValue(ctx, source, k) : undefined
    if (found === undefined) {
      rewritten.push(t)
      continue
    }
    // a schema collection is bound as its stored text
    const stored = found.value instanceof PlsqlCollection ? storedOfCollection(found.value) : undefined
    if (stored !== undefined) found.value = stored
    if (isCursorValue(found.value) || found.value instanceof PlsqlRecord || found.value instanceof PlsqlCollection) throw new PlsCompileError(ctx.source, t.pos, 382, "expression is of wrong type")
    specs[values.length] = t.kind === "bind" ? ctx.binds.specs?.[ctx.binds.binds.get(t.value) ?? -1] : undefined
    const slot = t.kind === "bind" || found.width !== 1 ? undefined : lookup(ctx, oracleName(t))
    // (`%TYPE` of a TIMESTAMP WITH TIME ZONE column as that type, whose values are zoned text)
    types[values.length] = slot?.k === "var" ? (slot.type?.kind === "typeOf" ? zonedTypeOf(ctx, slot.type) : slot.type) : undefined
    kinds[values.length] = t.value.startsWith("\u0000F") ? ctx.callResults.get(t.value)?.kind : t.kind === "bind" ? kindOfSpec(specs[values.length]) : slot?.k === "var" ? kindOfType(slot.type) : (fieldKind(ctx, source, k, found.width) ?? elementKind(ctx, source, k))
    // a `%ROWTYPE` / cursor row's TIMESTAMP WITH TIME ZONE field: its zoned text as such a variable's (TZH prints its offset)
    if (kinds[values.length] === "zoned") {
      kinds[values.length] = undefined
      const size = fieldFraction(ctx, source, k, found.width)
      types[values.length] = size === undefined ? ZONED_TYPE : { kind: "named", name: "TIMESTAMP WITH TIME ZONE", size }
    }
    // a cursor row's TIMESTAMP field: a datetime that is a TIMESTAMP operand of a difference, as such a variable is
    if (kinds[values.length] === "timestamp") {
      kinds[values.length] = "datetime"
      types[values.length] = TIMESTAMP_TYPE
    }
    if ((kinds[values.length] === "intervalds" || kinds[values.length] === "intervalym") && types[values.length] === undefined) types[values.length] = fieldInterval(ctx, source, k, found.width)
    // an INTERVAL DAY TO SECOND with nanoseconds is computed on in exact storage, every digit kept
    const seconds = exactSecondsOfBind(found.value)
    if (seconds !== undefined) kinds[values.length] = "exactSeconds"
    values.push(seconds ?? (found.value as DuckDBValue))
    rewritten.push({ ...t, kind: "bind", text: `:v${values.length}`, value: `\u0000V${values.length - 1}` })
    k += found.width - 1
  }
  return { rewritten, values, specs, kinds, types }
}

/** A bound name's spec for datetime-text-writes.ts: a bind's own, a DATE / TIMESTAMP variable's by its declared type. */
const variableSpec = (kind: ValueKind, type: TypeSpec | undefined, spec: BindSpec | undefined): BindSpec | undefined => {
  if (spec !== undefined || kind !== "datetime" || type?.kind !== "named") return spec
  const dty = type.name === "DATE" ? Dty.DATE : type.name === "TIMESTAMP" ? Dty.TIMESTAMP : undefined
  return dty === undefined ? undefined : ({ dty } as BindSpec)
}

const LOCAL_ZONE_TYPE = /^TIMESTAMP WITH LOCAL TIME ZONE$/
const ZONED_TYPE: TypeSpec = { kind: "named", name: "TIMESTAMP WITH TIME ZONE" }
const TIMESTAMP_TYPE: TypeSpec = { kind: "named", name: "TIMESTAMP" }

/** A `%TYPE` declared type resolved when it is TIMESTAMP(p) WITH TIME ZONE; else as it is. */
const zonedTypeOf = (ctx: Frame, type: TypeSpec): TypeSpec => {
  const resolved = resolveType(ctx, type, 0)
  return resolved.kind === "named" && resolved.name === "TIMESTAMP WITH TIME ZONE" ? resolved : type
}

const op = (text: string, pos: number): Tok => ({ kind: "op", text, value: text, pos })
const word = (text: string, pos: number): Tok => ({ kind: "ident", text, value: text, pos })

/**
 * A LOCAL TIME ZONE variable or bind as the LOCAL TIME ZONE value it is (`CAST(:v AS TIMESTAMP(9) WITH LOCAL TIME
 * ZONE)`: shown and computed on in the session time zone), and `ltz ± interval` over it (an INTERVAL variable or
 * bind too) a LOCAL TIME ZONE value, as local-zone-arithmetic.ts makes it in a client's SQL (SQL Language
 * Reference, "Datetime/Interval Arithmetic").
 */
function localZoneOperands(ctx: Frame, toks: ReadonlyArray<Tok>, specs: ReadonlyArray<BindSpec | undefined>, types: ReadonlyArray<TypeSpec | undefined>): ReadonlyArray<Tok> {
  const indexOf = (t: Tok) => (t.kind === "bind" && t.value.startsWith("\u0000V") ? Number(t.value.slice(2)) : -1)
  const isLocal = (i: number) => i >= 0 && (isLocalZoneBind(specs[i]) || (types[i]?.kind === "named" && LOCAL_ZONE_TYPE.test((types[i] as { name: string }).name)))
  if (!toks.some((t) => isLocal(indexOf(t)))) return toks
  const out: Array<Tok> = []
  for (const t of toks) {
    if (!isLocal(indexOf(t))) {
      out.push(t)
      continue
    }
    // (FF prints a variable's own precision: translate-operands.ts declaredFractionAt reads it through the cast)
    out.push(word("CAST", t.pos), op("(", t.pos), t, word("AS", t.pos), word("TIMESTAMP", t.pos), op("(", t.pos), { kind: "num", text: "9", value: "9", pos: t.pos }, op(")", t.pos), word("WITH", t.pos), word("LOCAL", t.pos), word("TIME", t.pos), word("ZONE", t.pos), op(")", t.pos))
  }
  const binds = out.filter((t) => t.kind === "bind").sort((a, b) => a.pos - b.pos)
  const intervalOf = (n: number): IntervalBindKind => {
    const i = binds[n - 1] === undefined ? -1 : indexOf(binds[n - 1]!)
    const type = types[i]
    if (type?.kind === "named" && /^INTERVAL DAY/.test(type.name)) return "intervalds"
    if (type?.kind === "named" && /^INTERVAL YEAR/.test(type.name)) return "intervalym"
    return i < 0 ? undefined : intervalBindKind(specs[i])
  }
  return localZoneArithmetic(out, (schema, name) => ctx.host.lookupTable(schema, name), intervalOf)
}

/** The kind of a bound name for finding interval expressions (interval-text.ts): an INTERVAL variable's with its declared precisions. */
export const boundKinds = (kinds: ReadonlyArray<ValueKind>, types: ReadonlyArray<TypeSpec | undefined>): KindOfBind => (t) => {
  const index = t.kind === "bind" && t.value.startsWith("\u0000V") ? Number(t.value.slice(2)) : -1
  const type = types[index]
  if (type?.kind === "named" && /^INTERVAL (DAY|YEAR)\b/.test(type.name)) {
    const leading = /^INTERVAL (DAY|YEAR)$/.test(type.name) ? (type.size ?? 2) : 2
    if (type.name.startsWith("INTERVAL YEAR")) return { kind: "intervalym", leading }
    return { kind: "intervalds", leading, fraction: type.name === "INTERVAL DAY TO SECOND" ? (type.size ?? 6) : (type.scale ?? 6) }
  }
  const kind = kinds[index]
  // a TIMESTAMP of up to six fraction digits (one with nanoseconds is computed on in exact storage)
  if (kind === "datetime" && type?.kind === "named" && type.name === "TIMESTAMP" && (type.size ?? 6) <= 6) return { kind: "timestamp" }
  return kind === "intervalds" || kind === "intervalym" || kind === "number" || kind === "datetime" ? { kind } : undefined
}

/**
 * The interval columns a block's SQL statement names, as a client's statement gives them to the translator
 * (session-translate.ts): an exact-storage one (DAY TO SECOND(7-9), YEAR(9) TO MONTH) compared with or added to an
 * INTERVAL variable is computed on in exact storage.
 */
function intervalColumnsOf(ctx: Frame, toks: Expr) {
  const text = toks.map((t) => t.text).join(" ")
  const lookup = (schema: string | undefined, name: string) => ctx.host.lookupTable(schema, name)
  const columns = new StatementColumns(lookup)
  return {
    exactIntervals: columns.exactIntervalsOf(text),
    exactIntervalColumns: columns.exactIntervalColumnsOf(text),
    intervalColumnTypes: intervalColumnTypesOf(text, lookup),
    intervalColumns: columns.columnsOf(text, (t) => t.kind === "intervalds" || t.kind === "intervalym")
  }
}

/** Whether PL/SQL expression `expr` is of type CHAR / NCHAR (a text literal too) by the rules char-expressions.ts applies in SQL. */
export const isCharExpression = (ctx: Frame, expr: Expr): boolean => {
  const sig = expr.filter((t) => t.kind !== "ws")
  return sig.length > 0 && charTypes(sig, () => undefined, (name) => charVariableType(ctx, name), (at) => sig[at] !== undefined && isCharBind(ctx, sig[at])).typeOf(0, sig.length - 1) !== undefined
}

/** Whether bind `bind` holds a CHAR value: a stored function's CHAR result, or a client's bind sent as CHAR (oracledb `DB_TYPE_CHAR`). */
const isCharBind = (ctx: Frame, bind: Tok): boolean =>
  ctx.callResults.get(bind.value)?.char === true || ctx.binds.specs?.[ctx.binds.binds.get(bind.value) ?? -1]?.dty === Dty.CHAR

/**
 * The CHAR(n) / NCHAR(n) type of variable `name`, of a record variable's field (`v.f`, `v.f.g`: a declared record
 * type's field or a `%ROWTYPE` record's column) or of a collection variable's element (`c()`, char-expressions.ts
 * asks so for `c(i)`), if it is one (compared with blank-padded semantics, char-operands.ts).
 */
function charVariableType(ctx: Frame, name: string): OraType | undefined {
  const element = name.endsWith("()")
  const [first, ...fields] = (element ? name.slice(0, -2) : name).split(".")
  const slot = lookup(ctx, first!)
  if (slot?.k !== "var" || slot.type === undefined) return undefined
  let type: TypeSpec | undefined = element ? collectionType(ctx, resolveType(ctx, slot.type, 0))?.element : slot.type
  if (type === undefined || (element && fields.length > 0)) return undefined
  for (const field of fields) {
    if (type.kind === "rowtypeOf") {
      const [schema, table] = type.of.length === 2 ? type.of : [undefined, type.of[0]]
      const column = table === undefined ? undefined : ctx.host.lookupTable(schema, table)?.columns.find((c) => c.name === field)
      return column !== undefined && fields.length === 1 && isBlankPadded(column.type) ? column.type : undefined
    }
    const f = recordType(ctx, resolveType(ctx, type, 0))?.fields.find((x) => x.name === field)
    if (f === undefined) return undefined
    type = fieldType(ctx, f)
  }
  const resolved = resolveType(ctx, type, 0)
  if (resolved.kind !== "named" || resolved.size === undefined || !/^N?CHAR(ACTER)?$/.test(resolved.name)) return undefined
  return charType(resolved.name.startsWith("N") ? "NCHAR" : "CHAR", resolved.size, resolved.chars === true)
}

/** PIVOT / UNPIVOT, CONNECT BY and (+) rewritten as for SQL statements (pivot-clauses.ts, hierarchical.ts, outer-join-plus.ts). */
function hierarchyAndOuterJoins(ctx: Frame, toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> {
  const lookup = (schema: string | undefined, name: string) => ctx.host.lookupTable(schema, name)
  return rewriteHierarchical(rewriteOuterJoinPlus(rewritePivotClauses(toks, lookup), lookup), lookup)
}

/** The FROM tables (indexes) whose row ids a query can select: its one table, or a join's tables (not views, subqueries). */
const rowidTablesOf = (ctx: Frame, shape: QueryShape): Array<number> =>
  shape.from.length === 1 ? [0] : shape.from.flatMap((ref, k) => (ref.query === undefined && ctx.host.lookupTable(ref.schema, ref.table)?.kind === "TABLE" ? [k] : []))

/**
 * Renders tokens as DuckDB SQL, the PL/SQL names they use bound as parameters. `sql` marks a SQL statement, whose
 * table columns hide variables of the same name.
 */
export function render(
  ctx: Frame,
  toks: Expr,
  asQuery: boolean,
  sql: boolean,
  /**
   * Row ids selected last: `true` the single FROM table's, "lobs" those of the tables whose LOB columns the query reads,
   * "tables" every FROM table's (a FOR UPDATE cursor's, for WHERE CURRENT OF: plsql/current-of.ts).
   */
  withRowid: boolean | "lobs" | "tables" = false
): {
  sql: string
  params: Array<DuckDBValue>
  shape?: QueryShape
  formatExpressions?: true
  lobTables?: ReadonlyArray<number>
  /** A query's text again with the given row id columns last and `extra` columns after its items (SKIP LOCKED: row-locks.ts skipLockedQuery). */
  translate?: (lobRowids: ReadonlyArray<string>, extra: ReadonlyArray<string>) => string
  /** The row id expressions a query selects last. */
  lobRowids?: ReadonlyArray<string>
} {
  const params: Array<DuckDBValue> = []
  // `a = b` of nested tables (and of objects with zoned attributes) in a statement: nested-table-equality.ts; the
  // `TABLE(alias.col)` it makes of nested tables of objects with a MAP method read as JSON_TABLE (collection-columns.ts);
  // IN, DISTINCT, GROUP BY and set operations of objects with zoned attributes by their keys (object-key-comparisons.ts)
  const tables = (schema: string | undefined, name: string) => ctx.host.lookupTable(schema, name)
  const namedTypes = namedTypesOf(ctx.host.db)
  const lookupType = (name: string) => namedTypes.lookup(ctx.host.schema, undefined, name)
  const compared = (t: Expr) => (sql ? rewriteJsonTables(rewriteCollectionColumns(rewriteNestedTableEquality(rewriteObjectKeyComparisons(t, tables, lookupType, () => namedTypes.all()), statementOperandTypes(t, tables, lookupType)), tables)) : t)
  const source = rewriteAttributeAccess(rewriteFloatConditions(rewriteDbmsLob(rewriteBuiltinCalls(rewriteJsonSql(hierarchyAndOuterJoins(ctx, withAliasAs(namedTypesOf(ctx.host.db).rewriteConstructors(ctx.host.schema, compared(padCharOperands(rewriteNumericIntervals(rewriteGroupIds(sql ? objectTableRewrites(ctx, datetimeTextReads(toks, tables, (_, bind) => isCharacterBind(ctx.binds.specs?.[ctx.binds.binds.get(bind.value) ?? -1]))) : toks)), (schema, name) => (sql ? ctx.host.lookupTable(schema, name) : undefined), (name) => charVariableType(ctx, name), (_, bind) => isCharBind(ctx, bind)))))), ctx.host.db.settings.version), ctx.host.schema))), (schema, name) => ctx.host.lookupTable(schema, name), objectColumnTypeOf(ctx.host.db, ctx.host.schema))
  const { rewritten: names, values, specs, kinds, types } = bindNames(ctx, source, sql)
  // DATE / TIMESTAMP variables a statement writes into character columns: in the session's format, as such binds
  const bound = sql && kinds.includes("datetime") ? [...datetimeTextWrites(names, tables, kinds.map((kind, i) => variableSpec(kind, types[i], specs[i])) as ReadonlyArray<BindSpec>)] : names
  const named = intervalTextOperands(localZoneOperands(ctx, bound, specs, types), boundKinds(kinds, types))
  // a format model from a bind or variable is known now: the translator takes it as the literal it is for this run
  const rewritten = formatModelsAsLiterals(named, (t) => (t.value.startsWith("\u0000V") ? values[Number(t.value.slice(2))] : undefined))
  // one that is another expression (a column) is evaluated per row: a CASE over the values met (format-model-sites.ts),
  // the statement run again by its caller (settleFormatValues) when it meets a new one
  const formats = rewritten.some((t) => t.kind === "ident" && t.value.startsWith("TO_")) && hasFormatExpressions(rewritten) ? dynamicFormatModels(rewritten, formatScopeOf(ctx) ?? rewritten.map((t) => t.text).join(" "))?.toks : undefined
  const kindOfParam: Array<ValueKind> = []
  const withSpaces: Array<Tok> = []
  for (const t of formats ?? rewritten) withSpaces.push(t, { kind: "ws", text: " ", value: " ", pos: t.pos })
  const specOfParam: Array<BindSpec | undefined> = []
  // a TIMESTAMP value with digits below the microsecond stays text (datetimeParameter): computed on as a wall-clock
  // text datetime, every digit kept, not cast to DuckDB's microsecond TIMESTAMP (PL/SQL's TIMESTAMP keeps nine)
  const wallOfParam: Array<boolean> = []
  // a TIMESTAMP(p) [WITH [LOCAL] TIME ZONE] variable's p, which FF prints
  const fractionOfParam: Array<number | undefined> = []
  const zonedOfParam: Array<boolean> = []
  // a TIMESTAMP variable (not a DATE one): minus another datetime it is an interval
  const timestampOfParam: Array<boolean> = []
  // a token the translator renders twice (AT TIME ZONE does) stays one parameter
  const numbered = new Map<Tok, number>()
  const columns = sql ? intervalColumnsOf(ctx, toks) : undefined
  // an INTERVAL variable in a statement with exact-storage interval columns is bound as a client's interval is, brought
  // to the storage of the column it meets (intervals.ts intervalParamsFor)
  const exactStorage = (columns?.exactIntervalColumns.size ?? 0) > 0
  const textDatetimeColumns = sql ? ctx.host.textDatetimeColumnsOf(toks.map((t) => t.text).join(" ")) : undefined
  const { toks: tt, tr } = makeTranslator(withSpaces, {
    bind: (name, tok) => {
      const known = numbered.get(tok)
      if (known !== undefined) return `$${known}`
      const index = name.startsWith("\u0000V") ? Number(name.slice(2)) : -1
      specOfParam[params.length] = specs[index]
      kindOfParam[params.length] = kinds[index]
      const raw = index >= 0 ? values[index] : null
      const kind = kinds[index]
      const value = kind === "datetime" ? datetimeParameter(raw ?? null) : kind === "number" ? numberParameter(raw ?? null) : kind === "intervalds" || kind === "intervalym" ? intervalParameter(raw ?? null, kind, exactStorage) : raw
      wallOfParam[params.length] = kinds[index] === "datetime" && typeof value === "string" && parseDatetimeText(value)?.offsetMinutes === undefined
      const type = types[index]
      timestampOfParam[params.length] = type?.kind === "named" && type.name === "TIMESTAMP"
      // a TIMESTAMP WITH TIME ZONE variable's value (text with its offset) is computed on as zoned text, as such a bind is
      zonedOfParam[params.length] = type?.kind === "named" && type.name === "TIMESTAMP WITH TIME ZONE" && typeof raw === "string" && parseDatetimeText(raw)?.offsetMinutes !== undefined
      const zoneless = raw instanceof DuckDBTimestampValue || (typeof raw === "string" && parseDatetimeText(raw)?.offsetMinutes === undefined)
      const local = type?.kind === "named" && type.name === "TIMESTAMP WITH LOCAL TIME ZONE"
      fractionOfParam[params.length] = type?.kind === "named" && ((type.name === "TIMESTAMP" && kinds[index] === "datetime" && zoneless) || zonedOfParam[params.length] === true || local) ? type.size : undefined
      // RAW values (variables, binds) are bytes: DuckDB types a parameter by its value, BLOB only as a DuckDBBlobValue
      params.push((value instanceof Uint8Array ? new DuckDBBlobValue(value) : value) as DuckDBValue)
      numbered.set(tok, params.length)
      return `$${params.length}`
    },
    datetimeBind: (n) => zonedBinds(specOfParam)(n) ?? (zonedOfParam[n - 1] === true ? "zoned" : wallOfParam[n - 1] === true ? "wall" : undefined),
    numberBind: (n) => kindOfParam[n - 1] === "number",
    exactBind: (n) => isExactNumberText(kindOfParam[n - 1], params[n - 1] ?? null),
    dateBind: (n) => kindOfParam[n - 1] === "datetime" && wallOfParam[n - 1] !== true,
    bindFraction: (n) => fractionOfParam[n - 1],
    exactSecondsBind: (n) => kindOfParam[n - 1] === "exactSeconds",
    timestampBind: (n) => kindOfParam[n - 1] === "datetime" && timestampOfParam[n - 1] === true,
    intervalBind: (n) => (kindOfParam[n - 1] === "intervalds" || kindOfParam[n - 1] === "intervalym" ? (kindOfParam[n - 1] as "intervalds" | "intervalym") : undefined),
    dbTimeZone: ctx.host.db.settings.dbTimeZone,
    exactNumberColumns: ctx.host.exactNumberColumnsOf(toks.map((t) => t.text).join(" ")),
    // TIMESTAMP WITH TIME ZONE columns, held as zoned text: their offset is read (TO_CHAR(tz, 'TZH')), as in a client's SQL
    // and their declared fractional precision, which FF prints (timestamp-precisions.ts), as in a client's SQL
    ...(sql
      ? {
        textDatetimeColumns: textDatetimeColumns ?? new Map(),
        timestampPrecisions: timestampPrecisionsOf(toks.map((t) => t.text).join(" "), (schema, name) => ctx.host.lookupTable(schema, name)),
        ...columns
      }
      : {})
  })
  // references to columns named like a text datetime column of another table resolved per query block, as in a client's SQL
  if (textDatetimeColumns !== undefined) markTextDatetimeReferences(tt, (schema, name) => ctx.host.lookupTable(schema, name), textDatetimeColumns, (from, to) => isZonedValue(tt, from, to, textDatetimeColumns))
  if (asQuery) {
    // withRowid: each row's DuckDB row id selected last (a LOB locator's row, plsql/embedded-sql.ts)
    const q = translateQuery(tt, tr, withRowid === true)
    // "lobs": as a client's query, one row id per table whose LOB columns it reads, a join's too (sqlsession.ts)
    const lobTables = withRowid === "lobs" ? new StatementColumns((schema, name) => ctx.host.lookupTable(schema, name)).lobTablesOf(tt, q.shape) : withRowid === "tables" ? rowidTablesOf(ctx, q.shape) : []
    const lobRowids = lobTables.length > 0 ? lobTables.map((k) => rowidOf(q.shape.from, q.shape.from[k]!)) : withRowid === true ? ["rowid"] : []
    const withLobRowids = lobTables.length > 0 ? translateQuery(tt, tr, lobRowids).sql : q.sql
    const translate = (rowids: ReadonlyArray<string>, extra: ReadonlyArray<string>) => translateQuery(tt, tr, rowids, extra).sql
    return { sql: withLobRowids, params, shape: q.shape, translate, lobRowids, ...(formats !== undefined && { formatExpressions: true as const }), ...(lobTables.length > 0 && { lobTables }) }
  }
  return { sql: tr.range(0, tt.length), params, ...(formats !== undefined && { formatExpressions: true as const }) }
}

/** A SQL statement's object-table rewrites, as a client's get them (object-tables.ts, object-references.ts). */
const objectTableRewrites = (ctx: Frame, toks: Expr): Expr => {
  const lookup = (schema: string | undefined, name: string) => ctx.host.lookupTable(schema, name)
  return rewriteObjectReferences(expandObjectTableWrites(toks, lookup), { lookup, tables: () => ctx.host.db.catalog.allTables() })
}
