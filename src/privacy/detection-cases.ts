import { createPiiDetector, type PiiDetector } from "./detect.ts";

/** One row of the PII detection table: a text and exactly what must be found in it. */
export interface DetectionCase {
  /** The kind this case exercises (for true positives) or what the text looks like (false positives). */
  label: string;
  text: string;
  /** `KIND:value` of every expected finding, in text order; empty for a false-positive check. */
  expect: readonly string[];
}

/** Personal data that must be tokenized. */
export const TRUE_POSITIVES: readonly DetectionCase[] = [
  {
    label: "EMAIL",
    text: "Contact alice.smith@example.com today",
    expect: ["EMAIL:alice.smith@example.com"],
  },
  {
    label: "EMAIL",
    text: "cc: Bob.O'Neil+crm@mail.example.co.uk.",
    expect: ["EMAIL:Bob.O'Neil+crm@mail.example.co.uk"],
  },
  { label: "EMAIL", text: '{"owner":"j_doe99@sub.example.org"}', expect: ["EMAIL:j_doe99@sub.example.org"] },
  { label: "PHONE", text: "US: (415) 555-2671", expect: ["PHONE:(415) 555-2671"] },
  { label: "PHONE", text: "US intl: +1 415-555-2671", expect: ["PHONE:+1 415-555-2671"] },
  { label: "PHONE", text: "UK: +44 20 7946 0958", expect: ["PHONE:+44 20 7946 0958"] },
  { label: "PHONE", text: "FR: +33 1 42 68 53 00", expect: ["PHONE:+33 1 42 68 53 00"] },
  { label: "PHONE", text: "DE: +49 30 901820", expect: ["PHONE:+49 30 901820"] },
  { label: "PHONE", text: "JP: +81 3-1234-5678", expect: ["PHONE:+81 3-1234-5678"] },
  { label: "PHONE", text: "IN: +91 98765 43210", expect: ["PHONE:+91 98765 43210"] },
  { label: "PHONE", text: "BR: +55 11 91234-5678", expect: ["PHONE:+55 11 91234-5678"] },
  { label: "PHONE", text: "E.164: +14155552671", expect: ["PHONE:+14155552671"] },
  { label: "CARD", text: "Visa 4111 1111 1111 1111 exp 12/29", expect: ["CARD:4111 1111 1111 1111"] },
  { label: "CARD", text: "mc=5555555555554444", expect: ["CARD:5555555555554444"] },
  { label: "CARD", text: "Amex 3782-822463-10005", expect: ["CARD:3782-822463-10005"] },
  { label: "IBAN", text: "IBAN DE89 3704 0044 0532 0130 00.", expect: ["IBAN:DE89 3704 0044 0532 0130 00"] },
  { label: "IBAN", text: "GB82WEST12345698765432", expect: ["IBAN:GB82WEST12345698765432"] },
  { label: "IBAN", text: "pay to FR1420041010050500013M02606", expect: ["IBAN:FR1420041010050500013M02606"] },
  { label: "SSN", text: "SSN 123-45-6789", expect: ["SSN:123-45-6789"] },
  { label: "SSN", text: "ssn: 536-22-1234;", expect: ["SSN:536-22-1234"] },
  { label: "IP", text: "login from 203.0.113.42:443", expect: ["IP:203.0.113.42"] },
  { label: "IP", text: "host 192.168.1.20 is up", expect: ["IP:192.168.1.20"] },
  { label: "IP", text: "v6 2001:db8::8a2e:370:7334", expect: ["IP:2001:db8::8a2e:370:7334"] },
  { label: "IP", text: "link fe80::1ff:fe23:4567:890a%eth0", expect: ["IP:fe80::1ff:fe23:4567:890a"] },
  {
    label: "mixed",
    text: "Alice <alice@example.com>, +44 20 7946 0958, card 4111111111111111",
    expect: ["EMAIL:alice@example.com", "PHONE:+44 20 7946 0958", "CARD:4111111111111111"],
  },
];

