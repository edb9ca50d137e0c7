import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CHUNK_OVERLAP_CHARS, chunkMatches } from "./chunked-detect.ts";
import { createPiiDetector } from "./detect.ts";
import { PiiVault } from "./vault.ts";

const detector = createPiiDetector();

/** Every chunk's matches, at positions of the whole text: what the vault replaces, chunk by chunk. */
function inChunks(text: string, chunkChars: number) {
  return [...chunkMatches(detector, text, chunkChars)].flatMap(({ matches, offset }) =>
    matches.toMatches(text, offset),
  );
}
const PII = [
  "alice.smith@example.com",
  "+44 20 7946 0958",
  "(415) 555-2671",
  "4111 1111 1111 1111",
  "DE89 3704 0044 0532 0130 00",
  "123-45-6789",
  "203.0.113.42",
  "2001:db8::8a2e:370:7334",
];

describe("chunkMatches", () => {
  test("finds exactly what one scan finds, with personal data across every chunk edge", async () => {
    // Filler of ids, dates and words of varying length between pieces of personal data, so pieces fall on edges.
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; length < 200_000; i++) {
      const filler = `order ${i} on 2026-11-22 v1.2.${i % 10} `.repeat(1 + (i % 40));
      const pii = PII[i % PII.length] as string;
      parts.push(filler, pii, ", ");
      length += filler.length + pii.length + 2;
    }
    const text = parts.join("");
    const whole = detector.detect(text);
    assert.ok(whole.length > 300);
    for (const chunkChars of [97, 1000, 4096, 65_536]) {
      assert.deepEqual(inChunks(text, chunkChars), whole, `chunks of ${chunkChars}`);
    }
  });

  test("a match right at an edge belongs to one chunk only", async () => {
    const chunkChars = 2 * CHUNK_OVERLAP_CHARS;
    for (const offset of [-30, -10, -1, 0, 1]) {
      const text = `${"x".repeat(chunkChars + offset)} bob@example.org now ${"y ".repeat(chunkChars)}`;
      const chunked = inChunks(text, chunkChars);
      assert.deepEqual(chunked, detector.detect(text));
      assert.equal(chunked.length, 1);
    }
  });

  test("other work runs between the chunks of a large scan", async () => {
    const text = `${"12345 ".repeat(1_000_000)}mail alice@example.com`;
    const order: string[] = [];
    const scan = new PiiVault(detector).tokenizeAsync(text).then((tokenized) => {
      order.push("scan");
      return tokenized;
    });
    setImmediate(() => order.push("other"));
    const tokenized = await scan;
    assert.deepEqual(order, ["other", "scan"]);
    assert.ok(tokenized.endsWith("mail [EMAIL_1]"));
  });
});

describe("adversarial text finishes with the right tokens", () => {
  const cases: Array<[label: string, text: string, expected: string]> = [
    ["digit groups", `${"12345 ".repeat(400_000)}alice@example.com`, "[EMAIL_1]"],
    ["random digit groups", `${randomGroups(400_000, 5, " ")}alice@example.com`, "[EMAIL_1]"],
    ["dash-separated digits", `${"1-2-3-4 ".repeat(300_000)}alice@example.com`, "[EMAIL_1]"],
    ["a long digit run", `${"1".repeat(2_000_000)} alice@example.com`, "[EMAIL_1]"],
    ["dotted digits", `${"1.".repeat(1_000_000)} alice@example.com`, "[EMAIL_1]"],
    ["many @", `${"@".repeat(2_000_000)} alice@example.com`, "[EMAIL_1]"],
    ["many a@", `${"a@".repeat(1_000_000)} alice@example.com`, "[EMAIL_1]"],
    ["many dots", `${"a.".repeat(1_000_000)} alice@example.com`, "[EMAIL_1]"],
    ["a long domain", `x@${"a.".repeat(1_000_000)}com alice@example.com`, "[EMAIL_1]"],
  ];
  for (const [label, text, expected] of cases) {
    test(label, async () => {
      const vault = new PiiVault();
      const out = await vault.tokenizeAsync(text);
      assert.ok(out.endsWith(expected), out.slice(-80));
      assert.equal(vault.size, 1, "nothing else was taken for personal data");
    });
  }

  test("200,000 e-mails in one string are tokenized without overflowing the stack", async () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `user${i}@example.com`).join(" ");
    const sync = new PiiVault();
    const out = sync.tokenize(text);
    assert.equal(sync.size, 200_000);
    assert.ok(out.startsWith("[EMAIL_1] [EMAIL_2] "));
    assert.ok(out.endsWith(" [EMAIL_200000]"));
    const chunked = new PiiVault();
    assert.equal(await chunked.tokenizeAsync(text), out);
  });

  test("many copies of one phone number (table rows) are all found", async () => {
    const text = "call +1 415-555-2671; ".repeat(100_000);
    const out = await new PiiVault().tokenizeAsync(text);
    assert.equal(out, "call [PHONE_1]; ".repeat(100_000));
  });
});

function randomGroups(count: number, digits: number, separator: string): string {
  let seed = 42;
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    let group = "";
    for (let d = 0; d < digits; d++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      group += String(seed % 10);
    }
    parts.push(group, separator);
  }
  return parts.join("");
}
