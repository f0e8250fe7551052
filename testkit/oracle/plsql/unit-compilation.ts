/**
 * What Oracle's PL/SQL compiler finds in a stored unit beyond its syntax, and the tables the unit depends on.
 *
 * Checked when a unit is created: an assignment, INTO or FETCH target that no enclosing scope declares is PLS-00201
 * "identifier 'X' must be declared" closed by "PL/SQL: Statement ignored", and so is a plain name read in an
 * expression (plain-names.ts) and an unqualified call of a procedure that is neither local nor stored; a table of an embedded SQL statement that
 * does not exist is "PL/SQL: ORA-00942" closed by "PL/SQL: SQL Statement ignored", a column an INSERT column list or
 * UPDATE SET names that its table lacks "PL/SQL: ORA-00904" (PL/SQL Language Reference 23ai,
 * "PL/SQL Static SQL": static SQL is checked at compile time). An anonymous block's names are checked the same way
 * before it runs (checkBlockNames).
 *
 * Dependencies: a unit records the tables its static SQL names (the object and its columns), the stored procedures
 * and functions it calls and the package specifications it names. When one of them is dropped, created again or altered, the unit is INVALID in USER_OBJECTS, and the next call compiles it again
 * (VALID when it compiles, else INVALID with its errors), as the Database Development Guide 23ai, "Schema Object
 * Dependency" (https://docs.oracle.com/en/database/oracle/oracle-database/23/adfns/schema-object-dependency.html,
 * "Object Invalidation" and "Revalidation") describes; ALTER PROCEDURE / FUNCTION / PACKAGE ... COMPILE compiles it
 * at once (SQL Language Reference 23ai, "ALTER PROCEDURE": "explicitly recompile a standalone stored procedure").
 */
import { ora, OraError } from "../errors.ts"
import { isKw, isName, isOp, type Tok } from "../lexer.ts"
import type { OracleDatabase } from "../database.ts"
import { isDictionaryName } from "../session-dictionary.ts"
import { resolveName } from "../synonym-resolution.ts"
import { synonymsOf } from "../synonym-store.ts"
import { oracleName } from "../translate.ts"
import type { Block, Decl, Expr, Stmt, TypeSpec } from "./ast.ts"
import { engineFunctionNames, ORACLE_FUNCTIONS } from "../function-names.ts"
import { namedTypesOf } from "../named-types.ts"
import { directiveErrorOf } from "./preprocessed-sources.ts"
import { ignoredAt, lineColumn, PlsCompileError, sqlCompileError } from "./errors.ts"
import type { PlsqlProcedure } from "../catalog.ts"
import type { PlsqlHost } from "./host.ts"
import { parseProcedureBody } from "./parser.ts"
import { compileErrorIn, type CompileError, storedText } from "./compile-errors.ts"
import { packagesOf } from "./package-store.ts"
import { isSyntaxWord, plainNames, referencedHeads } from "./plain-names.ts"

/** The tables a unit's static SQL names, by `OWNER.NAME`, each with the object id and columns it had then. */
export type Dependencies = ReadonlyMap<string, string | undefined>

/** The result of compiling a unit: its errors (none when it is VALID) and the tables it depends on. */
export interface Compiled {
  readonly errors: ReadonlyArray<PlsCompileError>
  readonly dependencies: Dependencies
}

const dependencies = new WeakMap<object, Dependencies>()

/** Remembers the tables stored unit `unit` (its dictionary record) depends on. */
export const recordDependencies = (unit: object, deps: Dependencies): void => {
  dependencies.set(unit, deps)
}

const tableAt = (db: OracleDatabase, key: string) => {
  const dot = key.indexOf(".")
  return db.catalog.getTable(key.slice(0, dot), key.slice(dot + 1))
}

/** Dependency keys of stored procedures and functions a unit calls (`procedure OWNER.NAME`); other keys are tables. */
const PROCEDURE_KEY = "procedure "

/** The dependency key of a package body on its specification (whose text is its signature). */
const SPECIFICATION_KEY = "specification "

/**
 * Dependency keys of synonyms a unit names (`synonym OWNER.NAME`): the unit depends on the synonym and, through it,
 * on its target ("Schema Object Dependency": a dependent object depends on a synonym and on the object it names).
 */
const SYNONYM_KEY = "synonym "

