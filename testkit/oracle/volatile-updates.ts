/**
 * UPDATEs and MERGEs whose values are computed by functions that give a new value each time they run (`seq.NEXTVAL`,
 * SYSDATE, SYSTIMESTAMP, SYS_GUID, DBMS_RANDOM): as for INSERTs (volatile-inserts.ts), the replay log of the
 * transaction (session-transaction.ts) must write the values the statement wrote, not run it again, or a later failed
 * statement, whose recovery replays the log, would change rows the transaction already wrote and advance sequences
 * twice. Oracle rolls back only the failed statement ("Statement-Level Atomicity", Database Concepts, "Transactions").
 *
 * DuckDB's RETURNING names no row id, so such a statement is computed before it writes: a SELECT gives the row id of
 * each row it changes with the new values (evaluating the volatile calls once), and an `UPDATE ... FROM (VALUES ...)`
 * by those row ids writes them. The replay runs those UPDATEs again; the transaction's earlier statements replay to
 * the same row ids, so they change the same rows. A MERGE's WHEN NOT MATCHED branch runs as a MERGE of its own whose
 * inserted rows (`RETURNING *`) are logged as INSERTs; a source query calling such a function (or a view whose query
 * calls one) is read once first and the MERGE runs over its rows as literals. A DELETE WHERE is checked over the
 * values computed for the UPDATE (merge-delete-where.ts), and its rows are deleted by row id instead of updated. Rows
 * are updated in place, their RETURNING values read by row id after (in-place-updates.ts); only rows whose key or
 * other indexed column changes are updated with RETURNING. The statements are logged as they ran, RETURNING clause included: with one the
 * engine gives the rows it updates other row ids than without, and the next statement's row ids must meet the
 * replay's rows.
 */
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api"
import { DuckDBBlobValue } from "@duckdb/node-api"
import type { ColumnInfo, Session as EngineSession } from "../engine/index.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isOp, matchParen, significantTokensOf, type Tok } from "./lexer.ts"
import { ora } from "./errors.ts"
import { MERGE_DELETE_WHERE } from "./merge-delete-where.ts"
import { isVolatileSql, type ReplayInsert, replayInserts } from "./volatile-inserts.ts"

/** One `column = expression` of a SET clause (engine text). */
export interface Assignment {
  readonly column: string
  /** The column's Oracle name. */
  readonly name: string
  readonly expr: string
}

/** A WHEN MATCHED branch of a MERGE: its extra condition and its action (an UPDATE's assignments, or DELETE). */
interface MatchedBranch {
  readonly condition: string | undefined
  readonly update: ReadonlyArray<Assignment> | undefined
}

/** A volatile UPDATE or MERGE taken apart (engine text); `returned` names the columns its RETURNING lists. */
export type VolatileWrite =
  | { readonly kind: "update"; readonly target: string; readonly assignments: ReadonlyArray<Assignment>; readonly where: string | undefined; readonly returned: ReadonlyArray<string> }
  | {
      readonly kind: "merge"
      readonly target: string
      readonly table: string
      readonly ref: string
      readonly source: string
      /** A source query calling a volatile function, with its alias: read once before the MERGE runs. */
      readonly sourceQuery: { readonly query: string; readonly alias: string } | undefined
      readonly on: string
      readonly matched: ReadonlyArray<MatchedBranch>
      readonly notMatched: string | undefined
      readonly returned: ReadonlyArray<string>
    }

/** What a volatile write did: rows changed, the RETURNING rows (columns `returned`), the statements for the replay log. */
export interface VolatileOutcome {
  readonly count: number
  readonly rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  readonly replay: ReadonlyArray<ReplayInsert>
}

/** A statement (engine text) as its significant tokens and the text between two of them. */
const statement = (sql: string) => {
  const toks = significantTokensOf(sql)
  if (toks === undefined) return undefined
  return { toks, text: (a: number, b: number) => sql.slice(toks[a]?.pos ?? sql.length, toks[b]?.pos ?? sql.length).trim() }
}

/** The positions of the top-level (outside parentheses) tokens `pick` accepts. */
const topLevel = (toks: ReadonlyArray<Tok>, from: number, to: number, pick: (t: Tok) => boolean): Array<number> => {
  const out: Array<number> = []
  let depth = 0
  for (let k = from; k < to; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && pick(t)) out.push(k)
  }
  return out
}

