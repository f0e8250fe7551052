/**
 * The SQLScript interpreter of the HANA test server: runs a procedure body's statement tree (procedures/body.ts).
 * Scalar variables live in DuckDB session variables (set outside the transaction journal, so a statement-level
 * rollback leaves them as they are, as HANA's variables are not transactional), read back with `getvariable`; table
 * variables are their query text, substituted where `:name` reads them. Each SQL statement goes through the HANA SQL
 * translator, so a body statement accepts what a top-level statement accepts.
 *
 * Semantics (SAP HANA SQLScript Reference, "Imperative SQLScript Logic" and "Exception Handling", as SAP's blog
 * "Exception Handling of SAP HANA SQLScript Procedure", blogs.sap.com 2014-06-24, quotes it): an error inside a
 * block that declared a matching EXIT HANDLER undoes the failing statement only, runs the handler's statement (where
 * `::SQL_ERROR_CODE` and `::SQL_ERROR_MESSAGE` are the error's code and text, a SIGNAL's MESSAGE_TEXT as given) and
 * then leaves that block; without a matching handler the error goes to the enclosing block and finally to the caller.
 * A FOR loop's bounds are evaluated once; its variable is an INTEGER of the loop. IF / WHILE conditions are SQL
 * predicates; an unknown (NULL) condition is false.
 */
import type { Cursor, EngineValue, Session } from "../../engine/index.ts"
import { fromEngineError, HanaError } from "../errors.ts"
import { decodeName, quoteString } from "../names.ts"
import { describeColumns } from "../results.ts"
import type { ResultColumn } from "../results.ts"
import { translate } from "../translate.ts"
import type { SessionValues } from "../translated.ts"
import { duckType, hanaType } from "../types.ts"
import type { HanaType } from "../types.ts"
import type { BodyStatement, HandledCondition, SignalTarget, StatementText } from "./body.ts"

/** `expr` as a value of HANA type `type`: a TIMESTAMP as its ticks (longdate.ts: texts and datetimes converted), else DuckDB's CAST. */
export const castTo = (expr: string, type: HanaType): string => (type.name === "TIMESTAMP" ? `hana_ld(${expr})` : `CAST(${expr} AS ${duckType(type)})`)

/** A result set a procedure produced: the rows and how they are described. */
export interface CallResult {
  readonly cursor: Cursor
  readonly columns: ResultColumn[]
}

/** A name a body can read: a scalar (its DuckDB variable), a table variable, a condition, a cursor or a FOR row. */
export type Variable =
  | { readonly kind: "scalar"; readonly key: string; readonly type: HanaType }
  | { readonly kind: "table"; sql: string }
  | { readonly kind: "condition"; readonly code: number | undefined }
  | { readonly kind: "cursor"; readonly statement: Extract<BodyStatement, { kind: "cursor" }> }
  | { readonly kind: "row"; readonly fields: ReadonlyMap<string, string> }

/** An error a SIGNAL or RESIGNAL raised: its MESSAGE_TEXT is what `::SQL_ERROR_MESSAGE` reads. */
export class SignalError extends HanaError {
  constructor(
    code: number,
    readonly text: string
  ) {
    // SQLScript Reference, "SIGNAL and RESIGNAL": the user-defined code and MESSAGE_TEXT reach the caller.
    super(code, "HY000", `user-defined error: ${text}`)
  }
}

type Completion = "normal" | "break" | "continue" | "return"

/** A read of one of the interpreter's DuckDB variables in translated SQL. */
const VARIABLE_READ = /getvariable\s*\(\s*'(__hana_proc_[^']*)'\s*\)/g

/**
 * The names visible at a statement: its own (a block's DECLAREs, a FOR loop's variable) over its parent's. A table
 * variable first assigned in an IF or loop body belongs to the enclosing BEGIN … END block, so it is still there after
 * END IF.
 */
