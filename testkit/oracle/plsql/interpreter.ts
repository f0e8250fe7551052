/**
 * Runs parsed PL/SQL (ast.ts). Expressions are SQL expressions, evaluated by the server's SQL engine as
 * `SELECT expr` with the PL/SQL names they use bound as parameters; PL/SQL-only constructs (cursor attributes,
 * SQLCODE / SQLERRM, records, control flow, exceptions) are handled here. Names in a SQL statement resolve to a
 * column of the statement's tables before a variable of the same name, as the PL/SQL Language Reference, "PL/SQL Name
 * Resolution" states (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-name-resolution.html).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { DuckDBBlobValue } from "@duckdb/node-api"
import type { ColumnVector } from "../../engine/index.ts"
import { ora, OraError } from "../errors.ts"
import { isKw, isOp, splitTopLevel, type Tok } from "../lexer.ts"
import { canonicalNumberWrites } from "../number-writes.ts"
import { rewriteAttributeAccess } from "../object-attributes.ts"
import { rewriteDbmsLob } from "../lob-functions.ts"
import { rewriteBuiltinCalls } from "../builtin-functions.ts"
import { rewriteJsonSql } from "../json-sql.ts"
import { rewriteFloatConditions } from "../float-conditions.ts"
import { rewriteHierarchical } from "../hierarchical.ts"
import { rewriteOuterJoinPlus } from "../outer-join-plus.ts"
import { type LobSource, lobSourcesOf } from "../plsql-lobs.ts"
import { zonedBinds } from "../datetime-binds.ts"
import { sessionZoneWrites } from "../datetime-writes.ts"
import { intervalLiteralTargets } from "../interval-writes.ts"
import type { PlsqlProcedure, TableMeta } from "../catalog.ts"
import { type BindSpec, type QueryResult, returningClause } from "../statement.ts"
import { makeTranslator, oracleName, translateQuery, type QueryShape } from "../translate.ts"
import type { Block, Decl, Expr, Stmt, Subprogram, TypeSpec } from "./ast.ts"
import type { CallContext, PlsqlValue } from "./context.ts"
import { fromOraError, lineColumn, PlsCompileError, PlsqlException, PREDEFINED, predefined, type UserException, valueError } from "./errors.ts"
import { BIND_ARRAY, bindArrayOf, collectionOfBind, type CollectionType, initialized, PlsqlCollection } from "./collections.ts"
import { expandRecordDml, type RecordType } from "./records.ts"
import { fastEvaluate } from "./fast-eval.ts"
import type { PlsqlHost } from "./host.ts"
import { PACKAGES, UNQUALIFIED } from "./packages.ts"
import { dbmsUtilityValue } from "./dbms-utility.ts"
import { parseProcedureBody } from "./parser.ts"
import { exactSecondsOfBind } from "../intervals.ts"
import { isExactNumberText, kindOfSpec, kindOfType, numberOfText, type ValueKind } from "./value-kinds.ts"
import { argumentValue, resultKind, storedFunctionCalls } from "./sql-functions.ts"
import { tableTriggers } from "./triggers.ts"
import { inlineTableCollections } from "./table-collections.ts"
import { invalidFromSql } from "./stored-code.ts"
import { callableFromSql, findPackage, instancesOf, type PackageDef } from "./stored-packages.ts"

/** A record (`%ROWTYPE`, a cursor FOR loop's row, a declared record type): its fields by name, in order. */
export class PlsqlRecord {
  constructor(
    readonly fields: Map<string, DuckDBValue>,
    /** The declared record type, whose fields' types assignments convert to. */
    readonly type?: RecordType
  ) {}
}

type Value = PlsqlValue | PlsqlRecord | Collection
/** A collection variable's value. */
type Collection = PlsqlCollection<DuckDBValue | PlsqlRecord>

/** Rows of an open cursor, one at a time. */
class RowReader {
  private buffered: Array<Array<DuckDBValue>> = []
  private done = false
  count = 0
  found: boolean | null = null
  constructor(
    readonly result: QueryResult,
    private readonly host: PlsqlHost
  ) {}

  get names(): Array<string> {
    return this.result.columns.map((c) => c.name)
  }

  async next(): Promise<Array<DuckDBValue> | undefined> {
    while (this.buffered.length === 0 && !this.done) {
      let chunk
      try {
        chunk = await this.result.cursor.next()
      } catch (e) {
        await this.host.statementFailed()
        throw this.host.mapError(e)
      }
      if (chunk === null) {
        this.done = true
        break
      }
      const width = this.result.columns.length
      for (let r = 0; r < chunk.rowCount; r++) this.buffered.push(chunk.columns.slice(0, width).map((c) => plainValue(c, r)))
    }
    const row = this.buffered.shift()
    this.found = row !== undefined
    if (row !== undefined) this.count++
    return row
  }

  /** Up to `limit` rows (BULK COLLECT); %FOUND is whether it got as many as it asked for. */
  async take(limit: number): Promise<Array<Array<DuckDBValue>>> {
    const rows: Array<Array<DuckDBValue>> = []
    while (rows.length < limit) {
      const row = await this.next()
      if (row === undefined) break
      rows.push(row)
    }
    this.found = rows.length === limit
    return rows
  }

  close(): void {
    this.result.cursor.close()
  }
}

/** Every row of a query as PL/SQL values (plsql/triggers.ts reads the rows a statement writes this way). */
export const rowsOfQuery = async (host: PlsqlHost, result: QueryResult): Promise<Array<Array<DuckDBValue>>> => {
  const reader = new RowReader(result, host)
  const rows: Array<Array<DuckDBValue>> = []
  for (let row = await reader.next(); row !== undefined; row = await reader.next()) rows.push(row)
  return rows
}

/** A generic engine value as a PL/SQL variable value (decimals become numbers when exact). */
const plainValue = (c: ColumnVector, i: number): DuckDBValue => {
  const v = c.value(i)
  if (v === null) return null
  if (c.info.layout.startsWith("decimal") && typeof v === "string") {
    const n = Number(v)
    return v.replace(/^-|\.|^0+/g, "").length <= 15 ? n : v
  }
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  return v as DuckDBValue
}

/** A name declared in a block. */
type Slot =
  | { readonly k: "var"; value: Value; readonly type: TypeSpec | undefined; readonly constant: boolean }
  | { readonly k: "cursor"; readonly decl: Extract<Decl, { k: "cursor" }>; reader?: RowReader }
  | { readonly k: "exception"; readonly ex: UserException }
  | { readonly k: "type"; readonly type: CollectionType }
  | { readonly k: "recordType"; readonly type: RecordType }
  | { readonly k: "subtype"; readonly type: TypeSpec }
  | { readonly k: "subprogram"; readonly sub: Subprogram; readonly scope: Scope | undefined; overloads?: Array<Subprogram> }

interface Scope {
  readonly label?: string
  readonly names: Map<string, Slot>
  readonly parent?: Scope
}

/** The client's binds of the top-level block. */
export interface BindEnv {
  readonly binds: Map<string, number>
  readonly values: Array<PlsqlValue>
  /** The binds' types, by index (a TIMESTAMP WITH TIME ZONE bind is computed on as zoned text, datetime-binds.ts). */
  readonly specs?: ReadonlyArray<BindSpec> | undefined
  readonly assigned: Set<number>
  readonly read: Set<number>
}

class LoopExit {
  constructor(readonly label: string | undefined) {}
}
class LoopContinue {
  constructor(readonly label: string | undefined) {}
}
class ReturnSignal {
  constructor(readonly value?: Value) {}
}

/** Statements run between two looks at the socket (a break, other sessions' requests). */
const YIELD_EVERY = 64

const NUMERIC = /^(NUMBER|INTEGER|INT|SMALLINT|PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURAL|NATURALN|POSITIVE|POSITIVEN|SIGNTYPE|DECIMAL|DEC|NUMERIC|FLOAT|REAL|DOUBLE PRECISION|BINARY_FLOAT|BINARY_DOUBLE)$/
const INTEGRAL = /^(INTEGER|INT|SMALLINT|PLS_INTEGER|BINARY_INTEGER|SIMPLE_INTEGER|NATURAL|NATURALN|POSITIVE|POSITIVEN|SIGNTYPE)$/
const CHARACTER = /^(VARCHAR2|VARCHAR|NVARCHAR2|CHAR|NCHAR|STRING|CHARACTER)$/

const isCursorValue = (v: unknown): v is QueryResult => v !== null && typeof v === "object" && "kind" in v && (v as { kind: unknown }).kind === "query"

/** One frame of PL/SQL execution: an anonymous block or a stored procedure's body. */
export class Interpreter implements CallContext {
  readonly lobs = new Map<string, LobSource>()
  /** "OWNER.PACKAGE" when this frame runs a package's subprogram or initialization. */
  unit: string | undefined
  private scope: Scope | undefined
  private sqlRowCount: number | null = null
  /** SQL%BULK_ROWCOUNT of the last FORALL, by subscript. */
  private bulkRowCounts = new Map<number | string, number>()
  /** SQL%BULK_EXCEPTIONS of the last FORALL ... SAVE EXCEPTIONS: the failed iterations (from 1) and their error codes. */
  private bulkExceptions: Array<{ readonly index: number; readonly code: number }> = []
  /** Exceptions being handled (innermost last): SQLCODE, SQLERRM and `RAISE;` read the last. */
  private handling: Array<PlsqlException> = []
  private pos = 0
  private steps = 0

  constructor(
    readonly host: PlsqlHost,
    private readonly source: string,
    private readonly binds: BindEnv,
    readonly implicit: Array<QueryResult>
  ) {}

  private line(pos = this.pos): number {
    return lineColumn(this.source, pos).line
  }

  private notDeclared(t: Tok): never {
    throw new PlsCompileError(this.source, t.pos, 201, `identifier '${oracleName(t)}' must be declared`)
  }

  private lookup(name: string): Slot | undefined {
    for (let s = this.scope; s !== undefined; s = s.parent) {
      const slot = s.names.get(name)
      if (slot !== undefined) return slot
    }
    return undefined
  }

  private labelled(label: string, name: string): Slot | undefined {
    for (let s = this.scope; s !== undefined; s = s.parent) if (s.label === label) return s.names.get(name)
    return undefined
  }

  /** Runs a block: its declarations, then its statements with its handlers around them. */
  async runBlock(block: Block, init?: (names: Map<string, Slot>) => void): Promise<void> {
    const outer = this.scope
    const names = new Map<string, Slot>()
    init?.(names)
    this.scope = block.label === undefined ? { names, ...(outer === undefined ? {} : { parent: outer }) } : { label: block.label, names, ...(outer === undefined ? {} : { parent: outer }) }
    try {
      for (const d of block.decls) await this.at(d.pos, () => this.declare(names, d))
      try {
        await this.statements(block.body)
      } catch (e) {
        if (!(e instanceof PlsqlException)) throw e
        const handler = block.handlers.find((h) => h.names.some((n) => this.matches(n, e)))
        if (handler === undefined) throw e
        this.handling.push(e)
        try {
          await this.statements(handler.body)
        } finally {
          this.handling.pop()
        }
      }
    } finally {
      this.scope = outer
    }
  }

  private matches(name: string, e: PlsqlException): boolean {
    if (name === "OTHERS") return true
    const slot = this.lookup(name)
    if (slot?.k === "exception") return slot.ex.code !== undefined ? e.code === slot.ex.code : e.user === slot.ex
    const code = PREDEFINED.get(name.replace(/^STANDARD\./, ""))
    if (code === undefined) throw new PlsCompileError(this.source, this.pos, 201, `identifier '${name}' must be declared`)
    return e.code === code
  }

  /** Runs `f` as the statement at `pos`: ORA- errors become PL/SQL exceptions raised at its line. */
  private async at<T>(pos: number, f: () => Promise<T>): Promise<T> {
    this.pos = pos
    try {
      return await f()
    } catch (e) {
      if (e instanceof OraError && !(e instanceof PlsCompileError) && e.code !== 3001 && e.code !== 1013) throw fromOraError(e, this.line(pos))
      throw e
    }
  }

