/**
 * DBMS_UTILITY's functions that read the running block (Oracle Database PL/SQL Packages and Types Reference,
 * DBMS_UTILITY): FORMAT_ERROR_STACK (the error being handled, `ORA-nnnnn: text` and a line feed), FORMAT_ERROR_BACKTRACE
 * (one `ORA-06512: at ...` line per frame the error left, from where it was raised out to the block) and
 * FORMAT_CALL_STACK (Oracle's call-stack table, the anonymous block at the current line). Outside a handler the error
 * functions return NULL. GET_TIME is a SQL function (builtin-functions.ts).
 */
import type { PlsqlException } from "./errors.ts"

/** The value of `DBMS_UTILITY.name` for the exception being handled (`handling`) at `line`; undefined when `name` is none of these. */
export const dbmsUtilityValue = (name: string | undefined, handling: PlsqlException | undefined, line: number): string | null | undefined => {
  switch (name) {
    case "FORMAT_ERROR_STACK":
      return handling === undefined ? null : `${handling.sqlerrm}\n`
    case "FORMAT_ERROR_BACKTRACE":
      return handling === undefined ? null : [...handling.frames, `at line ${handling.line}`].map((f) => `ORA-06512: ${f}\n`).join("")
    case "FORMAT_CALL_STACK":
      return `----- PL/SQL Call Stack -----\n  object      line  object\n  handle    number  name\n0x0000000000000001 ${String(line).padStart(9)}  anonymous block\n`
    default:
      return undefined
  }
}
