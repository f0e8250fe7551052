/**
 * `ALTER TABLE t ALTER (<column_definition>, …)`, `ALTER TABLE t ADD [CONSTRAINT n] {PRIMARY KEY | UNIQUE |
 * FOREIGN KEY … REFERENCES … | CHECK}`, `ALTER TABLE t DROP PRIMARY KEY`, `ALTER TABLE t DROP CONSTRAINT n` (SAP HANA SQL Reference, "ALTER TABLE Statement"),
 * done by rebuilding the table (declared-lengths.ts `rebuild`): DuckDB refuses ALTER TYPE on a table with CHECK
 * constraints (the declared-length checks every sized column has) and has no ADD / DROP CONSTRAINT.
 *
 * The rebuild copies the rows into a table made from the DDL DuckDB keeps, changed: a value that does not fit the new
 * type or breaks the new key fails that copy with HANA's own error (339, 314, 274, 287, 301, 461, mapped in errors.ts)
 * and, all of it being one transaction, leaves the table as it was. Keys, indexes, comments and the other columns'
 * checks carry over; an altered column gets the declared type (its comment, SYS.TABLE_COLUMNS) and the length check
 * of its new definition. DuckDB keeps no constraint names, so the names `CONSTRAINT n` gives (here and in CREATE
 * TABLE) are kept beside it, in SYS._CONSTRAINT_NAMES, for the SYS views and `ALTER TABLE t DROP CONSTRAINT n`.
 */
