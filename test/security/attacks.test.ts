import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { IsolateRuntime } from "../../src/sandbox/isolate/runtime.ts";
import { ProcessRuntime } from "../../src/sandbox/process/runtime.ts";
import type { SandboxRuntime } from "../../src/sandbox/types.ts";
import { attacks } from "./attacks.ts";
import {
  type AttackOutcome,
  bubblewrapInstalled,
  type Canaries,
  plantCanaries,
  runAttacks,
} from "./run-attacks.ts";

describe("attack suite", () => {
  let canaries: Canaries;
  before(async () => {
    canaries = await plantCanaries();
  });
  after(async () => {
    await canaries.close();
  });

  test("the suite has at least 40 attacks", () => {
    assert.ok(attacks({ file: "/x", url: "http://127.0.0.1:1/" }).length >= 40);
  });

  const tiers: Array<[string, () => Promise<SandboxRuntime>]> = [
    ["isolate", async () => new IsolateRuntime({ poolSize: 1 })],
    bubblewrapInstalled()
      ? ["process (Deno in bubblewrap)", () => ProcessRuntime.create({ poolSize: 1 })]
      : [
          "process (Deno alone: bwrap not installed)",
          () => ProcessRuntime.create({ poolSize: 1, bubblewrap: false }),
        ],
  ];
  for (const [tier, create] of tiers) {
    test(`${tier} tier: every attack ends in a clear error or a bounded result, leaks nothing`, async () => {
      const outcomes: AttackOutcome[] = await runAttacks(await create(), canaries);
      const failures = outcomes.filter((entry) => entry.problems.length > 0);
      assert.deepEqual(
        failures.map((entry) => `${entry.attack.name}: ${entry.problems.join("; ")} (${entry.outcome})`),
        [],
      );
    });
  }
});
