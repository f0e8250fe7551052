/**
 * Object tables: `CREATE TABLE t OF type [(object properties)] [OBJECT IDENTIFIER IS ...]` and the rows written into
 * them. "An object table is a special kind of table in which each row represents an object" whose columns are the
 * type's attributes; "you can view this table in two ways: as a single-column table in which each row is an object
 * ... [or] as a multi-column table in which each attribute of the object type ... occupies a column"
 * (Object-Relational Developer's Guide, "Object Tables"). Here it is the second view: a relational table with one
 * column per attribute, marked in the catalog with its type (`TableMeta.objectType`), so that SELECT *, UPDATE and
 * DELETE by attribute and DROP work as on any table, and the object view (`VALUE(p)`, REF, DEREF) is rewritten on
 * top of it (object-references.ts).
 *
 * The object properties are constraints and defaults on attributes ("object_properties" of CREATE TABLE,
 * object_table: `{ column | attribute } [DEFAULT expr] [inline_constraint]... | out_of_line_constraint`); an
 * `INSERT INTO t VALUES (type(...))` inserts the attributes of the constructed object, as `INSERT INTO t VALUES
 * (attr, ...)` does ("Object Tables": both forms are shown in the guide's examples).
 */
import type { TableMeta } from "./catalog.ts"
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import type { Member, NamedType } from "./pickle.ts"
import { attributeExtraction } from "./object-attributes.ts"
import { quoteDuck } from "./names.ts"

type LookupTable = (schema: string | undefined, name: string) => TableMeta | undefined
type LookupType = (owner: string | undefined, name: string) => NamedType | undefined

const nameOf = (t: Tok): string => (t.kind === "qident" ? t.value : t.value.toUpperCase())

/** The declared type text of an attribute, as CREATE TABLE reads it back (types.ts parseOracleType). */
export const memberTypeText = (member: Member): string => {
  if ("named" in member) return `${quoteDuck(member.named.schema)}.${quoteDuck(member.named.name)}`
  const t = member.scalar
  switch (t.kind) {
    case "number":
      if (t.dictName === "FLOAT") return `FLOAT(${t.dictPrecision ?? 126})`
      return t.dictPrecision === null ? "NUMBER" : `NUMBER(${t.dictPrecision},${t.dictScale ?? 0})`
    case "varchar":
    case "nvarchar":
      return `${t.dictName}(${t.charSize}${t.charSemantics === true ? " CHAR" : ""})`
    case "raw":
      return `RAW(${t.charSize})`
    default:
      return t.dictName
  }
}

