/**
 * Multi-table INSERT (SQL Language Reference 23ai, "INSERT", multi_table_insert): `INSERT ALL INTO t1 [(cols)]
 * [VALUES (exprs)] INTO t2 ... subquery` inserts each row of the subquery through every INTO clause; the conditional
 * forms `INSERT ALL | FIRST WHEN cond THEN INTO ... [WHEN ...] [ELSE INTO ...] subquery` through the clauses whose
 * condition holds (ALL: every such WHEN; FIRST: only the first; ELSE: when none holds). VALUES and the conditions
 * name the subquery's columns; without VALUES the subquery's columns are inserted in order.
 *
 * Here the statement runs as one `INSERT INTO t [(cols)] SELECT exprs FROM (subquery) WHERE condition` per INTO
 * clause, in order, all undone when one fails (the session's statement-level atomicity); the bind values follow their
 * binds into each. Each of them evaluates the subquery again, so a sequence's NEXTVAL in it, or a volatile function,
 * takes another value per INTO clause, where Oracle evaluates the subquery once.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, significant, tokenize, type Tok } from "./lexer.ts"
import type { BindSpec, ExecuteOptions, StatementResult } from "./statement.ts"

/** One single-table INSERT of a multi-table INSERT: its text and the positions of its binds in the original statement. */
interface Part {
  readonly sql: string
  readonly binds: ReadonlyArray<number>
}

/** Whether `sql` is a multi-table INSERT (`INSERT ALL` / `INSERT FIRST`). */
export const isMultiTableInsert = (sql: string): boolean => /^\s*INSERT\s+(ALL|FIRST)\b/i.test(sql)

/** The single-table INSERTs of a multi-table INSERT, in the order they run. */
export const multiTableInsertParts = (sql: string): Array<Part> => {
  const toks = significant(tokenize(sql.replace(/;\s*$/, "")))
  const bindAt = new Map<number, number>()
  toks.forEach((t, k) => t.kind === "bind" && bindAt.set(k, bindAt.size))
  const text = (from: number, to: number) => toks.slice(from, to).map((t) => t.text).join(" ")
  const binds = (from: number, to: number) => toks.slice(from, to).flatMap((_, i) => (bindAt.has(from + i) ? [bindAt.get(from + i)!] : []))
  const first = isKw(toks[1], "FIRST")
  type Into = { readonly target: [number, number]; readonly values: [number, number] | undefined }
  type Branch = { readonly when: [number, number] | undefined; readonly intos: Array<Into> }
  const branches: Array<Branch> = []
  let k = 2
  const into = (): Into => {
    if (!isKw(toks[k], "INTO")) throw new OraError(925, "missing INTO keyword")
    const start = k + 1
    k++
    if (isOp(toks[k + 1], ".")) k += 2
    k++
    // an alias, then a column list
    if ((toks[k]?.kind === "ident" || toks[k]?.kind === "qident") && !isKw(toks[k], "VALUES", "INTO", "WHEN", "ELSE", "SELECT", "WITH")) k++
    if (isOp(toks[k], "(") && !isKw(toks[k + 1], "SELECT", "WITH")) k = matchParen(toks, k) + 1
    const target: [number, number] = [start, k]
    let values: [number, number] | undefined
    if (isKw(toks[k], "VALUES")) {
      if (!isOp(toks[k + 1], "(")) throw new OraError(906, "missing left parenthesis")
      const close = matchParen(toks, k + 1)
      values = [k + 2, close]
      k = close + 1
    }
    return { target, values }
  }
  if (isKw(toks[k], "WHEN")) {
    while (isKw(toks[k], "WHEN", "ELSE")) {
      let when: [number, number] | undefined
      if (isKw(toks[k], "WHEN")) {
        const then = toks.findIndex((t, j) => j > k && isKw(t, "THEN"))
        if (then < 0) throw new OraError(905, "missing keyword")
        when = [k + 1, then]
        k = then + 1
      } else k++
      const intos: Array<Into> = []
      while (isKw(toks[k], "INTO")) intos.push(into())
      if (intos.length === 0) throw new OraError(925, "missing INTO keyword")
      branches.push({ when, intos })
    }
  } else {
    if (first) throw new OraError(905, "missing keyword")
    const intos: Array<Into> = []
    while (isKw(toks[k], "INTO")) intos.push(into())
    if (intos.length === 0) throw new OraError(925, "missing INTO keyword")
    branches.push({ when: undefined, intos })
  }
  if (!isKw(toks[k], "SELECT", "WITH") && !isOp(toks[k], "(")) throw new OraError(928, "missing SELECT keyword")
  const subquery: [number, number] = [k, toks.length]
  const holds = (w: [number, number]) => `(${text(w[0], w[1])})`
  const fails = (w: [number, number]) => `CASE WHEN ${text(w[0], w[1])} THEN 1 ELSE 0 END = 0`
  const parts: Array<Part> = []
  const whens = branches.flatMap((b) => (b.when === undefined ? [] : [b.when]))
  branches.forEach((b, i) => {
    const earlier = branches.slice(0, i).flatMap((e) => (e.when === undefined ? [] : [e.when]))
    // ELSE: no WHEN holds; a WHEN of INSERT FIRST: no earlier WHEN holds, and its own does
    const conditions: Array<[number, number] | string> = b.when === undefined ? whens.map(fails) : [...(first ? earlier.map(fails) : []), b.when]
    for (const c of b.intos) {
      const pieces: Array<[number, number] | string> = ["INSERT INTO", c.target, "SELECT", c.values ?? "*", "FROM (", subquery, ") ora$mti"]
      conditions.forEach((w, n) => pieces.push(n === 0 ? "WHERE" : "AND", typeof w === "string" ? w : holds(w)))
      parts.push({
        sql: pieces.map((p) => (typeof p === "string" ? p : text(p[0], p[1]))).join(" "),
        binds: pieces.flatMap((p) => (typeof p === "string" ? [] : binds(p[0], p[1])))
      })
    }
  })
  return parts
}

/** What running a multi-table INSERT needs from the session. */
export interface MultiTableHost {
  execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult>
  atomically<T>(body: () => Promise<T>): Promise<T>
}

/** Runs a multi-table INSERT once per bind row, all of it undone when a part fails; the rows inserted in all. */
export const runMultiTableInsert = (host: MultiTableHost, sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> =>
  host.atomically(async () => {
    const parts = multiTableInsertParts(sql)
    let count = 0
    for (const row of rows.length === 0 ? [[]] : rows) {
      for (const part of parts) {
        const spec = part.binds.map((b) => specs[b]).filter((s): s is BindSpec => s !== undefined)
        const done = await host.execute(part.sql, [part.binds.map((b) => row[b] ?? null)], spec.length === part.binds.length ? spec : [], { ...opts, batchErrors: false, dmlRowCounts: false })
        if (done.kind === "dml") count += done.rowCount
      }
    }
    return { kind: "dml", rowCount: count, rowCounts: [], batchErrors: [] }
  })
