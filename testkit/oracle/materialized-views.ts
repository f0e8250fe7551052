/**
 * Materialized views (SQL Language Reference, "CREATE MATERIALIZED VIEW", "DROP MATERIALIZED VIEW"; PL/SQL Packages
 * and Types Reference, "DBMS_MVIEW"; Database Reference, "ALL_MVIEWS"):
 * - `CREATE MATERIALIZED VIEW [schema.]name [(column aliases)] [BUILD IMMEDIATE | DEFERRED] [REFRESH [COMPLETE | FAST
 *   | FORCE] [ON DEMAND] | NEVER REFRESH] [{ENABLE | DISABLE} QUERY REWRITE] ... AS subquery` stores the query's rows
 *   in a container table of the view's name (a CREATE TABLE ... AS SELECT, listed in USER_TABLES as Oracle lists it,
 *   and queried like it); BUILD DEFERRED leaves it empty until the first refresh; a `START WITH ... NEXT ...` schedule
 *   is accepted and never runs. `REFRESH ... ON COMMIT` is ORA-03001.
 * - `DBMS_MVIEW.REFRESH(list [, method])` (also DBMS_SNAPSHOT.REFRESH) recomputes each named view completely and
 *   commits (every method gives the complete refresh's rows; no materialized view logs are kept); an unknown name is
 *   ORA-23401.
 * - `DROP MATERIALIZED VIEW [schema.]name [PRESERVE TABLE]` drops it (ORA-12003 for an unknown name); DROP TABLE of
 *   its container table is ORA-12083.
 * - USER_ / ALL_ / DBA_MVIEWS list them; USER_OBJECTS shows a MATERIALIZED VIEW object beside the TABLE.
 * INSERT, UPDATE, DELETE and MERGE into one are ORA-01732, as into a read-only materialized view.
 * STALENESS is FRESH after a build or refresh, STALE once a transaction that wrote one of the tables its query names
 * commits ("out of date because one or more of its masters has changed", Database Reference, "ALL_MVIEWS"), until the
 * next refresh; UNUSABLE for a deferred build never refreshed. (Oracle may show NEEDS_COMPILE first, until the view is
 * compiled or queried: **unconfirmed**, and not shown here.)
 */
import { ora, OraError } from "./errors.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { charType, dateType, dictionaryNumberType, type OraType } from "./types.ts"
import { quoteDuck } from "./names.ts"

/** One materialized view. */
export interface MaterializedView {
  readonly owner: string
  readonly name: string
  /** The defining query's Oracle text. */
  readonly query: string
  readonly refreshMode: "DEMAND" | "NEVER"
  readonly refreshMethod: "COMPLETE" | "FAST" | "FORCE" | "NEVER"
  readonly buildMode: "IMMEDIATE" | "DEFERRED"
  readonly rewriteEnabled: boolean
  lastRefresh: Date | undefined
  /**
   * The tables its query names, by `OWNER.NAME` (any name in it that is a table's, so a column sharing a table's name
   * adds that table): a committed write of one makes it STALE, even one a ROLLBACK TO SAVEPOINT took back.
   */
  readonly baseTables: ReadonlySet<string>
  /** A base table changed since the last build or refresh. */
  stale?: boolean
  /** Set while DBMS_MVIEW.REFRESH rewrites its rows (the only writes it takes). */
  refreshing?: boolean
}

const stores = new WeakMap<object, Map<string, MaterializedView>>()

/** The materialized views of database `db`, by `OWNER.NAME`. */
export const materializedViewsOf = (db: object): Map<string, MaterializedView> => {
  let s = stores.get(db)
  if (s === undefined) stores.set(db, (s = new Map()))
  return s
}

/** What creating and dropping one needs of the DDL runner (ddl.ts). */
export interface MaterializedViewDdl {
  readonly s: { readonly db: { readonly catalog: { getTable(owner: string, name: string): object | undefined; putObject(o: { owner: string; name: string; type: "MATERIALIZED VIEW"; objectId: number; created: Date }): void; dropObject(owner: string, type: "MATERIALIZED VIEW", name: string): void; newObjectId(): number } } }
  qualified(toks: ReadonlyArray<Tok>, at: number): { schema: string; name: string; next: number }
  /** Runs another DDL statement (Oracle text) as this session. */
  run(sql: string): Promise<void>
}


