import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAlive } from "../../../test/helpers/servers.ts";
import type { SandboxCommand } from "./command.ts";
import { parseChildMessage } from "./protocol.ts";
import { SandboxProcess } from "./sandbox-process.ts";

/** A stand-in child: Node running `source`, to test the host side of the protocol alone. */
function node(source: string): SandboxCommand {
  return { command: process.execPath, args: ["-e", source], env: {} };
}

describe("parseChildMessage", () => {
  it("accepts the messages of the protocol", () => {
    assert.deepEqual(parseChildMessage('{"type":"ready"}'), { type: "ready" });
    assert.deepEqual(parseChildMessage('{"type":"call","id":3,"server":"s","tool":"t","args":"{}"}'), {
      type: "call",
      id: 3,
      server: "s",
      tool: "t",
      args: "{}",
    });
    assert.deepEqual(parseChildMessage('{"type":"done","report":{"ok":true}}'), {
      type: "done",
      report: { ok: true },
    });
  });

  it("rejects anything else", () => {
    for (const line of [
      "",
      "nope",
      "[]",
      "null",
      '{"type":"exec"}',
      '{"type":"call","id":-1}',
      '{"type":"call"}',
    ]) {
      assert.equal(parseChildMessage(line), undefined, line);
    }
  });
});

describe("SandboxProcess", () => {
  it("becomes ready, relays messages split across chunks, and sees the exit", async () => {
    const child = new SandboxProcess(
      node(`process.stdout.write('{"type":"ready"}\\n{"type":"lo');
setTimeout(() => process.stdout.write('g","level":"log","message":"hi"}\\n'), 50);
process.stdin.once("data", (d) => { process.stdout.write(JSON.stringify({ type: "done", report: String(d).trim() }) + "\\n"); process.exit(0); });`),
    );
    await child.ready;
    const messages: unknown[] = [];
    child.attach((message) => messages.push(message));
    await new Promise((resolve) => setTimeout(resolve, 150));
    child.send({ type: "reply", id: 1, reply: { ok: true } });
    const exit = await child.exited;
    assert.equal(exit.code, 0);
    assert.deepEqual(messages, [
      { type: "log", level: "log", message: "hi" },
      { type: "done", report: '{"type":"reply","id":1,"reply":{"ok":true}}' },
    ]);
  });

  it("kills a child that breaks the protocol", async () => {
    const child = new SandboxProcess(
      node(`process.stdout.write('{"type":"ready"}\\nnot json\\n'); setInterval(() => {}, 1000);`),
    );
    await child.ready;
    const exit = await child.exited;
    assert.equal(exit.signal, "SIGKILL");
    assert.match(exit.violation ?? "", /protocol/);
  });

  it("kills a child that writes a line longer than the cap", async () => {
    const child = new SandboxProcess(
      node(`process.stdout.write('{"type":"ready"}\\n' + 'x'.repeat(5000)); setInterval(() => {}, 1000);`),
      1000,
    );
    await child.ready;
    const exit = await child.exited;
    assert.match(exit.violation ?? "", /larger than 1000 bytes/);
  });

  it("rejects readiness with the reason when the child dies first", async () => {
    const child = new SandboxProcess(node("process.stderr.write('cannot start here\\n'); process.exit(3)"));
    await assert.rejects(child.ready, /ended before it was ready \(exit code 3\): cannot start here/);
  });

  it("kills its whole process group", async () => {
    const child = new SandboxProcess(
      node(`const { spawn } = require("node:child_process");
const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
process.stdout.write(JSON.stringify({ type: "ready" }) + "\\n");
// Repeated: a line sent before the test attaches its listener would be missed.
setInterval(() => process.stdout.write(JSON.stringify({ type: "log", level: "log", message: String(grandchild.pid) }) + "\\n"), 20);`),
    );
    await child.ready;
    const grandchild = await new Promise<number>((resolve) =>
      child.attach((message) => {
        if (message.type === "log") resolve(Number(message.message));
      }),
    );
    assert.equal(isAlive(grandchild), true);
    child.kill();
    await child.exited;
    const deadline = Date.now() + 2_000;
    while (isAlive(grandchild) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(isAlive(grandchild), false, "the grandchild went with the group");
  });
});
