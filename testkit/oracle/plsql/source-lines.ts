/** DBMS_PREPROCESSOR.SOURCE_LINES_T: `TABLE OF VARCHAR2(32767) INDEX BY BINARY_INTEGER` (PL/SQL Packages and Types Reference, DBMS_PREPROCESSOR). */
import type { CollectionType } from "./ast.ts"

/** The type of DBMS_PREPROCESSOR.GET_POST_PROCESSED_SOURCE's lines. */
export const SOURCE_LINES_T: CollectionType = { name: "DBMS_PREPROCESSOR.SOURCE_LINES_T", kind: "assoc", element: { kind: "named", name: "VARCHAR2", size: 32767 } }
