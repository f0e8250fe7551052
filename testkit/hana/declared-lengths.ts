/**
 * Declared lengths for columns DuckDB cannot give a CHECK: those made by `ALTER TABLE … ADD` and
 * `CREATE TABLE … AS` / `LIKE`.
 *
 * HANA refuses a value longer than a column's declared length with error 274 whatever made the column. The server
 * enforces lengths with CHECK constraints (ddl.ts lengthCheck), which DuckDB's ADD COLUMN and CREATE TABLE AS
 * do not take (and DuckDB has no ALTER TABLE … ADD CONSTRAINT). So the table is rebuilt from the DDL DuckDB keeps for
 * it with the checks added, inside one transaction: rows, column comments (the declared HANA types), indexes, the
 * table comment and the ROW-table mark carry over. DuckDB cannot drop a table another table references by foreign
 * key, so the referencing tables (and theirs, transitively) are kept aside, dropped and recreated from their own DDL
 * around the rebuild. Local temporary tables are rebuilt in the temporary catalog.
 */
import type { Session } from "../engine/index.ts"
import { oidMatch, quoteIdent } from "./binding.ts"
import { decodeName, quoteString } from "./names.ts"
import { lengthCheck } from "./ddl.ts"
import { parseTypeText } from "./types.ts"

/** `CREATE [TEMP] TABLE <name>(` at the start of the DDL DuckDB keeps for a table (duckdb_tables().sql). */
const CREATE_TABLE_HEAD = /^CREATE (?:TEMP )?TABLE (?:"(?:[^"]|"")*"|[^."(]+)(?:\.(?:"(?:[^"]|"")*"|[^."(]+))*\(/

/** An identifier DuckDB wrote as is, quoted (one already quoted stays). */
const quotedPart = (part: string): string => (part.startsWith('"') ? part : quoteIdent(part))

/** Identifiers separated by `sep` (`.` or `,`), outside double quotes. */
const splitNames = (text: string, sep: string): string[] =>
  (text.match(new RegExp(`"(?:[^"]|"")*"|[^"${sep}]+`, "g")) ?? []).map((p) => p.trim()).filter((p) => p !== "")

/**
 * DuckDB writes the names of a FOREIGN KEY clause unquoted in the DDL it keeps (`REFERENCES ~SYSTEM.P(~i~d)`),
 * which does not parse back for the escaped names of names.ts; this quotes them.
 */
export const quoteForeignKeys = (body: string): string =>
  body.replace(/FOREIGN KEY \(([^)]*)\) REFERENCES ((?:"(?:[^"]|"")*"|[^"(])+)\(([^)]*)\)/g, (_m, from: string, table: string, to: string) => {
    const list = (names: string) => splitNames(names, ",").map(quotedPart).join(", ")
    return `FOREIGN KEY (${list(from)}) REFERENCES ${splitNames(table, ".").map(quotedPart).join(".")}(${list(to)})`
  })

/** The `(columns, constraints)` part of a table's DDL as DuckDB keeps it (names quoted), without the closing `;`. */
export const tableBody = (ddl: string): string | undefined => {
  const head = CREATE_TABLE_HEAD.exec(ddl)
  return head === null ? undefined : quoteForeignKeys(ddl.slice(head[0].length - 1).replace(/;\s*$/, ""))
}

/** `CREATE [TEMP] TABLE <name>` for a table like `t` named `name` (a temporary one in the temporary catalog). */
const createTable = (t: { readonly schema: string; readonly temporary: boolean }, name: string): string =>
  t.temporary ? `CREATE TEMP TABLE ${quoteIdent(name)}` : `CREATE TABLE ${quoteIdent(t.schema)}.${quoteIdent(name)}`

/** A table as DuckDB keeps it: what a rebuild or a drop-and-recreate must carry over. */
export interface KeptTable {
  readonly oid: number
  readonly schema: string
  readonly name: string
  readonly temporary: boolean
  readonly ddl: string
  readonly comment: string | undefined
  readonly indexes: readonly string[]
  readonly columnComments: ReadonlyArray<readonly [string, string]>
}

