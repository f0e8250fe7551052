/**
 * CREATE TABLE: the column definitions and constraints of a table as Oracle declares them (types, defaults, identity
 * columns, keys, checks, JSON columns) turned into the DuckDB table and the catalog entry, plus CREATE TABLE ... AS.
 */
import { checkReferencesPrivilege } from "./column-privileges.ts"
import type { ColumnMeta, ConstraintMeta, TableMeta } from "./catalog.ts"
import { lengthCheck, lengthExpression } from "./modify-checks.ts"
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, matchParen, splitTopLevel, tokenize, type Tok } from "./lexer.ts"
import { duckIdent, encodeName } from "./names.ts"
import { enforcedJsonCheck } from "./json-checks.ts"
import { oracleName } from "./translate.ts"
import { namedTypesOf } from "./named-types.ts"
import { withSubstitutableClauses } from "./substitutable-columns.ts"
import { refColumnTypeOf } from "./object-references.ts"
import { mayUseType } from "./execute-privileges.ts"
import { numberType, parseOracleType } from "./types.ts"
import { blankPaddedSql, isBlankPadded } from "./char-writes.ts"
import type { DdlHost } from "./ddl-host.ts"
import { ddlQuerySql, readDdlQuery } from "./ddl-query-sql.ts"
import { hasFormatExpressions, MAY_HAVE_FORMAT } from "./format-model-sites.ts"

/** What CREATE TABLE needs of the DDL runner (ddl.ts's Ddl implements it). */
export interface TableDdl {
  readonly s: DdlHost
  /** Runs DuckDB DDL, mapping its failures to ORA- errors. */
  runDdl(sql: string): Promise<void>
  /** The `[schema.]name` at `at`, with the index after it. */
  qualified(toks: ReadonlyArray<Tok>, at: number): { schema: string; name: string; next: number }
  /** A system-generated constraint name (SYS_C...). */
  nextConstraintName(): string
  /** True when a view, sequence or other non-table object of the schema has the name. */
  nonTableNameTaken(schema: string, name: string): boolean
}

/** True when column `name` of `columns` is TIMESTAMP WITH TIME ZONE (stored as text with its zone, datetime-functions.ts). */
export const isZonedColumn = (columns: ReadonlyArray<ColumnMeta>, name: string): boolean => columns.find((c) => c.name === name)?.type.kind === "timestamptz"

/**
 * ORA-02329 for a PRIMARY KEY or UNIQUE constraint on a TIMESTAMP WITH TIME ZONE column: Oracle refuses such keys
 * (SQL Language Reference, "Constraints", restrictions on unique constraints: none of the key's columns may be
 * TIMESTAMP WITH TIME ZONE, while TIMESTAMP WITH LOCAL TIME ZONE may; shown with ORA-02329 in
 * https://jonathanlewis.wordpress.com/2019/05/29/timestamp-oddity/). A unique index on such a column is allowed.
 */
const zonedKey = (): OraError => new OraError(2329, "column of datatype TIME/TIMESTAMP WITH TIME ZONE cannot be unique or a primary key")

const isJsonCheck = (toks: ReadonlyArray<Tok>): boolean => toks.some((t, k) => isKw(t, "IS") && (isKw(toks[k + 1], "JSON") || (isKw(toks[k + 1], "NOT") && isKw(toks[k + 2], "JSON"))))

const markNotNull = (columns: Array<ColumnMeta>, name: string) => {
  const i = columns.findIndex((c) => c.name === name)
  if (i >= 0) columns[i] = { ...columns[i]!, nullable: false }
}

