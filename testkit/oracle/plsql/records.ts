/**
 * PL/SQL record types (`TYPE r IS RECORD (f type [NOT NULL] [:= | DEFAULT x], ...)`) and the record forms of DML,
 * `INSERT INTO t VALUES rec` and `UPDATE t SET ROW = rec`, as the PL/SQL Language Reference, "PL/SQL Collections and
 * Records" (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-collections-and-records.html)
 * states: a record's fields are filled by position from a row, and a record inserted or set as a row gives its
 * fields to the table's columns by position.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { isKw, isOp, matchParen, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Expr, RecordType, TypeSpec } from "./ast.ts"
import type { OraType } from "../type-shapes.ts"
import { kindOfColumn, type ValueKind } from "./value-kinds.ts"

export type { RecordField, RecordType } from "./ast.ts"



/** The method of a composite value (record, collection) that copies it with the composites it holds. */
export const COPY: unique symbol = Symbol("copy")

/** A value as assigning it copies it: records and collections are values in PL/SQL, an assigned copy is its own. */
export const copyOf = <V>(v: V): V => (v !== null && typeof v === "object" && COPY in v ? (v as unknown as { [COPY]: () => V })[COPY]() : v)

/** A record (`%ROWTYPE`, a cursor FOR loop's row, a declared record type): its fields by name, in order. */
export class PlsqlRecord {
  constructor(
    readonly fields: Map<string, DuckDBValue>,
    /** The declared record type, whose fields' types assignments convert to. */
    readonly type?: RecordType,
    /** The kinds of a record without a declared type, from the columns its fields were read from (a cursor FOR loop's row, `%ROWTYPE`). */
    readonly kinds?: ReadonlyMap<string, ValueKind>
  ) {}

  /** A copy of the record, the records and collections its fields hold copied too (records are values: an assigned copy is its own). */
  copy(type: RecordType | undefined = this.type): PlsqlRecord {
    const fields = new Map<string, DuckDBValue>()
    for (const [name, value] of this.fields) fields.set(name, copyOf(value))
    return new PlsqlRecord(fields, type, this.kinds)
  }

  [COPY](): PlsqlRecord {
    return this.copy()
  }
}

const ident = (name: string, pos: number): Tok => ({ kind: "ident", text: name, value: name, pos })
const op = (text: string, pos: number): Tok => ({ kind: "op", text, value: text, pos })

/**
 * `INSERT INTO t [(cols)] VALUES rec` as `VALUES (rec.f1, rec.f2, ...)`, and `UPDATE t SET ROW = rec` as
 * `SET c1 = rec.f1, c2 = rec.f2, ...` (`columns` gives a table's column names); the same tokens when neither form is
 * there. Each `rec` is a token of its own: later rewrites (number-writes.ts) tell tokens apart by identity. `fieldsOf` gives a record variable's field names, undefined for a name that is none.
 */
export const expandRecordDml = (
  toks: Expr,
  fieldsOf: (name: string) => ReadonlyArray<string> | undefined,
  columns: (schema: string | undefined, table: string) => ReadonlyArray<string> | undefined
): Expr => {
  if (isKw(toks[0], "INSERT")) {
    const values = toks.findIndex((t) => isKw(t, "VALUES"))
    const rec = toks[values + 1]
    if (values < 0 || rec === undefined || (rec.kind !== "ident" && rec.kind !== "qident") || isOp(toks[values + 2], ".")) return toks
    const fields = fieldsOf(oracleName(rec))
    if (fields === undefined) return toks
    const list: Array<Tok> = [op("(", rec.pos)]
    fields.forEach((f, i) => list.push(...(i > 0 ? [op(",", rec.pos)] : []), { ...rec }, op(".", rec.pos), ident(f, rec.pos)))
    list.push(op(")", rec.pos))
    return [...toks.slice(0, values + 1), ...list, ...toks.slice(values + 2)]
  }
  if (isKw(toks[0], "UPDATE")) {
    const set = toks.findIndex((t) => isKw(t, "SET"))
    const rec = toks[set + 3]
    if (set < 0 || !isKw(toks[set + 1], "ROW") || !isOp(toks[set + 2], "=") || rec === undefined) return toks
    const fields = fieldsOf(oracleName(rec))
    if (fields === undefined) return toks
    const qualified = isOp(toks[2], ".")
    const table = toks[qualified ? 3 : 1]
    const cols = table === undefined ? undefined : columns(qualified ? oracleName(toks[1]!) : undefined, oracleName(table))
    if (cols === undefined) return toks
    const list: Array<Tok> = []
    cols.forEach((c, i) => {
      const f = fields[i]
      if (f !== undefined) list.push(...(i > 0 ? [op(",", rec.pos)] : []), ident(c, rec.pos), op("=", rec.pos), { ...rec }, op(".", rec.pos), ident(f, rec.pos))
    })
    return [...toks.slice(0, set + 1), ...list, ...toks.slice(set + 4)]
  }
  return toks
}

/**
 * The tokens [from, to) of a collection element written as a record, `INSERT ... VALUES v(i)` or `UPDATE ... SET ROW
 * = v(i)` (FORALL over a collection of records: PL/SQL Language Reference, "FORALL Statement"); undefined when
 * neither form is there.
 */
export const recordElementAt = (toks: Expr): readonly [number, number] | undefined => {
  let at = -1
  if (isKw(toks[0], "INSERT")) at = toks.findIndex((t) => isKw(t, "VALUES")) + 1
  else if (isKw(toks[0], "UPDATE")) {
    const set = toks.findIndex((t) => isKw(t, "SET"))
    if (set > 0 && isKw(toks[set + 1], "ROW") && isOp(toks[set + 2], "=")) at = set + 3
  }
  const name = toks[at]
  if (at <= 0 || name === undefined || (name.kind !== "ident" && name.kind !== "qident") || !isOp(toks[at + 1], "(")) return undefined
  return [at, matchParen(toks, at + 1) + 1]
}

/**
 * The field kinds of a record read from columns, with the declared fractional second precision of its TIMESTAMP
 * [WITH [LOCAL] TIME ZONE] fields (which FF prints): carried wherever the kinds go (a copy, a row fetched into it).
 */
export class FieldKinds extends Map<string, ValueKind> {
  readonly fractions = new Map<string, number>()
  /** The INTERVAL fields' column types, whose precisions TO_CHAR prints (plsql/interval-text.ts). */
  readonly intervals = new Map<string, TypeSpec>()
}

/** The field kinds of a record whose fields are the columns `columns` (a query's or a table's). */
export const columnKinds = (columns: ReadonlyArray<{ readonly name: string; readonly type: OraType }>): ReadonlyMap<string, ValueKind> => {
  const out = new FieldKinds(columns.map((c) => [c.name, kindOfColumn(c.type)]))
  for (const c of columns) if (c.type.kind === "timestamp" || c.type.kind === "timestamptz" || c.type.kind === "timestampltz") out.fractions.set(c.name, c.type.scale)
  for (const c of columns) {
    if (c.type.kind === "intervalds") out.intervals.set(c.name, { kind: "named", name: "INTERVAL DAY", size: c.type.precision, scale: c.type.scale })
    if (c.type.kind === "intervalym") out.intervals.set(c.name, { kind: "named", name: "INTERVAL YEAR", size: c.type.precision })
  }
  return out
}
