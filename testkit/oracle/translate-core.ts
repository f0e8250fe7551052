/**
 * What the rewrite modules get of the translator (translate.ts's Translator implements it), so that none of them
 * imports the class: the operand predicates, the walk's entry points and the state a top-level query's select list
 * sets for its ORDER BY and grouping.
 */
import type { InstantGrouping } from "./datetime-groups.ts"
import type { TranslatorOperands } from "./translate-operands.ts"
import type { TextDatetimeKind } from "./translate-types.ts"

/** The translator walking one statement, as translate-numbers.ts, translate-datetimes.ts, ... call back into it. */
export interface TranslatorCore extends TranslatorOperands {
  /** Translates tokens [from, to), rewriting Oracle operator semantics where needed. */
  range(from: number, to: number): string
  /** Token-by-token translation of [from, to). */
  plain(from: number, to: number): string
  /** The argument ranges of the parenthesis opening at `open`, and its closing index. */
  args(open: number): { parts: Array<[number, number]>; close: number }
  /** Select-list positions and names of exact NUMBER columns, by what ORDER BY may call them (their column text). */
  readonly exactOrderItems: ReadonlyMap<string, string>
  /** Select-list items that are text datetimes, by the position or name ORDER BY may call them (their expression). */
  readonly datetimeOrderItems: ReadonlyMap<string, { readonly text: string; readonly kind: TextDatetimeKind }>
  /** Sets the select list's exact NUMBER columns that ORDER BY may name by position or alias. */
  orderByExactItems(items: ReadonlyMap<string, string>): void
  /** Sets the select list's text datetime items that ORDER BY may name by position or alias. */
  orderByDatetimeItems(items: ReadonlyMap<string, { readonly text: string; readonly kind: TextDatetimeKind }>): void
  /** The statement's grouping by instant (datetime-groups.ts), computed on first use. */
  instantGrouping: InstantGrouping | undefined
  /** Starts of the grouped expressions being rendered by groupedExpression (their own rendering is plain). */
  readonly groupedRendering: Set<number>
}