/** `CREATE MATERIALIZED VIEW` whose name starts at `at` (after VIEW), `sql` the statement's text. */
export const createMaterializedView = async (ddl: MaterializedViewDdl, toks: ReadonlyArray<Tok>, at: number, sql: string): Promise<void> => {
  if (isKw(toks[at], "LOG") && isKw(toks[at + 1], "ON")) throw ora.unimplemented("CREATE MATERIALIZED VIEW LOG")
  const q = ddl.qualified(toks, at)
  let k = q.next
  let aliases = ""
  if (isOp(toks[k], "(")) {
    const close = matchParen(toks, k)
    aliases = ` (${toks.slice(k + 1, close).map((t) => t.text).join(" ")})`
    k = close + 1
  }
  let buildMode: MaterializedView["buildMode"] = "IMMEDIATE"
  let refreshMethod: MaterializedView["refreshMethod"] = "FORCE"
  let refreshMode: MaterializedView["refreshMode"] = "DEMAND"
  let rewriteEnabled = false
  for (; k < toks.length && !isKw(toks[k], "AS"); k++) {
    const t = toks[k]!
    if (isOp(t, "(")) k = matchParen(toks, k)
    else if (isKw(t, "BUILD") && isKw(toks[k + 1], "DEFERRED")) buildMode = "DEFERRED"
    else if (isKw(t, "PREBUILT")) throw ora.unimplemented("CREATE MATERIALIZED VIEW ... ON PREBUILT TABLE")
    else if (isKw(t, "REFRESH") && isKw(toks[k + 1], "COMPLETE", "FAST", "FORCE")) refreshMethod = toks[k + 1]!.value as "COMPLETE" | "FAST" | "FORCE"
    else if (isKw(t, "NEVER") && isKw(toks[k + 1], "REFRESH")) {
      refreshMethod = "NEVER"
      refreshMode = "NEVER"
    } else if (isKw(t, "ON") && isKw(toks[k + 1], "COMMIT", "STATEMENT")) throw ora.unimplemented(`materialized view refresh ON ${toks[k + 1]!.value}`)
    else if (isKw(t, "ENABLE") && isKw(toks[k + 1], "QUERY")) rewriteEnabled = true
    else if (isKw(t, "FOR") && isKw(toks[k + 1], "UPDATE")) throw ora.unimplemented("updatable materialized views")
  }
  const asAt = toks[k]
  const first = toks[k + 1]
  if (asAt === undefined || first === undefined) throw ora.missingExpression()
  const query = sql.slice(first.pos).trim()
  const name = `${quoteDuck(q.schema)}.${quoteDuck(q.name)}`
  await ddl.run(`CREATE TABLE ${name}${aliases} AS ${query}`)
  if (buildMode === "DEFERRED") await ddl.run(`TRUNCATE TABLE ${name}`)
  const baseTables = tablesNamed(toks.slice(k + 1), q.schema, (owner, name) => ddl.s.db.catalog.getTable(owner, name) !== undefined)
  materializedViewsOf(ddl.s.db).set(`${q.schema}.${q.name}`, { owner: q.schema, name: q.name, query, refreshMode, refreshMethod, buildMode, rewriteEnabled, lastRefresh: buildMode === "DEFERRED" ? undefined : new Date(), baseTables })
  ddl.s.db.catalog.putObject({ owner: q.schema, name: q.name, type: "MATERIALIZED VIEW", objectId: ddl.s.db.catalog.newObjectId(), created: new Date() })
}

/** The existing tables (`OWNER.NAME`) that the names among `toks` denote, unqualified ones in `schema`. */
const tablesNamed = (toks: ReadonlyArray<Tok>, schema: string, exists: (owner: string, name: string) => boolean): Set<string> => {
  const out = new Set<string>()
  const name = (t: Tok | undefined) => (t === undefined ? undefined : t.kind === "qident" ? t.value : t.kind === "ident" ? t.value.toUpperCase() : undefined)
  for (let i = 0; i < toks.length; i++) {
    const first = name(toks[i])
    if (first === undefined || isOp(toks[i - 1], ".")) continue
    const second = isOp(toks[i + 1], ".") ? name(toks[i + 2]) : undefined
    const [owner, table] = second === undefined ? [schema, first] : [first, second]
    if (exists(owner, table)) out.add(`${owner}.${table}`)
  }
  return out
}

/** A transaction that wrote the tables `written` (`OWNER.NAME`) committed: the materialized views over them are stale. */
export const noteCommittedWrites = (db: object, written: ReadonlySet<string>): void => {
  if (written.size === 0) return
  for (const view of materializedViewsOf(db).values()) if ([...view.baseTables].some((t) => written.has(t))) view.stale = true
}

