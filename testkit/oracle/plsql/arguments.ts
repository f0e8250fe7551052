/** Argument checks shared by the built-in packages. */
import { OraError } from "../errors.ts"

/** PLS-00306, a call whose arguments do not fit the procedure. */
export const wrongArguments = (procedure: string): OraError =>
  new OraError(6550, `line 1, column 7:\nPLS-00306: wrong number or types of arguments in call to '${procedure}'`)
