import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { openSealedText, sealText } from "./aes-gcm-seal.ts";

describe("sealText / openSealedText", () => {
  test("round trip; the plaintext is not in the envelope", () => {
    const key = randomBytes(32);
    const sealed = sealText("secret-value-123", key, "fmt", "ctx");
    assert.ok(!sealed.includes("secret-value-123"));
    assert.deepEqual(openSealedText(sealed, key, "fmt", "ctx"), { ok: true, plain: "secret-value-123" });
  });

  test("another key, context or format does not open; failures are returned, not thrown", () => {
    const key = randomBytes(32);
    const sealed = sealText("x", key, "fmt", "ctx");
    assert.equal(reason(openSealedText(sealed, randomBytes(32), "fmt", "ctx")), "locked");
    assert.equal(reason(openSealedText(sealed, key, "fmt", "other")), "locked");
    assert.equal(reason(openSealedText(sealed, key, "other-format", "ctx")), "unknown_format");
    // Same key and context, the format field forged: the additional data still differs.
    const forged = JSON.stringify({ ...JSON.parse(sealed), format: "other-format" });
    assert.equal(reason(openSealedText(forged, key, "other-format", "ctx")), "locked");
    assert.equal(reason(openSealedText("{", key, "fmt", "ctx")), "not_json");
    assert.equal(reason(openSealedText("null", key, "fmt", "ctx")), "unknown_format");
  });
});

function reason(outcome: ReturnType<typeof openSealedText>): string {
  return outcome.ok ? "ok" : outcome.reason;
}
