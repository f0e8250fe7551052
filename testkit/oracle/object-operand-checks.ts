/**
 * An object compared with a scalar in a client's SQL: `o = 1`, `o IN (:n, :m)` with NUMBER binds, `'x' <> o`. Oracle
 * converts no built-in type to an object type (SQL Language Reference, "Implicit Data Conversion": its conversion
 * matrix lists built-in types only; "Comparison Conditions", "Object Values": objects compare with objects of the
 * same type) and refuses the statement with ORA-00932 "inconsistent datatypes: expected <type> got NUMBER" (CHAR for
 * character operands), as it refuses such a value written into an object column (object-writes.ts); here the engine
 * would convert the object's stored text to a number instead (ORA-01722). Only operands whose type the text or the
 * bind shows are checked: number and character literals and NUMBER / character binds against object columns
 * (`alias.col` or unqualified) and constructor calls on the right.
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isKw, isOp, type Tok } from "./lexer.ts"
import { statementTables } from "./object-attributes.ts"
import { type ObjectOperand, objectOperandAt } from "./object-comparisons.ts"
import { bindSpecsByToken } from "./object-writes.ts"
import type { NamedType } from "./type-shapes.ts"
import { Dty } from "./types.ts"

const COMPARISONS = ["=", "<>", "!=", "^=", "~=", "<", ">", "<=", ">="]

/**
 * Throws ORA-00932 for a comparison or IN list of `toks` setting an object operand against a scalar one;
 * `lookupTable` finds a table, `lookupType` an object type by name, `specs` the binds' specs (by occurrence).
 */
export const refuseScalarObjectComparisons = (
  toks: ReadonlyArray<Tok>,
  lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined,
  lookupType: (name: string) => NamedType | undefined,
  specs: ReadonlyArray<{ readonly dty: number }> | undefined
): void => {
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (n: number) => toks[sig[n] ?? -1]
  if (!sig.some((k) => COMPARISONS.some((op) => isOp(toks[k], op)) || isKw(toks[k], "IN"))) return
  const specOf = bindSpecsByToken(toks, specs)
  /** The built-in type of the whole operand at significant token `n` when the text or its bind shows it. */
  const scalarAt = (n: number): "NUMBER" | "CHAR" | undefined => {
    const t = at(n)
    if (t === undefined || isOp(at(n + 1), "(") || isOp(at(n + 1), ".")) return undefined
    if (t.kind === "num") return "NUMBER"
    if (t.kind === "str") return "CHAR"
    if (t.kind !== "bind") return undefined
    const dty = specOf(t)?.dty
    return dty === Dty.NUMBER ? "NUMBER" : dty === Dty.VARCHAR || dty === Dty.CHAR ? "CHAR" : undefined
  }
  let tables: Map<string, TableMeta> | undefined
  const operandAt = (n: number) => objectOperandAt(toks, sig, n, () => (tables ??= statementTables(toks, lookupTable)), lookupType)
  /** The object column operand ending just before significant token `n`. */
  const columnBefore = (n: number): ObjectOperand | undefined => [n - 1, n - 3].map((m) => (m >= 0 ? operandAt(m) : undefined)).find((o) => o?.end === n)
  const refuse = (o: ObjectOperand, got: string) => new OraError(932, `inconsistent datatypes: expected ${o.type.schema}.${o.type.name} got ${got}`)
  for (let n = 0; n < sig.length; n++) {
    const t = at(n)!
    if (COMPARISONS.some((op) => isOp(t, op))) {
      const right = scalarAt(n + 1)
      const left = right === undefined && n > 0 && !isOp(at(n - 2), ".") && !isOp(at(n - 2), "||") ? scalarAt(n - 1) : undefined
      if (right !== undefined) {
        const o = columnBefore(n)
        if (o !== undefined) throw refuse(o, right)
      } else if (left !== undefined) {
        const o = operandAt(n + 1)
        if (o !== undefined) throw refuse(o, left)
      }
      continue
    }
    if (!isKw(t, "IN") || !isOp(at(n + 1), "(")) continue
    // `o [NOT] IN (items)`: each item that shows a scalar type
    const o = columnBefore(isKw(at(n - 1), "NOT") ? n - 1 : n)
    if (o === undefined) continue
    for (let m = n + 2, depth = 0; m < sig.length; m++) {
      if (isOp(at(m), "(")) depth++
      else if (isOp(at(m), ")") && --depth < 0) break
      const item = depth === 0 && (isOp(at(m - 1), "(") || isOp(at(m - 1), ",")) ? scalarAt(m) : undefined
      const whole = isOp(at(m + 1), ",") || isOp(at(m + 1), ")")
      if (item !== undefined && whole) throw refuse(o, item)
    }
  }
}