/** The table's name qualified for DuckDB (temporary tables live in the `temp` catalog). */
const qualifiedName = (t: { readonly schema: string; readonly name: string; readonly temporary: boolean }, name = t.name): string =>
  `${t.temporary ? "temp." : ""}${quoteIdent(t.schema)}.${quoteIdent(name)}`

/** The table `where` selects from duckdb_tables(), with what a rebuild must carry over. */
export const keptTable = async (session: Session, where: string, params: ReadonlyArray<string | number> = []): Promise<KeptTable | undefined> => {
  const found = await session.queryAll(`SELECT table_oid, schema_name, table_name, temporary, sql, comment FROM duckdb_tables() WHERE ${where}`, [...params])
  const [oid, schema, name, temporary, ddl, comment] = found[0] ?? []
  if (found.length === 0) return undefined
  const indexes = await session.queryAll(`SELECT sql FROM duckdb_indexes() WHERE table_oid = ? AND sql IS NOT NULL`, [oid as number])
  const columns = await session.queryAll(
    `SELECT column_name, comment FROM duckdb_columns() WHERE table_oid = ? AND comment IS NOT NULL AND comment <> '' ORDER BY column_index`,
    [oid as number]
  )
  return {
    oid: oid as number,
    schema: String(schema),
    name: String(name),
    temporary: temporary === true,
    ddl: String(ddl),
    comment: comment === null || comment === undefined || comment === "" ? undefined : String(comment),
    indexes: indexes.map(([sql]) => String(sql)),
    columnComments: columns.map(([column, text]) => [String(column), String(text)] as const)
  }
}

/**
 * The tables that reference `table` by foreign key, transitively, each listed before the tables it references
 * (the order to drop them in; recreate in reverse).
 */
const referencingTables = async (session: Session, table: KeptTable): Promise<KeptTable[]> => {
  const out: KeptTable[] = []
  const seen = new Set<number>([table.oid])
  const visit = async (t: KeptTable): Promise<void> => {
    const rows = await session.queryAll(
      `SELECT DISTINCT table_oid FROM duckdb_constraints() WHERE constraint_type = 'FOREIGN KEY' AND referenced_table = ? AND schema_name = ? AND table_oid <> ?`,
      [t.name, t.schema, t.oid]
    )
    for (const [oid] of rows) {
      if (seen.has(oid as number)) continue
      seen.add(oid as number)
      const referencing = await keptTable(session, "table_oid = ?", [oid as number])
      if (referencing === undefined) continue
      await visit(referencing)
      out.push(referencing)
    }
  }
  await visit(table)
  return out
}

const referencesItself = async (session: Session, t: KeptTable): Promise<boolean> =>
  (await session.queryAll(`SELECT 1 FROM duckdb_constraints() WHERE constraint_type = 'FOREIGN KEY' AND table_oid = ? AND referenced_table = ?`, [t.oid, t.name]))
    .length > 0

/** Puts back what `kept` had besides rows and columns on the table now named like it. */
const restoreExtras = async (session: Session, kept: KeptTable): Promise<void> => {
  const target = qualifiedName(kept)
  const statements = kept.columnComments.map(([column, text]) => `COMMENT ON COLUMN ${target}.${quoteIdent(column)} IS ${quoteString(text)}`)
  if (kept.comment !== undefined) statements.push(`COMMENT ON TABLE ${target} IS ${quoteString(kept.comment)}`)
  statements.push(...kept.indexes)
  // SYS.TABLES knows ROW tables and table options by oid (catalog.ts): the new table takes over the old one's.
  for (const byOid of ["_ROW_TABLES", "_TABLE_OPTIONS", "_CONSTRAINT_NAMES", "_COLUMN_OPTIONS"]) statements.push(
    `UPDATE "SYS"."${byOid}" SET TABLE_OID = (SELECT table_oid FROM duckdb_tables() WHERE database_name = ${kept.temporary ? "'temp'" : "current_database()"}
       AND schema_name = ${quoteString(kept.schema)} AND table_name = ${quoteString(kept.name)}) WHERE TABLE_OID = ${kept.oid}`
  )
  for (const sql of statements) await session.execute(sql)
}

/** Runs `work` in a transaction: the session's open one, else one of its own (all of the rebuild or none of it). */
const atomically = async (session: Session, work: () => Promise<void>): Promise<void> => {
  if (session.inTransaction) return work()
  await session.begin()
  try {
    await work()
  } catch (e) {
    await session.rollback().catch(() => undefined)
    throw e
  }
  await session.commit()
}

