/**
 * Storage maintenance DDL that changes no rows or results (SQL Language Reference 23ai, "ALTER INDEX", "ALTER TABLE"
 * physical attributes, "PURGE"): `ALTER INDEX i REBUILD | COALESCE | [NO]MONITORING USAGE | VISIBLE | INVISIBLE |
 * [NO]LOGGING | [NO]PARALLEL ...` (ORA-01418 for a missing index), `ALTER TABLE t MOVE ... | SHRINK SPACE | ENABLE |
 * DISABLE ROW MOVEMENT | [NO]LOGGING | [NO]COMPRESS | [NO]CACHE | [NO]PARALLEL | PCTFREE n | DEALLOCATE UNUSED` and
 * `PURGE RECYCLEBIN | DBA_RECYCLEBIN` are accepted and do nothing here (the server keeps no segments, statistics or
 * recycle bin). Schema scripts and migrations run them between the statements that matter.
 */
import type { OracleDatabase } from "./database.ts"
import { OraError } from "./errors.ts"
import { isKw, type Tok } from "./lexer.ts"
import { oracleName } from "./translate.ts"

const INDEX_ACTIONS = ["REBUILD", "COALESCE", "MONITORING", "NOMONITORING", "VISIBLE", "INVISIBLE", "LOGGING", "NOLOGGING", "PARALLEL", "NOPARALLEL", "COMPUTE", "SHRINK", "DEALLOCATE"]
const TABLE_ACTIONS = ["MOVE", "SHRINK", "ENABLE", "DISABLE", "LOGGING", "NOLOGGING", "COMPRESS", "NOCOMPRESS", "CACHE", "NOCACHE", "PARALLEL", "NOPARALLEL", "PCTFREE", "PCTUSED", "INITRANS", "DEALLOCATE", "ALLOCATE", "STORAGE"]

/**
 * Whether `toks` (significant, from the statement's first keyword) is such maintenance, checked and done: the
 * objects it names must exist (`schema`: the current schema).
 */
export const storageMaintenance = (db: OracleDatabase, schema: string, toks: ReadonlyArray<Tok>): boolean => {
  if (isKw(toks[0], "PURGE")) {
    if (isKw(toks[1], "RECYCLEBIN", "DBA_RECYCLEBIN") && toks.length === 2) return true
    return false
  }
  if (!isKw(toks[0], "ALTER")) return false
  const qualified = toks[3]?.kind === "op" && toks[3].value === "."
  const owner = qualified ? oracleName(toks[2]!) : schema
  const name = oracleName(toks[qualified ? 4 : 2] ?? toks[2]!)
  const action = toks[qualified ? 5 : 3]
  if (isKw(toks[1], "INDEX") && isKw(action, ...INDEX_ACTIONS)) {
    if (db.catalog.getObject(owner, "INDEX", name) === undefined) throw new OraError(1418, "specified index does not exist")
    return true
  }
  // ENABLE / DISABLE only as ROW MOVEMENT (ENABLE CONSTRAINT is constraint-state.ts's)
  if (isKw(toks[1], "TABLE") && isKw(action, ...TABLE_ACTIONS) && (!isKw(action, "ENABLE", "DISABLE") || isKw(toks[(qualified ? 5 : 3) + 1], "ROW"))) {
    return db.catalog.getTable(owner, name) !== undefined
  }
  return false
}