/** `c = e, ...` (tokens `from` .. `to`) as assignments; undefined for another form (`(a, b) = (SELECT ...)`). */
const assignments = (s: NonNullable<ReturnType<typeof statement>>, from: number, to: number): Array<Assignment> | undefined => {
  const commas = topLevel(s.toks, from, to, (t) => isOp(t, ","))
  const out: Array<Assignment> = []
  for (const [i, start] of [from, ...commas.map((c) => c + 1)].entries()) {
    const end = commas[i] ?? to
    const name = s.toks[start]
    if (name === undefined || (name.kind !== "ident" && name.kind !== "qident") || !isOp(s.toks[start + 1], "=") || start + 2 >= end) return undefined
    out.push({ column: name.text, name: oracleName(name), expr: s.text(start + 2, end) })
  }
  return out
}

/** The quoted column names of a `RETURNING "A", "B"` list (as session-key-claims.ts appends it); undefined for other lists. */
const returnedNames = (text: string): Array<string> | undefined => {
  if (!/^\s*"(?:[^"]|"")*"(?:\s*,\s*"(?:[^"]|"")*")*\s*$/.test(text)) return undefined
  return [...text.matchAll(/"((?:[^"]|"")*)"/g)].map((q) => q[1]!.replace(/""/g, '"'))
}

/**
 * The volatile UPDATE or MERGE `sql` (translated) taken apart, or undefined when it calls no volatile function or has
 * a form this module does not rewrite (it then runs as written).
 */
export const volatileWrite = (sql: string): VolatileWrite | undefined => (isVolatileSql(sql) ? writeParts(sql) : undefined)

/** An UPDATE or MERGE `sql` (translated) taken apart, volatile or not; undefined for a form this module does not read. */
export const writeParts = (sql: string): VolatileWrite | undefined => {
  const s = statement(sql)
  if (s === undefined) return undefined
  const { toks } = s
  const returningAt = topLevel(toks, 1, toks.length, (t) => isKw(t, "RETURNING"))[0] ?? toks.length
  const returned = returningAt === toks.length ? [] : returnedNames(s.text(returningAt + 1, toks.length))
  if (returned === undefined) return undefined
  if (isKw(toks[0], "UPDATE")) {
    const update = updateOf(s, returningAt)
    return update === undefined ? undefined : { kind: "update", ...update, returned }
  }
  if (!isKw(toks[0], "MERGE") || !isKw(toks[1], "INTO")) return undefined
  const usingAt = topLevel(toks, 2, returningAt, (t) => isKw(t, "USING"))[0]
  const onAt = usingAt === undefined ? undefined : topLevel(toks, usingAt + 1, returningAt, (t) => isKw(t, "ON"))[0]
  // the branches: `WHEN [NOT] MATCHED`, not the WHEN of a CASE in them (a format model expression's, format-model-sites.ts)
  const whens = onAt === undefined ? [] : topLevel(toks, onAt + 1, returningAt, (t) => isKw(t, "WHEN")).filter((w) => isKw(toks[w + 1], "MATCHED") || (isKw(toks[w + 1], "NOT") && isKw(toks[w + 2], "MATCHED")))
  if (usingAt === undefined || onAt === undefined || whens.length === 0 || usingAt < 3) return undefined
  // a volatile source, which the updates and the inserts would each evaluate, is read once into a VALUES list
  const source = s.text(usingAt + 1, onAt)
  let sourceQuery: { readonly query: string; readonly alias: string } | undefined
  if (isVolatileSql(source)) {
    const close = isOp(toks[usingAt + 1], "(") ? matchParen(toks, usingAt + 1) : -1
    const alias = toks[close + 1]
    // an unaliased query names its columns unqualified: any alias of its own will do
    const unaliased = close >= 0 && close + 1 === onAt
    if (!unaliased && (close < 0 || close + 2 !== onAt || alias === undefined || (alias.kind !== "ident" && alias.kind !== "qident"))) return undefined
    sourceQuery = { query: s.text(usingAt + 2, close), alias: unaliased ? "ora_src" : alias!.text }
  }
  const targetToks = toks.slice(2, usingAt)
  const last = targetToks[targetToks.length - 1]!
  if (last.kind !== "ident" && last.kind !== "qident") return undefined
  const aliased = targetToks.length > 1 && !isOp(targetToks[targetToks.length - 2], ".")
  const tableEnd = aliased ? usingAt - 1 - (isKw(toks[usingAt - 2], "AS") ? 1 : 0) : usingAt
  const matched: Array<MatchedBranch> = []
  let notMatched: string | undefined
  for (const [i, w] of whens.entries()) {
    const end = whens[i + 1] ?? returningAt
    const thenAt = topLevel(toks, w + 1, end, (t) => isKw(t, "THEN"))[0]
    if (thenAt === undefined) return undefined
    if (isKw(toks[w + 1], "NOT")) {
      // one insert branch, as Oracle's MERGE has (NOT MATCHED BY SOURCE and other engine forms run as written)
      if (notMatched !== undefined || !isKw(toks[w + 2], "MATCHED") || !isKw(toks[thenAt + 1], "INSERT")) return undefined
      notMatched = s.text(w, end)
      continue
    }
    if (!isKw(toks[w + 1], "MATCHED") || (thenAt !== w + 2 && !isKw(toks[w + 2], "AND"))) return undefined
    const condition = thenAt === w + 2 ? undefined : s.text(w + 3, thenAt)
    if (isKw(toks[thenAt + 1], "DELETE") && thenAt + 2 === end) matched.push({ condition, update: undefined })
    else if (isKw(toks[thenAt + 1], "UPDATE") && isKw(toks[thenAt + 2], "SET")) {
      const set = assignments(s, thenAt + 3, end)
      if (set === undefined) return undefined
      matched.push({ condition, update: set })
    } else return undefined
  }
  return { kind: "merge", target: s.text(2, usingAt), table: s.text(2, tableEnd), ref: last.text, source, sourceQuery, on: s.text(onAt + 1, whens[0]!), matched, notMatched, returned }
}

