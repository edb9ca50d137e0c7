import type { PiiDetector } from "./detect.ts";
import { MAX_MATCH_CHARS, type PiiMatch } from "./detectors.ts";

/** How a large text is scanned without holding the event loop. */
export interface ChunkedScanOptions {
  /** Characters scanned between two yields (~1–3 ms of work at the detectors' speed). */
  chunkChars?: number | undefined;
  /** Lets other work run between chunks; `setImmediate` by default, so I/O of other sessions gets in. */
  pause?: (() => Promise<void>) | undefined;
}

export const DEFAULT_CHUNK_CHARS = 128 * 1024;
/**
 * Each chunk is scanned with this much text of its neighbours on both sides:
 * a match starting in the chunk (at most MAX_MATCH_CHARS long) is whole in the
 * window, and whatever the cut edges of the window make the detectors see
 * (a match begun mid-word) ends well before the chunk starts.
 */
export const CHUNK_OVERLAP_CHARS = 3 * MAX_MATCH_CHARS;

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * `detector.detect(text)` in chunks with a pause between them: the same
 * matches (built-in kinds never exceed MAX_MATCH_CHARS; a custom pattern's
 * match longer than the overlap can be cut at a chunk edge), while other
 * sessions' requests are served during a scan of many megabytes.
 */
export async function detectInChunks(
  detector: PiiDetector,
  text: string,
  options: ChunkedScanOptions = {},
): Promise<PiiMatch[]> {
  const chunk = Math.max(options.chunkChars ?? DEFAULT_CHUNK_CHARS, 1);
  const pause = options.pause ?? yieldToEventLoop;
  if (text.length <= chunk) return detector.detect(text);
  const accepted: PiiMatch[] = [];
  let lastEnd = 0;
  for (let start = 0; start < text.length; start += chunk) {
    const end = Math.min(text.length, start + chunk);
    const windowStart = Math.max(0, start - CHUNK_OVERLAP_CHARS);
    const windowEnd = Math.min(text.length, end + CHUNK_OVERLAP_CHARS);
    for (const match of detector.detect(text.slice(windowStart, windowEnd))) {
      const matchStart = match.start + windowStart;
      // Each match belongs to the chunk it starts in; one overlapping an earlier match is dropped.
      if (matchStart < start || matchStart >= end || matchStart < lastEnd) continue;
      const shifted = { ...match, start: matchStart, end: match.end + windowStart };
      accepted.push(shifted);
      lastEnd = shifted.end;
    }
    if (end < text.length) await pause();
  }
  return accepted;
}
