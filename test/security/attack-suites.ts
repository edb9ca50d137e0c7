import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { IsolateRuntime } from "../../src/sandbox/isolate/runtime.ts";
import { ProcessRuntime } from "../../src/sandbox/process/runtime.ts";
import type { SandboxRuntime } from "../../src/sandbox/types.ts";
import { pythonAttacks } from "./python-attacks.ts";
import {
  type AttackOutcome,
  bubblewrapInstalled,
  type Canaries,
  plantCanaries,
  runAttacks,
} from "./run-attacks.ts";
import { runAttacksOverServe, type ServeTier, serveCommand, tierSandbox } from "./serve-attacks.ts";

// One test file per tier and per way in, so each stays well under the runner's
// per-file limit and two can run side by side.

function failuresOf(outcomes: readonly AttackOutcome[]): string[] {
  return outcomes
    .filter((entry) => entry.problems.length > 0)
    .map((entry) => `${entry.attack.name}: ${entry.problems.join("; ").slice(0, 600)} (${entry.outcome})`);
}

function withCanaries(name: string, body: (canaries: () => Canaries) => void): void {
  describe(name, () => {
    let canaries: Canaries;
    before(async () => {
      canaries = await plantCanaries();
    });
    after(async () => {
      await canaries.close();
    });
    body(() => canaries);
  });
}

/** The attacks inside the test's own gateway, straight on the sandbox runtime. */
export function inProcessSuite(tier: ServeTier): void {
  const [label, create]: [string, () => Promise<SandboxRuntime>] =
    tier === "isolate"
      ? ["isolate tier", async () => new IsolateRuntime({ poolSize: 1 })]
      : bubblewrapInstalled()
        ? ["process tier (Deno in bubblewrap)", () => ProcessRuntime.create({ poolSize: 1 })]
        : [
            "process tier (Deno alone: bwrap not installed)",
            () => ProcessRuntime.create({ poolSize: 1, bubblewrap: false }),
          ];
  withCanaries("attack suite", (canaries) => {
    test(`${label}: every attack ends in a clear error or a bounded result, leaks nothing`, async () => {
      assert.deepEqual(failuresOf(await runAttacks(await create(), canaries())), []);
    });
  });
}

/**
 * The attacks as a stock MCP client sends them: a real `toolscript serve`
 * (stdio) and the SDK's `Client`, which refuses messages over 10 MiB. One
 * process for the tier, reused across attacks.
 */
export function serveSuite(tier: ServeTier): void {
  withCanaries(`attack suite over a real toolscript serve process (${serveCommand().from})`, (canaries) => {
    test(`${tierSandbox(tier).note}: every attack gets a contained answer; the gateway stays up and answers the next execution`, async () => {
      const run = await runAttacksOverServe(tier, canaries());
      assert.deepEqual(failuresOf(run.outcomes), []);
      assert.equal(run.restarts, 0, "no attack may end the gateway process");
    });
  });
}

/**
 * The Python attacks through a real `toolscript serve`: Python always runs on
 * the process tier (Pyodide in Deno in bubblewrap), whatever the default tier.
 */
export function pythonServeSuite(): void {
  withCanaries(
    `Python attack suite over a real toolscript serve process (${serveCommand().from})`,
    (canaries) => {
      test(`${tierSandbox("process").note}: every Python attack gets a contained answer; the gateway stays up and the next interpreter is clean`, async () => {
        const run = await runAttacksOverServe("process", canaries(), () => true, pythonAttacks);
        assert.deepEqual(failuresOf(run.outcomes), []);
        assert.equal(run.restarts, 0, "no attack may end the gateway process");
      });
    },
  );
}
