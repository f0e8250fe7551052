/**
 * The PL/SQL engine's entry points for the SQL session (sqlsession.ts) and DDL (ddl.ts); the engine itself lives in
 * plsql/ (parser, interpreter, one module per built-in package).
 */
export { BIND_IN, BIND_INOUT, BIND_OUT, defineProcedure, type PlsqlHost, runPlsql } from "./plsql/index.ts"
export { definePackage, dropPackage, endServerCall } from "./plsql/stored-packages.ts"
