/**
 * Name transforms between JavaScript's camelCase and the upper-case names HANA and Oracle give unquoted
 * identifiers, for `transformResultNames` / `transformQueryNames`.
 *
 * @since 0.1.0
 */
import { String as Str } from "effect"

/**
 * A database name as camelCase: `ORDER_ID` → `orderId` (mixed-case names, which were quoted when created, are kept).
 *
 * @category transforms
 * @since 0.1.0
 */
export const fromDatabaseName = (name: string): string =>
  name === name.toUpperCase() ? Str.snakeToCamel(name.toLowerCase()) : name

/**
 * A camelCase name as the database's unquoted form: `orderId` → `ORDER_ID` (names without lower case are kept).
 *
 * @category transforms
 * @since 0.1.0
 */
export const toDatabaseName = (name: string): string =>
  name === name.toUpperCase() ? name : Str.camelToSnake(name).toUpperCase()
