import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { PiiDetector } from "./detect.ts";
import { PrivacyError } from "./errors.ts";
import { PiiVault } from "./vault.ts";

/** Environment variable holding the vault key: 32 random bytes in base64 (`openssl rand -base64 32`). */
export const VAULT_KEY_ENV = "TOOLSCRIPT_VAULT_KEY";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = "toolscript-pii-vault";
const ALGORITHM = "aes-256-gcm";

/** A sealed vault as stored: JSON text, safe to write to disk or a database. */
interface SealedVault {
  format: typeof FORMAT;
  version: 1;
  alg: "AES-256-GCM";
  iv: string;
  tag: string;
  data: string;
}

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
  if (key.length !== KEY_BYTES) {
    throw new PrivacyError(
      "privacy.invalid_key",
      `${VAULT_KEY_ENV} must be ${KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`), got ${key.length} bytes`,
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
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(additionalData(context));
  const data = Buffer.concat([cipher.update(JSON.stringify(vault.snapshot()), "utf8"), cipher.final()]);
  const sealed: SealedVault = {
    format: FORMAT,
    version: 1,
    alg: "AES-256-GCM",
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  };
  return JSON.stringify(sealed);
}

/** Decrypts a sealed vault; a wrong key, another context or altered data fail with `privacy.vault_locked`. */
export function openVault(sealed: string, key: Buffer, context = "", detector?: PiiDetector): PiiVault {
  checkKey(key);
  const envelope = parseEnvelope(sealed);
  let plain: string;
  try {
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(envelope.iv, "base64"));
    decipher.setAAD(additionalData(context));
    decipher.setAuthTag(Buffer.from(envelope.tag, "base64"));
    plain = Buffer.concat([decipher.update(Buffer.from(envelope.data, "base64")), decipher.final()]).toString(
      "utf8",
    );
  } catch (error) {
    throw new PrivacyError(
      "privacy.vault_locked",
      `cannot decrypt the PII vault: ${VAULT_KEY_ENV} is not the key it was sealed with, or the data was altered`,
      {},
      { cause: error },
    );
  }
  return PiiVault.fromSnapshot(JSON.parse(plain), detector);
}

function parseEnvelope(sealed: string): SealedVault {
  let parsed: unknown;
  try {
    parsed = JSON.parse(sealed);
  } catch (error) {
    throw new PrivacyError("privacy.vault_corrupt", "the sealed PII vault is not JSON", {}, { cause: error });
  }
  const envelope = parsed as Partial<SealedVault> | null;
  if (
    envelope?.format !== FORMAT ||
    envelope.version !== 1 ||
    typeof envelope.iv !== "string" ||
    typeof envelope.tag !== "string" ||
    typeof envelope.data !== "string"
  ) {
    throw new PrivacyError("privacy.vault_corrupt", "the sealed PII vault has an unknown format");
  }
  return envelope as SealedVault;
}

function additionalData(context: string): Buffer {
  return Buffer.from(`${FORMAT}:v1:${context}`, "utf8");
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) {
    throw new PrivacyError(
      "privacy.invalid_key",
      `the vault key must be ${KEY_BYTES} bytes, got ${key.length}`,
      {
        bytes: key.length,
      },
    );
  }
}
