/**
 * ALTER TABLE t DROP CONSTRAINT c | DROP PRIMARY KEY | DROP UNIQUE (cols) (SQL Language Reference, ALTER TABLE,
 * "drop_constraint_clause"): the constraint goes from the catalog and from the DuckDB table, rebuilt without it
 * (modify-checks.ts `rebuildTable`), with its rows. ORA-02443 for a constraint the table does not have, ORA-02441
 * for a missing primary key, ORA-02273 for a key a foreign key references. A constraint whose DuckDB text cannot be
 * found again, or a table other tables reference, is ORA-03001.
 */
import type { ConstraintMeta, TableMeta } from "./catalog.ts"
import type { TableDdl } from "./ddl-tables.ts"
import { ora, OraError } from "./errors.ts"
import { isUncheckedForeignKey } from "./novalidate-foreign-keys.ts"
import { isKw, isOp, matchParen, significant, splitTopLevel, tokenize, type Tok } from "./lexer.ts"
import { rebuildTable } from "./modify-checks.ts"
import { encodeName } from "./names.ts"
import { oracleName } from "./translate.ts"

/** Text with quotes, parentheses and white space gone, upper-cased: DuckDB's stored form and Oracle's compare equal. */
const bare = (s: string) => s.replace(/["()\s]/g, "").toUpperCase()

/** DuckDB's stored `CREATE TABLE` text without the element that makes constraint `c`; undefined when none matches. */
const withoutConstraint = (ddl: string, c: ConstraintMeta, checks: ReadonlyArray<ConstraintMeta>): string | undefined => {
  const toks = significant(tokenize(ddl))
  const open = toks.findIndex((t) => isOp(t, "("))
  const close = matchParen(toks, open)
  if (open < 0 || close < 0) return undefined
  const textOf = (el: ReadonlyArray<Tok>) => ddl.slice(el[0]!.pos, el[el.length - 1]!.pos + el[el.length - 1]!.text.length)
  const elements = splitTopLevel(toks.slice(open + 1, close)).filter((el) => el.length > 0).map(textOf)
  const cols = bare(c.columns.map((x) => `"${x}"`).join(","))
  const inline = c.type === "P" ? " PRIMARY KEY" : c.type === "U" ? " UNIQUE" : undefined
  const at = elements.findIndex((e) => {
    const b = bare(e)
    if (c.type === "P") return b === `PRIMARYKEY${cols}` || (c.columns.length === 1 && e.endsWith(" PRIMARY KEY") && bare(e.split(" ")[0]!) === cols)
    if (c.type === "U") return b === `UNIQUE${cols}` || (c.columns.length === 1 && e.endsWith(" UNIQUE") && bare(e.split(" ")[0]!) === cols)
    if (c.type === "R") return b.startsWith(`FOREIGNKEY${cols}REFERENCES`)
    return c.searchCondition !== null && b === `CHECK${bare(c.searchCondition)}`
  })
  // a check condition is stored translated (NUMBER comparisons, ...): found by its place among the table's checks
  const checkElements = elements.map((e, i) => [e, i] as const).filter(([e]) => e.startsWith("CHECK(") && !e.includes("ORA-12899"))
  const byPlace = c.type === "C" && checkElements.length === checks.length ? (checkElements[checks.indexOf(c)]?.[1] ?? -1) : -1
  if (at < 0 && byPlace < 0) return undefined
  if (at < 0) return `${ddl.slice(0, toks[open]!.pos + 1)}${elements.filter((_, i) => i !== byPlace).join(", ")}${ddl.slice(toks[close]!.pos)}`
  const e = elements[at]!
  const rest = inline !== undefined && e.endsWith(inline) && !bare(e).startsWith(inline.trim().replace(" ", "")) ? [...elements.slice(0, at), e.slice(0, -inline.length), ...elements.slice(at + 1)] : elements.filter((_, i) => i !== at)
  return `${ddl.slice(0, toks[open]!.pos + 1)}${rest.join(", ")}${ddl.slice(toks[close]!.pos)}`
}

/** Drops the constraint `toks[k..]` names (`CONSTRAINT c`, `PRIMARY KEY`, `UNIQUE (cols)`) from `meta`. */
export const dropConstraint = async (ddl: TableDdl, meta: TableMeta, toks: ReadonlyArray<Tok>, k: number): Promise<void> => {
  let c: ConstraintMeta | undefined
  if (isKw(toks[k], "CONSTRAINT")) {
    const name = oracleName(toks[k + 1]!)
    c = meta.constraints.find((x) => x.name === name)
    if (c === undefined) throw new OraError(2443, `Cannot drop constraint  - nonexistent constraint`)
  } else if (isKw(toks[k], "PRIMARY")) {
    c = meta.constraints.find((x) => x.type === "P")
    if (c === undefined) throw new OraError(2441, "Cannot drop nonexistent primary key")
  } else if (isKw(toks[k], "UNIQUE") && isOp(toks[k + 1], "(")) {
    const cols = splitTopLevel(toks.slice(k + 2, matchParen(toks, k + 1))).map((p) => oracleName(p[0]!))
    c = meta.constraints.find((x) => x.type === "U" && x.columns.join() === cols.join())
    if (c === undefined) throw new OraError(2442, "Cannot drop nonexistent unique key")
  } else throw ora.unimplemented("ALTER TABLE DROP")
  const dropped = c
  if ((dropped.type === "P" || dropped.type === "U") && [...ddl.s.db.catalog.allTables()].some((t) => t.constraints.some((x) => x.type === "R" && x.refOwner === meta.owner && x.refConstraint === dropped.name)))
    throw new OraError(2273, "this unique/primary key is referenced by some foreign keys")
  // a NOT NULL column constraint is no DuckDB table element
  const isNotNull = (x: ConstraintMeta) => x.type === "C" && x.searchCondition !== null && /^\s*"?\w+"?\s+IS\s+NOT\s+NULL\s*$/i.test(x.searchCondition)
  const notNull = isNotNull(dropped)
  const checks = meta.constraints.filter((x) => x.type === "C" && x.disabled !== true && x.searchCondition !== null && !isNotNull(x) && !/\bIS\s+(NOT\s+)?JSON\b/i.test(x.searchCondition))
  // a disabled constraint is no DuckDB table element either (constraint-state.ts), nor a NOVALIDATE foreign key
  if (!notNull && dropped.disabled !== true && !isUncheckedForeignKey(dropped)) {
    let edited: string | undefined
    const rebuilt = await rebuildTable(ddl.s.engine, encodeName(meta.owner), encodeName(meta.name), (sql) => (edited = withoutConstraint(sql, dropped, checks)) ?? sql).catch((e: unknown) => {
      throw ddl.s.mapError(e)
    })
    if (!rebuilt || edited === undefined) throw ora.unimplemented("ALTER TABLE DROP CONSTRAINT of this constraint")
  }
  meta.constraints = meta.constraints.filter((x) => x !== dropped)
  ddl.s.db.catalog.putTable(meta)
  if (dropped.type === "P" || dropped.type === "U") ddl.s.db.catalog.dropObject(meta.owner, "INDEX", dropped.name)
}
