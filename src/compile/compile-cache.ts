import { type CompileLanguage, type CompileResult, compileProgram } from "./compile.ts";

export const DEFAULT_COMPILE_CACHE_ENTRIES = 256;

/**
 * Remembers compiled programs by language and source. Agents resend the same
 * program (retries, loops over inputs via `context`), and a cache hit skips
 * the round trip to esbuild's service process, which costs ~1.5 ms after idle.
 */
export class CompileCache {
  readonly #entries = new Map<string, Promise<CompileResult>>();
  readonly #maxEntries: number;

  constructor(maxEntries = DEFAULT_COMPILE_CACHE_ENTRIES) {
    this.#maxEntries = maxEntries;
  }

  compile(source: string, language: CompileLanguage): Promise<CompileResult> {
    const key = `${language}\u0000${source}`;
    const cached = this.#entries.get(key);
    if (cached) {
      // Re-insert: Map order is insertion order, so the oldest entry is the least recently used.
      this.#entries.delete(key);
      this.#entries.set(key, cached);
      return cached;
    }
    const pending = compileProgram(source, language);
    this.#entries.set(key, pending);
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return pending;
  }

  get size(): number {
    return this.#entries.size;
  }
}
