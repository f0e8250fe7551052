/**
 * The plain names a PL/SQL expression reads: what Oracle's PL/SQL compiler resolves before the unit runs, so that a
 * name no scope declares is `PLS-00201: identifier 'X' must be declared` at compile time (PL/SQL Language Reference
 * 23ai, "PL/SQL Name Resolution"; Error Messages, PLS-00201).
 *
 * Only an unqualified name standing as a value is one: not a call (`f(`), not the head of a qualified name (`pkg.x`,
 * `r.f`, `c%ROWCOUNT`), not a named argument (`p =>`), not a word of SQL's expression syntax (operators, literals'
 * keywords, interval qualifiers, IS NULL / IS EMPTY / MEMBER OF, ...), not an Oracle function taken without
 * parentheses (SYSDATE, USER, ...), not a type after AS (CAST). A query inside an expression (its columns are no
 * PL/SQL names) is not read, and of the arguments of functions with their own syntax (CAST, EXTRACT, TRIM, the JSON
 * query functions) only their operands are.
 */
import { isKw, isName, isOp, type Tok } from "../lexer.ts"
import { ORACLE_FUNCTIONS } from "../function-names.ts"
import { BINARY_CONSTANTS } from "../translate-literals.ts"
import type { Expr } from "./ast.ts"

/** Words of SQL's and PL/SQL's expression syntax that stand where a name could. */
const SYNTAX_WORDS: ReadonlySet<string> = new Set([
  "AND", "OR", "NOT", "NULL", "TRUE", "FALSE", "IS", "IN", "LIKE", "LIKE2", "LIKE4", "LIKEC", "ESCAPE", "BETWEEN",
  "CASE", "WHEN", "THEN", "ELSE", "END", "MEMBER", "OF", "SUBMULTISET", "MULTISET", "UNION", "INTERSECT", "EXCEPT",
  "MINUS", "ALL", "DISTINCT", "ANY", "SOME", "EXISTS", "EMPTY", "A", "SET", "NAN", "INFINITE", "JSON", "TYPE", "ONLY",
  "DATE", "TIMESTAMP", "INTERVAL", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "TO", "AT", "TIME", "ZONE",
  "LOCAL", "WITH", "AS", "FROM", "USING", "CHAR_CS", "NCHAR_CS", "DEFAULT", "ON", "CONVERSION", "ERROR", "COLLATE",
  "PRIOR", "MOD", "REM", "SELF", "INSERTING", "UPDATING", "DELETING", "SQLCODE", "SQLERRM", "ROWNUM", "LEVEL", "ROWID",
  "FIRST", "LAST", "NULLS", "ASC", "DESC", "STRICT", "LAX", "WITHOUT", "UNIQUE", "KEYS", "ORA_LOGIN_USER", "ORA_SYSEVENT",
  "ORA_DICT_OBJ_NAME", "ORA_DICT_OBJ_TYPE", "ORA_DICT_OBJ_OWNER", "ORA_DATABASE_NAME", "ORA_INSTANCE_NUM", "ORA_IS_SERVERERROR", "BINARY_DOUBLE_MAX_NORMAL", "BINARY_DOUBLE_MIN_NORMAL",
  "BINARY_DOUBLE_MAX_SUBNORMAL", "BINARY_DOUBLE_MIN_SUBNORMAL", "BINARY_FLOAT_MAX_NORMAL", "BINARY_FLOAT_MIN_NORMAL",
  "BINARY_FLOAT_MAX_SUBNORMAL", "BINARY_FLOAT_MIN_SUBNORMAL", ...Object.keys(BINARY_CONSTANTS)
])

/** Whether `name` is a word of SQL's or PL/SQL's expression syntax (`SECOND(9)` of an interval type is no call). */
export const isSyntaxWord = (name: string): boolean => SYNTAX_WORDS.has(name)

/** Functions whose arguments are no plain expressions (keywords, types, paths): only their operands are read (ownSyntaxOperands). */
const OWN_SYNTAX = (name: string): boolean => ["CAST", "EXTRACT", "TRIM", "TREAT", "XMLCAST", "VALIDATE_CONVERSION", "TRANSLATE", "LISTAGG"].includes(name) || name.startsWith("JSON") || name.startsWith("XML")

/** The index of the first token of `toks` at parenthesis depth 0 that `stop` accepts (-1 when none). */
const topLevel = (toks: Expr, stop: (t: Tok) => boolean): number => {
  let depth = 0
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && stop(t)) return k
  }
  return -1
}

/** `toks` up to (not including) its first top-level token `stop` accepts; all of it when there is none. */
const before = (toks: Expr, stop: (t: Tok) => boolean): Expr => {
  const at = topLevel(toks, stop)
  return at < 0 ? toks : toks.slice(0, at)
}

