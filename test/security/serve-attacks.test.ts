import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Canaries, plantCanaries } from "./run-attacks.ts";
import { runAttacksOverServe, type ServeTier, serveCommand, tierSandbox } from "./serve-attacks.ts";

// The suite over a real `toolscript serve` (stdio) and the SDK's stock Client,
// which refuses messages over 10 MiB: one process per tier, reused across attacks.
describe(`attack suite over a real toolscript serve process (${serveCommand().from})`, () => {
  let canaries: Canaries;
  before(async () => {
    canaries = await plantCanaries();
  });
  after(async () => {
    await canaries.close();
  });

  for (const tier of ["isolate", "process"] as ServeTier[]) {
    test(`${tierSandbox(tier).note}: every attack gets a contained answer; the gateway stays up and answers the next execution`, async () => {
      const run = await runAttacksOverServe(tier, canaries);
      const failures = run.outcomes
        .filter((entry) => entry.problems.length > 0)
        .map((entry) => `${entry.attack.name}: ${entry.problems.join("; ")} (${entry.outcome})`);
      assert.deepEqual(failures, []);
      assert.equal(run.restarts, 0, "no attack may end the gateway process");
    });
  }
});
