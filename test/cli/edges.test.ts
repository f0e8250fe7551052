/**
 * The command line at its edges, run in-process against test servers of this file: file errors as one line, CSV that
 * keeps NULL apart from the empty string (both ways, with `--null`), scripts of several statements from a file or
 * standard input with what each did, display-width alignment, rejected environment values, and progress only where
 * it cannot mix with results.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { DuckDBInstance } from "@duckdb/node-api"
import { type HanaTestServerHandle, startHanaTestServer } from "../../testkit/hana/index.ts"
import { type OracleTestServerHandle, startOracleTestServer } from "../../testkit/oracle/index.ts"
import { displayWidth } from "../../cli/table.ts"
import { scriptStatements, statementVerb } from "../../cli/script.ts"
import { runInProcess as runCli } from "./support.ts"

let hana: HanaTestServerHandle
let oracle: OracleTestServerHandle
const dir = mkdtempSync(join(tmpdir(), "adbc-edges-"))

beforeAll(async () => {
  ;[hana, oracle] = await Promise.all([startHanaTestServer(), startOracleTestServer()])
}, 120_000)
afterAll(async () => {
  await Promise.all([hana?.close(), oracle?.close()])
})

describe("scripts", () => {
  it("cuts a script at ; outside quotes and comments, and a procedural block at a line holding only /", () => {
    const script = [
      "-- a comment; not a statement",
      "CREATE TABLE T (A VARCHAR(10));",
      "INSERT INTO T VALUES ('a;b'); INSERT INTO T VALUES (\"x\"/* ; */);",
      "BEGIN",
      "  INSERT INTO T VALUES ('c');",
      "  NULL;",
      "END;",
      "/",
      "SELECT * FROM T"
    ].join("\n")
    expect(scriptStatements(script).map((s) => [s.line, s.sql])).toEqual([
      [2, "CREATE TABLE T (A VARCHAR(10))"],
      [3, "INSERT INTO T VALUES ('a;b')"],
      [3, `INSERT INTO T VALUES ("x"/* ; */)`],
      [4, "BEGIN\n  INSERT INTO T VALUES ('c');\n  NULL;\nEND;"],
      [9, "SELECT * FROM T"]
    ])
    expect(scriptStatements("  -- only a comment\n")).toEqual([])
    expect(["CREATE COLUMN TABLE T (A INT)", "create or replace procedure p as begin null; end;", "DROP TABLE T", "-- c\nINSERT INTO T VALUES (1)", "CREATE GLOBAL TEMPORARY TABLE G (A INT)"].map(statementVerb))
      .toEqual(["CREATE TABLE", "CREATE PROCEDURE", "DROP TABLE", "INSERT", "CREATE TABLE"])
  })
})

