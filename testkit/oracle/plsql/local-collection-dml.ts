/**
 * `TABLE(v)` of a collection whose type is PL/SQL-only (declared in a package or a block) in a block's INSERT /
 * UPDATE / DELETE / MERGE. Oracle 12.1 lets such types into SQL only as "the TABLE operator in SQL queries" (PL/SQL
 * Language Reference 12c: PL/SQL-only types may be bound to "anonymous blocks ..., PL/SQL function calls in SQL queries
 * and CALL statements, and the TABLE operator in SQL queries"; test/testkit/oracle-plsql-table-dml.test.ts): in DML the
 * block does not compile, `PLS-00642: local collection types not allowed in SQL statements` (reported with ORA-00902
 * "invalid datatype" for `INSERT ... SELECT ... FROM TABLE(package_collection)`:
 * https://yeahexp.com/using-collections-of-packages-declared-in-the-pl-sql-specification-in-sql-context/). Collections of
 * schema types (CREATE TYPE ... AS TABLE OF | VARRAY, SYS.ODCINUMBERLIST) stay allowed, and so do queries.
 */
import { isKw, isOp } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Expr } from "./ast.ts"
import { BIND_ARRAY } from "./collections.ts"
import type { Frame } from "./context.ts"
import { collectionVar } from "./conversion.ts"
import { lineColumn, PlsCompileError } from "./errors.ts"
import { isSchemaCollection } from "./schema-collections.ts"

/** Fails with the compile error PLS-00642 when the DML statement `toks` applies TABLE() to a PL/SQL-only collection variable. */
export function refuseLocalCollectionsInDml(ctx: Frame, toks: Expr): void {
  for (let k = 0; k + 3 < toks.length; k++) {
    const name = toks[k + 2]!
    if (!isKw(toks[k], "TABLE") || !isOp(toks[k + 1], "(") || !isOp(toks[k + 3], ")") || isOp(toks[k - 1], ".")) continue
    if (name.kind !== "ident" && name.kind !== "qident") continue
    const type = collectionVar(ctx, oracleName(name))?.type
    // index-by array binds of the client take the bind's own type, not a declared one
    if (type === undefined || type === BIND_ARRAY || isSchemaCollection(type)) continue
    throw localCollectionError(ctx.source, name.pos, toks[k]!.pos, toks[0]!.pos)
  }
}

/**
 * PLS-00642 at the collection's name, the SQL error at the TABLE operator, then `PL/SQL: SQL Statement ignored`, each
 * after its `ORA-06550: line l, column c:`, in the order Oracle lists the errors of one static SQL statement
 * (errors.ts sqlCompileError).
 */
const localCollectionError = (source: string, namePos: number, tablePos: number, statementPos: number): PlsCompileError => {
  const at = (pos: number) => {
    const { line, column } = lineColumn(source, pos)
    return `line ${line}, column ${column}:`
  }
  const detail = [`${at(namePos)}\nPLS-00642: local collection types not allowed in SQL statements`, `${at(tablePos)}\nPL/SQL: ORA-00902: invalid datatype`, `${at(statementPos)}\nPL/SQL: SQL Statement ignored`].join("\nORA-06550: ")
  return new PlsCompileError(source, namePos, 0, "", detail)
}
