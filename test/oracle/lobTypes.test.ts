import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { readTable, uniqueName, useServer, withConnection, withRawConnection } from "./support.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

// Oracle types read through the server that the other tests never read: LOBs of both character sets, LONG and
// LONG RAW, NCHAR, and ROWID / UROWID (the ROWID pseudocolumn and a UROWID column holding one).
const server = useServer()

const withRaw = (f: (raw: any) => Promise<void>) => withRawConnection(server.uri, f)

const bytes = (v: unknown) => (v === null ? null : [...(v as Uint8Array)])

describe("LOB, LONG, NCHAR and ROWID columns through the server", () => {
  for (const mode of ["row", "batch"]) {
    it.effect(`BLOB, NCLOB, NCHAR, LONG read with their Arrow types, type names and values (${mode} mode)`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("LOBS")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), B BLOB, NC NCLOB, N NCHAR(4), L LONG)`)
        yield* conn.execute(`INSERT INTO ${t} VALUES (1, HEXTORAW('00FF10'), TO_NCLOB('Grüße 😀'), N'ab', 'long text')`)
        yield* conn.execute(`INSERT INTO ${t} VALUES (2, NULL, NULL, NULL, NULL)`)
        const table = yield* readTable(conn, `SELECT B, NC, N, L FROM ${t} ORDER BY K`, mode)
        expect(table.schema.fields.map((f) => [f.name, String(f.type), f.metadata.get("oracle.type-name")])).toEqual([
          ["B", "LargeBinary", "BLOB"],
          ["NC", "LargeUtf8", "NCLOB"],
          ["N", "Utf8", "NCHAR(4)"],
          ["L", "LargeUtf8", "LONG"]
        ])
        const rows = table.toArray().map((r) => r.toJSON())
        expect(rows.map((r) => bytes(r["B"]))).toEqual([[0, 255, 16], null])
        expect(rows.map((r) => r["NC"])).toEqual(["Grüße 😀", null])
        // NCHAR is blank-padded to its declared length
        expect(rows.map((r) => r["N"])).toEqual(["ab  ", null])
        expect(rows.map((r) => r["L"])).toEqual(["long text", null])
      })))

    it.effect(`an empty CLOB, NCLOB or BLOB reads as a zero-length value, NULL as null, a large one whole (${mode} mode)`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("ELOB")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), C CLOB, NC NCLOB, B BLOB)`)
        yield* conn.execute(`INSERT INTO ${t} VALUES (1, EMPTY_CLOB(), EMPTY_CLOB(), EMPTY_BLOB())`)
        yield* conn.execute(`INSERT INTO ${t} VALUES (2, NULL, NULL, NULL)`)
        yield* conn.execute(`INSERT INTO ${t} VALUES (3, 'c', N'ü', HEXTORAW('0A'))`)
        const big = "0123456789".repeat(20_000) // 200,000 characters: read in several packets
        yield* withRaw(async (raw) => {
          await raw.execute(`INSERT INTO ${t} VALUES (4, :c, :n, :b)`, {
            c: { val: big, type: oracledb.CLOB },
            n: { val: `ü${big}`, type: oracledb.DB_TYPE_NCLOB },
            b: { val: Buffer.alloc(300_000, 7), type: oracledb.BLOB }
          }, { autoCommit: true })
        })
        const table = yield* readTable(conn, `SELECT C, NC, B FROM ${t} ORDER BY K`, mode)
        expect(table.schema.fields.map((f) => String(f.type))).toEqual(["LargeUtf8", "LargeUtf8", "LargeBinary"])
        const c = table.getChild("C")!
        const nc = table.getChild("NC")!
        const b = table.getChild("B")!
        expect([c.get(0), nc.get(0), bytes(b.get(0))]).toEqual(["", "", []])
        expect([c.isValid(0), nc.isValid(0), b.isValid(0)]).toEqual([true, true, true])
        expect([c.get(1), nc.get(1), b.get(1)]).toEqual([null, null, null])
        expect([c.get(2), nc.get(2), bytes(b.get(2))]).toEqual(["c", "ü", [10]])
        expect([c.get(3), nc.get(3)]).toEqual([big, `ü${big}`])
        expect(Buffer.from(b.get(3) as Uint8Array).equals(Buffer.alloc(300_000, 7))).toBe(true)
      })))
    it.effect(`a 300 KB CLOB and BLOB written through raw locators read back whole, and DBMS_LOB functions over them (${mode} mode)`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("LOBW")
        const text = Array.from({ length: 300 * 1024 }, (_, i) => (i % 500 === 499 ? "ß" : String.fromCharCode(65 + (i % 26)))).join("")
        const blob = Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 13) % 256))
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), C CLOB, B BLOB)`)
        yield* withRaw(async (raw) => {
          await raw.execute(`INSERT INTO ${t} VALUES (1, EMPTY_CLOB(), EMPTY_BLOB())`)
          const [c, b] = (await raw.execute(`SELECT C, B FROM ${t} WHERE K = 1 FOR UPDATE`)).rows[0]
          for (const [lob, data] of [[c, text], [b, blob]] as const)
            await new Promise<void>((resolve, reject) => {
              lob.on("error", reject).on("finish", resolve)
              lob.end(data)
            })
          await raw.commit()
        })
        const table = yield* readTable(conn, `SELECT C, B, DBMS_LOB.GETLENGTH(C) AS CL, DBMS_LOB.SUBSTR(C, 3, 499) AS S, DBMS_LOB.INSTR(C, 'ß', 1, 2) AS I FROM ${t}`, mode)
        const row = table.get(0)!.toJSON()
        expect(row["C"]).toBe(text)
        expect(Buffer.compare(Buffer.from(row["B"] as Uint8Array), blob)).toBe(0)
        expect([Number(row["CL"]), row["S"], Number(row["I"])]).toEqual([300 * 1024, text.slice(498, 501), 1000])
      })), 60_000)

    it.effect(`LONG RAW reads as large_binary (${mode} mode)`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("LRAW")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), LR LONG RAW)`)
        yield* conn.execute(`INSERT INTO ${t} VALUES (1, HEXTORAW('DEADBEEF'))`)
        yield* conn.execute(`INSERT INTO ${t} VALUES (2, NULL)`)
        const table = yield* readTable(conn, `SELECT LR FROM ${t} ORDER BY K`, mode)
        expect(table.schema.fields.map((f) => [String(f.type), f.metadata.get("oracle.type-name")])).toEqual([["LargeBinary", "LONG RAW"]])
        expect(table.toArray().map((r) => bytes(r.toJSON()["LR"]))).toEqual([[0xde, 0xad, 0xbe, 0xef], null])
      })))

    it.effect(`the ROWID pseudocolumn, a UROWID and a ROWID column read as strings typed ROWID / UROWID (${mode} mode)`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("RID")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), U UROWID, R ROWID)`)
        yield* conn.execute(`INSERT INTO ${t} (K) VALUES (1)`)
        yield* conn.execute(`INSERT INTO ${t} (K) VALUES (2)`)
        const table = yield* readTable(conn, `SELECT ROWID, ROWID AS R2, K FROM ${t} ORDER BY K`, mode)
        expect(table.schema.fields.map((f) => [f.name, String(f.type), f.metadata.get("oracle.type-name")])).toEqual([
          ["ROWID", "Utf8", "ROWID"],
          ["R2", "Utf8", "ROWID"],
          ["K", "Int64", "NUMBER(10)"]
        ])
        const rowids = table.toArray().map((r) => r.toJSON()["ROWID"] as string)
        // extended rowids: 18 characters of Oracle's base-64 alphabet, one per row
        for (const rowid of rowids) expect(rowid).toMatch(/^[A-Za-z0-9+/]{18}$/)
        expect(new Set(rowids).size).toBe(2)
        expect(table.toArray().map((r) => r.toJSON()["R2"])).toEqual(rowids)
        // UROWID and ROWID columns holding the first row's own rowid, and NULLs
        yield* conn.execute(`UPDATE ${t} SET U = ROWID, R = ROWID WHERE K = 1`)
        const u = yield* readTable(conn, `SELECT U, R FROM ${t} ORDER BY K`, mode)
        expect(u.schema.fields.map((f) => [String(f.type), f.metadata.get("oracle.type-name")])).toEqual([["Utf8", "UROWID"], ["Utf8", "ROWID"]])
        expect(u.toArray().map((r) => [r.toJSON()["U"], r.toJSON()["R"]])).toEqual([[rowids[0], rowids[0]], [null, null]])
      })))
  }

  it.effect("raw oracledb reads a UROWID column (Oracle type 208: physical rowids as their 18 characters, logical ones as *-prefixed base 64) and a ROWID column (type 11)", () =>
    withRaw(async (raw) => {
      const t = uniqueName("URIDRAW")
      await raw.execute(`CREATE TABLE ${t} (K NUMBER(10), U UROWID, RC ROWID)`)
      await raw.execute(`INSERT INTO ${t} (K) VALUES (1)`)
      await raw.execute(`UPDATE ${t} SET U = ROWID, RC = ROWID`)
      await raw.execute(`INSERT INTO ${t} VALUES (2, '*BAEAAAAA', NULL)`)
      await raw.execute(`INSERT INTO ${t} VALUES (3, NULL, NULL)`)
      const result = await raw.execute(`SELECT ROWID AS R, U, RC FROM ${t} ORDER BY K`)
      expect(result.metaData.map((m: any) => [m.name, m.dbType.name])).toEqual([["R", "DB_TYPE_ROWID"], ["U", "DB_TYPE_UROWID"], ["RC", "DB_TYPE_ROWID"]])
      const rows = result.rows as Array<[string, string | null, string | null]>
      expect(rows[0]![1]).toBe(rows[0]![0])
      expect(rows[0]![2]).toBe(rows[0]![0])
      expect(rows.slice(1).map((r) => [r[1], r[2]])).toEqual([["*BAEAAAAA", null], [null, null]])
      await raw.execute(`DROP TABLE ${t} PURGE`)
    }))

  it.effect("raw oracledb sees the ROWID pseudocolumn, bare or aliased, described as ROWID (Oracle type 11)", () =>
    withRaw(async (raw) => {
      const t = uniqueName("RIDRAW")
      await raw.execute(`CREATE TABLE ${t} (K NUMBER(10))`)
      await raw.execute(`INSERT INTO ${t} VALUES (1)`)
      const result = await raw.execute(`SELECT ROWID, ROWID AS R, x.ROWID X2 FROM ${t} x`)
      expect(result.metaData.map((m: any) => [m.name, m.dbType])).toEqual([
        ["ROWID", oracledb.DB_TYPE_ROWID],
        ["R", oracledb.DB_TYPE_ROWID],
        ["X2", oracledb.DB_TYPE_ROWID]
      ])
      await raw.execute(`DROP TABLE ${t} PURGE`)
    }))
})
