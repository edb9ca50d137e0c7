import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { escapeRegExp } from "../text/escape-regexp.ts";

// The legacy Claude BPE counted in plain JavaScript from `@anthropic-ai/tokenizer`'s
// own vocabulary (claude.json). The package's tiktoken WASM encoder keeps ~44 MB
// resident for the life of the process; this table is ~24 MB, and counting is
// 2–3× faster. Counts are the package's, token for token (src/output/claude-bpe.test.ts).

const require = createRequire(import.meta.url);

interface Vocabulary {
  /** `"! <first rank> <base64 token> <base64 token> …"`: tiktoken's compact rank list. */
  bpe_ranks: string;
  special_tokens: Record<string, number>;
  pat_str: string;
}

/** Byte strings (one char per byte, latin1) → rank. */
type Ranks = Map<string, number>;

/** Pieces seen recently → their token count; cleared when full, so memory stays bounded. */
const PIECE_CACHE_LIMIT = 20_000;

export interface ClaudeBpe {
  count(text: string): number;
}

export function loadClaudeBpe(): ClaudeBpe {
  const path = require.resolve("@anthropic-ai/tokenizer/dist/cjs/claude.json");
  const vocabulary = JSON.parse(readFileSync(path, "utf8")) as Vocabulary;
  const ranks = parseRanks(vocabulary.bpe_ranks);
  // tiktoken runs the pattern with Rust's regex, where \s is Unicode White_Space
  // (U+0085 yes, U+FEFF no); JavaScript's \s differs on exactly those two.
  const pieces = new RegExp(
    vocabulary.pat_str.replaceAll("\\s", "\\p{White_Space}").replaceAll("\\S", "\\P{White_Space}"),
    "gu",
  );
  const specials = new RegExp(Object.keys(vocabulary.special_tokens).map(escapeRegExp).join("|"), "g");
  const cache = new Map<string, number>();

  const countOrdinary = (text: string): number => {
    let total = 0;
    for (const [piece] of text.matchAll(pieces)) {
      let tokens = cache.get(piece);
      if (tokens === undefined) {
        tokens = mergeCount(
          ranks,
          NON_ASCII.test(piece) ? Buffer.from(piece, "utf8").toString("latin1") : piece,
        );
        if (cache.size >= PIECE_CACHE_LIMIT) cache.clear();
        cache.set(piece, tokens);
      }
      total += tokens;
    }
    return total;
  };

  return {
    // As the package's countTokens: NFKC first, and special-token strings count as one token each.
    count(text) {
      const normal = text.normalize("NFKC");
      let total = 0;
      let last = 0;
      for (const special of normal.matchAll(specials)) {
        total += countOrdinary(normal.slice(last, special.index)) + 1;
        last = special.index + special[0].length;
      }
      return total + countOrdinary(normal.slice(last));
    },
  };
}

const NON_ASCII = /[\u0080-\uffff]/;

function parseRanks(compact: string): Ranks {
  const fields = compact.split(" ");
  const first = Number(fields[1]);
  if (!Number.isInteger(first)) throw new Error("claude.json: bpe_ranks does not start with '! <rank>'");
  const ranks: Ranks = new Map();
  for (let i = 2; i < fields.length; i++) {
    ranks.set(Buffer.from(fields[i] as string, "base64").toString("latin1"), first + i - 2);
  }
  return ranks;
}

/**
 * tiktoken's byte-pair merge, counting only: merge the adjacent pair with the lowest
 * rank until no pair is in the vocabulary; the parts left are the tokens. Quadratic
 * in the piece's length, which the caller keeps short (tokenizer.ts, countLinear).
 */
function mergeCount(ranks: Ranks, bytes: string): number {
  if (bytes.length <= 1 || ranks.has(bytes)) return 1;
  // starts[i] is where part i begins; pairRank[i] the rank of parts i and i+1 merged.
  const starts: number[] = [];
  for (let i = 0; i <= bytes.length; i++) starts.push(i);
  const rankAt = (i: number): number =>
    i + 2 < starts.length
      ? (ranks.get(bytes.slice(starts[i], starts[i + 2])) ?? Number.POSITIVE_INFINITY)
      : Number.POSITIVE_INFINITY;
  const pairRank: number[] = [];
  for (let i = 0; i < starts.length - 1; i++) pairRank.push(rankAt(i));
  for (;;) {
    let lowest = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i < pairRank.length - 1; i++) {
      const rank = pairRank[i] as number;
      if (rank < lowest) {
        lowest = rank;
        at = i;
      }
    }
    if (at < 0) return starts.length - 1;
    starts.splice(at + 1, 1);
    pairRank.splice(at + 1, 1);
    pairRank[at] = rankAt(at);
    if (at > 0) pairRank[at - 1] = rankAt(at - 1);
  }
}
