/**
 * The main job's verdict (cli/demo/checks.ts) on tampered figures: a count one short, one column's values changed on
 * one database (for every column), a row's values swapped between rows, a table GetObjects does not list.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { ChecksumAccumulator, type ResultChecksum } from "../../cli/demo/checksum.ts"
import { failedChecks, type CheckInput } from "../../cli/demo/checks.ts"
import { lineitemBatch, lineitemSchema } from "../../cli/demo/lineitem.ts"

const checksum = (...batches: Array<Arrow.RecordBatch>): ResultChecksum => {
  const accumulator = new ChecksumAccumulator()
  for (const batch of batches) accumulator.add(batch)
  return accumulator.result()
}

const ROWS = 50
const generated = lineitemBatch(11, 0, ROWS)
const good = checksum(generated)

/** The input of a run where everything matched, with `changes` applied. */
const input = (changes: Partial<CheckInput> = {}): CheckInput => ({
  table: "T",
  askedRows: ROWS,
  generated: good,
  verified: [["HANA", { count: ROWS, checksum: good }], ["Oracle", { count: ROWS, checksum: good }]],
  listed: [{ database: "HANA", table: "T" }, { database: "Oracle", table: "T" }],
  ...changes
})

/** `batch` with column `name`'s values in reverse row order: the same values, in other rows. */
const withColumnReversed = (batch: Arrow.RecordBatch, name: string): Arrow.RecordBatch => {
  const table = new Arrow.Table(batch)
  const columns = Object.fromEntries(table.schema.fields.map((f) => {
    const values = Array.from({ length: table.numRows }, (_, i) => table.getChild(f.name)!.get(i) as unknown)
    return [f.name, Arrow.vectorFromArray(f.name === name ? values.reverse() : values, f.type)]
  }))
  return new Arrow.Table(columns).batches[0]!
}

describe("the main job's checks", () => {
  it("pass when counts, checksums and listings all match", () => {
    expect(failedChecks(input())).toEqual([])
  })

  it("fail on a count one short on either database, naming the database", () => {
    expect(failedChecks(input({ verified: [["HANA", { count: ROWS, checksum: good }], ["Oracle", { count: ROWS - 1, checksum: good }]] })))
      .toEqual([`Oracle: COUNT(*) is ${ROWS - 1}, expected ${ROWS}`])
    expect(failedChecks(input({ verified: [["HANA", { count: ROWS + 1, checksum: good }], ["Oracle", { count: ROWS, checksum: good }]] })))
      .toEqual([`HANA: COUNT(*) is ${ROWS + 1}, expected ${ROWS}`])
  })

  it("fail on a row missing from the checksummed rows though COUNT(*) matches", () => {
    const short = checksum(generated.slice(0, ROWS - 1))
    expect(failedChecks(input({ verified: [["HANA", { count: ROWS, checksum: good }], ["Oracle", { count: ROWS, checksum: short }]] })))
      .toEqual([`Oracle: row count ${ROWS - 1}, expected ${ROWS}`])
  })

  it("fail on one changed value in any column, naming that column and only that one", () => {
    for (const field of lineitemSchema.fields) {
      // the first row's value of this column set to another row's (or to NULL when both are equal)
      const rows = new Arrow.Table(generated).toArray().map((r) => ({ ...r.toJSON() }))
      const other = rows.find((r) => r[field.name] !== rows[0]![field.name] && r[field.name] !== null)
      rows[0]![field.name] = other?.[field.name] ?? null
      const columns = Object.fromEntries(lineitemSchema.fields.map((f) => [f.name, Arrow.vectorFromArray(rows.map((r) => r[f.name]), f.type)]))
      const tampered = checksum(...new Arrow.Table(columns).batches)
      const problems = failedChecks(input({ verified: [["HANA", { count: ROWS, checksum: tampered }], ["Oracle", { count: ROWS, checksum: good }]] }))
      expect(problems, field.name).toEqual([expect.stringMatching(new RegExp(`^HANA: column ${field.name} differs `))])
    }
  })

  it("fail when a column's values moved between rows (the row checksum)", () => {
    const moved = checksum(withColumnReversed(generated, "L_QUANTITY"))
    expect(failedChecks(input({ verified: [["HANA", { count: ROWS, checksum: good }], ["Oracle", { count: ROWS, checksum: moved }]] })))
      .toEqual([expect.stringMatching(/^Oracle: row checksum /)])
  })

  it("fail when the generator made fewer rows than asked, or GetObjects does not list the table on a database", () => {
    expect(failedChecks(input({ askedRows: ROWS, generated: checksum(generated.slice(0, 10)) }))).toContain(`generated 10 rows, asked for ${ROWS}`)
    expect(failedChecks(input({ listed: [{ database: "HANA", table: "T" }, { database: "Oracle", table: "OTHER" }] })))
      .toEqual(["Oracle: GetObjects does not list T"])
  })
})