/** Adds to `deps` a package body's dependency on its specification: replaced by another text, the body is INVALID. */
export const withSpecification = (db: OracleDatabase, deps: Dependencies, owner: string, name: string): Dependencies => {
  const key = `${SPECIFICATION_KEY}${owner}.${name}`
  return new Map([...deps, [key, tableSignature(db, key)]])
}

/**
 * A table as a unit compiled against it: its object id and each column with its type, one per line; a called
 * procedure's: its object id.
 */
const tableSignature = (db: OracleDatabase, key: string, depth = 0): string | undefined => {
  if (key.startsWith(SYNONYM_KEY)) {
    const synonym = synonymsOf(db).get(key.slice(SYNONYM_KEY.length))
    if (synonym === undefined) return undefined
    if (synonym.targetLink !== null) return `link ${synonym.targetLink}`
    // the synonym's target, then what the unit compiled against: a table's columns, a unit's text, another synonym's
    const target = `${synonym.targetOwner}.${synonym.targetName}`
    const table = tableSignature(db, target)
    if (table !== undefined) return `table ${target}\n${table}`
    const other = tableSignature(db, PROCEDURE_KEY + target) ?? tableSignature(db, SPECIFICATION_KEY + target) ?? (depth < 8 ? tableSignature(db, SYNONYM_KEY + target, depth + 1) : undefined)
    return `unit ${target}\n${other ?? ""}`
  }
  if (key.startsWith(SPECIFICATION_KEY)) return packagesOf(db).get(key.slice(SPECIFICATION_KEY.length))?.spec.source
  if (key.startsWith(PROCEDURE_KEY)) {
    const p = db.procedures.get(key.slice(PROCEDURE_KEY.length))
    // its text too: a unit created again invalidates its dependents ("Schema Object Dependency": "If the referenced
    // standalone procedure is replaced, then the dependent procedure is invalidated"); the same text changes nothing
    return p === undefined ? undefined : `${db.catalog.getObject(p.owner, p.isFunction === true ? "FUNCTION" : "PROCEDURE", p.name)?.objectId ?? 0}\n${p.source}`
  }
  const meta = tableAt(db, key)
  return meta === undefined ? undefined : [String(meta.objectId), ...meta.columns.map((c) => `${c.name} ${JSON.stringify(c.type)}`)].join("\n")
}

/**
 * Whether a table `unit` depends on was dropped, created again, or lost or changed a column it had when the unit was
 * compiled. A column added leaves the unit valid, as the Development Guide's example of ALTER TABLE ... ADD shows
 * ("Schema Object Dependency", "Object Invalidation"); Oracle also invalidates a unit that uses the table's every
 * column (`SELECT *`, %ROWTYPE) then, which this check does not.
 */
export const isStale = (db: OracleDatabase, unit: object): boolean => {
  const deps = dependencies.get(unit)
  if (deps === undefined) return false
  // the catalog's version moves with every change of a table or object: a unit called per row checks once
  const checked = staleness.get(unit)
  if (checked?.version === db.catalog.version) return checked.stale
  const stale = changed(db, deps)
  staleness.set(unit, { version: db.catalog.version, stale })
  return stale
}

const staleness = new WeakMap<object, { readonly version: number; readonly stale: boolean }>()

const changed = (db: OracleDatabase, deps: Dependencies): boolean => {
  for (const [key, signature] of deps) {
    const now = tableSignature(db, key)
    if (now === signature) continue
    if (now === undefined || signature === undefined || key.startsWith(PROCEDURE_KEY) || key.startsWith(SPECIFICATION_KEY)) return true
    if (key.startsWith(SYNONYM_KEY)) {
      // the same table behind the synonym: changed as the table itself would be (a column added is no change)
      const [was, ...wasTable] = signature.split("\n")
      const [is, ...isTable] = now.split("\n")
      if (was !== is || !was!.startsWith("table ") || tableChanged(wasTable.join("\n"), isTable.join("\n"))) return true
      continue
    }
    if (tableChanged(signature, now)) return true
  }
  return false
}

/** Whether a table's signature `now` lost the object id or a column of `signature` (a column added is no change). */
const tableChanged = (signature: string, now: string): boolean => {
  const [id, ...columns] = signature.split("\n")
  const current = new Set(now.split("\n"))
  return !current.has(id!) || now.split("\n")[0] !== id || columns.some((c) => !current.has(c))
}

