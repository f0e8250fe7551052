/**
 * LOB locators in the PL/SQL subset (plsql.ts): a LOB column selected INTO a variable by `SELECT col INTO v FROM t
 * WHERE ... FOR UPDATE` keeps where it came from, and the DBMS_LOB procedures WRITE(lob, amount, offset, buffer),
 * WRITEAPPEND(lob, amount, buffer), TRIM(lob, newlen) and ERASE(lob, amount, offset) change the variable and that row
 * (Oracle Database PL/SQL Packages and Types Reference, DBMS_LOB). A locator whose row was neither selected FOR UPDATE
 * nor locked by the transaction's own DML fails the write with ORA-22920 ("row containing the LOB value is not
 * locked"), as Oracle's does. Offsets and amounts
 * count characters of a CLOB (UTF-16 code units) and bytes of a BLOB; a write past the end fills the gap with blanks
 * (CLOB) or zero bytes (BLOB), as DBMS_LOB.WRITE documents.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { DuckDBBlobValue } from "@duckdb/node-api"
import { OraError } from "./errors.ts"
import { isKw, type Tok } from "./lexer.ts"
import type { LobSource as StatementLobSource } from "./statement.ts"

/** Where a LOB variable's value came from: the SELECT's FROM ... WHERE tokens and the column. */
export interface LobSource {
  readonly column: ReadonlyArray<Tok>
  /**
   * Tokens from the table name to the end of the WHERE clause (FOR UPDATE removed): a write without the row's id
   * (a view's column) updates the rows they select. Empty for a join, grouping or set operation.
   */
  readonly fromWhere: ReadonlyArray<Tok>
  /** Selected FOR UPDATE (else writable only when the transaction holds the row: lob-row-locks.ts). */
  readonly locked: boolean
  /**
   * The table row the LOB was read from, written by row id: a table's LOB column a SELECT INTO read (one table or a
   * join), or one a DML RETURNING INTO returned (returning-lobs.ts).
   */
  readonly row?: StatementLobSource & { readonly rowid: bigint }
  /** A temporary LOB (DBMS_LOB.CREATETEMPORARY): writable, belongs to no row. */
  readonly temporary?: true
  /** Opened by DBMS_LOB.OPEN, in this mode, until DBMS_LOB.CLOSE. */
  readonly opened?: "readonly" | "readwrite"
}

/**
 * The source of each INTO target of `SELECT items INTO targets FROM ...` whose item is a plain column (LOB or not:
 * only DBMS_LOB writes use it), keyed by the target's variable name.
 */
export const lobSourcesOf = (
  items: ReadonlyArray<ReadonlyArray<Tok>>,
  targets: ReadonlyArray<Tok>,
  rest: ReadonlyArray<Tok>
): Map<string, LobSource> => {
  const out = new Map<string, LobSource>()
  const forAt = rest.findIndex((t, k) => isKw(t, "FOR") && isKw(rest[k + 1], "UPDATE"))
  const clauses = forAt < 0 ? rest.slice(1) : rest.slice(1, forAt)
  const oneTable = !clauses.some((t) => isKw(t, "JOIN", "GROUP", "UNION", "DISTINCT") || (t.kind === "op" && t.value === ","))
  const fromWhere = oneTable ? clauses : []
  items.forEach((item, i) => {
    const target = targets[i]
    const plain = item.every((t) => t.kind === "ident" || t.kind === "qident" || (t.kind === "op" && t.value === "."))
    if (target !== undefined && target.kind !== "bind" && plain) out.set(target.kind === "qident" ? target.value : target.value, { column: item, fromWhere, locked: forAt >= 0 })
  })
  return out
}

/** ORA-21560, DBMS_LOB's INVALID_ARGUMENT. */
export const argumentError = (what: string): OraError => new OraError(21560, `argument ${what} is null, invalid, or out of range`)

/** A whole number of characters or bytes (ORA-21560 for NULL or a negative one). */
export const whole = (v: DuckDBValue, what: string): number => {
  const n = Number(v)
  if (v === null || !Number.isInteger(n) || n < 0) throw argumentError(what)
  return n
}

/** A LOB variable's value as text or bytes (an empty LOB is ''). */
export type LobValue = { readonly kind: "clob"; readonly text: string } | { readonly kind: "blob"; readonly bytes: Buffer }

/** A LOB variable's value as text or bytes. */
export const lobValue = (v: DuckDBValue): LobValue => {
  if (v instanceof DuckDBBlobValue) return { kind: "blob", bytes: Buffer.from(v.bytes) }
  if (v instanceof Uint8Array) return { kind: "blob", bytes: Buffer.from(v) }
  return { kind: "clob", text: v === null ? "" : String(v) }
}

