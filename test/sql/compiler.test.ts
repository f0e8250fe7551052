/**
 * Unit tests of the HANA and Oracle statement compilers: SQL text and parameters of every `effect/sql` helper,
 * identifier quoting and case, and how `onDialect` / `onDialectOrElse` behave on databases `effect/sql` does not name.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, String as Str } from "effect"
import { Statement } from "effect/sql"
import * as HanaCompiler from "../../layers/hana/HanaCompiler.ts"
import * as OracleCompiler from "../../layers/oracle/OracleCompiler.ts"
import { BatchRows, guardDialect, json } from "../../src/sql/Compiler.ts"

const constructorFor = (compiler: Statement.Compiler, spec: Parameters<typeof guardDialect>[1]) =>
  guardDialect(Statement.make(Effect.die("compile only"), compiler, [], undefined), spec)

const hana = constructorFor(HanaCompiler.makeCompiler(), HanaCompiler.dialect)
const oracle = constructorFor(OracleCompiler.makeCompiler(), OracleCompiler.dialect)
const compile = (statement: Statement.Statement<unknown>) => statement.compile()
/** `records` as the non-empty list `sql.insert` takes. */
const many = (records: ReadonlyArray<object>) => records as unknown as [Record<string, unknown>, ...Array<Record<string, unknown>>]

describe("HANA compiler", () => {
  const sql = hana
  it("uses ? placeholders in order", () => {
    expect(compile(sql`SELECT * FROM T WHERE A = ${1} AND B = ${"x"}`)).toEqual([
      "SELECT * FROM T WHERE A = ? AND B = ?",
      [1, "x"]
    ])
  })
  it("quotes identifiers exactly, keeping case and doubling quotes", () => {
    expect(compile(sql`SELECT ${sql("Mixed Case")}, ${sql("USERS")}, ${sql("a\"b")} FROM ${sql("S.T")}`)[0]).toBe(
      "SELECT \"Mixed Case\", \"USERS\", \"a\"\"b\" FROM \"S\".\"T\""
    )
  })
  it("inserts one record with one row of placeholders", () => {
    expect(compile(sql`INSERT INTO ${sql("T")} ${sql.insert({ ID: 1, NAME: "a" })}`)).toEqual([
      "INSERT INTO \"T\" (\"ID\",\"NAME\") VALUES (?,?)",
      [1, "a"]
    ])
  })
  it("inserts many records as one batch of rows", () => {
    const [text, params] = compile(sql`INSERT INTO ${sql("T")} ${sql.insert([{ ID: 1, NAME: "a" }, { ID: 2, NAME: null }])}`)
    expect(text).toBe("INSERT INTO \"T\" (\"ID\",\"NAME\") VALUES (?,?)")
    expect(params).toHaveLength(1)
    expect(params[0]).toBeInstanceOf(BatchRows)
    expect((params[0] as BatchRows).rows).toEqual([[1, "a"], [2, null]])
  })
  it("keeps an insert's RETURNING for the client to run (HANA has none: the client selects the row back)", () => {
    expect(compile(sql`INSERT INTO T ${sql.insert({ A: 1 }).returning("*")}`)).toEqual([
      "INSERT INTO T (\"A\") VALUES (?) RETURNING *",
      [1]
    ])
  })
  it("updates one record", () => {
    expect(compile(sql`UPDATE T SET ${sql.update({ ID: 1, NAME: "b" }, ["ID"])} WHERE ID = ${1}`)).toEqual([
      "UPDATE T SET \"NAME\" = ? WHERE ID = ?",
      ["b", 1]
    ])
  })
  it("updates from values as a derived table over DUMMY", () => {
    expect(
      compile(
        sql`UPDATE T SET NAME = D.NAME FROM T, ${sql.updateValues([{ ID: 1, NAME: "a" }, { ID: 2, NAME: "b" }], "D")} WHERE T.ID = D.ID`
      )
    ).toEqual([
      "UPDATE T SET NAME = D.NAME FROM T, (SELECT CAST(? AS BIGINT) AS \"ID\", CAST(? AS NVARCHAR(5000)) AS \"NAME\" FROM DUMMY UNION ALL SELECT CAST(? AS BIGINT) AS \"ID\", CAST(? AS NVARCHAR(5000)) AS \"NAME\" FROM DUMMY) \"D\" WHERE T.ID = D.ID",
      [1, "a", 2, "b"]
    ])
  })
  it("renders sql.in with placeholders, and an empty list as a subquery over DUMMY", () => {
    expect(compile(sql`SELECT * FROM T WHERE ID IN ${sql.in([1, 2, 3])}`)).toEqual([
      "SELECT * FROM T WHERE ID IN (?,?,?)",
      [1, 2, 3]
    ])
    expect(compile(sql`SELECT * FROM T WHERE ID IN ${sql.in([])}`)[0]).toBe(
      "SELECT * FROM T WHERE ID IN (SELECT NULL FROM DUMMY WHERE 1=0)"
    )
    expect(compile(sql`SELECT * FROM T WHERE ${sql.in("ID", [7])}`)).toEqual(["SELECT * FROM T WHERE \"ID\" IN (?)", [7]])
  })
  it("joins clauses with and / or", () => {
    expect(compile(sql`SELECT * FROM T WHERE ${sql.and([sql`A = ${1}`, sql`B = ${2}`])}`)).toEqual([
      "SELECT * FROM T WHERE (A = ? AND B = ?)",
      [1, 2]
    ])
    expect(compile(sql`SELECT * FROM T WHERE ${sql.or([sql`A = ${1}`, sql`B = ${2}`])}`)).toEqual([
      "SELECT * FROM T WHERE (A = ? OR B = ?)",
      [1, 2]
    ])
  })
  it("inserts literals and unsafe text as given", () => {
    expect(compile(sql`SELECT ${sql.literal("CURRENT_DATE")} FROM DUMMY WHERE X = ${1}`)).toEqual([
      "SELECT CURRENT_DATE FROM DUMMY WHERE X = ?",
      [1]
    ])
    expect(compile(sql.unsafe("SELECT ? FROM DUMMY", [5]))).toEqual(["SELECT ? FROM DUMMY", [5]])
  })
  it("binds sql.json as JSON text", () => {
    expect(compile(sql`INSERT INTO T VALUES (${json({ a: [1, "x"] })})`)).toEqual([
      "INSERT INTO T VALUES (?)",
      ["{\"a\":[1,\"x\"]}"]
    ])
  })
  it("renames identifiers with transformQueryNames, except where told not to", () => {
    const renamed = constructorFor(
      HanaCompiler.makeCompiler((name) => Str.camelToSnake(name).toUpperCase()),
      HanaCompiler.dialect
    )
    expect(compile(renamed`INSERT INTO ${renamed("orderLines")} ${renamed.insert({ lineId: 1 })}`)[0]).toBe(
      "INSERT INTO \"ORDER_LINES\" (\"LINE_ID\") VALUES (?)"
    )
    expect(renamed`SELECT ${renamed("lineId")} FROM DUMMY`.compile(true)[0]).toBe("SELECT \"lineId\" FROM DUMMY")
  })
  it("never takes another database's onDialect branch", () => {
    const branches = {
      sqlite: () => "sqlite",
      pg: () => "pg",
      mysql: () => "mysql",
      mssql: () => "mssql",
      clickhouse: () => "clickhouse"
    }
    expect(() => sql.onDialect(branches)).toThrow(/no branch for SAP HANA.*onDialectOrElse/)
    expect(sql.onDialectOrElse({ ...branches, orElse: () => "ours" })).toBe("ours")
  })
})

