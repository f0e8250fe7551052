import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Result, Stream } from "effect"
import * as fc from "fast-check"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as Connection from "../../src/Connection.ts"
import { oracledb, WireDecimal } from "../../layers/oracle/DbPatches.ts"
import { jsonText } from "../../layers/oracle/RowPage.ts"
import { parseUri } from "../../layers/oracle/Uri.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// JSON (OSON) and OBJECT / VARRAY values read as JSON text keep every digit of their NUMBERs and the exact date and
// time of their dates and timestamps, in both execution modes.
const server = useServer()

const MODES = ["row", "batch"] as const

/** A JSON text parsed with each number kept as its source text (`{ n: "1.50" }`), so no digit is lost in the check. */
const parseExact = (text: string): unknown =>
  JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => (typeof value === "number" ? { n: context?.source } : value))

/** The text of column `name` of every row of `sql`, in the given execution mode. */
const texts = (sql: string, name: string, mode: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(
      Stream.runCollect(conn.query(sql, { "redo.statement.execution_mode": mode })),
      (batches) => new Arrow.Table(batches).getChild(name)!.toArray() as Array<string | null>
    ))

/** A decimal ±digits × 10^exponent, as Oracle NUMBER holds it (up to 38 significant digits, 1e-130 to below 1e126). */
class Decimal {
  constructor(readonly negative: boolean, readonly digits: bigint, readonly exponent: number) {}

  /** JSON number text in exponent form: what is written. */
  get input(): string {
    return `${this.negative ? "-" : ""}${this.digits}e${this.exponent}`
  }

  /** Plain decimal text without trailing fraction zeros: what every digit read back must spell. */
  get plain(): string {
    let digits = this.digits.toString()
    let exponent = this.exponent
    while (digits.length > 1 && digits.endsWith("0")) {
      digits = digits.slice(0, -1)
      exponent++
    }
    if (digits === "0") return "0"
    const point = digits.length + exponent
    const body = exponent >= 0
      ? digits + "0".repeat(exponent)
      : point > 0
      ? `${digits.slice(0, point)}.${digits.slice(point)}`
      : `0.${"0".repeat(-point)}${digits}`
    return `${this.negative ? "-" : ""}${body}`
  }
}

type Doc = null | boolean | string | Decimal | ReadonlyArray<Doc> | { readonly [key: string]: Doc }

const decimal: fc.Arbitrary<Decimal> = fc.oneof(
  fc.record({
    negative: fc.boolean(),
    digits: fc.bigInt({ min: 1n, max: 10n ** 38n - 1n }),
    exponent: fc.integer({ min: -130, max: 87 })
  }).map(({ digits, exponent, negative }) => new Decimal(negative, digits, exponent)),
  fc.constantFrom(new Decimal(false, 0n, 0), new Decimal(true, 10n ** 38n - 1n, 0), new Decimal(false, 1n, -130), new Decimal(false, 12345678901234567890123n, -3))
)

const { document } = fc.letrec<{ document: { readonly [key: string]: Doc }; value: Doc }>((tie) => ({
  document: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("value"), { maxKeys: 5 }),
  value: fc.oneof(
    { depthSize: "small" },
    decimal,
    fc.string({ maxLength: 10 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    tie("document")
  )
}))

/** The JSON text written for a document (numbers in exponent form). */
const inputText = (doc: Doc): string =>
  JSON.stringify(doc, function(this: Record<string, unknown>, key: string, converted: unknown) {
    const raw = this[key]
    return raw instanceof Decimal ? (JSON as unknown as { rawJSON: (t: string) => unknown }).rawJSON(raw.input) : converted
  })

/** The document as {@link parseExact} must read it back: numbers as their plain decimal text. */
const expectedOf = (doc: Doc): unknown =>
  doc instanceof Decimal
    ? { n: doc.plain }
    : Array.isArray(doc)
    ? doc.map(expectedOf)
    : doc !== null && typeof doc === "object"
    ? Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, expectedOf(v)]))
    : doc