  private async statements(list: ReadonlyArray<Stmt>): Promise<void> {
    for (const st of list) {
      if (++this.steps % YIELD_EVERY === 0) await this.yieldToBreaks()
      await this.at(st.pos, () => this.statement(st))
    }
  }

  /**
   * Lets the server read other requests (a break above all): a loop of PL/SQL-only statements never waits for I/O,
   * so without this it would hold the process. A break that arrived ends the call with ORA-01013.
   */
  private async yieldToBreaks(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    if (this.host.callInterrupted) throw ora.cancelled()
  }

  private async declare(names: Map<string, Slot>, d: Decl): Promise<void> {
    switch (d.k) {
      case "exception":
        names.set(d.name, { k: "exception", ex: { name: d.name } })
        return
      case "exceptionInit": {
        const slot = names.get(d.name)
        if (slot?.k !== "exception") throw new PlsCompileError(this.source, d.pos, 109, `unknown exception name '${d.name}' in PRAGMA EXCEPTION_INIT`)
        slot.ex.code = d.code === 100 ? 1403 : -d.code
        return
      }
      case "cursor":
        names.set(d.name, { k: "cursor", decl: d })
        return
      case "collectionType":
        names.set(d.type.name, { k: "type", type: d.type })
        return
      case "recordType":
        names.set(d.type.name, { k: "recordType", type: d.type })
        return
      case "subtype":
        // the parser gave later declarations of this unit the subtype's base type; other units (a package's users,
        // its body) find it here
        names.set(d.name, { k: "subtype", type: d.type })
        return
      case "subprogram": {
        const known = names.get(d.sub.name)
        if (d.sub.body === undefined && known?.k === "subprogram") return
        // a second body of the same name is an overload (packages: by number of parameters)
        if (known?.k === "subprogram" && known.sub.body !== undefined) known.overloads = [...(known.overloads ?? [known.sub]), d.sub]
        else names.set(d.sub.name, { k: "subprogram", sub: d.sub, scope: this.scope })
        return
      }
      case "var": {
        const packaged = d.type.kind === "named" ? /^(\S+) \. (\S+)$/.exec(d.type.name) : null
        if (packaged !== null) await this.packageMember([packaged[1]!], packaged[2]!, { kind: "ident", text: packaged[2]!, value: packaged[2]!, pos: d.pos })
        const resolved = this.resolveType(d.type, d.pos)
        const type = d.notNull && resolved.kind === "named" ? { ...resolved, notNull: true } : resolved
        if (type.kind === "named" && type.notNull === true && d.init === undefined) throw notNullNeedsInit(this.source, d.pos)
        const collection = this.collectionType(type)
        const record = this.recordType(type)
        let value: Value = null
        if (collection !== undefined) value = d.init !== undefined ? await this.evaluateValue(d.init) : collection.kind === "assoc" ? new PlsqlCollection(collection) : null
        else if (record !== undefined) value = d.init !== undefined ? this.coerce(type, await this.evaluateValue(d.init)) : await this.newRecord(record, d.pos)
        else if (type.kind === "rowtypeOf") value = await this.emptyRecord(type.of, d.pos)
        else if (d.init !== undefined) value = this.coerce(type, await this.evaluate(d.init))
        names.set(d.name, { k: "var", value, type, constant: d.constant })
      }
    }
  }

  /** A record of a declared record type, its fields' initial values computed (PLS-00218 for NOT NULL without one). */
  private async newRecord(type: RecordType, pos: number): Promise<PlsqlRecord> {
    const fields = new Map<string, DuckDBValue>()
    for (const f of type.fields) {
      if (f.notNull && f.init === undefined) throw notNullNeedsInit(this.source, pos)
      const ft = this.resolveType(f.type, pos)
      fields.set(f.name, f.init === undefined ? null : (this.coerce(f.notNull && ft.kind === "named" ? { ...ft, notNull: true } : ft, await this.evaluate(f.init)) as DuckDBValue))
    }
    return new PlsqlRecord(fields, type)
  }

  /** The record type a declared type names, if it names one. */
  private recordType(t: TypeSpec | undefined): RecordType | undefined {
    if (t?.kind !== "named") return undefined
    const packaged = /^(\S+) \. (\S+)$/.exec(t.name)
    if (t.name.includes(" ") && packaged === null) return undefined
    const slot = packaged !== null ? this.packageVariable(packaged[1]!, packaged[2]!) : this.lookup(t.name)
    return slot?.k === "recordType" ? slot.type : undefined
  }

  /** Whether a collection's elements are records (`%ROWTYPE` or a record type). */
  private recordElements(type: CollectionType): RecordType | boolean {
    return type.element.kind === "rowtypeOf" || (this.recordType(type.element) ?? false)
  }

  /** `%TYPE` of a variable or a table column, or a subtype of another unit (`pkg.subtype`), as the type it stands for. */
  private resolveType(t: TypeSpec, pos: number): TypeSpec {
    if (t.kind === "named") {
      const packaged = /^(\S+) \. (\S+)$/.exec(t.name)
      if (t.name.includes(" ") && packaged === null) return t
      const slot = packaged !== null ? this.packageVariable(packaged[1]!, packaged[2]!) : this.lookup(t.name)
      return slot?.k === "subtype" ? slot.type : t
    }
    if (t.kind !== "typeOf") return t
    if (t.of.length === 1) {
      const slot = this.lookup(t.of[0]!)
      if (slot?.k === "var" && slot.type !== undefined) return slot.type
    }
    const [schema, table, column] = t.of.length === 3 ? t.of : [undefined, t.of[0], t.of[1]]
    const meta = table === undefined ? undefined : this.host.lookupTable(schema, table)
    const col = meta?.columns.find((c) => c.name === column)
    if (col === undefined) throw new PlsCompileError(this.source, pos, 201, `identifier '${t.of.join(".")}' must be declared`)
    const name = col.type.dictName
    if (CHARACTER.test(name)) return { kind: "named", name, size: col.type.charSize }
    if (name === "NUMBER" && col.type.dictPrecision !== null) return { kind: "named", name, size: col.type.dictPrecision, scale: col.type.dictScale ?? 0 }
    return { kind: "named", name }
  }

  /** The collection type a declared type names, if it names one. */
  private collectionType(t: TypeSpec | undefined): CollectionType | undefined {
    if (t?.kind !== "named") return undefined
    const packaged = /^(\S+) \. (\S+)$/.exec(t.name)
    if (t.name.includes(" ") && packaged === null) return undefined
    const slot = packaged !== null ? this.packageVariable(packaged[1]!, packaged[2]!) : this.lookup(t.name)
    return slot?.k === "type" ? slot.type : undefined
  }

  /** A collection variable's type and value (null when atomically null), undefined when `name` is none. */
  private collectionVar(name: string): { slot: Extract<Slot, { k: "var" }>; type: CollectionType } | undefined {
    const slot = this.lookup(name)
    if (slot?.k !== "var") return undefined
    if (slot.value instanceof PlsqlCollection) return { slot, type: slot.value.type }
    const type = this.collectionType(slot.type)
    return type === undefined ? undefined : { slot, type }
  }

  /**
   * A subscript or method argument, computed without the SQL engine (nameValue is synchronous): a literal, a name, or
   * whole-number arithmetic.
   */
  private subscript(toks: Expr): number | string {
    const single = toks.length === 1 ? toks[0]! : undefined
    if (single?.kind === "str") return single.value
    const named = toks.length > 0 ? this.nameValue(toks, 0) : undefined
    const v = named !== undefined && named.width === toks.length ? named.value : fastEvaluate(toks, (tt, at) => this.nameValue(tt, at))
    if (v === null) throw valueError("NULL index table key value")
    if (typeof v === "number" || typeof v === "string") return v
    throw ora.unimplemented("a collection subscript other than a literal, a variable or whole-number arithmetic")
  }

  /** A collection element or method (`c(i)`, `c(i).field`, `c.COUNT`, `c.NEXT(i)`) at `at`, `c` being a collection variable. */
  private collectionValue(toks: Expr, at: number, type: CollectionType, value: Value): { value: Value; width: number } | undefined {
    const next = toks[at + 1]
    if (isOp(next, "(")) {
      const close = closingParen(toks, at + 1)
      const element = initialized(value as Collection | null).get(this.subscript(toks.slice(at + 2, close)))
      if (element instanceof PlsqlRecord && isOp(toks[close + 1], ".") && toks[close + 2] !== undefined) {
        const field = oracleName(toks[close + 2]!)
        if (!element.fields.has(field)) throw new PlsCompileError(this.source, toks[close + 2]!.pos, 302, `component '${field}' must be declared`)
        return { value: element.fields.get(field) ?? null, width: close + 3 - at }
      }
      return { value: element, width: close + 1 - at }
    }
    if (!isOp(next, ".") || toks[at + 2] === undefined) return { value, width: 1 }
    const method = oracleName(toks[at + 2]!)
    const args = isOp(toks[at + 3], "(") ? closingParen(toks, at + 3) : undefined
    const width = args === undefined ? 3 : args + 1 - at
    const arg = () => (args === undefined ? null : this.subscript(toks.slice(at + 4, args)))
    if (method === "EXISTS") return { value: value instanceof PlsqlCollection ? value.exists(arg()!) : false, width }
    if (method === "LIMIT") return { value: type.limit ?? null, width }
    const c = initialized(value as Collection | null)
    switch (method) {
      case "COUNT":
        return { value: c.count, width }
      case "FIRST":
        return { value: c.first, width }
      case "LAST":
        return { value: c.last, width }
      case "NEXT":
        return { value: c.next(arg()!), width }
      case "PRIOR":
        return { value: c.prior(arg()!), width }
    }
    throw new PlsCompileError(this.source, toks[at + 2]!.pos, 302, `component '${method}' must be declared`)
  }

  /** `c.EXTEND [(n)]`, `c.TRIM [(n)]`, `c.DELETE [(i [, j])]`; false when the call is no collection method. */
  private async collectionMethod(parts: ReadonlyArray<string>, args: ReadonlyArray<Expr>): Promise<boolean> {
    if (parts.length !== 2) return false
    const found = this.collectionVar(parts[0]!)
    if (found === undefined) return false
    const c = initialized(found.slot.value as Collection | null)
    const values: Array<number | string> = []
    for (const a of args) {
      const v = await this.evaluate(a)
      if (typeof v !== "number" && typeof v !== "string") throw valueError("NULL index table key value")
      values.push(v)
    }
    const count = Number(values[0] ?? 1)
    switch (parts[1]) {
      case "EXTEND":
        c.extend(count, () => {
          const record = this.recordElements(found.type)
          return record === false ? null : new PlsqlRecord(new Map(record === true ? [] : record.fields.map((f) => [f.name, null])), record === true ? undefined : record)
        })
        return true
      case "TRIM":
        c.trim(count)
        return true
      case "DELETE":
        c.delete(values[0], values[1])
        return true
    }
    throw new PlsCompileError(this.source, this.pos, 302, `component '${parts[1]!}' must be declared`)
  }

  /** A collection of `type` holding rows (records when its elements are %ROWTYPE, else column `column`'s values). */
  private collectionOfRows(type: CollectionType, names: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, column: number | undefined): Collection {
    const c: Collection = new PlsqlCollection(type)
    const record = this.recordType(type.element)
    for (const row of rows) {
      if (column !== undefined) c.push(this.coerce(type.element, row[column] ?? null) as DuckDBValue)
      else c.push(record === undefined ? new PlsqlRecord(new Map(names.map((n, i) => [n, row[i] ?? null]))) : this.recordOfRow(record, row))
    }
    return c
  }

  /** BULK COLLECT INTO targets: one collection of records, or one collection per column. */
  private assignBulk(targets: ReadonlyArray<Expr>, names: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): void {
    const collections = targets.map((t) => {
      const found = t.length === 1 ? this.collectionVar(oracleName(t[0]!)) : undefined
      if (found === undefined) throw new PlsCompileError(this.source, t[0]?.pos ?? this.pos, 403, `expression '${t.map((x) => x.text).join("")}' cannot be used as an INTO-target of a SELECT/FETCH statement`)
      return found
    })
    const only = collections.length === 1 && this.recordElements(collections[0]!.type) !== false ? collections[0]! : undefined
    if (only !== undefined) {
      only.slot.value = this.collectionOfRows(only.type, names, rows, undefined)
      return
    }
    if (collections.length !== names.length) throw new OraError(6550, `line ${this.line()}, column 1:\nPLS-00394: wrong number of values in the INTO list of a FETCH statement`)
    collections.forEach((f, i) => {
      f.slot.value = this.collectionOfRows(f.type, names, rows, i)
    })
  }

