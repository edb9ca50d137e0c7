import type { ChunkedScanOptions } from "./chunked-detect.ts";

/**
 * What code that swaps personal data for tokens needs of a vault: a
 * `PiiVault`, or a session's vault shared by replicas through the store
 * (gateway/session-vault.ts), whose tokenizing commits what it added before
 * the tokens are handed out.
 */
export interface TokenVault {
  detokenize(text: string): string;
  detokenizeValue(value: unknown): unknown;
  tokenizeAsync(text: string, options?: ChunkedScanOptions): Promise<string>;
  tokenizeValueAsync(value: unknown, options?: ChunkedScanOptions): Promise<unknown>;
  /**
   * Runs `fn`'s tokenizing as one unit: a shared vault commits what it added
   * once, at the end, and runs `fn` again on a reloaded vault when another
   * replica committed first (so `fn` must only tokenize, nothing else that
   * cannot be done twice). Absent: the caller runs `fn(this)`.
   */
  tokenizeTogether?<T>(fn: (vault: TokenVault) => Promise<T>): Promise<T>;
}
