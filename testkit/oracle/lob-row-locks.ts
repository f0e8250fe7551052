/**
 * Whether a transaction may write a persistent LOB through a locator of a table row: Oracle requires the row to be
 * locked by the writer's transaction first (ORA-22920, "row containing the LOB value is not locked":
 * https://docs.oracle.com/en/error-help/db/ora-22920), by SELECT ... FOR UPDATE or by a DML statement that wrote it
 * (Database Concepts, "Row Locks (TX)"). The server's row locks (row-locks.ts) record both; a row the transaction
 * inserted is its own as well.
 */
import type { OracleDatabase } from "./database.ts"
import type { LobSource } from "./statement.ts"

/**
 * The first DuckDB row id of rows a transaction appended and has not committed (DuckDB's MAX_ROW_ID, 2^55 as its
 * source writes it): such a row is the inserting transaction's, as Oracle's inserted rows are locked until commit.
 */
const TRANSACTION_LOCAL_ROWIDS = 36028797018960000n

/** Whether session `sid`'s transaction holds the row a LOB locator names. */
export const lobRowLockedBy = (db: OracleDatabase, sid: number, row: LobSource & { readonly rowid: bigint }): boolean =>
  row.rowid >= TRANSACTION_LOCAL_ROWIDS || db.rowLocks.heldBy(sid, `${row.owner}.${row.table}`, row.rowid)