const CONSTRAINT_HEADS = ["CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "SCOPE", "REF", "SUPPLEMENTAL"]

/**
 * The relational CREATE TABLE an object table amounts to, for `CREATE TABLE name OF type ...` whose `OF` is
 * `toks[at]` (significant tokens of `sql`): one column per attribute, in the type's order, with the inline
 * properties written for it, then the out-of-line constraints. `OBJECT IDENTIFIER IS SYSTEM GENERATED | PRIMARY KEY`
 * and `[NOT] SUBSTITUTABLE AT ALL LEVELS` are taken and left out. ORA-00902 when the name is no object type, ORA-00904
 * for a property naming no attribute.
 */
export const objectTableDefinition = (toks: ReadonlyArray<Tok>, at: number, sql: string, lookupType: LookupType): { sql: string; type: NamedType } => {
  let k = at + 1
  if (!isName(toks[k])) throw new OraError(902, "invalid datatype")
  const qualified = isOp(toks[k + 1], ".") && isName(toks[k + 2])
  const type = qualified ? lookupType(nameOf(toks[k]!), nameOf(toks[k + 2]!)) : lookupType(undefined, nameOf(toks[k]!))
  // Unconfirmed: the code Oracle gives `OF` a collection type; it names object types only ("object_table")
  if (type === undefined || type.kind !== "object") throw new OraError(902, "invalid datatype")
  k += qualified ? 3 : 1
  const inline = new Map<string, string>()
  const outOfLine: Array<string> = []
  if (isOp(toks[k], "(")) {
    const close = matchParen(toks, k)
    if (close < 0) throw new OraError(907, "missing right parenthesis")
    const elements = splitTopLevel(toks.slice(k + 1, close))
    // each element's text runs to the separator after it (the next element's comma or the closing parenthesis)
    let from = k + 1
    for (const el of elements) {
      const to = from + el.length
      const end = toks[to]!.pos
      if (el.length > 0) {
        const head = el[0]!
        if (isName(head) && !isKw(head, ...CONSTRAINT_HEADS)) {
          const attr = nameOf(head)
          if (!type.attributes.some((a) => a.name === attr)) throw new OraError(904, `${quoteDuck(attr)}: invalid identifier`)
          inline.set(attr, `${inline.get(attr) ?? ""} ${el.length > 1 ? sql.slice(el[1]!.pos, end) : ""}`)
        } else outOfLine.push(sql.slice(head.pos, end))
      }
      from = to + 1
    }
    k = close + 1
  }
  const rest: Array<Tok> = []
  for (; k < toks.length; k++) {
    if (isKw(toks[k], "OBJECT") && isKw(toks[k + 1], "IDENTIFIER") && isKw(toks[k + 2], "IS")) {
      k += isKw(toks[k + 3], "SYSTEM", "PRIMARY") ? 4 : 3
      continue
    }
    const substitutable = isKw(toks[k], "NOT") ? k + 1 : k
    if (isKw(toks[substitutable], "SUBSTITUTABLE") && isKw(toks[substitutable + 1], "AT") && isKw(toks[substitutable + 2], "ALL") && isKw(toks[substitutable + 3], "LEVELS")) {
      k = substitutable + 3
      continue
    }
    rest.push(toks[k]!)
  }
  const columns = type.attributes.map((a) => `${quoteDuck(a.name)} ${memberTypeText(a.member)}${inline.get(a.name) ?? ""}`)
  const tail = rest.map((t) => sql.slice(t.pos, t.pos + t.text.length)).join(" ")
  return { sql: `${sql.slice(0, toks[at]!.pos)}(${[...columns, ...outOfLine].join(", ")}) ${tail}`, type }
}

/**
 * The relational statement of `CREATE [GLOBAL TEMPORARY] TABLE [schema.]name OF type ...` (see
 * {@link objectTableDefinition}), with the table's schema (`schema` when unqualified) and name; undefined for any
 * other statement. Read before the statement is translated, where `type (...)` would be taken for a constructor call.
 */
export const objectTableStatement = (sql: string, schema: string, lookupType: LookupType): { sql: string; type: NamedType; schema: string; name: string } | undefined => {
  if (!/^\s*CREATE\s+(?:GLOBAL\s+TEMPORARY\s+)?TABLE\s+[^(]*?\bOF\b/i.test(sql)) return undefined
  const toks = tokenize(sql).filter((t) => t.kind !== "ws")
  let k = isKw(toks[1], "GLOBAL") ? 4 : 2
  if (!isKw(toks[k - 1], "TABLE") || !isName(toks[k])) return undefined
  const qualified = isOp(toks[k + 1], ".") && isName(toks[k + 2])
  const [owner, name] = qualified ? [nameOf(toks[k]!), nameOf(toks[k + 2]!)] : [schema, nameOf(toks[k]!)]
  k += qualified ? 3 : 1
  if (!isKw(toks[k], "OF")) return undefined
  return { ...objectTableDefinition(toks, k, sql, lookupType), schema: owner, name }
}

/**
 * A DATE or TIMESTAMP attribute of the object `"ORA$OBJECT"`: held as text (a constructed or bound object:
 * bound-object-text.ts) or as extended JSON (`{"$oracleDate": "2024-01-02T00:00:00"}`, `{"$oracleTimestamp": ...}`:
 * extended-json.ts), both read here; undefined for other attributes.
 */
const boundDatetime = (member: Member, i: number): string | undefined => {
  if (!("scalar" in member) || (member.scalar.kind !== "date" && member.scalar.kind !== "timestamp")) return undefined
  const at = (suffix: string) => `json_extract_string("ORA$OBJECT", '$[${i}]${suffix}')`
  return `CAST(replace(coalesce(${at('."$oracleDate"')}, ${at('."$oracleTimestamp"')}, ${at("")}), 'T', ' ') AS ${member.scalar.dictName})`
}

const ora2315 = () => new OraError(2315, "incorrect number of arguments for default constructor")

/** The type's constructor call `[owner.]type(args)` as the whole of `item` (significant tokens): the index of its `(`. */
const constructorOpen = (item: ReadonlyArray<Tok>, type: NamedType): number | undefined => {
  const named = isName(item[0]) && isOp(item[1], ".") && isName(item[2]) ? 3 : 1
  const matches = isName(item[0]) && nameOf(item[named - 1]!) === type.name && (named === 1 || nameOf(item[0]!) === type.schema)
  return matches && isOp(item[named], "(") && matchParen(item, named) === item.length - 1 ? named : undefined
}

/**
 * `UPDATE t alias SET VALUE(alias) = type(a, b, ...)` on an object table ("update_set_clause": `VALUE (t_alias) =
 * expr`, SQL Language Reference, UPDATE): every attribute set from the constructor's arguments (ORA-02315 when their
 * number is not the type's). Another right-hand side is left to fail.
 */
const expandValueUpdate = (toks: ReadonlyArray<Tok>, sig: ReadonlyArray<number>, lookup: LookupTable): ReadonlyArray<Tok> => {
  const at = (n: number) => toks[sig[n] ?? -1]
  if (!isName(at(1))) return toks
  const qualified = isOp(at(2), ".") && isName(at(3))
  const meta = qualified ? lookup(nameOf(at(1)!), nameOf(at(3)!)) : lookup(undefined, nameOf(at(1)!))
  const type = meta?.objectType
  let n = qualified ? 4 : 2
  const alias = isName(at(n)) && !isKw(at(n), "SET") ? at(n++)! : undefined
  if (type === undefined || alias === undefined || !isKw(at(n), "SET") || !isKw(at(n + 1), "VALUE") || !isOp(at(n + 2), "(")) return toks
  if (!isName(at(n + 3)) || nameOf(at(n + 3)!) !== nameOf(alias) || !isOp(at(n + 4), ")") || !isOp(at(n + 5), "=")) return toks
  // the right-hand side runs to WHERE / RETURNING (or the end) at its own level
  const from = n + 6
  let end = from
  for (let depth = 0; end < sig.length; end++) {
    const t = at(end)!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    else if (depth === 0 && isKw(t, "WHERE", "RETURNING", "RETURN", "LOG")) break
  }
  const item = sig.slice(from, end).map((k) => toks[k]!)
  const open = constructorOpen(item, type)
  if (open === undefined) return toks
  const args = splitTopLevel(toks.slice(sig[from + open]! + 1, sig[end - 1]!)).filter((p) => p.some((t) => t.kind !== "ws"))
  if (args.length !== type.attributes.length) throw ora2315()
  const pos = item[0]!.pos
  const sets = type.attributes.flatMap((a, i): Array<Tok> => [
    ...(i > 0 ? [{ kind: "op" as const, text: ",", value: ",", pos }] : []),
    { kind: "qident", text: quoteDuck(a.name), value: a.name, pos },
    { kind: "op", text: "=", value: "=", pos },
    ...args[i]!
  ])
  return [...toks.slice(0, sig[n + 1]!), ...sets, { kind: "ws", text: " ", value: " ", pos }, ...toks.slice(sig[end - 1]! + 1)]
}

/**
 * `INSERT INTO t [alias] VALUES (x)` into an object table whose single value is one of its type: a constructor call
 * `type(a, b, ...)` becomes the attribute values `(a, b, ...)` (ORA-02315 when their number is not the type's), any
 * other expression of the type (a DbObject bind, a PL/SQL variable, a subquery of VALUE(p)) one extraction per
 * attribute; `UPDATE t p SET VALUE(p) = type(...)` sets each attribute. Other statements are returned as they are.
 */
export const expandObjectTableWrites = (toks: ReadonlyArray<Tok>, lookup: LookupTable): ReadonlyArray<Tok> => {
  const sig = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (n: number) => toks[sig[n] ?? -1]
  if (isKw(at(0), "UPDATE")) return expandValueUpdate(toks, sig, lookup)
  if (!isKw(at(0), "INSERT") || !isKw(at(1), "INTO") || !isName(at(2))) return toks
  let n = 2
  const qualified = isOp(at(3), ".") && isName(at(4))
  const meta = qualified ? lookup(nameOf(at(2)!), nameOf(at(4)!)) : lookup(undefined, nameOf(at(2)!))
  const type = meta?.objectType
  if (type === undefined) return toks
  n += qualified ? 3 : 1
  if (isName(at(n)) && !isKw(at(n), "VALUES")) n++
  if (!isKw(at(n), "VALUES") || !isOp(at(n + 1), "(")) return toks
  const open = sig[n + 1]!
  const close = matchParen(toks, open)
  if (close < 0) return toks
  const items = splitTopLevel(toks.slice(open + 1, close)).map((p) => p.filter((t) => t.kind !== "ws"))
  if (items.length !== 1 || items[0]!.length === 0) return toks
  const item = items[0]!
  // the type's constructor, by its name (or owner.name), over the whole value
  const named = constructorOpen(item, type)
  if (named !== undefined) {
    const args = toks.slice(toks.indexOf(item[named]!) + 1, toks.indexOf(item[item.length - 1]!))
    if (splitTopLevel(args).filter((p) => p.some((t) => t.kind !== "ws")).length !== type.attributes.length) throw ora2315()
    return [...toks.slice(0, open + 1), ...args, ...toks.slice(close)]
  }
  // a one-attribute type's single value is that attribute's
  if (type.attributes.length === 1) return toks
  // `SELECT <attribute extractions> FROM (SELECT x AS "ORA$OBJECT" FROM DUAL)`: x read once (a bind stays one bind)
  const pos = item[0]!.pos
  const generated = (sql: string) => tokenize(sql).map((t) => ({ ...t, pos }))
  const value: Tok = { kind: "qident", text: '"ORA$OBJECT"', value: "ORA$OBJECT", pos }
  const extractions = type.attributes.flatMap((a, i) => [
    ...(i > 0 ? generated(",") : []),
    ...(boundDatetime(a.member, i) !== undefined ? generated(boundDatetime(a.member, i)!) : attributeExtraction(type, [{ kind: "qident", text: quoteDuck(a.name), value: a.name, pos }], quoteDuck(a.name), [value], pos, ""))
  ])
  return [...toks.slice(0, sig[n]!), ...generated("SELECT "), ...extractions, ...generated(" FROM (SELECT "), ...toks.slice(open + 1, close), ...generated(' AS "ORA$OBJECT" FROM DUAL)'), ...toks.slice(close + 1)]
}
