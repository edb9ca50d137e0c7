import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BusyError, ExecutionGate } from "./execution-gate.ts";
import { RateWindow } from "./rate-window.ts";

describe("RateWindow", () => {
  test("allows perMinute events per sliding minute", () => {
    let now = 0;
    const window = new RateWindow(2, () => now);
    assert.deepEqual(window.tryTake(), { ok: true });
    now = 10_000;
    assert.deepEqual(window.tryTake(), { ok: true });
    assert.deepEqual(window.tryTake(), { ok: false, retryInMs: 50_000 });
    now = 60_000;
    assert.deepEqual(window.tryTake(), { ok: true });
  });
  test("0 means unlimited; take() gives up past its wait budget", async () => {
    const unlimited = new RateWindow(0);
    for (let i = 0; i < 1000; i++) assert.equal(unlimited.tryTake().ok, true);
    const one = new RateWindow(1);
    assert.equal(await one.take(10), true);
    assert.equal(await one.take(10), false);
  });
});

describe("ExecutionGate", () => {
  test("runs up to the cap, queues the rest in order, refuses beyond the queue", async () => {
    const gate = new ExecutionGate(2, 1);
    const releases: Array<() => void> = [];
    const order: number[] = [];
    const task = (id: number) => () =>
      new Promise<number>((resolve) => {
        order.push(id);
        releases.push(() => resolve(id));
      });
    const running = [gate.run(task(1)), gate.run(task(2)), gate.run(task(3))];
    await assert.rejects(
      gate.run(task(4)),
      (error: unknown) => error instanceof BusyError && /busy/.test(error.message),
    );
    assert.equal(gate.running, 2);
    assert.equal(gate.queued, 1);
    releases[0]?.();
    await running[0];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, [1, 2, 3]);
    releases[1]?.();
    releases[2]?.();
    assert.deepEqual(await Promise.all(running), [1, 2, 3]);
    assert.equal(gate.running, 0);
  });
  test("a queued execution whose signal aborts leaves the queue", async () => {
    const gate = new ExecutionGate(1, 5);
    let release = () => {};
    const first = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const queued = gate.run(async () => "never", controller.signal);
    controller.abort(new Error("client went away"));
    await assert.rejects(queued, /client went away/);
    assert.equal(gate.queued, 0);
    release();
    await first;
  });
});
