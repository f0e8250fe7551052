/** What the DDL runner (ddl.ts, ddl-tables.ts) needs from the SQL session it runs in. */
import type { DuckDBValue } from "@duckdb/node-api"
import type { Session as EngineSession } from "../engine/index.ts"
import type { TableMeta } from "./catalog.ts"
import type { OracleDatabase, SessionInfo } from "./database.ts"
import type { Tok } from "./lexer.ts"
import type { PlsqlHost } from "./plsql.ts"
import type { Requester } from "./privileges.ts"
import type { QueryResult } from "./statement.ts"
import type { TranslationContext } from "./session-translate.ts"

/** What DDL needs from the SQL session it runs in. */
export interface DdlHost extends PlsqlHost {
  readonly db: OracleDatabase
  readonly engine: EngineSession
  readonly schema: string
  readonly info: SessionInfo
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined
  query(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<QueryResult>
  translate(sql: string): { toks: Array<Tok>; text: (from: number, to: number) => string; binds: Array<string> }
  /** What translating a statement needs from the session, as it is now. */
  translation(): TranslationContext
  alterSession(toks: ReadonlyArray<Tok>): Promise<void>
  dateColumnsOf(sql: string): ReadonlySet<string>
  exactNumberColumnsOf(sql: string): ReadonlySet<string>
  /** NUMBER(p[,s]) column names of the tables a statement mentions (their quotients are computed on every digit). */
  boundedNumberColumnsOf(sql: string): ReadonlySet<string>
  readonly requester: Requester
}
