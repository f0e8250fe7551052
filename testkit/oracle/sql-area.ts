/**
 * The statements the server has parsed and run, as V$SQL lists them (Oracle Database Reference, "V$SQL": "lists
 * statistics on shared SQL areas without the GROUP BY clause and contains one row for each child of the original SQL
 * text entered"): SQL_TEXT (its first 1000 characters), SQL_ID, CHILD_NUMBER (one child per parsing schema),
 * HASH_VALUE, EXECUTIONS ("number of executions that took place on this object since it was brought into the
 * library cache"), PARSE_CALLS ("number of parse calls for this child cursor"), PARSING_SCHEMA_NAME, MODULE, ACTION,
 * FIRST_LOAD_TIME, LAST_LOAD_TIME and LAST_ACTIVE_TIME. A parse call is a request carrying the statement's text (a
 * client's statement cache re-executes a cursor it holds without one); an execution is each execute request, an
 * executeMany being one. SQL run inside PL/SQL (recursive SQL) is not listed. The oldest entries age out past
 * {@link CAPACITY}, as Oracle ages cursors out of the shared pool.
 */

/** Entries kept; the least recently active ones go first. */
const CAPACITY = 5000

/** Who parsed or ran a statement: the parsing schema and the session's end-to-end attributes. */
export interface SqlAreaUser {
  readonly schema: string
  readonly module: string | null
  readonly action: string | null
}

interface Entry {
  readonly sqlId: string
  readonly text: string
  readonly schema: string
  readonly child: number
  readonly firstLoad: Date
  module: string | null
  action: string | null
  executions: number
  parseCalls: number
  lastActive: Date
}

const ALPHABET = "0123456789abcdfghjkmnpqrstuvwxyz"

/** HASH_VALUE: the low four bytes of the hash SQL_ID shows in base 32. */
const hashValueOf = (sqlId: string): number => Number([...sqlId].reduce((v, c) => (v << 5n) | BigInt(ALPHABET.indexOf(c)), 0n) & 0xffffffffn)

/** `FIRST_LOAD_TIME` / `LAST_LOAD_TIME` text: `YYYY-MM-DD/HH24:MI:SS`. */
const loadTime = (d: Date): string => d.toISOString().slice(0, 19).replace("T", "/")

/** A whole second (V$SQL's DATE columns). */
const second = (d: Date): Date => new Date(d.getTime() - (d.getTime() % 1000))

/** The shared SQL area of one database: V$SQL's rows. */
export class SqlArea {
  private readonly entries = new Map<string, Entry>()
  /** Child cursors made per SQL_ID. */
  private readonly children = new Map<string, number>()

  private entry(sqlId: string, text: string, by: SqlAreaUser): Entry {
    const key = `${sqlId}\u0000${by.schema}`
    const now = new Date()
    let e = this.entries.get(key)
    if (e === undefined) {
      const child = this.children.get(sqlId) ?? 0
      this.children.set(sqlId, child + 1)
      e = { sqlId, text, schema: by.schema, child, firstLoad: now, module: by.module, action: by.action, executions: 0, parseCalls: 0, lastActive: now }
      if (this.entries.size >= CAPACITY) this.ageOut()
    } else this.entries.delete(key)
    // the most recently active last: the first key is the one to age out
    this.entries.set(key, e)
    e.lastActive = now
    return e
  }

  /** Drops the least recently active entry (its SQL_ID's child count too, when it was the last child made). */
  private ageOut(): void {
    const [key, e] = this.entries.entries().next().value!
    this.entries.delete(key)
    if (this.children.get(e.sqlId) === e.child + 1) {
      if (e.child === 0) this.children.delete(e.sqlId)
      else this.children.set(e.sqlId, e.child)
    }
  }

  /** A parse call of `text` (SQL_ID `sqlId`). */
  parsed(sqlId: string, text: string, by: SqlAreaUser): void {
    this.entry(sqlId, text, by).parseCalls++
  }

  /** An execution of `text` (SQL_ID `sqlId`); MODULE and ACTION are the executing session's. */
  executed(sqlId: string, text: string, by: SqlAreaUser): void {
    const e = this.entry(sqlId, text, by)
    e.executions++
    e.module = by.module
    e.action = by.action
  }

  /** V$SQL's rows, in the column order of its dictionary shape (catalog.ts). */
  rows(): Array<Array<unknown>> {
    return [...this.entries.values()].map((e) => [
      e.text.slice(0, 1000),
      e.sqlId,
      e.child,
      hashValueOf(e.sqlId),
      e.executions,
      e.parseCalls,
      1,
      e.schema,
      e.module,
      e.action,
      loadTime(e.firstLoad),
      loadTime(e.firstLoad),
      second(e.lastActive),
      3
    ])
  }
}
