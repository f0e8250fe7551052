/**
 * Generates docs/options.md from the option declarations of the core and of every driver: key, levels, type,
 * default, accepted values and meaning. The type comes from the option's Schema, the default and the accepted values
 * from its declaration, the meaning from the JSDoc on the declaration. `npm run docs` rewrites the file;
 * test/package/options-doc.test.ts fails when it is stale.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import * as HanaOptions from "../layers/hana/HanaOptions.ts"
import * as OracleOptions from "../layers/oracle/OracleOptions.ts"
import { OptionSchemas, type OptionSpec } from "../src/Options.ts"
import * as StandardOptions from "../src/StandardOptions.ts"
import * as Telemetry from "../src/Telemetry.ts"

/** One table of the document: a set of option declarations and the module that declares them. */
interface OptionSection {
  readonly title: string
  readonly intro: string
  readonly source: string
  readonly specs: ReadonlyArray<OptionSpec<any>>
}

/** The core's standard keys, then one section per driver (a new driver adds one entry). */
const sections: ReadonlyArray<OptionSection> = [
  {
    title: "Standard ADBC options (every driver)",
    intro: "The keys ADBC 1.1.0 defines, accepted by every driver.",
    source: "src/StandardOptions.ts",
    specs: StandardOptions.StandardOptions
  },
  {
    title: "Telemetry options (every driver)",
    intro: "What spans and debug log lines may record; see [telemetry.md](telemetry.md).",
    source: "src/Telemetry.ts",
    specs: Telemetry.TelemetryOptions
  },
  {
    title: "SAP HANA driver (`effect-adbc/hana`, `dba.*`)",
    intro: "URI parameters (`hdb://…?TLSServerName=…`) are described in [layers/hana/README.md](../layers/hana/README.md).",
    source: "layers/hana/HanaOptions.ts",
    specs: HanaOptions.HanaOptions
  },
  {
    title: "Oracle driver (`effect-adbc/oracle`, `redo.*`)",
    intro: "The Oracle driver's own keys, on node-oracledb in thin mode.",
    source: "layers/oracle/OracleOptions.ts",
    specs: OracleOptions.OracleOptions
  }
]

const root = fileURLToPath(new URL("..", import.meta.url))

/** A declaration's JSDoc text (tags removed) by option key, read from the TypeScript source. */
export const docsByKey = (source: string): ReadonlyMap<string, string> => {
  const file = ts.createSourceFile(source, readFileSync(root + source, "utf8"), ts.ScriptTarget.Latest, true)
  const docs = new Map<string, string>()
  const visit = (node: ts.Node): void => {
    if (ts.isVariableStatement(node)) {
      for (const declaration of node.declarationList.declarations) {
        const call = declaration.initializer
        const spec = call !== undefined && ts.isCallExpression(call) ? call.arguments[0] : undefined
        if (spec === undefined || !ts.isObjectLiteralExpression(spec)) continue
        const key = spec.properties.find((p) => p.name?.getText() === "key")
        if (key === undefined || !ts.isPropertyAssignment(key) || !ts.isStringLiteral(key.initializer)) continue
        const comment = ts.getJSDocCommentsAndTags(node).map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "").join(" ")
        docs.set(key.initializer.text, comment.replace(/\s+/g, " ").trim())
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return docs
}

/** The value type, from the option's Schema. */
const typeOf = (spec: OptionSpec<unknown>): string => {
  const schema: unknown = spec.schema
  if (schema === OptionSchemas.boolean) return "boolean"
  if (schema === OptionSchemas.positiveInt) return "integer > 0"
  if (schema === OptionSchemas.nonNegativeInt) return "integer ≥ 0"
  if (schema === OptionSchemas.nonEmptyString) return "non-empty string"
  if (schema === OptionSchemas.string) return "string"
  return spec.schema.ast._tag === "Union" ? "enum" : "string"
}

const cell = (text: string): string => text.replace(/\|/g, "\\|")

/** A declared default as the doc shows it: strings in backticks, numbers and booleans as written. */
export const declaredDefault = (value: unknown): string => typeof value === "string" ? `\`${value}\`` : String(value)

const renderSection = (section: OptionSection): string => {
  const docs = docsByKey(section.source)
  const rows = section.specs.map((spec) => {
    const meaning = docs.get(spec.key) ?? ""
    const fallback = spec.default === undefined ? "" : declaredDefault(spec.default)
    const accepted = spec.secret ? `${spec.accepted} (secret: never shown in errors, logs or spans)` : spec.accepted
    return `| \`${spec.key}\` | ${spec.levels.join(", ")} | ${typeOf(spec)} | ${cell(fallback === "" ? "—" : fallback)} | ${
      cell(accepted)
    } | ${cell(meaning)} |`
  })
  return [
    `## ${section.title}`,
    "",
    `${section.intro} Declared in \`${section.source}\`.`,
    "",
    "| key | levels | type | default | accepted values | meaning |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    ""
  ].join("\n")
}

/** The whole of docs/options.md. */
export const renderOptionsDoc = (): string =>
  [
    "# Options",
    "",
    "<!-- Generated by `npm run docs` (scripts/options-doc.ts) from the option declarations; do not edit. -->",
    "",
    "Options are ADBC string key/value pairs. Set them on the database (`Database.layer(options)`, or",
    "`layerDatabaseConfig(\"HANA_\")`, which reads each key from the environment as the prefix plus the key in upper case",
    "with dots as underscores: `HANA_URI`, `HANA_DBA_STATEMENT_FETCH_SIZE`), on a connection (`setOption`) or on a",
    "statement (`setOption`, or the options argument of `query`/`execute`). The narrowest level that has a value wins:",
    "statement, then connection, then database. An unknown key fails `NOT_IMPLEMENTED` when set and `NOT_FOUND` when",
    "read; a bad value fails `INVALID_ARGUMENT`, naming the key, the value (never a secret's) and what is accepted.",
    "A default of — means the option is unset unless given.",
    "",
    ...sections.map(renderSection)
  ].join("\n")

/** Where the generated document lives. */
export const OPTIONS_DOC_PATH = root + "docs/options.md"

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPTIONS_DOC_PATH, renderOptionsDoc())
  console.log(`wrote ${OPTIONS_DOC_PATH}`)
}