export function columnsOf(ddl: TableDdl, elements: ReadonlyArray<ReadonlyArray<Tok>>, text: (a: number, b: number) => string, all: ReadonlyArray<Tok>, owner: string, table: string) {
  const columns: Array<ColumnMeta> = []
  const constraints: Array<ConstraintMeta> = []
  const duckDefs: Array<string> = []
  const sequences: Array<string> = []
  const idx = (tok: Tok) => all.indexOf(tok)
  const consName = (name: string | undefined) => name ?? ddl.nextConstraintName()
  const colList = (toksIn: ReadonlyArray<Tok>, open: number): Array<string> => {
    const close = matchParen(toksIn, open)
    return splitTopLevel(toksIn.slice(open + 1, close)).map((p) => oracleName(p[0]!))
  }
  for (const el of elements) {
    if (el.length === 0) continue
    let k = 0
    let cname: string | undefined
    if (isKw(el[0], "CONSTRAINT")) {
      cname = oracleName(el[1]!)
      k = 2
    }
    const head = el[k]
    if (isKw(head, "PRIMARY", "UNIQUE", "FOREIGN", "CHECK")) {
      if (isKw(head, "PRIMARY") || isKw(head, "UNIQUE")) {
        const open = isKw(head, "PRIMARY") ? k + 2 : k + 1
        const cols = colList(el, open)
        if (cols.some((c) => isZonedColumn(columns, c))) throw zonedKey()
        constraints.push({ name: consName(cname), type: isKw(head, "PRIMARY") ? "P" : "U", columns: cols, searchCondition: null, refOwner: null, refConstraint: null, generated: cname === undefined })
        duckDefs.push(`${isKw(head, "PRIMARY") ? "PRIMARY KEY" : "UNIQUE"} (${cols.map(duckIdent).join(", ")})`)
        if (isKw(head, "PRIMARY")) for (const c of cols) markNotNull(columns, c)
      } else if (isKw(head, "FOREIGN")) {
        const cols = colList(el, k + 2)
        const refAt = el.findIndex((x) => isKw(x, "REFERENCES"))
        const refSchema = isOp(el[refAt + 2], ".") ? oracleName(el[refAt + 1]!) : owner
        const refTable = isOp(el[refAt + 2], ".") ? oracleName(el[refAt + 3]!) : oracleName(el[refAt + 1]!)
        const refOpen = el.findIndex((x, j) => j > refAt && isOp(x, "("))
        const refCols = refOpen > 0 ? colList(el, refOpen) : []
        checkReferencesPrivilege(ddl.s.requester, ddl.s.db.catalog, refSchema, refTable, refCols)
        const refCons = ddl.s.db.catalog.getTable(refSchema, refTable)?.constraints.find((c) => c.type === "P" || (c.type === "U" && c.columns.join() === refCols.join()))
        constraints.push({ name: consName(cname), type: "R", columns: cols, searchCondition: null, refOwner: refSchema, refConstraint: refCons?.name ?? null, generated: cname === undefined })
        duckDefs.push(`FOREIGN KEY (${cols.map(duckIdent).join(", ")}) REFERENCES ${duckIdent(refSchema)}.${duckIdent(refTable)}${refCols.length > 0 ? ` (${refCols.map(duckIdent).join(", ")})` : ""}`)
      } else {
        const open = k + 1
        const close = matchParen(el, open)
        const cond = el.slice(open + 1, close).map((x) => x.text).join(" ")
        // ALL_CONS_COLUMNS lists the columns a check condition names (resolved against the table's columns below)
        const named = el.slice(open + 1, close).filter((x) => x.kind === "ident" || x.kind === "qident").map(oracleName)
        constraints.push({ name: consName(cname), type: "C", columns: named, searchCondition: cond, refOwner: null, refConstraint: null, generated: cname === undefined })
        // `col IS JSON` tests, alone or with other conditions, are enforced by ora_is_json (json-checks.ts); IS JSON on
        // another operand is recorded only
        const json = enforcedJsonCheck(el.slice(open + 1, close), ddl.s.db.settings.version, (from, to) => text(idx(from), idx(to ?? el[close]!)))
        if (json !== undefined) duckDefs.push(`CHECK (${json.sql})`)
        else if (!isJsonCheck(el.slice(open + 1, close))) duckDefs.push(`CHECK (${text(idx(el[open + 1]!), idx(el[close]!))})`)
      }
      continue
    }
    // column definition
    const colTok = el[0]!
    if (colTok.kind !== "ident" && colTok.kind !== "qident") throw ora.invalidIdentifier(colTok.text)
    const name = oracleName(colTok)
    const stop = new Set(["DEFAULT", "NOT", "NULL", "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES", "GENERATED", "ENABLE", "DISABLE", "COLLATE", "VISIBLE", "INVISIBLE", "AS", "SCOPE"])
    let j = 1
    let depth = 0
    while (j < el.length) {
      const x = el[j]!
      if (isOp(x, "(")) depth++
      else if (isOp(x, ")")) depth--
      else if (depth === 0 && x.kind === "ident" && stop.has(x.value)) break
      j++
    }
    const typeText = el
      .slice(1, j)
      .map((x) => x.text)
      .join(" ")
    const builtin = parseOracleType(typeText)
    // `REF type [WITH ROWID] [SCOPE IS table]` (object-references.ts)
    const scopeAt = el.findIndex((x, n) => n >= j && isKw(x, "SCOPE") && isKw(el[n + 1], "IS"))
    const reference = isKw(el[1], "REF") ? refColumnTypeOf(namedTypesOf(ddl.s.db), ddl.s.schema, el.slice(2, j), scopeAt < 0 ? undefined : el.slice(scopeAt + 2), owner) : undefined
    const type = builtin ?? reference ?? namedTypesOf(ddl.s.db).columnType(ddl.s.schema, typeText)
    // another schema's type needs EXECUTE on it (Unconfirmed: Oracle's code for a type it hides may be another)
    const named = builtin === undefined && type !== undefined ? namedTypesOf(ddl.s.db).named(ddl.s.schema, typeText) : undefined
    if (named !== undefined && !mayUseType(ddl.s.requester, named.schema, named.name)) throw new OraError(902, "invalid datatype")
    // SQL BOOLEAN and JSON columns exist from 23ai / 21c on
    if (type === undefined || (ddl.s.db.settings.version === "19c" && (type.kind === "boolean" || type.kind === "json" || type.kind === "vector")))
      throw new OraError(902, "invalid datatype")
    let nullable = true
    let defaultText: string | null = null
    let duckDefault = ""
    const extra: Array<string> = []
    let pendingName: string | undefined
    while (j < el.length) {
      const x = el[j]!
      if (isKw(x, "CONSTRAINT")) {
        pendingName = oracleName(el[j + 1]!)
        j += 2
        continue
      }
      const ccName = pendingName
      pendingName = undefined
      if (isKw(x, "DEFAULT")) {
        let e = j + 1
        if (isKw(el[e], "ON") && isKw(el[e + 1], "NULL")) e += 2
        let d = 0
        let end = e
        while (end < el.length) {
          const y = el[end]!
          if (isOp(y, "(")) d++
          else if (isOp(y, ")")) d--
          else if (d === 0 && y.kind === "ident" && ["NOT", "NULL", "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES", "ENABLE"].includes(y.value)) break
          end++
        }
        defaultText = el
          .slice(e, end)
          .map((y) => y.text)
          .join(" ")
        const duckExpression = text(idx(el[e]!), idx(el[end - 1]!) + 1)
        // a CHAR column's default is stored blank-padded, as every value written into it (char-writes.ts)
        duckDefault = ` DEFAULT ${isBlankPadded(type) ? blankPaddedSql(`CAST(${duckExpression} AS VARCHAR)`, type) : duckExpression}`
        j = end
        continue
      }
      if (isKw(x, "NOT") && isKw(el[j + 1], "NULL")) {
        nullable = false
        constraints.push({ name: consName(ccName), type: "C", columns: [name], searchCondition: `"${name}" IS NOT NULL`, refOwner: null, refConstraint: null, generated: ccName === undefined })
        extra.push("NOT NULL")
        j += 2
        continue
      }
      if (isKw(x, "NULL")) {
        j++
        continue
      }
      if (isKw(x, "PRIMARY") && isKw(el[j + 1], "KEY")) {
        nullable = false
        if (type.kind === "timestamptz") throw zonedKey()
        constraints.push({ name: consName(ccName), type: "P", columns: [name], searchCondition: null, refOwner: null, refConstraint: null, generated: ccName === undefined })
        extra.push("PRIMARY KEY")
        j += 2
        continue
      }
      if (isKw(x, "UNIQUE")) {
        if (type.kind === "timestamptz") throw zonedKey()
        constraints.push({ name: consName(ccName), type: "U", columns: [name], searchCondition: null, refOwner: null, refConstraint: null, generated: ccName === undefined })
        extra.push("UNIQUE")
        j++
        continue
      }
      if (isKw(x, "CHECK") && isOp(el[j + 1], "(")) {
        const close = matchParen(el, j + 1)
        constraints.push({ name: consName(ccName), type: "C", columns: [name], searchCondition: el.slice(j + 2, close).map((y) => y.text).join(" "), refOwner: null, refConstraint: null, generated: ccName === undefined })
        const json = enforcedJsonCheck(el.slice(j + 2, close), ddl.s.db.settings.version, (from, to) => text(idx(from), idx(to ?? el[close]!)))
        if (json !== undefined) extra.push(`CHECK (${json.sql})`)
        else if (!isJsonCheck(el.slice(j + 2, close))) extra.push(`CHECK (${text(idx(el[j + 2]!), idx(el[close]!))})`)
        j = close + 1
        continue
      }
      if (isKw(x, "REFERENCES")) {
        const refSchema = isOp(el[j + 2], ".") ? oracleName(el[j + 1]!) : owner
        const refTable = isOp(el[j + 2], ".") ? oracleName(el[j + 3]!) : oracleName(el[j + 1]!)
        let e = isOp(el[j + 2], ".") ? j + 4 : j + 2
        let refCols: Array<string> = []
        if (isOp(el[e], "(")) {
          refCols = colList(el, e)
          e = matchParen(el, e) + 1
        }
        checkReferencesPrivilege(ddl.s.requester, ddl.s.db.catalog, refSchema, refTable, refCols)
        const refCons = ddl.s.db.catalog.getTable(refSchema, refTable)?.constraints.find((c) => c.type === "P")
        constraints.push({ name: consName(ccName), type: "R", columns: [name], searchCondition: null, refOwner: refSchema, refConstraint: refCons?.name ?? null, generated: ccName === undefined })
        extra.push(`REFERENCES ${duckIdent(refSchema)}.${duckIdent(refTable)}${refCols.length > 0 ? ` (${refCols.map(duckIdent).join(", ")})` : ""}`)
        j = e
        continue
      }
      if (isKw(x, "GENERATED")) {
        // GENERATED [ALWAYS | BY DEFAULT [ON NULL]] AS IDENTITY [(options)]
        let e = j + 1
        while (e < el.length && !isKw(el[e], "IDENTITY")) e++
        e++
        if (isOp(el[e], "(")) e = matchParen(el, e) + 1
        const seq = `ISEQ$$_${ddl.s.db.catalog.newObjectId()}`
        sequences.push(seq)
        duckDefault = ` DEFAULT nextval('${encodeName(owner)}.${encodeName(seq)}')`
        defaultText = `"${owner}"."${seq}".nextval`
        nullable = false
        constraints.push({ name: consName(undefined), type: "C", columns: [name], searchCondition: `"${name}" IS NOT NULL`, refOwner: null, refConstraint: null, generated: true })
        extra.push("NOT NULL")
        j = e
        continue
      }
      if (isKw(x, "SCOPE") && isKw(el[j + 1], "IS")) {
        j += isOp(el[j + 3], ".") ? 5 : 3
        continue
      }
      if (isKw(x, "ENABLE", "DISABLE", "VISIBLE", "INVISIBLE", "VALIDATE", "NOVALIDATE")) {
        j++
        continue
      }
      throw new OraError(907, "missing right parenthesis")
    }
    if (columns.some((c) => c.name === name)) throw new OraError(957, "duplicate column name")
    // Oracle rejects values longer than the declared size with ORA-12899 (DuckDB ignores VARCHAR(n)). Sizes are in
    // bytes unless declared `n CHAR` or national (https://docs.oracle.com/en/error-help/db/ora-12899/).
    // CASE, not OR: DuckDB evaluates both sides of OR, and error() must only run for too-long values.
    if ((type.kind === "varchar" || type.kind === "nvarchar" || type.kind === "raw") && type.charSize > 0) {
      extra.push(lengthCheck(lengthExpression(name, type, typeText), `"${owner}"."${table}"."${name}"`, type.charSize))
    }
    columns.push({ name, type, nullable, defaultText })
    duckDefs.push(`${duckIdent(name)} ${type.duck}${duckDefault}${extra.length > 0 ? " " + extra.join(" ") : ""}`)
  }
  const known = new Set([...columns, ...(ddl.s.db.catalog.getTable(owner, table)?.columns ?? [])].map((c) => c.name))
  const checks = constraints.map((c) => (c.type === "C" ? { ...c, columns: [...new Set(c.columns.filter((n) => known.has(n)))] } : c))
  return { columns, constraints: checks, duckDefs, sequences }
}

