import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RateLimitStore } from "../store/domains.ts";
import { openMemorySharedStore } from "../store/sqlite-shared-store.ts";
import { SharedRateLimit } from "./shared-rate-limit.ts";

describe("SharedRateLimit", () => {
  test("without a shared store, counts per key in this process", async () => {
    const limit = new SharedRateLimit(2);
    assert.equal((await limit.tryTake("client:a")).ok, true);
    assert.equal((await limit.tryTake("client:a")).ok, true);
    assert.equal((await limit.tryTake("client:a")).ok, false);
    assert.equal((await limit.tryTake("client:b")).ok, true, "another key");
    assert.equal(await limit.take("client:a", 100), false, "no slot within the wait budget");
  });

  test("two limits on one shared store share each key's window", async () => {
    const store = openMemorySharedStore();
    try {
      const [a, b] = [
        new SharedRateLimit(3, () => store.rateLimits),
        new SharedRateLimit(3, () => store.rateLimits),
      ];
      assert.equal((await a.tryTake("upstream:x")).ok, true);
      assert.equal((await b.tryTake("upstream:x")).ok, true);
      assert.equal((await a.tryTake("upstream:x")).ok, true);
      assert.equal((await b.tryTake("upstream:x")).ok, false);
      assert.equal((await b.tryTake("upstream:y")).ok, true);
    } finally {
      await store.close();
    }
  });

  test("a failing shared store fails the take, naming the limit and the failure (fail closed)", async () => {
    const failing: RateLimitStore = { take: () => Promise.reject(new Error("connection refused")) };
    const limit = new SharedRateLimit(5, () => failing);
    await assert.rejects(
      limit.take("upstream:github", 1_000),
      /the rate limit upstream:github \(5 per minute\) is kept in the shared store, which failed: connection refused/,
    );
    assert.equal(
      (await new SharedRateLimit(0, () => failing).tryTake("k")).ok,
      true,
      "0: unlimited, no store asked",
    );
  });
});