  private async emptyRecord(of: ReadonlyArray<string>, pos: number): Promise<PlsqlRecord> {
    if (of.length === 1) {
      const slot = this.lookup(of[0]!)
      if (slot?.k === "cursor") {
        const q = await this.openQuery(slot.decl.query)
        const rec = new PlsqlRecord(new Map(q.columns.map((c) => [c.name, null])))
        q.cursor.close()
        return rec
      }
    }
    const meta = this.host.lookupTable(of.length === 2 ? of[0] : undefined, of[of.length - 1]!)
    if (meta === undefined) throw new PlsCompileError(this.source, pos, 201, `identifier '${of.join(".")}' must be declared`)
    return new PlsqlRecord(new Map(meta.columns.map((c) => [c.name, null])))
  }

  /** An array bind's elements as a collection of a declared type, each converted to its element type. */
  private retype(c: Collection, type: CollectionType): Collection {
    const out: Collection = new PlsqlCollection(type)
    for (const k of c.keys()) {
      if (type.kind === "assoc") out.set(k, this.coerce(type.element, c.get(k)) as DuckDBValue)
      else out.push(this.coerce(type.element, c.get(k)) as DuckDBValue)
    }
    return out
  }

  /** A row's values as a record of a declared record type, by position (PLS-00394 when the numbers differ). */
  private recordOfRow(type: RecordType, row: ReadonlyArray<DuckDBValue>): PlsqlRecord {
    if (row.length !== type.fields.length) throw new OraError(6550, `line ${this.line()}, column 1:\nPLS-00394: wrong number of values in the INTO list of a FETCH statement`)
    return new PlsqlRecord(new Map(type.fields.map((f, i) => [f.name, this.coerce(this.fieldType(f), row[i] ?? null) as DuckDBValue])), type)
  }

  /** A record field's type, NOT NULL included. */
  private fieldType(f: RecordType["fields"][number]): TypeSpec {
    const t = this.resolveType(f.type, this.pos)
    return f.notNull && t.kind === "named" ? { ...t, notNull: true } : t
  }

  /**
   * A value as a variable of type `t` holds it: ORA-06502 when it does not convert, does not fit, is outside a
   * subtype's RANGE or NULL for a NOT NULL type; a record is copied (records are values), into a declared record type
   * by position.
   */
  private coerce(t: TypeSpec | undefined, v: Value): Value {
    if (v instanceof PlsqlCollection && v.type === BIND_ARRAY) {
      const collection = this.collectionType(t)
      return collection === undefined ? v : this.retype(v, collection)
    }
    if (v instanceof PlsqlRecord) {
      const record = this.recordType(t)
      if (record === undefined) return new PlsqlRecord(new Map(v.fields), v.type)
      if (v.type === record) return new PlsqlRecord(new Map(v.fields), record)
      return this.recordOfRow(record, [...v.fields.values()])
    }
    if (t?.kind === "named" && v === null && t.notNull === true) throw new OraError(6502, "PL/SQL: numeric or value error")
    const out = this.convert(t, v)
    if (t?.kind === "named" && t.range !== undefined && typeof out === "number" && (out < t.range[0] || out > t.range[1])) throw new OraError(6502, "PL/SQL: numeric or value error")
    return out
  }

