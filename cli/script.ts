/**
 * A SQL script cut into its statements, as `adbc query -f FILE` and `adbc shell` run them: statements end with `;`
 * outside quotes and comments; a procedural block (one that starts with BEGIN or DECLARE, or CREATE [OR REPLACE] of a
 * PROCEDURE, FUNCTION, PACKAGE, TRIGGER or TYPE) holds `;` of its own, so it ends instead at a line holding only `/`,
 * as in Oracle's SQL*Plus and SQLcl, or at the end of the script.
 */

/** One statement of a script and the line it starts on (1-based). */
export interface ScriptStatement {
  readonly sql: string
  readonly line: number
}

const BLOCK_START =
  /^(?:BEGIN\b|DECLARE\b|CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:NON)?EDITIONABLE\s+)?(?:PROCEDURE|FUNCTION|PACKAGE|TRIGGER|TYPE)\b)/i

/** Whether `sql` (its comments already skipped) opens a procedural block that only a `/` line ends. */
const isBlock = (sql: string): boolean => BLOCK_START.test(sql)

/** `sql` without leading blanks and `--` / `/* … *\/` comments. */
const skipLeadingComments = (sql: string): string => {
  let rest = sql.trimStart()
  for (;;) {
    if (rest.startsWith("--")) {
      const end = rest.indexOf("\n")
      rest = end < 0 ? "" : rest.slice(end + 1).trimStart()
    } else if (rest.startsWith("/*")) {
      const end = rest.indexOf("*/")
      rest = end < 0 ? "" : rest.slice(end + 2).trimStart()
    } else return rest
  }
}

/** State of a script read so far: whether it ends inside a statement that needs more lines. */
export interface ScriptSplit {
  /** The complete statements. */
  readonly statements: ReadonlyArray<ScriptStatement>
  /** Text after the last complete statement (blank when none). */
  readonly rest: string
}

/**
 * Cuts `text` into complete statements and the unfinished rest: a statement ends at a `;` outside quotes (`'…'`,
 * `"…"`) and comments, or, for a procedural block, at a line holding only `/`. The `;` or `/` is not part of the
 * statement; blank statements are dropped.
 */
export const splitScript = (text: string): ScriptSplit => {
  const statements: Array<ScriptStatement> = []
  let start = 0
  let line = 1
  let startLine = 1
  let i = 0
  const push = (end: number) => {
    const raw = text.slice(start, end)
    const body = skipLeadingComments(raw)
    if (body.trim() !== "") statements.push({ sql: body.trim(), line: startLine + countNewlines(raw, 0, raw.length - body.length) })
  }
  while (i < text.length) {
    const ch = text[i]!
    if (ch === "\n") {
      line++
      i++
      continue
    }
    if (ch === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i)
      i = end < 0 ? text.length : end
      continue
    }
    if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2)
      const stop = end < 0 ? text.length : end + 2
      line += countNewlines(text, i, stop)
      i = stop
      continue
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1
      for (; j < text.length; j++) {
        if (text[j] === ch) {
          if (text[j + 1] === ch) j++
          else break
        }
      }
      const stop = Math.min(j + 1, text.length)
      line += countNewlines(text, i, stop)
      i = stop
      continue
    }
    if (ch === "/" && isAloneOnLine(text, i)) {
      push(i)
      const end = text.indexOf("\n", i)
      i = end < 0 ? text.length : end
      start = i
      startLine = line
      continue
    }
    if (ch === ";" && !isBlock(skipLeadingComments(text.slice(start, i)))) {
      push(i)
      i++
      start = i
      startLine = line
      continue
    }
    i++
  }
  return { statements, rest: text.slice(start) }
}

/** Every statement of a whole script: the unfinished rest, if not blank, is its last statement. */
export const scriptStatements = (text: string): ReadonlyArray<ScriptStatement> => {
  const { rest, statements } = splitScript(text)
  const body = skipLeadingComments(rest)
  const line = countNewlines(text, 0, text.length - body.length) + 1
  return body.trim() === "" ? statements : [...statements, { sql: body.trim(), line }]
}

const countNewlines = (text: string, from: number, to: number): number => {
  let n = 0
  for (let k = from; k < to; k++) if (text[k] === "\n") n++
  return n
}

/** Whether the `/` at `at` is the only non-blank character of its line. */
const isAloneOnLine = (text: string, at: number): boolean => {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1
  const lineEnd = text.indexOf("\n", at)
  return text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).trim() === "/"
}

/** Words between CREATE / DROP / ALTER and the kind of object they make: `CREATE OR REPLACE`, `CREATE COLUMN TABLE`, … */
const DDL_MODIFIERS = new Set([
  "OR", "REPLACE", "COLUMN", "ROW", "GLOBAL", "LOCAL", "TEMPORARY", "PRIVATE", "UNIQUE", "BITMAP", "PUBLIC", "VIRTUAL",
  "HISTORY", "EDITIONABLE", "NONEDITIONABLE", "FORCE", "NO", "SHARDED", "DUPLICATED", "IMMUTABLE", "BLOCKCHAIN"
])

/** The words a status line names a statement by: `CREATE TABLE` (also for `CREATE COLUMN TABLE`), `INSERT`, `BEGIN`, … */
export const statementVerb = (sql: string): string => {
  const words = skipLeadingComments(sql).split(/\s+/, 8).map((w) => w.toUpperCase().replace(/[^A-Z_]/g, ""))
  const first = words[0] ?? ""
  if (!["CREATE", "DROP", "ALTER", "TRUNCATE"].includes(first)) return first
  const object = words.slice(1).find((word) => word !== "" && !DDL_MODIFIERS.has(word))
  return object === undefined ? first : `${first} ${object}`
}