/**
 * Rebuilds `kept` with the table body `body` (see the module comment): rows, extras and the tables referencing it
 * carry over, all in one transaction. Does nothing for a table DuckDB keeps no usable DDL for, and then answers false.
 */
export const rebuild = async (session: Session, kept: KeptTable, body: string): Promise<boolean> => {
  const referencing = await referencingTables(session, kept)
  // DuckDB keeps no usable DDL for a table whose foreign key references itself (the key is left out as `, )`), so
  // such tables are not rebuilt and keep new columns unchecked (README.md, "Differences").
  for (const t of [kept, ...referencing]) {
    if (tableBody(t.ddl) === undefined || (await referencesItself(session, t))) return false
  }
  // The rows wait in a copy while the table is made again under its own name: a table renamed into place would stay
  // known by its first name to the tables its foreign keys reference (DuckDB then refuses to drop those).
  const staging = `__hana_rebuild_${kept.oid}`
  await atomically(session, async () => {
    for (const r of referencing) {
      await session.execute(`${createTable(r, `__hana_keep_${r.oid}`)} AS SELECT * FROM ${qualifiedName(r)}`)
      await session.execute(`DROP TABLE ${qualifiedName(r)}`)
    }
    await session.execute(`${createTable(kept, staging)} AS SELECT * FROM ${qualifiedName(kept)}`)
    await session.execute(`DROP TABLE ${qualifiedName(kept)}`)
    await session.execute(`${createTable(kept, kept.name)}${body}`)
    await session.execute(`INSERT INTO ${qualifiedName(kept)} SELECT * FROM ${qualifiedName(kept, staging)}`)
    await session.execute(`DROP TABLE ${qualifiedName(kept, staging)}`)
    await restoreExtras(session, kept)
    for (const r of [...referencing].reverse()) {
      await session.execute(`${createTable(r, r.name)}${tableBody(r.ddl)!}`)
      await session.execute(`INSERT INTO ${qualifiedName(r)} SELECT * FROM ${qualifiedName(r, `__hana_keep_${r.oid}`)}`)
      await session.execute(`DROP TABLE ${qualifiedName(r, `__hana_keep_${r.oid}`)}`)
      await restoreExtras(session, r)
    }
  })
  return true
}

/**
 * Adds the length checks of `columns` (DuckDB names; absent: all) of `table` (a quoted DuckDB name) by rebuilding
 * it (see the module comment).
 */
export const enforceDeclaredLengths = async (session: Session, table: string, columns?: readonly string[]): Promise<void> => {
  const kept = await keptTable(session, oidMatch(table))
  if (kept === undefined) return
  const declared = await session.queryAll(`SELECT column_name, comment FROM duckdb_columns() WHERE table_oid = ? ORDER BY column_index`, [kept.oid])
  const checks: string[] = []
  for (const [column, text] of declared) {
    if (columns !== undefined && !columns.includes(String(column))) continue
    const type = text === null || text === "" ? undefined : parseTypeText(String(text))
    const check = type === undefined ? "" : lengthCheck(decodeName(String(column)), type)
    if (check !== "") checks.push(check.trim())
  }
  const body = tableBody(kept.ddl)
  if (checks.length === 0 || body === undefined) return
  await rebuild(session, kept, `${body.replace(/\)$/, "")}, ${checks.join(", ")})`)
}

/**
 * After DuckDB renamed column `from` of `table` (a quoted DuckDB name) to `to` (HANA names): a length check names the
 * column in its 274 text, which DuckDB's rename leaves as it was, so the table is rebuilt with the text naming `to`.
 */
export const renameLengthCheck = async (session: Session, table: string, from: string, to: string): Promise<void> => {
  const kept = await keptTable(session, oidMatch(table))
  const body = kept === undefined ? undefined : tableBody(kept.ddl)
  if (kept === undefined || body === undefined) return
  const named = (column: string) => `Failed in "${column.replaceAll("'", "''")}" column with the value`
  if (!body.includes(named(from))) return
  await rebuild(session, kept, body.replaceAll(named(from), named(to)))
}