describe("JSON and OBJECT / VARRAY values keep their numbers and dates exact", () => {
  it("JSON text: exact NUMBER text unquoted (oracledb's `.5` with its zero), doubles as doubles, NaN and infinities as strings rather than null", () => {
    const text = jsonText({ n: new WireDecimal("-.5"), wide: [new WireDecimal("123456789012345678901234567890.123456789")], d: 0.1, bad: [Number.NaN, Infinity, -Infinity] })
    expect(text).toBe('{"n":-0.5,"wide":[123456789012345678901234567890.123456789],"d":0.1,"bad":["NaN","Infinity","-Infinity"]}')
  })

  it("JSON documents with 38-digit, negative and tiny NUMBERs, nested arrays and objects and nulls read back digit for digit (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(document, { nil: null }), { minLength: 1, maxLength: 12 }), (docs) =>
        Effect.runPromise(withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const table = uniqueName("JSONP")
          yield* conn.execute(`CREATE TABLE ${table} (ID NUMBER(3), DOC JSON)`)
          const stmt = yield* conn.statement()
          yield* stmt.setSqlQuery(`INSERT INTO ${table} (ID, DOC) VALUES (:1, :2)`)
          yield* stmt.bind(new Arrow.Table({
            id: Arrow.vectorFromArray(docs.map((_, i) => i), new Arrow.Int32()),
            doc: Arrow.vectorFromArray(docs.map((d) => (d === null ? null : inputText(d))), new Arrow.Utf8())
          }))
          yield* stmt.executeUpdate
          for (const mode of MODES) {
            const read = yield* texts(`SELECT DOC FROM ${table} ORDER BY ID`, "DOC", mode)
            expect(read.map((t) => (t === null ? null : parseExact(t))), mode).toEqual(docs.map((d) => (d === null ? null : expectedOf(d))))
          }
        })))),
      { numRuns: 12 }
    )
  }, 120_000)

  it.effect("SQL/JSON functions: JSON_VALUE without JSON quotes, JSON_QUERY, JSON_EXISTS, IS JSON and JSON_OBJECT / JSON_ARRAY reach Arrow as text", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("JSQ")
      yield* conn.execute(`CREATE TABLE ${table} (ID NUMBER(3), DOC VARCHAR2(200), N NUMBER)`)
      yield* conn.execute(`INSERT INTO ${table} VALUES (1, '{"a":"x","b":[1,{"c":true}]}', 0.5)`)
      yield* conn.execute(`INSERT INTO ${table} VALUES (2, 'no json', NULL)`)
      const result = yield* conn.queryTable(
        `SELECT JSON_VALUE(DOC, '$.a') AS V, JSON_QUERY(DOC, '$.b') AS Q, JSON_OBJECT('n' VALUE N, 'id' VALUE ID) AS O, JSON_ARRAY(ID, N) AS A
           FROM ${table} WHERE JSON_EXISTS(DOC, '$.b[1].c') AND DOC IS JSON`
      )
      expect(result.toArray().map((r) => r.toJSON())).toEqual([{ V: "x", Q: '[1,{"c":true}]', O: '{"n":0.5,"id":1}', A: "[1,0.5]" }])
    })))

  it.effect("an object attribute selected on its own reads as its JSON text; constructor arguments are rounded to NUMBER(p,s) attributes", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const [inner, outer, table] = [uniqueName("JAP"), uniqueName("JAO"), uniqueName("JAT")]
      yield* conn.execute(`CREATE TYPE ${inner} AS OBJECT (X NUMBER(5,2), L VARCHAR2(3))`)
      yield* conn.execute(`CREATE TYPE ${outer} AS OBJECT (P ${inner}, N NUMBER)`)
      yield* conn.execute(`CREATE TABLE ${table} (ID NUMBER(3), O ${outer})`)
      yield* conn.execute(`INSERT INTO ${table} VALUES (1, ${outer}(${inner}(1.005, 'ab'), 7))`)
      const failed = yield* Effect.flip(conn.execute(`INSERT INTO ${table} VALUES (2, ${outer}(${inner}(1, 'abcd'), 7))`))
      expect(failed.vendorCode).toBe(12899)
      const values = yield* texts(`SELECT T.O.P AS P FROM ${table} T ORDER BY T.ID`, "P", "row")
      expect(values.map((v) => (v === null ? null : parseExact(v)))).toEqual([{ X: { n: "1.01" }, L: "ab" }])
    })))

  it.effect("OBJECT attributes and VARRAY elements: NUMBER(38,10), 38 nines, 1e-130 exact; DATE, TIMESTAMP(9), TIMESTAMP WITH [LOCAL] TIME ZONE as ISO 8601 (WITH TIME ZONE in its own offset); nested and null values", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const [inner, list, outer, table] = [uniqueName("JOA"), uniqueName("JOV"), uniqueName("JOW"), uniqueName("JOT")]
      yield* conn.execute(`CREATE TYPE ${inner} AS OBJECT (N NUMBER, D38 NUMBER(38,10), I NUMBER(38), D DATE, T TIMESTAMP(9), Z TIMESTAMP(6) WITH TIME ZONE, L VARCHAR2(10), LT TIMESTAMP(6) WITH LOCAL TIME ZONE)`)
      yield* conn.execute(`CREATE TYPE ${list} AS VARRAY(10) OF NUMBER`)
      yield* conn.execute(`CREATE TYPE ${outer} AS OBJECT (INNER ${inner}, LIST ${list}, F BINARY_DOUBLE)`)
      yield* conn.execute(`CREATE TABLE ${table} (ID NUMBER(3), A ${inner}, W ${outer}, V ${list})`)
      // A zoneless TIMESTAMP into the LOCAL TIME ZONE attribute is in the session time zone, UTC by default.
      // The test server builds nested constructor values with DuckDB JSON functions, which turn their numbers into
      // doubles: the wide numbers are in the top-level object and collection, the nested ones fit a double (the
      // next test writes wide nested ones through the raw client instead).
      yield* conn.execute(`INSERT INTO ${table} VALUES (1,
        ${inner}(12345678901234567890.123, 1234567890123456789012345678.0123456789, -99999999999999999999999999999999999999, DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:59.123456789', TIMESTAMP '2024-11-03 03:30:00.5 +01:00', 'x', TIMESTAMP '2024-07-01 12:00:00.25'),
        ${outer}(${inner}(-1.25, 7, 0, DATE '1999-12-31', TIMESTAMP '2000-01-01 00:00:00.000001', TIMESTAMP '2000-01-01 00:00:00 -05:30', 'y', NULL), ${list}(1e-130, -1.5, 0.000001, NULL), 0.5),
        ${list}(-12345678901234567890.5, 9.99e125, 0.${"0".repeat(103)}1))`)
      yield* conn.execute(`INSERT INTO ${table} VALUES (2, ${inner}(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), ${outer}(NULL, NULL, NULL), ${list}())`)
      yield* conn.execute(`INSERT INTO ${table} VALUES (3, NULL, NULL, NULL)`)
      for (const mode of MODES) {
        const read = (column: string) =>
          Effect.map(texts(`SELECT ${column} FROM ${table} ORDER BY ID`, column, mode), (ts) => ts.map((t) => (t === null ? null : parseExact(t))))
        expect(yield* read("A"), mode).toEqual([
          {
            N: { n: "12345678901234567890.123" },
            D38: { n: "1234567890123456789012345678.0123456789" },
            I: { n: `-${"9".repeat(38)}` },
            D: "2024-02-29T00:00:00",
            T: "2024-02-29T23:59:59.123456789",
            Z: "2024-11-03T03:30:00.5+01:00",
            L: "x",
            LT: "2024-07-01T12:00:00.25Z"
          },
          { N: null, D38: null, I: null, D: null, T: null, Z: null, L: null, LT: null },
          null
        ])
        expect(yield* read("W"), mode).toEqual([
          {
            INNER: { N: { n: "-1.25" }, D38: { n: "7" }, I: { n: "0" }, D: "1999-12-31T00:00:00", T: "2000-01-01T00:00:00.000001", Z: "2000-01-01T00:00:00-05:30", L: "y", LT: null },
            LIST: [{ n: `0.${"0".repeat(129)}1` }, { n: "-1.5" }, { n: "0.000001" }, null],
            F: { n: "0.5" }
          },
          { INNER: null, LIST: null, F: null },
          null
        ])
        expect(yield* read("V"), mode).toEqual([
          [{ n: "-12345678901234567890.5" }, { n: `999${"0".repeat(123)}` }, { n: `0.${"0".repeat(103)}1` }],
          [],
          null
        ])
      }
    })), 60_000)

  it("a nested OBJECT and VARRAY written by the raw client with 38-digit NUMBERs read back digit for digit (raw oracledb reads doubles)", async () => {
    const [inner, list, outer, table] = [uniqueName("JNA"), uniqueName("JNV"), uniqueName("JNW"), uniqueName("JNT")]
    const raw = await rawConnection()
    try {
      await raw.execute(`CREATE TYPE ${inner} AS OBJECT (N NUMBER, L VARCHAR2(5))`, [], {})
      await raw.execute(`CREATE TYPE ${list} AS VARRAY(5) OF NUMBER`, [], {})
      await raw.execute(`CREATE TYPE ${outer} AS OBJECT (INNER ${inner}, LIST ${list})`, [], {})
      await raw.execute(`CREATE TABLE ${table} (ID NUMBER(3), W ${outer})`, [], {})
      // oracledb pickles a bigint NUMBER attribute from its decimal text, so every digit reaches the server
      const Outer = await raw.getDbObjectClass(outer)
      const value = new Outer({ INNER: { N: -(10n ** 37n) - 2345678901234567890123456789012345678n, L: "x" }, LIST: [10n ** 38n - 1n, null, 0n] })
      await raw.execute(`INSERT INTO ${table} VALUES (1, :1)`, [value], { autoCommit: true })
      const back = await raw.execute(`SELECT W FROM ${table}`, [], {})
      expect(String((back.rows![0]![0] as { INNER: { N: unknown } }).INNER.N)).toBe("-1.2345678901234568e+37")
    } finally {
      await raw.close()
    }
    for (const mode of MODES) {
      const [w] = await Effect.runPromise(withConnection(server.uri, texts(`SELECT W FROM ${table}`, "W", mode)))
      expect(parseExact(w!), mode).toEqual({
        INNER: { N: { n: "-12345678901234567890123456789012345678" }, L: "x" },
        LIST: [{ n: "9".repeat(38) }, null, { n: "0" }]
      })
    }
  }, 60_000)

  it("dates in JSON documents and OBJECT attributes read the same under America/New_York and Asia/Kolkata", async () => {
    const table = uniqueName("JSONZ")
    const type = uniqueName("JSONZT")
    const raw = await rawConnection()
    try {
      await raw.execute(`CREATE TYPE ${type} AS OBJECT (D DATE, T TIMESTAMP(9), Z TIMESTAMP(6) WITH TIME ZONE)`, [], {})
      await raw.execute(`CREATE TABLE ${table} (ID NUMBER(3), DOC JSON, OBJ ${type})`, [], {})
      // oracledb writes a JS Date into OSON as the Date's local wall clock (impl/datahandlers/buffer.js
      // writeOracleDate): built from local fields, the stored date and time are these, whatever this process's zone
      const doc = {
        d: new Date(2024, 0, 1),
        t: new Date(2024, 1, 29, 23, 59, 59, 123),
        nested: [{ at: new Date(1999, 11, 31, 18, 30) }, null]
      }
      await raw.execute(
        `INSERT INTO ${table} (ID, DOC, OBJ) VALUES (1, :1, ${type}(DATE '2024-03-10', TIMESTAMP '2024-03-10 02:30:45.123456789', TIMESTAMP '2024-11-03 01:30:00.5 -04:00'))`,
        [{ type: oracledb.DB_TYPE_JSON, val: doc }],
        { autoCommit: true }
      )
    } finally {
      await raw.close()
    }
    const runs = await Promise.all(["America/New_York", "Asia/Kolkata"].map((tz) => runIn(tz, table)))
    expect(runs.map((r) => [r.tz, r.offsetMinutes])).toEqual([["America/New_York", 240], ["Asia/Kolkata", -330]])
    for (const run of runs) {
      for (const mode of MODES) {
        const { DOC, OBJ } = run.out[mode]!
        expect(DOC.map((t) => (t === null ? null : JSON.parse(t))), `${run.tz} ${mode}`).toEqual([{
          d: "2024-01-01T00:00:00",
          t: "2024-02-29T23:59:59.123",
          nested: [{ at: "1999-12-31T18:30:00" }, null]
        }])
        expect(OBJ.map((t) => (t === null ? null : JSON.parse(t))), `${run.tz} ${mode}`).toEqual([{
          D: "2024-03-10T00:00:00",
          T: "2024-03-10T02:30:45.123456789",
          Z: "2024-11-03T01:30:00.5-04:00"
        }])
      }
    }
  }, 120_000)
})