/** An `UPDATE target SET c = e, ... [WHERE ...]` (tokens before `returningAt`) taken apart; undefined for other forms. */
const updateOf = (s: NonNullable<ReturnType<typeof statement>>, returningAt: number) => {
  const { toks } = s
  const setAt = topLevel(toks, 1, returningAt, (t) => isKw(t, "SET"))[0]
  const whereAt = topLevel(toks, 1, returningAt, (t) => isKw(t, "WHERE"))[0]
  if (setAt === undefined || topLevel(toks, setAt, returningAt, (t) => isKw(t, "FROM")).length > 0) return undefined
  const set = assignments(s, setAt + 1, whereAt ?? returningAt)
  if (set === undefined) return undefined
  return { target: s.text(1, setAt), assignments: set, where: whereAt === undefined ? undefined : s.text(whereAt + 1, returningAt) }
}

/**
 * An UPDATE `sql` (translated) of the form `UPDATE target SET c = e, ... [WHERE ...] [RETURNING ...]` taken apart, its
 * RETURNING list as written (undefined without one); undefined for other forms and statements.
 */
export const updateParts = (sql: string) => {
  const s = statement(sql)
  if (s === undefined || !isKw(s.toks[0], "UPDATE")) return undefined
  const returningAt = topLevel(s.toks, 1, s.toks.length, (t) => isKw(t, "RETURNING"))[0] ?? s.toks.length
  const update = updateOf(s, returningAt)
  return update === undefined ? undefined : { ...update, returning: returningAt === s.toks.length ? undefined : s.text(returningAt + 1, s.toks.length) }
}

/** A DML statement `sql` (translated) as its text before its top-level RETURNING clause and that clause's list (undefined for none). */
export const splitReturning = (sql: string): { readonly body: string; readonly returning: string | undefined } => {
  const s = statement(sql)
  const returningAt = s === undefined ? undefined : topLevel(s.toks, 1, s.toks.length, (t) => isKw(t, "RETURNING"))[0]
  return s === undefined || returningAt === undefined ? { body: sql, returning: undefined } : { body: s.text(0, returningAt), returning: s.text(returningAt + 1, s.toks.length) }
}

/**
 * A MERGE (translated) whose USING names a view whose query calls a volatile function (DBMS_RANDOM, SYS_GUID), taken
 * apart with the view as a source query to read once, as a volatile source query is; undefined for any other.
 */
