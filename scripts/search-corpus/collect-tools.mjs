#!/usr/bin/env node
// Collects real MCP tool definitions from public npm MCP servers into data/search/corpus/ (issue #23).
//
//   node scripts/search-corpus/collect-tools.mjs [--only pkg1,pkg2] [--concurrency 3] [--timeout 20000]
//        [--force] [--max-tools 150] [--npm-dir /work/corpus-npm] [--index-only]
//
// For every entry of scripts/search-corpus/servers.json ({ package, version, domain, bin?, args?, env?,
// scripts?, timeoutMs?, maxTools?, notes? }) it installs the exact version into <npm-dir>/pkgs/<safe-name>
// (npm install --ignore-scripts; with scripts only when the entry says "scripts": true), checks the licence,
// starts the server's bin over stdio with dummy env, calls tools/list (all pages), and writes
// data/search/corpus/servers/<safe-name>.json plus the package's LICENSE file to licenses/<safe-name>.txt.
// Every process it started is killed by PID (with its descendants). Servers that fail are recorded in
// data/search/corpus/skipped.json with the reason. Then index.json and README.md are rewritten.
// Progress goes to stderr.
import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  CORPUS_DIR,
  EXCLUDED_PACKAGES,
  exclusionHit,
  INDEX_FILE,
  isPermissive,
  LICENSES_DIR,
  licenseFromText,
  loadServerFiles,
  normaliseLicense,
  REPO_ROOT,
  readJson,
  SERVERS_DIR,
  SERVERS_LIST,
  SKIPPED_FILE,
  safeName,
} from "./corpus-common.mjs";
import { writeReadme } from "./write-readme.mjs";

// The MCP client comes from the repo's node_modules.
const requireFromRepo = createRequire(join(REPO_ROOT, "package.json"));
const { Client } = await import(
  pathToFileURL(requireFromRepo.resolve("@modelcontextprotocol/sdk/client/index.js")).href
);
const { StdioClientTransport } = await import(
  pathToFileURL(requireFromRepo.resolve("@modelcontextprotocol/sdk/client/stdio.js")).href
);

function parseArgs(argv) {
  const o = {
    only: null,
    concurrency: 3,
    timeout: 20000,
    force: false,
    maxTools: 150,
    npmDir: "/work/corpus-npm",
    indexOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--only")
      o.only = new Set(
        argv[++i]
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      );
    else if (a === "--concurrency") o.concurrency = Number(argv[++i]);
    else if (a === "--timeout") o.timeout = Number(argv[++i]);
    else if (a === "--max-tools") o.maxTools = Number(argv[++i]);
    else if (a === "--npm-dir") o.npmDir = argv[++i];
    else if (a === "--force") o.force = true;
    else if (a === "--index-only") o.indexOnly = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);

// ---------------------------------------------------------------------------------------------------------
// process bookkeeping: every PID we start, killed with its descendants

/** pid -> ppid for every live process, from /proc. */
function processTable() {
  const table = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(d), Number(rest[1]));
    } catch {}
  }
  return table;
}

function descendants(pid) {
  const table = processTable();
  const out = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift();
    for (const [child, parent] of table)
      if (parent === p && !out.includes(child)) {
        out.push(child);
        queue.push(child);
      }
  }
  return out;
}

