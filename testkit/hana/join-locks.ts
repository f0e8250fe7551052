/**
 * The rows `SELECT ... FOR UPDATE` locks when it reads several tables (joins, comma lists): the rows of each table
 * it reads, or with `FOR UPDATE OF <column_list>` only those of the tables the columns belong to (SAP HANA SQL
 * Reference, "SELECT Statement", for_update_clause; a column without a table qualifier names every table). Each
 * table's rows are found by the statement's own FROM and WHERE, reading that table's DuckDB row ids (row-locks.ts
 * keeps the locks; the outer side of an outer join that matched nothing locks nothing).
 */
import { matching, type Token, upper } from "./lexer.ts"
import { nameOf, paramsIn, tableAt, topLevel } from "./row-locks.ts"

/** One table a multi-table FOR UPDATE locks: its name and the qualifier its row ids are read through. */
export interface JoinedTable {
  readonly schema: string | undefined
  readonly table: string
  /** The alias, or the table name without one (HANA name). */
  readonly qualifier: string
}

/** The tables a multi-table FOR UPDATE locks and the FROM ... WHERE tokens that find their rows. */
export interface JoinedRows {
  readonly tables: ReadonlyArray<JoinedTable>
  /** The tokens after FROM up to GROUP / ORDER / LIMIT / HAVING / set operators (WHERE included). */
  readonly from: ReadonlyArray<Token>
  readonly firstParam: number
  readonly params: number
}

const NOT_ALIASES = new Set(["ON", "USING", "WHERE", "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "OUTER", "NATURAL"])
const isOp = (t: Token | undefined, v: string): boolean => t !== undefined && t.t === "op" && t.v === v

/**
 * The tables of `SELECT ... FROM a JOIN b ... | FROM a, b ... [WHERE ...]` (`toks`: the query without its FOR
 * UPDATE clause; `clause`: the tokens after `FOR UPDATE`), or undefined when the FROM clause names fewer than two
 * tables (selectedRows in row-locks.ts handles one). Subqueries in FROM lock nothing.
 */
export const joinedRows = (toks: ReadonlyArray<Token>, clause: ReadonlyArray<Token>): JoinedRows | undefined => {
  const from = topLevel(toks, 1, ["FROM"])[0]
  if (from === undefined) return undefined
  const end = topLevel(toks, from + 1, ["GROUP", "ORDER", "LIMIT", "HAVING", "UNION", "EXCEPT", "INTERSECT", "MINUS"])[0] ?? toks.length
  const fromEnd = topLevel(toks, from + 1, ["WHERE"])[0] ?? end
  const tables: Array<JoinedTable> = []
  let expectTable = true
  for (let k = from + 1; k < fromEnd; k++) {
    const tok = toks[k]
    if (isOp(tok, "(")) {
      k = matching(toks, k)
      expectTable = false
    } else if (isOp(tok, ",") || upper(tok) === "JOIN") expectTable = true
    else if (expectTable) {
      const named = tableAt(toks, k)
      expectTable = false
      if (named === undefined) continue
      k += named.used
      const aliasAt = upper(toks[k]) === "AS" ? k + 1 : k
      const alias = toks[aliasAt] !== undefined && !NOT_ALIASES.has(upper(toks[aliasAt])) && aliasAt < fromEnd ? nameOf(toks[aliasAt]) : undefined
      tables.push({ schema: named.schema, table: named.table, qualifier: alias ?? named.table })
      k = alias === undefined ? k - 1 : aliasAt
    }
  }
  if (tables.length < 2) return undefined
  return { tables: lockedByOf(tables, clause), from: toks.slice(from + 1, end), firstParam: paramsIn(toks.slice(0, from + 1)), params: paramsIn(toks.slice(from + 1, end)) }
}

/** The tables `FOR UPDATE OF q.col, ...` names (all of them without OF or with an unqualified column). */
const lockedByOf = (tables: ReadonlyArray<JoinedTable>, clause: ReadonlyArray<Token>): ReadonlyArray<JoinedTable> => {
  if (upper(clause[0]) !== "OF") return tables
  const stop = clause.findIndex((t) => ["WAIT", "NOWAIT", "IGNORE"].includes(upper(t)))
  const columns = clause.slice(1, stop < 0 ? clause.length : stop)
  const qualifiers = new Set<string>()
  let unqualified = false
  for (let k = 0; k < columns.length; k++) {
    if (isOp(columns[k], ",")) continue
    if (isOp(columns[k + 1], ".")) {
      qualifiers.add(nameOf(columns[k]) ?? "")
      k += 2
    } else unqualified = true
  }
  return unqualified ? tables : tables.filter((t) => qualifiers.has(t.qualifier))
}