/** Ordinary data that must pass untouched. */
export const FALSE_POSITIVES: readonly DetectionCase[] = [
  { label: "integer", text: "count: 1234567", expect: [] },
  { label: "price", text: "total $1,234.56 (EUR 999.99)", expect: [] },
  { label: "ISO date", text: "due 2026-11-22", expect: [] },
  { label: "European date", text: "le 22/11/2026", expect: [] },
  { label: "US date", text: "on 11/22/2026", expect: [] },
  { label: "dotted date", text: "am 22.11.2026", expect: [] },
  { label: "time", text: "at 12:30:45", expect: [] },
  { label: "ISO timestamp", text: "2026-11-22T10:20:30.123Z", expect: [] },
  { label: "epoch ms", text: "ts=1763769242222", expect: [] },
  { label: "semver", text: "version 1.2.3", expect: [] },
  { label: "node version", text: "node v20.20.2", expect: [] },
  { label: "4-part version", text: "build 10.0.19041.1 and v1.2.3.4", expect: [] },
  { label: "UUID", text: "id 550e8400-e29b-41d4-a716-446655440000", expect: [] },
  { label: "order id", text: "order #4155552671 shipped", expect: [] },
  { label: "bare 10 digits", text: "ref 2125551234", expect: [] },
  { label: "SHA-1", text: "commit 3f786850e387550fdab836ed7e6dc881de23001b", expect: [] },
  { label: "SHA-256", text: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", expect: [] },
  { label: "port", text: "listening on port 8080", expect: [] },
  { label: "loopback", text: "http://127.0.0.1:3000 and http://[::1]:3000", expect: [] },
  { label: "16 digits failing Luhn", text: "4111111111111112", expect: [] },
  { label: "big integer", text: "id 1234567890123456789", expect: [] },
  { label: "npm spec", text: "@modelcontextprotocol/sdk@1.32.2", expect: [] },
  { label: "invalid SSN area", text: "666-12-3456 and 900-12-3456 and 000-12-3456", expect: [] },
  { label: "IBAN bad checksum", text: "DE89 3704 0044 0532 0130 01", expect: [] },
  { label: "MAC address", text: "mac 00:1A:2B:3C:4D:5E", expect: [] },
  { label: "C++ scope", text: "std::vector<int> and Foo::Bar", expect: [] },
  { label: "ISBN", text: "ISBN 978-3-16-148410-0", expect: [] },
  { label: "coordinates", text: "48.8566, 2.3522", expect: [] },
  { label: "phone-like decimal", text: "ratio 1234.5678", expect: [] },
  { label: "vault token", text: "send to [EMAIL_1] and [PHONE_2]", expect: [] },
];

export interface DetectionOutcome extends DetectionCase {
  found: string[];
  passed: boolean;
}

/** Runs every case through `detector` (the default one unless given). */
export function evaluateDetectionCases(detector: PiiDetector = createPiiDetector()): DetectionOutcome[] {
  return [...TRUE_POSITIVES, ...FALSE_POSITIVES].map((testCase) => {
    const found = detector.detect(testCase.text).map((match) => `${match.kind}:${match.value}`);
    const passed =
      found.length === testCase.expect.length && found.every((item, i) => item === testCase.expect[i]);
    return { ...testCase, found, passed };
  });
}

/**
 * The PII detection table for the closing note, computed by running the cases:
 * per kind, the examples detected; then the ordinary data that passed untouched.
 */
export function renderPiiDetectionTable(detector: PiiDetector = createPiiDetector()): string {
  const outcomes = evaluateDetectionCases(detector);
  const positives = outcomes.filter((outcome) => outcome.expect.length > 0);
  const negatives = outcomes.filter((outcome) => outcome.expect.length === 0);
  const labels = [...new Set(positives.map((outcome) => outcome.label))];
  const lines = [
    "| kind | detected | examples |",
    "|---|---|---|",
    ...labels.map((label) => {
      const rows = positives.filter((outcome) => outcome.label === label);
      const ok = rows.filter((outcome) => outcome.passed).length;
      const examples = rows.flatMap((outcome) =>
        outcome.found.map((item) => `\`${item.slice(item.indexOf(":") + 1)}\``),
      );
      return `| ${label} | ${ok}/${rows.length} | ${examples.join(", ")} |`;
    }),
    "",
    `| ordinary data (must not be tokenized) | untouched |`,
    "|---|---|",
    ...negatives.map(
      (outcome) =>
        `| ${outcome.label}: \`${outcome.text}\` | ${outcome.passed ? "yes" : `NO: ${outcome.found.join(", ")}`} |`,
    ),
    "",
    `False-positive checks passed: ${negatives.filter((outcome) => outcome.passed).length}/${negatives.length}; ` +
      `true positives found: ${positives.filter((outcome) => outcome.passed).length}/${positives.length}.`,
  ];
  return lines.join("\n");
}