/** PIDs whose working directory is inside dir (catches daemons re-parented away from our child). */
function pidsWithCwdIn(dir) {
  const out = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${d}/cwd`).startsWith(dir)) out.push(Number(d));
    } catch {}
  }
  return out;
}

function killPids(pids) {
  for (const p of pids) {
    try {
      process.kill(p, "SIGKILL");
    } catch {}
  }
}

/** Children started by this collector (npm installs, servers), killed with their descendants on a signal. */
const active = new Set();
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    for (const p of active) killPids([...descendants(p), p]);
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------------------
// install

function run(cmd, args, { cwd, timeoutMs, env }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    active.add(child.pid);
    let out = "";
    const onData = (b) => {
      out += b;
      if (out.length > 20000) out = out.slice(-20000);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const timer = setTimeout(() => {
      killPids([...descendants(child.pid), child.pid]);
    }, timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      active.delete(child.pid);
      resolve({ code, signal, out });
    });
  });
}

async function install(entry, dir) {
  // .installed is written only after a complete install, so an interrupted one is redone.
  const marker = join(dir, ".installed");
  const installId = `${entry.package}@${entry.version}${entry.scripts ? " with scripts" : ""}`;
  if (existsSync(marker) && readFileSync(marker, "utf8") === installId && !opts.force) {
    return { ok: true, cached: true };
  }
  rmSync(marker, { force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "corpus-install", private: true }, null, 2)}\n`,
  );
  const args = [
    "install",
    "--no-audit",
    "--no-fund",
    "--no-save",
    "--loglevel=error",
    `${entry.package}@${entry.version}`,
  ];
  if (!entry.scripts) args.splice(1, 0, "--ignore-scripts");
  const r = await run("npm", args, { cwd: dir, timeoutMs: 300000 });
  if (r.code !== 0)
    return { ok: false, reason: `npm install failed (${r.signal ?? r.code}): ${tail(r.out, 400)}` };
  if (entry.scripts) {
    // npm 11 runs no dependency install script that is not allowed explicitly: rebuild runs them (node-gyp).
    const rb = await run("npm", ["rebuild", "--foreground-scripts", "--loglevel=error"], {
      cwd: dir,
      timeoutMs: 600000,
    });
    if (rb.code !== 0)
      return { ok: false, reason: `npm rebuild failed (${rb.signal ?? rb.code}): ${tail(rb.out, 400)}` };
  }
  writeFileSync(marker, installId);
  return { ok: true };
}

