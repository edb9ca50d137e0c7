import type { LogEntry, LogLevel } from "../types.ts";

const LEVELS: ReadonlySet<string> = new Set<LogLevel>(["log", "info", "warn", "error", "debug"]);

/** The note the prelude ends a console call with when it cut it to the room left. */
const CUT_IN_SANDBOX = /… \(\d+ more characters\)$/;
const CUT_NOTE_CHARS = 40;

/** Marker entry appended once the cap is reached. */
export function truncationMarker(maxBytes: number): LogEntry {
  return { level: "warn", message: `[logs truncated: the ${maxBytes}-byte limit was reached]` };
}

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  // Decoding a cut mid-character yields U+FFFD at the end; drop it.
  return bytes
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
}

/** Console output of one execution, in order, capped at a number of bytes. */
export class LogCollector {
  readonly #maxBytes: number;
  readonly #entries: LogEntry[] = [];
  #usedBytes = 0;
  #truncated = false;

  constructor(maxBytes: number) {
    this.#maxBytes = Math.max(0, maxBytes);
  }

  get entries(): LogEntry[] {
    return this.#entries;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  /** Adds one console call; values come from the sandbox, so they are checked. */
  add(level: unknown, message: unknown): void {
    if (this.#truncated) return;
    const safeLevel = typeof level === "string" && LEVELS.has(level) ? (level as LogLevel) : "log";
    const text = typeof message === "string" ? message : String(message);
    // Each entry also costs its line break when printed.
    const size = Buffer.byteLength(text, "utf8") + 1;
    if (this.#usedBytes + size <= this.#maxBytes) {
      this.#usedBytes += size;
      this.#entries.push({ level: safeLevel, message: text });
      // The sandbox cut this call to the room left (prelude.ts): the cap is reached.
      if (CUT_IN_SANDBOX.test(text.slice(-CUT_NOTE_CHARS))) this.#close();
      return;
    }
    const room = this.#maxBytes - this.#usedBytes - 1;
    if (room > 0) this.#entries.push({ level: safeLevel, message: cutToBytes(text, room) });
    this.#close();
  }

  #close(): void {
    this.#entries.push(truncationMarker(this.#maxBytes));
    this.#usedBytes = this.#maxBytes;
    this.#truncated = true;
  }
}