describe("Oracle compiler", () => {
  const sql = oracle
  it("numbers placeholders :1 … :n", () => {
    expect(compile(sql`SELECT * FROM T WHERE A = ${1} AND B = ${"x"} AND C IN ${sql.in([3, 4])}`)).toEqual([
      "SELECT * FROM T WHERE A = :1 AND B = :2 AND C IN (:3,:4)",
      [1, "x", 3, 4]
    ])
  })
  it("quotes identifiers exactly, keeping case and doubling quotes", () => {
    expect(compile(sql`SELECT ${sql("Mixed Case")}, ${sql("USERS")}, ${sql("a\"b")} FROM ${sql("S.T")}`)[0]).toBe(
      "SELECT \"Mixed Case\", \"USERS\", \"a\"\"b\" FROM \"S\".\"T\""
    )
  })
  it("inserts one record with one row of placeholders", () => {
    expect(compile(sql`INSERT INTO ${sql("T")} ${sql.insert({ ID: 1, NAME: "a" })}`)).toEqual([
      "INSERT INTO \"T\" (\"ID\",\"NAME\") VALUES (:1,:2)",
      [1, "a"]
    ])
  })
  it("inserts many records as one batch of rows", () => {
    const [text, params] = compile(sql`INSERT INTO ${sql("T")} ${sql.insert([{ ID: 1, NAME: "a" }, { ID: 2, NAME: "b" }])}`)
    expect(text).toBe("INSERT INTO \"T\" (\"ID\",\"NAME\") VALUES (:1,:2)")
    expect((params[0] as BatchRows).rows).toEqual([[1, "a"], [2, "b"]])
  })
  it("binds every record of a large insert, read as effect/sql reads them (first record's keys, undefined as null)", () => {
    const records = Array.from({ length: 1000 }, (_, i) => ({ ID: i, NAME: i % 3 === 0 ? undefined : `n${i}`, AT: new Date(i) }))
    const [text, params] = compile(sql`INSERT INTO ${sql("T")} ${sql.insert(many([...records, { NAME: "x", ID: 1000, EXTRA: 1 }]))}`)
    expect(text).toBe("INSERT INTO \"T\" (\"ID\",\"NAME\",\"AT\") VALUES (:1,:2,:3)")
    expect(params).toHaveLength(1)
    const rows = (params[0] as BatchRows).rows
    expect(rows).toHaveLength(1001)
    expect(rows[3]).toEqual([3, null, new Date(3)])
    expect(rows[4]).toEqual([4, "n4", new Date(4)])
    expect(rows[1000]).toEqual([1000, "x", null])
    // the same records through effect/sql's own rendering of every record
    const slow = compile(sql`INSERT INTO ${sql("T")} ${sql.insert(many([...records, { NAME: "x", ID: 1000, EXTRA: 1 }, { ID: 0, NAME: sql`${"y"}`, AT: null }]))}`)
    expect((slow[1][0] as BatchRows).rows.slice(0, 1001)).toEqual(rows)
    expect((slow[1][0] as BatchRows).rows[1001]).toEqual([0, "y", null])
  })
  it("binds sql.json values inside a large insert as their JSON text (effect/sql's own reading of fragments)", () => {
    const records = [1, 2, 3, 4].map((i) => ({ ID: i, DOC: json({ i }) }))
    const [text, params] = compile(sql`INSERT INTO T ${sql.insert(many(records))}`)
    expect(text).toBe("INSERT INTO T (\"ID\",\"DOC\") VALUES (:1,:2)")
    expect((params[0] as BatchRows).rows).toEqual([1, 2, 3, 4].map((i) => [i, `{"i":${i}}`]))
  })
  it("keeps an insert's RETURNING for the client to run as RETURNING … INTO", () => {
    expect(compile(sql`INSERT INTO T ${sql.insert({ A: 1 }).returning(sql("A"))}`)).toEqual([
      "INSERT INTO T (\"A\") VALUES (:1) RETURNING \"A\"",
      [1]
    ])
  })
  it("updates one record", () => {
    expect(compile(sql`UPDATE T SET ${sql.update({ ID: 1, NAME: "b" }, ["ID"])} WHERE ID = ${1}`)).toEqual([
      "UPDATE T SET \"NAME\" = :1 WHERE ID = :2",
      ["b", 1]
    ])
  })
  it("updates from values as a derived table over DUAL", () => {
    expect(
      compile(sql`UPDATE T SET NAME = D.NAME FROM ${sql.updateValues([{ ID: 1, NAME: "a" }], "D")} WHERE T.ID = D.ID`)
    ).toEqual([
      "UPDATE T SET NAME = D.NAME FROM (SELECT CAST(:1 AS NUMBER(19)) AS \"ID\", CAST(:2 AS VARCHAR2(4000)) AS \"NAME\" FROM DUAL) \"D\" WHERE T.ID = D.ID",
      [1, "a"]
    ])
  })
  it("renders an empty sql.in as a subquery over DUAL", () => {
    expect(compile(sql`SELECT * FROM T WHERE ID NOT IN ${sql.in([])}`)[0]).toBe(
      "SELECT * FROM T WHERE ID NOT IN (SELECT NULL FROM DUAL WHERE 1=0)"
    )
  })
  it("joins clauses with and / or", () => {
    expect(compile(sql`SELECT * FROM T WHERE ${sql.or([sql`A = ${1}`, sql.and([sql`B = ${2}`, sql`C = ${3}`])])}`)).toEqual(
      ["SELECT * FROM T WHERE (A = :1 OR (B = :2 AND C = :3))", [1, 2, 3]]
    )
  })
  it("inserts literals and unsafe text as given", () => {
    expect(compile(sql`SELECT ${sql.literal("SYSDATE")} FROM DUAL`)).toEqual(["SELECT SYSDATE FROM DUAL", []])
    expect(compile(sql.unsafe("SELECT :1 FROM DUAL", [5]))).toEqual(["SELECT :1 FROM DUAL", [5]])
  })
  it("makes sql.json a JSON value", () => {
    expect(compile(sql`INSERT INTO T VALUES (${json([1, { b: true }])})`)).toEqual([
      "INSERT INTO T VALUES (JSON(:1))",
      ["[1,{\"b\":true}]"]
    ])
  })
  it("never takes another database's onDialect branch", () => {
    const branches = {
      sqlite: () => "sqlite",
      pg: () => "pg",
      mysql: () => "mysql",
      mssql: () => "mssql",
      clickhouse: () => "clickhouse"
    }
    expect(() => sql.onDialect(branches)).toThrow(/no branch for Oracle/)
    expect(sql.onDialectOrElse({ pg: () => "pg", orElse: () => "ours" })).toBe("ours")
  })
})
