/**
 * `ALTER TABLE t ADD (constraint, ...)`: the parenthesised form of add_table_constraint, one or several out-of-line
 * constraints, also beside new columns that they name (SQL Language Reference, "ALTER TABLE": `ADD ( { column_definition
 * | virtual_column_definition } [, ...] ) [ out_of_line_constraint ...]` and `ADD ( out_of_line_constraint [, ...] )`).
 * One statement: a constraint the rows break fails it with Oracle's error and adds none of the list. Raw
 * node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))
const constraintsOf = async (table: string) =>
  (await conn.execute(`SELECT constraint_name, constraint_type FROM user_constraints WHERE table_name = '${table}' ORDER BY constraint_name`)).rows

describe("Oracle test server: ALTER TABLE ADD (constraint, ...)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE acl_p (id NUMBER, code VARCHAR2(5), qty NUMBER)")
    await conn.execute("INSERT INTO acl_p VALUES (1, 'a', 5)")
    await conn.execute("INSERT INTO acl_p VALUES (2, 'b', -1)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("adds one parenthesised constraint", async () => {
    await conn.execute("ALTER TABLE acl_p ADD (CONSTRAINT acl_p_pk PRIMARY KEY (id))")
    expect(await constraintsOf("ACL_P")).toEqual([["ACL_P_PK", "P"]])
    expect(await code("INSERT INTO acl_p VALUES (1, 'x', 1)")).toBe("ORA-00001")
  })

  it("adds none of a list when one of them is broken by the rows (ORA-02293), then all of a valid list", async () => {
    expect(await code("ALTER TABLE acl_p ADD (CONSTRAINT acl_p_uk UNIQUE (code), CONSTRAINT acl_p_qty CHECK (qty > 0))")).toBe("ORA-02293")
    expect(await constraintsOf("ACL_P")).toEqual([["ACL_P_PK", "P"]])
    await conn.execute("INSERT INTO acl_p VALUES (3, 'a', 7)")
    await conn.execute("ALTER TABLE acl_p ADD (CONSTRAINT acl_p_uk UNIQUE (id, code), CONSTRAINT acl_p_qty CHECK (qty <> 0))")
    expect(await constraintsOf("ACL_P")).toEqual([["ACL_P_PK", "P"], ["ACL_P_QTY", "C"], ["ACL_P_UK", "U"]])
    expect(await code("UPDATE acl_p SET qty = 0 WHERE id = 1")).toBe("ORA-02290")
    await conn.rollback()
  })

  it("refuses two constraints of one name in the list (ORA-02264) and two primary keys (ORA-02260)", async () => {
    expect(await code("ALTER TABLE acl_p ADD (CONSTRAINT acl_x CHECK (id > 0), CONSTRAINT acl_x CHECK (qty > -5))")).toBe("ORA-02264")
    expect(await code("ALTER TABLE acl_p ADD (CONSTRAINT acl_pk2 PRIMARY KEY (code))")).toBe("ORA-02260")
    expect(await constraintsOf("ACL_P")).toEqual([["ACL_P_PK", "P"], ["ACL_P_QTY", "C"], ["ACL_P_UK", "U"]])
  })

  it("adds new columns and a constraint naming them in one list", async () => {
    await conn.execute("CREATE TABLE acl_c (id NUMBER)")
    await conn.execute("ALTER TABLE acl_c ADD (parent_id NUMBER, note VARCHAR2(10), CONSTRAINT acl_c_fk FOREIGN KEY (parent_id) REFERENCES acl_p (id))")
    expect(await constraintsOf("ACL_C")).toEqual([["ACL_C_FK", "R"]])
    expect(await code("INSERT INTO acl_c VALUES (1, 99, 'x')")).toBe("ORA-02291")
    await conn.execute("INSERT INTO acl_c VALUES (1, 2, 'y')")
    expect((await conn.execute("SELECT id, parent_id, note FROM acl_c")).rows).toEqual([[1, 2, "y"]])
    await conn.rollback()
  })
})