export class Scope {
  private readonly names = new Map<string, Variable>()
  readonly declared = new Set<string>()
  constructor(
    readonly parent: Scope | undefined,
    /** True for a BEGIN … END block (or the procedure itself), false for an IF branch or a loop body. */
    readonly isBlock: boolean
  ) {}

  get(name: string): Variable | undefined {
    return this.names.get(name) ?? this.parent?.get(name)
  }

  set(name: string, v: Variable): void {
    this.names.set(name, v)
  }

  /** Where an implicitly declared table variable goes. */
  block(): Scope {
    return this.isBlock || this.parent === undefined ? this : this.parent.block()
  }
}

/** The state of one CALL: its engine session, its variables' DuckDB keys (reset at the end) and its result sets. */
export class Interpreter {
  readonly keys: string[] = []
  readonly resultSets: CallResult[] = []
  private counter = 0
  /** Translations by substituted text: a loop's statements are translated once. */
  private readonly translations = new Map<string, ReturnType<typeof translate>>()

  constructor(
    readonly session: Session,
    readonly values: SessionValues,
    readonly dfv: number
  ) {}

  /** A new DuckDB variable for `name` (unique per declaration, so an inner block's DECLARE shadows an outer one). */
  scalar(scope: Scope, name: string, type: HanaType): Extract<Variable, { kind: "scalar" }> {
    const v = { kind: "scalar" as const, key: `__hana_proc_${++this.counter}_${name}`, type }
    scope.set(name, v)
    this.keys.push(v.key)
    return v
  }

  /** Sets a DuckDB variable from raw DuckDB SQL (not journaled). */
  async setRaw(key: string, expression: string, params?: readonly EngineValue[], types?: Parameters<Session["run"]>[2]): Promise<void> {
    await this.session.runUnrecorded(`SET VARIABLE "${key.replace(/"/g, '""')}" = ${expression}`, params, types)
  }

  /** Sets a scalar from the first column of a DuckDB query, cast to its type. */
  async setScalar(v: Extract<Variable, { kind: "scalar" }>, duckQuery: string): Promise<void> {
    await this.setRaw(v.key, `(SELECT ${castTo("c1", v.type)} FROM (${duckQuery}) AS q(c1))`)
  }

  private translated(sql: string): ReturnType<typeof translate> {
    let t = this.translations.get(sql)
    if (t === undefined) {
      t = translate(sql, this.values)
      this.translations.set(sql, t)
    }
    return t
  }

  /** The DuckDB SQL of a HANA query. */
  queryOf(sql: string): string {
    const t = this.translated(sql)
    if (t.kind !== "query") throw HanaError.syntax("a query is expected here", 0)
    return t.sql
  }

  /** The DuckDB query of a HANA expression over DUMMY, with the body's variables substituted. */
  expression(text: StatementText, scope: Scope, handling: HanaError | undefined): string {
    return this.queryOf(`SELECT ${substitute(text, scope, handling)} FROM DUMMY`)
  }

  private async valueOf(text: StatementText, scope: Scope, handling: HanaError | undefined): Promise<unknown> {
    const rows = await this.session.queryAll(this.expression(text, scope, handling))
    return rows[0]?.[0] ?? null
  }

  private async conditionHolds(text: StatementText, scope: Scope, handling: HanaError | undefined): Promise<boolean> {
    const sql = this.queryOf(`SELECT CASE WHEN ${substitute(text, scope, handling)} THEN 1 ELSE 0 END FROM DUMMY`)
    const rows = await this.session.queryAll(sql)
    return Number(rows[0]?.[0] ?? 0) === 1
  }

