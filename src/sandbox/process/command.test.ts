import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DENO_RESERVED_DATA_MB, dataLimitBytes, SANDBOX_DENO_PATH, sandboxCommand } from "./command.ts";

const base = {
  deno: "/opt/deno",
  script: "/tmp/x/runner.js",
  prlimit: "/usr/bin/prlimit",
  denoDir: "/tmp/x/deno-dir",
  memoryMb: 100,
};
const bubblewrap = {
  path: "/usr/bin/bwrap",
  libraries: [{ path: "/lib64/ld-linux-x86-64.so.2", source: "/usr/lib64/ld-linux-x86-64.so.2" }],
};

describe("sandboxCommand", () => {
  it("runs Deno with no permission, no remote or npm code, a heap limit and a memory rlimit", () => {
    const command = sandboxCommand({ ...base, bubblewrap: undefined });
    assert.equal(command.command, "/usr/bin/prlimit");
    assert.deepEqual(command.args, [
      `--data=${(DENO_RESERVED_DATA_MB + 200) * 1024 * 1024}`,
      "--core=0",
      "--",
      "/opt/deno",
      "run",
      "--no-prompt",
      "--no-config",
      "--no-remote",
      "--no-npm",
      "--quiet",
      "--v8-flags=--max-old-space-size=100",
      "/tmp/x/runner.js",
    ]);
    assert.deepEqual(command.env, { DENO_DIR: "/tmp/x/deno-dir", NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" });
    assert.equal(dataLimitBytes(100), (DENO_RESERVED_DATA_MB + 200) * 1024 * 1024);
  });

  it("wraps Deno in bubblewrap: every namespace, nobody, no capabilities, only its files", () => {
    const command = sandboxCommand({ ...base, bubblewrap });
    const args = command.args.join(" ");
    assert.deepEqual(command.env, {});
    assert.match(args, /^--data=\d+ --core=0 -- \/usr\/bin\/bwrap --unshare-all --unshare-user /);
    assert.match(args, / --uid 65534 --gid 65534 --cap-drop ALL --die-with-parent --new-session /);
    assert.match(args, / --clearenv /);
    assert.match(args, / --ro-bind \/opt\/deno \/toolscript\/bin\/deno /);
    assert.match(args, / --ro-bind \/usr\/lib64\/ld-linux-x86-64.so.2 \/lib64\/ld-linux-x86-64.so.2 /);
    assert.match(args, / --proc \/proc --dev \/dev --tmpfs \/tmp /);
    assert.ok(command.args.includes(SANDBOX_DENO_PATH));
    assert.doesNotMatch(args, /--allow-|--bind |--share-net|\/work|\/etc/);
  });

  it("adds more V8 flags after the heap limit, in the same --v8-flags", () => {
    const command = sandboxCommand({
      ...base,
      bubblewrap: undefined,
      heapMb: 256,
      v8Flags: ["--no-wasm-inlining"],
    });
    assert.ok(command.args.includes("--v8-flags=--max-old-space-size=256,--no-wasm-inlining"));
    assert.equal(command.args.filter((arg) => arg.startsWith("--v8-flags")).length, 1);
  });
});
