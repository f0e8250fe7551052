/** The built-in packages the interpreter provides, by name (one module each). */
import type { BuiltinPackage } from "./context.ts"
import { dbmsApplicationInfo } from "./dbms-application-info.ts"
import { dbmsErrlog } from "./dbms-errlog.ts"
import { dbmsLob } from "./dbms-lob.ts"
import { dbmsLock } from "./dbms-lock.ts"
import { dbmsOutput } from "./dbms-output.ts"
import { dbmsRandom } from "./dbms-random.ts"
import { dbmsSession } from "./dbms-session.ts"
import { dbmsSql } from "./dbms-sql.ts"
import { dbmsStats } from "./dbms-stats.ts"
import { dbmsStandard } from "./dbms-standard.ts"
import { dbmsMview } from "./dbms-mview.ts"
import { dbmsPreprocessor } from "./dbms-preprocessor.ts"

/** Packages by name (also reachable as SYS.name). */
export const PACKAGES: ReadonlyMap<string, BuiltinPackage> = new Map([
  ["DBMS_SQL", dbmsSql],
  ["DBMS_LOB", dbmsLob],
  ["DBMS_OUTPUT", dbmsOutput],
  ["DBMS_RANDOM", dbmsRandom],
  ["DBMS_SESSION", dbmsSession],
  ["DBMS_STANDARD", dbmsStandard],
  ["DBMS_APPLICATION_INFO", dbmsApplicationInfo],
  ["DBMS_LOCK", dbmsLock],
  ["DBMS_STATS", dbmsStats],
  ["DBMS_MVIEW", dbmsMview],
  ["DBMS_SNAPSHOT", dbmsMview],
  ["DBMS_PREPROCESSOR", dbmsPreprocessor],
  ["DBMS_ERRLOG", dbmsErrlog]
])

/** The package whose procedures are callable without the package name (STANDARD / DBMS_STANDARD). */
export const UNQUALIFIED: BuiltinPackage = dbmsStandard
