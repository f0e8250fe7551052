import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

/**
 * The PL/SQL JSON object types JSON_ELEMENT_T, JSON_OBJECT_T, JSON_ARRAY_T and JSON_KEY_LIST through raw
 * node-oracledb (PL/SQL Packages and Types Reference, "JSON Data Structures"): parse and the constructors, the get
 * member functions, put / remove / rename_key / append, TREAT of an element, arrays indexed from 0.
 */
describe("Oracle test server: PL/SQL JSON object types", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const out = { x: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 4000 } }
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))
  const run = async (block: string): Promise<unknown> => ((await conn.execute(block, out)).outBinds as { x: unknown }).x

  it("JSON_OBJECT_T.parse and the constructor read keys with get_string, get_number, get_boolean and has", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T.parse('{"name":"Ann","age":41,"ok":true,"n":null}');
         p JSON_OBJECT_T := JSON_OBJECT_T('{"a":"b"}');
       BEGIN
         :x := o.get_string('name') || '|' || (o.get_number('age') + 1) || '|' || CASE WHEN o.get_boolean('ok') THEN 'T' ELSE 'F' END
           || '|' || CASE WHEN o.has('n') THEN 'has' END || '|' || CASE WHEN o.has('zz') THEN 'has' ELSE 'no' END
           || '|' || NVL(o.get_string('zz'), 'null') || '|' || p.get_string('a') || '|' || o.get_size;
       END;`
    )
    expect(x).toBe("Ann|42|T|has|no|null|b|4")
  })

  it("put overloads, put_null, remove and rename_key change the object; to_string serializes it in key order", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T();
         a JSON_ARRAY_T := JSON_ARRAY_T('[1,2]');
       BEGIN
         o.put('s', 'text');
         o.put('n', 12.5);
         o.put('b', TRUE);
         o.put_null('z');
         o.put('arr', a);
         o.put('obj', JSON_OBJECT_T('{"k":1}'));
         o.put('s', 'again');
         o.remove('b');
         o.rename_key('n', 'num');
         :x := o.to_string;
       END;`
    )
    expect(x).toBe('{"s":"again","num":12.5,"z":null,"arr":[1,2],"obj":{"k":1}}')
  })

  it("get_object, get_array, get and chained calls reach nested values", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T.parse('{"a":{"b":{"c":"deep"}},"list":[10,20,30]}');
         inner JSON_OBJECT_T;
         e JSON_ELEMENT_T;
       BEGIN
         inner := o.get_object('a');
         e := o.get('list');
         :x := inner.get_object('b').get_string('c') || '|' || o.get_array('list').get_size || '|' || o.get_array('list').get_number(2)
           || '|' || e.to_string || '|' || CASE WHEN e.is_array THEN 'array' END || '|' || CASE WHEN o.get('a').is_object THEN 'object' END;
       END;`
    )
    expect(x).toBe("deep|3|30|[10,20,30]|array|object")
  })

  it("get_keys returns a JSON_KEY_LIST of the keys in order", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T.parse('{"b":1,"a":2,"c":3}');
         keys JSON_KEY_LIST;
       BEGIN
         keys := o.get_keys;
         :x := keys.COUNT;
         FOR i IN 1 .. keys.COUNT LOOP
           :x := :x || ' ' || keys(i) || '=' || o.get_number(keys(i));
         END LOOP;
       END;`
    )
    expect(x).toBe("3 b=1 a=2 c=3")
  })

  it("JSON_ARRAY_T: get(i) from 0, get_size, TREAT of an element AS JSON_OBJECT_T in the usual loop", async () => {
    const x = await run(
      `DECLARE
         arr JSON_ARRAY_T := JSON_ARRAY_T.parse('[{"id":1,"name":"x"},{"id":2,"name":"y"}]');
         obj JSON_OBJECT_T;
       BEGIN
         :x := arr.get_size;
         FOR i IN 0 .. arr.get_size - 1 LOOP
           obj := TREAT(arr.get(i) AS JSON_OBJECT_T);
           :x := :x || ' ' || obj.get_number('id') || ':' || obj.get_string('name');
         END LOOP;
       END;`
    )
    expect(x).toBe("2 1:x 2:y")
  })

  it("JSON_ARRAY_T: append, append_null, put inserts before a position, put with overwrite, remove", async () => {
    const x = await run(
      `DECLARE
         arr JSON_ARRAY_T := JSON_ARRAY_T();
       BEGIN
         arr.append(1);
         arr.append('two');
         arr.append_null;
         arr.append(JSON_OBJECT_T('{"k":true}'));
         arr.put(0, 'first');
         arr.put(1, 'one', TRUE);
         arr.remove(3);
         :x := arr.to_string || ' ' || arr.get_string(0) || ' ' || arr.get(3).to_string;
       END;`
    )
    expect(x).toBe('["first","one","two",{"k":true}] first {"k":true}')
  })

  it("an instance is a reference: a put through a copy or through the element get returned shows in the original; clone copies", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T('{"inner":{"v":1}}');
         same JSON_OBJECT_T;
         inner JSON_OBJECT_T;
         copy JSON_OBJECT_T;
       BEGIN
         same := o;
         same.put('added', 'yes');
         inner := o.get_object('inner');
         inner.put('v', 2);
         copy := TREAT(o.clone AS JSON_OBJECT_T);
         copy.put('only', 'copy');
         :x := o.to_string || ' ' || CASE WHEN o.has('only') THEN 'shared' ELSE 'own' END;
       END;`
    )
    expect(x).toBe('{"inner":{"v":2},"added":"yes"} own')
  })

  it("parse of text that is no JSON is ORA-40441; of an array as JSON_OBJECT_T ORA-40587; a method of a NULL instance ORA-30625", async () => {
    const bad = await failure(() => run(`DECLARE o JSON_OBJECT_T; BEGIN o := JSON_OBJECT_T.parse('{"a":'); :x := 'no'; END;`))
    expect(oraCode(bad)).toBe("ORA-40441")
    const kind = await failure(() => run(`DECLARE o JSON_OBJECT_T; BEGIN o := JSON_OBJECT_T.parse('[1,2]'); :x := 'no'; END;`))
    expect(oraCode(kind)).toBe("ORA-40587")
    const unset = await failure(() => run(`DECLARE o JSON_OBJECT_T; BEGIN :x := o.get_string('a'); END;`))
    expect(oraCode(unset)).toBe("ORA-30625")
    const handled = await run(
      `DECLARE
         o JSON_OBJECT_T;
         bad_json EXCEPTION;
         PRAGMA EXCEPTION_INIT(bad_json, -40441);
       BEGIN
         o := JSON_OBJECT_T.parse('not json');
         :x := 'parsed';
       EXCEPTION WHEN bad_json THEN :x := 'caught ' || SQLCODE;
       END;`
    )
    expect(handled).toBe("caught -40441")
  })

  it("lax JSON parses; get_number of a string that is no number is NULL", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T.parse('{a:1, ''b'':"x"}');
       BEGIN
         :x := o.get_number('a') || '|' || NVL(TO_CHAR(o.get_number('b')), 'null') || '|' || o.get_string('b');
       END;`
    )
    expect(x).toBe("1|null|x")
  })

  it("an instance passed to a local procedure is changed in place; a local function returns one, and calls chain off its result", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T();
         PROCEDURE add_key(j IN JSON_OBJECT_T, k VARCHAR2) IS BEGIN j.put(k, 1); END;
         FUNCTION make(t VARCHAR2) RETURN JSON_OBJECT_T IS BEGIN RETURN JSON_OBJECT_T.parse(t); END;
       BEGIN
         add_key(o, 'a');
         o.put('m', make('{"q":2}'));
         o.put('r', make('{"r":3}').get_number('r'));
         :x := o.to_string;
       END;`
    )
    expect(x).toBe('{"a":1,"m":{"q":2},"r":3}')
  })

  it("a stored function parses its CLOB argument and sums an array, called from SQL", async () => {
    await conn.execute(
      `CREATE OR REPLACE FUNCTION pj_sum(p CLOB) RETURN NUMBER IS
         a JSON_ARRAY_T;
         s NUMBER := 0;
       BEGIN
         a := JSON_OBJECT_T.parse(p).get_array('k');
         FOR i IN 0 .. a.get_size - 1 LOOP
           s := s + a.get_number(i);
         END LOOP;
         RETURN s;
       END;`
    )
    const r = await conn.execute(`SELECT pj_sum('{"k":[1,2,3.5]}') FROM dual`)
    expect(r.rows).toEqual([[6.5]])
  })

  it("JSON_ELEMENT_T.parse, TREAT to JSON_OBJECT_T; get_date drops the time of an ISO string, get_timestamp keeps it", async () => {
    const x = await run(
      `DECLARE
         e JSON_ELEMENT_T := JSON_ELEMENT_T.parse('{"t":"2024-03-05T10:11:12"}');
         o JSON_OBJECT_T;
       BEGIN
         o := TREAT(e AS JSON_OBJECT_T);
         :x := CASE WHEN e.is_object THEN 'object' END || ' ' || TO_CHAR(o.get_date('t'), 'YYYY-MM-DD HH24:MI:SS')
           || ' ' || TO_CHAR(o.get_timestamp('t'), 'YYYY-MM-DD HH24:MI:SS');
       END;`
    )
    expect(x).toBe("object 2024-03-05 00:00:00 2024-03-05 10:11:12")
  })

  it("a member procedure of a chained result changes the tree in place; in a stored procedure too", async () => {
    await conn.execute(
      `CREATE OR REPLACE PROCEDURE pj_tag(doc IN OUT VARCHAR2) IS
         o JSON_OBJECT_T := JSON_OBJECT_T.parse(doc);
       BEGIN
         o.get_object('meta').put('tagged', TRUE);
         o.get_array('list').append(3);
         doc := o.to_string;
       END;`
    )
    const r = await conn.execute(`BEGIN :x := '{"meta":{},"list":[1,2]}'; pj_tag(:x); END;`, { x: { dir: oracledb.BIND_INOUT, type: oracledb.STRING, maxSize: 4000 } })
    expect((r.outBinds as { x: unknown }).x).toBe('{"meta":{"tagged":true},"list":[1,2,3]}')
  })

  it("put of a NUMBER variable with more digits than a double keeps is a JSON number; of a DATE variable its ISO 8601 text", async () => {
    const x = await run(
      `DECLARE
         o JSON_OBJECT_T := JSON_OBJECT_T();
         big NUMBER := 12345678901234567890.5;
         at_time DATE := TO_DATE('2021-02-03 04:05:06', 'YYYY-MM-DD HH24:MI:SS');
         midnight DATE := DATE '2020-01-03';
       BEGIN
         o.put('big', big);
         o.put('at', at_time);
         o.put('day', midnight);
         :x := o.to_string || ' ' || CASE WHEN o.get('big').is_number THEN 'number' END;
       END;`
    )
    expect(x).toBe('{"big":12345678901234567890.5,"at":"2021-02-03T04:05:06","day":"2020-01-03T00:00:00"} number')
  })
})
