import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundValue, cutMiddle, jsonBytesUpTo } from "./bound-value.ts";
import { claudeLegacyTokenizer as tokenizer } from "./tokenizer.ts";
import { truncateText } from "./truncate-text.ts";

describe("cutMiddle", () => {
  it("keeps head and tail and says how much of how much was cut", () => {
    const text = `${"a".repeat(500)}${"b".repeat(500)}`;
    const cut = cutMiddle(text, 100);
    assert.match(cut, /^a{70}\n\[… 900 of 1,000 characters cut here …\]\nb{30}$/);
    assert.equal(cutMiddle("short", 100), "short");
  });

  it("never splits a surrogate pair", () => {
    const cut = cutMiddle("😀".repeat(100), 51);
    assert.doesNotMatch(cut, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it("a second cut, and the token budget's cut, count from the original length", () => {
    const original = "x".repeat(1_000_000);
    const twice = cutMiddle(cutMiddle(original, 50_000), 1_000);
    assert.match(twice, /\[… 999,000 of 1,000,000 characters cut here …\]/);
    const budgeted = truncateText(cutMiddle(original, 50_000), 100, tokenizer);
    assert.match(budgeted.text, /of 1,000,000 characters cut here/);
  });
});

describe("jsonBytesUpTo", () => {
  it("measures exactly under the limit", () => {
    const value = { a: [1, "two", null, true], "b\n": { c: "é" } };
    assert.deepEqual(jsonBytesUpTo(value, 1000), {
      bytes: Buffer.byteLength(JSON.stringify(value)),
      over: false,
    });
  });

  it("stops once over the limit, without reading a huge string", () => {
    const huge = "x".repeat(50 * 1024 * 1024);
    assert.equal(jsonBytesUpTo(huge, 1024).over, true);
    assert.equal(jsonBytesUpTo([1, { deep: [huge] }], 1024).over, true);
    assert.equal(
      jsonBytesUpTo(
        Array.from({ length: 1_000_000 }, () => 1),
        1024,
      ).over,
      true,
    );
  });
});

describe("boundValue", () => {
  it("copies at most about maxBytes, marking each cut", () => {
    const value = {
      rows: Array.from({ length: 100_000 }, (_, id) => ({ id, name: `row-${id}` })),
      text: "y".repeat(1_000_000),
    };
    const { value: bounded, cut } = boundValue(value, 10_000);
    assert.equal(cut, true);
    const json = JSON.stringify(bounded);
    assert.ok(json.length < 12_000, `${json.length} bytes`);
    assert.match(json, /more items cut|more keys cut/);
  });

  it("returns small values unchanged in content", () => {
    const value = { a: [1, 2, { b: "c" }] };
    assert.deepEqual(boundValue(value, 1000), { value, cut: false });
  });
});