export const volatileViewMerge = async (engine: EngineSession, sql: string): Promise<VolatileWrite | undefined> => {
  if (!/^\s*MERGE\b/i.test(sql)) return undefined
  const write = writeParts(sql)
  if (write?.kind !== "merge" || write.sourceQuery !== undefined) return undefined
  const toks = significantTokensOf(write.source)
  if (toks === undefined || !toks.every((t, i) => (i % 2 === 1 && i < toks.length - 1 ? isOp(t, ".") : t.kind === "ident" || t.kind === "qident"))) return undefined
  // name, schema.name, either with an alias after it
  const parts = toks.filter((t) => !isOp(t, "."))
  const dotted = toks.length > 1 && isOp(toks[1], ".")
  const name = dotted ? parts[1] : parts[0]
  const alias = parts[dotted ? 2 : 1]
  if (name === undefined || parts.length > (dotted ? 3 : 2)) return undefined
  const plain = (t: Tok) => (t.kind === "qident" ? t.value : t.value.toLowerCase())
  const views = await readAll(engine, "SELECT sql FROM duckdb_views() WHERE NOT internal AND lower(view_name) = lower($1) AND ($2 IS NULL OR lower(schema_name) = lower($2))", [plain(name), dotted ? plain(parts[0]!) : null])
  if (!views.rows.some((row) => isVolatileSql(String(row[0])))) return undefined
  return { ...write, sourceQuery: { query: `SELECT * FROM ${toks.slice(0, dotted ? 3 : 1).map((t) => t.text).join("")}`, alias: (alias ?? name).text } }
}

/** `sql` with its `$n` parameters renumbered 1, 2, … in order of first appearance, with their values and types. */
export const renumbered = (sql: string, params: ReadonlyArray<DuckDBValue> | undefined, types: ReadonlyArray<DuckDBType | undefined> | undefined) => {
  const values: Array<DuckDBValue> = []
  const valueTypes: Array<DuckDBType | undefined> = []
  const numbers = new Map<string, number>()
  const text = sql.replace(/\$(\d+)/g, (_, d: string) => {
    let n = numbers.get(d)
    if (n === undefined) {
      values.push(params?.[Number(d) - 1] ?? null)
      valueTypes.push(types?.[Number(d) - 1])
      n = values.length
      numbers.set(d, n)
    }
    return `$${n}`
  })
  return { sql: text, params: values, types: types === undefined ? undefined : valueTypes }
}

/** Runs `sql` and reads all its rows with their columns. */
export const readAll = async (engine: EngineSession, sql: string, params: ReadonlyArray<DuckDBValue>, types?: ReadonlyArray<DuckDBType | undefined>) => {
  const cursor = await engine.query(sql, params, types)
  const rows: Array<Array<DuckDBValue>> = []
  try {
    for (let chunk = await cursor.next(); chunk !== null; chunk = await cursor.next())
      for (let r = 0; r < chunk.rowCount; r++) rows.push(chunk.columns.map((c) => c.value(r) as DuckDBValue))
  } finally {
    cursor.close()
  }
  return { columns: cursor.columns, rows }
}

/** `v` (of a column typed `type`) as an SQL literal of that type. */
const literal = (v: DuckDBValue, type: string): string => {
  if (v === null) return `CAST(NULL AS ${type})`
  if (v instanceof Uint8Array) return `CAST(from_hex('${Buffer.from(v).toString("hex")}') AS ${type})`
  return `CAST('${String(v).replace(/'/g, "''")}' AS ${type})`
}

