/**
 * The shell's line history, kept in a file between sessions (`~/.adbc_history` unless `--history` says otherwise):
 * one entry a line, oldest first, as bash and psql keep theirs; capped at {@link HISTORY_SIZE} entries.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { homedir } from "node:os"
import { dirname, join } from "node:path"
import { Effect } from "effect"

/** Entries kept, in memory and in the file. */
export const HISTORY_SIZE = 1000

/** Where the history is kept when no `--history` is given. */
export const defaultHistoryFile = (): string => join(homedir(), ".adbc_history")

/** The entries of `file`, newest first (as readline's `history` option takes them); none when it does not exist. */
export const loadHistory = (file: string): Effect.Effect<Array<string>> =>
  Effect.promise(() =>
    readFile(file, "utf8").then(
      (text) => text.split("\n").filter((line) => line.trim() !== "").slice(-HISTORY_SIZE).reverse(),
      () => []
    )
  )

/**
 * Writes `entries` (newest first) to `file`, oldest first, readable by its owner only (statements may name
 * passwords). Returns the error's message when it cannot be written: the session's end must not fail on it.
 */
export const saveHistory = (file: string, entries: ReadonlyArray<string>): Effect.Effect<string | undefined> =>
  Effect.promise(async () => {
    try {
      await mkdir(dirname(file), { recursive: true })
      const lines = entries.slice(0, HISTORY_SIZE).reverse()
      await writeFile(file, lines.length === 0 ? "" : `${lines.join("\n")}\n`, { mode: 0o600 })
      return undefined
    } catch (cause) {
      return cause instanceof Error ? cause.message : String(cause)
    }
  })
