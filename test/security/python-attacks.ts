import type { ExecuteResponse } from "../../src/gateway/types.ts";
import type { Attack } from "./attacks.ts";

/**
 * Hostile Python programs. Each runs in a fresh interpreter (Pyodide inside
 * Deno without permissions inside bubblewrap) and must end in a clear error
 * or a result that shows nothing of the host was reached.
 */

const NOT_REACHED = new Set(["blocked", "absent"]);

/**
 * The program sets `result` to a dict of probes. A probe runs a statement and
 * reports "blocked" when it raised, "absent" when it gave None, else what it got.
 */
function probes(name: string, category: Attack["category"], body: string): Attack {
  return {
    name,
    language: "python",
    category,
    code: `import asyncio, inspect
async def probe(f):
    try:
        value = f()
        if inspect.isawaitable(value):
            value = await value
        if value is None:
            return "absent"
        # A JavaScript promise comes back as an awaitable proxy.
        if hasattr(value, "then"):
            value = await value
        return "absent" if value is None else "reached: " + type(value).__name__ + " " + repr(value)[:200]
    except BaseException as error:
        return "blocked"
result = {}
${body}
`,
    check(response) {
      if (response.error) return undefined;
      const result = response.result as Record<string, string> | undefined;
      const bad = Object.entries(result ?? {}).filter(([, value]) => !NOT_REACHED.has(value));
      return bad.length ? `reached: ${bad.map(([key, value]) => `${key}=${value}`).join(", ")}` : undefined;
    },
  };
}

function endsInError(kinds: string[]) {
  return (response: ExecuteResponse): string | undefined => {
    if (!response.error)
      return `expected an error (${kinds.join("/")}), got ${JSON.stringify(response.result)?.slice(0, 200)}`;
    if (!kinds.includes(response.error.kind))
      return `expected ${kinds.join("/")}, got ${response.error.kind}: ${response.error.message.slice(0, 200)}`;
    return undefined;
  };
}

const MAX_ANSWER_BYTES = 1024 * 1024;
const bounded = (response: ExecuteResponse): string | undefined => {
  const size = JSON.stringify(response).length;
  return size > MAX_ANSWER_BYTES ? `unbounded answer of ${size} bytes` : undefined;
};

function python(name: string, category: Attack["category"], code: string, check: Attack["check"]): Attack {
  return { name, language: "python", category, code, check };
}

