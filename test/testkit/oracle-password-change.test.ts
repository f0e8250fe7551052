import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

/**
 * Password changes through raw node-oracledb thin: `connection.changePassword(user, old, new)` on an open session
 * and `getConnection({ ..., newPassword })` at logon send the passwords encrypted with the logon's combo key
 * (node-oracledb lib/thin/protocol/messages/auth.js); ALTER USER ... IDENTIFIED BY changes the password and nothing
 * else about the user. The old password stops working, the new one logs on.
 */
describe("Oracle test server: password changes", () => {
  let server: OracleTestServerHandle
  let connect: (user?: string, password?: string) => Promise<Conn>
  let dba: Conn
  beforeAll(async () => {
    ;({ server, connect } = await withServer({ users: [{ name: "dba", password: "dba", dba: true }] }))
    dba = await connect("dba", "dba")
    for (const u of ["pat", "sam", "kim"]) {
      await dba.execute(`CREATE USER ${u} IDENTIFIED BY old_${u}`)
      await dba.execute(`GRANT CREATE SESSION TO ${u}`)
    }
  })
  afterAll(async () => {
    await dba?.close()
    await server?.close()
  })

  const logsOn = async (user: string, password: string): Promise<string> => {
    try {
      const c = await connect(user, password)
      await c.close()
      return "ok"
    } catch (e) {
      return oraCode(e) ?? String(e)
    }
  }

  it("changes the session user's password with connection.changePassword; a wrong old password is ORA-28008", async () => {
    const pat = await connect("pat", "old_pat")
    try {
      expect(oraCode(await failure(() => pat.changePassword("pat", "not_it", "new_pat")))).toBe("ORA-28008")
      expect(await logsOn("pat", "old_pat")).toBe("ok")
      await pat.changePassword("pat", "old_pat", "new_pat")
      // the session stays usable
      expect((await pat.execute("SELECT user FROM dual")).rows).toEqual([["PAT"]])
    } finally {
      await pat.close()
    }
    expect(await logsOn("pat", "new_pat")).toBe("ok")
    expect(await logsOn("pat", "old_pat")).toBe("ORA-01017")
  })

  it("changes the password at logon with getConnection({ newPassword }), and not with a wrong old password", async () => {
    const refused = await failure(() => oracledb.getConnection({ user: "sam", password: "wrong", newPassword: "new_sam", connectString: server.connectString }))
    expect(oraCode(refused)).toBe("ORA-01017")
    expect(await logsOn("sam", "old_sam")).toBe("ok")
    const sam = await oracledb.getConnection({ user: "sam", password: "old_sam", newPassword: "new_sam", connectString: server.connectString })
    expect((await sam.execute("SELECT user FROM dual")).rows).toEqual([["SAM"]])
    await sam.close()
    expect(await logsOn("sam", "new_sam")).toBe("ok")
    expect(await logsOn("sam", "old_sam")).toBe("ORA-01017")
  })

  it("changes only the password with ALTER USER ... IDENTIFIED BY: the user keeps its id and creation date", async () => {
    const before = (await dba.execute("SELECT user_id, created FROM dba_users WHERE username = 'KIM'")).rows
    await dba.execute("ALTER USER kim IDENTIFIED BY new_kim")
    expect((await dba.execute("SELECT user_id, created FROM dba_users WHERE username = 'KIM'")).rows).toEqual(before)
    expect(await logsOn("kim", "new_kim")).toBe("ok")
    expect(await logsOn("kim", "old_kim")).toBe("ORA-01017")
    // another user's password through changePassword needs ALTER USER (the DBA holds it)
    await dba.changePassword("kim", "new_kim", "third_kim")
    expect(await logsOn("kim", "third_kim")).toBe("ok")
    const kim = await connect("kim", "third_kim")
    try {
      expect(oraCode(await failure(() => kim.changePassword("pat", "new_pat", "x_pat")))).toBe("ORA-01031")
    } finally {
      await kim.close()
    }
  })
})
