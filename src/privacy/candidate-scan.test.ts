import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type CandidateSpan, nextPhoneCandidate } from "./candidate-scan.ts";

/** The regex the scanner stands for. */
const PHONE_CANDIDATE = /(?<![\w+])(?:\+|\(\+?)?\d[\d ().\-/\u00a0]{5,32}\d/g;

const PIECES = [
  "1",
  "2",
  "0",
  "9",
  "5",
  " ",
  "-",
  ".",
  "(",
  ")",
  "/",
  "+",
  "\u00a0",
  ",",
  "a",
  "_",
  "Z",
  ":",
  "  ",
];

/** Deterministic texts of phone-ish characters, so a failure reproduces. */
function randomTexts(count: number): string[] {
  let state = 11;
  const next = (bound: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % bound;
  };
  const texts: string[] = [];
  for (let t = 0; t < count; t++) {
    let text = "";
    const length = next(60);
    for (let i = 0; i < length; i++) {
      // Digits most of the time: long runs and groups are what the scanners must get right.
      text += next(3) === 0 ? (PIECES[next(PIECES.length)] as string) : String(next(10));
    }
    texts.push(text);
  }
  return texts;
}

function regexSpans(regex: RegExp, text: string): string[] {
  return [...text.matchAll(regex)].map((match) => `${match.index}:${match.index + match[0].length}`);
}

describe("nextPhoneCandidate", () => {
  test("finds exactly the spans of the phone candidate regex", () => {
    for (const text of [
      ...randomTexts(20_000),
      "(+1 415 555 2671",
      "+(415) 555",
      "a+1 415 555 2671",
      "1".repeat(80),
    ]) {
      const spans: string[] = [];
      const span: CandidateSpan = { start: 0, end: 0 };
      for (let from = 0; nextPhoneCandidate(text, from, span); from = span.end)
        spans.push(`${span.start}:${span.end}`);
      assert.deepEqual(spans, regexSpans(PHONE_CANDIDATE, text), JSON.stringify(text));
    }
  });
});
