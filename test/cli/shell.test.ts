/**
 * `adbc shell` as a user meets it: the built bin on a pseudo-terminal (util-linux `script` allocates it, so readline
 * runs in terminal mode, as at a keyboard) against HANA test servers. Input is typed as keys (`\r` for Enter, `\x03`
 * for Ctrl-C, `\x04` for Ctrl-D, `\x1b[A` for Up); every step waits for what the shell prints next (its prompt), never
 * for time to pass. A piped script runs in-process: no prompts, only what its statements print.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type HanaTestServerHandle, startHanaTestServer } from "../../testkit/hana/index.ts"
import { buildBin, root, runInProcess } from "./support.ts"

let hana: HanaTestServerHandle
const dir = mkdtempSync(join(tmpdir(), "adbc-shell-"))

beforeAll(async () => {
  hana = await startHanaTestServer()
}, 120_000)
afterAll(async () => {
  await hana?.close()
})

/** A shell on a pseudo-terminal. */
interface PtyShell {
  /** What the terminal shows so far, without escape sequences and carriage returns. */
  readonly screen: () => string
  /** Types `keys`; the next {@link until} looks only at what is printed after them. */
  readonly type: (keys: string) => void
  /** Resolves with what was printed since the last {@link type} once it matches `pattern`. */
  readonly until: (pattern: RegExp) => Promise<string>
  /** The exit code once the shell has ended. */
  readonly exit: Promise<number | null>
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]/g
/** How readline redraws its line: the cursor to column 1, then the screen cleared below it. */
const REDRAW = "\x1b[1G\x1b[0J"

/** `output` as the terminal shows it, for the one way readline redraws a line here (a line never wraps in these tests). */
const render = (output: string): string =>
  output.split(REDRAW).reduce((shown, next) => shown.slice(0, shown.lastIndexOf("\n") + 1) + next).replace(ESCAPES, "")
    .replaceAll("\r", "")

/** Starts `adbc shell …args` (the built `bin`) on a pseudo-terminal of its own. */
const startShell = (bin: string, args: ReadonlyArray<string>): PtyShell => {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("ADBC_") && key !== "HANA_URI" && key !== "ORACLE_URI") env[key] = value
  }
  const command = [process.execPath, bin, "shell", ...args].map(quote).join(" ")
  // -e: script exits with the shell's exit code; -q: no "Script started" banner.
  const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], { cwd: root, env, stdio: ["pipe", "pipe", "pipe"] })
  let raw = ""
  let mark = 0
  const watchers = new Set<() => void>()
  const screen = () => render(raw)
  const onData = (chunk: Buffer) => {
    raw += chunk.toString("utf8")
    for (const watcher of [...watchers]) watcher()
  }
  child.stdout.on("data", onData)
  child.stderr.on("data", onData)
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
  return {
    screen,
    exit,
    type: (keys) => {
      mark = raw.length
      child.stdin.write(keys)
    },
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(check)
          reject(new Error(`timed out waiting for ${pattern}; the terminal shows:\n${screen()}`))
        }, 60_000)
        function check() {
          const since = render(raw.slice(mark))
          if (pattern.test(since)) {
            clearTimeout(timer)
            watchers.delete(check)
            resolve(since)
          }
        }
        watchers.add(check)
        void exit.then(() => {
          if (watchers.has(check)) {
            clearTimeout(timer)
            watchers.delete(check)
            reject(new Error(`the shell ended before printing ${pattern}; the terminal shows:\n${screen()}`))
          }
        })
        check()
      })
  }
}

/** The prompt, at the end of what was printed. */
const PROMPT = /\nhana> $/

