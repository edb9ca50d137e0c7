import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type CountryCode, findPhoneNumbersInText, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { phoneSpanFeasible } from "./phone-feasibility.ts";

const REGIONS: readonly (CountryCode | undefined)[] = ["US", "GB", "DE", "AR", "FR", "IN", "BR", undefined];
const PHONE_CANDIDATE = /(?<![\w+])(?:\+|\(\+?)?\d[\d ().\-/\u00a0]{5,32}\d/g;
const SEPARATORS = [" ", "-", ".", "(", ")", "/", " - ", "  ", "\u00a0", "", "", "+", ", "];
const REAL = [
  "415 555 2671",
  "(415) 555-2671",
  "+44 20 7946 0958",
  "011 44 20 7946 0958",
  "1-415-555-2671",
  "+33 1 42 68 53 00",
  "0044 20 7946 0958",
  "+49 30 901820",
  "1310 6891",
];

/** What libphonenumber finds in a span, the way findPhones asks it. */
function libraryFinds(span: string, region: CountryCode | undefined): boolean {
  const whole = parsePhoneNumberFromString(span, {
    ...(region && { defaultCountry: region }),
    extract: false,
  });
  if (whole?.isValid()) return true;
  return findPhoneNumbersInText(span, region ? { defaultCountry: region } : {}).length > 0;
}

describe("phoneSpanFeasible", () => {
  test("never rules out a span in which libphonenumber finds a number", () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    let found = 0;
    for (let i = 0; i < 1500; i++) {
      let text = "";
      for (let part = 0, parts = 1 + next(8); part < parts; part++) {
        const piece = next(5) === 0 ? (REAL[next(REAL.length)] as string) : String(next(10 ** (1 + next(6))));
        text += piece + (SEPARATORS[next(SEPARATORS.length)] as string);
      }
      const region = REGIONS[next(REGIONS.length)];
      for (const [span] of text.matchAll(PHONE_CANDIDATE)) {
        if (!libraryFinds(span, region)) continue;
        found++;
        assert.ok(phoneSpanFeasible(span, region), `${JSON.stringify(span)} in ${region ?? "no region"}`);
      }
    }
    assert.ok(found > 100, `only ${found} spans held a number`);
  });

  test("rules out digit groups that cannot hold a number", () => {
    for (const span of [
      "12345 12345 12345 12345 12345 1234",
      "98765 43210 12345 67890 13579 2468",
      "1-2-3-4 1-2-3-4 1-2-3-4 1-2-3-4 1",
      "1-2-3-4-5-6-7-8-9-0-1-2-3-4-5-6-7",
      "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1",
    ]) {
      assert.equal(phoneSpanFeasible(span, "US"), false, span);
    }
    assert.equal(phoneSpanFeasible("415 555 2671", "US"), true);
    assert.equal(phoneSpanFeasible("415 555 2671", undefined), false, "without a region only + numbers");
  });
});