/** The rows USER_ERRORS lists for a compile error: one per `ORA-06550: line l, column c:` part of its text. */
export const compileErrorRows = (source: string, offset: number, e: PlsCompileError): Array<CompileError> =>
  e.detail.split(/\nORA-06550: /).flatMap((part) => {
    const m = /^line (\d+), column (\d+):\n([\s\S]*)$/.exec(part)
    if (m === null) return []
    const lines = source.split("\n")
    const absolute = lines.slice(0, Number(m[1]) - 1).reduce((n, l) => n + l.length + 1, 0) + Number(m[2]) - 1
    const at = lineColumn(source.slice(offset), Math.max(0, absolute - offset))
    return [{ line: at.line, position: at.column, text: m[3]!.trimEnd() }]
  })

const SKIPPED_NAMES = new Set(["DUAL", "TABLE", "LATERAL", "ONLY", "THE", "JSON_TABLE", "XMLTABLE", "UNNEST", "SELECT", "WITH"])
const FROM_LIST_END = new Set(["WHERE", "GROUP", "HAVING", "ORDER", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR", "MODEL", "WINDOW", "ON", "USING", "RETURNING", "RETURN", "LOG", "SET", "VALUES", "PIVOT", "UNPIVOT"])

/** The table references of a static SQL statement: after FROM / JOIN / a FROM list's comma of a query or DELETE, INSERT INTO, UPDATE, MERGE INTO / USING. */
const tableReferences = (toks: Expr): Array<{ owner: string | undefined; name: string; at: Tok }> => {
  const out: Array<{ owner: string | undefined; name: string; at: Tok }> = []
  const withNames = new Set<string>()
  toks.forEach((t, k) => {
    if (isName(t) && isKw(toks[k + 1], "AS") && isOp(toks[k + 2], "(")) withNames.add(oracleName(t))
  })
  const at = (k: number) => {
    const first = toks[k]
    if (!isName(first) || isOp(toks[k + 1], "(") || SKIPPED_NAMES.has(first.value)) return
    const qualified = isOp(toks[k + 1], ".") && isName(toks[k + 2])
    if (isOp(toks[qualified ? k + 3 : k + 1], "@")) return
    if (qualified) out.push({ owner: oracleName(first), name: oracleName(toks[k + 2]!), at: toks[k + 2]! })
    else if (!withNames.has(oracleName(first))) out.push({ owner: undefined, name: oracleName(first), at: first })
  }
  // per parenthesis depth: whether a query (SELECT) or DELETE is open there, and whether its FROM list is
  const queries: Array<boolean> = [false]
  const fromLists: Array<boolean> = [false]
  const first = toks[0]
  if (isKw(first, "UPDATE")) at(1)
  if (isKw(first, "DELETE")) {
    queries[0] = true
    if (!isKw(toks[1], "FROM")) at(1)
  }
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    const d = queries.length - 1
    if (isOp(t, "(")) {
      queries.push(false)
      fromLists.push(false)
    } else if (isOp(t, ")")) {
      if (queries.length > 1) queries.pop(), fromLists.pop()
    } else if (isKw(t, "SELECT")) queries[d] = true
    else if (isKw(t, "FROM") && queries[d] === true) {
      fromLists[d] = true
      at(k + 1)
    } else if (isKw(t, "JOIN")) at(k + 1)
    else if (isOp(t, ",") && fromLists[d] === true) at(k + 1)
    else if (isKw(t, "INTO") && isKw(toks[k - 1], "INSERT", "MERGE")) at(k + 1)
    else if (isKw(t, "USING") && toks.slice(0, k).some((x) => isKw(x, "MERGE"))) at(k + 1)
    else if (fromLists[d] === true && t.kind === "ident" && FROM_LIST_END.has(t.value)) fromLists[d] = false
  }
  return out
}

/**
 * The columns a DML statement names where only a column can stand: INSERT INTO t [alias] (c1, c2, ...) and the
 * targets of UPDATE t [alias] SET c = ..., (c1, c2) = ...; with the table reference they belong to.
 */
const dmlColumns = (toks: Expr): { table: { owner: string | undefined; name: string }; columns: Array<Tok> } | undefined => {
  const insert = isKw(toks[0], "INSERT") && isKw(toks[1], "INTO")
  if (!insert && !isKw(toks[0], "UPDATE")) return undefined
  let k = insert ? 2 : 1
  if (!isName(toks[k])) return undefined
  const qualified = isOp(toks[k + 1], ".") && isName(toks[k + 2])
  const table = qualified ? { owner: oracleName(toks[k]!), name: oracleName(toks[k + 2]!) } : { owner: undefined, name: oracleName(toks[k]!) }
  k += qualified ? 3 : 1
  if (isName(toks[k]) && !isKw(toks[k], "SET", "VALUES", "SELECT", "WITH")) k++
  const columns: Array<Tok> = []
  if (insert) {
    if (!isOp(toks[k], "(") || isKw(toks[k + 1], "SELECT", "WITH")) return { table, columns }
    for (k++; toks[k] !== undefined && !isOp(toks[k], ")"); k++) if (isName(toks[k]) && !isOp(toks[k + 1], ".")) columns.push(toks[k]!)
    return { table, columns }
  }
  // SET ROW = record names no column
  if (!isKw(toks[k], "SET") || isKw(toks[k + 1], "ROW")) return { table, columns }
  // each top-level assignment's left side, up to `=`
  let depth = 0
  let left = true
  for (k++; toks[k] !== undefined && !(depth === 0 && isKw(toks[k], "WHERE", "RETURNING", "RETURN", "LOG")); k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && isOp(t, "=")) left = false
    else if (depth === 0 && isOp(t, ",")) left = true
    else if (left && depth <= 1 && isName(t) && !isOp(toks[k + 1], ".") && !isOp(toks[k - 1], ".")) columns.push(t)
  }
  return { table, columns }
}