describe.concurrent("adbc shell on a terminal", { timeout: 300_000 }, () => {
  it("runs a statement typed over several lines, \\dt, \\d, \\d T, \\timing, \\format csv, goes on after an error, and exits 0 on \\q", async () => {
    const shell = startShell(await buildBin(), ["--uri", hana.uri, "--history", join(dir, "h1")])
    await shell.until(/hana> $/)
    shell.type("CREATE TABLE SHELL_T (K INT NOT NULL, NAME NVARCHAR(20));\r")
    expect(await shell.until(PROMPT)).toContain("CREATE TABLE: done\n")
    shell.type("INSERT INTO SHELL_T VALUES (1, 'one');\r")
    expect(await shell.until(PROMPT)).toContain("INSERT: 1 row affected\n")
    // A statement over three lines: the continuation prompt until its `;`.
    shell.type("SELECT K, NAME\r")
    await shell.until(/\n {3}-> $/)
    shell.type("  FROM SHELL_T\r")
    await shell.until(/\n {3}-> $/)
    shell.type("  WHERE K = 1;\r")
    expect(await shell.until(PROMPT)).toMatch(/\nK \| NAME\n--\+-----\n1 \| one\n\(1 row\)\nhana> $/)

    shell.type("\\dt\r")
    expect(await shell.until(PROMPT)).toMatch(/\nschema +\| name +\| type *\n[-+]+\nSYSTEM +\| SHELL_T +\| TABLE *\n/)
    shell.type("\\d\r")
    expect(await shell.until(PROMPT)).toMatch(/\nSYSTEM +\| SHELL_T +\| TABLE *\n/)
    // An unquoted name finds the upper-case table, as SQL does.
    shell.type("\\d shell_t\r")
    expect(await shell.until(PROMPT)).toMatch(
      /\ntable SYSTEM\.SHELL_T\ncolumn \| type +\| nullable\n[-+]+\nK +\| INTEGER +\| NO *\nNAME +\| NVARCHAR +\| YES *\n\(2 rows\)\n/
    )
    shell.type("\\d NO_SUCH_TABLE\r")
    expect(await shell.until(PROMPT)).toContain("error: INVALID_ARGUMENT: no table NO_SUCH_TABLE in schema SYSTEM; \\d lists them\n")

    shell.type("\\timing\r")
    expect(await shell.until(PROMPT)).toContain("Timing is on.\n")
    shell.type("SELECT 1 AS X FROM DUMMY;\r")
    expect(await shell.until(PROMPT)).toMatch(/\n\(1 row\)\nTime: \d+\.\d{3} ms\nhana> $/)
    shell.type("\\timing off\r")
    expect(await shell.until(PROMPT)).toContain("Timing is off.\n")

    shell.type("\\format csv\r")
    expect(await shell.until(PROMPT)).toContain("Output format is csv.\n")
    shell.type("SELECT K, NAME FROM SHELL_T;\r")
    expect(await shell.until(PROMPT)).toMatch(/\nK,NAME\n1,one\nhana> $/)
    shell.type("\\format xml\r")
    expect(await shell.until(PROMPT)).toContain("error: INVALID_ARGUMENT: \\format takes table, csv, jsonl, not xml\n")

    shell.type("\\bogus\r")
    expect(await shell.until(PROMPT)).toContain("error: INVALID_ARGUMENT: unknown command \\bogus; \\? lists the commands\n")
    shell.type("SELECT FROM;\r")
    expect(await shell.until(PROMPT)).toMatch(/\nerror: INVALID_ARGUMENT \(vendor code 257, SQLSTATE 42000\): .*\nhana> $/)
    shell.type("SELECT 2 AS Y FROM DUMMY;\r")
    expect(await shell.until(PROMPT)).toMatch(/\nY\n2\nhana> $/)
    shell.type("\\?\r")
    expect(await shell.until(PROMPT)).toContain("\\timing [on|off]")

    shell.type("\\q\r")
    expect(await shell.exit).toBe(0)
  })

  it("cancels a long statement on Ctrl-C, closing its server cursor, and answers the next one", async () => {
    // A server of its own: its open cursors are this test's only.
    const server = await startHanaTestServer()
    try {
      const shell = startShell(await buildBin(), ["--uri", server.uri, "--history", join(dir, "h2")])
      await shell.until(/hana> $/)
      shell.type("SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 1, 50000001);\r")
      await until(() => server.openResultSets() > 0)
      shell.type("\x03")
      expect(await shell.until(PROMPT)).toMatch(/^cancelled\nhana> $/)
      await until(() => server.openResultSets() === 0)
      shell.type("SELECT 3 AS Z FROM DUMMY;\r")
      expect(await shell.until(PROMPT)).toMatch(/\nZ\n-\n3\n\(1 row\)\nhana> $/)
      shell.type("\x04")
      expect(await shell.exit).toBe(0)
    } finally {
      await server.close()
    }
  })

  it("clears the line on Ctrl-C at the prompt (a half-typed statement too) and exits 0 on a second Ctrl-C at an empty line", async () => {
    const shell = startShell(await buildBin(), ["--uri", hana.uri, "--history", join(dir, "h3")])
    await shell.until(/hana> $/)
    shell.type("SELECT 5 AS W\r")
    await shell.until(/\n {3}-> $/)
    shell.type("FROM DUM\x03")
    await shell.until(/\^C\nhana> $/)
    expect(shell.screen()).toMatch(/\n {3}-> FROM DUM\^C\nhana> $/)
    // What was typed before the Ctrl-C is gone: this line is a statement of its own.
    shell.type("SELECT 6 AS V FROM DUMMY;\r")
    expect(await shell.until(PROMPT)).toMatch(/\nV\n-\n6\n\(1 row\)\nhana> $/)
    shell.type("\x03")
    expect(await shell.until(PROMPT)).toContain("Ctrl-C again")
    shell.type("\x03")
    expect(await shell.exit).toBe(0)
  })

  it("keeps the line history in the --history file: the next session recalls it with Up", async () => {
    const history = join(dir, "h4")
    const bin = await buildBin()
    const first = startShell(bin, ["--uri", hana.uri, "--history", history])
    await first.until(/hana> $/)
    first.type("SELECT 40 + 2 AS H FROM DUMMY;\r")
    expect(await first.until(PROMPT)).toMatch(/\n42\n/)
    first.type("\\q\r")
    expect(await first.exit).toBe(0)
    expect(readFileSync(history, "utf8")).toBe("SELECT 40 + 2 AS H FROM DUMMY;\n\\q\n")

    const second = startShell(bin, ["--uri", hana.uri, "--history", history])
    await second.until(/hana> $/)
    // Up twice: past `\q` to the statement.
    second.type("\x1b[A\x1b[A\r")
    expect(await second.until(PROMPT)).toMatch(/^hana> SELECT 40 \+ 2 AS H FROM DUMMY;\n H\n--\n42\n\(1 row\)\nhana> $/)
    second.type("\x04")
    expect(await second.exit).toBe(0)
  })
})

/** Resolves once `done()` holds (the server's state, which prints nothing to wait on). */
const until = async (done: () => boolean) => {
  const deadline = Date.now() + 30_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the server")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe("adbc shell on a pipe", { timeout: 120_000 }, () => {
  it("runs a piped script without prompts: its statements, an error line that does not stop it, a last statement without ;", async () => {
    const run = await runInProcess(["shell", "--uri", hana.uri, "--format", "csv"], {
      stdin: "SELECT 1 AS X\n  FROM DUMMY;\nSELECT FROM;\n\\format jsonl\nSELECT 2 AS Y FROM DUMMY"
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe("X\n1\nOutput format is jsonl.\n{\"Y\":2}\n")
    expect(run.stderr).toMatch(/^error: INVALID_ARGUMENT \(vendor code 257, SQLSTATE 42000\): .*\n$/)
  })
})