/** The rows of `source` (a MERGE's source query) read now, as a derived table of literals under its alias. */
const materializedSource = async (
  engine: EngineSession,
  source: { readonly query: string; readonly alias: string },
  params: ReadonlyArray<DuckDBValue> | undefined,
  types: ReadonlyArray<DuckDBType | undefined> | undefined
): Promise<string> => {
  const query = renumbered(source.query, params, types)
  const read = await readAll(engine, query.sql, query.params, query.types)
  const names = read.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`)
  const typeNames = read.columns.map((c) => c.type.toString())
  if (read.rows.length === 0) return `(SELECT ${names.map((n, i) => `CAST(NULL AS ${typeNames[i]}) AS ${n}`).join(", ")} WHERE FALSE) ${source.alias}`
  const values = read.rows.map((row) => `(${row.map((v, i) => literal(v, typeNames[i]!)).join(", ")})`)
  return `(VALUES ${values.join(", ")}) AS ${source.alias}(${names.join(", ")})`
}

/**
 * A MERGE's WHEN MATCHED branch acting on a joined row (engine text): 1, 2, … for the first branch whose condition
 * holds (as the engine's MERGE picks it), 0 for none.
 */
export const matchedBranch = (write: Extract<VolatileWrite, { kind: "merge" }>): string =>
  `CASE ${write.matched.map((b, k) => `WHEN ${b.condition === undefined ? "TRUE" : `(${b.condition})`} THEN ${k + 1}`).join(" ")} ELSE 0 END`

/** Rows per logged UPDATE (DuckDB's prepared statements take a bounded number of parameters). */
export const ROWS_PER_STATEMENT = 256

/** `ids` (row ids as text) in lists of at most {@link ROWS_PER_STATEMENT}, for `rowid IN (...)` conditions. */
export const rowIdLists = (ids: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (let at = 0; at < ids.length; at += ROWS_PER_STATEMENT) out.push(ids.slice(at, at + ROWS_PER_STATEMENT).join(", "))
  return out
}

/**
 * The select list `returned` read from the rows of `table` whose row ids (as text) are `ids`, after an UPDATE wrote
 * them in place: one row each, or one for them all when the list aggregates them (`RETURNING SUM(x) INTO`, which
 * Oracle allows: S. Feuerstein, "Use RETURNING Clause to Avoid Unnecessary SQL Statements", DZone). A row the engine wrote as a
 * delete and an insert (an indexed column assigned, indexed-columns.ts) has a new row id: that fails the statement
 * rather than lose its row.
 */
export const readByRowIds = async (engine: EngineSession, table: string, returned: string, ids: ReadonlyArray<string>): Promise<Array<Array<DuckDBValue>>> => {
  const rows: Array<Array<DuckDBValue>> = []
  for (const list of rowIdLists(ids)) rows.push(...(await readAll(engine, `SELECT ${returned} FROM ${table} WHERE rowid IN (${list})`, [])).rows)
  if (rows.length >= ids.length) return rows
  const all = `rowid IN (${ids.join(", ")})`
  const present = Number((await engine.queryAll(`SELECT count(*) FROM ${table} WHERE ${all}`))[0]![0])
  if (present < ids.length) throw new Error(`${ids.length - present} of the rows an UPDATE wrote in place have new row ids (an indexed column assigned): their RETURNING values cannot be read`)
  return (await readAll(engine, `SELECT ${returned} FROM ${table} WHERE ${all}`, [])).rows
}

/**
 * `UPDATE target SET ... FROM (VALUES ...)` statements writing `rows` (a row id, then one value per assignment, typed
 * as `columns`) into the rows of those ids, at most {@link ROWS_PER_STATEMENT} rows each.
 */
const updatesByRowId = (target: string, set: ReadonlyArray<string>, columns: ReadonlyArray<ColumnInfo>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Array<ReplayInsert> => {
  const out: Array<ReplayInsert> = []
  const names = ["ora_rid", ...set.map((_, i) => `ora_c${i}`)]
  const assigned = set.map((column, i) => `${column} = ora_v.ora_c${i}`).join(", ")
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const params: Array<DuckDBValue> = []
    const values = rows.slice(at, at + ROWS_PER_STATEMENT).map((row) => {
      const cells = row.map((v, i) => {
        const type = columns[i]!.type.toString()
        if (v === null) return `CAST(NULL AS ${type})`
        params.push(v instanceof Uint8Array ? new DuckDBBlobValue(v) : v)
        return `CAST($${params.length} AS ${type})`
      })
      return `(${cells.join(", ")})`
    })
    out.push({ sql: `UPDATE ${target} SET ${assigned} FROM (VALUES ${values.join(", ")}) AS ora_v(${names.join(", ")}) WHERE rowid = ora_v.ora_rid`, params, types: undefined })
  }
  return out
}

/** The quoted select list of `names` (undefined for none). */
const quotedList = (names: ReadonlyArray<string>): string | undefined => (names.length === 0 ? undefined : names.map((n) => `"${n.replace(/"/g, '""')}"`).join(", "))

