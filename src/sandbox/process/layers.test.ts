/**
 * Each wall of the process tier on its own, with a probe script in place of
 * the runner: Deno's permissions (no bubblewrap), and bubblewrap with Deno
 * given permissions on purpose, to show that the namespaces still hold.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SAFE_DENO_FLAGS, sandboxCommand } from "./command.ts";
import { checkProcessTier, type ProcessTierSetup } from "./setup.ts";

const SECRET = "canary-layer-91c2";
const dir = mkdtempSync(join(tmpdir(), "toolscript-layers-"));
const setup: ProcessTierSetup = await checkProcessTier();
let server: Server;
let url = "";

before(async () => {
  server = createServer((_request, response) => response.end(SECRET));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  process.env.TOOLSCRIPT_TEST_CANARY = SECRET;
  writeFileSync(join(dir, "canary.txt"), SECRET);
});
after(() => {
  delete process.env.TOOLSCRIPT_TEST_CANARY;
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `probes` (an object of name -> function source) and returns name -> "ok: value" or "denied: error". */
function probeScript(probes: Record<string, string>): string {
  const entries = Object.entries(probes)
    .map(([name, body]) => `[${JSON.stringify(name)}, async () => (${body})]`)
    .join(",\n");
  return `const out = {};
for (const [name, probe] of [${entries}]) {
  try { out[name] = "ok: " + String(await probe()).slice(0, 200); } catch (error) { out[name] = "denied: " + error.name; }
}
console.log(JSON.stringify(out));
Deno.exit(0);`;
}

function runProbes(
  probes: Record<string, string>,
  options: { bubblewrap: boolean; denoFlags?: readonly string[] },
): Promise<Record<string, string>> {
  const script = join(dir, `probe-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(script, probeScript(probes));
  const command = sandboxCommand({
    ...setup,
    bubblewrap: options.bubblewrap ? setup.bubblewrap : undefined,
    script,
    denoDir: join(dir, "deno-dir"),
    memoryMb: 64,
    ...(options.denoFlags ? { denoFlags: options.denoFlags } : {}),
  });
  return new Promise((resolve, reject) => {
    execFile(
      command.command,
      command.args,
      { env: command.env, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, string>);
      },
    );
  });
}

describe("process tier walls: Deno's permissions", () => {
  it("denies files, environment, network, subprocesses, npm and remote code", async () => {
    const results = await runProbes(
      {
        readFile: "Deno.readTextFile('/etc/passwd')",
        readCanary: `Deno.readTextFile(${JSON.stringify(join(dir, "canary.txt"))})`,
        writeTmp: "Deno.writeTextFile('/tmp/toolscript-layer-probe', 'x')",
        envGet: "Deno.env.get('HOME')",
        envAll: "Deno.env.toObject()",
        fetchLoopback: `fetch(${JSON.stringify(url)}).then((r) => r.text())`,
        connect: "Deno.connect({ hostname: '127.0.0.1', port: 22 })",
        command: "new Deno.Command('sh', { args: ['-c', 'id'] }).output()",
        npm: "import('npm:' + 'left-pad')",
        remote: "import('https://' + 'deno.land/std/version.ts')",
        computedFile: "import('/etc/' + 'passwd')",
        processEnv: "process.env.HOME",
        processEnvKeys: "Object.keys(process.env).length",
        fsModule: "process.getBuiltinModule('node:fs').readFileSync('/etc/passwd', 'utf8')",
        childProcess: "process.getBuiltinModule('node:child_process').execSync('id').toString()",
        functionToProcess: "globalThis.constructor.constructor('return process')().env.HOME",
      },
      { bubblewrap: false },
    );
    for (const [name, outcome] of Object.entries(results)) {
      assert.match(outcome, /^denied: /, `${name}: ${outcome}`);
    }
  });

  it("starts Deno with an empty environment: granting env access shows nothing of the gateway's", async () => {
    const results = await runProbes(
      {
        canary: "Deno.env.get('TOOLSCRIPT_TEST_CANARY')",
        home: "Deno.env.get('HOME')",
        names: "Object.keys(Deno.env.toObject()).sort().join()",
        path: "Deno.env.get('PATH')",
      },
      { bubblewrap: false, denoFlags: [...SAFE_DENO_FLAGS, "--allow-env"] },
    );
    assert.equal(results.canary, "ok: undefined");
    assert.equal(results.home, "ok: undefined");
    // Deno adds its own node shim to PATH (DENO_NODE_SHIM_ACTIVE); nothing else is set.
    assert.equal(results.names, "ok: DENO_DIR,DENO_NODE_SHIM_ACTIVE,DENO_NO_UPDATE_CHECK,NO_COLOR,PATH");
    assert.ok(!(results.path ?? "").includes(process.env.PATH ?? "\0"), "not the gateway's PATH");
  });
});

describe("process tier walls: bubblewrap", () => {
  it("holds even when Deno is given every permission", async () => {
    const results = await runProbes(
      {
        root: "[...Deno.readDirSync('/')].map((entry) => entry.name).sort().join()",
        passwd: "Deno.readTextFileSync('/etc/passwd')",
        canary: `Deno.readTextFileSync(${JSON.stringify(join(dir, "canary.txt"))})`,
        work: "Deno.readDirSync('/work')",
        fetchLoopback: `fetch(${JSON.stringify(url)}).then((r) => r.text())`,
        uid: "Deno.uid() + ':' + Deno.gid()",
        caps: "Deno.readTextFileSync('/proc/self/status').match(/^CapEff:.*$/m)[0].replace(/\\s+/g, ' ')",
        hostname: "Deno.hostname()",
        writeRunner: "Deno.writeTextFileSync('/toolscript/runner.js', 'x')",
        writeDeno: "Deno.writeFileSync('/toolscript/bin/deno', new Uint8Array(1))",
        pids: "[...Deno.readDirSync('/proc')].filter((entry) => /^\\d+$/.test(entry.name)).length",
        env: "Object.keys(Deno.env.toObject()).sort().join()",
        spawn: "new Deno.Command('/bin/sh').outputSync()",
      },
      { bubblewrap: true, denoFlags: [...SAFE_DENO_FLAGS, "--allow-all"] },
    );
    assert.deepEqual(results, {
      root: "ok: dev,lib,lib64,proc,tmp,toolscript",
      passwd: "denied: NotFound",
      canary: "denied: NotFound",
      work: "denied: NotFound",
      fetchLoopback: "denied: TypeError",
      uid: "ok: 65534:65534",
      caps: "ok: CapEff: 0000000000000000",
      hostname: "ok: sandbox",
      writeRunner: "denied: Error",
      writeDeno: "denied: Error",
      pids: "ok: 2",
      env: "ok: DENO_DIR,DENO_NODE_SHIM_ACTIVE,DENO_NO_UPDATE_CHECK,NO_COLOR,PATH,PWD",
      spawn: "denied: NotFound",
    });
  });
});
