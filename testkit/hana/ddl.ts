/**
 * HANA DDL translated: CREATE TABLE (declared types kept as column comments, declared lengths and date ranges as
 * CHECKs, identity columns as sequences, row store, temporary tables, LIKE, AS query), CREATE VIEW / SCHEMA / USER,
 * DROP, and ALTER TABLE's parenthesized ADD / DROP.
 */
import { DATE_OUT_OF_RANGE, HanaError, VALUE_TOO_LARGE } from "./errors.ts"
import { identityDefault } from "./identity-values.ts"
import { TICKS_END, ticksOfText } from "./longdate.ts"
import { identOf, matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { encodeName, quoteName, quoteString } from "./names.ts"
import { translateQuery } from "./query.ts"
import { rewrite } from "./sql-rewrite.ts"
import { distinctConstraintNames, inlineNamedConstraint, namedConstraint } from "./table-changes.ts"
import type { NamedConstraint } from "./table-changes.ts"
import { dropColumnOptions, recordColumnOptions, splitColumnClauses } from "./column-options.ts"
import { alterTableClauses, recordTableOptions, tableOptions } from "./table-clauses.ts"
import type { DeclaredColumn, SessionValues, Translated } from "./translated.ts"
import { typeAt } from "./type-syntax.ts"
import type { HanaType } from "./types.ts"
import { typeText } from "./types.ts"

const CHARACTER_TYPES = new Set(["VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "ALPHANUM", "SHORTTEXT"])
const BINARY_TYPES = new Set(["VARBINARY", "BINARY"])

/**
 * A CHECK that enforces a declared length (DuckDB's VARCHAR(n) does not), so an over-long value fails as in HANA with
 * 274 "inserted value too large for column" (mapped from the CHECK failure in errors.ts).
 */
/** The CHECK (after a space) enforcing a column's declared length, or "" when its type has none. */
export const lengthCheck = (column: string, type: HanaType): string => {
  if (type.name === "TIMESTAMP") {
    // Ticks (longdate.ts): the range ends with the tick after 9999-12-31 23:59:59.9999999.
    const c = quoteName(column)
    return ` CHECK (CASE WHEN ${c} < ${TICKS_END} THEN true ELSE error(${quoteString(DATE_OUT_OF_RANGE)} || CAST(${c} AS VARCHAR)) END)`
  }
  if (DATED_TYPES.has(type.name)) {
    // HANA's dates run from 0001-01-01 to 9999-12-31 (SAP HANA SQL Reference, "Datetime Data Types"); DuckDB's go
    // further. The check raises HANA's 303 text (errors.ts DATE_OUT_OF_RANGE).
    const c = quoteName(column)
    return ` CHECK (CASE WHEN ${c} >= DATE '0001-01-01' AND ${c} < DATE '10000-01-01' THEN true ELSE error(${quoteString(DATE_OUT_OF_RANGE)} || CAST(${c} AS VARCHAR)) END)`
  }
  if (type.length <= 0) return ""
  const fn = CHARACTER_TYPES.has(type.name) ? "length" : BINARY_TYPES.has(type.name) ? "octet_length" : undefined
  if (fn === undefined) return ""
  // The check raises HANA's 274 text naming the column and the value (errors.ts valueTooLarge).
  const value = fn === "length" ? quoteName(column) : `upper(hex(${quoteName(column)}))`
  const text = quoteString(`${VALUE_TOO_LARGE}${column}" column with the value '`)
  return ` CHECK (CASE WHEN ${fn}(${quoteName(column)}) <= ${type.length} THEN true ELSE error(${text} || ${value} || ${quoteString("'")}) END)`
}

/**
 * A TIMESTAMP column's `DEFAULT '…'` / `DEFAULT TIMESTAMP '…'` as the ticks it stores (longdate.ts), computed here:
 * a stored default cannot call the session's macros.
 */
export const timestampDefault = (type: HanaType, tail: readonly Token[]): Token[] => {
  const out = [...tail]
  if (type.name !== "TIMESTAMP") return out
  const at = out.findIndex((t) => upper(t) === "DEFAULT")
  const typed = ["TIMESTAMP", "LONGDATE"].includes(upper(out[at + 1])) ? 1 : 0
  const literal = at < 0 ? undefined : out[at + 1 + typed]
  const ticks = literal?.t === "string" ? ticksOfText(literal.v) : undefined
  if (ticks !== undefined) out.splice(at + 1, 1 + typed, { t: "number", v: `CAST(${ticks} AS UBIGINT)` })
  return out
}

/** Types holding a date, whose year HANA limits to 1..9999. */
const DATED_TYPES = new Set(["DATE", "SECONDDATE", "TIMESTAMP", "LONGDATE", "DAYDATE"])
/** Reads a possibly schema-qualified name at tokens[i]; returns [schema, name, tokens consumed]. */
export const qualifiedName = (tokens: readonly Token[], i: number): [string | undefined, string, number] => {
  const first = identOf(tokens[i])
  if (first === undefined) throw HanaError.syntax(`identifier expected near ${tokens[i]?.v ?? "<end>"}`, 0)
  if (tokens[i + 1]?.t === "op" && tokens[i + 1]!.v === ".") {
    const second = identOf(tokens[i + 2])
    if (second === undefined) throw HanaError.syntax("identifier expected after '.'", 0)
    return [first, second, 3]
  }
  return [undefined, first, 1]
}

/** A DuckDB name of a possibly schema-qualified table. */
export const qualified = (schema: string | undefined, name: string): string =>
  schema === undefined ? quoteName(name) : `${quoteName(schema)}.${quoteName(name)}`

/** CREATE USER / SCHEMA / VIEW / SEQUENCE / INDEX / TABLE (columns, LIKE, AS query). */
export const translateCreate = (all: Token[], session: SessionValues): Translated => {
  let i = 1
  const w = (k: number): string => upper(all[k])
  if (w(i) === "USER") {
    const user = identOf(all[i + 1])
    const pwIdx = all.findIndex((t) => upper(t) === "PASSWORD")
    const pw = all[pwIdx + 1]
    if (user === undefined || pwIdx < 0 || pw === undefined) throw HanaError.syntax("CREATE USER <name> PASSWORD <password> expected", 0)
    return { kind: "createUser", user, password: pw.t === "string" ? pw.v : pw.t === "qident" ? pw.v : pw.v }
  }
  if (w(i) === "SCHEMA") {
    const name = identOf(all[i + 1])
    if (name === undefined) throw HanaError.syntax("schema name expected", 0)
    return { kind: "ddl", sql: `CREATE SCHEMA ${quoteName(name)}`, params: 0 }
  }
  if (w(i) === "OR" && w(i + 1) === "REPLACE") i += 2
  let temporary = false
  let local = false
  if (w(i) === "GLOBAL" && w(i + 1) === "TEMPORARY") {
    temporary = true
    i += 2
  } else if (w(i) === "LOCAL" && w(i + 1) === "TEMPORARY") {
    temporary = true
    local = true
    i += 2
  }
  if (w(i) === "HISTORY") i++
  const rowStore = w(i) === "ROW"
  if (w(i) === "COLUMN" || w(i) === "ROW") i++
  if (w(i) === "VIEW") {
    const [schema, name, used] = qualifiedName(all, i + 1)
    const as = all.findIndex((t, k) => k > i + used && upper(t) === "AS")
    const sql = rewrite(all, session)
    if (as < 0) return { kind: "ddl", sql, params: 0 }
    return { kind: "ddl", sql, params: 0, view: { target: qualified(schema, name), query: rewrite(all.slice(as + 1), session) } }
  }
  if (w(i) === "SEQUENCE" || w(i) === "INDEX" || (w(i) === "UNIQUE" && w(i + 1) === "INDEX")) {
    return { kind: "ddl", sql: rewrite(all, session), params: 0 }
  }
  if (w(i) !== "TABLE") throw HanaError.syntax(`incorrect syntax near "${all[i]?.v ?? "<end>"}"`, 0)
  const [schema, name, used] = qualifiedName(all, i + 1)
  if (local && (schema !== undefined || !name.startsWith("#"))) {
    throw HanaError.syntax("local temporary table name must start with #", 0)
  }
  if (!local && name.startsWith("#")) throw HanaError.syntax("only local temporary tables can start with #", 0)
  i += 1 + used
  const target = local ? quoteName(name) : qualified(schema, name)
  const create = local ? "CREATE TEMP TABLE" : "CREATE TABLE"
  const rest = all.slice(i)
  if (upper(rest[0]) === "LIKE") {
    const [ls, ln, lu] = qualifiedName(rest, 1)
    const withData = upper(rest[1 + lu]) === "WITH" && upper(rest[2 + lu]) === "DATA"
    const from = qualified(ls, ln)
    return {
      kind: "ddl",
      sql: `${create} ${target} AS SELECT * FROM ${from}${withData ? "" : " LIMIT 0"}`,
      params: 0,
      copyTypes: { from, to: target },
      declaredLengths: { table: target }
    }
  }
  if (upper(rest[0]) === "AS") {
    let q = rest.slice(1)
    let noData = false
    const wi = q.findIndex((t, k) => upper(t) === "WITH" && (upper(q[k + 1]) === "DATA" || (upper(q[k + 1]) === "NO" && upper(q[k + 2]) === "DATA")))
    if (wi >= 0) {
      noData = upper(q[wi + 1]) === "NO"
      q = q.slice(0, wi)
    }
    const query = translateQuery(q, session)
    if (query.kind !== "query") throw HanaError.syntax("query expected", 0)
    return {
      kind: "ddl",
      sql: `${create} ${target} AS ${query.sql}${noData ? " LIMIT 0" : ""}`,
      params: 0,
      view: { target, query: query.sql },
      declaredLengths: { table: target }
    }
  }
  if (!(rest[0]?.t === "op" && rest[0].v === "(")) throw HanaError.syntax("column list expected", 0)
  const close = matching(rest, 0)
  // DuckDB looks an unqualified reference to the table being created up in its own main schema, not the schema the
  // table goes to (the INSERT then fails with "Table … does not exist"), so a self-reference names the schema.
  const selfReferencing = rest.slice(1, close).map((t, k, list) =>
    !local && upper(list[k - 1]) === "REFERENCES" && identOf(t) === name && !(list[k + 1]?.t === "op" && list[k + 1]!.v === ".")
      ? [{ t: "qident" as const, v: schema ?? session.schema }, { t: "op" as const, v: "." }, t]
      : [t]
  )
  const elements = splitTopLevel(selfReferencing.flat())
  const defs: string[] = []
  const declared: DeclaredColumn[] = []
  const sequences: string[] = []
  const named: NamedConstraint[] = []
  const columnOptions: string[] = []
  // CHECK constraints so far, in declaration order (recordConstraintNames finds a named one by its place)
  let checks = 0
  for (const el of elements) {
    const head = upper(el[0])
    if (["CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK"].includes(head)) {
      const n = namedConstraint(el)
      if (n !== undefined) named.push(n.type === "CHECK" ? { ...n, checkOrdinal: checks } : n)
      if (el.some((t) => upper(t) === "CHECK")) checks++
      defs.push(rewrite(el, session))
      continue
    }
    const colName = identOf(el[0])
    if (colName === undefined) throw HanaError.syntax(`column definition expected near ${el[0]?.v ?? "<end>"}`, 0)
    const [duck, consumed, type] = typeAt(el, 1)
    const clauses = splitColumnClauses(el.slice(1 + consumed))
    if (!local) columnOptions.push(...recordColumnOptions(schema, name, colName, clauses.options))
    const inline = inlineNamedConstraint(clauses.rest, encodeName(colName), checks)
    if (inline !== undefined) named.push(inline)
    checks += clauses.rest.filter((t) => upper(t) === "CHECK").length
    let tail = timestampDefault(type, clauses.rest)
    const generated = tail.findIndex((t) => upper(t) === "GENERATED")
    if (generated >= 0) {
      // GENERATED {ALWAYS|BY DEFAULT} AS IDENTITY [(START WITH n INCREMENT BY m)] → a sequence-backed default.
      const identity = tail.findIndex((t, k) => k > generated && upper(t) === "IDENTITY")
      if (identity < 0) throw HanaError.unsupported("generated columns other than IDENTITY")
      let end = identity + 1
      let start = "1"
      let increment = "1"
      if (tail[end]?.t === "op" && tail[end]!.v === "(") {
        const close = matching(tail, end)
        const opts = tail.slice(end + 1, close)
        opts.forEach((t, k) => {
          if (upper(t) === "START" && opts[k + 2]?.t === "number") start = opts[k + 2]!.v
          if (upper(t) === "INCREMENT" && opts[k + 2]?.t === "number") increment = opts[k + 2]!.v
        })
        end = close + 1
      }
      const seqName = `${name}_${colName}_IDENTITY`
      const seq = local ? quoteName(seqName) : qualified(schema, seqName)
      sequences.push(`CREATE OR REPLACE ${local ? "TEMP " : ""}SEQUENCE ${seq} START WITH ${start} INCREMENT BY ${increment}`)
      tail = [...tail.slice(0, generated), ...tail.slice(end)]
      defs.push(`${quoteName(colName)} ${duck} DEFAULT ${identityDefault(quoteString(seq))} ${rewrite(tail, session)}`.trimEnd())
    } else {
      defs.push(`${quoteName(colName)} ${duck}${lengthCheck(colName, type)} ${rewrite(tail, session)}`.trimEnd())
    }
    declared.push({ name: colName, type })
  }
  distinctConstraintNames(named)
  // Column comments record the declared HANA type (DuckDB keeps no type aliases); see testkit/hana/catalog.ts.
  const comments = declared.map((c) => `COMMENT ON COLUMN ${target}.${quoteName(c.name)} IS ${quoteString(typeText(c.type))}`)
  // Row-store tables are remembered by oid so SYS.TABLES can report TABLE_TYPE 'ROW' (catalog.ts).
  const rowMark = rowStore && !temporary
    ? [`INSERT INTO "SYS"."_ROW_TABLES" SELECT table_oid FROM duckdb_tables() WHERE database_name = current_database()
        AND table_name = ${quoteString(encodeName(name))} AND schema_name = ${schema === undefined ? "current_schema()" : quoteString(encodeName(schema))}`]
    : []
  // UNLOAD PRIORITY and PARTITION BY after the column list are kept for SYS.TABLES (table-clauses.ts).
  const options = local ? [] : recordTableOptions(schema, name, tableOptions(rest.slice(close + 1)))
  // `COMMENT '…'` after the column list ("CREATE TABLE Statement", <table_comment_string>) is the table's comment.
  const tableComment = rest.slice(close + 1).flatMap((t, k, after) => (upper(t) === "COMMENT" && after[k + 1]?.t === "string" ? [after[k + 1]!.v] : []))
  const commented = tableComment.map((text) => `COMMENT ON TABLE ${target} IS ${quoteString(text)}`)
  return {
    kind: "ddl",
    sql: [...sequences, `${create} ${target} (${defs.join(", ")})`, ...comments, ...rowMark, ...options, ...columnOptions, ...commented].join("; "),
    params: 0,
    ...(named.length === 0 ? {} : { constraintNames: { table: target, constraints: named } })
  }
}

/** DROP USER / SCHEMA / TABLE / VIEW / SEQUENCE / INDEX. */
export const translateDrop = (all: Token[], session: SessionValues): Translated => {
  const w1 = upper(all[1])
  if (w1 === "USER") {
    const user = identOf(all[2])
    if (user === undefined) throw HanaError.syntax("user name expected", 0)
    return { kind: "dropUser", user }
  }
  if (w1 === "SCHEMA") {
    const name = identOf(all[2])
    if (name === undefined) throw HanaError.syntax("schema name expected", 0)
    return { kind: "ddl", sql: `DROP SCHEMA ${quoteName(name)}${upper(all[3]) === "CASCADE" ? " CASCADE" : ""}`, params: 0 }
  }
  if (w1 === "TABLE" || w1 === "VIEW" || w1 === "SEQUENCE" || w1 === "INDEX") {
    const [schema, name] = qualifiedName(all, 2)
    const cascade = all.some((t) => upper(t) === "CASCADE")
    return { kind: "ddl", sql: `DROP ${w1} ${qualified(schema, name)}${cascade ? " CASCADE" : ""}`, params: 0 }
  }
  throw HanaError.syntax(`incorrect syntax near "${all[1]?.v ?? "<end>"}"`, 0)
}

/** ALTER TABLE t ADD (c type, ...) / DROP (c) / RENAME COLUMN — HANA's parenthesized forms become DuckDB's. */
export const rewriteAlterTable = (all: Token[], session: SessionValues): { sql: string; declaredLengths?: { table: string; columns: string[] } } => {
  const [schema, name, used] = qualifiedName(all, 2)
  const target = qualified(schema, name)
  const rest = all.slice(2 + used)
  const op = upper(rest[0])
  if ((op === "ADD" || op === "DROP") && rest[1]?.v === "(") {
    const close = matching(rest, 1)
    const items = splitTopLevel(rest.slice(2, close))
    const sized: string[] = []
    const sql = items
      .map((el) => {
        const col = identOf(el[0])
        if (col === undefined) throw HanaError.syntax("column expected", 0)
        if (op === "DROP") return `ALTER TABLE ${target} DROP COLUMN ${quoteName(col)}; ${dropColumnOptions(schema, name, col)}`
        const [duck, consumed, type] = typeAt(el, 1)
        if (lengthCheck(col, type) !== "") sized.push(encodeName(col))
        const clauses = splitColumnClauses(el.slice(1 + consumed))
        return [`ALTER TABLE ${target} ADD COLUMN ${quoteName(col)} ${duck} ${rewrite(timestampDefault(type, clauses.rest), session)}`,
          `COMMENT ON COLUMN ${target}.${quoteName(col)} IS ${quoteString(typeText(type))}`, ...recordColumnOptions(schema, name, col, clauses.options)].join("; ")
      })
      .join("; ")
    return sized.length > 0 ? { sql, declaredLengths: { table: target, columns: sized } } : { sql }
  }
  const clauses = alterTableClauses(schema, name, rest)
  if (clauses !== undefined) return { sql: clauses === "" ? "SELECT NULL WHERE false" : clauses }
  return { sql: rewrite(all, session) }
}

/** Exposed for tests: the DuckDB identifier of a HANA name. */
