/**
 * ALTER SESSION clauses the server accepts without effect, as they change only how a real server plans or traces
 * (Oracle Database SQL Language Reference, ALTER SESSION): `{ENABLE | DISABLE | FORCE} PARALLEL {DML | DDL | QUERY}
 * [PARALLEL n]` and `SET EVENTS 'text'` (or `SET EVENTS = 'text'`). ALTER SESSION SET of parameters is in
 * session-variables.ts (CURRENT_SCHEMA, TIME_ZONE, NLS_NUMERIC_CHARACTERS, NLS_DATE_LANGUAGE and the datetime formats of
 * nls-formats.ts kept; the other parameters of
 * {@link isSessionParameter} accepted and ignored, any other ORA-02248).
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
 * Parameters ALTER SESSION SET accepts: the clause's own (CURRENT_SCHEMA, TIME_ZONE, EDITION, CONTAINER, ...: SQL
 * Language Reference, "ALTER SESSION", alter_session_set_clause) and the initialization parameters a session may
 * change (Database Reference, "Modifiable Parameters":
 * https://docs.oracle.com/database/121/REFRN/GUID-43A4AD97-2009-4275-8802-DA6299DFDCAD.htm, and later releases'
 * additions). OPTIMIZER_*, PARALLEL_* and PLSQL_* are accepted by prefix; hidden parameters ("_name") too.
 */
const SESSION_PARAMETERS = new Set([
  "CURRENT_SCHEMA", "TIME_ZONE", "EDITION", "CONTAINER", "CONSTRAINTS", "CONSTRAINT", "ERROR_ON_OVERLAP_TIME", "FLAGGER",
  "INSTANCE", "ISOLATION_LEVEL", "STANDBY_MAX_DATA_DELAY", "USE_PRIVATE_OUTLINES", "USE_STORED_OUTLINES",
  "DEFAULT_COLLATION", "EVENTS", "SQL_TRACE", "ERROR_MESSAGE_DETAILS",
  "NLS_CALENDAR", "NLS_COMP", "NLS_CURRENCY", "NLS_DATE_FORMAT", "NLS_DATE_LANGUAGE", "NLS_DUAL_CURRENCY",
  "NLS_ISO_CURRENCY", "NLS_LANGUAGE", "NLS_LENGTH_SEMANTICS", "NLS_NCHAR_CONV_EXCP", "NLS_NUMERIC_CHARACTERS",
  "NLS_SORT", "NLS_TERRITORY", "NLS_TIMESTAMP_FORMAT", "NLS_TIMESTAMP_TZ_FORMAT", "NLS_TIME_FORMAT", "NLS_TIME_TZ_FORMAT",
  "ASM_DISKSTRING", "ASM_POWER_LIMIT", "CELL_OFFLOAD_PROCESSING", "COMMIT_LOGGING", "COMMIT_WAIT", "COMMIT_WRITE",
  "CREATE_STORED_OUTLINES", "CURSOR_BIND_CAPTURE_DESTINATION", "CURSOR_SHARING", "DB_BLOCK_CHECKING",
  "DB_CREATE_FILE_DEST", "DB_FILE_MULTIBLOCK_READ_COUNT", "DB_FILE_NAME_CONVERT", "DB_INDEX_COMPRESSION_INHERITANCE",
  "DB_SECUREFILE", "DB_UNRECOVERABLE_SCN_TRACKING", "DDL_LOCK_TIMEOUT", "DEFERRED_SEGMENT_CREATION",
  "DST_UPGRADE_INSERT_CONV", "ENABLE_DDL_LOGGING", "GLOBAL_NAMES", "HASH_AREA_SIZE", "HEAT_MAP", "JAVA_JIT_ENABLED",
  "INMEMORY_CLAUSE_DEFAULT", "INMEMORY_QUERY", "LOG_ARCHIVE_MIN_SUCCEED_DEST", "MAX_DUMP_FILE_SIZE",
  "OBJECT_CACHE_MAX_SIZE_PERCENT", "OBJECT_CACHE_OPTIMAL_SIZE", "OLAP_PAGE_POOL_SIZE", "PLSCOPE_SETTINGS",
  "QUERY_REWRITE_ENABLED", "QUERY_REWRITE_INTEGRITY", "RECYCLEBIN", "REMOTE_DEPENDENCIES_MODE", "RESULT_CACHE_MODE",
  "RESUMABLE_TIMEOUT", "SESSION_CACHED_CURSORS", "SKIP_UNUSABLE_INDEXES", "SMTP_OUT_SERVER", "SORT_AREA_RETAINED_SIZE",
  "SORT_AREA_SIZE", "SQLTUNE_CATEGORY", "STAR_TRANSFORMATION_ENABLED", "STATISTICS_LEVEL", "TEMP_UNDO_ENABLED",
  "TIMED_OS_STATISTICS", "TIMED_STATISTICS", "TRACEFILE_IDENTIFIER", "WORKAREA_SIZE_POLICY", "XML_DB_EVENTS"
])

/** True for a parameter name (as the lexer gives it) ALTER SESSION SET accepts; else Oracle's ORA-02248. */
export const isSessionParameter = (name: string): boolean =>
  SESSION_PARAMETERS.has(name) || /^(?:OPTIMIZER|PARALLEL|PLSQL|LOG_ARCHIVE_DEST(?:_STATE)?|DB_CREATE_ONLINE_LOG_DEST)_/.test(name) || name.startsWith("_")

/** Oracle's error for ALTER SESSION SET of a parameter it does not know (Database Error Messages, ORA-02248). */
export const unknownSessionParameter = (): OraError => new OraError(2248, "invalid option for ALTER SESSION")
