#!/usr/bin/env node
// The official MCP conformance suite against ToolScript (npm run conformance).
//
// Runs under the repo's Node 20; the suite itself needs Node 22, which the
// sub-package conformance/ brings as the npm package `node` (kept out of the
// root package so it never shadows Node 20 in npm scripts).
//
//   server side: the suite's SERVER scenarios against the vendored
//     everything-server fixture directly, then through `toolscript serve --http`
//     with that fixture as the only upstream, for --requirements 2025-11-25 and
//     2026-07-28; a scenario that passed directly must pass through the gateway.
//   client side: the suite's CLIENT scenarios, each driving
//     scripts/conformance-client.mjs, which runs a program through
//     `toolscript run` against the suite's mock server.
//   client authorization: the suite's `auth/*` client scenarios of both
//     requirement sets, each at its revision, the same way, with an `oauth`
//     server entry and BROWSER set to test/fixtures/browser-follow.mjs
//     (scripts/conformance-auth.mjs says which and renders their table).
//
// Loopback only, bounded in time, and it ends only the processes it started
// (each in its own process group). Progress goes to stderr; the Markdown tables
// go to stdout and, on a full run, to conformance/results.md.
//
// Options:
//   --only server|client|auth|extensions
//                          one part only (`client`: the client scenarios and the auth ones;
//                          `auth`: the client authorization scenarios only); `extensions`: the SEP-2640 skills scenarios
//                          against the gateway alone with seeded skills (see
//                          runExtensionScenarios), also part of a full run
//   --requirements R       one requirement set (2025-11-25 or 2026-07-28); auth scenarios: only R's
//   --scenario S           one scenario (a client scenario if S is one, auth/* at each set that
//                          lists it or at --requirements R, else a server one)
//   --no-pass-through      do not pass the fixture through (by default the gateway's config has
//                          toolscript.passThrough.everything.prefix = "": the suite then sees
//                          the fixture's tools, prompts and resources on the gateway's front end)
//   --no-build             do not run `npm run build` first (the CLI runs from dist/)
//   --keep                 keep the temporary folder (outputs, configs, logs)
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, connect as netConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { authPlan, authTable, runAuthScenarios } from "./conformance-auth.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const sub = join(root, "conformance");
const node22 = join(sub, "node_modules", "node", "bin", "node");
const suiteBin = join(sub, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const fixture = join(sub, "fixture", "everything-server.ts");
const clientScript = join(root, "scripts", "conformance-client.mjs");

export const REQUIREMENTS = ["2025-11-25", "2026-07-28"];
export const CLIENT_SCENARIOS = [
  "initialize",
  "tools_call",
  "sse-retry",
  "request-metadata",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-ref-no-deref",
  "sep-2322-client-request-state",
  "json-schema-2020-12-preservation",
];

const LIMITS = {
  overallMs: 20 * 60_000, // the whole run
  installMs: 5 * 60_000, // npm ci --prefix conformance
  buildMs: 3 * 60_000, // npm run build
  startMs: 60_000, // fixture or gateway until it accepts connections
  scenarioMs: 20_000, // the suite's own per-scenario timeout
  serverSetMs: 6 * 60_000, // one `conformance server --requirements R`
  clientScenarioMs: 90_000, // one `conformance client --scenario S`
  authScenarioMs: 45_000, // one auth scenario (the suite waits authClientMs for the client)
  authClientMs: 30_000, // the suite's --timeout for the client of an auth scenario
  authRunMs: 25_000, // conformance-client.mjs ends `toolscript run` after this
  authBudgetMs: 5 * 60_000, // all auth scenarios; what has not started by then is reported, not run
  authConcurrency: 2, // auth scenarios at a time (each: the suite, toolscript run, the browser script)
};

const { values: opts } = parseArgs({
  options: {
    only: { type: "string" },
    requirements: { type: "string" },
    scenario: { type: "string" },
    "no-pass-through": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (opts.help) {
  process.stderr.write(readFileSync(fileURLToPath(import.meta.url), "utf8").split("import ")[0]);
  process.exit(0);
}
if (opts.only !== undefined && !["server", "client", "auth", "extensions"].includes(opts.only))
  fail(`--only expects server, client, auth or extensions`);
if (opts.requirements !== undefined && !REQUIREMENTS.includes(opts.requirements))
  fail(`--requirements expects one of ${REQUIREMENTS.join(", ")}`);

const passThrough = !opts["no-pass-through"];
const started = new Set(); // child processes we started (each leads its own process group)
const startedAt = Date.now();
const tmp = mkdtempSync(join(tmpdir(), "toolscript-conformance-"));

function log(message) {
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[conformance ${seconds}s] ${message}\n`);
}

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

/** Ends one process group we started: SIGTERM, then SIGKILL after a grace period. */
async function stop(child, graceMs = 3000) {
  if (!started.has(child)) return;
  started.delete(child);
  const running = child.exitCode === null && child.signalCode === null;
  const exited = running ? once(child, "exit").catch(() => {}) : Promise.resolve();
  try {
    process.kill(-child.pid, "SIGTERM"); // the group: also what the leader started
  } catch {
    return;
  }
  const timer = new Promise((resolve) => setTimeout(resolve, graceMs, "timeout"));
  if ((await Promise.race([exited, timer])) === "timeout") {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }
}

function stopAllSync() {
  for (const child of started) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }
  started.clear();
}

/** Starts a command in its own process group, output to a log file. */
function start(command, args, { cwd = root, env = {}, logFile, onLine } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  const out = logFile ? createWriteStream(logFile) : null;
  let pending = "";
  const onData = (chunk) => {
    out?.write(chunk);
    if (!onLine) return;
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const line of lines) onLine(line);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  child.on("exit", () => out?.end());
  return child;
}

/** Runs a command to its end within timeoutMs; resolves { code, timedOut }. */
async function run(command, args, { timeoutMs, ...options }) {
  const child = start(command, args, options);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    log(`${args.slice(0, 3).join(" ")}: over ${timeoutMs / 1000}s, stopping it`);
    stop(child);
  }, timeoutMs);
  const [code] = await once(child, "exit");
  clearTimeout(timer);
  await stop(child); // whatever the leader left in its group
  return { code, timedOut };
}

async function freePort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  await once(server, "close");
  return port;
}

async function waitForPort(port, child, what) {
  const deadline = Date.now() + LIMITS.startMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${what} exited with code ${child.exitCode} before listening`);
    const ok = await new Promise((resolve) => {
      const socket = netConnect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${LIMITS.startMs / 1000}s`);
}

async function ensureInstalled() {
  if (existsSync(node22) && existsSync(suiteBin) && existsSync(join(sub, "node_modules", "tsx"))) return;
  log("installing the conformance sub-package: npm ci --prefix conformance");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = await run(npm, ["ci", "--prefix", sub, "--no-audit", "--no-fund"], {
    timeoutMs: LIMITS.installMs,
    logFile: join(tmp, "npm-ci.log"),
  });
  if (result.code !== 0 || !existsSync(node22) || !existsSync(suiteBin))
    throw new Error(`npm ci --prefix conformance failed (log: ${join(tmp, "npm-ci.log")})`);
}

async function build() {
  if (opts["no-build"]) {
    if (!existsSync(join(root, "dist", "cli", "main.js")))
      throw new Error("dist/ is missing; drop --no-build");
    return;
  }
  log("npm run build (the CLI runs from dist/)");
  const result = await run("npm", ["run", "build"], {
    timeoutMs: LIMITS.buildMs,
    logFile: join(tmp, "build.log"),
  });
  if (result.code !== 0) throw new Error(`npm run build failed (log: ${join(tmp, "build.log")})`);
}

async function startFixture() {
  const port = await freePort();
  log(`starting the everything-server fixture on 127.0.0.1:${port}`);
  // Node 20 (the repo's) runs the fixture through tsx; loopback.mjs keeps it on 127.0.0.1.
  const child = start(process.execPath, ["--import", "tsx", "--import", "./fixture/loopback.mjs", fixture], {
    cwd: sub,
    env: { PORT: String(port) },
    logFile: join(tmp, "fixture.log"),
  });
  await waitForPort(port, child, "the fixture");
  return { child, url: `http://localhost:${port}/mcp` };
}

async function startGateway(fixtureUrl) {
  const port = await freePort();
  const config = {
    mcpServers: { everything: { url: fixtureUrl } },
    toolscript: {
      server: { http: { allowUnauthenticatedLoopback: true } },
      storage: { dir: join(tmp, "gateway-store") },
      ...(passThrough ? { passThrough: { everything: { prefix: "" } } } : {}),
    },
  };
  const configFile = join(tmp, "gateway.config.json");
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  log(
    `starting toolscript serve --http 127.0.0.1:${port}` +
      (passThrough ? ' (pass-through prefix "")' : " (no pass-through: --no-pass-through given)"),
  );
  const child = start(
    process.execPath,
    [join(root, "bin", "toolscript.js"), "serve", "--http", `127.0.0.1:${port}`, "--config", configFile],
    { logFile: join(tmp, "gateway.log") },
  );
  try {
    await waitForPort(port, child, "the gateway");
  } catch (error) {
    const tail = existsSync(join(tmp, "gateway.log"))
      ? readFileSync(join(tmp, "gateway.log"), "utf8").slice(-2000)
      : "";
    throw new Error(`${error.message}\n${tail}`);
  }
  return { child, url: `http://localhost:${port}/mcp` };
}

/** Reads `<kind>-<scenario>-<timestamp>/checks.json` folders into { scenario: {passed, failed, ...} }. */
function readResults(dir, kind) {
  const results = {};
  if (!existsSync(dir)) return results;
  const pattern = kind
    ? new RegExp(`^${kind}-(.+)-(\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z)$`)
    : /^(.+)-(\d{4}-\d{2}-\d{2}T[\d-]+Z)$/;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const match = pattern.exec(entry.name);
    // A scenario name with a slash (auth/basic-cimd) is a folder (auth/) of result folders.
    if (!match && entry.isDirectory() && !kind) {
      for (const [name, result] of Object.entries(readResults(join(dir, entry.name))))
        results[`${entry.name}/${name}`] = result;
      continue;
    }
    const file = join(dir, entry.name, "checks.json");
    if (!match || !existsSync(file)) continue;
    let checks;
    try {
      checks = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      checks = [];
    }
    const count = (status) => checks.filter((check) => check.status === status).length;
    const failures = checks.filter((check) => check.status === "FAILURE");
    results[match[1]] = {
      passed: count("SUCCESS"),
      failed: failures.length,
      warnings: count("WARNING"),
      skipped: count("SKIPPED"),
      ok: failures.length === 0,
      firstFailure: failures[0]
        ? `${failures[0].id}: ${(failures[0].errorMessage ?? failures[0].description ?? "").split("\n")[0]}`.slice(
            0,
            160,
          )
        : undefined,
    };
  }
  return results;
}

/**
 * Scenarios the suite counted but wrote no checks.json for (a scenario that threw:
 * "Failed to run scenario X: ..."), from its SUMMARY lines "✗ X: N passed, M failed".
 */
function addCrashed(results, logFile) {
  if (!existsSync(logFile)) return results;
  const text = readFileSync(logFile, "utf8");
  const crashes = {};
  for (const match of text.matchAll(/^Failed to run scenario (\S+): (.*)$/gm)) crashes[match[1]] = match[2];
  for (const match of text.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gm)) {
    const [, name, passed, failed] = match;
    if (results[name]) continue;
    results[name] = {
      passed: Number(passed),
      failed: Number(failed),
      ok: Number(failed) === 0,
      firstFailure: crashes[name]
        ? `the scenario threw: ${crashes[name]}`.slice(0, 160)
        : "no checks.json written",
    };
  }
  return results;
}

/** The suite's "Not scored" list: scenario -> reason (extension, pending, added-after-release). */
function readUnscored(logFile) {
  const unscored = {};
  if (!existsSync(logFile)) return unscored;
  const text = readFileSync(logFile, "utf8");
  const at = text.indexOf("Not scored");
  if (at < 0) return unscored;
  for (const line of text.slice(at).split("\n").slice(1)) {
    const match = /^\s+[✓✗]\s+(\S+)\s+\(([^)]+)\)/.exec(line);
    if (match) unscored[match[1]] = match[2];
  }
  return unscored;
}

async function runServerSuite(url, label, requirement) {
  const out = join(tmp, `server-${label}-${requirement ?? opts.scenario}`);
  const args = [suiteBin, "server", "--url", url, "-o", out, "--timeout", String(LIMITS.scenarioMs)];
  if (opts.scenario) {
    args.push("--scenario", opts.scenario);
    if (requirement) args.push("--spec-version", requirement);
  } else args.push("--requirements", requirement);
  const logFile = `${out}.log`;
  log(`server scenarios, ${label}, ${requirement ?? "default spec version"}: ${url}`);
  const result = await run(node22, args, {
    timeoutMs: LIMITS.serverSetMs,
    logFile,
    onLine: (line) => {
      const match = /^=== Running scenario: (.+) ===/.exec(line);
      if (match) process.stderr.write(`  ${label} ${requirement ?? ""} ${match[1]}\n`);
    },
  });
  return {
    results: addCrashed(readResults(out, "server"), logFile),
    unscored: readUnscored(logFile),
    timedOut: result.timedOut,
    logFile,
  };
}

/**
 * One `conformance client --scenario S` run. For auth scenarios: `version` (--spec-version)
 * and shorter limits (the suite's client timeout, the run's own, and the client script's).
 */
async function runClientScenario(scenario, { version, suiteTimeoutMs = 60_000, timeoutMs, env = {} } = {}) {
  const out = join(tmp, `client-${scenario.replaceAll("/", "-")}${version ? `-${version}` : ""}`);
  const command = `${process.execPath} ${clientScript}`;
  if (/\s/.test(process.execPath) || /\s/.test(clientScript))
    throw new Error(
      "the node binary or the repo path contains a space: the suite splits --command on spaces",
    );
  log(`client scenario ${scenario}${version ? ` at ${version}` : ""}`);
  const args = [suiteBin, "client", "--command", command, "--scenario", scenario, "-o", out];
  if (version) args.push("--spec-version", version);
  args.push("--timeout", String(suiteTimeoutMs));
  const result = await run(node22, args, {
    timeoutMs: timeoutMs ?? LIMITS.clientScenarioMs,
    logFile: `${out}.log`,
    env: { TOOLSCRIPT_CONFORMANCE_TMP: tmp, ...env },
  });
  const results = addCrashed(readResults(out), `${out}.log`);
  const entry = results[scenario] ?? {
    passed: 0,
    failed: 0,
    ok: false,
    firstFailure: result.timedOut ? "timed out" : "no checks.json written",
  };
  if (entry.passed === 0 && entry.failed === 0 && entry.ok) {
    entry.ok = false;
    entry.firstFailure = "no check ran";
  }
  return entry;
}

function cell(result) {
  if (!result) return "not run";
  const counts = `${result.passed} passed, ${result.failed} failed`;
  return result.ok ? `✓ ${counts}` : `✗ ${counts}`;
}

function serverTable(title, direct, gateway) {
  const names = [...new Set([...Object.keys(direct.results), ...Object.keys(gateway?.results ?? {})])];
  const unscored = { ...direct.unscored, ...(gateway?.unscored ?? {}) };
  const rows = [];
  const regressions = [];
  for (const name of names) {
    const d = direct.results[name];
    const g = gateway?.results[name];
    let verdict;
    if (!gateway) verdict = "gateway not run";
    else if (d?.ok && !g?.ok) {
      verdict = `**regression**${g?.firstFailure ? `: ${g.firstFailure}` : ""}`;
      regressions.push(name);
    } else if (g?.ok) verdict = "ok";
    else verdict = `fails directly too${g?.firstFailure ? `: ${g.firstFailure}` : ""}`;
    rows.push(
      `| ${name} | ${unscored[name] ?? "scored"} | ${cell(d)} | ${gateway ? cell(g) : "—"} | ${verdict} |`,
    );
  }
  const passedDirect = names.filter((name) => direct.results[name]?.ok).length;
  const passedGateway = names.filter((name) => gateway?.results[name]?.ok).length;
  const lines = [
    `### Server scenarios, ${title}`,
    "",
    `Direct: ${passedDirect}/${names.length} scenarios pass; through the gateway: ${gateway ? `${passedGateway}/${names.length}` : "not run"}; regressions (pass directly, not through the gateway): ${gateway ? regressions.length : "—"}.`,
    "",
    "| scenario | scoring | fixture directly | through the gateway | verdict |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ];
  return { markdown: lines.join("\n"), regressions };
}

function clientTable(results) {
  const lines = [
    "### Client scenarios, through `toolscript run`",
    "",
    `${Object.values(results).filter((result) => result.ok).length}/${Object.keys(results).length} pass.`,
    "",
    "| scenario | result | first failing check |",
    "|---|---|---|",
    ...Object.entries(results).map(
      ([name, result]) => `| ${name} | ${cell(result)} | ${result.ok ? "" : (result.firstFailure ?? "")} |`,
    ),
    "",
  ];
  return lines.join("\n");
}

async function main() {
  const overall = setTimeout(() => {
    log(`over the overall limit of ${LIMITS.overallMs / 60_000} min: stopping everything`);
    stopAllSync();
    process.exit(3);
  }, LIMITS.overallMs);
  overall.unref();

  const authScenario = opts.scenario?.startsWith("auth/") ?? false;
  const clientScenario = opts.scenario !== undefined && CLIENT_SCENARIOS.includes(opts.scenario);
  const doServer = opts.only ? opts.only === "server" : !opts.scenario || (!clientScenario && !authScenario);
  const doClient = opts.only ? opts.only === "client" && !authScenario : !opts.scenario || clientScenario;
  const doAuth = opts.only
    ? ["client", "auth"].includes(opts.only) && (!opts.scenario || authScenario)
    : !opts.scenario || authScenario;
  const requirements = opts.requirements ? [opts.requirements] : opts.scenario ? [undefined] : REQUIREMENTS;
  const fullRun = !opts.only && !opts.requirements && !opts.scenario;

  await ensureInstalled();
  await build();
  const suiteVersion = JSON.parse(
    readFileSync(join(sub, "node_modules", "@modelcontextprotocol", "conformance", "package.json"), "utf8"),
  ).version;
  const sections = [];
  let failed = false;

  if (doServer) {
    const fixtureProcess = await startFixture();
    const direct = {};
    for (const requirement of requirements)
      direct[requirement] = await runServerSuite(fixtureProcess.url, "direct", requirement);
    let gatewayProcess;
    let gatewayError;
    try {
      gatewayProcess = await startGateway(fixtureProcess.url);
    } catch (error) {
      gatewayError = error.message;
      log(`the gateway did not start: ${error.message}`);
    }
    const gateway = {};
    if (gatewayProcess)
      for (const requirement of requirements)
        gateway[requirement] = await runServerSuite(gatewayProcess.url, "gateway", requirement);
    if (gatewayProcess) await stop(gatewayProcess.child);
    await stop(fixtureProcess.child);
    for (const requirement of requirements) {
      const table = serverTable(
        opts.scenario
          ? `--scenario ${opts.scenario}${requirement ? ` --spec-version ${requirement}` : ""}`
          : `--requirements ${requirement}`,
        direct[requirement],
        gateway[requirement],
      );
      sections.push(table.markdown);
      if (table.regressions.length > 0 || gatewayError) failed = true;
    }
    if (gatewayError) sections.push(`The gateway did not start:\n\n\`\`\`\n${gatewayError}\n\`\`\`\n`);
  }

  if (opts.only === "extensions" || fullRun) {
    const extensions = await runExtensionScenarios();
    sections.push(extensions.markdown);
    if (extensions.failed) failed = true;
  }

  if (doClient) {
    const scenarios = opts.scenario ? [opts.scenario] : CLIENT_SCENARIOS;
    const results = {};
    for (const scenario of scenarios) {
      results[scenario] = await runClientScenario(scenario);
      log(`  ${scenario}: ${cell(results[scenario])}`);
    }
    sections.push(clientTable(results));
    if (Object.values(results).some((result) => !result.ok)) failed = true;
  }

  if (doAuth) {
    const plan = authPlan(join(sub, "node_modules", "@modelcontextprotocol", "conformance"), {
      requirements: opts.requirements,
      scenario: authScenario ? opts.scenario : undefined,
    });
    log(
      `client authorization scenarios: ${plan.runs.length} runs, ${LIMITS.authConcurrency} at a time, within ${LIMITS.authBudgetMs / 60_000} min`,
    );
    const results = await runAuthScenarios(
      plan.runs,
      (entry) =>
        runClientScenario(entry.scenario, {
          version: entry.version,
          suiteTimeoutMs: LIMITS.authClientMs,
          timeoutMs: LIMITS.authScenarioMs,
          env: { TOOLSCRIPT_CONFORMANCE_RUN_LIMIT_MS: String(LIMITS.authRunMs) },
        }),
      { concurrency: LIMITS.authConcurrency, budgetMs: LIMITS.authBudgetMs, log },
    );
    sections.push(authTable(plan, results));
    if (Object.values(results).some((result) => !result.ok)) failed = true;
  }

  const header = [
    "# Conformance results",
    "",
    `Generated by \`npm run conformance\` (scripts/conformance.mjs) on ${new Date().toISOString().slice(0, 10)}:`,
    `@modelcontextprotocol/conformance ${suiteVersion} on Node ${await nodeVersion(node22)}, the gateway and the fixture on Node ${process.versions.node},`,
    `gateway pass-through ${passThrough ? 'on (`toolscript.passThrough.everything.prefix = ""`)' : "off (`--no-pass-through` given)"}.`,
    "A scenario passes when none of its checks fails (warnings and skipped checks do not fail it).",
    "",
  ].join("\n");
  const markdown = `${header}\n${sections.join("\n")}`;
  process.stdout.write(`${markdown}\n`);
  if (fullRun) {
    writeFileSync(join(sub, "results.md"), markdown);
    log("written to conformance/results.md");
  } else log("a partial run: conformance/results.md left as it was");
  log(`outputs in ${opts.keep ? tmp : "(temporary folder removed; --keep keeps it)"}`);
  return failed ? 1 : 0;
}

// ---- Extension scenarios: saved skills over SEP-2640 (--only extensions) ----
// The gateway alone (no upstream), its store seeded with three skills through
// `toolscript skills import` (a camelCase name, a snake_case one, a Python one),
// against the suite's skills-extension scenarios at 2026-07-28 (stateless) and
// 2025-11-25 (a session), each with --force: extension scenarios are on no spec
// timeline. Any failing scenario fails the run.

export const EXTENSION_SCENARIOS = [
  "sep-2640-skills-directory",
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
];
const EXTENSION_SPEC_VERSIONS = ["2026-07-28", "2025-11-25"];

/** Skill folders as `toolscript skills export` writes them: name → files. */
const SEED_SKILLS = {
  doubleIt: {
    "SKILL.md":
      "---\nname: doubleIt\ndescription: Doubles a number.\n---\n\nDoubles a number: use it for anything twice as large.\n",
    "index.ts": "/** Doubles a number. */\nexport function double(n: number): number {\n  return n * 2;\n}\n",
  },
  word_count: {
    "SKILL.md": "---\nname: word_count\ndescription: Counts words.\n---\n\nCounts the words of a text.\n",
    "index.ts":
      "/** Counts the words of a text. */\nexport function countWords(text: string): number {\n  return text.split(/\\s+/).filter(Boolean).length;\n}\n",
  },
  shout: {
    "SKILL.md": "---\nname: shout\ndescription: Shouts.\n---\n\nUpper-cases a text (a Python skill).\n",
    "index.py": 'def shout(text: str) -> str:\n    """Upper-cases text."""\n    return text.upper()\n',
  },
};

async function runExtensionScenarios() {
  const seed = join(tmp, "extension-skills");
  for (const [name, files] of Object.entries(SEED_SKILLS)) {
    mkdirSync(join(seed, name), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(seed, name, file), text);
  }
  const configFile = join(tmp, "extension-gateway.config.json");
  const config = {
    mcpServers: {},
    toolscript: {
      server: { http: { allowUnauthenticatedLoopback: true } },
      storage: { dir: join(tmp, "extension-store") },
    },
  };
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const cli = join(root, "bin", "toolscript.js");
  const rows = [];
  const notRun = (why) => {
    log(`extension scenarios: ${why}`);
    return {
      failed: true,
      markdown: `### Extension scenarios (SEP-2640 skills), the gateway alone\n\nNot run: ${why}\n`,
    };
  };
  log(`seeding ${Object.keys(SEED_SKILLS).length} skills: toolscript skills import`);
  const imported = await run(process.execPath, [cli, "skills", "import", seed, "--config", configFile], {
    timeoutMs: LIMITS.startMs,
    logFile: join(tmp, "extension-import.log"),
  });
  if (imported.code !== 0)
    return notRun(`toolscript skills import failed (log: ${join(tmp, "extension-import.log")})`);

  const port = await freePort();
  log(`starting toolscript serve --http 127.0.0.1:${port} (no upstream, seeded skills)`);
  const gateway = start(
    process.execPath,
    [cli, "serve", "--http", `127.0.0.1:${port}`, "--config", configFile],
    {
      logFile: join(tmp, "extension-gateway.log"),
    },
  );
  try {
    await waitForPort(port, gateway, "the gateway (extension scenarios)");
    const url = `http://localhost:${port}/mcp`;
    for (const scenario of EXTENSION_SCENARIOS) {
      const row = { scenario, results: {} };
      for (const version of EXTENSION_SPEC_VERSIONS) {
        const out = join(tmp, `extension-${scenario}-${version}`);
        // --force: extension scenarios are on no spec timeline, so the suite skips them at any named version.
        const args = [
          suiteBin,
          "server",
          "--url",
          url,
          "--scenario",
          scenario,
          "--spec-version",
          version,
          "--force",
        ];
        args.push("-o", out, "--timeout", String(LIMITS.scenarioMs));
        const result = await run(node22, args, { timeoutMs: LIMITS.clientScenarioMs, logFile: `${out}.log` });
        const entry = addCrashed(readResults(out, "server"), `${out}.log`)[scenario] ?? {
          passed: 0,
          failed: 0,
          ok: false,
          firstFailure: result.timedOut ? "timed out" : "no checks.json written",
        };
        // An undeclared extension skips every check: that is no pass.
        if (entry.ok && entry.passed === 0)
          Object.assign(entry, { ok: false, firstFailure: "no check passed" });
        row.results[version] = entry;
        log(`  ${scenario} at ${version}: ${cell(entry)}`);
      }
      rows.push(row);
    }
  } catch (error) {
    return notRun(error.message);
  } finally {
    await stop(gateway);
  }
  const ok = (row) => EXTENSION_SPEC_VERSIONS.every((version) => row.results[version]?.ok);
  const firstFailure = (row) =>
    EXTENSION_SPEC_VERSIONS.map((version) => row.results[version]).find((entry) => !entry?.ok)
      ?.firstFailure ?? "";
  const lines = [
    "### Extension scenarios (SEP-2640 skills), the gateway alone",
    "",
    `\`toolscript serve --http\` with no upstream and ${Object.keys(SEED_SKILLS).length} skills imported into its store (\`${Object.keys(SEED_SKILLS).join("`, `")}\`); ${rows.filter(ok).length}/${rows.length} scenarios pass at every version. The suite runs them at a named version only with \`--force\` (extension scenarios are on no spec timeline).`,
    "",
    `| scenario | ${EXTENSION_SPEC_VERSIONS.join(" | ")} | first failing check |`,
    `|---|${EXTENSION_SPEC_VERSIONS.map(() => "---|").join("")}---|`,
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${EXTENSION_SPEC_VERSIONS.map((version) => cell(row.results[version])).join(" | ")} | ${ok(row) ? "" : firstFailure(row)} |`,
    ),
    "",
  ];
  return { failed: !rows.every(ok), markdown: lines.join("\n") };
}
// ---- end of the extension scenarios ----

async function nodeVersion(binary) {
  const child = spawn(binary, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
  let text = "";
  child.stdout.on("data", (chunk) => {
    text += chunk;
  });
  await once(child, "exit");
  return text.trim().replace(/^v/, "");
}

for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    stopAllSync();
    process.exit(130);
  });

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`conformance: ${error.message}\n`);
  code = 2;
} finally {
  stopAllSync();
  if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
