/**
 * "Did you mean" ranking, written once for the host (catalog search, CLI) and
 * the sandbox (the `tools` proxy's `Unknown tool …` message, bundled into the
 * prelude by scripts/build-sandbox-globals.ts). It imports nothing, so the
 * bundle stays free of host code.
 */

/** Names longer than this are not compared: the distance table grows with the square of the length. */
const MAX_COMPARED_CHARS = 200;

/**
 * The candidates close to `name`, closest first: case, `-`, `_` and other
 * punctuation ignored; containing the name (or contained in it) counts as
 * closest; otherwise Levenshtein distance up to a third of the name's length
 * (at least 2). Ties keep candidate order.
 */
export function closeMatches(name: string, candidates: readonly string[], limit = 5): string[] {
  const wanted = normalize(name);
  if (wanted.length === 0 || wanted.length > MAX_COMPARED_CHARS) return [];
  const threshold = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ candidate: string; score: number }> = [];
  for (const candidate of candidates) {
    const other = normalize(candidate);
    if (other.length > MAX_COMPARED_CHARS) continue;
    const contains =
      other === wanted || (wanted.length > 2 && (other.includes(wanted) || wanted.includes(other)));
    const score = contains ? 0 : editDistance(wanted, other);
    if (score <= threshold) scored.push({ candidate, score });
  }
  scored.sort((a, b) => a.score - b.score);
  return scored.slice(0, limit).map((entry) => entry.candidate);
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  let previous: number[] = [];
  for (let j = 0; j <= b.length; j++) previous.push(j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
