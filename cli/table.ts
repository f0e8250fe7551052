/**
 * The one aligned-table renderer of the command line (`adbc query`'s table format, the demo's summary): columns padded
 * by display width, as a terminal shows them (a CJK character or an emoji takes two columns; string-width measures
 * it), not by UTF-16 units.
 */
import stringWidth from "string-width"

/** How a rendered table looks. */
export interface TableStyle {
  /** Between two cells: `" | "` for query results, `"  "` for the demo's summary. */
  readonly separator: string
  /** Under the header, where columns meet: `"-+-"` or `"  "`. */
  readonly ruleJoint: string
}

/** The display width of `text`: terminal columns. */
export const displayWidth = (text: string): number => stringWidth(text)

const pad = (text: string, width: number, right: boolean): string => {
  const fill = " ".repeat(Math.max(0, width - displayWidth(text)))
  return right ? fill + text : text + fill
}

/**
 * `header` and `rows` as aligned lines: each column as wide as its widest cell, cells in `rightAligned` columns
 * padded on the left, a rule under the header; trailing blanks dropped.
 */
export const renderTable = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  rightAligned: (column: number) => boolean,
  style: TableStyle
): Array<string> => {
  const widths = header.map((h, c) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[c] ?? ""))))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, c) => pad(cell, widths[c]!, rightAligned(c))).join(style.separator).trimEnd()
  return [line(header), widths.map((w) => "-".repeat(w)).join(style.ruleJoint), ...rows.map(line)]
}

/**
 * `text` cut to at most `width` display columns, ending in `…` when cut (a wide character that would straddle the
 * edge is left out whole).
 */
export const truncateToWidth = (text: string, width: number): string => {
  if (displayWidth(text) <= width) return text
  let out = ""
  let used = 0
  for (const char of new Intl.Segmenter().segment(text)) {
    const w = displayWidth(char.segment)
    if (used + w > Math.max(1, width - 1)) break
    out += char.segment
    used += w
  }
  return `${out}…`
}
