/**
 * A session's statement text translated for the engine: the Oracle rewrites that need the session's tables, schema
 * and time zone (object writes, zoned and exact-number writes, interval targets, attribute access, named types), then
 * the translator (translate.ts) with binds numbered `$1…$n` in source order.
 */
import { perRowSequenceValues } from "./sequence-row-lambdas.ts"
import type { OracleDatabase } from "./database.ts"
import { rewriteBuiltinCalls } from "./builtin-functions.ts"
import { rewriteGroupIds } from "./group-ids.ts"
import { characterBinds } from "./character-arithmetic.ts"
import { zonedBinds } from "./datetime-binds.ts"
import { markTextDatetimeReferences } from "./zoned-references.ts"
import { isZonedValue } from "./zoned-aliases.ts"
import { checkDatetimeLiterals } from "./datetime-literal-checks.ts"
import { datetimeInsertSelects, sessionZoneWrites } from "./datetime-writes.ts"
import { rewriteFloatConditions } from "./float-conditions.ts"
import { padCharOperands } from "./char-operands.ts"
import { checkTextLiterals } from "./text-literal-checks.ts"
import { rewriteHierarchical } from "./hierarchical.ts"
import { markRecursiveWith } from "./recursive-with.ts"
import { rewritePivotClauses } from "./pivot-clauses.ts"
import { rewriteConversionErrors } from "./conversion-errors.ts"
import { intervalColumnTypesOf } from "./interval-exprs.ts"
import { intervalLiteralTargets } from "./interval-writes.ts"
import { rewriteJsonSql } from "./json-sql.ts"
import { rewriteJsonTables } from "./json-table.ts"
import { rewriteCollectionColumns } from "./collection-columns.ts"
import { rewriteApplyJoins, withoutListaggOverflow } from "./apply-joins.ts"
import { rewriteNullTreatment } from "./window-nulls.ts"
import { withRowLimitBlocks, withRowLimitPositions } from "./row-limiting.ts"
import { withAliasAs } from "./select-aliases-as.ts"
import { rewriteRownum } from "./rownum.ts"
import { rewriteFunctionAliases } from "./everyday-functions.ts"
import { ELEMENT_COMPARISONS, type ElementComparison, elementComparison, elementComparisonOf, rewriteMultisetConditions } from "./multiset-conditions.ts"
import { namedColumnsOf, rewriteNestedTableEquality, statementOperandTypes } from "./nested-table-equality.ts"
import type { NamedType } from "./type-shapes.ts"
import { rewriteXmlSql } from "./xml-functions.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "./lexer.ts"
import { rewriteDbmsLob } from "./lob-functions.ts"
import { rewriteMergeDeleteWhere } from "./merge-delete-where.ts"
import { rewriteMergeUpdateWhere } from "./merge-update-where.ts"
import { datetimeOperandCasts } from "./datetime-operand-casts.ts"
import { intervalBindKind, isLocalZoneBind, localZoneArithmetic } from "./local-zone-arithmetic.ts"
import { namedTypesOf, objectColumnTypeOf } from "./named-types.ts"
import { canonicalNumberWrites } from "./number-writes.ts"
import { numberTextWrites } from "./character-writes.ts"
import { datetimeTextWrites } from "./datetime-text-writes.ts"
import { datetimeTextReads, isCharacterBind } from "./datetime-text-reads.ts"
import { expandInsertSelectStar } from "./insert-select-star.ts"
import { datetimeJoins } from "./datetime-joins.ts"
import { blankPaddedWrites, isBlankPadded } from "./char-writes.ts"
import { rewriteMergeSequenceValues } from "./merge-sequence-values.ts"
import { rewriteReusedAliases } from "./reused-aliases.ts"
import { rewriteNumericIntervals } from "./numeric-intervals.ts"
import { rewriteAttributeAccess } from "./object-attributes.ts"
import { dbObjectBindTypes, refuseLiteralObjectWrites } from "./object-writes.ts"
import { expandObjectTableWrites } from "./object-tables.ts"
import { rewriteObjectReferences } from "./object-references.ts"
import { rewriteObjectKeyComparisons } from "./object-key-comparisons.ts"
import { refuseScalarObjectComparisons } from "./object-operand-checks.ts"
import { rewriteOuterJoinPlus } from "./outer-join-plus.ts"
import { bindSpecType } from "./results.ts"
import { rewriteRowSubqueries } from "./row-subqueries.ts"
import { rewriteQuantifiedLists } from "./quantified-lists.ts"
import type { StatementColumns, TableLookup } from "./session-columns.ts"
import type { BindSpec } from "./statement.ts"
import { makeTranslator } from "./translate.ts"
import { Dty } from "./types.ts"

