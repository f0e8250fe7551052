import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

/**
 * Oracle's SQL_ID of a statement text, written here independently of the server: the last 8 bytes of MD5(text || NUL)
 * as two little-endian 32-bit words, in base 32 with the alphabet 0-9a-z minus e, i, l, o
 * (https://renenyffenegger.ch/notes/development/databases/Oracle/SQL/statement/index,
 * https://nenadnoveljic.com/blog/converting-hash_value-to-sql_id).
 */
const sqlId = (text: string): string => {
  const md5 = createHash("md5").update(Buffer.concat([Buffer.from(text, "utf8"), Buffer.from([0])])).digest()
  let n = (BigInt(md5.readUInt32LE(8)) << 32n) | BigInt(md5.readUInt32LE(12))
  const alphabet = "0123456789abcdfghjkmnpqrstuvwxyz"
  let out = ""
  for (let k = 0; k < 13; k++, n >>= 5n) out = alphabet[Number(n & 31n)]! + out
  return out
}

const objects = (r: any) => r.rows.map((row: Array<unknown>) => Object.fromEntries(r.metaData.map((m: any, i: number) => [m.name, row[i]])))

describe("Oracle test server: data dictionary", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "19c", users: [{ name: "hr", password: "hr" }] })
    server = s.server
    conn = await s.connect()
    await conn.execute(`CREATE TABLE dept (deptno NUMBER(4) CONSTRAINT dept_pk PRIMARY KEY, dname VARCHAR2(30) NOT NULL, loc VARCHAR2(20) DEFAULT 'HQ')`)
    await conn.execute(
      `CREATE TABLE emp (empno NUMBER(6), ename NVARCHAR2(40), hired DATE, deptno NUMBER(4),
        CONSTRAINT emp_pk PRIMARY KEY (empno), CONSTRAINT emp_dept_fk FOREIGN KEY (deptno) REFERENCES dept (deptno), UNIQUE (ename))`
    )
    await conn.execute(`CREATE VIEW emp_v AS SELECT empno, ename FROM emp`)
    await conn.execute(`CREATE SEQUENCE emp_seq START WITH 10`)
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("lists users, including Oracle-maintained ones", async () => {
    const r = await conn.execute("SELECT username, oracle_maintained FROM all_users ORDER BY username")
    expect(r.metaData.map((m: any) => m.name)).toEqual(["USERNAME", "ORACLE_MAINTAINED"])
    const users = Object.fromEntries(r.rows)
    expect(users).toMatchObject({ HR: "N", SYS: "Y", SYSTEM: "Y" })
    expect((await conn.execute("SELECT username FROM user_users")).rows).toEqual([["HR"]])
  })

  it("describes tables, views and columns with Oracle's column names", async () => {
    expect((await conn.execute("SELECT table_name FROM user_tables ORDER BY table_name")).rows).toEqual([["DEPT"], ["EMP"]])
    expect((await conn.execute("SELECT owner, table_name FROM all_tables WHERE owner = 'HR' ORDER BY 2")).rows).toEqual([
      ["HR", "DEPT"],
      ["HR", "EMP"]
    ])
    const v = objects(await conn.execute("SELECT view_name, text FROM all_views WHERE owner = 'HR'"))
    expect(v).toEqual([{ VIEW_NAME: "EMP_V", TEXT: "SELECT empno, ename FROM emp" }])
    const cols = objects(
      await conn.execute(
        `SELECT column_name, data_type, data_length, data_precision, data_scale, nullable, column_id, data_default, char_length
         FROM all_tab_columns WHERE owner = 'HR' AND table_name = 'DEPT' ORDER BY column_id`
      )
    )
    expect(cols).toEqual([
      { COLUMN_NAME: "DEPTNO", DATA_TYPE: "NUMBER", DATA_LENGTH: 22, DATA_PRECISION: 4, DATA_SCALE: 0, NULLABLE: "N", COLUMN_ID: 1, DATA_DEFAULT: null, CHAR_LENGTH: 0 },
      { COLUMN_NAME: "DNAME", DATA_TYPE: "VARCHAR2", DATA_LENGTH: 30, DATA_PRECISION: null, DATA_SCALE: null, NULLABLE: "N", COLUMN_ID: 2, DATA_DEFAULT: null, CHAR_LENGTH: 30 },
      { COLUMN_NAME: "LOC", DATA_TYPE: "VARCHAR2", DATA_LENGTH: 20, DATA_PRECISION: null, DATA_SCALE: null, NULLABLE: "Y", COLUMN_ID: 3, DATA_DEFAULT: "'HQ'", CHAR_LENGTH: 20 }
    ])
    const emp = objects(await conn.execute("SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'EMP' ORDER BY column_id"))
    expect(emp.map((c: any) => c.DATA_TYPE)).toEqual(["NUMBER", "NVARCHAR2", "DATE", "NUMBER"])
  })

  it("lists constraints and their columns", async () => {
    const cons = objects(
      await conn.execute(
        "SELECT constraint_name, constraint_type, table_name, r_constraint_name FROM user_constraints WHERE constraint_type IN ('P','R','U') ORDER BY table_name, constraint_type"
      )
    )
    expect(cons).toEqual([
      { CONSTRAINT_NAME: "DEPT_PK", CONSTRAINT_TYPE: "P", TABLE_NAME: "DEPT", R_CONSTRAINT_NAME: null },
      { CONSTRAINT_NAME: "EMP_PK", CONSTRAINT_TYPE: "P", TABLE_NAME: "EMP", R_CONSTRAINT_NAME: null },
      { CONSTRAINT_NAME: "EMP_DEPT_FK", CONSTRAINT_TYPE: "R", TABLE_NAME: "EMP", R_CONSTRAINT_NAME: "DEPT_PK" },
      expect.objectContaining({ CONSTRAINT_TYPE: "U", TABLE_NAME: "EMP" })
    ])
    expect(cons[3].CONSTRAINT_NAME).toMatch(/^SYS_C\d+$/)
    const cc = await conn.execute("SELECT column_name, position FROM all_cons_columns WHERE owner = 'HR' AND constraint_name = 'EMP_DEPT_FK'")
    expect(cc.rows).toEqual([["DEPTNO", 1]])
    const nn = await conn.execute("SELECT search_condition FROM user_constraints WHERE table_name = 'DEPT' AND constraint_type = 'C'")
    expect(nn.rows).toEqual([['"DNAME" IS NOT NULL']])
  })

  it("lists CHECK constraints (type C) with the columns their condition names, NOT NULL ones as \"COL\" IS NOT NULL", async () => {
    // ALL_CONSTRAINTS: "C - Check constraint on a table", SEARCH_CONDITION_VC its text (Database Reference,
    // ALL_CONSTRAINTS); ALL_CONS_COLUMNS lists the columns a check constraint's condition names, with POSITION NULL
    // (POSITION is the "original position of column or attribute in the definition of the object", which a check
    // constraint does not have). NOT NULL constraints are type C too, their condition "COL" IS NOT NULL.
    await conn.execute(
      "CREATE TABLE chk_t (a NUMBER(5) NOT NULL, b NUMBER(5) CONSTRAINT chk_b CHECK (b > 0), c VARCHAR2(5), CONSTRAINT chk_ac CHECK (a < b OR \"C\" IS NULL))"
    )
    try {
      const rows = objects(await conn.execute(
        "SELECT constraint_name, search_condition_vc FROM user_constraints WHERE table_name = 'CHK_T' AND constraint_type = 'C' ORDER BY constraint_name"
      ))
      expect(rows.map((r: { CONSTRAINT_NAME: string }) => r.CONSTRAINT_NAME)).toEqual(["CHK_AC", "CHK_B", expect.stringMatching(/^SYS_C\d+$/)])
      expect(rows[2]!.SEARCH_CONDITION_VC).toBe('"A" IS NOT NULL')
      const cols = await conn.execute(
        "SELECT constraint_name, column_name, position FROM user_cons_columns WHERE table_name = 'CHK_T' AND constraint_name LIKE 'CHK%' ORDER BY constraint_name, column_name"
      )
      expect(cols.rows).toEqual([["CHK_AC", "A", null], ["CHK_AC", "B", null], ["CHK_AC", "C", null], ["CHK_B", "B", null]])
    } finally {
      await conn.execute("DROP TABLE chk_t")
    }
  })

  it("answers ALL_CONSTRAINTS, USER_VIEWS and USER_CONS_COLUMNS like their ALL_/USER_ counterparts", async () => {
    const all = objects(await conn.execute("SELECT owner, constraint_name, constraint_type, table_name, status FROM all_constraints WHERE owner = 'HR' AND table_name = 'DEPT' ORDER BY constraint_type DESC"))
    expect(all).toEqual([
      { OWNER: "HR", CONSTRAINT_NAME: "DEPT_PK", CONSTRAINT_TYPE: "P", TABLE_NAME: "DEPT", STATUS: "ENABLED" },
      expect.objectContaining({ OWNER: "HR", CONSTRAINT_TYPE: "C", TABLE_NAME: "DEPT" })
    ])
    expect((await conn.execute("SELECT view_name, text FROM user_views")).rows).toEqual([["EMP_V", "SELECT empno, ename FROM emp"]])
    expect((await conn.execute("SELECT table_name, column_name, position FROM user_cons_columns WHERE constraint_name = 'EMP_PK'")).rows).toEqual([["EMP", "EMPNO", 1]])
  })

  it("lists indexes and their columns", async () => {
    await conn.execute("CREATE INDEX emp_name_ix ON emp (ename, hired DESC)")
    const ix = await conn.execute("SELECT index_name, table_name, uniqueness, constraint_index FROM user_indexes ORDER BY index_name")
    expect(ix.rows).toEqual([
      ["DEPT_PK", "DEPT", "UNIQUE", "YES"],
      ["EMP_NAME_IX", "EMP", "NONUNIQUE", "NO"],
      ["EMP_PK", "EMP", "UNIQUE", "YES"],
      [expect.stringMatching(/^SYS_C/), "EMP", "UNIQUE", "YES"]
    ])
    const cols = await conn.execute("SELECT column_name, column_position, descend FROM all_ind_columns WHERE index_owner = 'HR' AND index_name = 'EMP_NAME_IX' ORDER BY 2")
    expect(cols.rows).toEqual([["ENAME", 1, "ASC"], ["HIRED", 2, "DESC"]])
    await conn.execute("DROP INDEX emp_name_ix")
  })

  it("keeps table and column comments", async () => {
    await conn.execute("COMMENT ON TABLE dept IS 'Departments'")
    await conn.execute("COMMENT ON COLUMN dept.dname IS 'Department name'")
    expect((await conn.execute("SELECT table_name, table_type, comments FROM user_tab_comments WHERE table_name = 'DEPT'")).rows).toEqual([
      ["DEPT", "TABLE", "Departments"]
    ])
    expect((await conn.execute("SELECT column_name, comments FROM all_col_comments WHERE owner = 'HR' AND table_name = 'DEPT' ORDER BY column_name")).rows).toEqual([
      ["DEPTNO", null],
      ["DNAME", "Department name"],
      ["LOC", null]
    ])
  })

  it("lists objects of every kind", async () => {
    const r = await conn.execute("SELECT object_name, object_type, status FROM user_objects WHERE object_type IN ('TABLE','VIEW','SEQUENCE') ORDER BY 1")
    expect(r.rows).toEqual([
      ["DEPT", "TABLE", "VALID"],
      ["EMP", "TABLE", "VALID"],
      ["EMP_SEQ", "SEQUENCE", "VALID"],
      ["EMP_V", "VIEW", "VALID"]
    ])
    const dual = await conn.execute("SELECT owner, object_type FROM all_objects WHERE object_name = 'DUAL' AND owner = 'SYS'")
    expect(dual.rows).toEqual([["SYS", "TABLE"]])
    expect((await conn.execute("SELECT emp_seq.NEXTVAL, emp_seq.NEXTVAL FROM DUAL")).rows[0][0]).toBe(10)
  })

  it("reports versions, the pluggable database and the session's own V$SESSION row", async () => {
    const v = await conn.execute("SELECT banner FROM v$version")
    expect(v.rows[0][0]).toMatch(/^Oracle Database 19c/)
    const p = await conn.execute("SELECT product, version, version_full FROM product_component_version")
    expect(p.rows[0][1]).toBe("19.0.0.0.0")
    expect((await conn.execute("SELECT name, open_mode FROM v$pdbs")).rows).toEqual([["FREEPDB1", "READ WRITE"]])
    expect((await conn.execute("SELECT SYS_CONTEXT('USERENV','CON_NAME') FROM DUAL")).rows).toEqual([["FREEPDB1"]])
    await conn.execute("SELECT 'previous statement' FROM DUAL")
    const s = objects(
      await conn.execute("SELECT sid, status, username, sql_id, prev_sql_id FROM v$session WHERE sid = SYS_CONTEXT('USERENV','SID')")
    )
    expect(s).toHaveLength(1)
    expect(s[0]).toMatchObject({ STATUS: "ACTIVE", USERNAME: "HR" })
    expect(s[0].SQL_ID).toMatch(/^[0-9a-z]{13}$/)
    expect(s[0].PREV_SQL_ID).toMatch(/^[0-9a-z]{13}$/)
    expect(s[0].SQL_ID).not.toBe(s[0].PREV_SQL_ID)
    // SQL_ID / PREV_SQL_ID are Oracle's hashes of the statement texts: "SELECT * FROM DUAL" is 9g6pyx7qz035v
    // (DBMS_SQL_TRANSLATOR.SQL_ID output in http://ricramblings.blogspot.com/2013/12/getting-sqlid-for-statement.html)
    expect(sqlId("SELECT * FROM DUAL")).toBe("9g6pyx7qz035v")
    await conn.execute("SELECT * FROM DUAL")
    const own = "SELECT sql_id, prev_sql_id FROM v$session WHERE sid = SYS_CONTEXT('USERENV','SID')"
    expect((await conn.execute(own)).rows).toEqual([[sqlId(own), "9g6pyx7qz035v"]])
    // another, idle session is listed as INACTIVE with its own SID
    const other = await oracledb.getConnection({ user: "hr", password: "hr", connectString: server.connectString })
    const otherSid = (await other.execute("SELECT SYS_CONTEXT('USERENV','SID') FROM DUAL")).rows[0][0]
    expect(Number(otherSid)).not.toBe(s[0].SID)
    expect((await conn.execute("SELECT status, username FROM v$session WHERE sid = :1", [Number(otherSid)])).rows).toEqual([["INACTIVE", "HR"]])
    await other.close()
    expect((await conn.execute("SELECT COUNT(*) FROM v$session WHERE sid = :1", [Number(otherSid)])).rows).toEqual([[0]])
    const meta = (await conn.execute("SELECT * FROM v$session WHERE ROWNUM <= 1")).metaData.map((m: any) => m.name)
    expect(meta).toEqual(expect.arrayContaining(["SID", "SERIAL#", "USERNAME", "STATUS", "SQL_ID", "PREV_SQL_ID", "SCHEMANAME"]))
  })

  it("reports the 23ai release in V$VERSION and PRODUCT_COMPONENT_VERSION and the PDB name in the 23ai layout", async () => {
    const s23 = await withServer({ version: "23ai" })
    try {
      const c = await s23.connect()
      expect((await c.execute("SELECT banner FROM v$version")).rows[0][0]).toMatch(/^Oracle Database 23ai/)
      const p = (await c.execute("SELECT version, version_full FROM product_component_version")).rows[0]
      expect(p[0]).toBe("23.0.0.0.0")
      expect(p[1]).toMatch(/^23\.\d+\.\d+\.\d+\.\d+$/)
      expect(c.oracleServerVersionString.startsWith(p[1].split(".").slice(0, 2).join("."))).toBe(true)
      expect((await c.execute("SELECT name FROM v$pdbs")).rows).toEqual([["FREEPDB1"]])
      await c.close()
    } finally {
      await s23.server.close()
    }
  })
})
