import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/importGraph.ts"

// layers/hana and layers/oracle are cut into the same files for the same roles (Connection.ts, Cursor.ts, Execute.ts,
// Ingest.ts, DbCalls.ts, ...; the driver-named ones such as HanaDriver.ts / OracleDriver.ts count as one role), so a
// function is found by name in either driver. A file only one driver has is listed here and said in its README.
const driverOnly: Readonly<Record<"hana" | "oracle", ReadonlyArray<string>>> = {
  hana: ["EncodedInsert.ts", "SqlNormalize.ts", "WireColumns.ts"],
  oracle: [
    "EncodedBinds.ts",
    "IngestCalls.ts",
    "LobPrefetch.ts",
    "ParseAhead.ts",
    "RegionIds.ts",
    "RowCapture.ts",
    "RowPage.ts",
    "SdoGeometry.ts",
    "TimeZones.ts",
    "WireDays.ts"
  ]
}

const rolesOf = (driver: "hana" | "oracle"): ReadonlyArray<string> =>
  readdirSync(`${repoRoot}/layers/${driver}`)
    .filter((name) => name.endsWith(".ts") && !driverOnly[driver].includes(name))
    .map((name) => name.replace(/^(Hana|Oracle)/, ""))
    .sort()

describe("driver layout", () => {
  it("both drivers have the same role files", () => {
    expect(rolesOf("hana").length).toBeGreaterThan(15)
    expect(rolesOf("hana")).toEqual(rolesOf("oracle"))
  })

  it("each driver-only file exists and its README says what it is", () => {
    for (const driver of ["hana", "oracle"] as const) {
      const files = readdirSync(`${repoRoot}/layers/${driver}`)
      const readme = readFileSync(`${repoRoot}/layers/${driver}/README.md`, "utf8")
      for (const name of driverOnly[driver]) {
        expect(files, name).toContain(name)
        expect(readme, name).toContain(name)
      }
    }
  })
})