/** A raw node-oracledb connection to the suite's database (not marked for the driver's hooks). */
const rawConnection = () => {
  const parsed = Result.getOrThrow(parseUri(server.uri))
  return oracledb.getConnection({ user: parsed.user, password: parsed.password, connectString: parsed.connectString }) as unknown as Promise<{
    execute: (sql: string, binds: unknown, options: Record<string, unknown>) => Promise<{ rows?: Array<Array<unknown>> }>
    getDbObjectClass: (name: string) => Promise<new(value: unknown) => unknown>
    close: () => Promise<void>
  }>
}

const zoneScript = fileURLToPath(new URL("./fixtures/json-in-zone.ts", import.meta.url))

interface ZoneOutput {
  readonly tz: string
  readonly offsetMinutes: number
  readonly out: Record<string, { DOC: Array<string | null>; OBJ: Array<string | null> }>
}

/** Runs the fixture, which reads `table` through the driver, under the process zone `tz`. */
const runIn = (tz: string, table: string): Promise<ZoneOutput> =>
  new Promise((resolve, reject) =>
    execFile(process.execPath, ["--import", "tsx", zoneScript], {
      env: { ...process.env, TZ: tz, JSON_TEST_URI: server.uri, JSON_TEST_TABLE: table },
      timeout: 60_000
    }, (error, stdout, stderr) => (error === null ? resolve(JSON.parse(stdout) as ZoneOutput) : reject(new Error(`${error.message}\n${stderr}`)))))

