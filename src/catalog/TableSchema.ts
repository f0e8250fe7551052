/**
 * AdbcConnectionGetTableSchema: the Arrow schema of a table from its column descriptions.
 */
import { type DataType, Field, Schema } from "apache-arrow"

/** One column of a table, in table order. */
export interface TableColumnDescription {
  readonly name: string
  readonly type: DataType
  /** Defaults to `true`. */
  readonly nullable?: boolean | undefined
  /** Field metadata, e.g. a vendor type name. */
  readonly metadata?: ReadonlyMap<string, string> | undefined
}

/** Builds a table's Arrow schema; fields keep the given order, names and nullability. */
export const buildTableSchema = (
  columns: ReadonlyArray<TableColumnDescription>,
  metadata?: ReadonlyMap<string, string>
): Schema =>
  new Schema(
    columns.map(
      (c) => new Field(c.name, c.type, c.nullable ?? true, c.metadata === undefined ? null : new Map(c.metadata))
    ),
    metadata === undefined ? null : new Map(metadata)
  )
