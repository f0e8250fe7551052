/**
 * One argument of a constructor call in SQL (named-types.ts) as the JSON text of the attribute or element it gives:
 * a scalar checked and converted to its declared type, an object or collection (a column, bind or attribute of that
 * type) as its own stored JSON text, so that `route_t('n', t.p)` nests the object rather than a string of it.
 */
import { sqlString, tokenize, type Tok } from "./lexer.ts"
import type { Member } from "./pickle.ts"
import { Dty, type OraType } from "./types.ts"

/**
 * A constructor argument converted to its NUMBER or datetime attribute's type, `CAST(arg AS type)`, so that the
 * INSERT itself fails on text that is no number (ORA-01722) or no datetime (ORA-01861) and leaves the table as it was.
 * Oracle's default constructor is a function whose "parameters ... are exactly the data attributes of the object type"
 * (Oracle8i Data Cartridge Developer's Guide, "Constructor Methods",
 * https://docs.oracle.com/cd/A83908_02/NT816EE/DOC/appdev.816/a76937/dci03ty4.htm), so its arguments are converted to
 * the attribute types as any function's arguments are, when the statement runs. The translator renders the CAST in
 * the session time zone, which is the zone Oracle gives a TIMESTAMP without one put into a WITH [LOCAL] TIME ZONE
 * type: "The session time zone also takes effect when a TIMESTAMP value is converted to
 * the TIMESTAMP WITH TIME ZONE or TIMESTAMP WITH LOCAL TIME ZONE datatype" (Oracle Database Globalization Support
 * Guide, "Setting the Session Time Zone"); datetime-writes.ts does the same for columns.
 */
const convertedArgument = (member: Member | undefined, arg: ReadonlyArray<Tok>, pos: number, name?: string): ReadonlyArray<Tok> => {
  const scalar = member !== undefined && "scalar" in member ? member.scalar : undefined
  const generated = (sql: string) => tokenize(sql).map((x) => ({ ...x, pos }))
  if (scalar !== undefined && (scalar.kind === "varchar" || scalar.kind === "nvarchar") && scalar.charSize > 0) {
    // longer text than the attribute holds is refused (ORA-12899, as for a column); sizes in bytes unless national
    const where = sqlString(name === undefined ? "(collection element)" : `"${name}"`)
    const checked = [...generated(`ora_attribute_text(CAST(`), ...arg, ...generated(` AS VARCHAR2(32767)), ${scalar.charSize}, ${scalar.kind === "nvarchar" ? "TRUE" : "FALSE"}, ${where})`)]
    // a CHAR(n) / NCHAR(n) attribute holds its text blank-padded to n, as a CHAR column does (SQL Language Reference,
    // "CHAR Data Type": "Oracle blank-pads the value to the column length")
    return scalar.dty === Dty.CHAR ? [...generated(`ora_attribute_char(`), ...checked, ...generated(`, ${scalar.charSize}, ${scalar.kind === "nvarchar" ? "TRUE" : "FALSE"})`)] : checked
  }
  if (scalar === undefined || !CONVERTED_KINDS.has(scalar.kind)) return arg
  // a DATE by way of TIMESTAMP, whose failed conversion DuckDB reports as a datetime error (pickle.ts drops the fraction);
  // a NUMBER(p,s) attribute rounds to its scale and refuses more digits than its precision (ORA-01438), as a column does
  const bounded = scalar.kind === "number" && scalar.dictName === "NUMBER" && scalar.precision > 0
  const target = bounded ? `NUMBER(${scalar.precision},${scalar.scale})` : scalar.kind === "number" ? "NUMBER" : scalar.kind === "date" ? "TIMESTAMP" : scalar.dictName
  return [...generated(`CAST(`), ...arg, ...generated(` AS ${target})`)]
}

const CONVERTED_KINDS: ReadonlySet<OraType["kind"]> = new Set(["number", "date", "timestamp", "timestamptz", "timestampltz"])

/** The tokens of argument `arg` (already rewritten) of a constructor call, for member `member` (undefined: unknown). */
export const constructorArgument = (member: Member | undefined, arg: ReadonlyArray<Tok>, pos: number, name?: string): ReadonlyArray<Tok> => {
  const generated = (sql: string) => tokenize(sql).map((x) => ({ ...x, pos }))
  if (member !== undefined && "named" in member && member.named.kind !== "xmltype") return [...generated("ora_object_json("), ...arg, ...generated(")")]
  return [...generated("ora_json_item("), ...convertedArgument(member, arg, pos, name), ...generated(")")]
}
