/**
 * Function names Oracle has: a call of a name it does not have fails ORA-00904 naming it, where the engine would
 * answer with a DuckDB function of that name (`list_value`, `len`, `strlen`, `regexp_matches`, `epoch`, ...).
 *
 * {@link unknownFunctionError} checks a client's query or DML statement on its Oracle text, before translation: an
 * unquoted name followed by `(` (not after `.`: package functions and methods) that the engine knows as a function
 * (`engineFunctions`, DuckDB's and the server's own) but that is neither one of {@link ORACLE_FUNCTIONS} nor a
 * name the database defines (stored functions, object types and collection types: `isDefined`). Names the engine
 * does not know already fail ORA-00904 when the engine binds them.
 *
 * The list: Oracle Database SQL Language Reference (23ai), "SQL Functions" (single-row, aggregate, analytic, object
 * reference, model, OLAP, data mining, XML, JSON and vector functions), and the functions without parentheses that
 * may also be written with them (SYSDATE, USER, ...).
 */
import { ora, type OraError } from "./errors.ts"
import { isKw, isOp, matchParen, significantTokensOf, type Tok } from "./lexer.ts"

/** Oracle's SQL function names. */
export const ORACLE_FUNCTIONS: ReadonlySet<string> = new Set([
  "ABS", "ACOS", "ADD_MONTHS", "ANY_VALUE", "APPENDCHILDXML", "APPROX_COUNT", "APPROX_COUNT_DISTINCT",
  "APPROX_COUNT_DISTINCT_AGG", "APPROX_COUNT_DISTINCT_DETAIL", "APPROX_MEDIAN", "APPROX_PERCENTILE",
  "APPROX_PERCENTILE_AGG", "APPROX_PERCENTILE_DETAIL", "APPROX_RANK", "APPROX_SUM", "ASCII", "ASCIISTR", "ASIN",
  "ATAN", "ATAN2", "AVG", "BFILENAME", "BIN_TO_NUM", "BITAND", "BITMAP_BIT_POSITION", "BITMAP_BUCKET_NUMBER",
  "BITMAP_CONSTRUCT_AGG", "BITMAP_COUNT", "BITMAP_OR_AGG", "BIT_AND_AGG", "BIT_OR_AGG", "BIT_XOR_AGG",
  "BOOLEAN_AND_AGG", "BOOLEAN_OR_AGG", "CARDINALITY", "CAST", "CEIL", "CEILING", "CHARTOROWID", "CHECKSUM", "CHR",
  "CLUSTER_DETAILS", "CLUSTER_DISTANCE", "CLUSTER_ID", "CLUSTER_PROBABILITY", "CLUSTER_SET", "COALESCE", "COLLATION",
  "COLLECT", "COMPOSE", "CON_DBID_TO_ID", "CON_GUID_TO_ID", "CON_ID_TO_CON_NAME", "CON_ID_TO_DBID", "CON_NAME_TO_ID",
  "CON_UID_TO_ID", "CONCAT", "CONVERT", "CORR", "CORR_K", "CORR_S", "COS", "COSH", "COSINE_DISTANCE", "COUNT",
  "COVAR_POP", "COVAR_SAMP", "CUBE_TABLE", "CUME_DIST", "CURRENT_DATE", "CURRENT_TIMESTAMP", "CV",
  "DATAOBJ_TO_MAT_PARTITION", "DATAOBJ_TO_PARTITION", "DBTIMEZONE", "DECODE", "DECOMPOSE", "DELETEXML", "DENSE_RANK",
  "DEPTH", "DEREF", "DOMAIN_CHECK", "DOMAIN_CHECK_TYPE", "DOMAIN_DISPLAY", "DOMAIN_NAME", "DOMAIN_ORDER", "DUMP",
  "EMPTY_BLOB", "EMPTY_CLOB", "EXISTSNODE", "EXP", "EXTRACT", "EXTRACTVALUE", "FEATURE_COMPARE", "FEATURE_DETAILS",
  "FEATURE_ID", "FEATURE_SET", "FEATURE_VALUE", "FIRST", "FIRST_VALUE", "FLOOR", "FROM_TZ", "FROM_VECTOR",
  "FUZZY_MATCH", "GREATEST", "GROUP_ID", "GROUPING", "GROUPING_ID", "HEXTORAW", "INITCAP", "INNER_PRODUCT",
  "INSERTCHILDXML", "INSERTCHILDXMLAFTER", "INSERTCHILDXMLBEFORE", "INSERTXMLAFTER", "INSERTXMLBEFORE", "INSTR",
  "INSTR2", "INSTR4", "INSTRB", "INSTRC", "ITERATION_NUMBER", "JARO_WINKLER", "JSON", "JSON_ARRAY", "JSON_ARRAYAGG",
  "JSON_DATAGUIDE", "JSON_EQUAL", "JSON_EXISTS", "JSON_ID", "JSON_MERGEPATCH", "JSON_OBJECT", "JSON_OBJECTAGG",
  "JSON_QUERY", "JSON_SCALAR", "JSON_SERIALIZE", "JSON_TABLE", "JSON_TEXTCONTAINS", "JSON_TRANSFORM", "JSON_VALUE",
  "KURTOSIS_POP", "KURTOSIS_SAMP", "L1_DISTANCE", "L2_DISTANCE", "LAG", "LAST", "LAST_DAY", "LAST_VALUE", "LEAD",
  "LEAST", "LENGTH", "LENGTH2", "LENGTH4", "LENGTHB", "LENGTHC", "LISTAGG", "LN", "LNNVL", "LOCALTIMESTAMP", "LOG",
  "LOWER", "LPAD", "LTRIM", "MAKE_REF", "MAX", "MEDIAN", "MIN", "MOD", "MONTHS_BETWEEN", "NANVL", "NCHR", "NEW_TIME",
  "NEXT_DAY", "NLS_CHARSET_DECL_LEN", "NLS_CHARSET_ID", "NLS_CHARSET_NAME", "NLS_COLLATION_ID", "NLS_COLLATION_NAME",
  "NLS_INITCAP", "NLS_LOWER", "NLS_UPPER", "NLSSORT", "NTH_VALUE", "NTILE", "NULLIF", "NUMTODSINTERVAL",
  "NUMTOYMINTERVAL", "NVL", "NVL2", "ORA_DM_PARTITION_NAME", "ORA_DST_AFFECTED", "ORA_DST_CONVERT", "ORA_DST_ERROR",
  "ORA_HASH", "ORA_INVOKING_USER", "ORA_INVOKING_USERID", "PATH", "PERCENT_RANK", "PERCENTILE_CONT",
  "PERCENTILE_DISC", "POWER", "POWERMULTISET", "POWERMULTISET_BY_CARDINALITY", "PREDICTION", "PREDICTION_BOUNDS",
  "PREDICTION_COST", "PREDICTION_DETAILS", "PREDICTION_PROBABILITY", "PREDICTION_SET", "PRESENTNNV", "PRESENTV",
  "PREVIOUS", "RANK", "RATIO_TO_REPORT", "RAWTOHEX", "RAWTONHEX", "REF", "REFTOHEX", "REGEXP_COUNT", "REGEXP_INSTR",
  "REGEXP_LIKE", "REGEXP_REPLACE", "REGEXP_SUBSTR", "REGR_AVGX", "REGR_AVGY", "REGR_COUNT", "REGR_INTERCEPT",
  "REGR_R2", "REGR_SLOPE", "REGR_SXX", "REGR_SXY", "REGR_SYY", "REMAINDER", "REPLACE", "REVERSE", "ROUND",
  "ROUND_TIES_TO_EVEN", "ROW_NUMBER", "ROWIDTOCHAR", "ROWIDTONCHAR", "RPAD", "RTRIM", "SCN_TO_TIMESTAMP",
  "SESSIONTIMEZONE", "SET", "SIGN", "SIN", "SINH", "SKEWNESS_POP", "SKEWNESS_SAMP", "SOUNDEX", "SQRT",
  "STANDARD_HASH", "STATS_BINOMIAL_TEST", "STATS_CROSSTAB", "STATS_F_TEST", "STATS_KS_TEST", "STATS_MODE",
  "STATS_MW_TEST", "STATS_ONE_WAY_ANOVA", "STATS_T_TEST_INDEP", "STATS_T_TEST_INDEPU", "STATS_T_TEST_ONE",
  "STATS_T_TEST_PAIRED", "STATS_WSR_TEST", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "SUBSTR", "SUBSTR2", "SUBSTR4",
  "SUBSTRB", "SUBSTRC", "SUM", "SYS_CONNECT_BY_PATH", "SYS_CONTEXT", "SYS_DBURIGEN", "SYS_EXTRACT_UTC", "SYS_GUID",
  "SYS_OP_ZONE_ID", "SYS_ROW_ETAG", "SYS_TYPEID", "SYS_XMLAGG", "SYS_XMLGEN", "SYSDATE", "SYSTIMESTAMP", "TAN",
  "TANH", "TIMESTAMP_TO_SCN", "TO_APPROX_COUNT_DISTINCT", "TO_APPROX_PERCENTILE", "TO_BINARY_DOUBLE",
  "TO_BINARY_FLOAT", "TO_BLOB", "TO_BOOLEAN", "TO_CHAR", "TO_CLOB", "TO_DATE", "TO_DSINTERVAL", "TO_LOB",
  "TO_MULTI_BYTE", "TO_NCHAR", "TO_NCLOB", "TO_NUMBER", "TO_SINGLE_BYTE", "TO_TIMESTAMP", "TO_TIMESTAMP_TZ",
  "TO_UTC_TIMESTAMP_TZ", "TO_VECTOR", "TO_YMINTERVAL", "TRANSLATE", "TREAT", "TRIM", "TRUNC", "TZ_OFFSET", "UID",
  "UNISTR", "UPDATEXML", "UPPER", "USER", "USERENV", "VALIDATE_CONVERSION", "VALUE", "VAR_POP", "VAR_SAMP",
  "VARIANCE", "VECTOR_CHUNKS", "VECTOR_DIMENSION_COUNT", "VECTOR_DIMENSION_FORMAT", "VECTOR_DIMS", "VECTOR_DISTANCE",
  "VECTOR_EMBEDDING", "VECTOR_NORM", "VECTOR_SERIALIZE", "VSIZE", "WIDTH_BUCKET", "XMLAGG", "XMLCAST", "XMLCDATA",
  "XMLCOLATTVAL", "XMLCOMMENT", "XMLCONCAT", "XMLDIFF", "XMLELEMENT", "XMLEXISTS", "XMLFOREST", "XMLISVALID",
  "XMLPARSE", "XMLPATCH", "XMLPI", "XMLQUERY", "XMLSEQUENCE", "XMLSERIALIZE", "XMLTABLE", "XMLTRANSFORM"
])

