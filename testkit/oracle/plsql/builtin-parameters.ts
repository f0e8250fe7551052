/**
 * Named notation (`p => value`) in calls of built-in package procedures whose modules take their arguments by
 * position: the formal parameters' names, as the PL/SQL Packages and Types Reference lists them (DBMS_OUTPUT,
 * DBMS_APPLICATION_INFO, DBMS_SESSION, DBMS_LOCK, DBMS_LOB), put the named arguments in place.
 */
import { isOp } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import { wrongArguments } from "./arguments.ts"
import type { Expr } from "./ast.ts"

/** The formal parameters of the procedures, by package and procedure name, in order. */
const PARAMETERS: ReadonlyMap<string, ReadonlyArray<string>> = new Map([
  ["DBMS_OUTPUT.ENABLE", ["BUFFER_SIZE"]],
  ["DBMS_OUTPUT.PUT", ["A"]],
  ["DBMS_OUTPUT.PUT_LINE", ["A"]],
  ["DBMS_OUTPUT.GET_LINE", ["LINE", "STATUS"]],
  ["DBMS_OUTPUT.GET_LINES", ["LINES", "NUMLINES"]],
  ["DBMS_APPLICATION_INFO.SET_MODULE", ["MODULE_NAME", "ACTION_NAME"]],
  ["DBMS_APPLICATION_INFO.SET_ACTION", ["ACTION_NAME"]],
  ["DBMS_APPLICATION_INFO.SET_CLIENT_INFO", ["CLIENT_INFO"]],
  ["DBMS_APPLICATION_INFO.READ_MODULE", ["MODULE_NAME", "ACTION_NAME"]],
  ["DBMS_APPLICATION_INFO.READ_CLIENT_INFO", ["CLIENT_INFO"]],
  ["DBMS_SESSION.SLEEP", ["SECONDS"]],
  ["DBMS_SESSION.SET_IDENTIFIER", ["CLIENT_ID"]],
  ["DBMS_SESSION.SET_CONTEXT", ["NAMESPACE", "ATTRIBUTE", "VALUE", "USERNAME", "CLIENT_ID"]],
  ["DBMS_LOCK.SLEEP", ["SECONDS"]],
  ["DBMS_LOCK.ALLOCATE_UNIQUE", ["LOCKNAME", "LOCKHANDLE", "EXPIRATION_SECS"]],
  ["DBMS_LOB.APPEND", ["DEST_LOB", "SRC_LOB"]],
  ["DBMS_LOB.CLOSE", ["LOB_LOC"]],
  ["DBMS_LOB.COPY", ["DEST_LOB", "SRC_LOB", "AMOUNT", "DEST_OFFSET", "SRC_OFFSET"]],
  ["DBMS_LOB.CREATETEMPORARY", ["LOB_LOC", "CACHE", "DUR"]],
  ["DBMS_LOB.FREETEMPORARY", ["LOB_LOC"]],
  ["DBMS_LOB.OPEN", ["LOB_LOC", "OPEN_MODE"]],
  ["DBMS_LOB.READ", ["LOB_LOC", "AMOUNT", "OFFSET", "BUFFER"]],
  ["DBMS_LOB.WRITE", ["LOB_LOC", "AMOUNT", "OFFSET", "BUFFER"]],
  ["DBMS_LOB.WRITEAPPEND", ["LOB_LOC", "AMOUNT", "BUFFER"]],
  ["DBMS_LOB.TRIM", ["LOB_LOC", "NEWLEN"]],
  ["DBMS_LOB.ERASE", ["LOB_LOC", "AMOUNT", "OFFSET"]],
  ["DBMS_LOB.CONVERTTOCLOB", ["DEST_LOB", "SRC_BLOB", "AMOUNT", "DEST_OFFSET", "SRC_OFFSET", "BLOB_CSID", "LANG_CONTEXT", "WARNING"]],
  ["DBMS_LOB.CONVERTTOBLOB", ["DEST_LOB", "SRC_CLOB", "AMOUNT", "DEST_OFFSET", "SRC_OFFSET", "BLOB_CSID", "LANG_CONTEXT", "WARNING"]]
])

const isNamed = (a: Expr): boolean => a.length >= 3 && (a[0]!.kind === "ident" || a[0]!.kind === "qident") && isOp(a[1], "=>")

/**
 * The arguments of `pkg.procedure(args)` by position: named ones moved to their parameter's place (a parameter left
 * out before a given one gets NULL, which these procedures take as their default); the same list when none is
 * named or the procedure is not listed. PLS-00306 for a name the procedure has no parameter of.
 */
export const positionalBuiltinArguments = (pkg: string, procedure: string, args: ReadonlyArray<Expr>): ReadonlyArray<Expr> => {
  const params = PARAMETERS.get(`${pkg}.${procedure}`)
  if (params === undefined || !args.some(isNamed)) return args
  const out: Array<Expr | undefined> = []
  args.forEach((a, i) => {
    if (!isNamed(a)) {
      out[i] = a
      return
    }
    const at = params.indexOf(oracleName(a[0]!))
    if (at < 0 || out[at] !== undefined) throw wrongArguments(procedure)
    out[at] = a.slice(2)
  })
  const pos = args[0]![0]!.pos
  const nullArg = (): Expr => [{ kind: "ident", text: "NULL", value: "NULL", pos }]
  return Array.from(out, (a) => a ?? nullArg())
}