/**
 * A scope of the static check: the names a block (or subprogram) declares, inside its enclosing scope's; the fields
 * of its record types and of its variables of a record type or `table%ROWTYPE`.
 */
interface Names {
  readonly names: Set<string>
  readonly parent?: Names
  readonly recordTypes?: Map<string, ReadonlySet<string>>
  readonly recordFields?: Map<string, ReadonlySet<string>>
}

/** The innermost scope declaring `name`. */
const declaring = (scope: Names | undefined, name: string): Names | undefined => {
  for (let s = scope; s !== undefined; s = s.parent) if (s.names.has(name)) return s
  return undefined
}

const declares = (scope: Names | undefined, name: string): boolean => declaring(scope, name) !== undefined

const declName = (d: Decl): ReadonlyArray<string> =>
  d.k === "collectionType" || d.k === "recordType" ? [d.type.name] : d.k === "subprogram" ? [d.sub.name] : d.k === "exceptionInit" ? [] : [d.name]

/** The engine's function names per database, once read (function-names.ts engineFunctionNames). */
const engineFunctions = new WeakMap<OracleDatabase, ReadonlySet<string>>()

/** Reads the engine's function names for the checks of unknown functions (they do not change: read once per database). */
export const loadEngineFunctions = async (db: OracleDatabase, read: () => Promise<ReadonlyArray<ReadonlyArray<unknown>>>): Promise<void> => {
  if (!engineFunctions.has(db)) engineFunctions.set(db, await engineFunctionNames(db, read))
}

/**
 * Compiles stored unit `block` (parsed from `source`) statically: `outer` are the names around it (parameters, the
 * unit's own name, a package's specification). The errors in source order, and the tables it depends on.
 */