/** A buffer argument as `lob`'s kind (a BLOB's RAW given as hex text too). */
export const bufferOf = (lob: LobValue, v: DuckDBValue): LobValue =>
  lob.kind === "blob"
    ? { kind: "blob", bytes: v instanceof DuckDBBlobValue ? Buffer.from(v.bytes) : v instanceof Uint8Array ? Buffer.from(v) : Buffer.from(String(v ?? ""), "hex") }
    : { kind: "clob", text: v === null ? "" : String(v) }

/** Characters of a CLOB, bytes of a BLOB. */
export const lengthOf = (v: LobValue): number => (v.kind === "clob" ? v.text.length : v.bytes.length)
/** The units from `from` to `to` (0-based, end excluded). */
export const slice = (v: LobValue, from: number, to?: number): LobValue =>
  v.kind === "clob" ? { kind: "clob", text: v.text.slice(from, to) } : { kind: "blob", bytes: v.bytes.subarray(from, to) }
const concat = (kind: LobValue["kind"], parts: ReadonlyArray<LobValue>): LobValue =>
  kind === "clob" ? { kind, text: parts.map((p) => (p.kind === "clob" ? p.text : "")).join("") } : { kind, bytes: Buffer.concat(parts.map((p) => (p.kind === "blob" ? p.bytes : Buffer.alloc(0)))) }
const filler = (kind: LobValue["kind"], n: number): LobValue => (kind === "clob" ? { kind, text: " ".repeat(n) } : { kind, bytes: Buffer.alloc(n) })

/** `buffer`'s first `amount` units written into `lob` at 1-based `offset` (the gap past the end filled). */
export const written = (lob: LobValue, amount: number, offset: number, buffer: LobValue): LobValue => {
  if (offset < 1) throw argumentError("offset")
  if (amount > lengthOf(buffer)) throw argumentError("amount")
  const at = offset - 1
  const head = lengthOf(lob) >= at ? slice(lob, 0, at) : concat(lob.kind, [lob, filler(lob.kind, at - lengthOf(lob))])
  return concat(lob.kind, [head, slice(buffer, 0, amount), slice(lob, at + amount)])
}

/**
 * The new value of the LOB variable for the DBMS_LOB procedure `name` with its evaluated arguments after the locator,
 * or undefined for a procedure this module does not implement.
 */
export const dbmsLobWrite = (name: string, current: DuckDBValue, args: ReadonlyArray<DuckDBValue>): DuckDBValue | undefined => {
  const lob = lobValue(current)
  let next: LobValue
  switch (name) {
    case "WRITE":
      next = written(lob, whole(args[0] ?? null, "amount"), whole(args[1] ?? null, "offset"), bufferOf(lob, args[2] ?? null))
      break
    case "WRITEAPPEND":
      next = written(lob, whole(args[0] ?? null, "amount"), lengthOf(lob) + 1, bufferOf(lob, args[1] ?? null))
      break
    case "TRIM":
      next = slice(lob, 0, Math.min(lengthOf(lob), whole(args[0] ?? null, "newlen")))
      break
    case "ERASE": {
      const amount = whole(args[0] ?? null, "amount")
      const offset = whole(args[1] ?? 1, "offset")
      const from = Math.min(lengthOf(lob), offset - 1)
      const n = Math.min(amount, lengthOf(lob) - from)
      next = concat(lob.kind, [slice(lob, 0, from), filler(lob.kind, n), slice(lob, from + n)])
      break
    }
    default:
      return undefined
  }
  return valueOfLob(next)
}

/** A LOB value as the variable holds it (CLOB text, BLOB bytes). */
export const valueOfLob = (v: LobValue): DuckDBValue => (v.kind === "clob" ? v.text : new DuckDBBlobValue(v.bytes))

/**
 * ORA-22920 for a write through a locator whose row the block's transaction does not hold (`rowLocked`: whether it
 * holds a row id's row, lob-row-locks.ts) and did not select FOR UPDATE, or that came from no row.
 */
export const requireLocked = (source: LobSource | undefined, rowLocked: (row: NonNullable<LobSource["row"]>) => boolean): LobSource => {
  if (source === undefined || !(source.locked || source.temporary === true || (source.row !== undefined && rowLocked(source.row)))) throw new OraError(22920, "row containing the LOB value is not locked")
  return source
}
