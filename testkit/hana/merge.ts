/**
 * `MERGE INTO` (SAP HANA SQL Reference, "MERGE INTO Statement": `MERGE INTO <target> [[AS] <alias>] USING <source>
 * ON <condition> WHEN MATCHED [AND <condition>] THEN UPDATE SET ... | DELETE, WHEN NOT MATCHED [AND <condition>]
 * THEN INSERT [(<columns>)] VALUES (...)`), run by DuckDB's own MERGE. HANA lets an UPDATE SET name its column
 * qualified (`T1.B = T2.B`, even `"schema".T1.B`); DuckDB takes bare column names there, so the qualifier is dropped.
 */
import { HanaError } from "./errors.ts"
import { countParams, matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { rewrite } from "./sql-rewrite.ts"
import type { SessionValues, Translated } from "./translated.ts"

/** The tokens of one `a = b` assignment with a qualified left side (`t.a`, `s.t.a`) reduced to its column. */
const bareTarget = (assignment: readonly Token[]): Token[] => {
  const eq = assignment.findIndex((t) => t.t === "op" && t.v === "=")
  if (eq < 1) throw HanaError.syntax("column = expression expected in MERGE ... UPDATE SET", 0)
  return [assignment[eq - 1]!, ...assignment.slice(eq)]
}

/** Tokens of the statement with every `UPDATE SET` list's targets bare. */
const withBareSetTargets = (all: readonly Token[]): Token[] => {
  const out: Token[] = []
  let i = 0
  while (i < all.length) {
    const t = all[i]!
    if (t.t === "op" && t.v === "(") {
      const close = matching(all, i)
      out.push(...all.slice(i, close + 1))
      i = close + 1
      continue
    }
    out.push(t)
    i++
    if (upper(t) !== "SET" || upper(all[i - 2]) !== "UPDATE") continue
    let end = i
    while (end < all.length && upper(all[end]) !== "WHEN") {
      end = all[end]!.t === "op" && all[end]!.v === "(" ? matching(all, end) + 1 : end + 1
    }
    splitTopLevel(all.slice(i, end)).forEach((assignment, k) => {
      if (k > 0) out.push({ t: "op", v: "," })
      out.push(...bareTarget(assignment))
    })
    i = end
  }
  return out
}

/** MERGE's own keywords, which the rewriter would otherwise quote as names: passed on as they are. */
const verbatim = (all: readonly Token[]): Token[] =>
  all.map((t, i) =>
    (i === 0 && upper(t) === "MERGE") || (upper(t) === "MATCHED" && (upper(all[i - 1]) === "WHEN" || upper(all[i - 1]) === "NOT"))
      ? { t: "op", v: upper(t) }
      : t
  )

/** `MERGE INTO ...` as a DML statement DuckDB runs; its rows affected are the rows updated, deleted and inserted. */
export const translateMerge = (all: Token[], session: SessionValues): Translated => {
  if (upper(all[1]) !== "INTO") throw HanaError.syntax("MERGE INTO expected", 0)
  if (!all.some((t) => upper(t) === "USING") || !all.some((t) => upper(t) === "WHEN")) {
    throw HanaError.syntax("MERGE INTO <table> USING <source> ON <condition> WHEN ... expected", 0)
  }
  return { kind: "dml", functionCode: 3, sql: rewrite(verbatim(withBareSetTargets(all)), session), params: countParams(all) }
}
