/**
 * Generic {@link Page} implementations over already-decoded JS values, using each builder's `append(value)`.
 * Drivers with a wire format of their own implement `Page` directly with the type-specific fast paths.
 */
import type { Page } from "./BatchAssembler.ts"
import { type ByteBudget, rowValueBytes } from "./ByteBudget.ts"
import type { ColumnBuilder } from "./ColumnBuilder.ts"

/** A page over row arrays (`rows[r][c]` is column `c` of row `r`); decoded column by column. */
export const rowsPage = (rows: ReadonlyArray<ReadonlyArray<unknown>>): Page => {
  let position = 0
  return {
    appendRows(builders: ReadonlyArray<ColumnBuilder>, maxRows: number): number {
      const count = Math.min(maxRows, rows.length - position)
      const end = position + count
      for (let c = 0; c < builders.length; c++) {
        const builder = builders[c]!
        for (let r = position; r < end; r++) builder.append(rows[r]![c])
      }
      position = end
      return count
    },
    appendRowsWithin(builders: ReadonlyArray<ColumnBuilder>, maxRows: number, budget: ByteBudget): number {
      const end = position + Math.min(maxRows, rows.length - position)
      const start = position
      while (position < end) {
        const row = rows[position]!
        if (!budget.admits(rowValueBytes(row))) break
        for (let c = 0; c < builders.length; c++) builders[c]!.append(row[c])
        position++
        if (budget.full()) break
      }
      return position - start
    }
  }
}

/** A page over row objects (`rows[r][keys[c]]` is column `c` of row `r`), as `hdb` returns them. */
export const recordsPage = (
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  keys: ReadonlyArray<string>
): Page => {
  let position = 0
  return {
    appendRows(builders: ReadonlyArray<ColumnBuilder>, maxRows: number): number {
      const count = Math.min(maxRows, rows.length - position)
      const end = position + count
      for (let c = 0; c < builders.length; c++) {
        const builder = builders[c]!
        const key = keys[c]!
        for (let r = position; r < end; r++) builder.append(rows[r]![key])
      }
      position = end
      return count
    }
  }
}

/** A page over columns (`columns[c][r]`); all columns must have the same length. */
export const columnsPage = (columns: ReadonlyArray<ArrayLike<unknown>>): Page => {
  const length = columns.length === 0 ? 0 : columns[0]!.length
  let position = 0
  return {
    appendRows(builders: ReadonlyArray<ColumnBuilder>, maxRows: number): number {
      const count = Math.min(maxRows, length - position)
      const end = position + count
      for (let c = 0; c < builders.length; c++) {
        const builder = builders[c]!
        const column = columns[c]!
        for (let r = position; r < end; r++) builder.append(column[r])
      }
      position = end
      return count
    }
  }
}
