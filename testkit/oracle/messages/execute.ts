/**
 * EXECUTE (function 94, messages/execute.js writeExecuteMessage) and the re-executes of a cached statement
 * (functions 4 and 78): parse, define, bind, execute and the first fetch, then what each statement class sends back.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { closeResult, type ServerCursor } from "../cursors.ts"
import { ora, type OraError } from "../errors.ts"
import type { Reply, SessionState } from "../session-state.ts"
import type { ServerStats } from "../../common/stats.ts"
import { type BindSpec, classify, returnBindFlags } from "../statement.ts"
import { resolveSynonyms } from "../synonym-resolution.ts"
import type { OraType } from "../types.ts"
import type { ReadBuffer, WriteBuffer } from "../wire.ts"
import { BindDirection, EXEC_DML_ROWCOUNTS, ExecOption, Fn, Msg } from "./constants.ts"
import { readMetadata, readRows } from "./bind-rows.ts"
import { writeDescribe } from "./describe.ts"
import { toOra, writeEndOfCall, writeError } from "./end-of-call.ts"
import { withErrorOffset } from "../error-offsets.ts"

/** The end of call's warning flag for a unit created with compilation errors (thin constants TNS_WARN_COMPILATION_CREATE). */
const WARN_COMPILATION_CREATE = 0x20
import { writeRows } from "./fetch.ts"
import { writePlsql, writeReturning } from "./io-vector.ts"

/** The fixed part of an EXECUTE request, up to its bind rows. */
export interface ExecuteHeader {
  readonly options: number
  readonly cursorId: number
  readonly sqlText: string | undefined
  readonly numIters: number
  readonly execFlags: number
  readonly specs: Array<BindSpec>
  readonly defines: Array<BindSpec>
}

/** Bind rows decoded ahead of execution: all of them, or (after chunk inserts) the rest with the rows already inserted. */
export type PreRows = Array<Array<DuckDBValue>> | (() => { rows: Array<Array<DuckDBValue>>; offset: number; inserted: number })

/** Reads the fixed part of an EXECUTE request. */
export const readExecuteHeader = (s: SessionState, r: ReadBuffer): ExecuteHeader => {
  const options = r.ub()
  const cursorId = r.ub()
  const sqlPtr = r.u8()
  r.ub() // sql length
  r.u8()
  r.ub() // al8i4 length
  r.u8()
  r.u8()
  r.u8()
  const numIters = r.ub()
  r.ub() // max long size
  r.u8()
  const numBinds = r.ub()
  r.u8()
  r.u8()
  r.u8()
  r.u8()
  r.u8()
  r.u8()
  const numDefines = r.ub()
  r.ub()
  r.u8()
  r.u8()
  r.u8()
  r.ub()
  r.u8()
  r.ub()
  r.ub()
  r.u8()
  r.ub() // dml rowcount array size
  r.u8()
  if (s.fieldVersion >= 8) {
    r.u8()
    r.ub()
    r.u8()
    r.ub()
    r.u8()
    if (s.fieldVersion >= 9) {
      r.u8()
      r.ub()
    }
  }
  let sqlText: string | undefined
  if (sqlPtr === 1) {
    sqlText = r.bytesWithLength()?.toString("utf8") ?? ""
  }
  const al8i4: Array<number> = []
  for (let i = 0; i < 13; i++) al8i4.push(r.ub())
  const specs: Array<BindSpec> = []
  const defines: Array<BindSpec> = []
  if ((options & ExecOption.DEFINE) !== 0) for (let i = 0; i < numDefines; i++) defines.push(readMetadata(s, r))
  else for (let i = 0; i < numBinds; i++) specs.push(readMetadata(s, r))
  return { options, cursorId, sqlText, numIters, execFlags: al8i4[9]!, specs, defines }
}

/** Binds that are RETURNING INTO or OUT binds, which carry no value in bind rows. */
export const outOnlyBinds = (cur: ServerCursor): Array<boolean> | undefined =>
  cur.directions?.map((d) => d === BindDirection.OUT) ?? returnBindFlags(cur.sql, cur.specs.length)

