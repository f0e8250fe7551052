/**
 * `RENAME TABLE [<schema>.]<table> TO <new name>` and `RENAME COLUMN [<schema>.]<table>.<column> TO <new name>`
 * (SAP HANA SQL Reference, "RENAME TABLE Statement", "RENAME COLUMN Statement"), as DuckDB's ALTER TABLE ... RENAME.
 * The new table name has no schema: the table stays in its own. A column keeps its declared type and length check.
 */
import { renameColumnOptions } from "./column-options.ts"
import { qualified, qualifiedName } from "./ddl.ts"
import { HanaError } from "./errors.ts"
import { identOf, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { quoteName } from "./names.ts"
import type { Translated } from "./translated.ts"

/** The name after `TO` at `i`, ending the statement. */
const newNameAt = (all: readonly Token[], i: number, what: string): string => {
  const name = identOf(all[i + 1])
  if (upper(all[i]) !== "TO" || name === undefined || all.length !== i + 2) throw HanaError.syntax(`RENAME ${what} ... TO <new name> expected`, 0)
  return name
}

/** RENAME TABLE / RENAME COLUMN as DDL. */
export const translateRename = (all: Token[]): Translated => {
  const what = upper(all[1])
  if (what === "TABLE") {
    const [schema, table, used] = qualifiedName(all, 2)
    return { kind: "ddl", sql: `ALTER TABLE ${qualified(schema, table)} RENAME TO ${quoteName(newNameAt(all, 2 + used, "TABLE"))}`, params: 0 }
  }
  if (what === "COLUMN") {
    const parts: string[] = []
    let i = 2
    for (;;) {
      const part = identOf(all[i])
      if (part === undefined) throw HanaError.syntax("RENAME COLUMN <table>.<column> TO <new name> expected", 0)
      parts.push(part)
      i++
      if (all[i]?.t !== "op" || all[i]!.v !== ".") break
      i++
    }
    if (parts.length < 2 || parts.length > 3) throw HanaError.syntax("RENAME COLUMN <table>.<column> TO <new name> expected", 0)
    const column = parts.pop()!
    const table = parts.pop()!
    const target = qualified(parts[0], table)
    const to = newNameAt(all, i, "COLUMN")
    return {
      kind: "ddl",
      sql: `ALTER TABLE ${target} RENAME COLUMN ${quoteName(column)} TO ${quoteName(to)}; ${renameColumnOptions(parts[0], table, column, to)}`,
      params: 0,
      renamedColumn: { table: target, from: column, to }
    }
  }
  throw HanaError.syntax("RENAME TABLE or RENAME COLUMN expected", 0)
}
