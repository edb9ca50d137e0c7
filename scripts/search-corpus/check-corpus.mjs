#!/usr/bin/env node
// Validates data/search/corpus/: every server file's shape, the licence gate, the unseen-catalog exclusions
// (package names and serverInfo.name), index.json agreement, the per-server share cap, the requests
// written for the tools (requests/<server>.jsonl); prints totals.
// Exit code 1 on any problem.
//   node scripts/search-corpus/check-corpus.mjs
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CORPUS_DIR,
  EXCLUDED_PACKAGES,
  exclusionHit,
  INDEX_FILE,
  isPermissive,
  LICENSES_DIR,
  loadServerFiles,
  readJson,
  SERVERS_LIST,
} from "./corpus-common.mjs";

const problems = [];
const warnings = [];
const bad = (file, msg) => problems.push(`${file}: ${msg}`);

const servers = loadServerFiles();
const isObj = (v) => v != null && typeof v === "object" && !Array.isArray(v);
const packages = new Set();
let total = 0;
let withTitle = 0;
let emptyDesc = 0;
const licences = new Map();

for (const { file, data: d } of servers) {
  if (!isObj(d)) {
    bad(file, "not an object");
    continue;
  }
  for (const k of ["package", "version", "license", "tools"]) if (d[k] == null) bad(file, `missing ${k}`);
  if (typeof d.package !== "string" || typeof d.version !== "string")
    bad(file, "package/version not strings");
  if (packages.has(d.package)) bad(file, `duplicate package ${d.package}`);
  packages.add(d.package);
  if (!("licenseFile" in d)) bad(file, "missing licenseFile (null when none)");
  if (d.licenseFile != null && !existsSync(join(LICENSES_DIR, d.licenseFile)))
    bad(file, `licenses/${d.licenseFile} missing`);
  if (!isPermissive(d.license)) bad(file, `licence ${d.license} is not on the permissive list`);
  licences.set(d.license, (licences.get(d.license) ?? 0) + 1);
  if (!("serverInfo" in d)) bad(file, "missing serverInfo");
  for (const name of [d.package, d.serverInfo?.name]) {
    const hit = exclusionHit(name);
    if (hit) bad(file, `${JSON.stringify(name)} hits ${hit}`);
  }
  if (!Array.isArray(d.tools) || d.tools.length === 0) {
    bad(file, "tools must be a non-empty array");
    continue;
  }
  const names = new Set();
  for (const t of d.tools) {
    if (!isObj(t) || typeof t.name !== "string" || !t.name) {
      bad(file, `tool without a name: ${JSON.stringify(t).slice(0, 80)}`);
      continue;
    }
    if (names.has(t.name)) bad(file, `duplicate tool ${t.name}`);
    names.add(t.name);
    if (!(t.description === null || typeof t.description === "string"))
      bad(file, `${t.name}: description not a string/null`);
    if (!t.description) emptyDesc++;
    if (t.title != null) {
      withTitle++;
      if (typeof t.title !== "string") bad(file, `${t.name}: title not a string`);
    }
    if (!(t.inputSchema === null || isObj(t.inputSchema))) bad(file, `${t.name}: inputSchema not an object`);
    const extra = Object.keys(t).filter((k) => !["name", "title", "description", "inputSchema"].includes(k));
    if (extra.length) bad(file, `${t.name}: unexpected keys ${extra.join(",")}`);
  }
  if (typeof d.toolsListed === "number" && d.toolsListed > d.tools.length && !d.truncated)
    bad(file, "fewer tools than listed but no truncated note");
  total += d.tools.length;
}

