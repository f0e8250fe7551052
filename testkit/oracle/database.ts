/**
 * One Oracle test database: the shared DuckDB engine, users, the Oracle catalog, SYS objects (DUAL,
 * macros for Oracle functions, data dictionary views) and the list of live sessions for V$SESSION.
 */
import { createHash } from "node:crypto"
import { Engine, type Session as EngineSession } from "../engine/index.ts"
import { EXACT_NUMBER_ALIAS, registerNumberFunctions } from "./number-functions.ts"
import { registerDatetimeFunctions, WALL_ALIAS, ZONED_ALIAS } from "./datetime-functions.ts"
import { registerFormatSiteFunctions } from "./format-model-sites.ts"
import { registerNlsFunctions } from "./nls-formats.ts"
import { EXACT_DS_ALIAS, EXACT_YM_ALIAS, registerIntervalFunctions } from "./interval-functions.ts"
import { registerJsonFunctions } from "./json-functions.ts"
import { registerJsonSerialize } from "./json-serialize.ts"
import { registerJsonMergePatch } from "./json-mergepatch.ts"
import { registerJsonTransform } from "./json-transform.ts"
import { UserLocks } from "./user-locks.ts"
import { registerRegexpFunctions } from "./regexp-functions.ts"
import { registerStringFunctions } from "./string-functions.ts"
import { registerEverydayFunctions } from "./everyday-functions.ts"
import { newerFunctions } from "./newer-functions.ts"
import { registerPadSubstr } from "./pad-substr.ts"
import { registerUnicodeEscapes } from "./unicode-escapes.ts"
import { registerWeekDates } from "./week-dates.ts"
import { materializedViewRows } from "./materialized-views.ts"
import { updatableColumnRows } from "./view-dml.ts"
import { registerLobFunctions } from "./lob-functions.ts"
import { registerBuiltinFunctions } from "./builtin-functions.ts"
import { makeVerifier, type Verifier } from "./auth.ts"
import { SqlArea } from "./sql-area.ts"
import { catalogDictionaryRows } from "./catalog-dictionary-rows.ts"
import { Catalog, dictionaryShapes, OWNED_VIEWS, type PlsqlProcedure, type TableMeta } from "./catalog.ts"
import type { OracleVersion } from "./errors.ts"
import type { OracleFaults } from "./faults.ts"
import { versionInfo } from "./server-versions.ts"
import { duckIdent, encodeName } from "./names.ts"
import { describedPackageTypes, namedTypesOf, packageOfNamedType } from "./named-types.ts"
import { dictionaryViewSelect } from "./date-language.ts"
import { databaseMacros } from "./database-macros.ts"
import { typeDictionaryRows } from "./type-dictionary.ts"
import { Grants } from "./privileges.ts"
import { createRoleDictionaryViews, refreshRoleDictionary } from "./role-dictionary.ts"
import { Authorizations, START_UP_USER_PRIVILEGES, START_UP_USER_ROLES } from "./system-privileges.ts"
import { accessDictionaryRows, createPrivilegeViews } from "./dictionary-privileges.ts"
import { charType } from "./types.ts"
import { WaitsFor } from "./deadlocks.ts"
import { RowLocks } from "./row-locks.ts"
import { TableLocks } from "./table-locks.ts"
import { emptyStats } from "../common/stats.ts"
import { type LockMarks, lockMarksOf, releaseLocksAfter } from "./lock-marks.ts"

/** Live-session facts shown by V$SESSION. */
export interface SessionInfo {
  readonly sid: number
  readonly serial: number
  readonly user: string
  schema: string
  status: "ACTIVE" | "INACTIVE"
  sqlId: string | null
  prevSqlId: string | null
  readonly program: string
  readonly machine: string
  readonly osUser: string
  readonly logonTime: Date
  /** The cursors the client holds open, by cursor id (V$OPEN_CURSOR, 'opened cursors current'). */
  readonly cursors: ReadonlyMap<number, { readonly sql: string }>
  /** Cursors opened since logon ('opened cursors cumulative'). */
  cursorsOpened: number
  /** End-to-end attributes (application-info.ts); MODULE is the program until set, the others NULL. */
  module?: string | null
  action?: string | null
  clientInfo?: string | null
  clientIdentifier?: string | null
  ecid?: string | null
  dbOp?: string | null
}

/** V$STATNAME rows the server keeps statistics for: number, name, class (1 = user). */
const STATISTICS = [
  [3, "opened cursors cumulative", 1],
  [4, "opened cursors current", 1]
] as const