/** A translated statement: its tokens, the engine text between two of them, and its bind names in order. */
export interface TranslatedStatement {
  toks: Array<Tok>
  text: (from: number, to: number) => string
  binds: Array<string>
}

/** What translating needs from the session, as it is when the statement runs. */
export interface TranslationContext {
  readonly db: OracleDatabase
  readonly schema: string
  readonly sessionTz: string
  readonly columns: StatementColumns
  readonly lookupTable: TableLookup
}

/**
 * Translates an Oracle expression/statement fragment with positional binds; `specs` (of a DML request's binds)
 * tell which binds are NUMBERs, whose quotients are computed on every digit as in queries.
 */
export const translateStatement = (ctx: TranslationContext, sql: string, specs: ReadonlyArray<BindSpec> | undefined, source: ReadonlyArray<Tok>): TranslatedStatement => {
  const lookup = ctx.lookupTable
  const rewritten = localZoneArithmetic(datetimeOperandCasts(unqualifySetTargets(rewriteRowSubqueries(rewriteQuantifiedLists(rewriteNumericIntervals([...rewriteMergeSequenceValues(rewriteMergeUpdateWhere(rewriteMergeDeleteWhere(expandObjectTableWrites(source, lookup))))])))), lookup, (n) => specs?.[n - 1]?.dty), lookup, (n) => intervalBindKind(specs?.[n - 1]), (n) => isLocalZoneBind(specs?.[n - 1]))
  refuseLiteralObjectWrites(rewritten, lookup, (name) => namedTypesOf(ctx.db).lookup(ctx.schema, undefined, name), dbObjectBindTypes(rewritten, specs, () => namedTypesOf(ctx.db).all()))
  // USING / NATURAL joins over zoned columns as ON joins by instant (datetime-joins.ts), as in queries
  const written = blankPaddedWrites(intervalLiteralTargets(datetimeInsertSelects(sessionZoneWrites(datetimeTextWrites(numberTextWrites(canonicalNumberWrites(expandInsertSelectStar(datetimeJoins(datetimeTextReads(rewritten, lookup, (n) => isCharacterBind(specs?.[n - 1])), lookup), lookup), lookup), lookup), lookup, specs), lookup), lookup), lookup), lookup)
  const { toks, tr, binds } = bindNumberingTranslator(ctx, written, sql, specs)
  // NEXTVAL / CURRVAL of one sequence in a block sequence-rows.ts left as it is: one value per row
  return { toks, text: (a, b) => perRowSequenceValues(tr.range(a, b)), binds }
}

/** How the elements of the statement's collection columns compare, by column name (multiset-conditions.ts; read when asked). */
const multisetElements = (sql: string, columns: TranslationContext["columns"], named: () => ReadonlyMap<string, NamedType>) => {
  let kinds: Map<string, ElementComparison> | undefined
  return (column: string): ElementComparison => {
    kinds ??= new Map(ELEMENT_COMPARISONS.flatMap((how) => [...columns.columnsOf(sql, (t) => elementComparison(t) === how)].map((c) => [c, how] as const)))
    return kinds.get(column) ?? namedElements(named().get(column))
  }
}

/** The VARRAY type of a column of the statement's tables, by column name (multiset-conditions.ts refuses it). */
const varrayColumns = (named: () => ReadonlyMap<string, NamedType>) => (column: string): NamedType | undefined => {
  const type = named().get(column)
  return type?.kind === "varray" ? type : undefined
}