const takeRows = (s: SessionState, r: ReadBuffer, cur: ServerCursor, skip: ReadonlyArray<boolean> | undefined, preRows: PreRows | undefined) => {
  const resolved = typeof preRows === "function" ? preRows() : undefined
  const rows = resolved?.rows ?? (preRows as Array<Array<DuckDBValue>> | undefined) ?? (cur.specs.length > 0 ? readRows(s, r, cur.specs, classify(cur.sql) === "plsql", skip) : [])
  return { rows, resolved }
}

/** Insert work in progress per server: nested and overlapping timers count their union once. */
const insertClocks = new WeakMap<ServerStats, { depth: number; start: number; cpu: NodeJS.CpuUsage; counted: boolean }>()

/**
 * Starts timing server work for executeMany (decoding bind rows while a request arrives, chunk inserts, the
 * execution): the returned function adds `rows` to the server's insert counters and, when no other insert work of
 * the server is still running, the wall and CPU time since the first of them started (so overlapping work counts
 * once), unless every timer of that span ended with `counted` false (work that turned out not to be executeMany).
 * Call it once.
 */
export const startInsertTimer = (s: SessionState): ((rows: number, counted: boolean) => void) => {
  const stats = s.host.stats
  let clock = insertClocks.get(stats)
  if (clock === undefined) {
    clock = { depth: 0, start: 0, cpu: { user: 0, system: 0 }, counted: false }
    insertClocks.set(stats, clock)
  }
  if (clock.depth++ === 0) {
    clock.start = performance.now()
    clock.cpu = process.cpuUsage()
    clock.counted = false
  }
  const running = clock
  return (rows, counted) => {
    stats.insertRows += rows
    running.counted ||= counted
    if (--running.depth > 0 || !running.counted) return
    const used = process.cpuUsage(running.cpu)
    stats.insertMs += performance.now() - running.start
    stats.insertCpuMs += (used.user + used.system) / 1000
  }
}

/**
 * Runs the handling of an EXECUTE or REEXECUTE request, counted as insert work when it executes several bind rows
 * (`batch` is called with the number of rows).
 */
const countingBatch = async (s: SessionState, handle: (batch: (rows: number) => void) => Promise<void>): Promise<void> => {
  const timer = startInsertTimer(s)
  let rows = 0
  try {
    await handle((n) => {
      rows = n
    })
  } finally {
    if (rows > 1) s.host.stats.insertCalls++
    timer(rows > 1 ? rows : 0, rows > 1)
  }
}

/** EXECUTE (function 94). */
export const execute = (s: SessionState, r: ReadBuffer, reply: Reply, preRows?: PreRows): Promise<void> =>
  countingBatch(s, (batch) => executeRequest(s, r, reply, batch, preRows))

