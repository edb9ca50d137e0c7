import { editDistance } from "../catalog/close-matches.ts";

// Typos worth a hint are small: a case slip (`timeoutMS`) or one or two letters.
const MAX_SUGGESTION_DISTANCE = 2;

/** The known key closest to `key` (case-insensitive edit distance ≤ 2), if any. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = MAX_SUGGESTION_DISTANCE + 1;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

// One ranking for the host and the sandbox's `tools` proxy (bundled into the prelude).
export { closeMatches, editDistance } from "../catalog/close-matches.ts";
