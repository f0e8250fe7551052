/**
 * What V$SESSION shows of the statement a session runs: STATUS, SQL_ID and PREV_SQL_ID, kept on the session's
 * entry (database.ts `SessionInfo`) as its calls start, continue (FETCH) and end; and the parse calls and executions
 * V$SQL counts (sql-area.ts).
 */
import * as crypto from "node:crypto"
import { type SessionInfo, sqlIdOf } from "./database.ts"
import type { SqlArea } from "./sql-area.ts"

const md5 = (b: Buffer) => crypto.createHash("md5").update(b).digest()

/** The SQL ids of one session's calls. */
export class SessionSqlIds {
  /** SQL_ID of the statement the session ran last (V$SESSION.PREV_SQL_ID once the next one starts). */
  private lastSqlId: string | null = null

  constructor(
    private readonly info: SessionInfo,
    private readonly area?: SqlArea
  ) {}

  /** The session as V$SQL names who parsed or ran a statement. */
  private get user() {
    return { schema: this.info.schema, module: this.info.module === undefined ? this.info.program : this.info.module, action: this.info.action ?? null }
  }

  /** A request carries the text of `sql` to parse (V$SQL.PARSE_CALLS). */
  noteParse(sql: string): void {
    this.area?.parsed(sqlIdOf(sql, md5), sql, this.user)
  }

  /** A call starts running `sql`: V$SESSION shows it ACTIVE with the statement's SQL_ID, the previous one as PREV_SQL_ID. */
  noteSql(sql: string): void {
    if (this.lastSqlId !== null) this.info.prevSqlId = this.lastSqlId
    this.info.sqlId = this.lastSqlId = sqlIdOf(sql, md5)
    this.info.status = "ACTIVE"
    this.area?.executed(this.info.sqlId, sql, this.user)
  }

  /** A FETCH continues the query `sql` (ACTIVE again, PREV_SQL_ID unchanged). */
  resumeSql(sql: string): void {
    this.info.sqlId = sqlIdOf(sql, md5)
    this.info.status = "ACTIVE"
  }

  /**
   * The call ended: INACTIVE, and SQL_ID back to NULL, except after a cancel, where the cancelled statement's SQL_ID
   * stays until the next statement runs (as Oracle is expected to show a cancelled query in V$SESSION). Not confirmed:
   * the Oracle Database Reference defines SQL_ID only as the statement "currently being executed"
   * (https://docs.oracle.com/cd/B28359_01/server.111/b28320/dynviews_3016.htm) and says nothing about a cancel.
   */
  finishSql(cancelled: boolean): void {
    this.info.status = "INACTIVE"
    if (cancelled || this.info.sqlId === null) return
    this.info.prevSqlId = this.info.sqlId
    this.info.sqlId = null
  }
}
