/**
 * PL/SQL collections: nested tables, VARRAYs and associative arrays (`TABLE OF t [INDEX BY ...]`), their elements
 * by subscript and their methods, as the PL/SQL Language Reference, "PL/SQL Collections and Records"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-collections-and-records.html) states:
 * a nested table or VARRAY declared without a value is atomically null (ORA-06531 on any method but EXISTS), a
 * subscript past COUNT is ORA-06533, past a VARRAY's limit ORA-06532, a missing or deleted element NO_DATA_FOUND.
 */
import { OraError } from "../errors.ts"
import type { CollectionType, TypeSpec } from "./ast.ts"
import { COPY, copyOf } from "./records.ts"

export type { CollectionType } from "./ast.ts"


const uninitialized = () => new OraError(6531, "Reference to uninitialized collection")
const beyondCount = () => new OraError(6533, "Subscript beyond count")
const outsideLimit = () => new OraError(6532, "Subscript outside of limit")
const noData = () => new OraError(1403, "no data found")

/** A collection value: its elements by subscript (dense from 1 for nested tables and VARRAYs until DELETE). */
export class PlsqlCollection<V> {
  private readonly elems = new Map<number | string, V>()
  /** Elements a nested table has room for, deleted ones included (EXTEND / TRIM move it, DELETE(i) does not). */
  private size = 0

  constructor(readonly type: CollectionType) {}

  private sortedKeys(): Array<number | string> {
    return [...this.elems.keys()].sort((a, b) => (typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0))
  }

  private checkIndex(i: number | string): void {
    if (this.type.kind === "assoc") return
    if (typeof i !== "number" || i < 1) throw i === null ? new OraError(6502, "PL/SQL: numeric or value error: NULL index table key value") : beyondCount()
    if (this.type.limit !== undefined && i > this.type.limit) throw outsideLimit()
    if (i > this.size) throw beyondCount()
  }

  /** The element at `i`; NO_DATA_FOUND when it is missing or deleted. */
  get(i: number | string): V {
    this.checkIndex(i)
    if (!this.elems.has(i)) throw noData()
    return this.elems.get(i)!
  }

  /** Sets the element at `i` (an associative array grows; a nested table's `i` must be within COUNT). */
  set(i: number | string, v: V): void {
    this.checkIndex(i)
    this.elems.set(i, v)
  }

  /** Appends an element (constructors, BULK COLLECT). */
  push(v: V): void {
    if (this.type.limit !== undefined && this.size >= this.type.limit) throw outsideLimit()
    this.size++
    this.elems.set(this.size, v)
  }

  get count(): number {
    return this.elems.size
  }

  get first(): number | string | null {
    return this.sortedKeys()[0] ?? null
  }

  get last(): number | string | null {
    return this.sortedKeys().at(-1) ?? null
  }

  /** Subscripts in order (FORALL ... INDICES OF). */
  keys(): Array<number | string> {
    return this.sortedKeys()
  }

  next(i: number | string): number | string | null {
    return this.sortedKeys().find((k) => k > i) ?? null
  }

  prior(i: number | string): number | string | null {
    return this.sortedKeys().findLast((k) => k < i) ?? null
  }

  /** A copy with copies of its elements (assigning a collection copies it, records and collections in it too). */
  [COPY](): PlsqlCollection<V> {
    const out = new PlsqlCollection<V>(this.type)
    for (const [k, v] of this.elems) out.elems.set(k, copyOf(v))
    out.size = this.size
    return out
  }

  exists(i: number | string): boolean {
    return this.elems.has(i)
  }

  /** EXTEND [n]: n NULL elements at the end (ORA-06532 past a VARRAY's limit). */
  extend(n: number, blank: () => V): void {
    if (this.type.kind === "assoc") throw new OraError(6550, "PLS-00306: wrong number or types of arguments in call to 'EXTEND'")
    for (let k = 0; k < n; k++) this.push(blank())
  }

  /** TRIM [n]: removes the last n elements (ORA-06533 for more than there are). */
  trim(n: number): void {
    if (n > this.size) throw beyondCount()
    for (let k = 0; k < n; k++) this.elems.delete(this.size--)
  }

  /** DELETE: all elements; DELETE(i): one (not of a VARRAY); DELETE(i, j): a range. */
  delete(from?: number | string, to?: number | string): void {
    if (from === undefined) {
      this.elems.clear()
      this.size = 0
      return
    }
    const high = to ?? from
    for (const k of [...this.elems.keys()]) if (k >= from && k <= high) this.elems.delete(k)
  }
}

/** Runs `f` on a collection variable's value, ORA-06531 when it is atomically null. */
export const initialized = <V>(c: PlsqlCollection<V> | null): PlsqlCollection<V> => {
  if (c === null) throw uninitialized()
  return c
}

/**
 * The type of an index-by array the client bound (oracledb's array binds, "PL/SQL Collection Associative Array
 * (Index-by) Bind Parameters"): its elements at 1..n as sent, until it is assigned to a parameter or variable of a
 * declared type.
 */
export const BIND_ARRAY: CollectionType = { name: "", kind: "assoc", element: { kind: "named", name: "" } }

/** An array bind's values as a collection of BIND_ARRAY. */
export const collectionOfBind = <V>(values: ReadonlyArray<V>): PlsqlCollection<V> => {
  const c = new PlsqlCollection<V>(BIND_ARRAY)
  for (const v of values) c.push(v)
  return c
}

/** A collection's elements in subscript order, as an array OUT bind sends them. */
export const bindArrayOf = <V>(c: PlsqlCollection<V>): Array<V> => c.keys().map((k) => c.get(k))