/** The RETURNING clause of select list `list` ("" for none). */
const returning = (list: string | undefined): string => (list === undefined ? "" : ` RETURNING ${list}`)

/**
 * Writes `rows` (a row id, then one value per column of `set`, typed as `columns`) into `table` by row id, without the
 * RETURNING clause that would make the engine write them as a delete and an insert (in-place-updates.ts), then reads
 * the select list `returned` (none: undefined) of those rows into `into`; the statements written, for the replay log.
 */
const writeInPlace = async (
  engine: EngineSession,
  table: string,
  set: ReadonlyArray<string>,
  columns: ReadonlyArray<ColumnInfo>,
  rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
  returned: string | undefined,
  into: Array<ReadonlyArray<DuckDBValue>>
): Promise<Array<ReplayInsert>> => {
  const writes = set.length === 0 ? [] : updatesByRowId(table, set, columns, rows)
  for (const w of writes) await engine.execute(w.sql, w.params)
  if (returned !== undefined) into.push(...(await readByRowIds(engine, table, returned, rows.map((row) => String(row[0])))))
  return writes
}

/**
 * Runs the statements `writes`, with the RETURNING clause `returned` ("" for none), gathering the rows returned; the
 * statements as run, for the replay log: the engine gives an UPDATE with RETURNING other row ids than one without,
 * and a later statement's writes by row id must meet the rows the replay leaves where they were.
 */
const runWrites = async (engine: EngineSession, writes: ReadonlyArray<ReplayInsert>, returned: string, into: Array<ReadonlyArray<DuckDBValue>>): Promise<Array<ReplayInsert>> => {
  for (const w of writes) {
    if (returned === "") await engine.execute(w.sql, w.params)
    else into.push(...(await readAll(engine, w.sql + returned, w.params)).rows)
  }
  return returned === "" ? [...writes] : writes.map((w) => ({ ...w, sql: w.sql + returned }))
}

/**
 * Runs the volatile `write` (from {@link volatileWrite}) with `params`: computes the changed rows' new values, writes
 * them by row id, and gives the statements that write them again for the replay log. An UPDATE returns the
 * expressions `returningList` (engine text) when given, else its own RETURNING columns. A MERGE that would act on a
 * target row more than once fails with ORA-30926 (merge-stable-rows.ts). Rows are written in place: a column of
 * `keyColumns` (those an index covers, keys included, Oracle names: indexed-columns.ts) assigned its own value is left
 * out of a row's write, and only a row where one really changes is written with RETURNING (in-place-updates.ts).
 */