/**
 * The plain expressions among the arguments `args` of a function with its own syntax: CAST / TREAT /
 * VALIDATE_CONVERSION's operand before AS, EXTRACT's after FROM, TRIM's trim character and source, the JSON query
 * functions' (JSON_VALUE, JSON_QUERY, JSON_EXISTS, JSON_SERIALIZE) first argument before FORMAT; none of the others
 * (XML functions, JSON constructors, TRANSLATE ... USING, LISTAGG), whose arguments are left to the engine.
 */
const ownSyntaxOperands = (name: string, args: Expr): Expr => {
  switch (name) {
    case "CAST":
    case "TREAT":
    case "VALIDATE_CONVERSION":
      return before(args, (t) => isKw(t, "AS"))
    case "EXTRACT": {
      const from = topLevel(args, (t) => isKw(t, "FROM"))
      return from < 0 ? [] : args.slice(from + 1)
    }
    case "TRIM":
      return args.filter((t) => !isKw(t, "LEADING", "TRAILING", "BOTH"))
    case "JSON_VALUE":
    case "JSON_QUERY":
    case "JSON_EXISTS":
    case "JSON_SERIALIZE":
      return before(args, (t) => isOp(t, ",") || isKw(t, "FORMAT"))
    default:
      return []
  }
}


/** The index of the `)` closing the `(` at `open` (the last index when it is missing). */
const closing = (toks: Expr, open: number): number => {
  let depth = 0
  for (let k = open; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")") && --depth === 0) return k
  }
  return toks.length - 1
}

/** The index of the innermost `(` still open at `k` (-1 when none). */
const enclosingParen = (toks: Expr, k: number): number => {
  let depth = 0
  for (let j = k - 1; j >= 0; j--) {
    if (isOp(toks[j], ")")) depth++
    else if (isOp(toks[j], "(") && depth-- === 0) return j
  }
  return -1
}

/** The tokens of `expr` that are plain names read as values (see the module's comment), in order. */
export const plainNames = (expr: Expr): Array<Tok> => {
  const out: Array<Tok> = []
  for (let k = 0; k < expr.length; k++) {
    const t = expr[k]!
    // a query inside the expression (`(SELECT ...)`, `EXISTS (SELECT ...)`): its names are SQL's, found when it runs
    if (isOp(t, "(") && isKw(expr[k + 1], "SELECT", "WITH")) {
      k = closing(expr, k)
      continue
    }
    if (isKw(t, "SELECT")) return out
    if (!isName(t)) continue
    const next = expr[k + 1]
    if (isOp(next, "(") && t.kind === "ident" && OWN_SYNTAX(t.value)) {
      const close = closing(expr, k + 1)
      const operands = ownSyntaxOperands(t.value, expr.slice(k + 2, close))
      if (!operands.some((x) => isKw(x, "SELECT", "MULTISET"))) out.push(...plainNames(operands))
      k = close
      continue
    }
    const prev = expr[k - 1]
    if (isOp(prev, ".") || isOp(prev, "%") || isKw(prev, "AS", "COLLATE")) continue
    // `x IS OF (ONLY t, u)`: type names
    if (isKw(expr[enclosingParen(expr, k) - 1], "OF")) continue
    if (isOp(next, "(") || isOp(next, ".") || isOp(next, "%") || isOp(next, "=>") || isOp(next, "@")) continue
    if (t.kind === "ident" && (SYNTAX_WORDS.has(t.value) || ORACLE_FUNCTIONS.has(t.value))) continue
    out.push(t)
  }
  return out
}

/**
 * The first token of each call `name(` and qualified name `name.` that is not itself qualified: what a unit may
 * depend on; `component` the name after the dot of a qualified one.
 */
export const referencedHeads = (expr: Expr): Array<{ readonly tok: Tok; readonly qualified: boolean; readonly component?: Tok; readonly typeName: boolean }> =>
  expr.flatMap((t, k) => {
    if (!isName(t) || isOp(expr[k - 1], ".") || isOp(expr[k - 1], "%") || !(isOp(expr[k + 1], "(") || isOp(expr[k + 1], "."))) return []
    const qualified = isOp(expr[k + 1], ".")
    const component = qualified && isName(expr[k + 2]) ? expr[k + 2] : undefined
    // a type after AS (`CAST(x AS VARCHAR2(10))`) names no call
    const typeName = isKw(expr[k - 1], "AS")
    return [component !== undefined ? { tok: t, qualified, component, typeName } : { tok: t, qualified, typeName }]
  })
