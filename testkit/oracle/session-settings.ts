/**
 * ALTER SESSION clauses the server accepts without effect, as they change only how a real server plans or traces
 * (Oracle Database SQL Language Reference, ALTER SESSION): `{ENABLE | DISABLE | FORCE} PARALLEL {DML | DDL | QUERY}
 * [PARALLEL n]` and `SET EVENTS 'text'` (or `SET EVENTS = 'text'`). ALTER SESSION SET of parameters is in
 * sqlsession.ts (CURRENT_SCHEMA, TIME_ZONE, NLS_NUMERIC_CHARACTERS kept; other parameters accepted and ignored).
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"

/**
 * True for an ALTER SESSION (tokens without white space) that is one of the clauses above; a malformed PARALLEL clause
 * fails ORA-00922 as Oracle does.
 */
export const isAcceptedNoOp = (toks: ReadonlyArray<Tok>): boolean => {
  if (isKw(toks[2], "ENABLE", "DISABLE", "FORCE") && isKw(toks[3], "PARALLEL")) {
    const rest = toks.slice(5)
    const degree = isKw(toks[2], "FORCE") && isKw(rest[0], "PARALLEL") && rest[1]?.kind === "num" && rest.length === 2
    if (!isKw(toks[4], "DML", "DDL", "QUERY") || (rest.length > 0 && !degree)) throw new OraError(922, "missing or invalid option")
    return true
  }
  if (isKw(toks[2], "SET") && isKw(toks[3], "EVENTS")) {
    const value = isOp(toks[4], "=") ? 5 : 4
    return toks[value]?.kind === "str" && toks[value + 1] === undefined
  }
  return false
}

/**
 * Parameters ALTER SESSION SET accepts: the session parameters of the ALTER SESSION statement and the initialization
 * parameters its documentation marks session-modifiable (Oracle Database SQL Language Reference, "ALTER SESSION",
 * Session Parameters; Database Reference, "Initialization Parameters", "Modifiable: ALTER SESSION"), by name or by a
 * prefix shared by a family (NLS_, OPTIMIZER_, PLSQL_, ...), and hidden parameters (a quoted name starting with `_`).
 * Another name is ORA-02248 "invalid option for ALTER SESSION".
 */
const SESSION_PARAMETERS = new Set([
  "CONSTRAINTS", "CONTAINER", "CURRENT_SCHEMA", "DEFAULT_COLLATION", "EDITION", "ERROR_ON_OVERLAP_TIME", "FLAGGER",
  "INSTANCE", "ISOLATION_LEVEL", "ROW_ARCHIVAL_VISIBILITY", "STANDBY_MAX_DATA_DELAY", "TIME_ZONE",
  "USE_PRIVATE_OUTLINES", "USE_STORED_OUTLINES", "CREATE_STORED_OUTLINES", "EVENTS", "SQL_TRACE", "STATISTICS_LEVEL",
  "TIMED_STATISTICS", "TIMED_OS_STATISTICS", "TRACEFILE_IDENTIFIER", "MAX_DUMP_FILE_SIZE", "DDL_LOCK_TIMEOUT",
  "CURSOR_SHARING", "CURSOR_INVALIDATION", "SESSION_CACHED_CURSORS", "SKIP_UNUSABLE_INDEXES", "SORT_AREA_SIZE",
  "SORT_AREA_RETAINED_SIZE", "HASH_AREA_SIZE", "BITMAP_MERGE_AREA_SIZE", "CREATE_BITMAP_AREA_SIZE",
  "WORKAREA_SIZE_POLICY", "QUERY_REWRITE_ENABLED", "QUERY_REWRITE_INTEGRITY", "STAR_TRANSFORMATION_ENABLED",
  "DB_FILE_MULTIBLOCK_READ_COUNT", "DB_CREATE_FILE_DEST", "DB_SECUREFILE", "DEFERRED_SEGMENT_CREATION",
  "COMMIT_LOGGING", "COMMIT_WAIT", "COMMIT_WRITE", "GLOBAL_NAMES", "RECYCLEBIN", "REMOTE_DEPENDENCIES_MODE",
  "RESUMABLE_TIMEOUT", "SMTP_OUT_SERVER", "SQLTUNE_CATEGORY", "TEMP_UNDO_ENABLED", "ENABLE_DDL_LOGGING",
  "PLSCOPE_SETTINGS", "OLAP_PAGE_POOL_SIZE", "OBJECT_CACHE_MAX_SIZE_PERCENT", "OBJECT_CACHE_OPTIMAL_SIZE",
  "XML_DB_EVENTS", "HEAT_MAP", "READ_ONLY", "SQL_TRANSPILER", "DST_UPGRADE_INSERT_CONV", "CELL_OFFLOAD_PROCESSING",
  "ASM_POWER_LIMIT", "DB_INDEX_COMPRESSION_INHERITANCE", "APPROX_FOR_AGGREGATION", "APPROX_FOR_COUNT_DISTINCT",
  "APPROX_FOR_PERCENTILE", "DB_UNRECOVERABLE_SCN_TRACKING", "JSON_BEHAVIOR", "RESULT_CACHE_MODE"
])
const SESSION_PARAMETER_FAMILIES = ["NLS_", "OPTIMIZER_", "PLSQL_", "PARALLEL_", "INMEMORY_", "RESULT_CACHE_", "LOG_ARCHIVE_"]

/** Fails ORA-02248 unless `name` (as the lexer gives it: upper case unless quoted) is a parameter ALTER SESSION SET takes. */
export const checkSessionParameter = (name: string | undefined): void => {
  if (name === undefined) throw new OraError(922, "missing or invalid option")
  const upper = name.toUpperCase()
  if (name.startsWith("_") || SESSION_PARAMETERS.has(upper) || SESSION_PARAMETER_FAMILIES.some((f) => upper.startsWith(f))) return
  throw new OraError(2248, "invalid option for ALTER SESSION")
}
