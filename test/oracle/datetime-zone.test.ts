import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { uniqueName, useServer } from "./support.ts"

// Results must never depend on the Node process's time zone (node-oracledb builds DATE and TIMESTAMP values in it):
// the same writes and reads run in child processes under zones with DST and with a half-hour offset.
const server = useServer()
const script = fileURLToPath(new URL("./fixtures/temporal-in-zone.ts", import.meta.url))

interface ChildOutput {
  readonly tz: string
  readonly offsetMinutes: number
  readonly out: Record<string, Record<string, { type: string; values: Array<string | null> }>>
}

/** Runs the fixture under the process zone `tz`, with `sessionZone` as the `timezone` option (none when undefined). */
const runIn = (tz: string, sessionZone?: string): Promise<ChildOutput> =>
  new Promise((resolve, reject) =>
    execFile(process.execPath, ["--import", "tsx", script], {
      env: {
        ...process.env,
        TZ: tz,
        TEMPORAL_TEST_URI: server.uri,
        TEMPORAL_TEST_TABLE: uniqueName("TZC"),
        ...(sessionZone === undefined ? {} : { TEMPORAL_TEST_SESSION_ZONE: sessionZone })
      },
      timeout: 60_000
    }, (error, stdout, stderr) => (error === null ? resolve(JSON.parse(stdout) as ChildOutput) : reject(new Error(`${error.message}\n${stderr}`)))))

const us = (ms: number, micros = 0) => String(BigInt(ms) * 1000n + BigInt(micros))

describe("results do not depend on the process time zone", () => {
  it("DATE, TIMESTAMP(9), TIMESTAMP WITH [LOCAL] TIME ZONE read and written under America/New_York and Asia/Kolkata, with and without the timezone option", async () => {
    const runs = await Promise.all([
      runIn("America/New_York", "UTC"),
      runIn("Asia/Kolkata", "UTC"),
      runIn("America/New_York"),
      runIn("Asia/Kolkata")
    ])
    // the children really ran in those zones
    expect(runs.map((r) => [r.tz, r.offsetMinutes])).toEqual([
      ["America/New_York", 240],
      ["Asia/Kolkata", -330],
      ["America/New_York", 240],
      ["Asia/Kolkata", -330]
    ])
    // without the option the session zone is UTC too: SESSIONTIMEZONE, a cast of a zoneless timestamp to TIMESTAMP
    // WITH TIME ZONE and a zoneless timestamp bound into a TSTZ column read the same under every process zone
    const midnight = us(Date.UTC(2024, 0, 1))
    for (const [i, run] of runs.entries()) {
      expect(run.out["session"], `${run.tz} ${i < 2 ? "timezone=UTC" : "no timezone option"}`).toEqual({
        S: "+00:00",
        C: { type: "Timestamp<MICROSECOND, UTC>", values: [midnight] },
        bound: { type: "Timestamp<MICROSECOND, UTC>", values: [midnight] }
      })
    }
    const gap = Date.UTC(2024, 2, 10, 2, 30, 45) // a wall clock that does not exist in New York
    const expected = {
      D: [String(gap / 1000), null, null],
      T: [
        String(BigInt(gap) * 1_000_000n + 123_456_789n),
        String(BigInt(gap) * 1_000_000n + 987_654_321n),
        String(BigInt(gap) * 1_000_000n + 987_654_321n)
      ],
      Z: [us(Date.UTC(2024, 10, 3, 8, 30, 0, 500)), us(Date.UTC(2024, 10, 3, 5, 30), 1), null],
      L: [us(Date.UTC(2024, 6, 1, 12)), us(Date.UTC(2024, 10, 3, 5, 30), 1), null]
    }
    for (const run of runs) {
      for (const [key, columns] of Object.entries(run.out)) {
        if (key === "session") continue
        const label = `${run.tz} ${key}`
        expect(columns["D"]!.values, label).toEqual(key.endsWith("date32") ? [String(Math.floor(gap / 86_400_000)), null, null] : expected.D)
        expect(columns["D"]!.type, label).toBe(key.endsWith("date32") ? "Date32<DAY>" : "Timestamp<SECOND>")
        expect(columns["T"], label).toEqual({ type: "Timestamp<NANOSECOND>", values: expected.T })
        expect(columns["Z"], label).toEqual({ type: "Timestamp<MICROSECOND, UTC>", values: expected.Z })
        expect(columns["L"], label).toEqual({ type: "Timestamp<MICROSECOND, UTC>", values: expected.L })
      }
    }
  })
})
