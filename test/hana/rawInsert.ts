/**
 * hdb's own prepared batch insert, the yardstick the driver's encoded insert paths are held to: what it stores for
 * an Arrow batch (the JS values the driver's row path builds), and the rows of a table as JSON text for comparison.
 */
import type * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { Table } from "apache-arrow"
import { hdb } from "../../layers/hana/DbPatches.ts"
import { rowConverter } from "../../layers/hana/Params.ts"
import * as Connection from "../../src/Connection.ts"

interface RawClient {
  connect(cb: (err: Error | null) => void): void
  prepare(sql: string, cb: (err: Error | null, statement: RawStatement) => void): void
  setAutoCommit(on: boolean): void
  commit(cb: (err: Error | null) => void): void
  close(): void
}
interface RawStatement {
  parameterMetadata: ReadonlyArray<{ dataType: number }>
  exec(values: unknown, cb: (err: Error | null) => void): void
  drop(cb: (err: Error | null) => void): void
}

export const promise = <A = void>(f: (cb: (err: Error | null, value?: A) => void) => void): Promise<A> =>
  new Promise((resolve, reject) => f((err, value) => (err ? reject(err) : resolve(value as A))))

/** hdb's own prepared batch insert of the batch's rows (the JS values the driver's row path builds). */
export const rawInsert = async (uri: string, table: string, batch: Arrow.RecordBatch) => {
  const url = new URL(uri.replace(/^hdb:/, "http:"))
  const client = hdb.createClient({
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    dataFormatSupport: 8
  }) as unknown as RawClient
  await promise((cb) => client.connect(cb))
  try {
    const names = batch.schema.fields.map((f) => `"${f.name}"`).join(", ")
    const statement = await promise<RawStatement>((cb) =>
      client.prepare(`INSERT INTO "${table}" (${names}) VALUES (${batch.schema.fields.map(() => "?").join(", ")})`, cb)
    )
    const c = rowConverter(batch, statement.parameterMetadata.map((p) => p.dataType))
    if (!c.ok) throw new Error(c.error.message)
    client.setAutoCommit(false)
    await promise((cb) => statement.exec(c.converter.rows(0, batch.numRows).map((r) => [...r]), cb))
    await promise((cb) => client.commit(cb))
    await promise((cb) => statement.drop(cb))
  } finally {
    client.close()
  }
}

export const rowsOf = (table: string) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const batches = yield* Stream.runCollect(conn.query(`SELECT * FROM "${table}" ORDER BY "ID"`))
    return new Table([...batches]).toArray().map((r) => JSON.stringify(r, (_, v) => (typeof v === "bigint" ? `${v}n` : v)))
  })

