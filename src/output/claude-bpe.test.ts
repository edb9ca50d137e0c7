import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { getTokenizer } from "@anthropic-ai/tokenizer";
import { loadClaudeBpe } from "./claude-bpe.ts";

const bpe = loadClaudeBpe();
// The package's countTokens, with its WASM encoder built once instead of per call.
const reference = getTokenizer();
const referenceCount = (text: string): number => reference.encode(text.normalize("NFKC"), "all").length;

/** A deterministic generator, so a failure names a string that can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

// Character pools where a JavaScript port of tiktoken can go wrong: Unicode
// whitespace (\s differs between Rust and JS), NFKC-changing characters,
// combining marks, astral characters and ZWJ sequences, contractions, specials.
const POOLS = [
  "abc xyz QRS",
  "ÀÉÎõüñçß",
  "日本語中文한국어",
  "🎉👍🏽🧑‍💻",
  "0123456789",
  " \t\n\r\v\f\u00a0\u2003\u200b\ufeff\u3000\u1680\u180e\u2028\u2029\u0085",
  "!@#$%^&*()[]{};:'\",.<>/?\\|`~-_=+",
  "'s'll're've'd'm't",
  "ﬁ½²Ⅻ①ｶ",
  "\u0301\u0308",
  "<EOT><META><SOS>",
  "\u0000\u0001\u007f",
  "абвгд עברית العربية",
  "\ud800\udfff",
].map((pool) => [...pool]);

describe("the legacy Claude BPE in JavaScript", () => {
  test("counts 4,000 random strings exactly as @anthropic-ai/tokenizer does", () => {
    const random = generator(20261128);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    for (let round = 0; round < 4_000; round++) {
      let text = "";
      const length = 1 + Math.floor(random() * 60);
      for (let i = 0; i < length; i++) text += pick(pick(POOLS));
      assert.equal(bpe.count(text), referenceCount(text), JSON.stringify(text));
    }
  });

  test("counts prose, code and JSON exactly, whole and line by line", () => {
    const texts = [
      readFileSync(new URL("../../README.md", import.meta.url), "utf8"),
      readFileSync(new URL("./claude-bpe.ts", import.meta.url), "utf8"),
      JSON.stringify(
        Array.from({ length: 300 }, (_, i) => ({ id: i, email: `user${i}@example.com`, amount: i * 2.5 })),
      ),
    ];
    for (const text of texts) {
      assert.equal(bpe.count(text), referenceCount(text));
      for (const line of text.split("\n")) assert.equal(bpe.count(line), referenceCount(line), line);
    }
  });

  test("special-token strings count as one token, the empty string as none", () => {
    assert.equal(bpe.count(""), 0);
    assert.equal(bpe.count("<EOT>"), 1);
    assert.equal(bpe.count("a<META_START>b"), referenceCount("a<META_START>b"));
  });

  test("a piece seen again is counted from the cache with the same result", () => {
    const text = "repeated words repeated words ".repeat(50);
    assert.equal(bpe.count(text), bpe.count(text));
    assert.equal(bpe.count(text), referenceCount(text));
  });
});
