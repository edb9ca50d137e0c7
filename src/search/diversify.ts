/**
 * Spreading a result list across the request's words. A task usually needs tools for several
 * of its words (fetch a page, then write a file); when the first results all match the same
 * words, a result matching another word says more. Of what a result gains from a request word
 * that a result above it already matched, this share no longer counts toward its rank.
 * (Spreading across servers as well cost 1.4 points of S@5 on the training corpus and gained
 * nothing on the public sets: a server's near-identical tools are often the right ones.)
 */
export const REPEAT_DISCOUNT = 0.3;
/** Candidates ranked beyond the limit, among which a result for another word can rise. */
export const DIVERSITY_POOL = 10;

export interface Diversifiable {
  readonly score: number;
}

/**
 * The best `limit` of `ranked`, taken greedily by score lowered by `REPEAT_DISCOUNT` of the
 * request words' matches the entries before already made (`coverageOf`: what an entry gains
 * from each request word, in units of `score`; see word-coverage.ts). Entries keep their own
 * scores: a score says how well a tool matches, the order what to look at first.
 */
export function diversify<T extends Diversifiable>(
  ranked: readonly T[],
  coverageOf: (entry: T) => Float64Array | undefined,
  limit: number,
): T[] {
  const pool = [...ranked];
  let covered: Float64Array | undefined;
  const out: T[] = [];
  const adjusted = (entry: T) => entry.score - REPEAT_DISCOUNT * repeated(coverageOf(entry), covered);
  while (out.length < limit && pool.length > 0) {
    let bestAt = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    pool.forEach((entry, at) => {
      const score = adjusted(entry);
      if (score > bestScore) {
        bestScore = score;
        bestAt = at;
      }
    });
    const [entry] = pool.splice(bestAt, 1);
    if (!entry) break;
    covered = cover(covered, coverageOf(entry));
    out.push(entry);
  }
  return out;
}

/** What of `coverage` the entries taken already matched: per word, the smaller of the two. */
function repeated(coverage: Float64Array | undefined, covered: Float64Array | undefined): number {
  if (!coverage || !covered) return 0;
  let sum = 0;
  for (let at = 0; at < coverage.length; at++) sum += Math.min(coverage[at] ?? 0, covered[at] ?? 0);
  return sum;
}

/** `covered` raised, per word, to what `coverage` matches. */
function cover(
  covered: Float64Array | undefined,
  coverage: Float64Array | undefined,
): Float64Array | undefined {
  if (!coverage) return covered;
  if (!covered) return Float64Array.from(coverage);
  for (let at = 0; at < coverage.length; at++) covered[at] = Math.max(covered[at] ?? 0, coverage[at] ?? 0);
  return covered;
}