  /** Runs a block's statements in a scope of its own; `handling` is the error an enclosing exit handler handles. */
  async block(statements: readonly BodyStatement[], outer: Scope, handling: HanaError | undefined, isBlock = true): Promise<Completion> {
    const scope = new Scope(outer, isBlock)
    const handlers: Array<{ readonly codes: ReadonlyArray<number | "any">; readonly action: BodyStatement }> = []
    for (const statement of statements) {
      if (statement.kind === "handler") {
        handlers.push({ codes: statement.conditions.map((c) => handledCode(c, scope)), action: statement.action })
        continue
      }
      try {
        const completion = await this.statement(statement, scope, handling)
        if (completion !== "normal") return completion
      } catch (e) {
        const err = fromEngineError(e, this.values.schema)
        const handler = handlers.find((h) => h.codes.some((c) => c === "any" || c === err.code))
        if (handler === undefined) throw err
        // The failing statement is undone, the procedure's earlier work stays; then the handler runs and the block ends.
        if (!(await this.session.recoverStatement().catch(() => false))) throw err
        const completion = await this.block([handler.action], scope, err)
        return completion === "return" ? "return" : "normal"
      }
    }
    return "normal"
  }

  private async statement(statement: BodyStatement, scope: Scope, handling: HanaError | undefined): Promise<Completion> {
    const session = this.session
    switch (statement.kind) {
      case "declare": {
        // A name is declared once per block; an inner block's DECLARE shadows an outer one.
        // The body's outermost block also shares its names with the parameters (the root scope).
        const clash = scope.declared.has(statement.name) || (scope.parent?.parent === undefined && scope.parent?.declared.has(statement.name) === true)
        if (clash) throw new HanaError(1286, "HY000", `duplicate variable name: ${statement.name}`)
        scope.declared.add(statement.name)
        const init = statement.init === undefined ? undefined : this.expression(statement.init, scope, handling)
        const v = this.scalar(scope, statement.name, statement.type)
        if (init === undefined) await this.setRaw(v.key, `CAST(NULL AS ${duckType(v.type)})`)
        else await this.setScalar(v, init)
        return "normal"
      }
      case "condition":
        scope.set(statement.name, { kind: "condition", code: statement.code })
        return "normal"
      case "cursor":
        scope.set(statement.name, { kind: "cursor", statement })
        return "normal"
      case "assign": {
        const v = scope.get(statement.name)
        if (v === undefined || v.kind !== "scalar") throw new HanaError(1287, "HY000", `identifier must be declared: ${statement.name}`)
        await this.setScalar(v, this.expression(statement.value, scope, handling))
        return "normal"
      }
      case "table": {
        const existing = scope.get(statement.name)
        if (existing !== undefined && existing.kind !== "table") throw new HanaError(1287, "HY000", `identifier must be declared as a table variable: ${statement.name}`)
        // Checked now, so a mistake fails at its own statement.
        const sql = substitute(statement.query, scope, handling)
        this.queryOf(sql)
        if (existing?.kind === "table") existing.sql = sql
        else scope.block().set(statement.name, { kind: "table", sql })
        return "normal"
      }
      case "selectInto": {
        const duck = this.queryOf(substitute(statement.query, scope, handling))
        const rows = await session.queryAll(`SELECT count(*) FROM (${duck})`)
        const count = Number(rows[0]?.[0] ?? 0)
        // SAP HANA SQL Reference, "SQL Error Codes": 1299 ERR_SQLSCRIPT_NO_DATA_FOUND "no data found";
        // 1300 ERR_SQLSCRIPT_FETCH_MORE_ROWS "fetch returns more than requested number of rows".
        if (count === 0) throw new HanaError(1299, "HY000", "no data found")
        if (count > 1) throw new HanaError(1300, "HY000", "fetch returns more than requested number of rows")
        const names = statement.targets.map((_, k) => `c${k + 1}`)
        for (const [k, name] of statement.targets.entries()) {
          const v = scope.get(name)
          if (v === undefined || v.kind !== "scalar") throw new HanaError(1287, "HY000", `identifier must be declared: ${name}`)
          await this.setRaw(v.key, `(SELECT ${castTo(names[k]!, v.type)} FROM (${duck}) AS q(${names.join(", ")}))`)
        }
        return "normal"
      }
      case "resultSet": {
        const t = this.translated(substitute(statement.query, scope, handling, true))
        if (t.kind !== "query") throw HanaError.syntax("a query is expected here", 0)
        const outcome = await session.run(t.sql)
        if (outcome.kind !== "rows") throw HanaError.general("statement returned no rows")
        const cursor = outcome.cursor
        let tables: string[] = []
        try {
          tables = session.tableNames(t.sql)
        } catch {
          // DuckDB could not tell: types come from the values.
        }
        // Typed as the same SELECT run on its own (requests/result-sets.ts): declared types through qualifiers and
        // stars, HANA's types of computed columns.
        const columns = await describeColumns(session, cursor.columns, tables, this.dfv, t.columnNames, t.columnSources, t.fromItems, t.columnTypes)
        this.resultSets.push({ cursor, columns })
        return "normal"
      }
      case "dml": {
        const t = translate(substitute(statement.statement, scope, handling), this.values)
        if (t.kind !== "dml" && t.kind !== "ddl") throw HanaError.unsupported("this statement in a procedure body")
        await session.run(await this.withValues(t.sql))
        return "normal"
      }
      case "signal":
        throw await this.raised(statement.target, statement.message, scope, handling)
      case "resignal": {
        const current = handling!
        if (statement.target === undefined) {
          if (statement.message === undefined) throw current
          throw new SignalError(current.code, String(await this.valueOf(statement.message, scope, handling)))
        }
        throw await this.raised(statement.target, statement.message, scope, handling)
      }
      case "handler":
        return "normal"
      case "block":
        return this.block(statement.body, scope, handling)
      case "if": {
        for (const branch of statement.branches) {
          if (await this.conditionHolds(branch.condition, scope, handling)) return this.block(branch.body, scope, handling, false)
        }
        return this.block(statement.otherwise, scope, handling, false)
      }
      case "while": {
        while (await this.conditionHolds(statement.condition, scope, handling)) {
          const completion = await this.block(statement.body, scope, handling, false)
          if (completion === "break") break
          if (completion === "return") return completion
        }
        return "normal"
      }
      case "forRange": {
        const bound = async (text: StatementText): Promise<number> => {
          const value = await this.valueOf(text, scope, handling)
          if (value === null) throw new HanaError(1287, "HY000", "a FOR loop bound is NULL")
          return Number(value)
        }
        const from = await bound(statement.from)
        const to = await bound(statement.to)
        const inner = new Scope(scope, false)
        const v = this.scalar(inner, statement.variable, hanaType("INTEGER")!)
        for (let i = statement.reverse ? to : from; statement.reverse ? i >= from : i <= to; statement.reverse ? i-- : i++) {
          await this.setRaw(v.key, `CAST(${i} AS INTEGER)`)
          const completion = await this.block(statement.body, inner, handling, false)
          if (completion === "break") break
          if (completion === "return") return completion
        }
        return "normal"
      }
      case "forCursor":
        return this.forCursor(statement, scope, handling)
      case "break":
      case "continue":
      case "return":
        return statement.kind
    }
  }

