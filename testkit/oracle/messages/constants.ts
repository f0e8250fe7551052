/**
 * TTC message types, function codes and execute options (node-oracledb lib/thin/protocol/constants.js).
 */

/** TTC message types. */
export const Msg = {
  PROTOCOL: 1,
  DATA_TYPES: 2,
  FUNCTION: 3,
  ERROR: 4,
  ROW_DATA: 7,
  PARAMETER: 8,
  IO_VECTOR: 11,
  LOB_DATA: 14,
  DESCRIBE_INFO: 16,
  PIGGYBACK: 17,
  ONEWAY_FN: 26,
  IMPLICIT_RESULTSET: 27,
  END_OF_REQUEST: 29,
  TOKEN: 33
} as const

/** TTC function codes the server answers. */
export const Fn = {
  REEXECUTE: 4,
  FETCH: 5,
  LOGOFF: 9,
  COMMIT: 14,
  ROLLBACK: 15,
  REEXECUTE_AND_FETCH: 78,
  EXECUTE: 94,
  LOB_OP: 96,
  CLOSE_CURSORS: 105,
  AUTH_PHASE_TWO: 115,
  AUTH_PHASE_ONE: 118,
  CANCEL_CURSORS: 120,
  DIRECT_PATH_PREPARE: 128,
  DIRECT_PATH_LOAD_STREAM: 129,
  DIRECT_PATH_OP: 130,
  SET_END_TO_END_ATTR: 135,
  APP_CONTEXT: 154,
  SESSION_RELEASE: 163,
  SESSION_STATE: 176,
  PIPELINE_BEGIN: 199,
  PIPELINE_END: 200,
  ALTSESS: 204,
  PING: 147,
  SET_SCHEMA: 152
} as const

/** EXECUTE options. */
export const ExecOption = {
  PARSE: 0x01,
  BIND: 0x08,
  DEFINE: 0x10,
  EXECUTE: 0x20,
  FETCH: 0x40,
  COMMIT: 0x100,
  DESCRIBE: 0x20000,
  BATCH_ERRORS: 0x80000
} as const

/** EXECUTE flags (al8i4[9]). */
export const EXEC_DML_ROWCOUNTS = 0x4000

/** Bind directions in an IO vector. */
export const BindDirection = { OUT: 16, IN: 32, IN_OUT: 48 } as const
