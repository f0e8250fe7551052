// Prints one fenced block of a README.md section: by default the "## Use it in your app" section's `sh` (the install
// command) or `ts` (the complete program); a third argument names another section (its first block of that language),
// e.g. "## The `adbc` command line" for the CLI tour. Fails when the section or the block is missing, so the consumer
// check cannot silently pass.
import { readFileSync } from "node:fs"

const [readmePath, language, heading = "## Use it in your app"] = process.argv.slice(2)
if (readmePath === undefined || (language !== "sh" && language !== "ts") || !heading.startsWith("## ")) {
  console.error('usage: node scripts/readme-example.mjs README.md sh|ts ["## Section heading"]')
  process.exit(2)
}
const lines = readFileSync(readmePath, "utf8").split("\n")
const start = lines.indexOf(heading)
if (start < 0) {
  console.error(`${readmePath}: no section titled exactly "${heading}"`)
  process.exit(1)
}
const end = lines.findIndex((line, index) => index > start && line.startsWith("## "))
const section = lines.slice(start + 1, end < 0 ? undefined : end)
const open = section.findIndex((line) => line.trim() === "```" + language)
const close = section.findIndex((line, index) => index > open && line.trim() === "```")
if (open < 0 || close < 0) {
  console.error(`${readmePath}: "${heading}" has no complete \`\`\`${language} block`)
  process.exit(1)
}
console.log(section.slice(open + 1, close).join("\n"))