export const runVolatileWrite = async (
  engine: EngineSession,
  write: VolatileWrite,
  params: ReadonlyArray<DuckDBValue> | undefined,
  types: ReadonlyArray<DuckDBType | undefined> | undefined,
  returningList?: string,
  keyColumns: ReadonlyArray<string> = []
): Promise<VolatileOutcome> => {
  const returnedRows: Array<ReadonlyArray<DuckDBValue>> = []
  if (write.kind === "update") {
    const update = write
    const list = returningList ?? quotedList(update.returned)
    const exprs = update.assignments.map((a, i) => `(${a.expr}) AS ora_c${i}`).join(", ")
    // whether a row keeps the values of the key columns assigned, over the values computed once
    const keys = update.assignments.flatMap((a, i) => (keyColumns.includes(a.name) ? [i] : []))
    const olds = keys.map((i, j) => `, ${update.assignments[i]!.column} AS ora_k${j}`).join("")
    const stays = keys.length === 0 ? "TRUE" : keys.map((i, j) => `ora_c${i} IS NOT DISTINCT FROM ora_k${j}`).join(" AND ")
    const compute = renumbered(`SELECT *, ${stays} AS ora_stays FROM (SELECT rowid AS ora_rid, ${exprs}${olds} FROM ${update.target}${update.where === undefined ? "" : ` WHERE ${update.where}`}) ora_w`, params, types)
    const computed = await readAll(engine, compute.sql, compute.params, compute.types)
    const width = 1 + update.assignments.length
    const kept = computed.rows.filter((row) => row[row.length - 1] === true)
    const moved = computed.rows.filter((row) => row[row.length - 1] !== true).map((row) => row.slice(0, width))
    const others = [0, ...update.assignments.flatMap((_, i) => (keys.includes(i) ? [] : [i + 1]))]
    const replay = kept.length === 0 ? [] : await writeInPlace(engine, update.target, others.slice(1).map((i) => update.assignments[i - 1]!.column), others.map((i) => computed.columns[i]!), kept.map((row) => others.map((i) => row[i]!)), list, returnedRows)
    const writes = updatesByRowId(update.target, update.assignments.map((a) => a.column), computed.columns.slice(0, width), moved)
    replay.push(...(await runWrites(engine, writes, returning(list), returnedRows)))
    return { count: computed.rows.length, rows: returnedRows, replay }
  }
  if (write.sourceQuery !== undefined) write = { ...write, source: await materializedSource(engine, write.sourceQuery, params, types), sourceQuery: undefined }
  // DELETE WHERE (merge-delete-where.ts): not a branch of its own here but checked, as written, over the rows its
  // UPDATE branch wrote, once they are written, so that it sees the values written, not a new NEXTVAL or DBMS_RANDOM
  const deleteWhere = deleteWhereBranch(write)
  if (deleteWhere !== undefined) write = { ...write, matched: write.matched.filter((_, k) => k !== deleteWhere.at) }
  const selector = matchedBranch(write)
  const columns = write.matched.flatMap((b, k) => (b.update ?? []).map((a, i) => `CASE WHEN ${selector} = ${k + 1} THEN (${a.expr}) END AS ora_b${k}_${i}`))
  const computed =
    write.matched.length === 0
      ? undefined
      : await (async () => {
          const compute = renumbered(`SELECT ${write.ref}.rowid AS ora_rid, ${selector} AS ora_branch${columns.map((c) => `, ${c}`).join("")} FROM ${write.source} JOIN ${write.target} ON ${write.on}`, params, types)
          return readAll(engine, compute.sql, compute.params, compute.types)
        })()
  const acting = (computed?.rows ?? []).filter((row) => row[1] !== 0)
  if (new Set(acting.map((row) => row[0])).size < acting.length) throw ora.unstableMergeRows()
  const replay: Array<ReplayInsert> = []
  let count = acting.length
  // the inserts first: the target's rows are still those the ON condition matched above
  if (write.notMatched !== undefined) {
    const insert = renumbered(`MERGE INTO ${write.target} USING ${write.source} ON ${write.on} ${write.notMatched} RETURNING *`, params, types)
    const inserted = await readAll(engine, insert.sql, insert.params, insert.types)
    count += inserted.rows.length
    replay.push(...replayInserts(write.table, inserted.columns, inserted.rows))
    const at = write.returned.map((name) => inserted.columns.findIndex((c) => c.name === name))
    returnedRows.push(...inserted.rows.map((row) => at.map((i) => row[i] ?? null)))
  }
  const writes: Array<ReplayInsert> = []
  const doomed = deleteWhere === undefined ? new Set<string>() : await deletedAfterUpdate(engine, write, deleteWhere, computed!.columns, acting, params, types)
  // a row DELETE WHERE removes is updated, then deleted: only the delete is written (its row counted, as updated, once)
  const ids = [...doomed]
  const removals: Array<ReplayInsert> = []
  for (let at = 0; at < ids.length; at += ROWS_PER_STATEMENT) removals.push({ sql: `DELETE FROM ${write.table} WHERE rowid IN (${ids.slice(at, at + ROWS_PER_STATEMENT).join(", ")})`, params: [], types: undefined })
  const list = quotedList(write.returned)
  replay.push(...(await runWrites(engine, removals, returning(list), returnedRows)))
  for (const [k, branch] of write.matched.entries()) {
    const rows = acting.filter((row) => row[1] === k + 1 && !doomed.has(String(row[0])))
    if (rows.length === 0) continue
    if (branch.update === undefined) {
      for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT)
        writes.push({ sql: `DELETE FROM ${write.table} WHERE rowid IN (${rows.slice(at, at + ROWS_PER_STATEMENT).map((row) => String(row[0])).join(", ")})`, params: [], types: undefined })
      continue
    }
    const first = 2 + write.matched.slice(0, k).reduce((n, b) => n + (b.update?.length ?? 0), 0)
    const picked = [0, ...branch.update.map((_, i) => first + i)]
    const set = branch.update.map((a) => a.column)
    const values = rows.map((row) => picked.map((i) => row[i]!))
    // a branch assigning a key column may change it: written with RETURNING, which its rewritten rows need
    if (branch.update.some((a) => keyColumns.includes(a.name))) writes.push(...updatesByRowId(write.table, set, picked.map((i) => computed!.columns[i]!), values))
    else replay.push(...(await writeInPlace(engine, write.table, set, picked.map((i) => computed!.columns[i]!), values, list, returnedRows)))
  }
  replay.push(...(await runWrites(engine, writes, returning(list), returnedRows)))
  return { count, rows: returnedRows, replay }
}

