/**
 * Dictionary views read inside a session's open transaction. The shared snapshot tables the admin session commits
 * (session-dictionary.ts) are hidden from a DuckDB transaction that started before, so for the length of one
 * statement the session gets connection-local TEMP copies: the snapshot tables its views read, filled from the
 * catalog as it is now, and the views over them under their own names (TEMP objects come first in DuckDB's search
 * path). The statement then runs in the session's transaction and sees its own uncommitted rows beside the current
 * catalog, as an Oracle statement does (Database Concepts, "Data Concurrency and Consistency": a transaction sees its
 * own changes, and "Read Committed Isolation Level": a statement sees what was committed before it began).
 * The copies are written unjournaled (a statement-level rollback's replay does not repeat them) and dropped when the
 * statement is done; a rollback drops them too. Calls do not nest: a stored function the statement calls runs between
 * its runs (plsql/sql-functions.ts `settle`), after its copies are dropped and its result materialized, and a write
 * reads the transaction's snapshot instead of copies (session-dml.ts).
 */
import type { Session as EngineSession } from "../engine/index.ts"
import { decodeName, quoteDuck } from "./names.ts"

/** What the copies need from the database. */
export interface TransactionDictionaryDatabase {
  refreshDictionary(s: Pick<EngineSession, "execute">, names: ReadonlySet<string>, asker: { readonly user: string; readonly roles: ReadonlySet<string> } | undefined, copy: ReadonlySet<string>): Promise<void>
}

/** A reference `SYS.name` / `"SYS"."name"` in DuckDB text. */
const SYS_REF = /(?:"SYS"|\bSYS)\.("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)/gi

/**
 * `sql` with `edit` applied to its code and `literal` to its string literals and comments (kept as written by
 * default), so that a literal such as `'SYS.ALL_TABLES'` neither names a view nor is rewritten. A quoted identifier
 * stays code, stepped over whole, so that a `'` inside it starts no literal.
 */
const inCode = (sql: string, edit: (code: string) => string, literal: (text: string) => string = (text) => text): string => {
  let out = ""
  let code = ""
  let i = 0
  const past = (quote: string) => {
    let j = i + 1
    while (j < sql.length && !(sql[j] === quote && sql[j + 1] !== quote)) j += sql[j] === quote ? 2 : 1
    return Math.min(j + 1, sql.length)
  }
  const skip = (end: number) => {
    out += edit(code) + literal(sql.slice(i, end))
    code = ""
    i = end
  }
  while (i < sql.length) {
    const c = sql[i]!
    if (c === "'") skip(past("'"))
    else if (c === "-" && sql[i + 1] === "-") skip(sql.includes("\n", i) ? sql.indexOf("\n", i) : sql.length)
    else if (c === "/" && sql[i + 1] === "*") skip(sql.includes("*/", i + 2) ? sql.indexOf("*/", i + 2) + 2 : sql.length)
    else {
      const end = c === '"' ? past('"') : i + 1
      code += sql.slice(i, end)
      i = end
    }
  }
  return out + edit(code)
}

const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toUpperCase())

/** The SYS views' DuckDB definitions by database: made once, when the database is created (database.ts). */
const definitionsOf = new WeakMap<object, ReadonlyMap<string, string>>()

const definitions = async (db: object, engine: EngineSession): Promise<ReadonlyMap<string, string>> => {
  const known = definitionsOf.get(db)
  if (known !== undefined) return known
  const defs = new Map((await engine.queryAll(`SELECT view_name, sql FROM duckdb_views() WHERE schema_name = 'SYS' AND NOT internal`)).map(([n, sql]) => [String(n), String(sql)]))
  definitionsOf.set(db, defs)
  return defs
}

