import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ibanValid, luhnValid, paymentCardValid, ssnValid } from "./checksums.ts";

describe("luhnValid / paymentCardValid", () => {
  test("published test card numbers pass; one changed digit fails", () => {
    for (const card of [
      "4111111111111111",
      "5555555555554444",
      "378282246310005",
      "6011111111111117",
      "3530111333300000",
    ]) {
      assert.ok(paymentCardValid(card), card);
      const last = Number(card.at(-1));
      assert.equal(luhnValid(card.slice(0, -1) + String((last + 1) % 10)), false, card);
    }
  });
  test("Luhn-valid numbers without a card network's prefix or length are not cards", () => {
    assert.ok(luhnValid("1234567812345670"));
    assert.equal(paymentCardValid("1234567812345670"), false); // no network starts with 1
    assert.equal(paymentCardValid("41111111111111"), false); // Visa prefix, 14 digits
  });
});

describe("ibanValid", () => {
  test("registry examples pass; a changed digit, a wrong length or an unknown country fail", () => {
    for (const iban of [
      "DE89370400440532013000",
      "GB82WEST12345698765432",
      "FR1420041010050500013M02606",
      "NL91ABNA0417164300",
    ]) {
      assert.ok(ibanValid(iban), iban);
    }
    assert.equal(ibanValid("DE89370400440532013001"), false);
    assert.equal(ibanValid("DE8937040044053201300"), false);
    assert.equal(ibanValid("ZZ89370400440532013000"), false);
  });
});

describe("ssnValid", () => {
  test("SSA rules: area 001-899 except 666, group 01-99, serial 0001-9999, no advertised numbers", () => {
    assert.ok(ssnValid("123", "45", "6789"));
    assert.ok(ssnValid("899", "01", "0001"));
    for (const [area, group, serial] of [
      ["000", "12", "3456"],
      ["666", "12", "3456"],
      ["900", "12", "3456"],
      ["123", "00", "4567"],
      ["123", "45", "0000"],
      ["078", "05", "1120"],
    ] as const) {
      assert.equal(ssnValid(area, group, serial), false, `${area}-${group}-${serial}`);
    }
  });
});