const executeRequest = async (s: SessionState, r: ReadBuffer, reply: Reply, batch: (rows: number) => void, preRows?: PreRows): Promise<void> => {
  const w = reply.w
  const header = readExecuteHeader(s, r)
  const { options, sqlText, numIters, execFlags, specs, defines } = header
  let cursorId = header.cursorId
  let cur: ServerCursor | undefined
  if (sqlText !== undefined) {
    const existing = cursorId !== 0 ? s.cursors.get(cursorId) : undefined
    if (existing !== undefined) {
      if (existing.result !== undefined) closeResult(existing.result)
      existing.result = undefined
      existing.sql = sqlText
      existing.defines = undefined
      cur = existing
    } else cur = s.newCursor(sqlText)
    cursorId = cur.id
    s.callCursor = cur
    s.callOpenedCursor = existing === undefined
    s.sql?.noteParse(sqlText)
  } else {
    cur = s.cursors.get(cursorId)
    if (cur === undefined) {
      writeError(s, w, ora.invalidCursor(), cursorId, 0)
      return
    }
  }
  if ((options & ExecOption.DEFINE) !== 0) {
    cur.defines = defines.map((d) => ({ dty: d.dty, maxSize: d.maxSize, lobPrefetch: d.lobPrefetch }))
    if (cur.result !== undefined) cur.result.encoders = s.encoders(cur.result, cur.defines)
    // A define on a cursor none of whose rows went out yet (an implicit result's or a REF CURSOR's first call, which
    // oracledb sends as a define without the fetch option because its LOB columns need one) brings the rows: oracledb
    // reads only what that call returned (thin resultSet.js getRows), and its fetch-all loop (lib/resultset.js
    // _getAllRows) ends at the first call that returns fewer rows than asked for, so an empty or a prefetch-sized
    // answer would end the result early. All the rows are sent, which every way of reading on takes as complete.
    // What a real server returns for this call is not confirmed (testkit/oracle/README.md "Where it still differs").
    // A client's own query sends this define after its execute, and oracledb's getRows fetches what it lacks after
    // it: a query locking its rows as they are sent (skip-locked-fetch.ts) sends the prefetchRows it carries.
    const rows = cur.result?.claim !== undefined && cur.returned !== true ? numIters : Number.MAX_SAFE_INTEGER
    if (cur.result !== undefined && cur.result.sent === 0 && !cur.result.done) await writeRows(s, reply, cur, rows)
    else writeEndOfCall(s, w, cursorId, 0)
    return
  }
  if (specs.length > 0) cur.specs = specs
  const sql = s.sql!
  const cls = classify(cur.sql)
  const { rows, resolved } = specs.length > 0 || preRows !== undefined ? takeRows(s, r, cur, returnBindFlags(cur.sql, cur.specs.length), preRows) : { rows: [], resolved: undefined }
  if ((options & ExecOption.DESCRIBE) !== 0 && (options & ExecOption.EXECUTE) === 0) {
    // parse only (connection.getStatementInfo): describe queries without fetching
    if (cls === "query") {
      try {
        const res = await sql.query(resolveSynonyms(sql.db, sql.schema, cur.sql), new Array(1000).fill(null), cur.specs, true)
        res.cursor.close()
        writeDescribe(s, w, res.columns)
      } catch (e) {
        writeError(s, w, toOra(e), cursorId, 0)
        return
      }
    }
    writeEndOfCall(s, w, cursorId, 0)
    return
  }
  if ((options & ExecOption.EXECUTE) === 0) {
    // fetch only (implicit result cursors are fetched this way)
    if ((options & ExecOption.FETCH) !== 0 && cur.result !== undefined) await writeRows(s, reply, cur, numIters)
    else writeEndOfCall(s, w, cursorId, 0)
    return
  }
  cur.dmlRowCounts = (execFlags & EXEC_DML_ROWCOUNTS) !== 0
  batch(rows.length + (resolved?.offset ?? 0))
  await run(s, reply, cur, rows, {
    ...(resolved !== undefined ? { pre: resolved } : {}),
    fetch: (options & ExecOption.FETCH) !== 0 ? numIters : 0,
    describe: true,
    commit: (options & ExecOption.COMMIT) !== 0,
    batchErrors: (options & ExecOption.BATCH_ERRORS) !== 0
  })
}

/** REEXECUTE (4) and REEXECUTE_AND_FETCH (78) of a cursor the client holds. */
export const reexecute = (s: SessionState, fn: number, r: ReadBuffer, reply: Reply, preRows?: PreRows): Promise<void> =>
  countingBatch(s, (batch) => reexecuteRequest(s, fn, r, reply, batch, preRows))

const reexecuteRequest = async (s: SessionState, fn: number, r: ReadBuffer, reply: Reply, batch: (rows: number) => void, preRows?: PreRows): Promise<void> => {
  const id = r.ub()
  const numIters = r.ub()
  r.ub() // execFlag1
  const flag2 = r.ub()
  const cur = s.cursors.get(id)
  if (cur === undefined) {
    writeError(s, reply.w, ora.invalidCursor(), id, 0)
    return
  }
  s.callCursor = cur
  // re-executes cannot ask for DML row counts (messages/execute.js writeReExecuteMessage), so none are sent
  cur.dmlRowCounts = false
  const { rows, resolved } = takeRows(s, r, cur, outOnlyBinds(cur), preRows)
  batch(rows.length + (resolved?.offset ?? 0))
  await run(s, reply, cur, rows, {
    ...(resolved !== undefined ? { pre: resolved } : {}),
    fetch: fn === Fn.REEXECUTE_AND_FETCH ? numIters : 0,
    describe: false,
    commit: (flag2 & 1) !== 0,
    batchErrors: false
  })
}

interface RunOptions {
  readonly fetch: number
  readonly describe: boolean
  readonly commit: boolean
  readonly batchErrors: boolean
  /** Rows inserted in chunks while the request arrived (bulk executeMany). */
  readonly pre?: { readonly offset: number; readonly inserted: number }
}