/**
 * The row ids (as text) of the rows of the UPDATE branch `deleteWhere.at` whose DELETE WHERE condition holds over the
 * values computed for them (`acting`: row id, branch, then the values of every UPDATE branch, typed as `columns`):
 * the condition as written, over the target with those columns replaced (`SELECT t.* REPLACE (v AS col)`), so that a
 * NEXTVAL or DBMS_RANDOM the SET clause computed is not computed again.
 */
const deletedAfterUpdate = async (
  engine: EngineSession,
  write: Extract<VolatileWrite, { kind: "merge" }>,
  deleteWhere: { readonly at: number; readonly condition: string },
  columns: ReadonlyArray<ColumnInfo>,
  acting: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
  params: ReadonlyArray<DuckDBValue> | undefined,
  types: ReadonlyArray<DuckDBType | undefined> | undefined
): Promise<Set<string>> => {
  const set = write.matched[deleteWhere.at]!.update!
  const first = 2 + write.matched.slice(0, deleteWhere.at).reduce((n, b) => n + (b.update?.length ?? 0), 0)
  const rows = acting.filter((row) => row[1] === deleteWhere.at + 1)
  const out = new Set<string>()
  const names = ["ora_rid", ...set.map((_, i) => `ora_c${i}`)].join(", ")
  const replaced = set.map((a, i) => `ora_v.ora_c${i} AS ${a.column}`).join(", ")
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const values = rows.slice(at, at + ROWS_PER_STATEMENT).map((row) => `(${[`CAST(${String(row[0])} AS BIGINT)`, ...set.map((_, i) => literal(row[first + i] ?? null, columns[first + i]!.type.toString()))].join(", ")})`)
    const updated = `(SELECT ora_t.* REPLACE (${replaced}), ora_v.ora_rid AS ora_rid FROM ${write.table} ora_t JOIN (VALUES ${values.join(", ")}) AS ora_v(${names}) ON ora_t.rowid = ora_v.ora_rid) ${write.ref}`
    const check = renumbered(`SELECT ${write.ref}.ora_rid FROM ${write.source} JOIN ${updated} ON ${write.on} WHERE (${deleteWhere.condition})`, params, types)
    for (const row of (await readAll(engine, check.sql, check.params, check.types)).rows) out.add(String(row[0]))
  }
  return out
}

/**
 * The WHEN MATCHED ... THEN DELETE branch merge-delete-where.ts made of a DELETE WHERE (its condition marked by
 * {@link MERGE_DELETE_WHERE}, the UPDATE branch right after it): its index and its condition as written.
 */
const deleteWhereBranch = (write: Extract<VolatileWrite, { kind: "merge" }>): { readonly at: number; readonly condition: string } | undefined => {
  const at = write.matched.findIndex((b, k) => b.update === undefined && write.matched[k + 1]?.update !== undefined && b.condition !== undefined && b.condition.toLowerCase().includes(MERGE_DELETE_WHERE))
  if (at < 0) return undefined
  const s = statement(write.matched[at]!.condition!)
  const mark = s?.toks.findIndex((t) => t.value.toLowerCase() === MERGE_DELETE_WHERE) ?? -1
  if (s === undefined || mark < 0 || !isOp(s.toks[mark + 1], "(")) return undefined
  const close = matchParen(s.toks, mark + 1)
  const comma = topLevel(s.toks, mark + 2, close, (t) => isOp(t, ","))[0]
  if (close < 0 || comma === undefined) return undefined
  return { at, condition: s.text(comma + 1, close) }
}