/** The PL/SQL engine's part (plsql/stored-code-hooks.ts), handed in so that database.ts imports nothing of plsql/. */
export interface StoredCodeHooks {
  /** Registers the engine functions through which SQL calls stored functions. */
  readonly registerFunctions: Parameters<Engine["registerFunctions"]>[0]
  /** Rows of the stored-code dictionary views (USER_SOURCE, USER_PROCEDURES, ...), by view. */
  readonly dictionaryRows: (db: OracleDatabase) => ReadonlyArray<readonly [string, Array<Array<unknown>>]>
  /** VALID or INVALID, as *_OBJECTS.STATUS shows a stored unit. */
  readonly objectStatus: (db: OracleDatabase, owner: string, type: string, name: string) => "VALID" | "INVALID"
}

/** Settings of a database. */
export interface DatabaseSettings {
  readonly version: OracleVersion
  readonly serviceName: string
  readonly dbTimeZone: string
  readonly users: ReadonlyArray<{ readonly name: string; readonly password: string; readonly dba: boolean }>
  /** How long a write waits for a row another transaction holds before failing with ORA-30006. */
  readonly lockWaitMs: number
  /** NLS_NUMERIC_CHARACTERS, decimal character then group separator (default ".,"): each session starts with it. */
  readonly numericCharacters?: string
  /** Where engine failures are logged with the ORA- error sent for them (server option `debugLog`). */
  readonly debugLog?: (line: string) => void
  /** The PL/SQL engine's part of the database. */
  readonly storedCode: StoredCodeHooks
  /** The server's `faults` option (the same object, which a test may change), for the hooks inside statements. */
  readonly faults?: Pick<OracleFaults, "holdWrites">
}

const ORACLE_MAINTAINED = ["SYS", "SYSTEM", "XDB", "OUTLN", "DBSNMP", "APPQOSSYS", "AUDSYS", "GSMADMIN_INTERNAL", "OJVMSYS", "DVSYS", "LBACSYS", "MDSYS", "CTXSYS", "ORDSYS", "PUBLIC"]

export { versionInfo }

/** The database behind one test server. */
export class OracleDatabase {
  readonly catalog = new Catalog()
  readonly procedures = new Map<string, PlsqlProcedure>()
  private readonly transactionEndWaiters = new Set<() => void>()
  /** Row locks of SELECT ... FOR UPDATE. */
  readonly rowLocks = new RowLocks()
  /** Primary / unique keys inserted by open transactions (key-locks.ts). */
  readonly keyLocks = new RowLocks<string>()
  /** Table locks of LOCK TABLE and of DML (table-locks.ts). */
  readonly tableLocks = new TableLocks()
  /** Which session waits for which lock holders: a wait closing a cycle fails with ORA-00060. */
  readonly waitsFor = new WaitsFor()
  /** The server's work counters (the handle's `stats`), kept here where the lock waits are. */
  readonly stats = emptyStats()

  /** DBMS_LOCK's user locks (user-locks.ts). */
  readonly userLocks = new UserLocks()

  /** How many transactions of each session ended ({@link transactionsEnded}). */
  private readonly ended = new Map<number, number>()

  /**
   * Releases the row, key and table locks of session `sid` (its transaction ended), and the user locks it took with
   * release_on_commit; true when it held any.
   */
  releaseLocks(sid: number): boolean {
    this.ended.set(sid, this.transactionsEnded(sid) + 1)
    this.waitsFor.released(sid)
    const rows = this.rowLocks.release(sid)
    const tables = this.tableLocks.release(sid)
    const user = this.userLocks.releaseOnCommit(sid)
    return this.keyLocks.release(sid) || rows || tables || user
  }

  /** How many transactions of session `sid` ended (a lock wait lasts until its holder's transaction ends: transaction-waits.ts). */
  transactionsEnded(sid: number): number {
    return this.ended.get(sid) ?? 0
  }

  /** The marks of the row, key and table locks session `sid` holds now (lock-marks.ts). */
  lockMarks(sid: number): LockMarks {
    return lockMarksOf(this, sid)
  }

  /** Releases the row, key and table locks session `sid` took after `marks` (a rollback to a savepoint); true when any. */
  releaseLocksAfter(sid: number, marks: LockMarks): boolean {
    return releaseLocksAfter(this, sid, marks)
  }

