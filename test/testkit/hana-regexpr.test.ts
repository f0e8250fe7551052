import { describe, expect, it } from "@effect/vitest"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

/** hdb's type codes (node_modules/hdb/lib/protocol/common/TypeCode.js). */
const INTEGER = 3
const NVARCHAR = 11

// HANA's regular-expression functions and predicate through the raw hdb client, with the SAP HANA SQL Reference's
// own examples ("LOCATE_REGEXPR Function (String)", "SUBSTRING_REGEXPR Function (String)", "REPLACE_REGEXPR Function
// (String)", "OCCURRENCES_REGEXPR Function (String)", "LIKE_REGEXPR Predicate").
describe("HANA test server: *_REGEXPR functions and LIKE_REGEXPR (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({
    client: { dataFormatSupport: 8 },
    setup: [
      "CREATE TABLE rx (id INTEGER, txt NVARCHAR(100))",
      "INSERT INTO rx VALUES (1, 'order 20140401 shipped')",
      "INSERT INTO rx VALUES (2, 'This is it')",
      "INSERT INTO rx VALUES (3, NULL)"
    ]
  }, (opened) => (c = opened.client))

  const metadata = async (sql: string) => {
    const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
    rs.close()
    return rs.metadata.map((m) => ({ type: m.dataType, name: m.columnDisplayName }))
  }

  it("LOCATE_REGEXPR is the INTEGER position of a match, its group, or after it; 0 without one", async () => {
    const date = "'([[:digit:]]{4})([[:digit:]]{2})([[:digit:]]{2})'"
    expect(await exec(c, `SELECT LOCATE_REGEXPR(START ${date} IN '20140401' GROUP 3) AS L FROM DUMMY`)).toEqual([{ L: 7 }])
    expect(await exec(c, "SELECT LOCATE_REGEXPR(AFTER 'b+' IN 'abbcbb' OCCURRENCE 2) AS A, LOCATE_REGEXPR('B' FLAG 'i' IN 'abc' FROM 2) AS F, " +
      "LOCATE_REGEXPR('z' IN 'abc') AS N, LOCATE_REGEXPR('b' IN 'abc' FROM 0) AS Z FROM DUMMY")).toEqual([{ A: 7, F: 2, N: 0, Z: 0 }])
    expect(await metadata("SELECT LOCATE_REGEXPR('b' IN 'abc') FROM DUMMY")).toEqual([{ type: INTEGER, name: "LOCATE_REGEXPR('b' IN 'abc')" }])
  })

  it("SUBSTR_REGEXPR / SUBSTRING_REGEXPR return the match or its group as NVARCHAR, NULL without one", async () => {
    expect(await exec(c, "SELECT SUBSTR_REGEXPR('([[:digit:]]{4})([[:digit:]]{2})([[:digit:]]{2})' IN '20140401' GROUP 3) AS D, " +
      "SUBSTRING_REGEXPR('B.' FLAG 'i' IN 'abxcbyd' OCCURRENCE 2) AS O, SUBSTR_REGEXPR('z' IN 'abc') AS N FROM DUMMY")).toEqual([{ D: "01", O: "by", N: null }])
    expect(await exec(c, "SELECT id, SUBSTR_REGEXPR('[0-9]+' IN txt) AS N FROM rx ORDER BY id")).toEqual([
      { ID: 1, N: "20140401" },
      { ID: 2, N: null },
      { ID: 3, N: null }
    ])
    expect((await metadata("SELECT SUBSTR_REGEXPR('b' IN 'abc') AS S FROM DUMMY"))[0]!.type).toBe(NVARCHAR)
  })

  it("REPLACE_REGEXPR replaces every match by default, or the n-th, with group references", async () => {
    expect(await exec(c, "SELECT REPLACE_REGEXPR('([[:digit:]]{4})-([[:digit:]]{2})-([[:digit:]]{2})' IN '2014-04-01' WITH '\\3/\\2/\\1' OCCURRENCE ALL) AS R FROM DUMMY"))
      .toEqual([{ R: "01/04/2014" }])
    expect(await exec(c, "SELECT REPLACE_REGEXPR('a' IN 'banana' WITH 'o' OCCURRENCE 2) AS S, REPLACE_REGEXPR('a' IN 'banana') AS E, " +
      "REPLACE_REGEXPR('a' IN 'banana' WITH 'o' FROM 3) AS F, REPLACE_REGEXPR('a' IN 'banana' WITH 'o' OCCURRENCE -1) AS U FROM DUMMY"))
      .toEqual([{ S: "banona", E: "bnn", F: "banono", U: "banana" }])
  })

  it("OCCURRENCES_REGEXPR counts the matches as an INTEGER; -1 for a start that is not positive", async () => {
    expect(await exec(c, "SELECT OCCURRENCES_REGEXPR('([[:digit:]])' IN 'a1b2') AS N, OCCURRENCES_REGEXPR('a' IN 'banana' FROM 3) AS F, " +
      "OCCURRENCES_REGEXPR('a' IN 'banana' FROM 0) AS Z FROM DUMMY")).toEqual([{ N: 2, F: 2, Z: -1 }])
    expect((await metadata("SELECT OCCURRENCES_REGEXPR('a' IN 'banana') AS N FROM DUMMY"))[0]!.type).toBe(INTEGER)
  })

  it("the functions nest, and take the flags i, s, x and U", async () => {
    // SUBSTR_REGEXPR FROM a LOCATE_REGEXPR whose OCCURRENCE is an OCCURRENCES_REGEXPR
    expect(await exec(c, "SELECT SUBSTR_REGEXPR('\\b\\w+\\b' IN t.txt FROM LOCATE_REGEXPR('input' IN t.txt OCCURRENCE OCCURRENCES_REGEXPR('input' IN t.txt) - 1) + 6) AS W " +
      "FROM (SELECT 'a input b input c input d' AS txt FROM DUMMY) t")).toEqual([{ W: "c" }])
    expect(await exec(c, "SELECT SUBSTR_REGEXPR('a.+c' FLAG 'U' IN 'abcbc') AS U, SUBSTR_REGEXPR('a . c # comment' FLAG 'x' IN 'xabc') AS X, " +
      "LOCATE_REGEXPR('b.c' FLAG 's' IN 'ab' || CHAR(10) || 'c') AS S FROM DUMMY")).toEqual([{ U: "abc", X: "abc", S: 2 }])
  })

  it("a NULL argument gives NULL", async () => {
    expect(await exec(c, "SELECT LOCATE_REGEXPR(NULL IN 'abc') AS L, SUBSTR_REGEXPR('a' IN NULL) AS S, REPLACE_REGEXPR('a' IN 'abc' WITH NULL) AS R, " +
      "OCCURRENCES_REGEXPR('a' IN 'abc' FROM NULL) AS O FROM DUMMY")).toEqual([{ L: null, S: null, R: null, O: null }])
  })

  it("LIKE_REGEXPR filters rows whose text matches (FLAG i), NOT LIKE_REGEXPR the others, NULL text neither", async () => {
    expect(await exec(c, "SELECT id FROM rx WHERE txt LIKE_REGEXPR 'them|this' FLAG 'i' ORDER BY id")).toEqual([{ ID: 2 }])
    expect(await exec(c, "SELECT id FROM rx WHERE txt LIKE_REGEXPR '[0-9]{8}' ORDER BY id")).toEqual([{ ID: 1 }])
    expect(await exec(c, "SELECT id FROM rx WHERE txt NOT LIKE_REGEXPR '^This' ORDER BY id")).toEqual([{ ID: 1 }])
    // `||` binds tighter than the predicate, on either side
    expect(await exec(c, "SELECT id FROM rx WHERE 'x' || txt LIKE_REGEXPR '^x' || 'This' ORDER BY id")).toEqual([{ ID: 2 }])
  })

  it("parameters bind in their written order", async () => {
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT SUBSTR_REGEXPR(? IN ? OCCURRENCE ?) AS X FROM rx WHERE txt LIKE_REGEXPR ?", cb))
    expect(await call((cb) => st.exec(["[0-9]", "a1b2c3", 2, "ship"], cb))).toEqual([{ X: "2" }])
    await call((cb) => st.drop(cb))
  })

  it("an invalid pattern or flag fails with 8 (invalid argument), never DuckDB's text", async () => {
    const bad = await failure(exec(c, "SELECT LOCATE_REGEXPR('(' IN 'abc') AS L FROM DUMMY"))
    expect(bad.code).toBe(8)
    expect(bad.message).toMatch(/^invalid argument: invalid regular expression/)
    expect((await failure(exec(c, "SELECT LOCATE_REGEXPR('a' FLAG 'q' IN 'abc') AS L FROM DUMMY"))).code).toBe(8)
    expect((await failure(exec(c, "SELECT LOCATE_REGEXPR('a' 'abc') AS L FROM DUMMY"))).code).toBe(257)
  })
})
