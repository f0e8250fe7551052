/**
 * DBMS_LOB's procedures on a PL/SQL LOB variable or bind (Oracle Database PL/SQL Packages and Types Reference,
 * DBMS_LOB, https://docs.oracle.com/en/database/oracle/oracle-database/19/arpls/DBMS_LOB.html): the writes WRITE,
 * WRITEAPPEND, TRIM, ERASE, APPEND, COPY, CONVERTTOCLOB and CONVERTTOBLOB change the variable (plsql-lobs.ts) and,
 * for a locator of a table row, that row once the block's transaction holds it (FOR UPDATE or its own DML; ORA-22920
 * otherwise); a temporary LOB (CREATETEMPORARY, or a value from no row) is the variable's alone. READ,
 * CREATETEMPORARY, FREETEMPORARY, OPEN and CLOSE. The functions: dbms-lob-functions.ts.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { DuckDBBlobValue } from "@duckdb/node-api"
import { ora, OraError } from "../errors.ts"
import { isKw, tokenize } from "../lexer.ts"
import { lobRowLockedBy } from "../lob-row-locks.ts"
import { argumentError, bufferOf, dbmsLobWrite, lengthOf, type LobSource, lobValue, requireLocked, slice, valueOfLob, whole, written } from "../plsql-lobs.ts"
import { rowLobUpdateSql } from "../returning-lobs.ts"
import type { Expr } from "./ast.ts"
import type { BuiltinPackage, CallContext } from "./context.ts"
import { wrongArguments } from "./arguments.ts"
import { LOBMAXSIZE } from "./dbms-lob-functions.ts"
import { invalidLocator, isTemporaryLob, locatorKeyOf } from "./lob-locators.ts"

const sig = (sql: string) => tokenize(sql).filter((t) => t.kind !== "ws")

/** The state of a temporary LOB's locator. */
const TEMPORARY: LobSource = { column: [], fromWhere: [], locked: false, temporary: true }

/** READ's largest amount (a PL/SQL buffer's limit). */
const MAX_READ = 32767

/** A locator argument: a variable or bind, its key in `ctx.lobs`, its value. */
interface Locator {
  readonly target: Expr
  readonly key: string
  readonly value: DuckDBValue
}

const locatorOf = async (ctx: CallContext, procedure: string, target: Expr | undefined): Promise<Locator> => {
  const key = target === undefined ? undefined : await locatorKeyOf(ctx, target)
  const value = key === undefined ? undefined : ctx.valueOf(target!)
  if (value === undefined) throw wrongArguments(procedure)
  return { target: target!, key: key!, value: (value ?? null) as DuckDBValue }
}

/** A locator argument that must hold a LOB: ORA-06502 / ORA-22275 for a NULL one. */
const liveLocatorOf = async (ctx: CallContext, procedure: string, target: Expr | undefined): Promise<Locator> => {
  const locator = await locatorOf(ctx, procedure, target)
  if (locator.value === null) throw invalidLocator()
  return locator
}

/** A LOB argument's value; ORA-06502 / ORA-22275 for NULL. */
const lobArgument = async (ctx: CallContext, a: Expr | undefined, procedure: string) => {
  if (a === undefined) throw wrongArguments(procedure)
  const v = await ctx.evaluate(a)
  if (v === null) throw invalidLocator()
  return lobValue(v)
}

/** An amount or offset argument: a whole number from 1 (ORA-21560 otherwise), `fallback` when it is not given. */
const position = async (ctx: CallContext, a: Expr | undefined, what: string, fallback?: number): Promise<number> => {
  const v = a === undefined ? (fallback ?? null) : await ctx.evaluate(a)
  const n = whole(v, what)
  if (n < 1) throw argumentError(what)
  return n
}

