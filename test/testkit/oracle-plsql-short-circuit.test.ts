/**
 * Short-circuit evaluation of AND / OR (and NOT of them, and searched CASE) whose operands call functions: "PL/SQL
 * stops evaluating a logical expression as soon as it can determine the result" (PL/SQL Language Reference,
 * "Short-Circuit Evaluation"), so a function in an operand the operands before it decide is never called, also when
 * the condition stands in parentheses (`IF (x IS NOT NULL AND f(x) > 0)`). Before, every function call of an
 * expression was made before the expression was evaluated. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: short-circuit AND / OR over function calls in PL/SQL", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE OR REPLACE PACKAGE sc_calls AS n NUMBER := 0; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION sc_f(x NUMBER) RETURN NUMBER IS BEGIN sc_calls.n := sc_calls.n + 1; RETURN x; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION sc_ten_by(x NUMBER) RETURN NUMBER IS BEGIN RETURN 10 / x; END;")
  })
  afterAll(() => closeConnection(opened))

  /** Runs `body` (after `DECLARE x NUMBER := <x>;`) with the call counter reset; its :o and the calls of sc_f made. */
  const run = async (x: string, body: string): Promise<[unknown, unknown]> => {
    const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }
    const r = await conn.execute(`DECLARE x NUMBER := ${x}; BEGIN sc_calls.n := 0; :o := 'none'; ${body} :c := sc_calls.n; END;`, { o: out, c: out })
    return [r.outBinds.o, r.outBinds.c]
  }

  it("does not call a function in an AND operand after a FALSE or NULL one, in parentheses or not", async () => {
    expect(await run("NULL", "IF (x IS NOT NULL AND sc_f(x) > 0) THEN :o := 'then'; END IF;")).toEqual(["none", "0"])
    expect(await run("NULL", "IF x IS NOT NULL AND sc_f(x) > 0 THEN :o := 'then'; END IF;")).toEqual(["none", "0"])
    expect(await run("NULL", "IF ((x IS NOT NULL) AND (sc_f(x) > 0)) THEN :o := 'then'; END IF;")).toEqual(["none", "0"])
    expect(await run("NULL", "IF NOT (x IS NOT NULL AND sc_f(x) > 0) THEN :o := 'not'; END IF;")).toEqual(["not", "0"])
    expect(await run("5", "IF (x IS NOT NULL AND sc_f(x) > 0) THEN :o := 'then'; END IF;")).toEqual(["then", "1"])
  })

  it("does not call a function in an OR operand after a TRUE one, nor in a CASE branch not chosen", async () => {
    expect(await run("1", "IF (x = 1 OR sc_f(x) > 0) THEN :o := 'then'; END IF;")).toEqual(["then", "0"])
    expect(await run("1", ":o := CASE WHEN x = 1 THEN 'one' ELSE TO_CHAR(sc_f(x)) END;")).toEqual(["one", "0"])
    expect(await run("1", "DECLARE b BOOLEAN; BEGIN b := (x <> 1 AND sc_f(x) > 0); IF NOT b THEN :o := 'false'; END IF; END;")).toEqual(["false", "0"])
  })

  it("raises no ZERO_DIVIDE from a function in an operand that is not evaluated", async () => {
    expect(await run("0", "IF (x = 0 OR sc_ten_by(x) > 1) THEN :o := 'zero'; END IF;")).toEqual(["zero", "0"])
    expect(await run("0", "IF (x <> 0 AND sc_ten_by(x) > 1) THEN :o := 'then'; END IF;")).toEqual(["none", "0"])
    await expect(run("0", "IF (x = 0 AND sc_ten_by(x) > 1) THEN :o := 'then'; END IF;")).rejects.toThrow(/ORA-01476/)
  })
})
