/**
 * What the translator needs to know of a statement's binds for arithmetic (translate.ts `expression`): which are sent
 * as character text, which Oracle converts to NUMBER in arithmetic (SQL Language Reference, "Implicit Data
 * Conversion"), and which as BINARY_DOUBLE / BINARY_FLOAT, whose type decides the operation ("Numeric Precedence",
 * SQL Language Reference, "Data Type Precedence": `x / :b` with a BINARY_DOUBLE bind of 0 is Inf or NaN, not ORA-01476).
 */
import type { BindSpec } from "./statement.ts"
import { bindSpecType } from "./results.ts"
import type { BinaryKind } from "./translate.ts"

/** The context entries `textBind` and `binaryBind` of a statement whose binds are `specs` (numbered from 1). */
export const characterBinds = (
  specs: ReadonlyArray<BindSpec>
): { readonly textBind: (param: number) => boolean; readonly binaryBind: (param: number) => BinaryKind | undefined } => ({
  textBind: (n) => {
    const kind = bindSpecType(specs[n - 1])?.kind
    return kind === "varchar" || kind === "nvarchar"
  },
  binaryBind: (n) => {
    const kind = bindSpecType(specs[n - 1])?.kind
    return kind === "double" ? "double" : kind === "float" ? "float" : undefined
  }
})