/** The SYS views `duckSql` names (but not those `own` names, the session's own schema's) and the views and snapshot tables (`ORA$...`) they read, views after what they read. */
const closureOf = (duckSql: string, views: ReadonlyMap<string, string>, own: ReadonlySet<string>): { views: Array<string>; tables: Set<string> } => {
  const out = { views: [] as Array<string>, tables: new Set<string>() }
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    const sql = views.get(name)
    if (sql === undefined) {
      if (name.startsWith("ORA$")) out.tables.add(name)
      return
    }
    for (const m of sql.matchAll(SYS_REF)) visit(unquote(m[1]!))
    out.views.push(name)
  }
  // the text names a view by its DuckDB name (`V$$SESSION`) or, Oracle text, as written (`V$SESSION`)
  const upper = inCode(duckSql, (code) => code, () => " ").toUpperCase()
  const names = (name: string) => [name, name.replace(/\$\$/g, "$")]
  for (const name of views.keys()) {
    if (!own.has(name) && names(name).some((n) => upper.includes(n) && new RegExp(`(^|[^A-Z0-9_$])${n.replace(/\$/g, "\\$")}($|[^A-Z0-9_$])`).test(upper))) visit(name)
  }
  return out
}

/**
 * Runs `run` on the session's own connection, inside its open transaction, with the dictionary views `duckSql`
 * names as TEMP copies of the catalog as it is now. `tables`: the dictionary tables to fill (session-dictionary.ts
 * `dictionaryTablesOf`); `rename` points the views' `SYS.` qualified names in a DuckDB text at the copies (an
 * unqualified name finds them first anyway).
 */
export const withTransactionDictionary = async <A>(
  db: TransactionDictionaryDatabase,
  engine: EngineSession,
  duckSql: string,
  tables: ReadonlySet<string>,
  asker: { readonly user: string; readonly roles: ReadonlySet<string> } | undefined,
  run: (rename: (sql: string) => string) => Promise<A>
): Promise<A> => {
  const defs = await definitions(db, engine)
  // a table or view of the session's own schema is found before the public synonym of a dictionary view (Database
  // Administrator's Guide, "Managing Object Name Resolution": current schema first, then public synonyms;
  // https://docs.oracle.com/cd/B28359_01/server.111/b28310/general008.htm)
  const own = new Set(
    (await engine.queryAll(`SELECT table_name FROM duckdb_tables() WHERE schema_name = current_schema() AND schema_name <> 'SYS' UNION ALL SELECT view_name FROM duckdb_views() WHERE schema_name = current_schema() AND schema_name <> 'SYS'`)).map(([n]) => String(n))
  )
  const needed = closureOf(duckSql, defs, own)
  const local = (name: string) => `temp.main.${quoteDuck(name)}`
  const created: Array<string> = []
  try {
    for (const t of needed.tables) {
      await engine.runUnrecorded(`CREATE OR REPLACE TEMP TABLE ${quoteDuck(t)} AS SELECT * FROM "SYS".${quoteDuck(t)} WITH NO DATA`)
      created.push(`TABLE ${local(t)}`)
    }
    // the rows the admin session would write, written into the copies instead
    await db.refreshDictionary(
      {
        execute: async (sql) => {
          const m = /^(DELETE FROM|INSERT INTO) "SYS"\.("(?:[^"]|"")+")([\s\S]*)$/.exec(sql)
          if (m === null || !needed.tables.has(unquote(m[2]!))) return 0
          await engine.runUnrecorded(`${m[1]} ${local(unquote(m[2]!))}${m[3]}`)
          return 0
        }
      },
      tables,
      asker,
      // by view name: `ORA$$ALL_TABLES` holds ALL_TABLES, `ORA$$V$$SESSION` V$SESSION
      new Set([...needed.tables].map((t) => decodeName(t).slice("ORA$".length)))
    )
    const rename = (sql: string) => inCode(sql, (code) => code.replace(SYS_REF, (ref, name: string) => (needed.views.includes(unquote(name)) || needed.tables.has(unquote(name)) ? local(unquote(name)) : ref)))
    for (const v of needed.views) {
      const body = defs.get(v)!.replace(/^CREATE VIEW (?:"SYS"|SYS)\.("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*) AS /, "").replace(/;\s*$/, "")
      await engine.runUnrecorded(`CREATE OR REPLACE TEMP VIEW ${quoteDuck(v)} AS ${rename(body)}`)
      created.push(`VIEW ${local(v)}`)
    }
    return await run(rename)
  } finally {
    // after a failure that aborted the transaction the drops fail: its rollback drops the copies
    for (const c of created.reverse()) await engine.runUnrecorded(`DROP ${c.split(" ")[0]} IF EXISTS ${c.slice(c.indexOf(" ") + 1)}`).catch(() => undefined)
  }
}