export async function createTable(ddl: TableDdl, toks: ReadonlyArray<Tok>, at: number, text: (a: number, b: number) => string, sql: string): Promise<void> {
  const q = ddl.qualified(toks, at)
  if (!ddl.s.db.catalog.users.has(q.schema)) throw ora.userNotFound(q.schema)
  if (ddl.s.db.catalog.getTable(q.schema, q.name) !== undefined || ddl.nonTableNameTaken(q.schema, q.name)) throw ora.nameInUse()
  const target = `${duckIdent(q.schema)}.${duckIdent(q.name)}`
  let k = q.next
  if (isKw(toks[k], "AS") || (isOp(toks[k], "(") && isKw(toks[matchParen(toks, k) + 1], "AS"))) {
    // CREATE TABLE t [(names)] AS SELECT ...
    let names: Array<string> | undefined
    if (isOp(toks[k], "(")) {
      const close = matchParen(toks, k)
      names = splitTopLevel(toks.slice(k + 1, close)).map((p) => oracleName(p[0]!))
      k = close + 1
    }
    const selectSql = sql.slice(toks[k + 1]!.pos)
    // read to the end: a format model that is an expression meets its values on the rows (format-model-sites.ts),
    // which the table's query is then written with
    const formats = MAY_HAVE_FORMAT.test(selectSql) && hasFormatExpressions(tokenize(selectSql))
    const result = await readDdlQuery((q) => ddl.s.query(q, []), selectSql, formats)
    const duckSelect = ddlQuerySql(ddl.s.translation(), selectSql)
    // a NUMBER without precision (a column's, or an expression's with scale 0) makes an unbounded NUMBER column,
    // whose values are written as their canonical text (number-writes.ts), also where DuckDB computed a DECIMAL
    const unbounded = result.columns.map((c) => c.type.kind === "number" && c.type.duck === "VARCHAR")
    const cols: Array<ColumnMeta> = result.columns.map((c, i) => ({ name: names?.[i] ?? c.name, type: unbounded[i] && c.type.dictName !== "FLOAT" ? numberType() : c.type, nullable: true, defaultText: null }))
    const defs = cols.map((c) => `${duckIdent(c.name)} ${c.type.duck}`).join(", ")
    await ddl.runDdl(`CREATE TABLE ${target} (${defs})`)
    const select = unbounded.includes(true)
      ? `SELECT ${cols.map((_, i) => (unbounded[i] ? `ora_number(CAST(c${i} AS VARCHAR))` : `c${i}`)).join(", ")} FROM (${duckSelect}) AS ctas(${cols.map((_, i) => `c${i}`).join(", ")})`
      : duckSelect
    try {
      await ddl.s.engine.execute(`INSERT INTO ${target} ${select}`)
    } catch (e) {
      await ddl.s.engine.execute(`DROP TABLE ${target}`).catch(() => undefined)
      throw ddl.s.mapError(e)
    }
    ddl.s.db.catalog.putTable({ owner: q.schema, name: q.name, kind: "TABLE", columns: cols, constraints: [], objectId: ddl.s.db.catalog.newObjectId(), created: new Date(), viewText: null })
    return
  }
  if (!isOp(toks[k], "(")) throw new OraError(906, "missing left parenthesis")
  const close = matchParen(toks, k)
  if (close < 0) throw new OraError(907, "missing right parenthesis")
  const elements = splitTopLevel(toks.slice(k + 1, close))
  const declared = columnsOf(ddl, elements, text, toks, q.schema, q.name)
  const { constraints, duckDefs, sequences } = declared
  const columns = withSubstitutableClauses(toks.slice(close + 1), declared.columns, (owner, name) => namedTypesOf(ddl.s.db).lookup(q.schema, owner, name))
  if (columns.length === 0) throw new OraError(904, "invalid identifier")
  for (const s of sequences) await ddl.runDdl(`CREATE SEQUENCE ${duckIdent(q.schema)}.${duckIdent(s)}`)
  await ddl.runDdl(`CREATE TABLE ${target} (${duckDefs.join(", ")})`)
  const meta: TableMeta = { owner: q.schema, name: q.name, kind: "TABLE", columns, constraints, objectId: ddl.s.db.catalog.newObjectId(), created: new Date(), viewText: null }
  ddl.s.db.catalog.putTable(meta)
  for (const c of constraints)
    if (c.type === "P" || c.type === "U")
      ddl.s.db.catalog.putObject({
        owner: q.schema,
        name: c.name,
        type: "INDEX",
        objectId: ddl.s.db.catalog.newObjectId(),
        created: new Date(),
        tableName: q.name,
        indexColumns: c.columns.map((name) => ({ name, descending: false })),
        unique: true,
        constraintIndex: true
      })
}