describe("arrow.json parameters bind as JSON", () => {
  const jsonField = (name: string) => new Arrow.Field(name, new Arrow.Utf8(), true, new Map([["ARROW:extension:name", "arrow.json"], ["ARROW:extension:metadata", "{}"]]))
  const bound = (texts: ReadonlyArray<string | null>) => {
    const field = jsonField("doc")
    const vector = Arrow.vectorFromArray([...texts], new Arrow.Utf8())
    return new Arrow.RecordBatch(new Arrow.Schema([field]), Arrow.makeData({ type: new Arrow.Struct([field]), length: texts.length, nullCount: 0, children: [vector.data[0]!] }))
  }
  const run = (sql: string, texts: ReadonlyArray<string | null>, options: Record<string, string> = {}) =>
    Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement(options)
      yield* stmt.setSqlQuery(sql)
      yield* stmt.bind(bound(texts))
      return new Arrow.Table(yield* Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches))))
    })

  it.effect("SELECT :1 FROM DUAL describes JSON; a JSON column stores the document with every digit; JSON_VALUE reads its members", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const doc = '{"a":1.5,"big":123456789012345678901234567890.125,"s":"x","list":[1,true,null]}'
      const dual = yield* run("SELECT :1 AS J FROM DUAL", [doc], { "redo.use_extension_type": "true" })
      expect(dual.schema.fields[0]!.metadata.get("oracle.type-name")).toBe("JSON")
      expect(parseExact(String(dual.get(0)!.toJSON()["J"]))).toEqual(parseExact(doc))
      const t = uniqueName("JSONBIND")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(5), DOC JSON)`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (1, :1)`)
      yield* stmt.bind(bound([doc]))
      yield* stmt.executeUpdate
      const read = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT JSON_VALUE(DOC, '$.a') AS S, DOC FROM ${t}`)))
      expect(read.get(0)!.toJSON()["S"]).toBe("1.5")
      expect(parseExact(String(read.get(0)!.toJSON()["DOC"]))).toEqual(parseExact(doc))
    })))

  it.effect("text that is not JSON fails INVALID_ARGUMENT naming field and row, before anything is sent", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const error = yield* Effect.flip(run("SELECT :1 AS J FROM DUAL", ["{not json"]))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain('field "doc": row 1 is not JSON text')
    })))
})
