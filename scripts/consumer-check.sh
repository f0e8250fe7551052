#!/usr/bin/env bash
# The consumer check: pack the package, install the tarball into an empty ESM project with the README's install
# command (effect-adbc replaced by the tarball, effect and apache-arrow at the lowest versions the peer ranges
# accept), then type-check the README's "Use it in your app" program with plain tsc (nodenext, no
# allowImportingTsExtensions) and run the compiled JavaScript with plain node. The program starts the HANA test
# server from effect-adbc/testkit/hana and must exit by itself. Every map's sources are in the package. Then the `adbc`
# bin: it names its optional peers when they are missing (the CLI's, then parquet-wasm for a Parquet ingest) and runs
# once they are installed. Last, the README's CLI tour (its "## The `adbc` command line" block) runs in the app, every
# line of it; the test servers it starts are stopped at the end, whether it passed or not.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node="$root/node_modules/.bin/node"
tsc="$root/node_modules/.bin/tsc"
work="$(mktemp -d)"
tour=""
# The tour runs in a process group of its own (timeout makes one): killing the group stops its test servers too.
trap '[ -z "$tour" ] || kill -- "-$tour" 2>/dev/null || true; rm -rf "$work"' EXIT

cd "$root"
npm pack --silent --pack-destination "$work" >/dev/null # prepack runs the build
tarball="$(ls "$work"/effect-adbc-*.tgz)"
lowest() { "$node" -e 'const r = require(process.argv[1]).peerDependencies[process.argv[2]]; console.log(r.match(/\d+\.\d+\.\d+(-[\w.]+)?/)[0])' "$root/package.json" "$1"; }
effect_lowest="$(lowest effect)"
arrow_lowest="$(lowest apache-arrow)"
install="$("$node" scripts/readme-example.mjs README.md sh)"
"$node" scripts/readme-example.mjs README.md ts >/dev/null

mkdir "$work/app"
cd "$work/app"
echo '{ "name": "consumer", "private": true, "type": "module" }' >package.json
"$node" "$root/scripts/readme-example.mjs" "$root/README.md" ts >main.ts
cat >tsconfig.json <<JSON
{
  "compilerOptions": {
    "target": "ES2023", "module": "nodenext", "moduleResolution": "nodenext",
    "strict": true, "outDir": "out", "types": ["node"], "typeRoots": ["$root/node_modules/@types"]
  },
  "files": ["main.ts"]
}
JSON
# The README's install command, word for word but for the package itself and the peers' lower bounds.
install="$(echo "$install" | sed -E "s#(^| )effect-adbc( |\$)#\1$tarball\2#; s#(^| )effect( |\$)#\1effect@$effect_lowest\2#; s#(^| )apache-arrow( |\$)#\1apache-arrow@$arrow_lowest\2#")"
echo "consumer check: $install"
eval "$install --no-audit --no-fund --loglevel=error"
test "$("$node" -p 'require("./node_modules/effect/package.json").version')" = "$effect_lowest"
test "$("$node" -p 'require("./node_modules/apache-arrow/package.json").version')" = "$arrow_lowest"

"$tsc" -p tsconfig.json
timeout 120 "$node" out/main.js

# Every source a declaration map or source map names is in the package (go-to-definition and stack traces land in
# the TypeScript sources).
"$node" -e '
const fs = require("node:fs"), path = require("node:path")
const missing = []
const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
  const p = path.join(dir, e.name)
  if (e.isDirectory()) walk(p)
  else if (p.endsWith(".map")) for (const s of JSON.parse(fs.readFileSync(p, "utf8")).sources) {
    if (!fs.existsSync(path.resolve(path.dirname(p), s))) missing.push(`${p} -> ${s}`)
  }
} }
walk("node_modules/effect-adbc/dist")
if (missing.length > 0) { console.error(`map sources missing from the package:\n${missing.slice(0, 10).join("\n")}`); process.exit(1) }'

