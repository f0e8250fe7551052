/**
 * Catalog results built in the driver-independent core: GetInfo, GetObjects, GetTableTypes, GetStatistics,
 * GetStatisticNames, GetTableSchema and GetParameterSchema, from plain values a driver supplies; plus the
 * search-pattern matcher and XDBC helpers drivers use to produce those values.
 */
export { CatalogError, type CatalogErrorKind, isCatalogError } from "./CatalogError.ts"
export type { Cell } from "./internal/arrowData.ts"
export {
  AdbcVersion,
  buildGetInfo,
  GET_INFO_SCHEMA,
  InfoCode,
  type InfoCodeName,
  InfoValue,
  InfoValueType,
  InfoValueTypeId,
  type InfoValues
} from "./GetInfo.ts"
export {
  buildGetObjects,
  type CatalogRows,
  type ColumnRow,
  CONSTRAINT_TYPES,
  type ConstraintRow,
  type ConstraintType,
  type ConstraintUsageRow,
  type GetObjectsFilters,
  type SchemaRow,
  type TableRow
} from "./GetObjects.ts"
export {
  COLUMN_SCHEMA,
  CONSTRAINT_SCHEMA,
  DB_SCHEMA_SCHEMA,
  GET_OBJECTS_SCHEMA,
  isObjectDepth,
  ObjectDepth,
  objectDepthLevels,
  type ObjectDepthLevels,
  TABLE_SCHEMA,
  USAGE_SCHEMA
} from "./GetObjectsSchema.ts"
export { buildParameterSchema, type ParameterDescription } from "./ParameterSchema.ts"
export {
  compilePattern,
  matchesPattern,
  type PatternMatcher,
  type PatternPushdown,
  patternPushdown,
  patternToRegExpSource
} from "./Pattern.ts"
export {
  buildGetStatisticNames,
  buildGetStatistics,
  GET_STATISTIC_NAMES_SCHEMA,
  GET_STATISTICS_SCHEMA,
  type GetStatisticsFilters,
  StandardStatistic,
  type StatisticRow,
  STATISTICS_DB_SCHEMA_SCHEMA,
  STATISTICS_SCHEMA,
  type StatisticValue,
  StatisticValueType
} from "./Statistics.ts"
export { buildTableSchema, type TableColumnDescription } from "./TableSchema.ts"
export { buildTableTypes, GET_TABLE_TYPES_SCHEMA } from "./TableTypes.ts"
export {
  type ColumnLocation,
  columnRowFromField,
  XdbcDataType,
  xdbcDataTypeOf,
  XdbcNullable
} from "./Xdbc.ts"
