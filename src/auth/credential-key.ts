import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { CodedError } from "../errors/coded-error.ts";
import { loadVaultKey, VAULT_KEY_ENV } from "../privacy/vault-crypto.ts";
import { SEAL_KEY_BYTES } from "../secrets/aes-gcm-seal.ts";

/** The key file in the data directory, used when `TOOLSCRIPT_VAULT_KEY` is not set. */
export const CREDENTIALS_KEY_FILE = "credentials.key";

/**
 * - `auth.credential_key`: the key for OAuth credentials cannot be used: the
 *   environment key is malformed, or the key file is unreadable, readable by
 *   others, or not 32 bytes of base64. `data.file` names the file when it is one.
 */
export type CredentialKeyErrorCode = "auth.credential_key";

export class CredentialKeyError extends CodedError<CredentialKeyErrorCode> {
  override readonly name = "CredentialKeyError";
}

/** Where the key came from: `TOOLSCRIPT_VAULT_KEY`, the key file, or memory only (lost at exit). */
export type CredentialKeySource = "env" | "file" | "memory";

export interface CredentialKey {
  key: Buffer;
  source: CredentialKeySource;
  /** The key file, when `source` is `file`. */
  file?: string | undefined;
}

/**
 * The key that seals OAuth credentials. `TOOLSCRIPT_VAULT_KEY` wins (one key
 * the operator manages, shared with the PII vault); else a persistent store
 * gets its own key file so tokens survive a restart without any setup; else
 * (nothing persists anyway) a random key in memory.
 */
export function loadCredentialKey(
  env: Record<string, string | undefined>,
  dataDir: string | undefined,
): CredentialKey {
  let fromEnv: Buffer | undefined;
  try {
    fromEnv = loadVaultKey(env);
  } catch (error) {
    throw new CredentialKeyError(
      "auth.credential_key",
      error instanceof Error ? error.message : String(error),
      { env: VAULT_KEY_ENV },
      { cause: error },
    );
  }
  if (fromEnv) return { key: fromEnv, source: "env" };
  if (dataDir === undefined) return { key: randomBytes(SEAL_KEY_BYTES), source: "memory" };
  const file = join(dataDir, CREDENTIALS_KEY_FILE);
  return { key: readOrCreateKeyFile(dataDir, file), source: "file", file };
}

function readOrCreateKeyFile(dataDir: string, file: string): Buffer {
  return readKeyFile(file) ?? createKeyFile(dataDir, file);
}

/**
 * Creates `file` with a new random key; when another process created it first
 * (between our read and our create), its key is returned and its file kept.
 * Exported for tests: that race is not reachable from `loadCredentialKey`.
 */
export function createKeyFile(dataDir: string, file: string): Buffer {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw keyError(file, `cannot create its directory: ${reason(error)}`, error);
  }
  // Written whole to a private temporary file, then linked into place: another
  // process sees either no key file or a complete one, and `link` fails rather
  // than replace a key another gateway created meanwhile (its key wins).
  const temp = join(dataDir, `.${CREDENTIALS_KEY_FILE}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const key = randomBytes(SEAL_KEY_BYTES);
  try {
    const fd = openSync(temp, "wx", 0o600);
    try {
      fchmodSync(fd, 0o600); // the umask may have narrowed it further, e.g. to unreadable
      writeSync(fd, `${key.toString("base64")}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      const winner = readKeyFile(file);
      if (winner) return winner;
    }
    throw keyError(file, `cannot create it: ${reason(error)}`, error);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // Never created, or already gone: nothing to clean.
    }
  }
}

/** The key in `file`, or undefined when there is no such file. */
function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw keyError(file, `cannot open it: ${reason(error)}`, error);
  }
  try {
    // Checked on the open descriptor: the file read is the file checked.
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw keyError(file, "it is not a regular file");
    if (process.platform !== "win32" && (stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
      throw keyError(
        file,
        `its mode is ${mode}: group or others can access it; it must be 0600 (chmod 600 ${file})`,
        undefined,
        { mode },
      );
    }
    text = readFileSync(fd, "utf8").trim();
  } catch (error) {
    if (error instanceof CredentialKeyError) throw error;
    throw keyError(file, `cannot read it: ${reason(error)}`, error);
  } finally {
    closeSync(fd);
  }
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, "base64") : undefined;
  if (key?.length !== SEAL_KEY_BYTES) {
    throw keyError(
      file,
      `it must hold ${SEAL_KEY_BYTES} bytes in base64, got ${key ? `${key.length} bytes` : "text that is not base64"}; ` +
        "remove it to have a new key made (stored credentials are then lost: log in again)",
    );
  }
  return key;
}

function keyError(
  file: string,
  problem: string,
  cause?: unknown,
  data: Record<string, unknown> = {},
): CredentialKeyError {
  return new CredentialKeyError(
    "auth.credential_key",
    `the OAuth credentials key file ${file} cannot be used: ${problem}`,
    { file, ...data },
    cause === undefined ? undefined : { cause },
  );
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