const run = async (s: SessionState, reply: Reply, cur: ServerCursor, rows: Array<Array<DuckDBValue>>, o: RunOptions): Promise<void> => {
  const w = reply.w
  const sql = s.sql!
  let cancelled = false
  // where this call's messages start: a failure half-way through one (an OUT value that cannot be encoded) drops them
  const start = w.pos
  sql.noteSql(cur.sql)
  try {
    if (cur.result !== undefined) closeResult(cur.result)
    cur.result = undefined
    let result =
      o.pre !== undefined && rows.length === 0
        ? ({ kind: "dml", rowCount: 0, rowCounts: [], batchErrors: [] } as const)
        : await sql.execute(cur.sql, rows.length > 0 ? rows : [[]], cur.specs, { batchErrors: o.batchErrors, dmlRowCounts: cur.dmlRowCounts, lockAsFetched: true })
    if (o.pre !== undefined && result.kind === "dml") {
      const pre = o.pre
      result = {
        ...result,
        rowCount: result.rowCount + pre.inserted,
        rowCounts: cur.dmlRowCounts ? [...Array.from({ length: pre.offset }, () => 1), ...result.rowCounts] : []
      }
    }
    // a query locking its rows as they are sent (skip-locked-fetch.ts) commits after sending this call's rows
    const lockingAsSent = result.kind === "query" && result.claimFetchedRow !== undefined
    if (o.commit && !lockingAsSent) await sql.commit()
    switch (result.kind) {
      case "query": {
        cur.result = s.result(result, cur.defines)
        if (o.describe) writeDescribe(s, w, result.columns)
        const needsDefine = cur.defines === undefined && result.columns.some((c) => isLobLike(c.type))
        if (o.fetch > 0 && !needsDefine) await writeRows(s, reply, cur, o.fetch)
        else writeEndOfCall(s, w, cur.id, 0)
        if (o.commit && lockingAsSent) await sql.commit()
        return
      }
      case "dml": {
        if (result.returning !== undefined) writeReturning(s, w, cur, returnBindFlags(cur.sql, cur.specs.length) ?? [], result.returning, result.returningLobs, result.returningPerRow, result.returningTemporary)
        if (cur.dmlRowCounts) writeDmlRowCounts(w, result.rowCounts)
        writeEndOfCall(s, w, cur.id, result.rowCount, result.batchErrors)
        return
      }
      case "plsql":
        writePlsql(s, w, cur, result)
        return
      default:
        if (/^\s*ALTER\s+SESSION\s+SET\s+CURRENT_SCHEMA\b/i.test(cur.sql)) writeCurrentSchema(w, sql.schema)
        writeEndOfCall(s, w, cur.id, 0, [], undefined, 0, result.kind === "done" && result.compileWarning === true ? WARN_COMPILATION_CREATE : 0)
    }
  } catch (e) {
    const err = withErrorOffset(toOra(e), cur.sql)
    w.pos = start
    cancelled = err.code === ora.cancelled().code
    writeError(s, w, err, cur.id, ((err as OraError & { rowOffset?: number }).rowOffset ?? 0) + (o.pre?.offset ?? 0))
  } finally {
    sql.finishSql(cancelled || s.breakPending)
  }
}

/** Row counts of each executeMany iteration (PARAMETER message). */
const writeDmlRowCounts = (w: WriteBuffer, rowCounts: ReadonlyArray<number>): void => {
  w.u8(Msg.PARAMETER)
  w.ub(0)
  w.ub(0)
  w.ub(0)
  w.ub(0)
  w.ub(rowCounts.length)
  for (const n of rowCounts) w.ub(n)
}

/** Tells the client its new current schema (keyword 168, read by messages/withData.js processReturnParameter). */
const writeCurrentSchema = (w: WriteBuffer, schemaName: string): void => {
  const schema = Buffer.from(schemaName, "utf8")
  w.u8(Msg.PARAMETER)
  w.ub(0)
  w.ub(0)
  w.ub(1)
  w.ub(schema.length)
  w.bytesWithLength(schema)
  w.ub(0)
  w.ub(168)
  w.ub(0)
}

const isLobLike = (t: OraType) => t.kind === "clob" || t.kind === "nclob" || t.kind === "blob" || t.kind === "json" || t.kind === "vector"
