/**
 * AdbcStatementGetParameterSchema: the Arrow schema describing a prepared statement's parameters.
 *
 * adbc.h (AdbcStatementGetParameterSchema): "the fields of the schema should be named according to the
 * parameter names, or an empty string if unnamed; if the type of a parameter cannot be determined, the field
 * type should be NA (NullType)".
 */
import { type DataType, Field, Null, Schema } from "apache-arrow"

/** What a driver knows about one bind parameter, in parameter order. */
export interface ParameterDescription {
  /** Parameter name (`:name` style); absent/null/"" for positional parameters. */
  readonly name?: string | null | undefined
  /** The Arrow type a value should be bound as; absent/null when the driver cannot tell. */
  readonly type?: DataType | null | undefined
  /** Defaults to `true`: parameters accept NULL unless the driver knows better. */
  readonly nullable?: boolean | undefined
  /** Field metadata, e.g. a vendor type name. */
  readonly metadata?: ReadonlyMap<string, string> | undefined
}

/**
 * Builds the parameter schema: unnamed parameters get the name `""`, unknown types the Null type.
 * Note: apache-arrow 21's IPC writer omits an empty field name and its own reader then yields `"null"`;
 * C++/Go/Python readers read it back as `""`.
 */
export const buildParameterSchema = (parameters: ReadonlyArray<ParameterDescription>): Schema =>
  new Schema(
    parameters.map(
      (p) =>
        new Field(
          p.name ?? "",
          p.type ?? new Null(),
          p.nullable ?? true,
          p.metadata === undefined ? null : new Map(p.metadata)
        )
    )
  )