/** Words after which `name (` is no call: a target's column list, a type's size, an interval field's precision, `CROSS | OUTER APPLY (subquery)`. */
const NOT_A_CALL_AFTER = new Set(["INTO", "AS", "TO", "INTERVAL", "TABLE", "RETURNING", "COLUMNS", "PATTERN", "CROSS", "OUTER"])

/** The name a call at `k` of `toks` makes, when it is one to check. */
const calledName = (toks: ReadonlyArray<Tok>, k: number): string | undefined => {
  const t = toks[k]!
  const prev = toks[k - 1]
  if (t.kind !== "ident" || !isOp(toks[k + 1], "(") || isOp(prev, ".") || prev?.kind === "str") return undefined
  if (prev !== undefined && prev.kind === "ident" && NOT_A_CALL_AFTER.has(prev.value)) return undefined
  // `WITH q (a, b) AS (...)`: a query name's column list
  const close = matchParen(toks, k + 1)
  if (close > 0 && isKw(toks[close + 1], "AS") && isOp(toks[close + 2], "(")) return undefined
  return t.value
}

/**
 * ORA-00904 `"NAME": invalid identifier` for the first call in `sql` of a function Oracle does not have but the
 * engine would run (see the module comment); undefined when there is none.
 */
export const unknownFunctionError = (
  sql: string,
  engineFunctions: ReadonlySet<string>,
  isDefined: (name: string) => boolean
): OraError | undefined => {
  const toks = significantTokensOf(sql)
  if (toks === undefined) return undefined
  for (let k = 0; k < toks.length; k++) {
    const name = calledName(toks, k)
    if (name === undefined || ORACLE_FUNCTIONS.has(name) || !engineFunctions.has(name) || isDefined(name)) continue
    return ora.invalidIdentifier(name)
  }
  return undefined
}

/** Per database, the upper-case names of the functions its engine knows (read once: they do not change). */
const engineNames = new WeakMap<object, Promise<ReadonlySet<string>>>()

/** The function names of the engine behind `db`, read with `read` (a query of `duckdb_functions()`) the first time. */
export const engineFunctionNames = (db: object, read: () => Promise<ReadonlyArray<ReadonlyArray<unknown>>>): Promise<ReadonlySet<string>> => {
  let names = engineNames.get(db)
  if (names === undefined) {
    names = read().then((rows) => new Set(rows.map((r) => String(r[0]).toUpperCase())))
    engineNames.set(db, names)
  }
  return names
}

/** True for DDL whose body is a query checked like one: `CREATE [OR REPLACE] [FORCE] VIEW`, `CREATE TABLE ... AS SELECT`. */
export const definesQuery = (sql: string): boolean =>
  /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:NO)?FORCE\s+)?(?:(?:NON)?EDITIONABLE\s+)?VIEW\b/i.test(sql) ||
  /^\s*CREATE\s+(?:(?:GLOBAL|PRIVATE)\s+TEMPORARY\s+)?TABLE\s+[^\s(]+(?:\s*\([^()]*\))?\s+AS\s+(?:SELECT|WITH)\b/i.test(sql)
