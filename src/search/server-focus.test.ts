import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { focusOnServers, SERVER_FOCUS } from "./server-focus.ts";

describe("server focus", () => {
  it("lowers each score by its share of the gap between the best and its server's best", () => {
    const scores = [0.9, 0.6, 0.7, 0.5];
    focusOnServers(scores, ["a", "a", "b", "b"]);
    assert.deepEqual(scores.slice(0, 2), [0.9, 0.6], "the best server's tools keep their scores");
    const lowered = [0.7 - SERVER_FOCUS * 0.2, 0.5 - SERVER_FOCUS * 0.2];
    for (const [at, score] of scores.slice(2).entries())
      assert.ok(Math.abs(score - (lowered[at] ?? 0)) < 1e-12, `${score}`);
  });

  it("keeps the order of documents without a server among themselves, and copes with no head", () => {
    const scores = [0.8, 0.4, 0.3];
    focusOnServers(scores, [undefined, undefined, undefined]);
    assert.ok((scores[0] ?? 0) > (scores[1] ?? 0) && (scores[1] ?? 0) > (scores[2] ?? 0), `${scores}`);
    assert.equal(scores[0], 0.8);
    const none: number[] = [];
    focusOnServers(none, []);
    assert.deepEqual(none, []);
  });
});