  /**
   * `sql` with each variable it reads written as a typed literal of its current value. A write is journaled for a
   * statement-level rollback's replay (engine.ts), which must write what the statement wrote, not what the variable
   * holds when the replay runs (a loop's later value, or nothing once the CALL has ended).
   */
  private async withValues(sql: string): Promise<string> {
    const keys = [...new Set([...sql.matchAll(VARIABLE_READ)].map((m) => m[1]!))]
    if (keys.length === 0) return sql
    const items = keys.flatMap((k) => [`CAST(getvariable('${k}') AS VARCHAR)`, `typeof(getvariable('${k}'))`])
    const row = (await this.session.queryAll(`SELECT ${items.join(", ")}`))[0] ?? []
    const literals = new Map(keys.map((k, i) => {
      const value = row[2 * i]
      const type = String(row[2 * i + 1])
      return [k, value === null || value === undefined ? `CAST(NULL AS ${type})` : `CAST(${quoteString(String(value))} AS ${type})`]
    }))
    return sql.replace(VARIABLE_READ, (_, k: string) => literals.get(k)!)
  }

  private async raised(target: SignalTarget, message: StatementText | undefined, scope: Scope, handling: HanaError | undefined): Promise<SignalError> {
    let code: number
    if (target.kind === "code") code = target.code
    else {
      const v = scope.get(target.name)
      if (v === undefined || v.kind !== "condition") throw new HanaError(1287, "HY000", `identifier must be declared: ${target.name}`)
      if (v.code === undefined) throw HanaError.unsupported(`SIGNAL of condition ${target.name} without SQL_ERROR_CODE in the test server`)
      code = v.code
    }
    const text = message === undefined ? "" : String(await this.valueOf(message, scope, handling) ?? "")
    return new SignalError(code, text)
  }