/** Writes `next` as the locator's new value: the variable, and the row of a table's locator. */
const writeLocator = async (ctx: CallContext, locator: Locator, next: DuckDBValue): Promise<void> => {
  const source = ctx.lobs.get(locator.key)
  // "ORA-22294: cannot update a LOB opened in read-only mode" (DBMS_LOB, "OPEN Procedures")
  if (source?.opened === "readonly") throw new OraError(22294, "cannot update a LOB opened in read-only mode")
  // a NULL locator (a NULL column selected INTO it too: no LOB to point to) is ORA-22275
  if (locator.value === null) throw invalidLocator()
  if (isTemporaryLob(source, locator.value)) {
    ctx.assign(locator.target, next)
    return
  }
  const held = requireLocked(source, (row) => lobRowLockedBy(ctx.host.db, ctx.host.info.sid, row))
  if (held.row === undefined && held.fromWhere.length === 0) throw ora.unimplemented("DBMS_LOB writes through a LOB selected from a join without its row")
  ctx.assign(locator.target, next)
  if (held.row !== undefined) {
    await ctx.host.runLogged(rowLobUpdateSql(held.row), [next, held.row.rowid])
    return
  }
  const whereAt = held.fromWhere.findIndex((t) => isKw(t, "WHERE"))
  const table = whereAt < 0 ? held.fromWhere : held.fromWhere.slice(0, whereAt)
  const where = whereAt < 0 ? [] : held.fromWhere.slice(whereAt)
  const column = held.column[held.column.length - 1]!
  await ctx.runDml([...sig("UPDATE"), ...table, ...sig("SET"), column, ...sig("="), ...locator.target, ...where])
}

/**
 * CONVERTTOCLOB / CONVERTTOBLOB(dest, src, amount, dest_offset IN OUT, src_offset IN OUT, csid, lang_context IN OUT,
 * warning OUT): the source's bytes decoded from (or its text encoded to) the database character set AL32UTF8
 * (csid 0 is DEFAULT_CSID, 873 AL32UTF8), written at dest_offset; both offsets moved past what was converted.
 */
const convert = async (ctx: CallContext, procedure: "CONVERTTOCLOB" | "CONVERTTOBLOB", args: ReadonlyArray<Expr>): Promise<void> => {
  if (args.length !== 8) throw wrongArguments(procedure)
  const dest = await liveLocatorOf(ctx, procedure, args[0])
  const src = await lobArgument(ctx, args[1], procedure)
  const amount = await position(ctx, args[2], "amount")
  const destOffset = await position(ctx, args[3], "dest_offset")
  const srcOffset = await position(ctx, args[4], "src_offset")
  const csid = Number(await ctx.evaluate(args[5]!))
  if (csid !== 0 && csid !== 873) throw ora.unimplemented(`DBMS_LOB.${procedure} with a character set other than AL32UTF8`)
  const piece = slice(src, srcOffset - 1, srcOffset - 1 + amount)
  const text = piece.kind === "blob" ? new TextDecoder().decode(piece.bytes) : piece.text
  const converted = procedure === "CONVERTTOCLOB" ? { kind: "clob" as const, text } : { kind: "blob" as const, bytes: Buffer.from(text, "utf8") }
  const lob = lobValue(dest.value)
  const target = lob.kind === converted.kind ? lob : converted.kind === "clob" ? { kind: "clob" as const, text: "" } : { kind: "blob" as const, bytes: Buffer.alloc(0) }
  await writeLocator(ctx, dest, valueOfLob(written(target, lengthOf(converted), destOffset, converted)))
  ctx.assign(args[3]!, destOffset + lengthOf(converted))
  ctx.assign(args[4]!, srcOffset + lengthOf(piece))
  // an invalid UTF-8 sequence became U+FFFD: WARN_INCONVERTIBLE_CHAR
  ctx.assign(args[7]!, piece.kind === "blob" && text.includes("\uFFFD") ? 1 : 0)
}

