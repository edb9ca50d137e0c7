import assert from "node:assert/strict";
import { test } from "node:test";
import { CompileCache } from "./compile-cache.ts";

test("a cached program is compiled once; the least recently used entry goes first", async () => {
  const cache = new CompileCache(2);
  const first = await cache.compile("return 1", "typescript");
  assert.equal(await cache.compile("return 1", "typescript"), first);
  assert.notEqual(await cache.compile("return 1", "javascript"), first, "language is part of the key");
  await cache.compile("return 1", "typescript"); // touch: now most recent
  await cache.compile("return 2", "typescript"); // evicts the javascript entry
  assert.equal(cache.size, 2);
  assert.equal(await cache.compile("return 1", "typescript"), first);
});

test("compile errors are cached as results too", async () => {
  const cache = new CompileCache();
  const broken = await cache.compile("const = ;", "typescript");
  assert.equal(broken.ok, false);
  assert.equal(await cache.compile("const = ;", "typescript"), broken);
});
