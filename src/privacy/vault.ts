import {
  type ChunkedScanOptions,
  type ChunkMatches,
  chunkMatches,
  DEFAULT_CHUNK_CHARS,
  yieldToEventLoop,
} from "./chunked-detect.ts";
import { createPiiDetector, type PiiDetector, tokenScanner } from "./detect.ts";
import { PrivacyError } from "./errors.ts";
import { mapStrings, setOwn } from "./json-strings.ts";
import { replacedSince } from "./replaced-counts.ts";
import { SpanReplacer } from "./span-replacer.ts";

/** Strings this long with no whitespace and only base64 characters are binary payloads (images, files): never scanned. */
const BASE64_BLOB_MIN_CHARS = 256;
const BASE64_BLOB = /^[A-Za-z0-9+/=_-]+$/;
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w=.+-]+)*;base64,/;
/** What a synchronous attempt returns when the value holds more than it may take in one go. */
const OVER_BUDGET = Symbol("over budget");

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
  /** Kind -> its values; one map entry per new value (the identity key), the rest in arrays. */
  readonly #kinds = new Map<string, KindEntries>();
  // Entries in creation order, by index: token, original value, identity key (kept for snapshots).
  readonly #entryTokens: string[] = [];
  readonly #entryValues: string[] = [];
  readonly #entryKeys: string[] = [];
  /** Tokens from a snapshot not written as `[KIND_n]` with a plain n (e.g. a leading zero) -> entry. */
  readonly #oddTokens = new Map<string, number>();
  #lastKind: string | undefined;
  #lastEntries: KindEntries | undefined;
  /** Pieces of personal data replaced so far, by kind (occurrences, not distinct values): for metrics. */
  readonly #replaced = new Map<string, number>();

  constructor(detector: PiiDetector = createPiiDetector()) {
    this.#detector = detector;
  }

  /** How many distinct values the vault holds. */
  get size(): number {
    return this.#entryTokens.length;
  }

  /** Pieces of personal data replaced by tokens since the vault was made, by kind. */
  replacedByKind(): Map<string, number> {
    return new Map(this.#replaced);
  }

  /** Pieces replaced by kind since `before` (a `replacedByKind()` taken earlier); kinds with none left out. */
  replacedSince(before: ReadonlyMap<string, number>): Record<string, number> {
    return replacedSince(this.#replaced, before);
  }

  /** Replaces every piece of personal data in `text` with its token. Holds the thread: for large texts use `tokenizeAsync`. */
  tokenize(text: string): string {
    if (text.length <= DEFAULT_CHUNK_CHARS) {
      // Most strings of a tool result are short and hold nothing: one scan, no chunking.
      const matches = this.#detector.scan(text);
      if (matches.length === 0) return text;
      const replacer = new SpanReplacer(text);
      this.#replaceChunk(replacer, text, { matches, offset: 0, more: false });
      return replacer.finish();
    }
    const replacer = new SpanReplacer(text);
    for (const chunk of chunkMatches(this.#detector, text, DEFAULT_CHUNK_CHARS))
      this.#replaceChunk(replacer, text, chunk);
    return replacer.finish();
  }

  /**
   * `tokenize`, scanning a large text in chunks with pauses between them, so
   * other sessions are served meanwhile. Same tokens as `tokenize`.
   */
  async tokenizeAsync(text: string, options: ChunkedScanOptions = {}): Promise<string> {
    const pause = options.pause ?? yieldToEventLoop;
    const replacer = new SpanReplacer(text);
    for (const chunk of chunkMatches(this.#detector, text, options.chunkChars ?? DEFAULT_CHUNK_CHARS)) {
      this.#replaceChunk(replacer, text, chunk);
      if (chunk.more) await pause();
    }
    return replacer.finish();
  }

  /** Deep copy of a JSON value with every string tokenized; object keys too when they hold personal data. */
  tokenizeValue(value: unknown): unknown {
    return mapStrings(value, (text) => (isBinaryPayload(text) ? text : this.tokenize(text)));
  }

  /**
   * `tokenizeValue` with a pause after each ~chunk of scanned text (and inside
   * large strings), in the same order, so the same tokens come out. Parts with
   * nothing to tokenize are returned as they are, not copied.
   */
  async tokenizeValueAsync(value: unknown, options: ChunkedScanOptions = {}): Promise<unknown> {
    const walk = {
      options,
      chunk: options.chunkChars ?? DEFAULT_CHUNK_CHARS,
      pause: options.pause ?? yieldToEventLoop,
      // Characters and nodes handled since the last pause: a result of many small strings yields too.
      work: 0,
    };
    return this.#tokenizeNode(value, walk);
  }

  /**
   * Tries the whole value synchronously, up to one chunk of work; a value that
   * holds more is taken child by child (each tried the same way), pausing
   * between chunks. Re-walking part of a value after an attempt ran over is
   * harmless: a value seen again gets the token it got the first time.
   */
  async #tokenizeNode(value: unknown, walk: ValueWalk): Promise<unknown> {
    const mapped = this.#tokenizeWithin(value, walk, { left: walk.chunk });
    if (mapped !== OVER_BUDGET) {
      if (walk.work >= walk.chunk) {
        walk.work = 0;
        await walk.pause();
      }
      return mapped;
    }
    if (typeof value === "string") return this.tokenizeAsync(value, walk.options);
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) out.push(await this.#tokenizeNode(item, walk));
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const tokenizedKey = (await this.#tokenizeNode(key, walk)) as string;
      setOwn(out, tokenizedKey, await this.#tokenizeNode(child, walk));
    }
    return out;
  }

  /**
   * `value` tokenized synchronously, copied only where something changed, or
   * OVER_BUDGET once it holds more work than `budget` (or a string longer than a chunk).
   * Most tool results hold no personal data: no copy, and no promise per string.
   */
  #tokenizeWithin(value: unknown, walk: ValueWalk, budget: { left: number }): unknown {
    if (typeof value === "string") {
      if (isBinaryPayload(value)) return value;
      if (value.length > walk.chunk) return OVER_BUDGET;
      walk.work += value.length + 16;
      budget.left -= value.length + 16;
      return budget.left < 0 ? OVER_BUDGET : this.tokenize(value);
    }
    if (value === null || typeof value !== "object") return value;
    walk.work += 16;
    budget.left -= 16;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        const mapped = this.#tokenizeWithin(item, walk, budget);
        if (mapped === OVER_BUDGET) return OVER_BUDGET;
        if (out) out.push(mapped);
        else if (mapped !== item) out = [...value.slice(0, index), mapped];
      }
      return out ?? value;
    }
    const entries = Object.entries(value);
    let out: Record<string, unknown> | undefined;
    for (let index = 0; index < entries.length; index++) {
      const [key, child] = entries[index]!;
      const mappedKey = this.#tokenizeWithin(key, walk, budget);
      if (mappedKey === OVER_BUDGET) return OVER_BUDGET;
      const mapped = this.#tokenizeWithin(child, walk, budget);
      if (mapped === OVER_BUDGET) return OVER_BUDGET;
      if (!out && (mappedKey !== key || mapped !== child)) {
        out = {};
        for (const [earlierKey, earlier] of entries.slice(0, index)) setOwn(out, earlierKey, earlier);
      }
      if (out) setOwn(out, mappedKey as string, mapped);
    }
    return out ?? value;
  }

  /** Replaces the vault's tokens in `text` with the real values; unknown tokens stay as they are. */
  detokenize(text: string): string {
    if (!text.includes("[")) return text;
    return text.replace(tokenScanner(), (token) => {
      const entry = this.#entryOf(token);
      return entry === undefined ? token : (this.#entryValues[entry] as string);
    });
  }

  /** Deep copy of a JSON value with every token in strings (and keys) replaced by its real value. */
  detokenizeValue(value: unknown): unknown {
    return mapStrings(value, (text) => this.detokenize(text));
  }

  snapshot(): VaultSnapshot {
    return {
      version: 1,
      entries: this.#entryTokens.map((token, entry) => [
        token,
        this.#entryValues[entry] as string,
        this.#entryKeys[entry] as string,
      ]),
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
      const entries = vault.#entriesOf(parsed[1] as string);
      vault.#remember(entries, key, value, token);
      entries.counter = Math.max(entries.counter, Number(parsed[2]));
    }
    return vault;
  }

  /** Each chunk's matches become tokens before the next chunk is scanned: no match outlives its chunk. */
  #replaceChunk(replacer: SpanReplacer, text: string, { matches, offset }: ChunkMatches): void {
    for (let i = 0; i < matches.length; i++) {
      const start = matches.start(i) + offset;
      const end = matches.end(i) + offset;
      // Cut here, the value dies young unless it is new to the vault.
      const value = text.slice(start, end);
      const kind = matches.kind(i);
      replacer.replace(start, end, this.#tokenFor(kind, matches.key(i) ?? value, value));
      this.#replaced.set(kind, (this.#replaced.get(kind) ?? 0) + 1);
    }
    replacer.flush();
  }

  #tokenFor(kind: string, key: string, value: string): string {
    const entries = this.#entriesOf(kind);
    const existing = entries.byKey.get(key);
    if (existing !== undefined) return this.#entryTokens[existing] as string;
    const number = ++entries.counter;
    // A new token's number is past every number this kind has given: no entry to update.
    const entry = this.#entryTokens.push(`[${kind}_${number}]`) - 1;
    this.#entryValues.push(value);
    this.#entryKeys.push(key);
    entries.byNumber[number] = entry;
    entries.byKey.set(key, entry);
    return this.#entryTokens[entry] as string;
  }

  #entriesOf(kind: string): KindEntries {
    // Matches come in runs of one kind: the last kind's entries are kept at hand.
    if (kind === this.#lastKind) return this.#lastEntries as KindEntries;
    let entries = this.#kinds.get(kind);
    if (!entries) {
      entries = { byKey: new Map(), byNumber: [], counter: 0 };
      this.#kinds.set(kind, entries);
    }
    this.#lastKind = kind;
    this.#lastEntries = entries;
    return entries;
  }

  #remember(entries: KindEntries, key: string, value: string, token: string): void {
    const number = plainTokenNumber(token);
    let entry = number === undefined ? this.#oddTokens.get(token) : entries.byNumber[number];
    if (entry === undefined) {
      entry = this.#entryTokens.length;
      this.#entryTokens.push(token);
      this.#entryValues.push(value);
      this.#entryKeys.push(key);
      if (number === undefined) this.#oddTokens.set(token, entry);
      else entries.byNumber[number] = entry;
    } else {
      // A snapshot naming a token twice: the later value wins, as it did in a map.
      this.#entryValues[entry] = value;
      this.#entryKeys[entry] = key;
    }
    entries.byKey.set(key, entry);
  }

  /** The entry a `[KIND_n]` text stands for, if this vault made it. */
  #entryOf(token: string): number | undefined {
    const number = plainTokenNumber(token);
    if (number === undefined) return this.#oddTokens.get(token);
    return this.#kinds.get(token.slice(1, token.lastIndexOf("_")))?.byNumber[number];
  }
}

/** A kind's entries: identity key -> entry, token number -> entry, the last number given. */
interface KindEntries {
  byKey: Map<string, number>;
  byNumber: number[];
  counter: number;
}

/** n of a `[KIND_n]` token written plainly (no leading zero, a safe integer); undefined otherwise. */
function plainTokenNumber(token: string): number | undefined {
  const digits = token.slice(token.lastIndexOf("_") + 1, -1);
  if (digits.length > 15 || (digits.length > 1 && digits.charCodeAt(0) === 48)) return undefined;
  return Number(digits);
}

interface ValueWalk {
  options: ChunkedScanOptions;
  chunk: number;
  pause: () => Promise<void>;
  work: number;
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
