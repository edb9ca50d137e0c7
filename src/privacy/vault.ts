import { createPiiDetector, type PiiDetector, tokenScanner } from "./detect.ts";
import { PrivacyError } from "./errors.ts";

/** Strings this long with no whitespace and only base64 characters are binary payloads (images, files): never scanned. */
const BASE64_BLOB_MIN_CHARS = 256;
const BASE64_BLOB = /^[A-Za-z0-9+/=_-]+$/;
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w=.+-]+)*;base64,/;

/** The vault's content as plain data (for `sealVault`); holds the real values, never store it unencrypted. */
export interface VaultSnapshot {
  version: 1;
  /** [token, original value, identity key] in creation order. */
  entries: Array<[token: string, value: string, key: string]>;
}

/**
 * Personal data of one session, swapped for stable tokens: the same value (by
 * identity: e-mail case-insensitive, phone by E.164, card by digits) always gets
 * the same `[KIND_n]`, and tokens turn back into the first-seen original.
 */
export class PiiVault {
  readonly #detector: PiiDetector;
  /** `${kind}\0${key}` -> token */
  readonly #tokens = new Map<string, string>();
  /** token -> original value */
  readonly #values = new Map<string, string>();
  /** token -> identity key, kept for snapshots */
  readonly #keys = new Map<string, string>();
  readonly #counters = new Map<string, number>();

  constructor(detector: PiiDetector = createPiiDetector()) {
    this.#detector = detector;
  }

  /** How many distinct values the vault holds. */
  get size(): number {
    return this.#values.size;
  }

  /** Replaces every piece of personal data in `text` with its token. */
  tokenize(text: string): string {
    const matches = this.#detector.detect(text);
    if (matches.length === 0) return text;
    let out = "";
    let last = 0;
    for (const match of matches) {
      out += text.slice(last, match.start) + this.#tokenFor(match.kind, match.key, match.value);
      last = match.end;
    }
    return out + text.slice(last);
  }

  /** Deep copy of a JSON value with every string tokenized; object keys too when they hold personal data. */
  tokenizeValue(value: unknown): unknown {
    return mapStrings(value, (text) => (isBinaryPayload(text) ? text : this.tokenize(text)));
  }

  /** Replaces the vault's tokens in `text` with the real values; unknown tokens stay as they are. */
  detokenize(text: string): string {
    if (!text.includes("[")) return text;
    return text.replace(tokenScanner(), (token) => this.#values.get(token) ?? token);
  }

  /** Deep copy of a JSON value with every token in strings (and keys) replaced by its real value. */
  detokenizeValue(value: unknown): unknown {
    return mapStrings(value, (text) => this.detokenize(text));
  }

  snapshot(): VaultSnapshot {
    return {
      version: 1,
      entries: [...this.#values].map(([token, value]) => [token, value, this.#keys.get(token) ?? value]),
    };
  }

  /** Rebuilds a vault from `snapshot()`; counters continue after the highest token of each kind. */
  static fromSnapshot(snapshot: unknown, detector?: PiiDetector): PiiVault {
    const vault = new PiiVault(detector);
    if (!isSnapshot(snapshot)) {
      throw new PrivacyError("privacy.vault_corrupt", "the PII vault data has an unknown shape");
    }
    for (const [token, value, key] of snapshot.entries) {
      const parsed = /^\[([A-Z][A-Z0-9_]*)_(\d+)\]$/.exec(token);
      if (!parsed) throw new PrivacyError("privacy.vault_corrupt", "the PII vault holds a malformed token");
      const kind = parsed[1] as string;
      vault.#remember(kind, key, value, token);
      vault.#counters.set(kind, Math.max(vault.#counters.get(kind) ?? 0, Number(parsed[2])));
    }
    return vault;
  }

  #tokenFor(kind: string, key: string, value: string): string {
    const existing = this.#tokens.get(`${kind}\0${key}`);
    if (existing) return existing;
    const next = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, next);
    const token = `[${kind}_${next}]`;
    this.#remember(kind, key, value, token);
    return token;
  }

  #remember(kind: string, key: string, value: string, token: string): void {
    this.#tokens.set(`${kind}\0${key}`, token);
    this.#values.set(token, value);
    this.#keys.set(token, key);
  }
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const mappedKey = map(key);
      const mapped = mapStrings(child, map);
      // A "__proto__" key from JSON stays a key instead of replacing the prototype.
      if (mappedKey === "__proto__") {
        Object.defineProperty(out, mappedKey, {
          value: mapped,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        out[mappedKey] = mapped;
      }
    }
    return out;
  }
  return value;
}

function isBinaryPayload(text: string): boolean {
  if (DATA_URL.test(text)) return true;
  return text.length >= BASE64_BLOB_MIN_CHARS && BASE64_BLOB.test(text);
}

function isSnapshot(value: unknown): value is VaultSnapshot {
  if (value === null || typeof value !== "object") return false;
  const { version, entries } = value as { version?: unknown; entries?: unknown };
  return (
    version === 1 &&
    Array.isArray(entries) &&
    entries.every(
      (entry) =>
        Array.isArray(entry) &&
        entry.length === 3 &&
        entry.every((part: unknown) => typeof part === "string"),
    )
  );
}
