/**
 * The main job's verdict: what it generated against what each database holds and lists. A pure function of the
 * figures the steps gathered, so that every way a check can fail is tested without a database.
 */
import { compareChecksums, type ResultChecksum } from "./checksum.ts"
import type { Verified } from "./steps.ts"

/** The figures the checks compare. */
export interface CheckInput {
  /** The table the job created on every database. */
  readonly table: string
  /** The rows the job was asked to generate. */
  readonly askedRows: number
  /** The checksum of what was generated (and ingested). */
  readonly generated: ResultChecksum
  /** What each database holds, by its name. */
  readonly verified: ReadonlyArray<readonly [database: string, verified: Verified]>
  /** The tables GetObjects listed, with the database that listed each. */
  readonly listed: ReadonlyArray<{ readonly database: string; readonly table: string }>
}

/** The checks that failed, one line each naming the database and what differs; empty when all passed. */
export const failedChecks = (input: CheckInput): Array<string> => {
  const { askedRows, generated, table } = input
  return [
    ...(generated.rows !== askedRows ? [`generated ${generated.rows} rows, asked for ${askedRows}`] : []),
    ...input.verified.flatMap(([database, verified]) => [
      ...(verified.count !== askedRows ? [`${database}: COUNT(*) is ${verified.count}, expected ${askedRows}`] : []),
      ...compareChecksums(generated, verified.checksum).map((problem) => `${database}: ${problem}`)
    ]),
    ...input.verified
      .filter(([database]) => !input.listed.some((t) => t.database === database && t.table === table))
      .map(([database]) => `${database}: GetObjects does not list ${table}`)
  ]
}