export const compileUnit = (db: OracleDatabase, schema: string, source: string, block: Block, outer: Iterable<string>, checkSql = true): Compiled => {
  const engine = engineFunctions.get(db)
  const errors: Array<PlsCompileError> = []
  const deps = new Map<string, string | undefined>()
  const known = (scope: Names | undefined, t: Tok): boolean => {
    const name = oracleName(t)
    if (declares(scope, name)) return true
    // a package's, a schema's or a unit's name qualifies the target (`pkg.v := 1`, `schema.pkg.v := 1`)
    return packagesOf(db).has(`${schema}.${name}`) || db.catalog.getObject(schema, "PACKAGE", name) !== undefined || db.catalog.users.has(name) || db.procedures.has(`${schema}.${name}`)
  }
  // statements already reported: one PLS-00201 each, as the check stops at the first name it cannot resolve
  const reported = new Set<number>()
  const undeclared = (t: Tok, statementPos: number, what: "Statement" | "Item") => {
    if (reported.has(statementPos)) return
    reported.add(statementPos)
    const e = new PlsCompileError(source, t.pos, 201, `identifier '${oracleName(t)}' must be declared`)
    errors.push(ignoredAt(source, statementPos, e, what) as PlsCompileError)
  }
  const undeclaredComponent = (t: Tok, statementPos: number, what: "Statement" | "Item") => {
    if (reported.has(statementPos)) return
    reported.add(statementPos)
    const e = new PlsCompileError(source, t.pos, 302, `component '${oracleName(t)}' must be declared`)
    errors.push(ignoredAt(source, statementPos, e, what) as PlsCompileError)
  }
  // the names `name.x` may continue with: a record variable's fields, a (visible) package's public names
  const membersOf = (scopeOf: Names | undefined, name: string): ReadonlySet<string> | undefined => {
    if (scopeOf !== undefined) return scopeOf.recordFields?.get(name)
    const pkg = packagesOf(db).get(`${schema}.${name}`)
    return pkg !== undefined && pkg.hidden !== true ? pkg.publicNames : undefined
  }
  const isUnknownFunction = (name: string): boolean =>
    engine !== undefined && engine.has(name) && !ORACLE_FUNCTIONS.has(name) && !db.procedures.has(`${schema}.${name}`) && !synonymsOf(db).has(`${schema}.${name}`) && !synonymsOf(db).has(`PUBLIC.${name}`) && !namedTypesOf(db).hasName(name)
  const target = (scope: Names | undefined, expr: Expr, statementPos: number) => {
    const t = expr[0]
    if (isName(t) && !known(scope, t)) undeclared(t, statementPos, "Statement")
    else if (isName(t) && isOp(expr[1], ".") && isName(expr[2])) {
      // `rec.nofield := x`, `pkg.nomember := x`: PLS-00302
      const members = membersOf(declaring(scope, oracleName(t)), oracleName(t))
      if (members !== undefined && !members.has(oracleName(expr[2]!))) undeclaredComponent(expr[2]!, statementPos, "Statement")
    }
    expression(scope, expr.slice(1), statementPos)
  }
  // a name that is a synonym (the schema's, else a public one): the unit depends on it and its target
  const synonymDependency = (name: string, owner?: string): boolean => {
    const synonyms = synonymsOf(db)
    const key = owner !== undefined ? `${owner}.${name}` : synonyms.has(`${schema}.${name}`) ? `${schema}.${name}` : synonyms.has(`PUBLIC.${name}`) ? `PUBLIC.${name}` : undefined
    if (key === undefined || !synonyms.has(key)) return false
    deps.set(`${SYNONYM_KEY}${key}`, tableSignature(db, `${SYNONYM_KEY}${key}`))
    return true
  }
  // the stored functions and packages an expression calls or names (dependencies), and a plain name no scope declares
  const expression = (scope: Names | undefined, expr: Expr | undefined, statementPos: number, what: "Statement" | "Item" = "Statement") => {
    if (expr === undefined) return
    for (const { tok, qualified } of referencedHeads(expr)) {
      const name = oracleName(tok)
      if (declares(scope, name)) continue
      if (qualified && packagesOf(db).has(`${schema}.${name}`)) deps.set(`${SPECIFICATION_KEY}${schema}.${name}`, tableSignature(db, `${SPECIFICATION_KEY}${schema}.${name}`))
      else if (!qualified && db.procedures.has(`${schema}.${name}`)) deps.set(`${PROCEDURE_KEY}${schema}.${name}`, tableSignature(db, `${PROCEDURE_KEY}${schema}.${name}`))
      else synonymDependency(name)
    }
    for (const { tok, qualified, component, typeName } of referencedHeads(expr)) {
      const name = oracleName(tok)
      const scopeOf = declaring(scope, name)
      // `rec.nofield`, `pkg.nomember`: PLS-00302 (PL/SQL Language Reference, "PL/SQL Name Resolution")
      if (qualified && component !== undefined) {
        const members = membersOf(scopeOf, name)
        if (members !== undefined && !members.has(oracleName(component))) undeclaredComponent(component, statementPos, what)
        continue
      }
      // a function Oracle does not have that the engine would run (`strlen(x)`): PLS-00201, as SQL's ORA-00904
      // (function-names.ts); names neither knows fail when the expression runs
      if (!qualified && !typeName && scopeOf === undefined && !isSyntaxWord(name) && isUnknownFunction(name)) undeclared(tok, statementPos, what)
      // a constructor call of a NOT INSTANTIABLE type: PLS-00713 (Error Messages, PLS-00713)
      else if (!qualified && !typeName && scopeOf === undefined && namedTypesOf(db).lookup(schema, undefined, name)?.notInstantiable === true && !reported.has(statementPos)) {
        reported.add(statementPos)
        errors.push(ignoredAt(source, statementPos, new PlsCompileError(source, tok.pos, 713, "attempting to instantiate a type that is NOT INSTANTIABLE"), what) as PlsCompileError)
      }
    }
    for (const t of plainNames(expr)) {
      const name = oracleName(t)
      if (declares(scope, name)) continue
      if (db.procedures.has(`${schema}.${name}`)) deps.set(`${PROCEDURE_KEY}${schema}.${name}`, tableSignature(db, `${PROCEDURE_KEY}${schema}.${name}`))
      if (known(scope, t)) continue
      if (synonymDependency(name)) continue
      undeclared(t, statementPos, what)
    }
  }
  const sql = (toks: Expr | undefined, statementPos: number) => {
    if (toks === undefined || !checkSql) return
    for (const ref of tableReferences(toks)) {
      if (ref.owner !== undefined && (!db.catalog.users.has(ref.owner) || ref.owner === "SYS" || ref.owner === "PUBLIC")) continue
      const owner = ref.owner ?? schema
      if (ref.name.includes("$") || (ref.owner === undefined && isDictionaryName(ref.name))) continue
      const key = `${owner}.${ref.name}`
      if (synonymsOf(db).has(key) ? synonymDependency(ref.name, owner) : ref.owner === undefined && !tableAt(db, key) && synonymDependency(ref.name, "PUBLIC")) {
        // a synonym whose target is gone: `PL/SQL: ORA-00980: synonym translation is no longer valid`
        try {
          resolveName(db, schema, ref.owner, ref.name)
        } catch (e) {
          if (e instanceof OraError && e.code === 980) errors.push(sqlCompileError(source, ref.at.pos, statementPos, e))
        }
        continue
      }
      const signature = tableSignature(db, key)
      deps.set(key, signature)
      if (signature === undefined) errors.push(sqlCompileError(source, ref.at.pos, statementPos, ora.tableNotFound(db.settings.version, owner, ref.name)))
    }
    // a column an INSERT list or UPDATE SET names that its table lacks: PL/SQL: ORA-00904
    const dml = dmlColumns(toks)
    const meta = dml === undefined ? undefined : db.catalog.getTable(dml.table.owner ?? schema, dml.table.name)
    if (dml === undefined || meta === undefined) return
    const missing = dml.columns.find((c) => !meta.columns.some((m) => m.name === oracleName(c)))
    if (missing !== undefined) errors.push(sqlCompileError(source, missing.pos, statementPos, ora.invalidIdentifier(oracleName(missing))))
  }
  // an unqualified procedure call: a local subprogram, RAISE_APPLICATION_ERROR, or a stored procedure (or synonym of one)
  const call = (scope: Names, st: Extract<Stmt, { k: "call" }>) => {
    st.args.forEach((a) => expression(scope, a, st.pos))
    // a member procedure of what an expression returns (`o.get_object('a').put(...)`): the expression's names
    if (st.self !== undefined) return expression(scope, st.self, st.pos)
    const head = st.name[0]!
    if (st.name.length === 2 && !declares(scope, head) && packagesOf(db).has(`${schema}.${head}`)) deps.set(`${SPECIFICATION_KEY}${schema}.${head}`, tableSignature(db, `${SPECIFICATION_KEY}${schema}.${head}`))
    if (st.name.length !== 1) return
    const name = head
    if (declares(scope, name) || name === "RAISE_APPLICATION_ERROR") return
    if (!db.procedures.has(`${schema}.${name}`) && synonymDependency(name)) return
    const key = `${PROCEDURE_KEY}${schema}.${name}`
    const signature = tableSignature(db, key)
    deps.set(key, signature)
    if (signature !== undefined) return
    const e = new PlsCompileError(source, st.nameTok.pos, 201, `identifier '${name}' must be declared`)
    errors.push(ignoredAt(source, st.pos, e, "Statement") as PlsCompileError)
  }
  const statements = (scope: Names, body: ReadonlyArray<Stmt>) => body.forEach((st) => statement(scope, st))
  const inner = (scope: Names, names: ReadonlyArray<string>): Names => ({ names: new Set(names), parent: scope })
  const statement = (scope: Names, st: Stmt): void => {
    switch (st.k) {
      case "assign":
        target(scope, st.target, st.pos)
        return expression(scope, st.expr, st.pos)
      case "if":
        st.branches.forEach((b) => {
          expression(scope, b.cond, st.pos)
          statements(scope, b.body)
        })
        if (st.otherwise !== undefined) statements(scope, st.otherwise)
        return
      case "case":
        expression(scope, st.selector, st.pos)
        st.whens.forEach((w) => {
          expression(scope, w.when, st.pos)
          statements(scope, w.body)
        })
        if (st.otherwise !== undefined) statements(scope, st.otherwise)
        return
      case "loop":
        return statements(inner(scope, st.label !== undefined ? [st.label] : []), st.body)
      case "while":
        expression(scope, st.cond, st.pos)
        return statements(inner(scope, st.label !== undefined ? [st.label] : []), st.body)
      case "for":
        expression(scope, st.low, st.pos)
        expression(scope, st.high, st.pos)
        return statements(inner(scope, [st.index, ...(st.label !== undefined ? [st.label] : [])]), st.body)
      case "cursorFor":
        sql(st.query, st.query?.[0]?.pos ?? st.pos)
        st.args.forEach((a) => expression(scope, a, st.pos))
        return statements(inner(scope, [st.record, ...(st.label !== undefined ? [st.label] : [])]), st.body)
      case "exit":
      case "continue":
        return expression(scope, st.when, st.pos)
      case "return":
      case "pipeRow":
        return expression(scope, st.expr, st.pos)
      case "sql":
        return sql(st.toks, st.pos)
      case "open":
        st.args.forEach((a) => expression(scope, a, st.pos))
        st.using?.forEach((u) => expression(scope, u.expr, st.pos))
        return sql(st.query, st.query?.[0]?.pos ?? st.pos)
      case "fetch":
        expression(scope, st.limit, st.pos)
        return st.into.forEach((e) => target(scope, e, st.pos))
      case "execute":
        expression(scope, st.expr, st.pos)
        st.using.forEach((u) => expression(scope, u.expr, st.pos))
        return st.into.forEach((e) => target(scope, e, st.pos))
      case "forall":
        ;[st.low, st.high, st.indicesOf, st.valuesOf].forEach((e) => expression(scope, e, st.pos))
        return sql(st.dml, st.dml[0]?.pos ?? st.pos)
      case "block":
        return unit(scope, st.block, [])
      case "call":
        return call(scope, st)
      default:
        return
    }
  }
  // the fields of a variable of a record type the block declares, or of `table%ROWTYPE` (undefined for anything else)
  const variableFields = (scope: Names, t: TypeSpec): ReadonlySet<string> | undefined => {
    if (t.kind === "named" && !t.name.includes(" ")) return declaring(scope, t.name)?.recordTypes?.get(t.name)
    // `pkg.t`: a record type of a package's specification
    const packaged = t.kind === "named" ? /^(\S+) \. (\S+)$/.exec(t.name) : null
    if (packaged !== null) {
      if (declares(scope, packaged[1]!)) return undefined
      const decl = packagesOf(db).get(`${schema}.${packaged[1]}`)?.spec.block.decls.find((d) => d.k === "recordType" && d.type.name === packaged[2])
      return decl?.k === "recordType" ? new Set(decl.type.fields.map((f) => f.name)) : undefined
    }
    if (t.kind !== "rowtypeOf" || t.of.length < 1 || t.of.length > 2 || declares(scope, t.of[t.of.length - 1]!)) return undefined
    const meta = db.catalog.getTable(t.of.length === 2 ? t.of[0]! : schema, t.of[t.of.length - 1]!)
    return meta === undefined ? undefined : new Set(meta.columns.map((c) => c.name))
  }
  const unit = (scope: Names | undefined, b: Block, names: Iterable<string>): void => {
    const recordTypes = new Map<string, ReadonlySet<string>>()
    const recordFields = new Map<string, ReadonlySet<string>>()
    const own: Names = { names: new Set([...names, ...(b.label !== undefined ? [b.label] : [])]), recordTypes, recordFields, ...(scope !== undefined ? { parent: scope } : {}) }
    // every name of the section first: a subprogram may call one declared after it (Oracle wants a forward declaration)
    for (const d of b.decls) declName(d).forEach((n) => own.names.add(n))
    for (const d of b.decls) {
      if (d.k === "recordType") recordTypes.set(d.type.name, new Set(d.type.fields.map((f) => f.name)))
      const fields = d.k === "var" ? variableFields(own, d.type) : undefined
      if (d.k === "var" && fields !== undefined) recordFields.set(d.name, fields)
    }
    for (const d of b.decls) {
      if (d.k === "var") expression(own, d.init, d.pos, "Item")
      if (d.k === "cursor") sql(d.query, d.query[0]?.pos ?? d.pos)
      if (d.k === "subprogram" && d.sub.body !== undefined) unit(own, d.sub.body, [d.sub.name, ...d.sub.params.map((p) => p.name)])
    }
    statements(own, b.body)
    b.handlers.forEach((h) => statements(own, h.body))
  }
  unit(undefined, block, outer)
  return { errors: errors.sort((a, b) => firstPosition(a) - firstPosition(b)), dependencies: deps }
}

