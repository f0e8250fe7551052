/**
 * One Effect SQL application, two databases: a migration, a repository of a Schema model, a batching resolver and a
 * transaction that mixes statements with Arrow, written against `SqlClient` only. `main` runs it unchanged on the
 * HANA client and on the Oracle client (test servers, or the databases named by HANA_URI / ORACLE_URI).
 *
 * `npm run example -- effect-sql`
 */
import * as Arrow from "apache-arrow"
import { Effect, Layer, Redacted, Schema, Stream } from "effect"
import { Model } from "effect/schema"
import { SqlClient, SqlModel, SqlResolver, SqlSchema } from "effect/sql"
import type { ArrowAccess } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import * as Oracle from "effect-adbc/oracle"
import { HanaTestServer } from "effect-adbc/testkit/hana"
import { OracleTestServer } from "effect-adbc/testkit/oracle"

/** A person, as rows read it (names transformed to camelCase by the client). */
export class Person extends Model.Class<Person>("Person")({
  id: Schema.Number,
  name: Schema.String,
  team: Schema.String
}) {}

/** The schema, as migrations. DECIMAL(10) and VARCHAR are the same types on both databases. */
export const migrations = {
  "1_create_people": Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`CREATE TABLE PEOPLE (ID DECIMAL(10) NOT NULL PRIMARY KEY, NAME VARCHAR(100) NOT NULL)`),
  "2_add_team": Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`ALTER TABLE PEOPLE ADD (TEAM VARCHAR(20))`)
}

/** The application: needs a SqlClient (with Arrow access) and nothing else. */
export const app = Effect.gen(function*() {
  const sql = (yield* SqlClient.SqlClient) as SqlClient.SqlClient & ArrowAccess
  const people = yield* SqlModel.makeRepository(Person, { tableName: "PEOPLE", spanPrefix: "People", idColumn: "id" })

  // a transaction of ordinary statements and Arrow ingest: all or nothing
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* people.insertVoid(Person.insert.make({ id: 1, name: "Ada", team: "core" }))
    yield* people.insertVoid(Person.insert.make({ id: 2, name: "Grace", team: "compilers" }))
    const more = new Arrow.Table({
      ID: Arrow.vectorFromArray([3, 4, 5], new Arrow.Int32()),
      NAME: Arrow.vectorFromArray(["Edsger", "Barbara", "Tony"], new Arrow.Utf8()),
      TEAM: Arrow.vectorFromArray(["core", "compilers", "core"], new Arrow.Utf8())
    })
    yield* sql.ingest(more, { targetTable: "PEOPLE", mode: "append" })
  }))
  yield* people.updateVoid(Person.update.make({ id: 4, name: "Barbara Liskov", team: "core" }))

  // a batching resolver: three lookups, one query
  const byId = SqlResolver.findById({
    Id: Schema.Number,
    Result: Person,
    ResultId: (person) => person.id,
    execute: (ids) => sql`SELECT * FROM PEOPLE WHERE ID IN ${sql.in(ids)}`
  })
  const found = yield* Effect.forEach([5, 1, 4], SqlResolver.request(byId), { concurrency: "unbounded" })

  const teams = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ name: Schema.String }),
    execute: (team) => sql`SELECT NAME FROM PEOPLE WHERE TEAM = ${team} ORDER BY ID`
  })
  const core = yield* teams("core")

  // Arrow, one call away
  const batches = yield* Stream.runCollect(sql.arrow(sql`SELECT ID, NAME FROM PEOPLE WHERE TEAM = ${"core"}`))
  const arrowRows = batches.reduce((rows, batch) => rows + batch.numRows, 0)

  return {
    found: found.map((p) => p.name),
    core: core.map((p) => p.name),
    arrowRows,
    ada: (yield* people.findById(1)).name
  }
})

/** The migrations, then the application, on one client layer. */
export const runOn = <E>(client: Layer.Layer<SqlClient.SqlClient, E>, migrate: typeof Hana.HanaMigrator.run) =>
  Effect.gen(function*() {
    const ran = yield* migrate({ loader: Hana.HanaMigrator.fromRecord(migrations) })
    const result = yield* app
    return { ran: ran.map(([id, name]) => `${id}_${name}`), ...result }
  }).pipe(Effect.provide(client))

const names = { transformResultNames: Hana.fromDatabaseName, transformQueryNames: Hana.toDatabaseName }

/** The HANA client on HANA_URI, else on a HANA test server started for the layer. */
export const hanaClient = process.env["HANA_URI"]
  ? Hana.HanaClient.layer({ uri: Redacted.make(process.env["HANA_URI"]), ...names })
  : Layer.unwrap(Effect.map(HanaTestServer, (s) => Hana.HanaClient.layer({ uri: s.uri, ...names }))).pipe(
    Layer.provide(HanaTestServer.layer())
  )

/** The Oracle client on ORACLE_URI, else on an Oracle test server started for the layer. */
export const oracleClient = process.env["ORACLE_URI"]
  ? Oracle.OracleClient.layer({ uri: Redacted.make(process.env["ORACLE_URI"]), ...names })
  : Layer.unwrap(Effect.map(OracleTestServer, (s) => Oracle.OracleClient.layer({ uri: s.uri, ...names }))).pipe(
    Layer.provide(OracleTestServer.layer())
  )

/** The same application on both databases. */
export const main = Effect.all([
  runOn(hanaClient, Hana.HanaMigrator.run),
  runOn(oracleClient, Oracle.OracleMigrator.run)
]).pipe(Effect.tap(([hana, oracle]) => Effect.log({ hana, oracle })))

// Run as a program (`node effect-sql.js`, `npx tsx effect-sql.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
