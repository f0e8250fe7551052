/**
 * Foreign keys enabled NOVALIDATE (`ALTER TABLE c ADD CONSTRAINT fk FOREIGN KEY (p) REFERENCES par (id) ENABLE
 * NOVALIDATE`, or `ALTER TABLE c ENABLE NOVALIDATE CONSTRAINT fk`). SQL Language Reference, "constraint",
 * "constraint_state": ENABLE NOVALIDATE "ensures that all new DML operations on the constrained data comply with the
 * constraint" but "does not ensure that existing data in the table complies with the constraint"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/constraint.html).
 *
 * DuckDB checks a foreign key on every row, so such a key is no DuckDB constraint: the server remembers the orphan
 * rows present when it was enabled (how many rows hold each orphan key) and, after each statement that writes the
 * child or the parent table, fails the statement when a key has more orphan rows than that: ORA-02291 when it wrote
 * the child, ORA-02292 when it wrote the parent. An exempted orphan row may be updated in its other columns; moved to
 * another key without a parent it is a new orphan of that key (Data Warehousing Guide, "Constraint States": ENABLE
 * NOVALIDATE "allows existing rows to violate the constraint, while ensuring that all new or modified rows are valid").
 */
import type { ConstraintMeta, TableMeta } from "./catalog.ts"
import type { Session as EngineSession } from "../engine/index.ts"
import { OraError } from "./errors.ts"
import { duckIdent } from "./names.ts"

/** Orphan rows exempted from a NOVALIDATE foreign key: how many rows hold each orphan key (JSON of its values). */
const exempted = new WeakMap<object, Map<string, ReadonlyMap<string, number>>>()

/** True for a foreign key enabled NOVALIDATE, which the server checks itself (no DuckDB constraint). */
export const isUncheckedForeignKey = (c: ConstraintMeta): boolean => c.type === "R" && c.disabled !== true && c.notValidated === true

/** What the checks need of the database. */
export interface ForeignKeyHost {
  readonly engine: EngineSession
  readonly db: {
    readonly catalog: {
      allTables(): IterableIterator<TableMeta>
      findConstraint(owner: string, name: string): { table: TableMeta; constraint: ConstraintMeta } | undefined
    }
  }
}

/** The orphan rows of foreign key `fk` of `child`: rows per key (JSON of the key's values). */
const orphanCounts = async (host: ForeignKeyHost, child: TableMeta, fk: ConstraintMeta): Promise<Map<string, number>> => {
  const ref = fk.refOwner === null ? undefined : host.db.catalog.findConstraint(fk.refOwner, fk.refConstraint ?? "")
  const out = new Map<string, number>()
  if (ref === undefined) return out
  const cols = fk.columns.map((c) => `t.${duckIdent(c)}`)
  const match = ref.constraint.columns.map((c, i) => `p.${duckIdent(c)} = ${cols[i]}`).join(" AND ")
  const rows = await host.engine.queryAll(
    `SELECT CAST(to_json([${cols.map((c) => `CAST(${c} AS VARCHAR)`).join(", ")}]) AS VARCHAR), COUNT(*) FROM ${duckIdent(child.owner)}.${duckIdent(child.name)} t ` +
      `WHERE ${cols.map((c) => `${c} IS NOT NULL`).join(" AND ")} AND NOT EXISTS (SELECT 1 FROM ${duckIdent(ref.table.owner)}.${duckIdent(ref.table.name)} p WHERE ${match}) GROUP BY 1`
  )
  for (const [key, n] of rows) out.set(String(key), Number(n))
  return out
}

/** Records the orphan rows of `child` that foreign key `fk`, being enabled NOVALIDATE now, leaves in place. */
export const exemptOrphans = async (host: ForeignKeyHost, child: TableMeta, fk: ConstraintMeta): Promise<void> => {
  let byKey = exempted.get(host.db)
  if (byKey === undefined) exempted.set(host.db, (byKey = new Map()))
  byKey.set(`${child.owner}.${fk.name}`, await orphanCounts(host, child, fk))
}

/** The NOVALIDATE foreign keys a write of `meta` may break: its own and those referencing it, with their child tables. */
const keysAt = (host: ForeignKeyHost, meta: TableMeta): Array<{ child: TableMeta; fk: ConstraintMeta }> => {
  const out: Array<{ child: TableMeta; fk: ConstraintMeta }> = []
  for (const t of host.db.catalog.allTables())
    for (const c of t.constraints) {
      if (!isUncheckedForeignKey(c)) continue
      if (t.owner === meta.owner && t.name === meta.name) out.push({ child: t, fk: c })
      else if (c.refOwner === meta.owner && meta.constraints.some((k) => k.name === c.refConstraint)) out.push({ child: t, fk: c })
    }
  return out
}

/** True when a write of `meta` must be checked with {@link checkUncheckedForeignKeys}. */
export const hasUncheckedForeignKeys = (host: ForeignKeyHost, meta: TableMeta | undefined): boolean =>
  // every such key was recorded by exemptOrphans: a database without one skips the look through its tables
  meta !== undefined && exempted.has(host.db) && keysAt(host, meta).length > 0

/**
 * After a statement wrote `meta`: fails it (ORA-02291 for a child row without its parent, ORA-02292 for a parent row
 * removed from under a child) when it left more orphan rows of a NOVALIDATE foreign key than were exempted.
 */
export const checkUncheckedForeignKeys = async (host: ForeignKeyHost, meta: TableMeta): Promise<void> => {
  for (const { child, fk } of keysAt(host, meta)) {
    const allowed = exempted.get(host.db)?.get(`${child.owner}.${fk.name}`)
    for (const [key, n] of await orphanCounts(host, child, fk)) {
      if (n <= (allowed?.get(key) ?? 0)) continue
      const wroteChild = child.owner === meta.owner && child.name === meta.name
      throw wroteChild
        ? new OraError(2291, `integrity constraint (${child.owner}.${fk.name}) violated - parent key not found`)
        : new OraError(2292, `integrity constraint (${child.owner}.${fk.name}) violated - child record found`)
    }
  }
}