  private async forCursor(statement: Extract<BodyStatement, { kind: "forCursor" }>, scope: Scope, handling: HanaError | undefined): Promise<Completion> {
    const c = scope.get(statement.cursor)
    if (c === undefined || c.kind !== "cursor") throw new HanaError(1287, "HY000", `identifier must be declared: ${statement.cursor}`)
    const declared = c.statement
    if (statement.args.length !== declared.parameters.length) {
      throw new HanaError(1281, "HY000", `wrong number or types of parameters in call: cursor ${statement.cursor}: ${declared.parameters.length} parameters declared, ${statement.args.length} given`)
    }
    // The cursor's parameters are variables of the loop, set from the arguments.
    const inner = new Scope(scope, false)
    for (const [k, p] of declared.parameters.entries()) {
      const init = this.expression(statement.args[k]!, scope, handling)
      await this.setScalar(this.scalar(inner, p.name, p.type), init)
    }
    const t = this.translated(substitute(declared.query, inner, handling))
    if (t.kind !== "query") throw HanaError.syntax("a query is expected here", 0)
    const probe = await this.session.query(`SELECT * FROM (${t.sql}) AS q LIMIT 0`)
    const columns = probe.columns.map((col, k) => ({ name: t.columnNames?.[k] ?? decodeName(col.name).toUpperCase(), field: `c${k + 1}` }))
    probe.close()
    // The rows are read once, when the loop starts (an INSENSITIVE cursor); each iteration copies one row's fields.
    const rowsKey = `__hana_proc_${++this.counter}_${statement.row}_rows`
    this.keys.push(rowsKey)
    const fieldList = columns.map((col) => col.field).join(", ")
    await this.setRaw(rowsKey, `(SELECT coalesce(list(q), []) FROM (${t.sql}) AS q(${fieldList}))`)
    const count = Number((await this.session.queryAll(`SELECT len(getvariable(${quoteString(rowsKey)}))`))[0]?.[0] ?? 0)
    const fields = new Map<string, string>()
    for (const col of columns) {
      const key = `__hana_proc_${++this.counter}_${statement.row}_${col.name}`
      this.keys.push(key)
      fields.set(col.name, key)
    }
    inner.set(statement.row, { kind: "row", fields })
    for (let r = 1; r <= count; r++) {
      for (const col of columns) await this.setRaw(fields.get(col.name)!, `list_extract(getvariable(${quoteString(rowsKey)}), ${r}).${col.field}`)
      const completion = await this.block(statement.body, inner, handling, false)
      if (completion === "break") break
      if (completion === "return") return completion
    }
    return "normal"
  }
}