describe.concurrent("adbc at its edges", { timeout: 240_000 }, () => {
  it("reports a missing input file, a directory and an unwritable output as one IO line with exit 1, before connecting", async () => {
    const folder = join(dir, "folder.csv")
    mkdirSync(folder)
    mkdirSync(join(dir, "folder.parquet"))
    // An unreachable URI: each run must fail on the file, never get as far as connecting.
    const nowhere = "hdb://u:secret@127.0.0.1:1"
    const runs = await Promise.all([
      runCli(["ingest", join(dir, "missing.csv"), "--table", "X", "--uri", nowhere]),
      runCli(["ingest", folder, "--table", "X", "--uri", nowhere]),
      runCli(["ingest", join(dir, "folder.parquet"), "--table", "X", "--uri", nowhere]),
      runCli(["ingest", join(dir, "missing.arrow"), "--table", "X", "--uri", nowhere]),
      runCli(["query", "-f", join(dir, "missing.sql"), "--uri", nowhere])
    ])
    for (const run of runs) {
      expect(run.code).toBe(1)
      expect(run.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^error: IO: cannot read \S+: /)])
      expect(run.stderr).not.toContain("secret")
    }
    expect(runs[1]!.stderr).toContain("it is a directory")
    const unwritable = await runCli(["query", "--uri", hana.uri, "-o", join(dir, "no", "such", "dir.csv"), "--format", "csv", "SELECT 1 FROM DUMMY"])
    expect(unwritable.code).toBe(1)
    expect(unwritable.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^error: IO: cannot write .*dir\.csv: ENOENT/)])
  })

  it("round-trips a table of every CSV type through query → CSV → ingest → query, NULL and empty strings kept apart", async () => {
    const create = [
      `CREATE COLUMN TABLE "RT_SRC" ("I" INTEGER, "B" BIGINT, "D" DECIMAL(12,3), "F" DOUBLE, "DT" DATE, "TS" TIMESTAMP, "S" NVARCHAR(40), "FLAG" BOOLEAN);`,
      `INSERT INTO "RT_SRC" VALUES (1, 9007199254740993, 12.345, 1.5, '2024-02-29', '2024-02-29 13:14:15.123456', '', TRUE);`,
      `INSERT INTO "RT_SRC" VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL);`,
      `INSERT INTO "RT_SRC" VALUES (3, -1, -0.5, -2.25, '1999-12-31', '1999-12-31 23:59:59', 'a "quoted", multi\nline', FALSE);`,
      `INSERT INTO "RT_SRC" VALUES (4, 0, 0, 0, '2000-01-01', '2000-01-01 00:00:00', 'NULL', TRUE);`
    ].join("\n")
    const script = join(dir, "rt.sql")
    writeFileSync(script, create)
    const setup = await runCli(["query", "--uri", hana.uri, "-f", script])
    expect([setup.code, setup.stderr]).toEqual([0, ""])
    const select = `SELECT * FROM "RT_SRC" ORDER BY "I"`
    const csv = join(dir, "rt.csv")
    const exported = await runCli(["query", "--uri", hana.uri, "--format", "csv", "-o", csv, select])
    expect([exported.code, exported.stderr]).toEqual([0, ""])
    const lines = readFileSync(csv, "utf8").split("\n")
    // Row 1 holds an empty string: written quoted. Row 2 is all NULL but its key: unquoted empty fields.
    expect(lines[1]).toMatch(/,"",true$/)
    expect(lines[2]).toBe("2,,,,,,,")
    const types = ["I:int32", "B:int64", "D:decimal(12,3)", "F:float64", "DT:date", "TS:timestamp", "S:utf8", "FLAG:bool"]
    const ingested = await runCli(["ingest", csv, "--uri", hana.uri, "--table", "RT_DST", ...types.flatMap((t) => ["--column", t])])
    expect([ingested.code, ingested.stderr]).toEqual([0, ""])
    const [before, after] = await Promise.all([
      runCli(["query", "--uri", hana.uri, "--format", "jsonl", select]),
      runCli(["query", "--uri", hana.uri, "--format", "jsonl", `SELECT * FROM "RT_DST" ORDER BY "I"`])
    ])
    expect(after.stdout).toBe(before.stdout)
    const rows = before.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows.map((r) => r["S"])).toEqual(["", null, `a "quoted", multi\nline`, "NULL"])

    // --null TEXT: another marker both ways; an empty field is then an empty string.
    const marked = join(dir, "rt-marked.csv")
    const out = await runCli(["query", "--uri", hana.uri, "--format", "csv", "--null", "\\N", "-o", marked, `SELECT "I", "S" FROM "RT_SRC" ORDER BY "I"`])
    expect(out.code).toBe(0)
    expect(readFileSync(marked, "utf8")).toBe(`I,S\n1,""\n2,\\N\n3,"a ""quoted"", multi\nline"\n4,NULL\n`)
    writeFileSync(marked, `I,S\n1,\n2,\\N\n3,"\\N"\n`)
    const back = await runCli(["ingest", marked, "--uri", hana.uri, "--table", "RT_MARKED", "--null", "\\N", "--column", "S:utf8"], {
      env: {}
    })
    expect([back.code, back.stderr]).toEqual([0, ""])
    const read = await runCli(["query", "--uri", hana.uri, "--format", "jsonl", `SELECT "I", "S" FROM "RT_MARKED" ORDER BY "I"`])
    expect(read.stdout.trimEnd().split("\n").map((l) => (JSON.parse(l) as { S: unknown }).S)).toEqual(["", null, "\\N"])
    // ADBC_INGEST_NULL does what --null does.
    const viaEnv = await runCli(["ingest", marked, "--uri", hana.uri, "--table", "RT_MARKED_ENV", "--column", "S:utf8"], {
      env: { ADBC_INGEST_NULL: "\\N" }
    })
    expect(viaEnv.code).toBe(0)
    const readEnv = await runCli(["query", "--uri", hana.uri, "--format", "jsonl", `SELECT "S" FROM "RT_MARKED_ENV" ORDER BY "I"`])
    expect(readEnv.stdout.trimEnd().split("\n").map((l) => (JSON.parse(l) as { S: unknown }).S)).toEqual(["", null, "\\N"])
  })

  it("runs a script from a file or standard input and says what each statement did", async () => {
    const script = `CREATE TABLE SCRIPT_T (K NUMBER(5), V VARCHAR2(10));\nINSERT INTO SCRIPT_T VALUES (1, 'a');\nINSERT INTO SCRIPT_T SELECT K + 1, V FROM SCRIPT_T;\nUPDATE SCRIPT_T SET V = 'b';\nSELECT COUNT(*) AS N FROM SCRIPT_T;\n`
    const run = await runCli(["query", "--uri", oracle.uri, "-f", "-"], { stdin: script })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "CREATE TABLE: done",
      "INSERT: 1 row affected",
      "INSERT: 1 row affected",
      "UPDATE: 2 rows affected"
    ])
    expect(run.stdout).toMatch(/^ *N\n-+\n *2\n\(1 row\)\n$/m)
    // A data format keeps stdout for data: the status lines go to stderr.
    const file = join(dir, "script.sql")
    writeFileSync(file, `DELETE FROM SCRIPT_T WHERE K = 1;\nSELECT K FROM SCRIPT_T;`)
    const csv = await runCli(["query", "--uri", oracle.uri, "--format", "csv", "-f", file])
    expect([csv.code, csv.stdout, csv.stderr]).toEqual([0, "K\n2\n", "DELETE: 1 row affected\n"])
    const empty = await runCli(["query", "--uri", oracle.uri, "-f", "-"], { stdin: "-- nothing\n" })
    expect(empty.code).toBe(1)
    expect(empty.stderr).toMatch(/^error: INVALID_ARGUMENT: no SQL: standard input holds no statement/)
  })

  it("aligns the table format by display width: wide characters take two columns", async () => {
    const run = await runCli(["query", "--uri", hana.uri, `SELECT '東京' AS CITY, 1 AS N FROM DUMMY UNION ALL SELECT 'Zürich', 22 FROM DUMMY UNION ALL SELECT '🙂x', 333 FROM DUMMY`])
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split("\n").slice(0, 5)
    // Every row's separator stands in the same terminal column as the header's.
    const bar = (line: string) => displayWidth(line.slice(0, line.indexOf("|")))
    expect(lines.filter((l) => l.includes("|")).map(bar)).toEqual([bar(lines[0]!), bar(lines[0]!), bar(lines[0]!), bar(lines[0]!)])
    expect(lines[1]).toMatch(/^-+-\+-+$/)
  })

  it("names a rejected environment value, its variable and what is accepted", async () => {
    const [format, rows] = await Promise.all([
      runCli(["query", "--uri", hana.uri, "SELECT 1 FROM DUMMY"], { env: { ADBC_FORMAT: "config" } }),
      runCli(["query", "--uri", hana.uri, "SELECT 1 FROM DUMMY"], { env: { ADBC_MAX_ROWS: "-3" } })
    ])
    expect(format.code).toBe(2)
    expect(format.stderr.split("\n")[0]).toBe(
      `error: environment variable ADBC_FORMAT="config" is not accepted: Expected "table" | "csv" | "jsonl" | "arrow" | "arrows" | "parquet"`
    )
    expect(rows.stderr.split("\n")[0]).toBe(`error: environment variable ADBC_MAX_ROWS="-3" is not accepted: Expected a value greater than 0`)
  })

  it("shows query progress (rows, MB, rate) on a terminal while the result goes to a file, never on a pipe or with --quiet", async () => {
    const source = join(dir, "numbers.csv")
    writeFileSync(source, `N\n${Array.from({ length: 5000 }, (_, i) => i).join("\n")}\n`)
    const loaded = await runCli(["ingest", source, "--uri", hana.uri, "--table", "PROGRESS_N", "--quiet"])
    expect([loaded.code, loaded.stdout]).toEqual([0, "5,000 rows ingested into PROGRESS_N\n"])
    const sql = `SELECT "N" FROM "PROGRESS_N"`
    const [terminal, pipe, quiet] = await Promise.all([
      runCli(["query", "--uri", hana.uri, "--format", "csv", "-o", join(dir, "p1.csv"), sql], { terminal: true }),
      runCli(["query", "--uri", hana.uri, "--format", "csv", "-o", join(dir, "p2.csv"), sql]),
      runCli(["query", "--uri", hana.uri, "--format", "csv", "--quiet", "-o", join(dir, "p3.csv"), sql], { terminal: true })
    ])
    expect([terminal.stderr, pipe.stderr, quiet.stderr]).toEqual(["", "", ""])
    expect([terminal.code, pipe.code, quiet.code]).toEqual([0, 0, 0])
    expect(terminal.stdout).toMatch(/query: 5,000 rows, \d+\.\d MB, [\d,]+ rows\/s\n$/)
    expect(pipe.stdout).toBe("")
    expect(quiet.stdout).toBe("")
    expect(readFileSync(join(dir, "p1.csv"), "utf8").split("\n")).toHaveLength(5002)
  })

  it("writes --format parquet while the result streams: it reads back in DuckDB and ingests back to the same rows", async () => {
    const source = join(dir, "pq-src.csv")
    writeFileSync(source, `K,NAME,AMOUNT\n${Array.from({ length: 3000 }, (_, i) => `${i},"n ${i}",${(i / 4).toFixed(2)}`).join("\n")}\n`)
    const loaded = await runCli(["ingest", source, "--uri", hana.uri, "--table", "PQ_SRC", "--column", "AMOUNT:decimal(10,2)", "--quiet"])
    expect(loaded.code).toBe(0)
    const file = join(dir, "out.parquet")
    const empty = join(dir, "empty.parquet")
    const [written, none] = await Promise.all([
      runCli(["query", "--uri", hana.uri, "--format", "parquet", "-o", file, `SELECT "K", "NAME", "AMOUNT" FROM "PQ_SRC" ORDER BY "K"`]),
      runCli(["query", "--uri", hana.uri, "--format", "parquet", "-o", empty, `SELECT "K", "NAME" FROM "PQ_SRC" WHERE "K" < 0`])
    ])
    expect([written.code, written.stderr, none.code, none.stderr]).toEqual([0, "", 0, ""])
    const duck = await DuckDBInstance.create(":memory:")
    const session = await duck.connect()
    const read = await session.runAndReadAll(`SELECT COUNT(*) AS N, SUM(K) AS S, SUM(AMOUNT) AS A, MAX(NAME) AS M FROM read_parquet('${file}')`)
    expect(read.getRowObjectsJson()).toEqual([{ N: "3000", S: "4498500", A: "1124625.00", M: "n 999" }])
    const columns = await session.runAndReadAll(`SELECT COUNT(*) AS N FROM read_parquet('${empty}')`)
    expect(columns.getRowObjectsJson()).toEqual([{ N: "0" }])
    session.closeSync()
    const back = await runCli(["ingest", file, "--uri", hana.uri, "--table", "PQ_BACK", "--quiet"])
    expect([back.code, back.stderr]).toEqual([0, ""])
    const [a, b] = await Promise.all([
      runCli(["query", "--uri", hana.uri, "--format", "csv", `SELECT "K", "NAME", "AMOUNT" FROM "PQ_SRC" ORDER BY "K"`]),
      runCli(["query", "--uri", hana.uri, "--format", "csv", `SELECT "K", "NAME", "AMOUNT" FROM "PQ_BACK" ORDER BY "K"`])
    ])
    expect(b.stdout).toBe(a.stdout)
  })
})