  private convert(t: TypeSpec | undefined, v: Value): Value {
    if (t === undefined || t.kind !== "named" || v === null || isCursorValue(v) || v instanceof PlsqlRecord) return v
    if (NUMERIC.test(t.name) && typeof v === "string") {
      const s = v.trim()
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) throw valueError("character to number conversion error")
      const n = Number(s)
      return INTEGRAL.test(t.name) ? Math.round(n) : t.name === "NUMBER" && t.size === undefined ? numberOfText(s) : n
    }
    if (INTEGRAL.test(t.name) && typeof v === "number") return Math.round(v)
    if (/^(NUMBER|DECIMAL|DEC|NUMERIC)$/.test(t.name) && typeof v === "number" && t.size !== undefined) {
      // NUMBER(p,s): rounded to s decimals; more than p - s integer digits is ORA-06502
      const scale = t.scale ?? 0
      const rounded = Number(v.toFixed(Math.max(0, Math.min(scale, 100))))
      if (Math.abs(rounded) >= 10 ** (t.size - scale)) throw valueError("number precision too large")
      return rounded
    }
    if (CHARACTER.test(t.name) && typeof v === "string" && t.size !== undefined) {
      const length = /^N/.test(t.name) || t.chars === true ? [...v].length : Buffer.byteLength(v)
      if (length > t.size) throw valueError("character string buffer too small")
    }
    return v
  }

  // --- expressions -------------------------------------------------------------------------------------------------

  /** The value of a single name: variable, record field, bind, cursor attribute; undefined when `toks` is none. */
  private nameValue(toks: Expr, at: number): { value: Value; width: number } | undefined {
    const t = toks[at]!
    const next = toks[at + 1]
    const called = t.kind === "bind" ? this.callResults.get(t.value) : undefined
    if (called !== undefined) return { value: called.value, width: 1 }
    if (t.kind === "bind") {
      const idx = this.binds.binds.get(t.value)
      if (idx === undefined) throw ora.notAllBound()
      this.binds.read.add(idx)
      const value = this.binds.values[idx] ?? null
      // an index-by array bind (oracledb's `val: [...]`) reads as a collection
      return { value: Array.isArray(value) ? (collectionOfBind(value as Array<DuckDBValue>) as Collection) : (value as Value), width: 1 }
    }
    if (t.kind !== "ident" && t.kind !== "qident") return undefined
    if (isOp(toks[at - 1], ".")) return undefined
    const name = oracleName(t)
    if (name === "SQL" && isOp(next, "%") && isKw(toks[at + 2], "BULK_EXCEPTIONS")) {
      if (isOp(toks[at + 3], ".") && isKw(toks[at + 4], "COUNT")) return { value: this.bulkExceptions.length, width: 5 }
      if (isOp(toks[at + 3], "(")) {
        const close = closingParen(toks, at + 3)
        const field = isOp(toks[close + 1], ".") ? toks[close + 2] : undefined
        if (field === undefined || !isKw(field, "ERROR_INDEX", "ERROR_CODE")) throw new PlsCompileError(this.source, toks[at + 2]!.pos, 302, "component 'BULK_EXCEPTIONS' must be declared")
        const entry = this.bulkExceptions[Number(this.subscript(toks.slice(at + 4, close))) - 1]
        if (entry === undefined) throw ora.noDataFound()
        return { value: isKw(field, "ERROR_INDEX") ? entry.index : entry.code, width: close + 3 - at }
      }
    }
    if (name === "SQL" && isOp(next, "%") && isKw(toks[at + 2], "BULK_ROWCOUNT") && isOp(toks[at + 3], "(")) {
      const close = closingParen(toks, at + 3)
      return { value: this.bulkRowCounts.get(this.subscript(toks.slice(at + 4, close))) ?? 0, width: close + 1 - at }
    }
    if (isOp(next, "%") && isKw(toks[at + 2], "FOUND", "NOTFOUND", "ROWCOUNT", "ISOPEN")) {
      const attr = toks[at + 2]!.value
      if (name === "SQL") {
        const n = this.sqlRowCount
        const value = attr === "ROWCOUNT" ? n : attr === "ISOPEN" ? false : n === null ? null : attr === "FOUND" ? n > 0 : n === 0
        return { value, width: 3 }
      }
      const slot = this.lookup(name)
      if (slot === undefined) this.notDeclared(t)
      const reader = slot.k === "cursor" ? slot.reader : slot.k === "var" && isCursorValue(slot.value) ? this.readers.get(slot.value) : undefined
      if (attr === "ISOPEN") return { value: reader !== undefined, width: 3 }
      if (reader === undefined) throw ora.invalidCursor()
      const value = attr === "ROWCOUNT" ? reader.count : reader.found === null ? null : attr === "FOUND" ? reader.found : !reader.found
      return { value, width: 3 }
    }
    const slot = this.lookup(name)
    if (slot?.k === "var") {
      const collection = slot.value instanceof PlsqlCollection ? slot.value.type : this.collectionType(slot.type)
      if (collection !== undefined) return this.collectionValue(toks, at, collection, slot.value)
    }
    if (isOp(next, "(")) return undefined
    if (slot?.k === "var") {
      if (slot.value instanceof PlsqlRecord && isOp(next, ".") && toks[at + 2] !== undefined) {
        const field = oracleName(toks[at + 2]!)
        if (!slot.value.fields.has(field)) throw new PlsCompileError(this.source, toks[at + 2]!.pos, 302, `component '${field}' must be declared`)
        return { value: slot.value.fields.get(field) ?? null, width: 3 }
      }
      if (isOp(next, ".")) return undefined
      return { value: slot.value, width: 1 }
    }
    if (slot === undefined && isOp(next, ".") && toks[at + 2] !== undefined) {
      const inner = this.labelled(name, oracleName(toks[at + 2]!)) ?? this.packageVariable(name, oracleName(toks[at + 2]!))
      if (inner?.k === "var") return { value: inner.value, width: 3 }
    }
    if (slot === undefined && !isOp(next, ".")) {
      if (name === "SQLCODE") return { value: this.handling.at(-1)?.sqlcode ?? 0, width: 1 }
      if (name === "SQLERRM") return { value: this.handling.at(-1)?.sqlerrm ?? "ORA-0000: normal, successful completion", width: 1 }
    }
    if (slot === undefined && name === "DBMS_UTILITY" && isOp(next, ".")) {
      const value = dbmsUtilityValue(toks[at + 2]?.value, this.handling.at(-1), this.line())
      if (value !== undefined) return { value, width: isOp(toks[at + 3], "(") && isOp(toks[at + 4], ")") ? 5 : 3 }
    }
    return undefined
  }

  /** Column names of the tables a SQL statement names: they win over variables of the same name. */
  private columnsOf(toks: Expr): Set<string> {
    const out = new Set<string>()
    toks.forEach((t, k) => {
      if (t.kind !== "ident" && t.kind !== "qident") return
      if (isOp(toks[k + 1], "(") || isOp(toks[k - 1], ".")) return
      const meta = isOp(toks[k + 1], ".") && toks[k + 2] !== undefined ? this.host.lookupTable(oracleName(t), oracleName(toks[k + 2]!)) : this.host.lookupTable(undefined, oracleName(t))
      for (const c of meta?.columns ?? []) out.add(c.name)
    })
    return out
  }

  /**
   * The tokens with every PL/SQL name (variable, record field, cursor attribute, SQLCODE, bind) replaced by a bind
   * placeholder, and the placeholders' values in order. `sql` marks a SQL statement, whose table columns hide
   * variables of the same name.
   */
  private bindNames(source: Expr, sql: boolean): { rewritten: Array<Tok>; values: Array<DuckDBValue>; specs: Array<BindSpec | undefined>; kinds: Array<ValueKind> } {
    const hidden = sql ? this.columnsOf(source) : new Set<string>()
    const values: Array<DuckDBValue> = []
    const specs: Array<BindSpec | undefined> = []
    const kinds: Array<ValueKind> = []
    const rewritten: Array<Tok> = []
    for (let k = 0; k < source.length; k++) {
      const t = source[k]!
      const isName = t.kind === "ident" || t.kind === "qident"
      const found = t.kind === "bind" || (isName && !hidden.has(oracleName(t)) && !isKw(source[k - 1], "AS")) ? this.nameValue(source, k) : undefined
      if (found === undefined) {
        rewritten.push(t)
        continue
      }
      if (isCursorValue(found.value) || found.value instanceof PlsqlRecord || found.value instanceof PlsqlCollection) throw new PlsCompileError(this.source, t.pos, 382, "expression is of wrong type")
      specs[values.length] = t.kind === "bind" ? this.binds.specs?.[this.binds.binds.get(t.value) ?? -1] : undefined
      const slot = t.kind === "bind" || found.width !== 1 ? undefined : this.lookup(oracleName(t))
      kinds[values.length] = t.kind === "bind" ? kindOfSpec(specs[values.length]) : slot?.k === "var" ? kindOfType(slot.type) : undefined
      // an INTERVAL DAY TO SECOND with nanoseconds is computed on in exact storage, every digit kept
      const seconds = exactSecondsOfBind(found.value)
      if (seconds !== undefined) kinds[values.length] = "exactSeconds"
      values.push(seconds ?? (found.value as DuckDBValue))
      rewritten.push({ ...t, kind: "bind", text: `:v${values.length}`, value: `\u0000V${values.length - 1}` })
      k += found.width - 1
    }
    return { rewritten, values, specs, kinds }
  }

  /** CONNECT BY and (+) rewritten as for SQL statements (hierarchical.ts, outer-join-plus.ts). */
  private hierarchyAndOuterJoins(toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> {
    const lookup = (schema: string | undefined, name: string) => this.host.lookupTable(schema, name)
    return rewriteHierarchical(rewriteOuterJoinPlus(toks, lookup), lookup)
  }

  /**
   * Renders tokens as DuckDB SQL, the PL/SQL names they use bound as parameters. `sql` marks a SQL statement, whose
   * table columns hide variables of the same name.
   */
  private render(toks: Expr, asQuery: boolean, sql: boolean): { sql: string; params: Array<DuckDBValue>; shape?: QueryShape } {
    const params: Array<DuckDBValue> = []
    const source = rewriteAttributeAccess(rewriteFloatConditions(rewriteDbmsLob(rewriteBuiltinCalls(rewriteJsonSql(this.hierarchyAndOuterJoins(toks), this.host.db.settings.version), this.host.schema))), (schema, name) => this.host.lookupTable(schema, name))
    const { rewritten, values, specs, kinds } = this.bindNames(source, sql)
    const kindOfParam: Array<ValueKind> = []
    const withSpaces: Array<Tok> = []
    for (const t of rewritten) withSpaces.push(t, { kind: "ws", text: " ", value: " ", pos: t.pos })
    const specOfParam: Array<BindSpec | undefined> = []
    // a token the translator renders twice (AT TIME ZONE does) stays one parameter
    const numbered = new Map<Tok, number>()
    const { toks: tt, tr } = makeTranslator(withSpaces, {
      bind: (name, tok) => {
        const known = numbered.get(tok)
        if (known !== undefined) return `$${known}`
        const index = name.startsWith("\u0000V") ? Number(name.slice(2)) : -1
        specOfParam[params.length] = specs[index]
        kindOfParam[params.length] = kinds[index]
        const value = index >= 0 ? values[index] : null
        // RAW values (variables, binds) are bytes: DuckDB types a parameter by its value, BLOB only as a DuckDBBlobValue
        params.push((value instanceof Uint8Array ? new DuckDBBlobValue(value) : value) as DuckDBValue)
        numbered.set(tok, params.length)
        return `$${params.length}`
      },
      datetimeBind: zonedBinds(specOfParam),
      numberBind: (n) => kindOfParam[n - 1] === "number",
      exactBind: (n) => isExactNumberText(kindOfParam[n - 1], params[n - 1] ?? null),
      dateBind: (n) => kindOfParam[n - 1] === "datetime",
      exactSecondsBind: (n) => kindOfParam[n - 1] === "exactSeconds",
      dbTimeZone: this.host.db.settings.dbTimeZone,
      exactNumberColumns: this.host.exactNumberColumnsOf(toks.map((t) => t.text).join(" "))
    })
    if (asQuery) {
      const q = translateQuery(tt, tr)
      return { sql: q.sql, params, shape: q.shape }
    }
    return { sql: tr.range(0, tt.length), params }
  }

  /** Evaluates an expression (a single literal or name directly, anything else as `SELECT expr`). */
  async evaluate(expr: Expr): Promise<DuckDBValue> {
    const v = await this.evaluateValue(expr)
    if (isCursorValue(v) || v instanceof PlsqlRecord || v instanceof PlsqlCollection) throw new PlsCompileError(this.source, expr[0]?.pos ?? 0, 382, "expression is of wrong type")
    return v
  }

  private async evaluateValue(source: Expr): Promise<Value> {
    const { toks, release } = await this.inlineCalls(source)
    try {
      return await this.evaluateInlined(toks)
    } finally {
      release()
    }
  }

  private async evaluateInlined(expr: Expr): Promise<Value> {
    const single = expr.length === 1 ? expr[0]! : undefined
    if (single?.kind === "num" && /^\d{1,15}$/.test(single.value)) return Number(single.value)
    if (single?.kind === "str" && !/^[nN]/.test(single.text)) return single.value === "" ? null : single.value
    if (single !== undefined && isKw(single, "NULL")) return null
    if (single !== undefined && isKw(single, "TRUE", "FALSE") && this.lookup(single.value) === undefined) return single.value === "TRUE"
    const constructed = await this.construct(expr)
    if (constructed !== undefined) return constructed
    const direct = this.nameValue(expr, 0)
    if (direct !== undefined && direct.width === expr.length) return direct.value
    const fast = fastEvaluate(expr, (toks, at) => this.nameValue(toks, at))
    if (fast !== undefined) return fast
    const { sql, params } = this.render(expr, false, false)
    const result = await this.host.queryDuck(`SELECT ${sql}`, params).catch((e: unknown) => {
      throw this.asPlsqlError(e, expr)
    })
    const reader = new RowReader(result, this.host)
    try {
      const row = await reader.next().catch((e: unknown) => {
        throw this.asPlsqlError(e, expr)
      })
      return row?.[0] ?? null
    } finally {
      reader.close()
    }
  }

  /** Values of local function calls an expression made, by the bind token that stands for each. */
  private readonly callResults = new Map<string, { value: Value }>()
  private calls = 0

  /**
   * The tokens with each call of a local function (`f`, `f(args)`) made now and replaced by a bind token holding its
   * value; the same tokens when there is none. Arguments are PL/SQL expressions (a column of a SQL statement's row is
   * not one: such a call is made once, before the statement).
   */
  private async inlineCalls(expr: Expr, sql = false, keepStored = false): Promise<{ toks: Expr; release: () => void }> {
    let out: Array<Tok> | undefined
    let columns: Set<string> | undefined
    const made: Array<string> = []
    const release = () => made.forEach((key) => this.callResults.delete(key))
    for (let k = 0; k < expr.length; k++) {
      const t = expr[k]!
      const packaged = await this.packagedFunction(expr, k)
      let callee: { readonly end: number; readonly run: (args: ReadonlyArray<Expr>) => Promise<Value> } | undefined
      if (packaged !== undefined) {
        if (!keepStored) callee = { end: packaged.end, run: (args) => this.callLocal(packaged.slot, args) }
      } else {
        const callable = (t.kind === "ident" || t.kind === "qident") && !isOp(expr[k - 1], ".") && !isOp(expr[k + 1], ".") && !isOp(expr[k + 1], "%")
        const slot = callable ? this.lookup(oracleName(t)) : undefined
        const local = slot?.k === "subprogram" && slot.sub.returns !== undefined ? slot : undefined
        const stored = callable && slot === undefined ? this.host.db.procedures.get(`${this.host.schema}.${oracleName(t)}`) : undefined
        // in a SQL statement a column of its tables wins over a function of the same name called without arguments
        const column = sql && !isOp(expr[k + 1], "(") && (local !== undefined || stored?.isFunction === true) && (columns ??= this.columnsOf(expr)).has(oracleName(t))
        // a function declared in a block is not callable from SQL (PLS-00231); a package's are (sql-functions.ts)
        if (local !== undefined && !column && sql && !this.declaredInPackage(oracleName(t), local)) {
          throw new PlsCompileError(this.source, t.pos, 231, `function '${oracleName(t)}' may not be used in SQL`)
        }
        if (local !== undefined && !column) callee = { end: k, run: (args) => this.callLocal(local, args) }
        else if (stored?.isFunction === true && !column && !keepStored) callee = { end: k, run: (args) => this.invoke(stored, args) }
      }
      if (callee === undefined) {
        out?.push(t)
        continue
      }
      out ??= expr.slice(0, k)
      const close = isOp(expr[callee.end + 1], "(") ? closingParen(expr, callee.end + 1) : callee.end
      const args = close > callee.end + 2 ? splitTopLevel(expr.slice(callee.end + 2, close)) : []
      let value: Value
      try {
        value = await callee.run(args)
      } catch (e) {
        release()
        throw e
      }
      const key = `\u0000F${++this.calls}`
      made.push(key)
      this.callResults.set(key, { value })
      out.push({ kind: "bind", text: ":f", value: key, pos: t.pos })
      k = close
    }
    return { toks: out ?? expr, release }
  }

  /** Whether the subprogram `name` resolves to is a package's (declared in a package instance's scope). */
  private declaredInPackage(name: string, slot: Slot): boolean {
    for (let s = this.scope; s !== undefined; s = s.parent) {
      if (s.names.get(name) !== slot) continue
      for (const instance of instancesOf(this.host).values()) if (instance.names === s.names) return true
      return false
    }
    return false
  }

  /**
   * Runs a local function or procedure in the scope it was declared in, parameters bound (named notation and
   * defaults too); OUT and IN OUT values copied back; a function's RETURN value (ORA-06503 when it ends without one).
   */
  private async callLocal(slot: Extract<Slot, { k: "subprogram" }>, args: ReadonlyArray<Expr>): Promise<Value> {
    const sub = slot.overloads?.find((o) => args.length <= o.params.length && args.length >= o.params.filter((p) => p.default === undefined).length) ?? slot.sub
    const wrong = () => new PlsCompileError(this.source, this.pos, 306, `wrong number or types of arguments in call to '${sub.name}'`)
    if (sub.body === undefined) throw new PlsCompileError(this.source, this.pos, 328, `A subprogram body must be defined for the forward declaration of ${sub.name}.`)
    const actual = actualArguments(sub.params, args, wrong)
    // arguments are computed in the caller's scope, their types named in the subprogram's
    const given: Array<Value> = []
    for (let i = 0; i < sub.params.length; i++) {
      const p = sub.params[i]!
      const a = actual[i] ?? (p.mode === "IN" ? p.default : undefined)
      if (a === undefined) throw wrong()
      given.push(p.mode === "OUT" ? null : await this.evaluateValue(a))
    }
    const pos = this.pos
    // a package's subprogram runs in a frame of the package's source: its errors name the package's lines
    // (`ORA-06512: at "OWNER.PKG", line n`, then the line of the call)
    const owner = this.packageOwning(slot)
    let outcome: { readonly params: Map<string, Slot>; readonly returned: ReturnSignal | undefined }
    if (owner === undefined) {
      try {
        outcome = await this.runSubprogram(slot, sub, given)
      } catch (e) {
        // the subprogram's own line, then the call's
        if (e instanceof PlsqlException) {
          e.frames.push(`at line ${e.line}`)
          e.line = this.line(pos)
        }
        throw e
      }
    } else {
      const frame = new Interpreter(this.host, owner.body?.source ?? owner.spec.source, { binds: new Map(), values: [], assigned: new Set(), read: new Set() }, this.implicit)
      frame.unit = `${owner.owner}.${owner.name}`
      try {
        outcome = await frame.runSubprogram(slot, sub, given)
      } catch (e) {
        if (e instanceof PlsqlException) {
          e.frames.push(`at "${owner.owner}.${owner.name}", line ${e.line}`)
          e.line = this.line(pos)
        }
        throw e
      }
    }
    const { params, returned } = outcome
    sub.params.forEach((p, i) => {
      const slotOf = params.get(p.name)
      if (p.mode !== "IN" && slotOf?.k === "var") this.assign(actual[i]!, slotOf.value)
    })
    if (sub.returns === undefined) return null
    if (returned?.value === undefined) throw new OraError(6503, "PL/SQL: Function returned without value")
    return this.coerce(this.resolveType(sub.returns, pos), returned.value)
  }

  /** The package a subprogram belongs to (declared in a package instance's scope), if any. */
  private packageOwning(slot: Extract<Slot, { k: "subprogram" }>): PackageDef | undefined {
    for (const instance of instancesOf(this.host).values()) if (instance.names === slot.scope?.names) return instance.def
    return undefined
  }

  /** Runs a subprogram's body in the scope it was declared in, its parameters bound from `given`. */
  private async runSubprogram(
    slot: Extract<Slot, { k: "subprogram" }>,
    sub: Subprogram,
    given: ReadonlyArray<Value>
  ): Promise<{ readonly params: Map<string, Slot>; readonly returned: ReturnSignal | undefined }> {
    const caller = this.scope
    const pos = this.pos
    let returned: ReturnSignal | undefined
    const params = new Map<string, Slot>()
    this.scope = slot.scope
    try {
      sub.params.forEach((p, i) => {
        const type = this.resolveType(p.type, pos)
        // an OUT parameter starts NULL; one of an associative array type starts empty
        const collection = p.mode === "OUT" ? this.collectionType(type) : undefined
        const value: Value = p.mode !== "OUT" ? this.coerce(type, given[i] ?? null) : collection?.kind === "assoc" ? new PlsqlCollection(collection) : null
        params.set(p.name, { k: "var", value, type, constant: p.mode === "IN" })
      })
      await this.runBlock(sub.body!, (names) => {
        for (const [k, v] of params) names.set(k, v)
      })
    } catch (e) {
      if (!(e instanceof ReturnSignal)) throw e
      returned = e
    } finally {
      this.scope = caller
      this.pos = pos
    }
    return { params, returned }
  }

  /** `type(a, b, ...)` of a collection type of the block: a new collection; undefined when `expr` is none. */
  private async construct(expr: Expr): Promise<Collection | undefined> {
    const t = expr[0]
    if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) return undefined
    // `pkg.type(...)`: a collection type of a package
    const open = isOp(expr[1], ".") && expr[2] !== undefined && isOp(expr[3], "(") ? 3 : 1
    if (!isOp(expr[open], "(")) return undefined
    const slot = open === 3 ? this.packageVariable(oracleName(t), oracleName(expr[2]!)) : this.lookup(oracleName(t))
    if (slot?.k !== "type" || closingParen(expr, open) !== expr.length - 1) return undefined
    if (slot.type.kind === "assoc") throw new PlsCompileError(this.source, t.pos, 222, `no function with name '${slot.type.name}' exists in this scope`)
    const c: Collection = new PlsqlCollection(slot.type)
    if (expr.length > open + 2) for (const a of splitTopLevel(expr.slice(open + 1, -1))) c.push(this.coerce(slot.type.element, await this.evaluateValue(a)) as DuckDBValue | PlsqlRecord)
    return c
  }

  /**
   * In a PL/SQL expression a failed conversion to a number is VALUE_ERROR, not SQL's INVALID_NUMBER; a name that is
   * neither a variable nor a function is PLS-00201, not SQL's ORA-00904.
   */
  private asPlsqlError(e: unknown, expr: Expr): unknown {
    if (e instanceof OraError && e.code === 1722) return valueError("character to number conversion error")
    const unknown = e instanceof OraError && e.code === 904 ? /^"+([^"\s]+)/.exec(e.detail)?.[1] : undefined
    if (unknown !== undefined) {
      const at = expr.find((t) => (t.kind === "ident" || t.kind === "qident") && oracleName(t) === unknown)
      return new PlsCompileError(this.source, at?.pos ?? expr[0]?.pos ?? 0, 201, `identifier '${unknown}' must be declared`)
    }
    return e
  }

  private async condition(expr: Expr): Promise<boolean> {
    return (await this.evaluate(expr)) === true
  }

  valueOf(expr: Expr): PlsqlValue | undefined {
    const found = expr.length > 0 ? this.nameValue(expr, 0) : undefined
    if (found === undefined || found.width !== expr.length || found.value instanceof PlsqlRecord || found.value instanceof PlsqlCollection) return undefined
    return found.value
  }

  assign(target: Expr, value: Value): void {
    const t = target[0]
    if (t === undefined) throw ora.missingExpression()
    if (t.kind === "bind" && target.length === 1) {
      const idx = this.binds.binds.get(t.value)
      if (idx === undefined) throw ora.notAllBound()
      const c = value instanceof PlsqlCollection ? value : undefined
      if (c !== undefined && c.keys().some((k) => c.get(k) instanceof PlsqlRecord)) throw ora.unimplemented("a collection of records as a bind value")
      this.binds.values[idx] = value instanceof PlsqlCollection ? (bindArrayOf(value) as unknown as PlsqlValue) : value instanceof PlsqlRecord ? null : value
      this.binds.assigned.add(idx)
      return
    }
    const name = oracleName(t)
    const slot = this.lookup(name) ?? (target.length === 3 && isOp(target[1], ".") ? (this.labelled(name, oracleName(target[2]!)) ?? this.packageVariable(name, oracleName(target[2]!))) : undefined)
    if (slot === undefined) this.notDeclared(t)
    if (slot.k !== "var") throw new PlsCompileError(this.source, t.pos, 321, `expression '${name}' inappropriate as the left hand side of an assignment statement`)
    if (slot.constant) throw new PlsCompileError(this.source, t.pos, 363, `expression '${name}' cannot be used as an assignment target`)
    const collection = slot.value instanceof PlsqlCollection ? slot.value.type : this.collectionType(slot.type)
    if (collection !== undefined && isOp(target[1], "(")) return this.assignElement(target, collection, slot.value as Collection | null, value)
    if (collection !== undefined && value instanceof PlsqlCollection && value.type === BIND_ARRAY) value = this.retype(value, this.collectionType(slot.type) ?? collection)
    if (collection !== undefined && target.length === 1 && value !== null && !(value instanceof PlsqlCollection && value.type === collection)) {
      throw new PlsCompileError(this.source, t.pos, 382, "expression is of wrong type")
    }
    if (target.length === 3 && isOp(target[1], ".") && slot.value instanceof PlsqlRecord && this.lookup(name) === slot) {
      const field = oracleName(target[2]!)
      if (!slot.value.fields.has(field)) throw new PlsCompileError(this.source, target[2]!.pos, 302, `component '${field}' must be declared`)
      slot.value.fields.set(field, this.coerceField(slot.value, field, value))
      return
    }
    if (target.length !== 1 && !(target.length === 3 && this.lookup(name) === undefined)) throw new PlsCompileError(this.source, t.pos, 103, "invalid assignment target")
    slot.value = this.coerce(slot.type, value)
  }

  /** `c(i) := v` or `c(i).field := v`. */
  private assignElement(target: Expr, type: CollectionType, value: Collection | null, v: Value): void {
    const c = initialized(value)
    const close = closingParen(target, 1)
    const key = this.subscript(target.slice(2, close))
    if (close === target.length - 1) {
      c.set(key, v instanceof PlsqlRecord ? new PlsqlRecord(new Map(v.fields)) : (this.coerce(type.element, v) as DuckDBValue))
      return
    }
    // a field assigned in a missing element of an associative array of records makes the element
    const record = type.kind === "assoc" && !c.exists(key) ? this.recordType(type.element) : undefined
    if (record !== undefined) c.set(key, new PlsqlRecord(new Map(record.fields.map((f) => [f.name, null])), record))
    const element = c.get(key)
    const field = target[close + 2]
    if (!(element instanceof PlsqlRecord) || !isOp(target[close + 1], ".") || field === undefined || target.length !== close + 3) {
      throw new PlsCompileError(this.source, target[0]!.pos, 103, "invalid assignment target")
    }
    if (!element.fields.has(oracleName(field))) throw new PlsCompileError(this.source, field.pos, 302, `component '${oracleName(field)}' must be declared`)
    element.fields.set(oracleName(field), this.coerceField(element, oracleName(field), v))
  }

  /** A value as field `field` of `record` holds it (a declared record type's field types; %ROWTYPE fields take any). */
  private coerceField(record: PlsqlRecord, field: string, v: Value): DuckDBValue {
    const f = record.type?.fields.find((x) => x.name === field)
    return (f === undefined ? v : this.coerce(this.fieldType(f), v)) as DuckDBValue
  }

  /** Assigns one fetched row to INTO targets: one record, or one target per column. */
  private assignRow(targets: ReadonlyArray<Expr>, names: ReadonlyArray<string>, row: ReadonlyArray<DuckDBValue>): void {
    const only = targets.length === 1 && targets[0]!.length === 1 ? this.lookup(oracleName(targets[0]![0]!)) : undefined
    if (only?.k === "var" && only.value instanceof PlsqlRecord) {
      only.value = only.value.type !== undefined ? this.recordOfRow(only.value.type, row) : new PlsqlRecord(new Map(names.map((n, i) => [n, row[i] ?? null])))
      return
    }
    if (targets.length !== row.length) throw new OraError(6550, `line ${this.line()}, column 1:\nPLS-00394: wrong number of values in the INTO list of a FETCH statement`)
    targets.forEach((t, i) => this.assign(t, row[i] ?? null))
  }

  /** The table an INSERT INTO / UPDATE / DELETE [FROM] / MERGE INTO writes. */
  private dmlTarget(toks: Expr): TableMeta | undefined {
    const at = isKw(toks[1], "INTO", "FROM") ? 2 : 1
    const a = toks[at]
    if (a === undefined || (a.kind !== "ident" && a.kind !== "qident")) return undefined
    return isOp(toks[at + 1], ".") && toks[at + 2] !== undefined ? this.host.lookupTable(oracleName(a), oracleName(toks[at + 2]!)) : this.host.lookupTable(undefined, oracleName(a))
  }

  /** Runs a DML statement of the block; stored functions in it are called per row (sql-functions.ts), local ones before it. */
  async runDml(source: Expr): Promise<number> {
    if (tableTriggers(this.host.db, this.dmlTarget(source)).length > 0) throw ora.unimplemented("DML from PL/SQL on a table with triggers (they fire for a client's INSERT / UPDATE / DELETE and EXECUTE IMMEDIATE)")
    const { toks: inlined, release } = await this.inlineCalls(source, true, true)
    const lookup = (schema: string | undefined, name: string) => this.host.lookupTable(schema, name)
    let rendered
    let calls
    try {
      const columns = this.columnsOf(inlined)
      calls = storedFunctionCalls(inlined, this.host.schema, (owner, name) => callableFromSql(this.host, owner, name), (name) => columns.has(name))
      rendered = this.render(intervalLiteralTargets(sessionZoneWrites(canonicalNumberWrites(calls?.toks ?? inlined, lookup), lookup), lookup), false, true)
    } finally {
      release()
    }
    const { sql, params } = rendered
    if (calls === undefined) return this.host.runBlockDml(sql, params)
    return calls.settleWrite(
      () => this.host.probeWrite(sql, params),
      () => this.host.runBlockDml(sql, params),
      (fn, args) => callFromSql(this.host, fn, args),
      (release) => this.host.holdUntilTransactionEnds(release)
    )
  }

  /** Runs a query of the block; stored functions in it are called per row (sql-functions.ts), local ones before it. */
  private async openQuery(query: Expr): Promise<QueryResult> {
    const tabled = this.tableCollections(query)
    const source = tabled?.toks ?? query
    const { toks, release: releaseCalls } = await this.inlineCalls(source, true, true)
    const release = () => {
      releaseCalls()
      tabled?.release()
    }
    const columns = this.columnsOf(toks)
    const calls = storedFunctionCalls(toks, this.host.schema, (owner, name) => callableFromSql(this.host, owner, name), (name) => columns.has(name))
    let rendered
    try {
      rendered = this.render(calls?.toks ?? toks, true, true)
    } finally {
      release()
    }
    const { sql, params, shape } = rendered
    if (calls === undefined) return this.host.queryDuck(sql, params, shape)
    let result: QueryResult | undefined
    const cursor = await calls.settle(
      async () => (result = await this.host.queryDuck(sql, params, shape)).cursor,
      (fn, args) => callFromSql(this.host, fn, args)
    )
    return { ...result!, cursor }
  }

  /** A query's `TABLE(collection)` as the query of its elements (table-collections.ts); undefined when it has none. */
  private tableCollections(query: Expr): { toks: Expr; release: () => void } | undefined {
    const made: Array<string> = []
    const toks = inlineTableCollections(
      query,
      (name) => {
        if (name.kind === "bind") {
          const v = this.binds.values[this.binds.binds.get(name.value) ?? -1]
          return Array.isArray(v) ? (collectionOfBind(v) as PlsqlCollection<unknown>) : undefined
        }
        if (name.kind !== "ident" && name.kind !== "qident") return undefined
        const slot = this.lookup(oracleName(name))
        if (slot?.k !== "var") return undefined
        return slot.value instanceof PlsqlCollection ? (slot.value as PlsqlCollection<unknown>) : undefined
      },
      (e) => (e instanceof PlsqlRecord ? e.fields : undefined),
      (value) => {
        const key = `\u0000F${++this.calls}`
        made.push(key)
        this.callResults.set(key, { value })
        return key
      }
    )
    return toks === undefined ? undefined : { toks, release: () => made.forEach((key) => this.callResults.delete(key)) }
  }

  /** Readers of REF CURSOR values being fetched from in this block. */
  private readonly readers = new WeakMap<QueryResult, RowReader>()

  private readerOf(cursor: Tok): RowReader | undefined {
    if (cursor.kind === "bind") {
      const v = this.valueOf([cursor])
      return isCursorValue(v) ? this.readerFor(v) : undefined
    }
    const slot = this.lookup(oracleName(cursor))
    if (slot === undefined) this.notDeclared(cursor)
    if (slot.k === "cursor") return slot.reader
    if (slot.k === "var" && isCursorValue(slot.value)) return this.readerFor(slot.value)
    return undefined
  }

  private readerFor(q: QueryResult): RowReader {
    let r = this.readers.get(q)
    if (r === undefined) {
      r = new RowReader(q, this.host)
      this.readers.set(q, r)
    }
    return r
  }

  /** Opens an explicit cursor with its arguments bound to its parameters. */
  private async openCursor(slot: Extract<Slot, { k: "cursor" }>, args: ReadonlyArray<Expr>): Promise<RowReader> {
    if (slot.reader !== undefined) throw predefined(6511, this.line())
    const names = new Map<string, Slot>()
    for (let i = 0; i < slot.decl.params.length; i++) {
      const a = args[i]
      names.set(slot.decl.params[i]!, { k: "var", value: a === undefined ? null : await this.evaluate(a), type: undefined, constant: true })
    }
    const outer = this.scope
    this.scope = { names, ...(outer === undefined ? {} : { parent: outer }) }
    try {
      slot.reader = new RowReader(await this.openQuery(slot.decl.query), this.host)
    } finally {
      this.scope = outer
    }
    return slot.reader
  }

  // --- statements --------------------------------------------------------------------------------------------------

  private async statement(st: Stmt): Promise<void> {
    switch (st.k) {
      case "null":
        return
      case "assign":
        if (st.expr.length === 1 && isKw(st.expr[0], "NULL") && this.notNullTarget(st.target)) throw new PlsCompileError(this.source, st.expr[0]!.pos, 382, "expression is of wrong type")
        return this.assign(st.target, await this.evaluateValue(st.expr))
      case "block":
        return this.runBlock(st.block)
      case "if": {
        for (const b of st.branches) if (await this.condition(b.cond)) return this.statements(b.body)
        if (st.otherwise !== undefined) await this.statements(st.otherwise)
        return
      }
      case "case": {
        const selector = st.selector === undefined ? undefined : await this.evaluate(st.selector)
        for (const w of st.whens) {
          const hit = st.selector === undefined ? await this.condition(w.when) : selector !== null && selector !== undefined && (await this.equals(selector, w.when))
          if (hit) return this.statements(w.body)
        }
        if (st.otherwise === undefined) throw predefined(6592, this.line(st.pos))
        return this.statements(st.otherwise)
      }
      case "loop":
        for (;;) if (!(await this.iteration(st.label, st.body))) return
      case "while":
        while (await this.condition(st.cond)) if (!(await this.iteration(st.label, st.body))) return
        return
      case "for": {
        const low = Math.round(Number(await this.evaluate(st.low)))
        const high = Math.round(Number(await this.evaluate(st.high)))
        for (let n = st.reverse ? high : low; st.reverse ? n >= low : n <= high; n += st.reverse ? -1 : 1) {
          const index = new Map<string, Slot>([[st.index, { k: "var", value: n, type: { kind: "named", name: "PLS_INTEGER" }, constant: true }]])
          if (!(await this.iteration(st.label, st.body, index))) return
        }
        return
      }
      case "cursorFor":
        return this.cursorFor(st)
      case "exit":
      case "continue": {
        if (st.when !== undefined && !(await this.condition(st.when))) return
        throw st.k === "exit" ? new LoopExit(st.label) : new LoopContinue(st.label)
      }
      case "return":
        throw new ReturnSignal(st.expr === undefined ? undefined : await this.evaluateValue(st.expr))
      case "commit":
        return this.host.commit()
      case "rollback":
        return this.host.rollback()
      case "sql":
        return this.sqlStatement(st.toks)
      case "open":
        return this.open(st)
      case "fetch": {
        const reader = this.readerOf(st.cursor)
        if (reader === undefined) throw ora.invalidCursor()
        if (st.bulk) {
          const limit = st.limit === undefined ? Infinity : Number(await this.evaluate(st.limit))
          const rows = await reader.take(limit)
          this.assignBulk(st.into, reader.names, rows)
          return
        }
        const row = await reader.next()
        if (row !== undefined) this.assignRow(st.into, reader.names, row)
        return
      }
      case "close": {
        if (st.cursor.kind !== "bind") {
          const slot = this.lookup(oracleName(st.cursor))
          if (slot?.k === "cursor") {
            if (slot.reader === undefined) throw ora.invalidCursor()
            slot.reader.close()
            delete slot.reader
            return
          }
        }
        const reader = this.readerOf(st.cursor)
        if (reader === undefined) throw ora.invalidCursor()
        reader.close()
        return
      }
      case "execute":
        return this.executeImmediate(st)
      case "forall":
        return this.forall(st)
      case "raise":
        return this.raise(st)
      case "call":
        return this.call(st)
    }
  }

  private async equals(selector: DuckDBValue, when: Expr): Promise<boolean> {
    const v = await this.evaluate(when)
    return v !== null && (v === selector || String(v) === String(selector))
  }

  /** One pass of a loop body; false when the loop ends (EXIT of this loop). */
  private async iteration(label: string | undefined, body: ReadonlyArray<Stmt>, names?: Map<string, Slot>): Promise<boolean> {
    const outer = this.scope
    if (names !== undefined) this.scope = { names, ...(outer === undefined ? {} : { parent: outer }) }
    try {
      await this.statements(body)
      return true
    } catch (e) {
      if (e instanceof LoopExit && (e.label === undefined || e.label === label)) return false
      if (e instanceof LoopContinue && (e.label === undefined || e.label === label)) return true
      throw e
    } finally {
      this.scope = outer
    }
  }

  private async cursorFor(st: Extract<Stmt, { k: "cursorFor" }>): Promise<void> {
    let reader: RowReader
    let slot: Extract<Slot, { k: "cursor" }> | undefined
    if (st.query !== undefined) reader = new RowReader(await this.openQuery(st.query), this.host)
    else {
      const dotted = st.cursor!.split(".")
      const found = dotted.length > 1 ? await this.packageMember(dotted.slice(0, -1), dotted[dotted.length - 1]!, { kind: "ident", text: st.cursor!, value: st.cursor!, pos: st.pos }) : this.lookup(st.cursor!)
      if (found?.k !== "cursor") throw new PlsCompileError(this.source, st.pos, 201, `identifier '${st.cursor!}' must be declared`)
      slot = found
      reader = await this.openCursor(found, st.args)
    }
    try {
      for (;;) {
        const row = await reader.next()
        if (row === undefined) return
        const record = new PlsqlRecord(new Map(reader.names.map((n, i) => [n, row[i] ?? null])))
        const names = new Map<string, Slot>([[st.record, { k: "var", value: record, type: undefined, constant: false }]])
        if (!(await this.iteration(st.label, st.body, names))) return
      }
    } finally {
      reader.close()
      if (slot !== undefined) delete slot.reader
    }
  }

  private async open(st: Extract<Stmt, { k: "open" }>): Promise<void> {
    if (st.query !== undefined && (st.using !== undefined || !isKw(st.query[0], "SELECT", "WITH") && !isOp(st.query[0], "("))) {
      // OPEN c FOR 'query' [USING binds]: dynamic SQL, bound by position
      const text = await this.evaluate(st.query)
      if (text === null || String(text).trim() === "") throw new OraError(900, "invalid SQL statement")
      const values: Array<DuckDBValue> = []
      for (const u of st.using ?? []) values.push(await this.evaluate(u.expr))
      // PL/SQL Language Reference, "OPEN FOR Statement": the cursor variable of a dynamic OPEN FOR must be weak
      if ((await this.strongCursorWidth(st.cursor)) !== undefined) throw new PlsCompileError(this.source, st.cursor.pos, 455, `cursor '${oracleName(st.cursor)}' cannot be used in dynamic SQL OPEN statement`)
      const result = await this.host.execute(String(text), [values], [], { batchErrors: false, dmlRowCounts: false })
      if (result.kind !== "query") throw new OraError(24338, "statement handle not executed")
      this.assign([st.cursor], result)
      return
    }
    if (st.query !== undefined) {
      const width = await this.strongCursorWidth(st.cursor)
      const result = await this.openQuery(st.query)
      if (width !== undefined && width !== result.columns.length) {
        // a query whose row does not match a strong cursor's RETURN type does not compile (PLS-00382)
        result.cursor.close()
        throw new PlsCompileError(this.source, st.query[0]!.pos, 382, "expression is of wrong type")
      }
      this.assign([st.cursor], result)
      return
    }
    const slot = st.cursor.kind === "bind" ? undefined : this.lookup(oracleName(st.cursor))
    if (slot?.k !== "cursor") throw new PlsCompileError(this.source, st.cursor.pos, 201, `identifier '${st.cursor.text.toUpperCase()}' must be declared`)
    await this.openCursor(slot, st.args)
  }

  /** The number of columns a strong REF CURSOR variable's RETURN type has; undefined for a weak one. */
  private async strongCursorWidth(cursor: Tok): Promise<number | undefined> {
    if (cursor.kind === "bind") return undefined
    const slot = this.lookup(oracleName(cursor))
    const returns = slot?.k === "var" && slot.type?.kind === "named" ? slot.type.cursorReturns : undefined
    if (returns === undefined) return undefined
    if (returns.kind === "rowtypeOf") return (await this.emptyRecord(returns.of, cursor.pos)).fields.size
    return this.recordType(returns)?.fields.length
  }

  /** `INSERT ... VALUES rec` and `UPDATE ... SET ROW = rec` with the record's fields (records.ts). */
  private expandRecords(toks: Expr): Expr {
    return expandRecordDml(
      toks,
      (name) => {
        const slot = this.lookup(name)
        return slot?.k === "var" && slot.value instanceof PlsqlRecord ? [...slot.value.fields.keys()] : undefined
      },
      (schema, table) => this.host.lookupTable(schema, table)?.columns.map((c) => c.name)
    )
  }

  /** Whether an assignment target is a variable (or record field) of a NOT NULL type: a NULL literal into it is PLS-00382. */
  private notNullTarget(target: Expr): boolean {
    const slot = target[0] !== undefined && target[0].kind !== "bind" ? this.lookup(oracleName(target[0])) : undefined
    if (slot?.k !== "var") return false
    if (target.length === 1) return slot.type?.kind === "named" && slot.type.notNull === true
    const field = target.length === 3 && isOp(target[1], ".") && slot.value instanceof PlsqlRecord ? slot.value.type?.fields.find((f) => f.name === oracleName(target[2]!)) : undefined
    return field !== undefined && this.fieldType(field).kind === "named" && (this.fieldType(field) as { notNull?: boolean }).notNull === true
  }

  private async sqlStatement(toks: Expr): Promise<void> {
    const head = toks[0]!
    if (isKw(head, "SELECT", "WITH") || isOp(head, "(")) {
      const into = toks.findIndex((t) => isKw(t, "INTO"))
      if (isKw(toks[into - 1], "COLLECT") && isKw(toks[into - 2], "BULK")) return this.selectBulk(toks, into)
      const from = toks.findIndex((t, k) => k > into && isKw(t, "FROM"))
      if (into < 0 || from < into) throw new PlsCompileError(this.source, head.pos, 428, "an INTO clause is expected in this SELECT statement")
      const targets = splitTopLevel(toks.slice(into + 1, from))
      const reader = new RowReader(await this.openQuery([...toks.slice(0, into), ...toks.slice(from)]), this.host)
      try {
        const row = await reader.next()
        if (row === undefined) throw ora.noDataFound()
        if ((await reader.next()) !== undefined) throw new OraError(1422, "exact fetch returns more than requested number of rows")
        this.assignRow(targets, reader.names, row)
      } finally {
        reader.close()
      }
      this.sqlRowCount = 1
      const single = targets.map((t) => t[0]!)
      for (const [name, source] of lobSourcesOf(splitTopLevel(toks.slice(1, into)), single, toks.slice(from))) this.lobs.set(name, source)
      return
    }
    if (isKw(head, "INSERT", "UPDATE", "DELETE", "MERGE")) {
      toks = this.expandRecords(toks)
      const ret = returningClause(toks)
      this.sqlRowCount = ret === undefined ? await this.runDml(toks) : await this.dmlReturning(toks, ret.into)
      return
    }
    await this.host.execute(toks.map((t) => t.text).join(" "), [], [], { batchErrors: false, dmlRowCounts: false })
  }

  /** `SELECT ... BULK COLLECT INTO collections FROM ...`: every row, SQL%ROWCOUNT their number. */
  private async selectBulk(toks: Expr, into: number): Promise<void> {
    const from = toks.findIndex((t, k) => k > into && isKw(t, "FROM"))
    if (from < 0) throw new OraError(923, "FROM keyword not found where expected")
    const reader = new RowReader(await this.openQuery([...toks.slice(0, into - 2), ...toks.slice(from)]), this.host)
    try {
      const rows = await reader.take(Infinity)
      this.assignBulk(splitTopLevel(toks.slice(into + 1, from)), reader.names, rows)
      this.sqlRowCount = rows.length
    } finally {
      reader.close()
    }
  }

  /**
   * `FORALL i IN lo..hi dml` / `INDICES OF c dml`: the DML once per subscript, i bound; SQL%ROWCOUNT the sum and
   * SQL%BULK_ROWCOUNT(i) each one's count. An iteration that fails undoes only its own statement and raises: the
   * earlier iterations' changes stay (the PL/SQL Language Reference, "Handling FORALL Exceptions Immediately").
   */
  private async forall(st: Extract<Stmt, { k: "forall" }>): Promise<void> {
    let keys: Array<number | string>
    const of = st.indicesOf ?? st.valuesOf
    if (of !== undefined) {
      const found = of.length === 1 ? this.collectionVar(oracleName(of[0]!)) : undefined
      if (found === undefined) throw new PlsCompileError(this.source, of[0]?.pos ?? st.pos, 382, "expression is of wrong type")
      const c = initialized(found.slot.value as Collection | null)
      // VALUES OF: the index takes the elements' values, in the order of their subscripts
      keys = st.valuesOf !== undefined ? c.keys().map((k) => c.get(k) as number) : c.keys()
    } else {
      const low = Math.round(Number(await this.evaluate(st.low!)))
      const high = Math.round(Number(await this.evaluate(st.high!)))
      keys = []
      for (let n = low; n <= high; n++) keys.push(n)
    }
    this.bulkRowCounts = new Map()
    this.bulkExceptions = []
    let total = 0
    const outer = this.scope
    try {
      for (const [iteration, key] of keys.entries()) {
        if (++this.steps % YIELD_EVERY === 0) await this.yieldToBreaks()
        this.scope = { names: new Map([[st.index, { k: "var", value: key, type: { kind: "named", name: "PLS_INTEGER" }, constant: true }]]), ...(outer === undefined ? {} : { parent: outer }) }
        let count: number
        try {
          if (st.execute !== undefined) {
            await this.executeImmediate(st.execute)
            count = this.sqlRowCount ?? 0
          } else count = await this.runDml(st.dml)
        } catch (e) {
          // SAVE EXCEPTIONS: the failed iteration's statement is undone, its error kept, the next iteration runs
          if (!st.saveExceptions || !(e instanceof OraError) || e instanceof PlsCompileError || e.code === 3001 || e.code === 1013) throw e
          this.bulkExceptions.push({ index: iteration + 1, code: e.code })
          count = 0
        }
        this.bulkRowCounts.set(key, count)
        total += count
      }
    } finally {
      this.scope = outer
      this.sqlRowCount = total
    }
    // ORA-24381 once every iteration ran (PL/SQL Language Reference, "Handling FORALL Exceptions After FORALL Completes")
    if (this.bulkExceptions.length > 0) throw new OraError(24381, "error(s) in array DML")
  }

  /**
   * `DML ... RETURNING exprs INTO targets`: run as the session runs such a statement from a client (the block's names
   * as binds, the targets as OUT binds); one row's values assigned, TOO_MANY_ROWS for more.
   */
  private async dmlReturning(toks: Expr, into: number): Promise<number> {
    if (isKw(toks[into - 1], "COLLECT") && isKw(toks[into - 2], "BULK")) return this.dmlReturningBulk(toks, into)
    const targets = splitTopLevel(toks.slice(into + 1))
    const { rewritten, values } = this.bindNames(toks.slice(0, into + 1), true)
    const outs = targets.map((_, i) => `:r${i + 1}`)
    const text = `${rewritten.map((t) => t.text).join(" ")} ${outs.join(", ")}`
    const result = await this.host.execute(text, [[...values, ...targets.map(() => null)]], [], { batchErrors: false, dmlRowCounts: false })
    if (result.kind !== "dml") throw ora.invalidSql()
    if (result.rowCount > 1) throw new OraError(1422, "exact fetch returns more than requested number of rows")
    targets.forEach((t, i) => this.assign(t, (result.returning?.[i]?.[0] ?? null) as DuckDBValue))
    // a LOB column the DML wrote: the variable is a locator of that (locked) row, for DBMS_LOB writes
    targets.forEach((t, i) => {
      const lob = result.returningLobs?.[i]
      const rowid = lob?.rowids[0]
      if (lob !== undefined && rowid !== undefined && t.length === 1 && t[0]!.kind !== "bind") this.lobs.set(t[0]!.value, { column: [], fromWhere: [], locked: true, row: { ...lob.source, rowid } })
    })
    return result.rowCount
  }

  /** `DML ... RETURNING exprs BULK COLLECT INTO collections`: every returned row, one collection per expression. */
  private async dmlReturningBulk(toks: Expr, into: number): Promise<number> {
    const targets = splitTopLevel(toks.slice(into + 1))
    const { rewritten, values } = this.bindNames([...toks.slice(0, into - 2), toks[into]!], true)
    const outs = targets.map((_, i) => `:r${i + 1}`)
    const text = `${rewritten.map((t) => t.text).join(" ")} ${outs.join(", ")}`
    const result = await this.host.execute(text, [[...values, ...targets.map(() => null)]], [], { batchErrors: false, dmlRowCounts: false })
    if (result.kind !== "dml") throw ora.invalidSql()
    this.assignReturnedBulk(targets, result.returning ?? [], result.rowCount)
    return result.rowCount
  }

  /** RETURNING ... BULK COLLECT INTO: the returned columns (one array per expression) as rows into the collections. */
  private assignReturnedBulk(targets: ReadonlyArray<Expr>, columns: ReadonlyArray<ReadonlyArray<unknown>>, count: number): void {
    const rows = Array.from({ length: count }, (_, r) => targets.map((_, i) => (columns[i]?.[r] ?? null) as DuckDBValue))
    this.assignBulk(targets, targets.map((t) => t.map((x) => x.text).join("")), rows)
  }

  private async executeImmediate(st: Extract<Stmt, { k: "execute" }>): Promise<void> {
    const text = await this.evaluate(st.expr)
    if (text === null || String(text).trim() === "") throw new OraError(900, "invalid SQL statement")
    const sql = String(text)
    const values: Array<DuckDBValue> = []
    for (const u of st.using) values.push(u.mode === "OUT" ? null : await this.evaluate(u.expr))
    if (st.returning !== undefined) {
      // EXECUTE IMMEDIATE 'dml RETURNING ... INTO :a' USING ... RETURNING [BULK COLLECT] INTO targets
      const result = await this.host.execute(sql, [[...values, ...st.returning.into.map(() => null)]], [], { batchErrors: false, dmlRowCounts: false })
      if (result.kind !== "dml") throw ora.invalidSql()
      this.sqlRowCount = result.rowCount
      if (st.returning.bulk) return this.assignReturnedBulk(st.returning.into, result.returning ?? [], result.rowCount)
      if (result.rowCount > 1) throw new OraError(1422, "exact fetch returns more than requested number of rows")
      st.returning.into.forEach((t, i) => this.assign(t, (result.returning?.[i]?.[0] ?? null) as DuckDBValue))
      return
    }
    const result = await this.host.execute(sql, [values], [], { batchErrors: false, dmlRowCounts: false })
    switch (result.kind) {
      case "query": {
        if (st.into.length === 0) {
          result.cursor.close()
          return
        }
        const reader = new RowReader(result, this.host)
        if (st.bulk) {
          try {
            const rows = await reader.take(Infinity)
            this.assignBulk(st.into, reader.names, rows)
            this.sqlRowCount = rows.length
          } finally {
            reader.close()
          }
          return
        }
        try {
          const row = await reader.next()
          if (row === undefined) throw ora.noDataFound()
          if ((await reader.next()) !== undefined) throw new OraError(1422, "exact fetch returns more than requested number of rows")
          this.assignRow(st.into, reader.names, row)
        } finally {
          reader.close()
        }
        this.sqlRowCount = 1
        return
      }
      case "dml":
        this.sqlRowCount = result.rowCount
        return
      case "plsql":
        st.using.forEach((u, i) => {
          if (u.mode !== "IN") this.assign(u.expr, result.values[i] ?? null)
        })
        return
      default:
        this.sqlRowCount = 0
    }
  }

  private raise(st: Extract<Stmt, { k: "raise" }>): never {
    const line = this.line(st.pos)
    if (st.name === undefined) {
      const current = this.handling.at(-1)
      if (current === undefined) throw new PlsCompileError(this.source, st.pos, 367, "a RAISE statement with no exception name must be inside an exception handler")
      current.line = line
      throw current
    }
    const slot = this.lookup(st.name)
    if (slot?.k === "exception") {
      const code = slot.ex.code
      if (code !== undefined) throw new PlsqlException(code, code >= 20000 && code <= 20999 ? "" : predefined(code, line).text, line, slot.ex)
      throw new PlsqlException(0, "", line, slot.ex)
    }
    const code = PREDEFINED.get(st.name.replace(/^STANDARD\./, ""))
    if (code === undefined) throw new PlsCompileError(this.source, st.pos, 201, `identifier '${st.name}' must be declared`)
    throw predefined(code, line)
  }

  private async call(st: Extract<Stmt, { k: "call" }>): Promise<void> {
    const parts = st.name[0] === "SYS" && st.name.length === 3 ? st.name.slice(1) : st.name
    if (parts.length === 2) {
      const pkg = PACKAGES.get(parts[0]!)
      if (pkg !== undefined && (await pkg(this, parts[1]!, st.args))) return
    }
    const member = parts.length >= 2 && this.lookup(parts[0]!) === undefined ? await this.packageMember(parts.slice(0, -1), parts[parts.length - 1]!, st.nameTok) : undefined
    if (member?.k === "subprogram") {
      if (member.sub.returns !== undefined) throw this.notProcedure(st)
      await this.callLocal(member, st.args)
      return
    }
    if (await this.collectionMethod(parts, st.args)) return
    const local = parts.length === 1 ? this.lookup(parts[0]!) : undefined
    if (local?.k === "subprogram") {
      if (local.sub.returns !== undefined) throw this.notProcedure(st)
      await this.callLocal(local, st.args)
      return
    }
    if (parts.length === 1 && (await UNQUALIFIED(this, parts[0]!, st.args))) return
    const owner = parts.length > 1 ? parts[0]! : this.host.schema
    const pname = parts[parts.length - 1]!
    const proc = this.host.db.procedures.get(`${owner}.${pname}`) ?? this.host.db.procedures.get(`${this.host.schema}.${pname}`)
    if (proc === undefined) throw new PlsCompileError(this.source, st.nameTok.pos, 201, `identifier '${st.name.join(".")}' must be declared`)
    if (proc.isFunction === true) throw this.notProcedure(st)
    if (proc.errors !== undefined) throw new PlsCompileError(this.source, st.nameTok.pos, 905, `object ${proc.owner}.${proc.name} is invalid`)
    await this.invoke(proc, st.args)
  }

  /**
   * The public member `name` of the stored package `path` (`pkg` or `owner.pkg`), the session's instance of the
   * package made first when it has none (its declarations, then its body's BEGIN section); undefined when `path` is
   * no package. PLS-00302 for a name the specification does not declare.
   */
  private async packageMember(path: ReadonlyArray<string>, name: string, at: Tok): Promise<Slot | undefined> {
    if (path.length > 2) return undefined
    const def = findPackage(this.host, path.length === 2 ? path[0] : undefined, path[path.length - 1]!)
    if (def === undefined) return undefined
    const names = await this.packageInstance(def)
    if (!def.publicNames.has(name)) throw new PlsCompileError(this.source, at.pos, 302, `component '${name}' must be declared`)
    return names.get(name)
  }

  /** The session's instance of a package (its package-level names), made now when it has none or an older one. */
  private async packageInstance(def: PackageDef): Promise<Map<string, Slot>> {
    const all = instancesOf(this.host)
    const key = `${def.owner}.${def.name}`
    const known = all.get(key)
    if (known !== undefined && known.def === def) return known.names as Map<string, Slot>
    if (def.body === undefined && def.spec.block.decls.some((d) => d.k === "subprogram")) {
      throw new PlsCompileError(this.source, this.pos, 905, `object ${def.owner}.${def.name} is invalid`)
    }
    const block: Block = def.body === undefined ? def.spec.block : { ...def.body.block, decls: [...def.spec.block.decls, ...def.body.block.decls] }
    const frame = new Interpreter(this.host, def.body?.source ?? def.spec.source, { binds: new Map(), values: [], assigned: new Set(), read: new Set() }, this.implicit)
    frame.unit = `${def.owner}.${def.name}`
    let names = new Map<string, Slot>()
    // the instance exists from its declarations on: the BEGIN section may name the package's own members
    await frame.runBlock(block, (n) => {
      names = n
      all.set(key, { def, names: n })
    })
    return names
  }

  /** `pkg.name` of a package the session already has an instance of (expressions name it after inlineCalls made it). */
  private packageVariable(pkg: string, name: string): Slot | undefined {
    const def = findPackage(this.host, undefined, pkg)
    if (def === undefined || !def.publicNames.has(name)) return undefined
    const instance = instancesOf(this.host).get(`${def.owner}.${def.name}`)
    return instance?.def === def ? (instance.names as Map<string, Slot>).get(name) : undefined
  }

  /**
   * A call of a packaged function at `k` (`pkg.f`, `pkg.f(args)`, `owner.pkg.f(...)`) with the token where its name
   * ends; also makes the instance of a package whose variable the expression reads (`pkg.v`), so that reading it
   * needs no wait.
   */
  private async packagedFunction(expr: Expr, k: number): Promise<{ slot: Extract<Slot, { k: "subprogram" }>; end: number } | undefined> {
    const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident")
    if (!isName(expr[k]) || isOp(expr[k - 1], ".") || !isOp(expr[k + 1], ".") || !isName(expr[k + 2])) return undefined
    if (this.lookup(oracleName(expr[k]!)) !== undefined) return undefined
    const three = isOp(expr[k + 3], ".") && isName(expr[k + 4])
    const path = three ? [oracleName(expr[k]!), oracleName(expr[k + 2]!)] : [oracleName(expr[k]!)]
    const end = three ? k + 4 : k + 2
    const member = await this.packageMember(path, oracleName(expr[end]!), expr[end]!)
    return member?.k === "subprogram" && member.sub.returns !== undefined ? { slot: member, end } : undefined
  }

  /** A function called as a statement: PLS-00221 (Error Messages, PLS-00221). */
  private notProcedure(st: Extract<Stmt, { k: "call" }>): PlsCompileError {
    return new PlsCompileError(this.source, st.nameTok.pos, 221, `'${st.name[st.name.length - 1]}' is not a procedure or is undefined`)
  }

  /** Runs a stored procedure's or function's body in a frame of its own, parameters bound; OUT values copied back; a function's RETURN value. */
  async invoke(proc: PlsqlProcedure, args: ReadonlyArray<Expr>): Promise<Value> {
    // PLS-00905 for a unit created with compile errors (Error Messages, PLS-00905)
    if (proc.errors !== undefined) throw new PlsCompileError(this.source, this.pos, 905, `object ${proc.owner}.${proc.name} is invalid`)
    const wrong = () => new PlsCompileError(this.source, this.pos, 306, `wrong number or types of arguments in call to '${proc.name}'`)
    const actual = actualArguments(proc.params, args, wrong)
    const values = new Map<string, Slot>()
    for (let i = 0; i < proc.params.length; i++) {
      const p = proc.params[i]!
      const a = actual[i] ?? (p.mode === "IN" ? p.default : undefined)
      if (a === undefined) throw wrong()
      values.set(p.name, { k: "var", value: p.mode === "OUT" ? null : await this.evaluateValue(a), type: undefined, constant: p.mode === "IN" })
    }
    const body = procedureBlock(proc)
    const frame = new Interpreter(this.host, proc.source, { binds: new Map(), values: [], assigned: new Set(), read: new Set() }, this.implicit)
    let result: Map<string, Slot> | undefined
    let returned: ReturnSignal | undefined
    try {
      await frame.runBlock(body, (names) => {
        for (const [k, v] of values) names.set(k, v)
        result = names
      })
    } catch (e) {
      if (e instanceof ReturnSignal) returned = e
      else if (e instanceof PlsqlException) {
        e.frames.push(`at "${proc.owner}.${proc.name}", line ${e.line}`)
        e.line = this.line()
        throw e
      } else throw e
    }
    for (let i = 0; i < proc.params.length; i++) {
      const p = proc.params[i]!
      if (p.mode === "IN") continue
      const slot = result?.get(p.name)
      this.assign(actual[i]!, slot?.k === "var" ? slot.value : null)
    }
    if (proc.isFunction !== true) return null
    if (returned?.value === undefined) throw new OraError(6503, "PL/SQL: Function returned without value")
    return returned.value
  }
}

