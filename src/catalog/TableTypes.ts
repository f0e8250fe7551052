/**
 * AdbcConnectionGetTableTypes: the result schema (`table_type utf8 not null`, apache/arrow-adbc
 * go/adbc/standard_schemas.go `TableTypesSchema`) and a builder from the driver's list of types.
 */
import { Field, type RecordBatch, Schema, Utf8 } from "apache-arrow"
import { CatalogError } from "./CatalogError.ts"
import { recordBatch, utf8Data } from "./internal/arrowData.ts"

/** The exact ADBC GetTableTypes result schema. */
export const GET_TABLE_TYPES_SCHEMA = new Schema([new Field("table_type", new Utf8(), false)])

/**
 * Builds the GetTableTypes result: the driver's table types in the order given, each once.
 * Throws {@link CatalogError} `invalid-row` for a non-string entry.
 */
export const buildTableTypes = (tableTypes: ReadonlyArray<string>): RecordBatch => {
  for (const type of tableTypes) {
    if (typeof type !== "string") {
      throw new CatalogError("invalid-row", `GetTableTypes: table type must be a string, got ${String(type)}`)
    }
  }
  const unique = [...new Set(tableTypes)]
  return recordBatch(GET_TABLE_TYPES_SCHEMA, unique.length, [utf8Data(unique)])
}