import type { Session } from "../engine/index.ts"
import { oidMatch } from "./binding.ts"
import { keptTable, quoteForeignKeys, rebuild, tableBody } from "./declared-lengths.ts"
import { lengthCheck, qualified, qualifiedName, timestampDefault } from "./ddl.ts"
import { DATE_OUT_OF_RANGE, HanaError, SERVER_CHECK_TEXTS, VALUE_TOO_LARGE } from "./errors.ts"
import { identOf, matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { encodeName, quoteName, quoteString } from "./names.ts"
import { rewrite } from "./sql-rewrite.ts"
import { recordColumnOptions, splitColumnClauses } from "./column-options.ts"
import type { SessionValues, Translated } from "./translated.ts"
import { typeAt } from "./type-syntax.ts"
import { typeText } from "./types.ts"
import { duplicateConstraintName, namedConstraint } from "./table-changes.ts"
import type { AlteredColumn, NamedConstraint, RebuiltTable, TableRebuild } from "./table-changes.ts"

const end = (rest: readonly Token[], at: number, form: string): void => {
  if (rest.length !== at) throw HanaError.syntax(`${form} expected`, 0)
}

/** `ALTER (…)` of `ALTER TABLE`, the tokens after the table name: the new column definitions. */
const alteredColumns = (rest: readonly Token[], session: SessionValues): AlteredColumn[] => {
  const close = matching(rest, 1)
  end(rest, close + 1, "ALTER TABLE <table> ALTER (<column definition>, …)")
  return splitTopLevel(rest.slice(2, close)).map((el) => {
    const name = identOf(el[0])
    if (name === undefined || el.length < 2) throw HanaError.syntax("ALTER TABLE <table> ALTER (<column> <type> …) expected", 0)
    const [storage, consumed, type] = typeAt(el, 1)
    const { rest: tail, options } = splitColumnClauses(el.slice(1 + consumed))
    if (tail.some((t) => upper(t) === "GENERATED")) throw HanaError.unsupported("ALTER TABLE … ALTER of a generated or identity column on the test server")
    return {
      name,
      definition: `${quoteName(name)} ${storage} ${rewrite(timestampDefault(type, tail), session)}`.trimEnd(),
      storage,
      check: lengthCheck(name, type).trim(),
      typeText: typeText(type),
      options
    }
  })
}

/**
 * The constraint of `ADD [CONSTRAINT n] …` as DuckDB table-constraint SQL. The name is dropped (DuckDB keeps none);
 * an unqualified `REFERENCES p` names the schema of the altered table, where HANA looks `p` up.
 */
const addedConstraint = (rest: readonly Token[], schema: string, session: SessionValues): string => {
  let at = 1
  if (upper(rest[at]) === "CONSTRAINT") {
    if (identOf(rest[at + 1]) === undefined) throw HanaError.syntax("constraint name expected", 0)
    at += 2
  }
  const kind = upper(rest[at])
  const open = kind === "UNIQUE" || kind === "CHECK" ? at + 1 : at + 2
  if (!((kind === "PRIMARY" || kind === "FOREIGN") && upper(rest[at + 1]) === "KEY") && kind !== "UNIQUE" && kind !== "CHECK") {
    throw HanaError.syntax("ADD [CONSTRAINT <name>] PRIMARY KEY | UNIQUE | FOREIGN KEY | CHECK expected", 0)
  }
  if (rest[open]?.v !== "(") throw HanaError.syntax(`${kind} (<column>, …) expected`, 0)
  const tokens = rest.slice(at).map((t, k, list) =>
    upper(list[k - 1]) === "REFERENCES" && identOf(t) !== undefined && !(list[k + 1]?.t === "op" && list[k + 1]!.v === ".")
      ? [{ t: "qident" as const, v: schema }, { t: "op" as const, v: "." }, t]
      : [t]
  )
  return rewrite(tokens.flat(), session)
}

/**
 * `ALTER TABLE` as a table rebuild (the forms of the module comment), or undefined for the forms ddl.ts gives DuckDB.
 */
export const translateAlterTableRebuild = (all: readonly Token[], session: SessionValues): Translated | undefined => {
  const [schema, name, used] = qualifiedName(all, 2)
  const rebuild = alterTableRebuild(schema, name, all.slice(2 + used), session)
  return rebuild === undefined ? undefined : { kind: "ddl", sql: "SELECT NULL WHERE false", params: 0, rebuild }
}

const alterTableRebuild = (
  schema: string | undefined,
  name: string,
  rest: readonly Token[],
  session: SessionValues
): TableRebuild | undefined => {
  const table: RebuiltTable = { table: qualified(schema, name), schemaName: schema ?? session.schema, tableName: name }
  const op = upper(rest[0])
  if (op === "ALTER" && rest[1]?.v === "(") return { ...table, kind: "alterColumns", columns: alteredColumns(rest, session) }
  if (op === "ADD" && ["CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK"].includes(upper(rest[1]))) {
    return { ...table, kind: "addConstraint", constraint: addedConstraint(rest, table.schemaName, session), named: namedConstraint(rest.slice(1)) }
  }
  if (op === "DROP" && upper(rest[1]) === "PRIMARY" && upper(rest[2]) === "KEY") {
    end(rest, 3, "ALTER TABLE <table> DROP PRIMARY KEY")
    return { ...table, kind: "dropPrimaryKey" }
  }
  if (op === "DROP" && upper(rest[1]) === "CONSTRAINT") {
    const constraint = identOf(rest[2])
    if (constraint === undefined) throw HanaError.syntax("ALTER TABLE <table> DROP CONSTRAINT <name> expected", 0)
    end(rest, 3, "ALTER TABLE <table> DROP CONSTRAINT <name>")
    return { ...table, kind: "dropConstraint", name: constraint }
  }
  return undefined
}

/** The top-level, comma-separated items of a DuckDB table body `(…)`, outside quotes and parentheses. */
const bodyItems = (body: string): string[] => {
  const inner = body.slice(1, -1)
  const out: string[] = []
  let depth = 0
  let start = 0
  let quote: string | undefined
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!
    if (quote !== undefined) {
      if (ch === quote) {
        if (inner[i + 1] === quote) i++
        else quote = undefined
      }
    } else if (ch === "'" || ch === '"') quote = ch
    else if (ch === "(") depth++
    else if (ch === ")") depth--
    else if (ch === "," && depth === 0) {
      out.push(inner.slice(start, i).trim())
      start = i + 1
    }
  }
  out.push(inner.slice(start).trim())
  return out
}

const TABLE_CONSTRAINT = /^(?:PRIMARY KEY|UNIQUE|FOREIGN KEY|CHECK|CONSTRAINT)\s*\(?/

/** The DuckDB name a column item of a table body defines, or undefined for a table constraint. */
const columnOf = (item: string): string | undefined => {
  if (TABLE_CONSTRAINT.test(item)) return undefined
  const m = /^("(?:[^"]|"")*"|[^\s"]+)/.exec(item)
  return m === null ? undefined : m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!
}