/** A call's arguments by parameter position (positional, then `name => value`); undefined where none was given. */
const actualArguments = (params: ReadonlyArray<{ readonly name: string }>, args: ReadonlyArray<Expr>, wrong: () => Error): Array<Expr | undefined> => {
  const actual: Array<Expr | undefined> = params.map(() => undefined)
  if (args.length > params.length) throw wrong()
  args.forEach((a, i) => {
    if (a.length >= 3 && isOp(a[1], "=>")) {
      const pi = params.findIndex((p) => p.name === oracleName(a[0]!))
      if (pi < 0) throw wrong()
      actual[pi] = a.slice(2)
    } else actual[i] = a
  })
  return actual
}

/** The position of the `)` that closes the `(` at `open` (the last token when it is missing). */
const closingParen = (toks: Expr, open: number): number => {
  let depth = 0
  for (let k = open; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")") && --depth === 0) return k
  }
  return toks.length - 1
}

const parsedBodies = new WeakMap<PlsqlProcedure, Block>()

/** A stored procedure's body, parsed once. */
const procedureBlock = (proc: PlsqlProcedure): Block => {
  let block = parsedBodies.get(proc)
  if (block === undefined) {
    block = parseProcedureBody(proc.source, proc.body)
    parsedBodies.set(proc, block)
  }
  return block
}