/** Objects compared by a key (multiset-conditions.ts objectKey) when their type needs one, else "text". */
const namedElements = (named: NamedType | undefined): ElementComparison => {
  const how = elementComparisonOf(named)
  return typeof how === "object" ? how : "text"
}

/** IN, DISTINCT, GROUP BY and set operations of objects without a MAP or ORDER method by their keys (object-key-comparisons.ts). */
const objectKeyComparisons = (ctx: TranslationContext, toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const types = namedTypesOf(ctx.db)
  return rewriteObjectKeyComparisons(toks, ctx.lookupTable, (name) => types.lookup(ctx.schema, undefined, name), () => types.all())
}

/**
 * The token rewrites every query gets before its translation (PIVOT / UNPIVOT, outer joins written with (+), hierarchical queries,
 * JSON_TABLE, SQL/XML, SQL/JSON, built-in calls, DBMS_LOB functions, float conditions, object attribute access): also
 * those of the query of a CREATE VIEW / CREATE TABLE ... AS.
 */
export const queryTokenRewrites = (ctx: TranslationContext, sql: string, source: ReadonlyArray<Tok>, specs?: ReadonlyArray<BindSpec>): ReadonlyArray<Tok> => {
  const lookup = ctx.lookupTable
  const columns = ctx.columns
  const collections = columns.columnsOf(sql, (t) => t.named?.kind === "table" || t.named?.kind === "varray")
  if (columns.columnsOf(sql, (t) => t.named?.kind === "object").size > 0) refuseScalarObjectComparisons(source, lookup, (name) => namedTypesOf(ctx.db).lookup(ctx.schema, undefined, name), specs)
  let namedColumns: ReadonlyMap<string, NamedType> | undefined
  const named = () => (namedColumns ??= namedColumnsOf(tokenize(sql), lookup))
  return markRecursiveWith(rewriteAttributeAccess(rewriteFloatConditions(rewriteDbmsLob(rewriteBuiltinCalls(rewriteConversionErrors(rewriteJsonSql(rewriteXmlSql(rewriteJsonTables(rewriteCollectionColumns(rewriteHierarchical(rewriteOuterJoinPlus(rewriteApplyJoins(withoutListaggOverflow(rewriteNullTreatment(withAliasAs(withRowLimitPositions(withRowLimitBlocks(rewriteNestedTableEquality(rewriteMultisetConditions(padCharOperands(rewriteRownum(rewriteFunctionAliases(rewriteReusedAliases(rewriteGroupIds(rewritePivotClauses(objectKeyComparisons(ctx, rewriteObjectReferences(source, { lookup, tables: () => ctx.db.catalog.allTables() })), lookup)), lookup))), (schema, name) => lookup(schema, name), undefined, specs === undefined ? undefined : (n) => specs[n]?.dty === Dty.CHAR), collections, multisetElements(sql, columns, named), varrayColumns(named)), statementOperandTypes(source, lookup, (name) => namedTypesOf(ctx.db).lookup(ctx.schema, undefined, name))))))))), lookup), lookup), lookup)), columns.columnsOf(sql, (t) => t.named?.kind === "xmltype")), ctx.db.settings.version, columns.columnsOfKind(sql, "json"), columns.jsonCheckedColumnsOf(sql))), ctx.schema))), (schema, name) => lookup(schema, name), objectColumnTypeOf(ctx.db, ctx.schema)))
}

/**
 * A translator over `tokens` whose bind variables become `$1…$n`, numbered in source order; `specs` (of a query's
 * binds, by number) tell which are NUMBERs, divided on every digit.
 */