  /** A session committed or rolled back (or closed): writers waiting for its rows retry. */
  transactionEnded(): void {
    const waiters = [...this.transactionEndWaiters]
    this.transactionEndWaiters.clear()
    for (const w of waiters) w()
  }

  /** Resolves when some transaction ends or after `ms`, whichever comes first; `abort` resolves it at once. */
  nextTransactionEnd(ms: number): { readonly ended: Promise<void>; readonly abort: () => void } {
    let done: () => void = () => undefined
    const ended = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ms)
      done = () => {
        clearTimeout(timer)
        this.transactionEndWaiters.delete(done)
        resolve()
      }
      this.transactionEndWaiters.add(done)
    })
    return { ended, abort: () => done() }
  }

  /** Object privileges granted on tables and views (privileges.ts). */
  readonly grants = new Grants((user) => this.auth.rolesOf(user))
  /** System privileges and roles (system-privileges.ts). */
  readonly auth = new Authorizations()
  readonly sessions = new Map<number, SessionInfo>()
  /** The statements parsed and run (V$SQL). */
  readonly sqlArea = new SqlArea()
  private readonly verifiers = new Map<string, Verifier>()
  private nextSid = 20
  private dictionaryVersion = -1
  private constructor(
    readonly engine: Engine,
    private readonly admin: EngineSession,
    readonly settings: DatabaseSettings
  ) {}

  /** Creates the database, SYS objects and the configured users. */
  static async create(settings: DatabaseSettings): Promise<OracleDatabase> {
    const engine = await Engine.open({ threads: 2 })
    await engine.registerFunctions(registerNumberFunctions)
    await engine.registerFunctions(registerDatetimeFunctions)
    await engine.registerFunctions(registerFormatSiteFunctions)
    await engine.registerFunctions(registerNlsFunctions)
    await engine.registerFunctions(registerIntervalFunctions)
    await engine.registerFunctions(registerJsonFunctions)
    await engine.registerFunctions(registerJsonSerialize)
    await engine.registerFunctions(registerJsonMergePatch)
    await engine.registerFunctions(registerJsonTransform)
    await engine.registerFunctions(registerRegexpFunctions)
    await engine.registerFunctions(registerStringFunctions)
    await engine.registerFunctions(registerEverydayFunctions)
    await engine.registerFunctions((c) => newerFunctions().forEach((f) => c.registerScalarFunction(f)))
    await engine.registerFunctions(registerPadSubstr)
    await engine.registerFunctions(registerUnicodeEscapes)
    await engine.registerFunctions(registerWeekDates)
    await engine.registerFunctions(registerLobFunctions)
    await engine.registerFunctions(settings.storedCode.registerFunctions)
    const admin = await engine.session()
    const db = new OracleDatabase(engine, admin, settings)
    await engine.registerFunctions((c) => registerBuiltinFunctions(c, () => db.catalog))
    await db.bootstrap()
    return db
  }

  private async bootstrap(): Promise<void> {
    const a = this.admin
    await a.execute("SET TimeZone = 'UTC'")
    // Oracle sorts NULL as the largest value (ascending: NULLS LAST, descending: NULLS FIRST; linq2db's table of
    // defaults, https://linq2db.github.io/api/linq2db/linq2db--LinqToDB.Internal.SqlQuery.NullsDefaultOrdering.html);
    // DuckDB puts NULLs last either way since https://github.com/duckdb/duckdb/pull/7174
    await a.execute("SET default_null_order = 'nulls_last_on_asc_first_on_desc'")
    let uid = 0
    for (const name of ORACLE_MAINTAINED) {
      this.catalog.addUser(name, `${name.toLowerCase()}_locked_${Math.random()}`, true, uid++)
      if (name !== "PUBLIC") await a.execute(`CREATE SCHEMA IF NOT EXISTS ${duckIdent(name)}`)
    }
    for (const u of this.settings.users) {
      await this.createUser(u.name, u.password)
      for (const role of [...START_UP_USER_ROLES, ...(u.dba ? ["DBA"] : [])]) this.auth.grantRole(u.name, role, u.dba)
      this.auth.grantSystem(u.name, START_UP_USER_PRIVILEGES, false)
    }
    await a.execute(`CREATE TABLE "SYS"."DUAL" ("DUMMY" VARCHAR)`)
    await a.execute(`INSERT INTO "SYS"."DUAL" VALUES ('X')`)
    this.registerSysTable("DUAL")
    const macros = databaseMacros({ dbOffsetMinutes: this.dbOffsetMinutes(), pdbName: this.pdbName(), serviceName: this.settings.serviceName })
    for (const m of macros) await a.execute(`CREATE OR REPLACE MACRO main.${m}`)
    // the type exact NUMBER results carry (number-functions.ts), so that set operations can name it
    await a.execute(`CREATE TYPE main.${EXACT_NUMBER_ALIAS} AS VARCHAR`)
    // likewise the types of text datetime results (datetime-functions.ts), which DuckDB looks up by name to sort them
    for (const alias of [ZONED_ALIAS, WALL_ALIAS]) await a.execute(`CREATE TYPE main.${alias} AS VARCHAR`)
    // and of exact interval results (interval-functions.ts), which a subquery's ORDER BY or a set operation names
    await a.execute(`CREATE TYPE main.${EXACT_DS_ALIAS} AS DECIMAL(38,9)`)
    await a.execute(`CREATE TYPE main.${EXACT_YM_ALIAS} AS BIGINT`)
    // dictionary storage tables (snapshots refreshed lazily) and the ALL_/USER_/DBA_ views
    for (const [name, cols] of Object.entries(dictionaryShapes)) {
      if (name === "DUAL") continue
      const defs = cols.map((c) => `${duckIdent(c.name)} ${c.type.duck === "JSON" ? "VARCHAR" : c.type.duck}`).join(", ")
      await a.execute(`CREATE TABLE "SYS".${duckIdent(`ORA$${name}`)} (${defs})`)
      await a.execute(`CREATE VIEW "SYS".${duckIdent(name)} AS ${dictionaryViewSelect(name, `"SYS".${duckIdent(`ORA$${name}`)}`)}`)
      this.registerSysTable(name)
      const ownerCol = OWNED_VIEWS[name]
      if (ownerCol !== undefined) {
        const base = name.slice(4)
        await a.execute(`CREATE VIEW "SYS".${duckIdent(`DBA_${base}`)} AS SELECT * FROM "SYS".${duckIdent(`ORA$${name}`)}`)
        this.registerSysTable(`DBA_${base}`, name)
        const rest = cols.filter((c) => c.name !== ownerCol)
        await a.execute(
          `CREATE VIEW "SYS".${duckIdent(`USER_${base}`)} AS SELECT ${rest.map((c) => duckIdent(c.name)).join(", ")} FROM "SYS".${duckIdent(`ORA$${name}`)} WHERE ${duckIdent(ownerCol)} = getvariable('ora_user')`
        )
        this.registerSysTable(`USER_${base}`, name, ownerCol)
      }
    }
    await a.execute(`CREATE VIEW "SYS"."DBA_USERS" AS SELECT * FROM "SYS"."ORA$$ALL_USERS"`)
    this.registerSysTable("DBA_USERS", "ALL_USERS")
    await a.execute(`CREATE VIEW "SYS"."USER_USERS" AS SELECT * FROM "SYS"."ORA$$ALL_USERS" WHERE "USERNAME" = getvariable('ora_user')`)
    this.registerSysTable("USER_USERS", "ALL_USERS")
    await a.execute(`CREATE VIEW "SYS"."TABS" AS SELECT * FROM "SYS"."USER_TABLES"`)
    this.registerSysTable("TABS", "ALL_TABLES", "OWNER")
    await a.execute(`CREATE VIEW "SYS"."COLS" AS SELECT * FROM "SYS"."USER_TAB_COLUMNS"`)
    this.registerSysTable("COLS", "ALL_TAB_COLUMNS", "OWNER")
    await createPrivilegeViews(a, OWNED_VIEWS)
    // ALL_TAB_COLS: ALL_TAB_COLUMNS with HIDDEN_COLUMN (none is hidden here; Oracle Database Reference, "ALL_TAB_COLS"),
    // which node-oracledb thin reads to describe a TABLE%ROWTYPE type (lib/thin/connection.js _populateRowTypeInfo)
    await a.execute(`CREATE VIEW "SYS"."ALL_TAB_COLS" AS SELECT *, 'NO' AS "HIDDEN_COLUMN" FROM "SYS"."ALL_TAB_COLUMNS"`)
    this.registerSysTable("ALL_TAB_COLS", "ALL_TAB_COLUMNS")
    const tabCols = this.catalog.getTable("SYS", "ALL_TAB_COLS")!
    for (const owner of ["SYS", "PUBLIC"]) this.catalog.putTable({ ...tabCols, owner, columns: [...tabCols.columns, { ...tabCols.columns.find((c) => c.name === "NULLABLE")!, name: "HIDDEN_COLUMN", type: charType("VARCHAR2", 3) }] })
    await createRoleDictionaryViews(a)
  }

  private registerSysTable(name: string, shapeOf = name, dropColumn?: string): void {
    const cols = (dictionaryShapes[shapeOf] ?? []).filter((c) => c.name !== dropColumn)
    const meta: TableMeta = { owner: "SYS", name, kind: name === "DUAL" ? "TABLE" : "VIEW", columns: cols, constraints: [], objectId: this.catalog.newObjectId(), created: new Date(Date.UTC(2024, 0, 1)), viewText: null }
    this.catalog.putTable(meta)
    this.catalog.putTable({ ...meta, owner: "PUBLIC" })
  }

  /** Name of the pluggable database (the service name's first label, upper-cased). */
  pdbName(): string {
    return this.settings.serviceName.split(".")[0]!.toUpperCase()
  }

  /** DB time zone offset in minutes east of UTC. */
  dbOffsetMinutes(): number {
    const m = this.settings.dbTimeZone.match(/^([+-])(\d{1,2}):(\d{2})$/)
    if (m === null) return 0
    const v = Number(m[2]) * 60 + Number(m[3])
    return m[1] === "-" ? -v : v
  }

  /** Creates a user with its schema. */
  async createUser(name: string, password: string): Promise<void> {
    this.catalog.addUser(name, password, false)
    this.verifiers.delete(name)
    await this.admin.execute(`CREATE SCHEMA IF NOT EXISTS ${duckIdent(name)}`)
  }

  /** Sets a user's password (ALTER USER ... IDENTIFIED BY, a client's password change); its verifier is derived anew. */
  setPassword(name: string, password: string): void {
    const u = this.catalog.users.get(name)
    if (u === undefined) throw new Error(`no user ${name}`)
    u.password = password
    this.verifiers.delete(name)
  }

  /** Drops a user and its schema. */
  async dropUser(name: string): Promise<void> {
    this.catalog.users.delete(name)
    this.auth.dropGrantee(name)
    this.catalog.version++
    await this.admin.execute(`DROP SCHEMA IF EXISTS ${duckIdent(name)} CASCADE`)
    for (const t of [...this.catalog.allTables()]) if (t.owner === name) this.catalog.dropTable(name, t.name)
  }

  /** The 12c verifier of a user (derived once). */
  verifier(user: string): Verifier | undefined {
    const u = this.catalog.users.get(user)
    if (u === undefined) return undefined
    let v = this.verifiers.get(user)
    if (v === undefined) {
      v = makeVerifier(u.password)
      this.verifiers.set(user, v)
    }
    return v
  }

  /** Allocates a session id. */
  newSid(): number {
    return this.nextSid++
  }

  private lock: Promise<unknown> = Promise.resolve()

  /** Runs `f` with the admin session, one caller at a time. */
  withAdmin<A>(f: (admin: EngineSession) => Promise<A>): Promise<A> {
    const run = this.lock.then(() => f(this.admin))
    this.lock = run.catch(() => undefined)
    return run
  }

  /** Rewrites the dictionary snapshot tables when the catalog changed (V$SESSION always); admin session only, or with
   * `copy` only those tables, whatever the version, into `s`, which copies them elsewhere (transaction-dictionary.ts). */
  async refreshDictionary(s: Pick<EngineSession, "execute">, names: ReadonlySet<string>, asker?: { readonly user: string; readonly roles: ReadonlySet<string> }, copy?: ReadonlySet<string>): Promise<void> {
    const fill = async (table: string, rows: Array<Array<unknown>>) => {
      if (copy !== undefined && !copy.has(table)) return
      await s.execute(`DELETE FROM "SYS".${duckIdent(`ORA$${table}`)}`)
      if (rows.length === 0) return
      const cols = dictionaryShapes[table]!
      const values = rows.map((r) => `(${r.map(lit).join(", ")})`).join(",\n")
      await s.execute(`INSERT INTO "SYS".${duckIdent(`ORA$${table}`)} (${cols.map((c) => duckIdent(c.name)).join(", ")}) VALUES ${values}`)
    }
    if (names.has("V$SESSION")) {
      await fill(
        "V$SESSION",
        [...this.sessions.values()].map((x) => [
          `00000000${x.sid.toString(16).toUpperCase()}`.slice(-16),
          x.sid,
          x.serial,
          x.sid * 1000 + 7,
          this.catalog.users.get(x.user)?.userId ?? 0,
          x.user,
          x.status,
          x.schema,
          x.osUser,
          String(process.pid),
          x.machine,
          0,
          "unknown",
          x.program,
          "USER",
          x.sqlId,
          x.prevSqlId,
          x.module === undefined ? x.program : x.module,
          x.action ?? null,
          x.clientInfo ?? null,
          new Date(x.logonTime.getTime() - (x.logonTime.getTime() % 1000)),
          this.settings.serviceName,
          3,
          x.clientIdentifier ?? null,
          x.ecid ?? null
        ])
      )
    }
    if (names.has("V$OPEN_CURSOR")) {
      await fill(
        "V$OPEN_CURSOR",
        [...this.sessions.values()].flatMap((x) =>
          [...x.cursors.values()].map((c) => [
            `00000000${x.sid.toString(16).toUpperCase()}`.slice(-16),
            x.sid,
            x.user,
            sqlIdOf(c.sql, (b) => createHash("md5").update(b).digest()),
            c.sql.slice(0, 60),
            "OPEN",
            3
          ])
        )
      )
    }
    if (names.has("V$SQL")) await fill("V$SQL", this.sqlArea.rows())
    if (names.has("V$STATNAME")) await fill("V$STATNAME", STATISTICS.map(([n, name, cls]) => [n, name, cls, 0]))
    if (names.has("V$SESSTAT")) {
      await fill(
        "V$SESSTAT",
        [...this.sessions.values()].flatMap((x) => [[x.sid, 3, x.cursorsOpened, 3], [x.sid, 4, x.cursors.size, 3]])
      )
    }
    for (const [view, rows] of typeDictionaryRows(namedTypesOf(this), describedPackageTypes(), packageOfNamedType)) if (names.has(view)) await fill(view, rows)
    for (const [view, rows] of materializedViewRows(this)) if (names.has(view)) await fill(view, rows)
    if (names.has("ALL_UPDATABLE_COLUMNS")) for (const [view, rows] of updatableColumnRows(this, this.catalog.allTables(), (o, n) => this.catalog.getTable(o, n))) await fill(view, rows)
    for (const [view, rows] of this.settings.storedCode.dictionaryRows(this)) if (names.has(view)) await fill(view, rows)
    if ([...names].some((n) => n.startsWith("ALL_"))) for (const [view, rows] of accessDictionaryRows(this, this.grants, (o, n) => this.catalog.getTable(o, n)?.kind ?? (["SEQUENCE", "PROCEDURE", "FUNCTION", "PACKAGE"] as const).find((k) => this.catalog.getObject(o, k, n) !== undefined) ?? (namedTypesOf(this).lookup(o, o, n) !== undefined ? "TYPE" : "TABLE"))) await fill(view, rows)
    await refreshRoleDictionary(s, names, this.auth, this.grants, [...this.catalog.users.keys()], asker)
    if (copy === undefined && this.dictionaryVersion === this.catalog.version && !names.has("FORCE")) return
    if (copy === undefined) this.dictionaryVersion = this.catalog.version
    for (const [view, rows] of catalogDictionaryRows(this, (owner, type, name) => this.settings.storedCode.objectStatus(this, owner, type, name))) await fill(view, rows)
  }

  /** Closes the engine (all sessions). */
  close(): void {
    this.engine.close()
  }
}

const lit = (v: unknown): string => {
  if (v === null || v === undefined) return "NULL"
  if (typeof v === "number") return String(v)
  if (v instanceof Date) return `TIMESTAMP '${v.toISOString().slice(0, 19).replace("T", " ")}'`
  return `'${String(v).replace(/'/g, "''")}'`
}

/** Oracle-style SQL_ID: last 8 bytes of MD5(text || NUL) in base 32 (13 characters). */
export const sqlIdOf = (text: string, md5: (b: Buffer) => Buffer): string => {
  const h = md5(Buffer.concat([Buffer.from(text, "utf8"), Buffer.from([0])]))
  const v = (BigInt(h.readUInt32LE(8)) << 32n) | BigInt(h.readUInt32LE(12))
  const alphabet = "0123456789abcdfghjkmnpqrstuvwxyz"
  let out = ""
  let x = v
  for (let i = 0; i < 13; i++) {
    out = alphabet[Number(x & 31n)]! + out
    x >>= 5n
  }
  return out
}

export { encodeName }