/** The error code an exit handler's condition stands for ("any" for SQLEXCEPTION). */
const handledCode = (condition: HandledCondition, scope: Scope): number | "any" => {
  if (condition.kind === "sqlexception") return "any"
  if (condition.kind === "code") return condition.code
  const v = scope.get(condition.name)
  if (v === undefined || v.kind !== "condition") throw new HanaError(1287, "HY000", `identifier must be declared: ${condition.name}`)
  if (v.code === undefined) throw HanaError.unsupported(`a handler for condition ${condition.name} without SQL_ERROR_CODE in the test server`)
  return v.code
}

/**
 * Replaces each `:name` of a statement by the variable it reads (`:row.col` and `row.col` of a FOR row by its field),
 * and `::SQL_ERROR_CODE` / `::SQL_ERROR_MESSAGE` by the handled error's code and text.
 */
export const substitute = (text: StatementText, variables: Scope, handling: HanaError | undefined, selectList = false): string => {
  let out = ""
  let at = 0
  const tokens = text.tokens
  // A bare `::SQL_ERROR_CODE` item of a result set's select list keeps its text as its column name, as any
  // unaliased expression does.
  let depth = 0
  let listEnd = selectList ? tokens.length : -1
  for (let k = 0; k < listEnd; k++) {
    const t = tokens[k]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0 && t.t === "word" && (t.v.toUpperCase() === "FROM" || t.v.toUpperCase() === "INTO")) listEnd = k
  }
  const bareItem = (k: number): boolean => {
    if (k >= listEnd) return false
    const before = tokens[k - 1]
    const after = tokens[k + 2]
    const startsItem = before !== undefined && ((before.t === "op" && before.v === ",") || (before.t === "word" && ["SELECT", "DISTINCT", "ALL"].includes(before.v.toUpperCase())))
    return startsItem && (after === undefined || k + 2 === listEnd || (after.t === "op" && after.v === ","))
  }
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!
    if (t.pos === undefined || t.end === undefined) continue
    let replacement: string | undefined
    let end = t.end
    if (t.t === "op" && t.v === "::") {
      const item = tokens[k + 1]?.t === "word" ? tokens[k + 1]!.v.toUpperCase() : ""
      if (item === "SQL_ERROR_CODE") replacement = String(handling?.code ?? 0)
      else if (item === "SQL_ERROR_MESSAGE") {
        const message = handling instanceof SignalError ? handling.text : (handling?.message ?? "")
        replacement = `CAST(${quoteString(message)} AS NVARCHAR(5000))`
      }
      if (replacement !== undefined) {
        if (bareItem(k)) replacement += ` AS "::${item}"`
        end = tokens[++k]!.end!
      }
    } else {
      const row = t.t === "param" && t.name !== undefined ? t.name : t.t === "word" ? t.v.toUpperCase() : undefined
      const v = row === undefined ? undefined : variables.get(row)
      if (v?.kind === "row" && tokens[k + 1]?.t === "op" && tokens[k + 1]!.v === "." && tokens[k + 2] !== undefined) {
        const field = tokens[k + 2]!.t === "qident" ? tokens[k + 2]!.v : tokens[k + 2]!.v.toUpperCase()
        const key = v.fields.get(field)
        if (key === undefined) throw new HanaError(1287, "HY000", `identifier must be declared: ${row}.${field}`)
        replacement = `getvariable(${quoteString(key)})`
        end = tokens[k + 2]!.end!
        k += 2
      } else if (t.t === "param" && t.name !== undefined) {
        // SQLScript Reference, "Referencing Variables": an unknown name fails (HANA: 1287 identifier must be declared).
        if (v === undefined || (v.kind !== "scalar" && v.kind !== "table")) throw new HanaError(1287, "HY000", `identifier must be declared: ${t.name}`)
        replacement = v.kind === "scalar" ? `getvariable(${quoteString(v.key)})` : `(${v.sql})`
      }
    }
    if (replacement === undefined) continue
    out += text.sql.slice(at, t.pos) + replacement
    at = end
  }
  return out + text.sql.slice(at)
}