// the requests: each line a {tool, kind, query, also} of this server's tools, 4 to 25 words, no query twice
const KINDS = ["direct", "paraphrase", "task"];
const requestCounts = new Map(KINDS.map((kind) => [kind, 0]));
for (const { file, data: d } of servers) {
  const stem = file.replace(/^servers\//, "").replace(/\.json$/, "");
  const path = join(CORPUS_DIR, "requests", `${stem}.jsonl`);
  if (!existsSync(path) || !Array.isArray(d?.tools)) continue;
  const where = `requests/${stem}.jsonl`;
  const names = new Set(d.tools.map((t) => t?.name));
  const queries = new Set();
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, at) => {
      if (line.trim() === "") return;
      const here = `${where}:${at + 1}`;
      let r;
      try {
        r = JSON.parse(line);
      } catch {
        bad(here, "not JSON");
        return;
      }
      if (!names.has(r.tool)) bad(here, `tool ${JSON.stringify(r.tool)} is not one of the server's`);
      if (!KINDS.includes(r.kind)) bad(here, `kind ${JSON.stringify(r.kind)} is not ${KINDS.join("/")}`);
      else requestCounts.set(r.kind, requestCounts.get(r.kind) + 1);
      const words = typeof r.query === "string" ? r.query.trim().split(/\s+/).length : 0;
      if (words < 4 || words > 25) bad(here, `query has ${words} words (4 to 25)`);
      const key = String(r.query).trim().toLowerCase();
      if (queries.has(key)) bad(here, `query repeats an earlier line: ${JSON.stringify(r.query)}`);
      queries.add(key);
      for (const name of r.also ?? [])
        if (!names.has(name) || name === r.tool)
          bad(here, `also ${JSON.stringify(name)} is not another tool of the server`);
    });
}

// the largest server's share
const sizes = servers.map(({ data }) => [data.package, data.tools?.length ?? 0]).sort((a, b) => b[1] - a[1]);
for (const [p, n] of sizes) {
  if (total && n / total > 0.1)
    bad(p, `${n} tools is ${((100 * n) / total).toFixed(1)}% of the corpus (cap is ~10%)`);
}

// index.json agrees with the files
const index = readJson(INDEX_FILE, null);
if (!Array.isArray(index)) problems.push("index.json missing or not an array");
else {
  const byPkg = new Map(servers.map(({ file, data }) => [data.package, { file, data }]));
  if (index.length !== servers.length)
    problems.push(`index.json has ${index.length} entries, servers/ has ${servers.length}`);
  for (const x of index) {
    const s = byPkg.get(x.package);
    if (!s) {
      problems.push(`index.json: ${x.package} has no server file`);
      continue;
    }
    if (x.file !== s.file || x.tools !== s.data.tools.length || x.license !== s.data.license)
      problems.push(`index.json: ${x.package} disagrees with ${s.file}`);
    if (!x.domain) problems.push(`index.json: ${x.package} has no domain`);
  }
}

// the candidate list never names an excluded package
for (const e of readJson(SERVERS_LIST, []))
  if (EXCLUDED_PACKAGES.includes(e.package)) problems.push(`servers.json lists excluded ${e.package}`);
// no stray licence files
if (existsSync(LICENSES_DIR)) {
  const used = new Set(servers.map(({ data }) => data.licenseFile).filter(Boolean));
  for (const f of readdirSync(LICENSES_DIR))
    if (!used.has(f)) warnings.push(`licenses/${f} belongs to no server file`);
}

console.log(`servers: ${servers.length}`);
console.log(`tools: ${total} (${withTitle} with a title, ${emptyDesc} without a description)`);
console.log(`requests: ${[...requestCounts].map(([kind, n]) => `${kind}=${n}`).join(" ")}`);
console.log(
  `licences: ${[...licences]
    .sort((a, b) => b[1] - a[1])
    .map(([l, n]) => `${l}=${n}`)
    .join(" ")}`,
);
console.log(
  `largest: ${sizes
    .slice(0, 5)
    .map(([p, n]) => `${p}=${n}`)
    .join(" ")}`,
);
for (const w of warnings) console.log(`warning: ${w}`);
if (problems.length) {
  for (const p of problems) console.log(`PROBLEM: ${p}`);
  console.log(`${problems.length} problems`);
  process.exit(1);
}
console.log("corpus OK");