/** `DROP MATERIALIZED VIEW` whose name starts at `at`. */
export const dropMaterializedView = async (ddl: MaterializedViewDdl, toks: ReadonlyArray<Tok>, at: number): Promise<void> => {
  if (isKw(toks[at], "LOG") && isKw(toks[at + 1], "ON")) throw ora.unimplemented("DROP MATERIALIZED VIEW LOG")
  const q = ddl.qualified(toks, at)
  const views = materializedViewsOf(ddl.s.db)
  const key = `${q.schema}.${q.name}`
  if (!views.has(key)) throw new OraError(12003, `materialized view "${q.schema}"."${q.name}" does not exist`)
  views.delete(key)
  ddl.s.db.catalog.dropObject(q.schema, "MATERIALIZED VIEW", q.name)
  // PRESERVE TABLE keeps the container table as an ordinary table
  if (!(isKw(toks[q.next], "PRESERVE") && isKw(toks[q.next + 1], "TABLE"))) await ddl.run(`DROP TABLE ${quoteDuck(q.schema)}.${quoteDuck(q.name)}`)
}

/** ORA-01732 for INSERT, UPDATE, DELETE or MERGE into a (read-only) materialized view outside its refresh. */
export const checkMaterializedViewWrite = (db: object, target: { readonly owner: string; readonly name: string } | undefined): void => {
  const view = target === undefined ? undefined : materializedViewsOf(db).get(`${target.owner}.${target.name}`)
  if (view !== undefined && view.refreshing !== true) throw new OraError(1732, "data manipulation operation not legal on this view")
}

/** ORA-12083 for DROP TABLE of a materialized view's container table. */
export const checkTableDrop = (db: object, schema: string, name: string): void => {
  if (materializedViewsOf(db).has(`${schema}.${name}`)) throw new OraError(12083, "must use DROP MATERIALIZED VIEW to drop")
}

/** The views named by DBMS_MVIEW.REFRESH's comma-separated `list` (owner defaulting to `schema`), checked to exist. */
export const refreshTargets = (db: object, schema: string, list: string): Array<MaterializedView> =>
  list
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n.length > 0)
    .map((n) => {
      const parts = n.split(".").map((p) => (p.startsWith('"') ? p.slice(1, -1) : p.toUpperCase()))
      const [owner, name] = parts.length > 1 ? [parts[0]!, parts[1]!] : [schema, parts[0]!]
      const view = materializedViewsOf(db).get(`${owner}.${name}`)
      if (view === undefined) throw new OraError(23401, `materialized view "${owner}"."${name}" does not exist`)
      return view
    })

type ColumnMeta = { name: string; type: OraType; nullable: boolean; defaultText: null }
const v = (name: string, n: number): ColumnMeta => ({ name, type: charType("VARCHAR2", n), nullable: true, defaultText: null })

/** ALL_MVIEWS's columns (a subset of the Database Reference's, in its order). */
export const materializedViewShapes: Record<string, Array<ColumnMeta>> = {
  ALL_MVIEWS: [
    v("OWNER", 128),
    v("MVIEW_NAME", 128),
    v("CONTAINER_NAME", 128),
    v("QUERY", 4000),
    { name: "QUERY_LEN", type: dictionaryNumberType, nullable: true, defaultText: null },
    v("UPDATABLE", 1),
    v("REWRITE_ENABLED", 1),
    v("REFRESH_MODE", 6),
    v("REFRESH_METHOD", 8),
    v("BUILD_MODE", 9),
    v("FAST_REFRESHABLE", 18),
    v("LAST_REFRESH_TYPE", 8),
    { name: "LAST_REFRESH_DATE", type: dateType, nullable: true, defaultText: null },
    v("STALENESS", 19),
    v("COMPILE_STATE", 19)
  ]
}

/** The rows of ALL_MVIEWS's snapshot. */
export const materializedViewRows = (db: object): Array<[string, Array<Array<unknown>>]> => [
  [
    "ALL_MVIEWS",
    [...materializedViewsOf(db).values()].map((m) => [
      m.owner,
      m.name,
      m.name,
      m.query,
      m.query.length,
      "N",
      m.rewriteEnabled ? "Y" : "N",
      m.refreshMode,
      m.refreshMethod,
      m.buildMode,
      "NO",
      m.lastRefresh === undefined ? "NA" : "COMPLETE",
      m.lastRefresh === undefined ? null : new Date(m.lastRefresh.getTime() - (m.lastRefresh.getTime() % 1000)),
      m.lastRefresh === undefined ? "UNUSABLE" : m.stale === true ? "STALE" : "FRESH",
      "VALID"
    ])
  ]
]