/** Runs a top-level block; an exception nobody handled reaches the client as Oracle reports it (ORA-06512 lines). */
export const runTopLevel = async (interp: Interpreter, block: Block): Promise<void> => {
  try {
    await interp.runBlock(block)
  } catch (e) {
    if (e instanceof ReturnSignal) return
    if (e instanceof PlsqlException) throw e.toClient()
    if (e instanceof LoopExit || e instanceof LoopContinue) throw new OraError(6550, "line 1, column 1:\nPLS-00376: illegal EXIT/CONTINUE statement; it must appear inside a loop")
    throw e
  }
}

/** Parses a procedure body now, as Oracle compiles at CREATE time (a syntax error fails the CREATE). */
export const checkProcedureBody = (source: string, toks: ReadonlyArray<Tok>): void => {
  parseProcedureBody(source, toks)
}

/**
 * Runs stored function `fn` with argument values for a SQL statement: its result; NULL for an unhandled
 * NO_DATA_FOUND, which SQL takes as "no row" (https://talkapex.com/nodatafound-exceptions-in-plsql-functions-called-in-queries);
 * another exception as the client sees it from SQL, with the function's ORA-06512 lines and no block line.
 */
export const callFromSql = async (host: PlsqlHost, fn: PlsqlProcedure, args: ReadonlyArray<DuckDBValue>): Promise<unknown> => {
  const names = args.map((_, i) => `A${i + 1}`)

  const values = args.map((a, i) => argumentValue(a, resultKind(fn.params[i]?.type) === "number"))
  const env: BindEnv = { binds: new Map(names.map((n, i) => [n, i])), values, assigned: new Set(), read: new Set() }
  if (fn.errors !== undefined) throw new OraError(6575, invalidFromSql(fn.name))
  const argToks = names.map((n): Array<Tok> => [{ kind: "bind", text: `:${n}`, value: n, pos: 0 }])
  try {
    const interp = new Interpreter(host, "", env, [])
    if (fn.package === undefined) return await interp.invoke(fn, argToks)
    // a packaged function runs in the session's instance of its package, as `owner.pkg.f(args)` of a block
    const call = [`"${fn.owner}"`, ".", `"${fn.package}"`, ".", `"${fn.name}"`].map((text, i): Tok => (i % 2 === 1 ? { kind: "op", text, value: text, pos: 0 } : { kind: "qident", text, value: text.slice(1, -1), pos: 0 }))
    const separated = argToks.flatMap((a, i): Array<Tok> => (i === 0 ? a : [{ kind: "op", text: ",", value: ",", pos: 0 }, ...a]))
    return await interp.evaluate([...call, { kind: "op", text: "(", value: "(", pos: 0 }, ...separated, { kind: "op", text: ")", value: ")", pos: 0 }])
  } catch (e) {
    if (e instanceof PlsqlException) {
      if (e.code === 1403 && e.user === undefined) return null
      const err = e.toClient()
      throw new OraError(err.code, err.detail.replace(/\nORA-06512: at line \d+$/, ""))
    }
    // SQL reports a call that matches no parameter list as ORA-06553 (Error Messages, ORA-06553)
    if (e instanceof OraError && e.code === 6550 && /PLS-00306/.test(e.detail)) throw new OraError(6553, `PLS-306: wrong number or types of arguments in call to '${fn.name}'`)
    throw e
  }
}

const notNullNeedsInit = (source: string, pos: number): PlsCompileError => new PlsCompileError(source, pos, 218, "a variable declared NOT NULL must have an initialization assignment")