export const bindNumberingTranslator = (ctx: TranslationContext, source: ReadonlyArray<Tok>, sql: string, specs?: ReadonlyArray<BindSpec>) => {
  const lookup = ctx.lookupTable
  const columns = ctx.columns
  const attributes = queryTokenRewrites(ctx, sql, source, specs)
  checkDatetimeLiterals(source)
  checkTextLiterals(source)
  const tokens = namedTypesOf(ctx.db).rewriteConstructors(ctx.schema, attributes)
  const textDatetimeColumns = columns.textDatetimeColumnsOf(sql)
  // references to columns named like a text datetime column of another table resolved per query block
  const sig = significant(tokens)
  markTextDatetimeReferences(sig, lookup, textDatetimeColumns, (from, to) => isZonedValue(sig, from, to, textDatetimeColumns))
  const binds: Array<string> = []
  const numbers = new Map<Tok, number>()
  const { toks, tr } = makeTranslator(tokens, {
    bind: (name, tok) => {
      let n = numbers.get(tok)
      if (n === undefined) {
        binds.push(name)
        n = binds.length
        numbers.set(tok, n)
      }
      return `$${n}`
    },
    dbTimeZone: ctx.db.settings.dbTimeZone,
    dateColumns: columns.dateColumnsOf(sql),
    exactIntervals: columns.exactIntervalsOf(sql),
    exactIntervalColumns: columns.exactIntervalColumnsOf(sql),
    intervalColumnTypes: intervalColumnTypesOf(sql, (schema, name) => lookup(schema, name)),
    dayColumns: columns.dayColumnsOf(sql),
    intervalColumns: columns.columnsOf(sql, (t) => t.kind === "intervalds" || t.kind === "intervalym"),
    localZoneColumns: columns.columnsOfKind(sql, "timestampltz"),
    timestampPrecisions: columns.timestampPrecisionsOf(sql),
    negativeScaleColumns: columns.negativeScaleColumnsOf(sql),
    sessionTimeZone: ctx.sessionTz,
    binaryColumns: columns.binaryColumnsOf(sql),
    exactNumberColumns: columns.exactNumberColumnsOf(sql),
    boundedNumberColumns: columns.boundedNumberColumnsOf(sql),
    ...(specs !== undefined ? { numberBind: (n: number) => bindSpecType(specs[n - 1])?.kind === "number", datetimeBind: zonedBinds(specs), ...characterBinds(specs) } : {}),
    characterColumns: columns.columnsOf(sql, (t) => t.kind === "varchar" || t.kind === "nvarchar"),
    blankPaddedColumns: blankPaddedColumnsOf(columns, sql),
    textDatetimeColumns
  })
  // numbered in source order, which rewrites that move clauses (hierarchical.ts, outer-join-plus.ts) keep in `pos`
  toks
    .flatMap((t, k) => (t.kind === "bind" ? [{ pos: t.pos, k }] : []))
    .sort((a, b) => a.pos - b.pos)
    .forEach(({ k }) => tr.range(k, k + 1))
  return { toks, tr, binds }
}

/**
 * UPDATE/MERGE: Oracle allows `SET alias.col = ...`; DuckDB wants the bare column name, so the qualifier of
 * SET targets is dropped.
 */
export const unqualifySetTargets = (all: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "UPDATE", "MERGE")) return all
  const drop = new Set<Tok>()
  let inSet = false
  let depth = 0
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (isKw(t, "SET")) {
      inSet = true
      continue
    }
    if (isKw(t, "WHERE", "WHEN", "RETURNING", "RETURN")) inSet = false
    const prev = sig[k - 1]
    if (inSet && depth === 0 && (isKw(prev, "SET") || isOp(prev, ",")) && (t.kind === "ident" || t.kind === "qident") && isOp(sig[k + 1], ".") && isOp(sig[k + 3], "=")) {
      drop.add(t)
      drop.add(sig[k + 1]!)
    }
  }
  return all.filter((t) => !drop.has(t))
}



/** The CHAR / NCHAR column names of the tables `sql` mentions that no VARCHAR2 / NVARCHAR2 column of them shares (DUMP's type 96: dump-operands.ts). */
const blankPaddedColumnsOf = (columns: StatementColumns, sql: string): ReadonlySet<string> => {
  const varying = columns.columnsOf(sql, (t) => (t.kind === "varchar" || t.kind === "nvarchar") && !isBlankPadded(t))
  return new Set([...columns.columnsOf(sql, isBlankPadded)].filter((c) => !varying.has(c)))
}