/** A column item's text without its string literals (its DEFAULT's), where its constraint keywords are looked for. */
const withoutStrings = (item: string): string => item.replace(/'(?:[^']|'')*'/g, "''")

/** Rebuilds a table as `r` asks (see the module comment). */
export const rebuildTable = async (session: Session, r: TableRebuild): Promise<void> => {
  const kept = await keptTable(session, oidMatch(r.table))
  if (kept === undefined) throw HanaError.invalidTable(r.tableName, r.schemaName)
  const body = tableBody(kept.ddl)
  if (body === undefined) throw HanaError.unsupported(`ALTER TABLE of ${kept.name} on the test server`)
  let items = bodyItems(body)
  let comments = [...kept.columnComments]
  if (r.kind === "addConstraint" && r.named !== undefined) {
    const taken = await session.queryAll(`SELECT 1 FROM "SYS"."_CONSTRAINT_NAMES" WHERE TABLE_OID = ? AND CONSTRAINT_NAME = ?`, [kept.oid, r.named.name])
    if (taken.length > 0) throw duplicateConstraintName(r.named.name)
  }
  if (r.kind === "alterColumns") {
    const types = new Map((await session.queryAll(`SELECT column_name, data_type FROM duckdb_columns() WHERE table_oid = ?`, [kept.oid])).map(([c, t]) => [String(c), String(t)]))
    for (const c of r.columns) {
      const duck = encodeName(c.name)
      const at = items.findIndex((item) => columnOf(item) === duck)
      if (at < 0) throw new HanaError(260, "HY000", `invalid column name: ${c.name}`)
      // TIMESTAMP columns keep 100 ns ticks (longdate.ts), which DuckDB's casts do not read as datetimes.
      const old = types.get(duck)
      if (old !== c.storage && (old === "UBIGINT" || c.storage === "UBIGINT")) {
        throw HanaError.unsupported(`ALTER TABLE … ALTER of column ${c.name} to or from TIMESTAMP on the test server`)
      }
      const keys = ["PRIMARY KEY", "UNIQUE"].filter((k) => new RegExp(`\\b${k}\\b`).test(withoutStrings(items[at]!)) && !new RegExp(`\\b${k}\\b`).test(withoutStrings(c.definition)))
      items[at] = [c.definition, ...keys].join(" ")
      // the server's own checks of the column (length, date range) give way to the new type's
      const checks = await session.queryAll(
        `SELECT constraint_text FROM duckdb_constraints() WHERE table_oid = ? AND constraint_type = 'CHECK'
           AND list_distinct(constraint_column_names) = [?::VARCHAR] AND (contains(constraint_text, ?) OR contains(constraint_text, ?))`,
        [kept.oid, duck, VALUE_TOO_LARGE, DATE_OUT_OF_RANGE]
      )
      const dropped = new Set(checks.map(([text]) => String(text)))
      items = items.filter((item) => !dropped.has(item))
      if (c.check !== "") items.push(c.check)
      comments = [...comments.filter(([column]) => column !== duck), [duck, c.typeText] as const]
    }
  } else if (r.kind === "addConstraint") {
    items.push(r.constraint)
  } else if (r.kind === "dropConstraint") {
    const [text, type] = (await session.queryAll(
      `SELECT k.constraint_text, k.constraint_type FROM duckdb_constraints() k WHERE k.table_oid = ? AND k.constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY', 'CHECK')
         AND (k.constraint_text IN (SELECT CONSTRAINT_TEXT FROM "SYS"."_CONSTRAINT_NAMES" WHERE TABLE_OID = ? AND CONSTRAINT_NAME = ?) OR upper(k.constraint_name) = upper(?))
       LIMIT 1`,
      [kept.oid, kept.oid, r.name, r.name]
    ))[0] ?? []
    // 261 is the code SAP's "SQL Error Codes" list gives "invalid index name" (as remembered; not confirmed for this case).
    if (text === undefined) throw new HanaError(261, "HY000", `invalid index name: constraint ${r.name} not found on ${r.tableName}`)
    const drop = quoteForeignKeys(String(text))
    const before = items.length
    items = items.filter((item) => item !== drop)
    // a one-column key DuckDB writes with its column
    if (items.length === before) {
      const keyword = new RegExp(`\\s+${String(type)}\\b`)
      const column = await session.queryAll(`SELECT constraint_column_names[1] FROM duckdb_constraints() WHERE table_oid = ? AND constraint_text = ?`, [kept.oid, String(text)])
      const at = items.findIndex((item) => columnOf(item) === String(column[0]?.[0]) && keyword.test(withoutStrings(item)))
      if (at >= 0) items[at] = items[at]!.replace(keyword, "")
    }
  } else {
    const before = items.join(", ")
    items = items.filter((item) => !/^PRIMARY KEY\s*\(/.test(item)).map((item) =>
      columnOf(item) !== undefined && /\bPRIMARY KEY\b/.test(withoutStrings(item)) ? item.replace(/\s+PRIMARY KEY\b/, "") : item
    )
    // 261 is the code SAP's "SQL Error Codes" list gives "invalid index name" (as remembered; not confirmed for this case).
    if (items.join(", ") === before) throw new HanaError(261, "HY000", `invalid index name: ${kept.name} has no primary key`)
  }
  if (!(await rebuild(session, { ...kept, columnComments: comments }, `(${items.join(", ")})`))) {
    throw HanaError.unsupported(`ALTER TABLE of ${kept.name} on the test server (a test-server limit: its foreign key references itself)`)
  }
  if (r.kind === "addConstraint" && r.named !== undefined) await recordConstraintNames(session, r.table, [r.named])
  if (r.kind === "alterColumns") {
    for (const c of r.columns) for (const sql of recordColumnOptions(r.schemaName, r.tableName, c.name, c.options ?? {})) await session.execute(sql)
  }
  if (r.kind === "dropConstraint") {
    await session.execute(`DELETE FROM "SYS"."_CONSTRAINT_NAMES" WHERE CONSTRAINT_NAME = ${quoteString(r.name)} AND TABLE_OID = (SELECT table_oid FROM duckdb_tables() WHERE ${oidMatch(r.table)})`)
  }
}

/**
 * Keeps the names `CONSTRAINT n` gave keys of `table` (a quoted DuckDB name), by DuckDB's text of each constraint
 * (SYS.CONSTRAINTS, REFERENTIAL_CONSTRAINTS and INDEXES show them; DROP CONSTRAINT finds them).
 */
export const recordConstraintNames = async (session: Session, table: string, named: ReadonlyArray<NamedConstraint>): Promise<void> => {
  const oid = (await session.queryAll(`SELECT table_oid FROM duckdb_tables() WHERE ${oidMatch(table)}`))[0]?.[0]
  if (oid === undefined) return
  // The table's own checks in declaration order (DuckDB keeps them so), the server's length and date checks left out.
  const checks = (await session.queryAll(
    `SELECT constraint_text FROM duckdb_constraints() WHERE table_oid = ? AND constraint_type = 'CHECK' ORDER BY constraint_index`, [oid as number]
  )).map(([text]) => String(text)).filter((text) => !SERVER_CHECK_TEXTS.some((own) => text.includes(own)))
  for (const n of named) {
    if (n.type === "CHECK") {
      const text = checks.at(n.checkOrdinal ?? -1)
      if (text === undefined) continue
      await session.execute(`DELETE FROM "SYS"."_CONSTRAINT_NAMES" WHERE TABLE_OID = ${Number(oid)} AND CONSTRAINT_TEXT = ${quoteString(text)}`)
      await session.execute(`INSERT INTO "SYS"."_CONSTRAINT_NAMES" VALUES (${Number(oid)}, ${quoteString(n.name)}, ${quoteString(text)})`)
      continue
    }
    const found = await session.queryAll(
      `SELECT constraint_text FROM duckdb_constraints() WHERE table_oid = ? AND constraint_type = ?
         AND constraint_column_names = [${n.columns.map(() => "?::VARCHAR").join(", ")}]`,
      [oid as number, n.type, ...n.columns]
    )
    const text = found[0]?.[0]
    if (text === undefined) continue
    await session.execute(`DELETE FROM "SYS"."_CONSTRAINT_NAMES" WHERE TABLE_OID = ${Number(oid)} AND CONSTRAINT_TEXT = ${quoteString(String(text))}`)
    await session.execute(`INSERT INTO "SYS"."_CONSTRAINT_NAMES" VALUES (${Number(oid)}, ${quoteString(n.name)}, ${quoteString(String(text))})`)
  }
}