const positions = new WeakMap<PlsCompileError, number>()
const firstPosition = (e: PlsCompileError): number => {
  const known = positions.get(e)
  if (known !== undefined) return known
  const m = /^line (\d+), column (\d+):/.exec(e.detail)
  const p = m === null ? 0 : Number(m[1]) * 100000 + Number(m[2])
  positions.set(e, p)
  return p
}

/**
 * Compiles the body of `owner`'s procedure or function (the tokens after IS / AS): its syntax, then what unit-compilation.ts
 * checks; the rows USER_ERRORS lists (undefined when it compiled) and the tables it depends on.
 */
export const compileProcedure = (s: PlsqlHost, owner: string, source: string, name: string, params: PlsqlProcedure["params"], body: ReadonlyArray<Tok>): { errors?: Array<CompileError>; dependencies: Dependencies } => {
  const offset = source.indexOf(storedText(source))
  try {
    const deferred = directiveErrorOf(s.db, source)
    if (deferred !== undefined) throw deferred
    const block = parseProcedureBody(source, body)
    // its names resolve in its owner's schema, whoever compiles it (a call from another schema after a change too)
    const compiled = compileUnit(s.db, owner, source, block, [name, ...params.map((p) => p.name)])
    const errors = compiled.errors.flatMap((e) => compileErrorRows(source, offset, e))
    return errors.length > 0 ? { errors, dependencies: compiled.dependencies } : { dependencies: compiled.dependencies }
  } catch (e) {
    if (!(e instanceof PlsCompileError)) throw e
    return { errors: [compileErrorIn(source, e)], dependencies: new Map() }
  }
}

