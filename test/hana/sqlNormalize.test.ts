import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { normalizeSql, protectedPieces } from "../../layers/hana/SqlNormalize.ts"

describe("SQL normalization", () => {
  it.each([
    ["SELECT 1", "SELECT 1 FROM DUMMY"],
    ["select 1 as x;", "select 1 as x FROM DUMMY;"],
    ["SELECT 1 -- comment", "SELECT 1 FROM DUMMY -- comment"],
    ["SELECT 'from'", "SELECT 'from' FROM DUMMY"],
    ["SELECT \"FROM\"", "SELECT \"FROM\" FROM DUMMY"],
    ["SELECT 1 AS a ORDER BY a", "SELECT 1 AS a FROM DUMMY ORDER BY a"],
    ["SELECT 1 UNION ALL SELECT 2", "SELECT 1 FROM DUMMY UNION ALL SELECT 2 FROM DUMMY"],
    ["SELECT EXTRACT(YEAR FROM CURRENT_DATE)", "SELECT EXTRACT(YEAR FROM CURRENT_DATE) FROM DUMMY"],
    ["SELECT * FROM T", "SELECT * FROM T"],
    ["SELECT a FROM (SELECT 1 AS a FROM DUMMY)", "SELECT a FROM (SELECT 1 AS a FROM DUMMY)"],
    ["  /* c */ SELECT 1", "  /* c */ SELECT 1 FROM DUMMY"],
    ["(SELECT 1)", "(SELECT 1)"],
    ["INSERT INTO T VALUES (1)", "INSERT INTO T VALUES (1)"],
    ["CREATE TABLE T (A TIMESTAMP(6), B TIME (7), C timestamp(3))", "CREATE TABLE T (A TIMESTAMP, B TIME, C timestamp)"],
    ["SELECT CAST(X AS TIMESTAMP(9)) FROM T", "SELECT CAST(X AS TIMESTAMP) FROM T"],
    ["SELECT 'TIMESTAMP(6)', \"TIME(7)\" FROM T -- TIME(3)", "SELECT 'TIMESTAMP(6)', \"TIME(7)\" FROM T -- TIME(3)"],
    ["SELECT MY_TIMESTAMP(3) FROM T", "SELECT MY_TIMESTAMP(3) FROM T"],
    ["SELECT CAST(X AS TIME (3) ( 1 )) FROM T", "SELECT CAST(X AS TIME) FROM T"],
    ["SELECT 'it''s' ", "SELECT 'it''s' FROM DUMMY "],
    ["SELECT CAST(X AS TIMESTAMP /* p */ (6)) FROM T", "SELECT CAST(X AS TIMESTAMP/* p */) FROM T"],
    ["SELECT CAST(X AS TIME ( -- p\n 3 )) FROM T", "SELECT CAST(X AS TIME-- p\n) FROM T"],
    ["CREATE TABLE T (A TIMESTAMP(6)NOT NULL)", "CREATE TABLE T (A TIMESTAMP NOT NULL)"],
    ["SELECT TIMESTAMP(6) ( 1 \"\" ) FROM T", "SELECT TIMESTAMP ( 1 \"\" ) FROM T"]
  ])("%j → %j", (input, expected) => {
    expect(normalizeSql(input)).toBe(expected)
  })

  // Random statements built from code words, literals, quoted identifiers and comments.
  const word = fc.constantFrom("SELECT", "FROM", "T", "1", ",", "(", ")", "TIMESTAMP(6)", "TIME (3)", "ORDER BY", "x", "UNION", "WHERE", ";")
  const literal = fc.string({ maxLength: 8 }).map((s) => `'${s.replace(/'/g, "''")}'`)
  const ident = fc.string({ maxLength: 8 }).map((s) => `"${s.replace(/"/g, "\"\"")}"`)
  const lineComment = fc.string({ maxLength: 8 }).filter((s) => !s.includes("\n")).map((s) => `--${s}\n`)
  const blockComment = fc.string({ maxLength: 8 }).filter((s) => !s.includes("*/")).map((s) => `/*${s}*/`)
  const piece = fc.oneof({ weight: 4, arbitrary: word }, literal, ident, lineComment, blockComment)
  const statement = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(" "))

  it("never changes literals, quoted identifiers or comments", () => {
    fc.assert(
      fc.property(statement, (sql) => {
        expect(protectedPieces(normalizeSql(sql))).toEqual(protectedPieces(sql))
      }),
      { numRuns: 500 }
    )
  })

  it("is idempotent", () => {
    fc.assert(fc.property(statement, (sql) => {
      expect(normalizeSql(normalizeSql(sql))).toBe(normalizeSql(sql))
    }), {
      numRuns: 500
    })
  })

  it("leaves no unquoted TIMESTAMP(n)/TIME(n) in code", () => {
    fc.assert(
      fc.property(statement, (sql) => {
        // a comment reads as a blank; a literal or quoted name is one opaque token (`TIME (1 "x")` has no precision)
        const code = normalizeSql(sql).replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\//g, (piece) =>
          piece.startsWith("-") || piece.startsWith("/") ? " " : " q ")
        expect(code).not.toMatch(/(?<![A-Za-z0-9_])TIME(STAMP)?\s*\(\s*\d+\s*\)/i)
      }),
      { numRuns: 500 }
    )
  })

  it("gives a SELECT without FROM exactly one FROM DUMMY and changes nothing else", () => {
    const expr = fc.constantFrom("1", "'a'", "CURRENT_DATE", "x + 1", "\"col\"")
    fc.assert(
      fc.property(fc.array(expr, { minLength: 1, maxLength: 4 }), (exprs) => {
        const sql = `SELECT ${exprs.join(", ")}`
        expect(normalizeSql(sql)).toBe(`${sql} FROM DUMMY`)
      })
    )
  })
})
