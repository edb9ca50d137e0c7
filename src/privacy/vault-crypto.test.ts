import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { PrivacyError } from "./errors.ts";
import { PiiVault } from "./vault.ts";
import { loadVaultKey, openVault, sealVault, VAULT_KEY_ENV } from "./vault-crypto.ts";

const isCode = (code: string) => (error: unknown) => error instanceof PrivacyError && error.code === code;

function filledVault(): PiiVault {
  const vault = new PiiVault();
  vault.tokenize("alice@example.com, +44 20 7946 0958, DE89 3704 0044 0532 0130 00");
  return vault;
}

describe("sealVault / openVault", () => {
  test("round trip: same tokens, same values; nothing readable at rest", () => {
    const key = randomBytes(32);
    const sealed = sealVault(filledVault(), key, "session-1");
    assert.ok(!sealed.includes("alice"));
    assert.ok(!sealed.includes("EMAIL"));
    const envelope = JSON.parse(sealed) as Record<string, unknown>;
    assert.deepEqual(Object.keys(envelope), ["format", "version", "alg", "iv", "tag", "data"]);
    assert.equal(envelope.alg, "AES-256-GCM");

    const opened = openVault(sealed, key, "session-1");
    assert.equal(
      opened.detokenize("[EMAIL_1] [PHONE_1] [IBAN_1]"),
      "alice@example.com +44 20 7946 0958 DE89 3704 0044 0532 0130 00",
    );
    assert.equal(opened.tokenize("alice@example.com"), "[EMAIL_1]");
  });

  test("each seal uses a fresh IV", () => {
    const key = randomBytes(32);
    const vault = filledVault();
    assert.notEqual(JSON.parse(sealVault(vault, key)).iv, JSON.parse(sealVault(vault, key)).iv);
  });

  test("a wrong key, another session or altered data fail clearly", () => {
    const key = randomBytes(32);
    const sealed = sealVault(filledVault(), key, "session-1");
    assert.throws(
      () => openVault(sealed, randomBytes(32), "session-1"),
      (error: unknown) => {
        return (
          isCode("privacy.vault_locked")(error) &&
          (error as Error).message ===
            "cannot decrypt the PII vault: TOOLSCRIPT_VAULT_KEY is not the key it was sealed with, or the data was altered"
        );
      },
    );
    assert.throws(() => openVault(sealed, key, "session-2"), isCode("privacy.vault_locked"));
    const envelope = JSON.parse(sealed) as { data: string };
    const data = Buffer.from(envelope.data, "base64");
    data[0] = (data[0] ?? 0) ^ 1;
    const altered = JSON.stringify({ ...envelope, data: data.toString("base64") });
    assert.throws(() => openVault(altered, key, "session-1"), isCode("privacy.vault_locked"));
    assert.throws(() => openVault("not json", key), isCode("privacy.vault_corrupt"));
    assert.throws(() => openVault('{"format":"other"}', key), isCode("privacy.vault_corrupt"));
  });

  test("a vault sealed before the shared sealing helper existed still opens (same envelope and additional data)", () => {
    // Sealed by the earlier vault-crypto.ts under the key 32 × 0x07, context "session-1".
    const sealed =
      '{"format":"toolscript-pii-vault","version":1,"alg":"AES-256-GCM","iv":"FSBoJ6/4C+8kNzfY","tag":"u72frgXVNbuowgG3rkvTYg==","data":"uKq+vNWVg0afFPwxdWzbahty7NVg3JxHbgH9b04rRY2cMiXJpREotKJ8AnLtv7CN63IoFhQokloNMOzuGJi58alXaVKPXUA5q4ggZO6Njg=="}';
    const opened = openVault(sealed, Buffer.alloc(32, 7), "session-1");
    assert.equal(opened.detokenize("[EMAIL_1]"), "alice@example.com");
  });

  test("keys must be 32 bytes", () => {
    assert.throws(() => sealVault(new PiiVault(), randomBytes(16)), isCode("privacy.invalid_key"));
  });
});

describe("loadVaultKey", () => {
  test("absent or empty: undefined (in-memory vaults, no persistence)", () => {
    assert.equal(loadVaultKey({}), undefined);
    assert.equal(loadVaultKey({ [VAULT_KEY_ENV]: "  " }), undefined);
  });

  test("32 bytes of base64 (or base64url) is the key", () => {
    const key = randomBytes(32);
    assert.deepEqual(loadVaultKey({ [VAULT_KEY_ENV]: key.toString("base64") }), key);
    assert.deepEqual(loadVaultKey({ [VAULT_KEY_ENV]: key.toString("base64url") }), key);
  });

  test("set but wrong is an error, never ignored", () => {
    assert.throws(
      () => loadVaultKey({ [VAULT_KEY_ENV]: randomBytes(16).toString("base64") }),
      (error: unknown) =>
        isCode("privacy.invalid_key")(error) &&
        /must be 32 bytes in base64 .* got 16 bytes/.test((error as Error).message),
    );
    assert.throws(() => loadVaultKey({ [VAULT_KEY_ENV]: "not base64!" }), isCode("privacy.invalid_key"));
  });
});