/**
 * The stored procedure or function `proc` as it stands now: compiled again first when a table it depends on changed
 * since (unit-compilation.ts), VALID or INVALID with the new errors.
 */
export const revalidated = (s: PlsqlHost, proc: PlsqlProcedure): PlsqlProcedure => (proc.package === undefined && isStale(s.db, proc) ? recompileProcedure(s, proc) : proc)

/** Compiles stored procedure or function `proc` again (ALTER PROCEDURE ... COMPILE, or a call after a dependency changed). */
export const recompileProcedure = (s: PlsqlHost, proc: PlsqlProcedure): PlsqlProcedure => {
  const { errors: _, ...rest } = proc
  const compiled = compileProcedure(s, proc.owner, proc.source, proc.name, proc.params, proc.body)
  const unit: PlsqlProcedure = compiled.errors !== undefined ? { ...rest, errors: compiled.errors } : rest
  s.db.procedures.set(`${proc.owner}.${proc.name}`, unit)
  recordDependencies(unit, compiled.dependencies)
  s.db.catalog.version++
  return unit
}

/**
 * Checks an anonymous block's names before it runs, as Oracle compiles a block before running it: an undeclared name
 * (an assignment or INTO target, inside an expression, an unqualified procedure call) fails the whole block with every
 * such error, each `ORA-06550: line l, column c:` / `PLS-00201: ...` then `PL/SQL: Statement ignored`, before any of
 * its statements has run (PL/SQL Language Reference 23ai, "PL/SQL Name Resolution"). Its SQL statements are checked
 * when they run (embedded-sql.ts).
 */
export const checkBlockNames = (db: OracleDatabase, schema: string, source: string, block: Block): void => {
  const { errors } = compileUnit(db, schema, source, block, [], false)
  if (errors.length === 0) return
  throw new PlsCompileError(source, 0, 0, "", errors.map((e) => e.detail).join("\nORA-06550: "))
}
