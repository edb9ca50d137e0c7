import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AgentPositions } from "../isolate/agent-stack.ts";
import { fromExit } from "./outcome.ts";

const positions = new AgentPositions(undefined);
const kindOf = (exit: Parameters<typeof fromExit>[0]) => fromExit(exit, undefined, 1_000, positions).kind;

describe("fromExit: running out of memory", () => {
  it("reads V8's and Rust's out-of-memory words anywhere in stderr", () => {
    const trace = `<--- Last few GCs --->\n${"[1:0x1] Mark-Compact ...\n".repeat(2_000)}`;
    for (const stderr of [
      "\n#\n# Fatal JavaScript out of memory: Reached heap limit\n#",
      "memory allocation of 8388608 bytes failed",
      `${trace}\n# Fatal process out of memory: Failed to reserve virtual memory`,
    ]) {
      assert.equal(kindOf({ code: 133, signal: null, stderr }), "memory", stderr.slice(-60));
    }
  });

  it("counts a trap, an abort or a kill it did not send as memory, also as bubblewrap's 128 + signal", () => {
    for (const signal of ["SIGTRAP", "SIGABRT", "SIGKILL"] as const) {
      assert.equal(kindOf({ code: null, signal, stderr: "" }), "memory", signal);
    }
    for (const code of [133, 134, 137]) assert.equal(kindOf({ code, signal: null, stderr: "" }), "memory");
  });

  it("reports any other exit, and the host's own kills, as what they are", () => {
    assert.equal(kindOf({ code: 1, signal: null, stderr: "error: Uncaught" }), "runtime");
    assert.equal(kindOf({ code: null, signal: "SIGKILL", stderr: "", violation: "too big" }), "runtime");
    assert.equal(
      fromExit({ code: null, signal: "SIGKILL", stderr: "" }, "timeout", 5, positions).kind,
      "timeout",
    );
  });
});