# The adbc bin: without its optional peers it names what to install; with them it runs.
PATH="$(dirname "$node"):$PATH"
if hint="$(npx --no-install adbc --help 2>&1)"; then echo "adbc ran without its CLI peers"; exit 1; fi
echo "$hint" | grep -q "npm install @effect/platform-node$"
npm install --no-audit --no-fund --loglevel=error @effect/platform-node
npx --no-install adbc --version
npx --no-install adbc --help | grep -q "table-schema"
# CSV and Parquet need one more optional peer each: without it the ingest names it (before connecting: the URI is a
# closed port), with it the same file gets as far as the reader.
printf 'A\n1\n' >one.csv
if hint="$(npx --no-install adbc ingest one.csv --uri hdb://u:p@127.0.0.1:1 --table T 2>&1)"; then echo "adbc ingest read CSV without csv-parse"; exit 1; fi
echo "$hint" | grep -q "^error: NOT_IMPLEMENTED: reading CSV needs csv-parse.*: npm install csv-parse"
npm install --no-audit --no-fund --loglevel=error csv-parse
if read="$(npx --no-install adbc ingest one.csv --uri hdb://u:p@127.0.0.1:1 --table T 2>&1)"; then echo "adbc ingest reached a closed port"; exit 1; fi
echo "$read" | grep -q "^error: IO"
: >empty.parquet
ingest_parquet() { npx --no-install adbc ingest empty.parquet --uri hdb://u:p@127.0.0.1:1 --table T 2>&1; }
if hint="$(ingest_parquet)"; then echo "adbc ingest read Parquet without parquet-wasm"; exit 1; fi
echo "$hint" | grep -q "^error: NOT_IMPLEMENTED: reading Parquet needs parquet-wasm.*: npm install parquet-wasm"
npm install --no-audit --no-fund --loglevel=error parquet-wasm
if read="$(ingest_parquet)"; then echo "adbc ingest accepted an empty Parquet file"; exit 1; fi
echo "$read" | grep -q "empty.parquet is not a readable Parquet file"

# A driver whose client is not installed is named with its install command, before any connection is tried.
if hint="$(npx --no-install adbc query --uri oracle://u:p@127.0.0.1:1/FREEPDB1 "SELECT 1 FROM DUAL" 2>&1)"; then echo "adbc ran the Oracle driver without oracledb"; exit 1; fi
echo "$hint" | grep -q "^error: NOT_IMPLEMENTED: the Oracle driver needs oracledb.*: npm install oracledb"

# The README's CLI tour, word for word but for its two fixed ports (free ones here, so that checks running side by side
# do not collide), with the last peer it needs (the Oracle client). Any failing line fails the check.
oracledb_version="$("$node" -p 'require(process.argv[1]).peerDependencies.oracledb' "$root/package.json")"
npm install --no-audit --no-fund --loglevel=error "oracledb@$oracledb_version"

# Every file the README links to is in the package, and an example from it runs as it stands in the app: compiled
# with plain tsc and run with node, on both test servers (it imports only the package's entry points).
for linked in cli/README.md examples/README.md BENCHMARKS.md docs/features.md; do test -f "node_modules/effect-adbc/$linked"; done
mkdir example
cp node_modules/effect-adbc/examples/quickstart.ts example/
sed 's#"main.ts"#"example/quickstart.ts"#; s#"outDir": "out"#"outDir": "example-out"#' tsconfig.json >tsconfig.example.json
"$tsc" -p tsconfig.example.json
example_output="$(timeout 120 "$node" example-out/quickstart.js oracle)"
echo "$example_output" | grep -q "^read 4 rows in "

"$node" "$root/scripts/readme-example.mjs" "$root/README.md" sh '## The `adbc` command line' >tour.sh
read -r hana_port oracle_port < <("$node" -e '
const net = require("node:net")
const free = () => new Promise((resolve) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)) }) })
Promise.all([free(), free()]).then((ports) => console.log(ports.join(" ")))')
sed -i -E "s/--port 39015( |$)/--port $hana_port\1/; s/--port 39521( |$)/--port $oracle_port\1/" tour.sh
grep -q -- "--port $hana_port" tour.sh && grep -q -- "--port $oracle_port" tour.sh
echo "consumer check: the README's CLI tour (test servers on ports $hana_port and $oracle_port)"
timeout 900 bash -e tour.sh &
tour=$!
wait "$tour"
test -s out.csv
echo "consumer check: passed (effect $effect_lowest, apache-arrow $arrow_lowest)"
