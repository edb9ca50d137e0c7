import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findEmails } from "./email.ts";
import { MatchList } from "./match-list.ts";

/** The definition findEmails implements by hand: every leftmost, non-overlapping match of this pattern. */
const SPEC =
  /(?<![\w.%+-])[A-Za-z0-9_](?:[A-Za-z0-9._%+'-]{0,63}[A-Za-z0-9_%+-])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}[A-Za-z]{2,24}(?![\w-])/g;

function bySpec(text: string): Array<[number, string]> {
  return [...text.matchAll(SPEC)].map((match) => [match.index, match[0]]);
}

function emails(text: string) {
  const list = new MatchList();
  findEmails(text, list);
  return list.toMatches(text);
}

function byFinder(text: string): Array<[number, string]> {
  return emails(text).map((match) => [match.start, match.value]);
}

/** Deterministic pseudo-random numbers, so a failure reproduces. */
function randomSource(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

/** Pieces that make e-mail-like text, and its edge cases, likely. */
const PIECES = [
  "a",
  "Z",
  "7",
  "_",
  ".",
  "%",
  "+",
  "'",
  "-",
  "@",
  " ",
  ",",
  "co",
  "example",
  "x".repeat(62),
  "b".repeat(25),
  "é",
  "@a.b.",
  ".com",
];

describe("findEmails", () => {
  it("finds addresses with their identity key in lower case", () => {
    assert.deepEqual(emails("Mail Alice@Example.COM, bob.o'neil+x@mail.co.uk."), [
      { kind: "EMAIL", start: 5, end: 22, value: "Alice@Example.COM", key: "alice@example.com" },
      { kind: "EMAIL", start: 24, end: 47, value: "bob.o'neil+x@mail.co.uk", key: "bob.o'neil+x@mail.co.uk" },
    ]);
  });

  it("agrees with the pattern it implements on edge cases", () => {
    const cases = [
      "a@b.co",
      "@b.co a@b",
      "a.@b.co 'a@b.co .a@b.co x'y@b.co",
      "a@b.co.uk. a@b.co1 a@b.c a@-b.co a@b-.co a@b..co",
      `a@${"l.".repeat(9)}com`,
      `a@${"x".repeat(63)}.com a@${"x".repeat(64)}.com`,
      `${"u".repeat(65)}@b.co ${"u".repeat(66)}@b.co`,
      `a@b.${"c".repeat(24)} a@b.${"c".repeat(25)}`,
      "a@b.co@c.de a@b.co-x a@b.co_x",
    ];
    for (const text of cases) assert.deepEqual(byFinder(text), bySpec(text), text);
  });

  it("agrees with the pattern it implements on random text", () => {
    const random = randomSource(42);
    for (let round = 0; round < 3000; round++) {
      let text = "";
      const pieces = 1 + random(40);
      for (let i = 0; i < pieces; i++) text += PIECES[random(PIECES.length)];
      assert.deepEqual(byFinder(text), bySpec(text), JSON.stringify(text));
    }
  });

  it("finds 120,000 addresses in one string without recursion", () => {
    const text = "a@b.co ".repeat(120_000);
    assert.equal(emails(text).length, 120_000);
  });
});
