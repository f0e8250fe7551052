/**
 * A block's DML statement that takes NEXTVAL beside a format model that is an expression (format-model-sites.ts):
 * its format values first met by a side-effect-free query standing for it (format-model-sites.ts formatProbe, NEXTVAL
 * replaced by a stand-in), so that it runs, and advances the sequence, once per row as Oracle does (SQL Language
 * Reference, "Sequence Pseudocolumns"): a run that meets a value not met yet is undone and run again, and a sequence
 * is not undone.
 */
import { engineSequenceStates } from "../format-model-dml.ts"
import { formatProbe, hasFormatExpressions, peekingAt, peekingSql } from "../format-model-sites.ts"
import { significant, tokenize } from "../lexer.ts"
import { encodeName } from "../names.ts"
import type { Expr } from "./ast.ts"
import type { Frame } from "./context.ts"

/** Per block frame, while its statement and the statement's probe are rendered: the text their call sites are named under. */
const scopes = new WeakMap<Frame, string>()

/** Per block frame, while its statement's probe runs: how its engine SQL reads NEXTVAL (see {@link probeSql}). */
const probes = new WeakMap<Frame, { readonly restart: (() => void) | undefined }>()

/** Whether the query `ctx` opens now is a probe (its rows read once to meet its format values; it is not opened again). */
export const isProbe = (ctx: Frame): boolean => probes.has(ctx)

/**
 * The engine SQL `sql` of the query `ctx` opens now: a probe's whose format expression depends on NEXTVAL reads the
 * sequences' next values without taking them, each run from the first (format-model-sites.ts peekingAt).
 */
export const probeSql = (ctx: Frame, sql: string): string => {
  const restart = probes.get(ctx)?.restart
  if (restart === undefined) return sql
  restart()
  return peekingSql(sql)
}

/** The text the format call sites of a statement `ctx` renders now are named under, when {@link probedDml} sets one. */
export const formatScopeOf = (ctx: Frame): string | undefined => scopes.get(ctx)

/**
 * Runs `run` (the block's DML statement `written`); first, when it takes NEXTVAL and has a format expression, its
 * probe with `read` (which opens the query, meeting its values, and closes it), both under one scope so that the
 * values the probe meets are the statement's; where a format expression depends on NEXTVAL the probe reads the
 * sequences' next values without taking them. A probe that fails leaves the values to the statement's own runs.
 */
export const probedDml = async <T>(ctx: Frame, written: Expr, read: (probe: Expr) => Promise<void>, run: () => Promise<T>): Promise<T> => {
  const text = written.filter((t) => t.kind !== "ws").map((t) => t.text).join(" ")
  if (!/\bNEXTVAL\b/i.test(text) || !hasFormatExpressions(written)) return run()
  const probe = formatProbe(text)
  if (probe === undefined) return run()
  const outer = scopes.get(ctx)
  scopes.set(ctx, `plsql dml ${text}`)
  const reading = (restart: (() => void) | undefined) => {
    probes.set(ctx, { restart })
    return read(significant(tokenize(probe.sql))).finally(() => probes.delete(ctx))
  }
  try {
    try {
      if (!probe.peeks) await reading(undefined)
      else await peekingAt(async () => ({ schema: encodeName(ctx.host.schema), states: await engineSequenceStates((q) => ctx.host.engine.queryAll(q)) }), reading)
    } catch {
      // the statement's own runs meet what the probe did not
    }
    return await run()
  } finally {
    if (outer === undefined) scopes.delete(ctx)
    else scopes.set(ctx, outer)
  }
}
