import { openSealedText, SEAL_KEY_BYTES, sealText } from "../secrets/aes-gcm-seal.ts";
import type { PiiDetector } from "./detect.ts";
import { PrivacyError } from "./errors.ts";
import { PiiVault } from "./vault.ts";

/** Environment variable holding the vault key: 32 random bytes in base64 (`openssl rand -base64 32`). */
export const VAULT_KEY_ENV = "TOOLSCRIPT_VAULT_KEY";
const FORMAT = "toolscript-pii-vault";

/**
 * The vault key from the environment, or undefined when the variable is unset
 * or empty. Then vaults live in memory only: tokens are stable for the life of
 * the gateway process and are never written anywhere (an ephemeral key would
 * only produce files no later process can open). A value that is set but is
 * not 32 bytes of base64 is an error, never silently ignored.
 */
export function loadVaultKey(env: Record<string, string | undefined> = process.env): Buffer | undefined {
  const raw = env[VAULT_KEY_ENV]?.trim();
  if (!raw) return undefined;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) {
    throw new PrivacyError("privacy.invalid_key", `${VAULT_KEY_ENV} is not base64`, { env: VAULT_KEY_ENV });
  }
  const key = Buffer.from(raw, "base64");
  if (key.length !== SEAL_KEY_BYTES) {
    throw new PrivacyError(
      "privacy.invalid_key",
      `${VAULT_KEY_ENV} must be ${SEAL_KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`), got ${key.length} bytes`,
      { env: VAULT_KEY_ENV, bytes: key.length },
    );
  }
  return key;
}

/**
 * Encrypts the vault with AES-256-GCM under `key`, a fresh random IV per seal.
 * `context` (e.g. the session id) is bound as additional data: a vault copied
 * to another session does not open there.
 */
export function sealVault(vault: PiiVault, key: Buffer, context = ""): string {
  checkKey(key);
  return sealText(JSON.stringify(vault.snapshot()), key, FORMAT, context);
}

/** Decrypts a sealed vault; a wrong key, another context or altered data fail with `privacy.vault_locked`. */
export function openVault(sealed: string, key: Buffer, context = "", detector?: PiiDetector): PiiVault {
  checkKey(key);
  const opened = openSealedText(sealed, key, FORMAT, context);
  if (!opened.ok) {
    switch (opened.reason) {
      case "not_json":
        throw new PrivacyError(
          "privacy.vault_corrupt",
          "the sealed PII vault is not JSON",
          {},
          { cause: opened.cause },
        );
      case "unknown_format":
        throw new PrivacyError("privacy.vault_corrupt", "the sealed PII vault has an unknown format");
      case "locked":
        throw new PrivacyError(
          "privacy.vault_locked",
          `cannot decrypt the PII vault: ${VAULT_KEY_ENV} is not the key it was sealed with, or the data was altered`,
          {},
          { cause: opened.cause },
        );
    }
  }
  return PiiVault.fromSnapshot(JSON.parse(opened.plain), detector);
}

function checkKey(key: Buffer): void {
  if (key.length !== SEAL_KEY_BYTES) {
    throw new PrivacyError(
      "privacy.invalid_key",
      `the vault key must be ${SEAL_KEY_BYTES} bytes, got ${key.length}`,
      {
        bytes: key.length,
      },
    );
  }
}