/** `canary` is what the tests planted on the host: a file, a loopback URL and (in the environment) a secret. */
export function pythonAttacks(canary: { file: string; url: string }): Attack[] {
  const file = JSON.stringify(canary.file);
  const url = JSON.stringify(canary.url);
  return [
    probes(
      "js module: host globals",
      "host reach",
      `import js
result["process.env"] = await probe(lambda: js.process.env.TOOLSCRIPT_CANARY_SECRET)
result["require"] = await probe(lambda: js.require("fs"))
result["Deno.env"] = await probe(lambda: js.Deno.env.get("TOOLSCRIPT_CANARY_SECRET"))
result["Deno.env.toObject"] = await probe(lambda: js.Deno.env.toObject())
result["Deno.pid"] = await probe(lambda: js.Deno.kill(1, "SIGKILL"))`,
    ),
    probes(
      "js module: Deno files, commands, network, FFI",
      "host reach",
      `import js
result["readTextFileSync canary"] = await probe(lambda: js.Deno.readTextFileSync(${file}))
result["readTextFileSync passwd"] = await probe(lambda: js.Deno.readTextFileSync("/etc/passwd"))
result["readDirSync"] = await probe(lambda: js.Deno.readDirSync("/"))
result["writeTextFileSync"] = await probe(lambda: js.Deno.writeTextFileSync("/tmp/x", "x"))
result["Command"] = await probe(lambda: js.Deno.Command.new("/bin/sh").outputSync())
result["fetch"] = await probe(lambda: js.fetch(${url}))
result["connect"] = await probe(lambda: js.Deno.connect(js.Object.fromEntries([["port", 80]])))
result["dlopen"] = await probe(lambda: js.Deno.dlopen("libc.so.6", js.Object.new()))`,
    ),
    probes(
      "pyodide.code.run_js and pyodide_js",
      "host reach",
      `import pyodide.code
result["run_js process"] = await probe(lambda: pyodide.code.run_js("globalThis.process && process.env.TOOLSCRIPT_CANARY_SECRET"))
result["run_js read"] = await probe(lambda: pyodide.code.run_js("Deno.readTextFileSync(" + ${JSON.stringify(file)} + ")"))
result["run_js import"] = await probe(lambda: pyodide.code.run_js("import(" + ${JSON.stringify(url)} + ")"))
result["run_js Function"] = await probe(lambda: pyodide.code.run_js("(0, eval)('Deno.env.toObject()')"))
def mount():
    import pyodide_js
    pyodide_js.FS.mkdir("/host")
    pyodide_js.FS.mount(pyodide_js.FS.filesystems.NODEFS, pyodide_js.Object.fromEntries([["root", "/"]]) if hasattr(pyodide_js, "Object") else None, "/host")
    return open("/host" + ${file}).read()
result["mount host fs"] = await probe(mount)
def mount_js():
    return pyodide.code.run_js("const FS = globalThis.pyodide?.FS; FS.mkdir('/h2'); FS.mount(FS.filesystems.NODEFS, {root: '/'}, '/h2'); FS.readFile('/h2' + " + ${JSON.stringify(file)} + ", {encoding: 'utf8'})")
result["mount through run_js"] = await probe(mount_js)`,
    ),
    probes(
      "os, subprocess, ctypes, signals",
      "host reach",
      `import os
# os.system answers -1 when it cannot run anything: only 0 means a command ran.
result["os.system"] = await probe(lambda: os.system("id") == 0 or None)
def run():
    import subprocess
    return subprocess.run(["/bin/sh", "-c", "id"], capture_output=True).stdout
result["subprocess"] = await probe(run)
result["fork"] = await probe(lambda: os.fork())
result["kill"] = await probe(lambda: os.kill(1, 9))
def cdll():
    import ctypes
    # The interpreter's own symbols are Emscripten stubs (getpid() is 42); the host's C library must not load.
    return ctypes.CDLL("libc.so.6").getpid()
result["ctypes"] = await probe(cdll)
result["open canary"] = await probe(lambda: open(${file}).read())
# The interpreter's in-memory file system has /home, /lib and /proc/self; none of the host's folders.
result["listdir host"] = await probe(lambda: [n for n in os.listdir("/") if n in ("etc", "usr", "work", "root", "var")] or None)`,
    ),
    probes(
      "network: socket, urllib, pyodide.http, micropip",
      "filesystem/network",
      `def sock():
    import socket
    s = socket.socket()
    s.connect(("127.0.0.1", 80))
    return s
result["socket"] = await probe(sock)
def urlopen():
    import urllib.request
    return urllib.request.urlopen(${url}).read()
result["urllib"] = await probe(urlopen)
async def pyfetch():
    from pyodide.http import pyfetch
    return await (await pyfetch(${url})).string()
result["pyfetch"] = await probe(pyfetch)
def open_url():
    from pyodide.http import open_url
    return open_url(${url}).read()
result["open_url"] = await probe(open_url)
async def install():
    import micropip
    await micropip.install("requests")
    return "installed"
result["micropip"] = await probe(install)
async def load_package():
    import pyodide_js
    await pyodide_js.loadPackage("numpy")
    import numpy
    return numpy.__version__
result["loadPackage"] = await probe(load_package)`,
    ),
    python(
      "os.environ holds nothing of the host",
      "environment",
      "import os\nresult = sorted(k for k in os.environ if 'CANARY' in k or 'TOKEN' in k or 'KEY' in k or 'SECRET' in k)",
      (response) =>
        response.error || (Array.isArray(response.result) && response.result.length === 0)
          ? undefined
          : `environment shows ${JSON.stringify(response.result)}`,
    ),
    python(
      "forged protocol messages on stdout",
      "bridge abuse",
      `import os, sys, js
line = '{"type":"result","id":1,"ok":true,"json":"\\\\"forged\\\\"","result":"forged","outcome":{"result":"forged"}}\\n'
os.write(1, line.encode())
sys.__stdout__.write(line)
sys.__stdout__.flush()
js.console.log(line)
try:
    js.postMessage(line)
except Exception:
    pass
result = "honest"`,
      (response) =>
        JSON.stringify(response.result ?? response.error ?? "").includes("forged")
          ? `a forged message was taken: ${JSON.stringify(response.result ?? response.error).slice(0, 200)}`
          : undefined,
    ),
    python(
      "state left behind for the next execution",
      "bridge abuse",
      `import builtins, sys, json, os
builtins.leftover = "left"
sys.modules["leftover_module"] = type(sys)("leftover_module")
json.dumps = lambda *a, **k: "poisoned"
os.makedirs("/tmp/left", exist_ok=True)
open("/tmp/left/file.txt", "w").write("left")
os.environ["LEFTOVER"] = "left"
result = "planted"`,
      () => undefined,
    ),
    python("synchronous infinite loop", "exhaustion", "while True:\n    pass", endsInError(["timeout"])),
    python(
      "infinite loop after an await",
      "exhaustion",
      "await tools.scripted.echo(message='x')\nwhile True:\n    pass",
      endsInError(["timeout"]),
    ),
    python(
      "await loop that never ends",
      "exhaustion",
      "import asyncio\nwhile True:\n    await asyncio.sleep(0)",
      endsInError(["timeout"]),
    ),
    python(
      "time.sleep past the limit",
      "exhaustion",
      "import time\ntime.sleep(3600)",
      endsInError(["timeout"]),
    ),
    python(
      "memory bomb: one huge allocation",
      "exhaustion",
      "x = bytearray(8 * 1024 ** 3)\nresult = len(x)",
      endsInError(["memory", "runtime"]),
    ),
    python(
      "memory bomb: growing list",
      "exhaustion",
      "x = []\nwhile True:\n    x.append('y' * 1_000_000)",
      endsInError(["memory", "runtime", "timeout"]),
    ),
    python(
      "deep recursion with the limit lifted",
      "exhaustion",
      "import sys\nsys.setrecursionlimit(10 ** 8)\ndef f(n):\n    return f(n + 1)\nresult = f(0)",
      // Python frames live on the heap: the run ends at the memory cap or the timeout, whichever comes first.
      endsInError(["runtime", "memory", "timeout"]),
    ),
    python(
      "threads",
      "exhaustion",
      "import threading\nt = threading.Thread(target=lambda: None)\nt.start()\nresult = 'started'",
      (response) => (response.result === "started" ? "a thread started" : undefined),
    ),
    python("huge print", "output abuse", "for i in range(200):\n    print('x' * 1_000_000)", bounded),
    // Bounded either way: refused as too large, out of memory, or out of time on a busy machine.
    python(
      "huge result",
      "output abuse",
      "result = 'x' * 50_000_000",
      endsInError(["runtime", "memory", "timeout"]),
    ),
    python(
      "huge exception message",
      "output abuse",
      "raise ValueError('x' * 30_000_000)",
      (response) => endsInError(["runtime", "memory", "timeout"])(response) ?? bounded(response),
    ),
    python(
      "a million tool calls",
      "exhaustion",
      "import asyncio\nasync def one():\n    try:\n        await tools.scripted.echo(message='x')\n    except LimitError:\n        return 'limit'\nout = await asyncio.gather(*[one() for _ in range(100_000)])\nresult = out.count('limit')",
      (response) =>
        response.error || (typeof response.result === "number" && response.result > 0)
          ? undefined
          : `no call was refused: ${JSON.stringify(response.result)}`,
    ),
    python(
      "huge tool arguments",
      "bridge abuse",
      "result = await tools.scripted.echo(message='x' * 20_000_000)",
      endsInError(["runtime", "tool", "memory", "timeout"]),
    ),
    python(
      "non-JSON tool arguments",
      "bridge abuse",
      "import js\nresult = await tools.scripted.echo(message=js.Deno)",
      endsInError(["runtime", "tool"]),
    ),
  ];
}

/** Run after each Python attack: a fresh interpreter shows nothing a previous one planted. */
export const PYTHON_NEXT_RUN = `import builtins, sys, json, os
result = [hasattr(builtins, "leftover"), "leftover_module" in sys.modules, json.dumps(1), os.path.exists("/tmp/left"), "LEFTOVER" in os.environ]`;
export const PYTHON_CLEAN_NEXT = JSON.stringify([false, false, "1", false, false]);
