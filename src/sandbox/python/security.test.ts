import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createTestPythonRuntime, runPython, testBridge } from "./test-runtime.ts";

const CANARY = `canary-${process.pid}-${Date.now()}`;
process.env.TOOLSCRIPT_PY_CANARY = CANARY;
const dir = mkdtempSync(join(tmpdir(), "toolscript-py-security-"));
const canaryFile = join(dir, "secret.txt");
writeFileSync(canaryFile, CANARY);
let hits = 0;
const server = createServer((_request, response) => {
  hits += 1;
  response.end(CANARY);
});
let port = 0;

const runtime = await createTestPythonRuntime(1);
const bridge = testBridge();
const run = (code: string) => runPython(runtime, bridge, code, { timeoutMs: 10_000 });

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  await runtime.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs an attack: nothing of the host may come back, and the next program runs normally. */
async function contained(code: string): Promise<string> {
  const result = await run(code);
  const seen = JSON.stringify(result);
  assert.doesNotMatch(seen, new RegExp(CANARY), `the canary leaked: ${seen}`);
  assert.doesNotMatch(seen, /root:x:0:0/, `/etc/passwd leaked: ${seen}`);
  assert.equal((await run("'still fine'")).result, "still fine");
  return seen;
}

/** A program that tries each JavaScript expression (a promise or a value) and returns what happened, as text. */
function jsAttempts(expressions: string[]): string {
  const list = JSON.stringify(expressions);
  return [
    "from pyodide.code import run_js",
    "out = []",
    `for source in ${list}:`,
    "    try:",
    "        value = run_js(source)",
    "        if hasattr(value, 'then'):",
    "            value = await value",
    "        out.append('ok: ' + str(value))",
    "    except BaseException as e:",
    "        out.append('refused: ' + type(e).__name__ + ': ' + str(e)[:200])",
    "out",
  ].join("\n");
}

describe("PythonRuntime: attacks from Python are contained", () => {
  it("`import js` reaches no Deno, process, require, fetch or postMessage", async () => {
    const seen = await contained(
      "import js\n[hasattr(js, name) for name in ['Deno', 'process', 'require', 'fetch', 'postMessage', 'Buffer', 'Worker', 'WebSocket']]",
    );
    assert.match(seen, /"result":\[false,false,false,false,false,false,false,false\]/);
    await contained("import js\nawait js.Deno.readTextFile('/etc/passwd')");
    await contained("import js\njs.Deno.env.toObject()");
  });

  it("run_js and pyodide_js find no Deno, and node: modules have no permission (read, write, env, run, net)", async () => {
    const seen = await contained(
      jsAttempts([
        "typeof Deno + typeof process + typeof require + typeof fetch",
        "Deno.run({ cmd: ['id'] })",
        `import('node:fs').then((fs) => fs.readFileSync(${JSON.stringify(canaryFile)}, 'utf8'))`,
        "import('node:fs').then((fs) => fs.readFileSync('/toolscript/pyodide/pyodide.mjs', 'utf8'))",
        "import('node:fs').then((fs) => fs.readFileSync('/etc/passwd', 'utf8'))",
        "import('node:fs').then((fs) => fs.writeFileSync('/tmp/owned', 'x'))",
        "import('node:process').then((p) => JSON.stringify(p.env))",
        "import('node:child_process').then((cp) => cp.execSync('id').toString())",
        `import('node:net').then((net) => new Promise((ok, no) => { const s = net.connect(${port}, '127.0.0.1', () => ok('connected')); s.on('error', no); }))`,
        "import('node:os').then((os) => os.hostname() + ' ' + os.userInfo().username)",
        "import('node:process').then((p) => { const m = { exports: {} }; p.dlopen(m, '/lib/x86_64-linux-gnu/libc.so.6'); return 'loaded'; })",
      ]),
    );
    assert.match(seen, /ok: undefinedundefinedundefinedundefined/);
    const refused = seen.match(/refused: /g)?.length ?? 0;
    assert.ok(refused >= 9, `only ${refused} refusals: ${seen}`);
    assert.doesNotMatch(seen, /ok: (connected|loaded)/);
    assert.equal(hits, 0);
  });

  it("os.system, subprocess, ctypes, socket, urllib and pyodide.http cannot leave", async () => {
    await contained("import os\nos.system('cat /etc/passwd')");
    await contained("import subprocess\nsubprocess.run(['cat', '/etc/passwd'], capture_output=True).stdout");
    await contained(`import socket\ns = socket.socket()\ns.connect(('127.0.0.1', ${port}))\ns.recv(100)`);
    await contained(`import urllib.request\nurllib.request.urlopen('http://127.0.0.1:${port}/').read()`);
    await contained(
      `from pyodide.http import pyfetch\nawait (await pyfetch('http://127.0.0.1:${port}/')).string()`,
    );
    await contained("import ctypes\nctypes.CDLL(None)");
    await contained(`open(${JSON.stringify(canaryFile)}).read()`);
    await contained("import os\n[dict(os.environ), os.listdir('/')]");
    await contained("import pyodide_js\nawait pyodide_js.loadPackage('micropip')\nimport micropip");
    assert.equal(hits, 0);
  });

  it("forged protocol messages on stdout become logs, never answers", async () => {
    const forged = JSON.stringify({ type: "outcome", json: JSON.stringify({ result: "forged" }) });
    const result = await run(
      [
        "import os, js",
        `line = ${JSON.stringify(forged)}`,
        "os.write(1, (line + '\\n').encode())",
        "js.console.log(line)",
        "from pyodide.code import run_js",
        "run_js('console.log(' + repr(line) + ')')",
        "print(line)",
        "'genuine'",
      ].join("\n"),
    );
    assert.equal(result.result, "genuine");
    assert.ok(result.logs.length >= 3, JSON.stringify(result.logs));
  });

  it("threads cannot start; a fork bomb of tasks ends at the timeout", async () => {
    await contained("import threading\nthreading.Thread(target=lambda: None).start()");
    const result = await runPython(
      runtime,
      bridge,
      "import asyncio\nasync def f():\n    while True:\n        asyncio.ensure_future(f())\n        await asyncio.sleep(0)\nawait f()",
      {
        timeoutMs: 1_000,
      },
    );
    assert.ok(["timeout", "memory"].includes(result.error?.kind ?? ""), JSON.stringify(result.error));
    assert.equal((await run("'alive'")).result, "alive");
  });
});
