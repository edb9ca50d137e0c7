import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PooledMean, RollingCounter } from "./rolling-counter.ts";

describe("RollingCounter", () => {
  test("sums the last window, sliding in tenths of it", () => {
    const counter = new RollingCounter(10_000);
    counter.add(0, 5);
    counter.add(4_000, 3);
    assert.equal(counter.recent(9_999), 8);
    // The first bucket (0-1 s) has left the window; the 4 s one has not.
    assert.equal(counter.recent(10_500), 3);
    assert.equal(counter.recent(60_000), 0);
  });

  test("usual: the mean of past active windows, once out of the sliding window", () => {
    const counter = new RollingCounter(10_000);
    assert.equal(counter.add(1_000, 4), undefined);
    assert.equal(counter.usual(5_000), 0, "no window has closed yet");
    assert.equal(counter.add(15_000, 2), undefined, "the first window closed, still in the sliding window");
    assert.equal(counter.usual(15_000), 0);
    assert.equal(counter.usual(20_000), 4, "out of it from 20 s");
    assert.equal(counter.add(95_000, 0), 4, "joined on the next add");
    assert.equal(counter.add(105_000, 0), 2, "idle windows in between are not counted");
    assert.equal(counter.usual(105_000), 3);
    assert.equal(counter.usual(120_000), 2, "(4 + 2 + 0) / 3");
  });

  test("a burst straddling a window boundary is not its own usual", () => {
    const counter = new RollingCounter(10_000);
    for (let at = 9_900; at < 10_100; at++) counter.add(at, 1);
    assert.equal(counter.recent(10_099), 200);
    assert.equal(counter.usual(10_099), 0);
  });

  test("a long pause clears every bucket, and sums never go negative", () => {
    const counter = new RollingCounter(1_000);
    for (let at = 0; at < 1_000; at += 7) counter.add(at, 0.1);
    assert.ok(counter.recent(999) > 0);
    assert.equal(counter.recent(1_000_000), 0);
  });
});

describe("PooledMean", () => {
  test("is 0 when empty, else the mean", () => {
    const mean = new PooledMean();
    assert.equal(mean.mean(), 0);
    mean.add(2);
    mean.add(4);
    assert.equal(mean.mean(), 3);
  });
});