function tail(s, n) {
  const t = String(s ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return t.length > n ? `…${t.slice(-n)}` : t;
}

// ---------------------------------------------------------------------------------------------------------
// licence

function findLicenseFile(pkgDir) {
  const names = readdirSync(pkgDir)
    .filter((f) => /^(licen[sc]e|copying)([.-].*)?$/i.test(f))
    .sort();
  return names[0] ?? null;
}

function licenseOf(pkgDir, pkg) {
  const file = findLicenseFile(pkgDir);
  let spdx = normaliseLicense(pkg.license ?? pkg.licenses);
  let source = "package.json";
  if (!spdx && file) {
    spdx = licenseFromText(readFileSync(join(pkgDir, file), "utf8"));
    source = spdx ? `detected from ${file}` : null;
  }
  return { spdx, source, file };
}

// ---------------------------------------------------------------------------------------------------------
// start + tools/list

function pickBin(entry, pkg) {
  const bin = pkg.bin;
  if (!bin) return null;
  if (typeof bin === "string") return { name: pkg.name.replace(/^@[^/]+\//, ""), rel: bin };
  const keys = Object.keys(bin);
  if (entry.bin) return keys.includes(entry.bin) ? { name: entry.bin, rel: bin[entry.bin] } : null;
  const unscoped = pkg.name.replace(/^@[^/]+\//, "");
  const name = keys.includes(unscoped) ? unscoped : keys.length === 1 ? keys[0] : keys.sort()[0];
  return { name, rel: bin[name] };
}

function commandFor(pkgDir, rel) {
  const file = join(pkgDir, rel);
  const head = readFileSync(file).subarray(0, 2).toString();
  if (head === "#!" && !/node/.test(readFileSync(file, "utf8").split("\n", 1)[0]))
    return { command: file, args: [] };
  if (/\.(c|m)?js$/.test(file) || head === "#!") return { command: process.execPath, args: [file] };
  return { command: file, args: [] };
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms (${what})`)), ms);
    }),
  ]);
}

async function listTools(entry, cmd, runDir, homeDir) {
  const env = {
    PATH: process.env.PATH,
    HOME: homeDir,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    NODE_NO_WARNINGS: "1",
    TMPDIR: runDir,
    ...(entry.env ?? {}),
  };
  const transport = new StdioClientTransport({
    command: cmd.command,
    args: [...cmd.args, ...(entry.args ?? [])],
    env,
    cwd: runDir,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (b) => {
    stderr += b;
    if (stderr.length > 8000) stderr = stderr.slice(-8000);
  });
  const client = new Client({ name: "toolscript-corpus-collector", version: "0.1.0" });
  let pid = null;
  let exited = null;
  const started = [];
  try {
    const timeoutMs = entry.timeoutMs ?? opts.timeout;
    const work = (async () => {
      const p = client.connect(transport);
      pid = transport.pid;
      if (pid) {
        started.push(pid);
        active.add(pid);
      }
      transport.onclose = () => {
        exited ??= "server closed the connection";
      };
      await p;
      const tools = [];
      let cursor;
      for (let page = 0; page < 50; page++) {
        const r = await client.listTools(cursor ? { cursor } : {});
        tools.push(...r.tools);
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      return { serverInfo: client.getServerVersion() ?? null, tools };
    })();
    const r = await withTimeout(work, timeoutMs, "initialize + tools/list");
    return { ok: true, ...r, stderr };
  } catch (e) {
    return { ok: false, reason: `${exited ?? e.message}; stderr: ${tail(stderr, 500)}` };
  } finally {
    const pids = [];
    for (const p of started) pids.push(...descendants(p), p);
    try {
      await withTimeout(client.close(), 3000, "close");
    } catch {}
    killPids(pids);
    killPids(pidsWithCwdIn(runDir));
    for (const p of started) active.delete(p);
  }
}

// ---------------------------------------------------------------------------------------------------------

function shapeTool(t) {
  const o = { name: t.name };
  if (t.title != null) o.title = t.title;
  else if (t.annotations?.title != null) o.title = t.annotations.title;
  o.description = t.description ?? null;
  o.inputSchema = t.inputSchema ?? null;
  return o;
}

async function collectOne(entry, skipped) {
  const safe = safeName(entry.package);
  const outFile = join(SERVERS_DIR, `${safe}.json`);
  const skip = (reason) => {
    skipped[entry.package] = { version: entry.version, reason };
    log(`  ✗ ${entry.package}@${entry.version}: ${reason}`);
  };
  const hit = exclusionHit(entry.package);
  if (hit) return skip(`not collected: ${hit} (unseen check catalog)`);
  if (entry.exclude) {
    rmSync(outFile, { force: true });
    rmSync(join(LICENSES_DIR, `${safe}.txt`), { force: true });
    return skip(`left out by judgement: ${entry.exclude}`);
  }
  if (!opts.force && existsSync(outFile)) {
    const prev = JSON.parse(readFileSync(outFile, "utf8"));
    if (prev.version === entry.version) {
      log(`  = ${entry.package} already collected (${prev.tools.length} tools)`);
      delete skipped[entry.package];
      return;
    }
  }
  const dir = join(opts.npmDir, "pkgs", safe);
  log(`→ ${entry.package}@${entry.version}: installing`);
  const inst = await install(entry, dir);
  if (!inst.ok) return skip(inst.reason);
  const pkgDir = join(dir, "node_modules", entry.package);
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const lic = licenseOf(pkgDir, pkg);
  if (!isPermissive(lic.spdx)) {
    rmSync(outFile, { force: true });
    return skip(
      `licence not permissive/redistributable: ${lic.spdx ?? "none given"}${lic.file ? ` (file ${lic.file})` : " (no licence file)"}`,
    );
  }
  // A server that wraps or re-exports a catalog server has it among its installed packages.
  const wrapped = EXCLUDED_PACKAGES.filter((x) => existsSync(join(dir, "node_modules", x, "package.json")));
  if (wrapped.length) return skip(`not collected: depends on catalog server ${wrapped.join(", ")}`);
  const bin = pickBin(entry, pkg);
  if (!bin) return skip("package has no bin to start over stdio");
  const cmd = commandFor(pkgDir, bin.rel);
  const runDir = join(opts.npmDir, "run", safe);
  const homeDir = join(opts.npmDir, "home");
  mkdirSync(runDir, { recursive: true });
  mkdirSync(homeDir, { recursive: true });
  log(`  starting ${bin.name} ${(entry.args ?? []).join(" ")}`);
  const r = await listTools(entry, cmd, runDir, homeDir);
  if (!r.ok) return skip(`did not answer tools/list offline: ${r.reason}`);
  if (!r.tools.length) return skip(`tools/list returned no tools offline; stderr: ${tail(r.stderr, 300)}`);
  for (const n of [r.serverInfo?.name, pkg.name]) {
    const h = exclusionHit(n);
    if (h) return skip(`not collected: name ${n} hits ${h}`);
  }
  const all = r.tools.map(shapeTool);
  const sorted = [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const max = entry.maxTools ?? opts.maxTools;
  const tools = all.length > max ? sorted.slice(0, max) : all;
  let licenseFile = null;
  if (lic.file) {
    mkdirSync(LICENSES_DIR, { recursive: true });
    licenseFile = `${safe}.txt`;
    copyFileSync(join(pkgDir, lic.file), join(LICENSES_DIR, licenseFile));
  }
  const doc = {
    package: entry.package,
    version: pkg.version,
    license: lic.spdx,
    ...(lic.source !== "package.json" ? { licenseSource: lic.source } : {}),
    licenseFile,
    domain: entry.domain,
    serverInfo: r.serverInfo,
    toolsListed: all.length,
    ...(all.length > max
      ? { truncated: `kept the first ${max} of ${all.length} tools by name (code-point order)` }
      : {}),
    tools,
  };
  mkdirSync(SERVERS_DIR, { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(doc, null, 2)}\n`);
  delete skipped[entry.package];
  log(
    `  ✓ ${entry.package}: ${tools.length} tools${doc.truncated ? ` (capped from ${all.length})` : ""}, ${lic.spdx}`,
  );
}

function writeIndex(entries) {
  const domains = new Map(entries.map((e) => [e.package, e.domain]));
  const index = loadServerFiles().map(({ file, data }) => ({
    package: data.package,
    file,
    license: data.license,
    tools: data.tools.length,
    domain: data.domain ?? domains.get(data.package) ?? null,
  }));
  writeFileSync(INDEX_FILE, `${JSON.stringify(index, null, 2)}\n`);
  return index;
}

async function main() {
  const entries = readJson(SERVERS_LIST, []);
  mkdirSync(CORPUS_DIR, { recursive: true });
  const skipped = readJson(SKIPPED_FILE, {});
  // The catalog's own packages never go in the list.
  for (const e of entries)
    if (EXCLUDED_PACKAGES.includes(e.package)) throw new Error(`${e.package} is excluded`);
  if (!opts.indexOnly) {
    const todo = entries.filter((e) => !opts.only || opts.only.has(e.package));
    log(`collecting ${todo.length} servers with concurrency ${opts.concurrency}`);
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const e = todo[next++];
        try {
          await collectOne(e, skipped);
        } catch (err) {
          skipped[e.package] = { version: e.version, reason: `collector error: ${err.message}` };
          log(`  ✗ ${e.package}: ${err.stack}`);
        }
        writeFileSync(SKIPPED_FILE, `${JSON.stringify(sortKeys(skipped), null, 2)}\n`);
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, worker));
  }
  // Entries removed from servers.json leave skipped.json too.
  const listed = new Set(entries.map((e) => e.package));
  for (const k of Object.keys(skipped)) if (!listed.has(k)) delete skipped[k];
  writeFileSync(SKIPPED_FILE, `${JSON.stringify(sortKeys(skipped), null, 2)}\n`);
  const index = writeIndex(entries);
  writeReadme(index, skipped);
  const total = index.reduce((s, x) => s + x.tools, 0);
  log(`corpus: ${index.length} servers, ${total} tools; skipped ${Object.keys(skipped).length}`);
}

function sortKeys(o) {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

await main();
// Stray handles of crashed servers must not keep the collector alive.
process.exit(0);
