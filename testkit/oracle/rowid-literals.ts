/**
 * Character literals compared with the ROWID pseudocolumn: Oracle converts them to ROWID and raises ORA-01410
 * ("invalid ROWID", Oracle Database Error Messages, https://docs.oracle.com/en/error-help/db/ora-01410/) for text
 * that is no rowid, where a text comparison would quietly find no row; binds compared with ROWID likewise, checked by
 * the engine as the statement runs.
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, type Tok } from "./lexer.ts"

const COMPARISONS = new Set(["=", "<>", "!=", "^=", "<", ">", "<=", ">="])

/** The text of a rowid (below) as a regular expression both JavaScript and the engine's RE2 (`regexp_full_match`) read. */
export const ROWID_TEXT_PATTERN = "[A-Za-z0-9+/]{18}|[0-9A-Fa-f]{8}\\.[0-9A-Fa-f]{4}\\.[0-9A-Fa-f]{4}"

const ROWID_TEXT = new RegExp(`^(?:${ROWID_TEXT_PATTERN})$`)

/**
 * A rowid's text: the extended form (18 base-64 characters, SQL Language Reference "ROWID Data Type") or the
 * restricted one (block.row.file in hexadecimal, as DBMS_ROWID's restricted rowids).
 */
export const isRowidText = (text: string): boolean => ROWID_TEXT.test(text)

/** Throws ORA-01410 when the ROWID at `at` in `toks` is compared with (or looked up IN) a character literal that is no rowid. */
export const checkRowidComparison = (toks: ReadonlyArray<Tok>, at: number): void => {
  const isComparison = (t: Tok | undefined) => t?.kind === "op" && COMPARISONS.has(t.value)
  const after = isComparison(toks[at + 1]) ? toks[at + 2] : undefined
  const before = isComparison(toks[at - 1]) ? toks[at - 2] : undefined
  // `ROWID [NOT] IN ('...', ...)`: every literal of the list
  const inAt = isKw(toks[at + 1], "NOT") ? at + 2 : at + 1
  const inList = isKw(toks[inAt], "IN") && isOp(toks[inAt + 1], "(") ? toks.slice(inAt + 2, matchParen(toks, inAt + 1)) : []
  // `ROWID IN (SELECT ...)`: the subquery's literals are its own
  const listed = isKw(inList.find((t) => t.kind !== "ws"), "SELECT", "WITH") ? [] : inList
  for (const t of [after, before, ...listed])
    if (t?.kind === "str" && !isRowidText(t.value)) throw new OraError(1410, "invalid ROWID")
}

/** True when the token at `at` is the ROWID pseudocolumn itself (not `alias.ROWID`). */
const isRowid = (toks: ReadonlyArray<Tok>, at: number): boolean => isKw(toks[at], "ROWID") && toks[at]!.kind === "ident" && !isOp(toks[at - 1], ".")

/**
 * True when the bind at `at` is compared with ROWID (`ROWID = :r`, `:r <> ROWID`, `ROWID [NOT] IN (:a, :b)`): Oracle
 * converts its text to a ROWID once, before reading a row, and raises ORA-01410 for text that is no rowid (the
 * translation checks it with the `ora_rowid_text` macro, database-macros.ts).
 */
export const isRowidComparedBind = (toks: ReadonlyArray<Tok>, at: number): boolean => {
  const isComparison = (t: Tok | undefined) => t?.kind === "op" && COMPARISONS.has(t.value)
  if ((isComparison(toks[at - 1]) && isRowid(toks, at - 2)) || (isComparison(toks[at + 1]) && isRowid(toks, at + 2))) return true
  if (!(isOp(toks[at - 1], "(") || isOp(toks[at - 1], ",")) || !(isOp(toks[at + 1], ")") || isOp(toks[at + 1], ","))) return false
  let open = at - 1
  while (open >= 0 && !isOp(toks[open], "(")) {
    if (!isOp(toks[open], ",") && toks[open]?.kind !== "bind" && toks[open]?.kind !== "str") return false
    open--
  }
  if (!isKw(toks[open - 1], "IN")) return false
  return isRowid(toks, open - 2) || (isKw(toks[open - 2], "NOT") && isRowid(toks, open - 3))
}
