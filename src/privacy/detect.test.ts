import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createPiiDetector } from "./detect.ts";
import { FALSE_POSITIVES, renderPiiDetectionTable, TRUE_POSITIVES } from "./detection-cases.ts";
import { PrivacyError } from "./errors.ts";

const detector = createPiiDetector();
const found = (text: string, d = detector) => d.detect(text).map((match) => `${match.kind}:${match.value}`);

describe("PII detection table: true positives", () => {
  for (const testCase of TRUE_POSITIVES) {
    test(`${testCase.label}: ${testCase.text}`, () => {
      assert.deepEqual(found(testCase.text), testCase.expect);
    });
  }
});

describe("PII detection table: ordinary data is not tokenized", () => {
  for (const testCase of FALSE_POSITIVES) {
    test(`${testCase.label}: ${testCase.text}`, () => {
      assert.deepEqual(found(testCase.text), []);
    });
  }
});

describe("createPiiDetector options", () => {
  test("matches carry positions and identity keys", () => {
    const [email, phone] = detector.detect("Mail Alice@Example.com or call (415) 555-2671");
    assert.deepEqual(email, {
      kind: "EMAIL",
      start: 5,
      end: 22,
      value: "Alice@Example.com",
      key: "alice@example.com",
    });
    assert.deepEqual(phone, {
      kind: "PHONE",
      start: 31,
      end: 45,
      value: "(415) 555-2671",
      key: "+14155552671",
    });
  });

  test("the phone region decides which national formats are read", () => {
    const uk = createPiiDetector({ phoneRegion: "GB" });
    const none = createPiiDetector({ phoneRegion: null });
    assert.deepEqual(found("ring 020 7946 0958", uk), ["PHONE:020 7946 0958"]);
    assert.deepEqual(found("ring 020 7946 0958"), []);
    assert.deepEqual(found("(415) 555-2671", none), []);
    assert.deepEqual(found("+1 415-555-2671", none), ["PHONE:+1 415-555-2671"]);
  });

  test("custom patterns come first and name their tokens", () => {
    const custom = createPiiDetector({
      patterns: [
        { name: "employee_id", regex: "\\bEMP-\\d{6}\\b" },
        { name: "CASE", regex: "case #(\\d+)", flags: "i" },
      ],
    });
    assert.deepEqual(found("EMP-004211 opened Case #77 for bob@example.com", custom), [
      "EMPLOYEE_ID:EMP-004211",
      "CASE:Case #77",
      "EMAIL:bob@example.com",
    ]);
  });

  test("kinds can be limited", () => {
    const onlyEmail = createPiiDetector({ kinds: ["EMAIL"] });
    assert.deepEqual(found("bob@example.com +44 20 7946 0958 192.168.0.1", onlyEmail), [
      "EMAIL:bob@example.com",
    ]);
  });

  test("an invalid custom pattern is a PrivacyError naming it", () => {
    assert.throws(
      () => createPiiDetector({ patterns: [{ name: "BAD", regex: "(" }] }),
      (error: unknown) =>
        error instanceof PrivacyError &&
        error.code === "privacy.invalid_pattern" &&
        /"BAD"/.test(error.message),
    );
  });

  test("existing tokens are never matched, even by a custom pattern that would", () => {
    const greedy = createPiiDetector({ patterns: [{ name: "CODE", regex: "[A-Z]+_\\d+" }] });
    assert.deepEqual(found("[EMAIL_1] and ABC_12", greedy), ["CODE:ABC_12"]);
  });
});

describe("renderPiiDetectionTable", () => {
  test("is computed from the cases, every one passing", () => {
    const table = renderPiiDetectionTable();
    assert.ok(table.startsWith("| kind | detected | examples |\n|---|---|---|\n| EMAIL | 3/3 |"));
    assert.match(table, /\| PHONE \| 9\/9 \| `\(415\) 555-2671`, `\+1 415-555-2671`/);
    assert.match(table, /\| ISO date: `due 2026-11-22` \| yes \|/);
    assert.ok(
      table.endsWith(
        `False-positive checks passed: ${FALSE_POSITIVES.length}/${FALSE_POSITIVES.length}; true positives found: ${TRUE_POSITIVES.length}/${TRUE_POSITIVES.length}.`,
      ),
    );
  });

  test("shows failures instead of hiding them", () => {
    const noIp = createPiiDetector({ kinds: ["EMAIL", "PHONE", "CARD", "IBAN", "SSN"] });
    assert.match(renderPiiDetectionTable(noIp), /\| IP \| 0\/4 \|/);
  });
});
