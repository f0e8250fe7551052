/**
 * CHAR / NCHAR values stored blank-padded. Oracle holds a CHAR(n) value padded to its length: "If you insert a value
 * that is shorter than the column length, then Oracle blank-pads the value to column length" (SQL Language
 * Reference, "CHAR Data Type"; NCHAR likewise, in characters). So every value an INSERT, UPDATE or MERGE writes into
 * a CHAR / NCHAR column (literals, binds, PL/SQL variables, computed values, a query's items) is wrapped in
 * `ora_attribute_char(CAST(v AS VARCHAR2(32767)), n, in characters)`, which pads it to n bytes (characters when
 * national or declared `n CHAR`) and leaves a longer value to the column's ORA-12899 check. Functions, aggregates,
 * views and derived tables then see Oracle's value without further rewriting; comparisons are char-operands.ts'. An
 * INSERT's star select items are first written as the columns they stand for (insert-select-stars.ts).
 */
import type { ColumnMeta, TableMeta } from "./catalog.ts"
import type { Tok } from "./lexer.ts"
import { expandedInsertSelectStars } from "./insert-select-stars.ts"
import { castWrites, frameWrites, type TableLookup } from "./number-writes.ts"
import { Dty, type OraType } from "./types.ts"

/** Whether `type` is CHAR(n) / NCHAR(n). */
export const isBlankPadded = (type: OraType): boolean => type.dty === Dty.CHAR && (type.kind === "varchar" || type.kind === "nvarchar")

/** Whether a CHAR / NCHAR type's size counts characters (national, or declared `n CHAR`) rather than bytes. */
export const sizedInCharacters = (type: OraType): boolean => type.kind === "nvarchar" || type.charSemantics === true

/** The DuckDB SQL of `sql` (a character value) blank-padded to `type`'s size. */
export const blankPaddedSql = (sql: string, type: OraType): string => `ora_attribute_char(${sql}, ${type.charSize}, ${sizedInCharacters(type) ? "TRUE" : "FALSE"})`

/** `text` blank-padded to `type`'s size (bytes, or characters), a longer text as it is. */
export const blankPaddedText = (text: string, type: OraType): string => {
  const width = sizedInCharacters(type) ? [...text].length : Buffer.byteLength(text, "utf8")
  return width >= type.charSize ? text : text + " ".repeat(type.charSize - width)
}

/** The padding a CHAR column's values get: its size and how it is counted. */
const paddingOf = (c: ColumnMeta): string => `${c.type.charSize}, ${sizedInCharacters(c.type) ? "TRUE" : "FALSE"}`

/** `all` (a statement's tokens) with the values an INSERT, UPDATE or MERGE writes into CHAR / NCHAR columns blank-padded. */
export const blankPaddedWrites = (all: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  let written: TableMeta | undefined
  castWrites(all, lookup, (meta) => ((written = meta), new Set()), [])
  const columns = (written?.columns ?? []).filter((c) => isBlankPadded(c.type))
  if (columns.length === 0) return all
  // an INSERT's `*` / `q.*` items as the columns they stand for, so that each value written is padded
  let out = expandedInsertSelectStars(all, lookup, true)
  for (const padding of new Set(columns.map(paddingOf))) {
    const names = new Set(columns.filter((c) => paddingOf(c) === padding).map((c) => c.name))
    out = frameWrites(out, lookup, () => names, "ora_attribute_char(CAST(", ` AS VARCHAR2(32767)), ${padding})`)
  }
  return out
}