/** DBMS_LOB's procedures. */
export const dbmsLob: BuiltinPackage = async (ctx, procedure, args) => {
  switch (procedure) {
    case "CREATETEMPORARY": {
      if (args.length < 2 || args.length > 3) throw wrongArguments(procedure)
      // the target needs no value yet (a collection element it creates too)
      const target = args[0]!
      const key = await locatorKeyOf(ctx, target)
      if (key === undefined) throw wrongArguments(procedure)
      ctx.assign(target, ctx.lobKindOf(target) === "blob" ? new DuckDBBlobValue(new Uint8Array()) : "")
      ctx.lobs.set(key, TEMPORARY)
      return true
    }
    case "FREETEMPORARY": {
      if (args.length !== 1) throw wrongArguments(procedure)
      const locator = await liveLocatorOf(ctx, procedure, args[0])
      // the locator is invalid afterwards: its use is ORA-22275
      ctx.assign(locator.target, null)
      ctx.lobs.delete(locator.key)
      return true
    }
    case "OPEN": {
      if (args.length !== 2) throw wrongArguments(procedure)
      const locator = await liveLocatorOf(ctx, procedure, args[0])
      const mode = Number(await ctx.evaluate(args[1]!))
      if (mode !== 0 && mode !== 1) throw argumentError("open_mode")
      const source = ctx.lobs.get(locator.key) ?? TEMPORARY
      if (source.opened !== undefined) throw new OraError(22293, "LOB already opened in the same transaction")
      // a table's LOB opens read-write only inside a transaction (a DML or SELECT FOR UPDATE began one), a temporary
      // LOB or read-only mode without (https://docs.oracle.com/en/error-help/db/oci-22292)
      if (mode === 1 && !isTemporaryLob(source, locator.value) && !ctx.host.transactionInProgress) {
        throw new OraError(22292, "cannot open a LOB in read/write mode without a transaction")
      }
      ctx.lobs.set(locator.key, { ...source, opened: mode === 0 ? "readonly" : "readwrite" })
      return true
    }
    case "CLOSE": {
      if (args.length !== 1) throw wrongArguments(procedure)
      const locator = await liveLocatorOf(ctx, procedure, args[0])
      const source = ctx.lobs.get(locator.key)
      // https://docs.oracle.com/en/error-help/db/ora-22289 ("cannot perform string operation ..."): the string is
      // the operation; which word Oracle puts there for CLOSE is not documented
      if (source?.opened === undefined) throw new OraError(22289, "cannot perform CLOSE operation on an unopened file or LOB")
      const { opened: _, ...closed } = source
      ctx.lobs.set(locator.key, closed)
      return true
    }
    case "READ": {
      // READ(lob, amount IN OUT, offset, buffer OUT): NO_DATA_FOUND at the end of the LOB
      if (args.length !== 4) throw wrongArguments(procedure)
      const lob = await lobArgument(ctx, args[0], procedure)
      const amount = await position(ctx, args[1], "amount")
      if (amount > MAX_READ) throw argumentError("amount")
      const offset = await position(ctx, args[2], "offset")
      if (offset > lengthOf(lob)) throw ora.noDataFound()
      const piece = slice(lob, offset - 1, offset - 1 + amount)
      ctx.assign(args[3]!, valueOfLob(piece))
      ctx.assign(args[1]!, lengthOf(piece))
      return true
    }
    case "APPEND": {
      if (args.length !== 2) throw wrongArguments(procedure)
      const dest = await liveLocatorOf(ctx, procedure, args[0])
      const lob = lobValue(dest.value)
      const src = bufferOf(lob, valueOfLob(await lobArgument(ctx, args[1], procedure)))
      await writeLocator(ctx, dest, valueOfLob(written(lob, lengthOf(src), lengthOf(lob) + 1, src)))
      return true
    }
    case "COPY": {
      // COPY(dest, src, amount, dest_offset = 1, src_offset = 1): an amount past the source's end copies what is there
      if (args.length < 3 || args.length > 5) throw wrongArguments(procedure)
      const dest = await liveLocatorOf(ctx, procedure, args[0])
      const lob = lobValue(dest.value)
      const src = bufferOf(lob, valueOfLob(await lobArgument(ctx, args[1], procedure)))
      const amount = await position(ctx, args[2], "amount")
      const destOffset = await position(ctx, args[3], "dest_offset", 1)
      const srcOffset = await position(ctx, args[4], "src_offset", 1)
      const piece = slice(src, srcOffset - 1, Math.min(LOBMAXSIZE, srcOffset - 1 + amount))
      await writeLocator(ctx, dest, valueOfLob(written(lob, lengthOf(piece), destOffset, piece)))
      return true
    }
    case "CONVERTTOCLOB":
    case "CONVERTTOBLOB":
      await convert(ctx, procedure, args)
      return true
    default: {
      const locator = await locatorOf(ctx, procedure, args[0])
      const values: Array<DuckDBValue> = []
      for (const a of args.slice(1)) values.push(await ctx.evaluate(a))
      if (locator.value === null) throw invalidLocator()
      const next = dbmsLobWrite(procedure, locator.value, values)
      if (next === undefined) throw ora.unimplemented(`DBMS_LOB.${procedure} in PL/SQL`)
      await writeLocator(ctx, locator, next)
      return true
    }
  }
}
