import { TOOL_TEXT_CHARS } from "./request-words.ts";
import { weightedStems } from "./stem-rows.ts";
import { readTable } from "./tables.ts";
import { wordTerms } from "./tokenize.ts";
import type { SearchDocument } from "./types.ts";

/**
 * What a request word says for or against a tool word, learned discriminatively: weights on
 * (request stem, tool stem) pairs fitted so that, added to the ranking's own scores, they put the
 * tool a request asked for above the others of its ranking's head (data/search/request-pairs.tsv,
 * made by scripts/search-data/build-request-pairs.ts from rankings of servers never learned
 * from). Where request likelihood (request-likelihood.ts) only says how likely a request is from
 * a tool, a pair weight also learns from the tools a request did not want, the others of its
 * ranking's head: what the ranking already gets right costs it nothing.
 */

/** Distinct description words read for a tool, after its name's. */
export const PAIR_DESCRIPTION_WORDS = 10;
/** What a description word's pair counts for, as a share of a name word's (spread over them). */
const DESCRIBED = "~";

/** A tool's words as the pairs relate them: its name's stems, then `~`-marked description stems. */
export interface PairWords {
  readonly name: readonly string[];
  readonly described: readonly string[];
}

/** A tool's pair words: its name's distinct stems and the first distinct stems of its description. */
export function pairWords(doc: Pick<SearchDocument, "name" | "title" | "description">): PairWords {
  const name = [...new Set(wordTerms(doc.name))];
  const named = new Set(name);
  const described = new Set<string>();
  for (const word of wordTerms(`${doc.title ?? ""} ${doc.description.slice(0, TOOL_TEXT_CHARS)}`)) {
    if (described.size >= PAIR_DESCRIPTION_WORDS) break;
    if (!named.has(word)) described.add(word);
  }
  return { name, described: [...described] };
}

/** The key of a description word in the table. */
export function describedKey(word: string): string {
  return `${DESCRIBED}${word}`;
}

/** What a description word's pair counts for against a name word's: spread over the description's words. */
function describedShare(describedWords: number): number {
  return 1 / Math.max(1, Math.sqrt(describedWords));
}

/**
 * Each (request word, tool word) pair's share of a candidate's adjustment: a name word's pair
 * counts 1/|request words|, a description word's 1/(|request words| × √|description words|).
 */
export function pairShares(requestWords: number, tool: PairWords): { name: number; described: number } {
  const request = Math.max(1, requestWords);
  return { name: 1 / request, described: describedShare(tool.described.length) / request };
}

/**
 * A document's pair words as the table numbers them (the words it has no weight for left out):
 * the first `nameCount` keys are its name's.
 */
export interface NumberedPairWords {
  readonly keys: readonly number[];
  readonly nameCount: number;
  /** A description word's share against a name word's (`describedShare`). */
  readonly describedShare: number;
}

/**
 * Request stem → tool stem (`~stem` for a description word) → weight, in a hit's score units,
 * held flat: a request stem numbers a row, and the rows' tool-key numbers and weights lie end to
 * end in two typed arrays (`#rowStart` marks where each begins).
 */
export class RequestPairs {
  readonly #toolKeys = new Map<string, number>();
  readonly #rows = new Map<string, number>();
  readonly #rowStart: Uint32Array;
  readonly #keys: Uint16Array | Uint32Array;
  readonly #weights: Float32Array;
  /** Per tool key, the weight of the request stem being scored; zero between stems. */
  readonly #given: Float64Array;

  /** Parses the table's lines (`requestStem<TAB>toolStem:weight …`); `#` lines are skipped. */
  constructor(lines: Iterable<string>) {
    const keys: number[] = [];
    const weights: number[] = [];
    const starts: number[] = [0];
    for (const line of lines) {
      if (line === "" || line.startsWith("#")) continue;
      const [request, items = ""] = line.split("\t");
      if (!request || this.#rows.has(request)) continue;
      const start = keys.length;
      for (const [tool, weight] of weightedStems(items, true)) {
        let key = this.#toolKeys.get(tool);
        if (key === undefined) {
          key = this.#toolKeys.size;
          this.#toolKeys.set(tool, key);
        }
        keys.push(key);
        weights.push(weight);
      }
      if (keys.length === start) continue;
      this.#rows.set(request, starts.length - 1);
      starts.push(keys.length);
    }
    this.#rowStart = Uint32Array.from(starts);
    this.#keys = this.#toolKeys.size <= 0xffff ? Uint16Array.from(keys) : Uint32Array.from(keys);
    this.#weights = Float32Array.from(weights);
    this.#given = new Float64Array(this.#toolKeys.size);
  }

  /** Request stems the table has weights for. */
  get size(): number {
    return this.#rows.size;
  }

  /** A document's pair words, numbered as the table numbers them; undefined when it has none. */
  numbered(words: PairWords): NumberedPairWords | undefined {
    const keys: number[] = [];
    for (const word of words.name) {
      const key = this.#toolKeys.get(word);
      if (key !== undefined) keys.push(key);
    }
    const nameCount = keys.length;
    for (const word of words.described) {
      const key = this.#toolKeys.get(describedKey(word));
      if (key !== undefined) keys.push(key);
    }
    if (keys.length === 0) return undefined;
    return {
      keys,
      nameCount,
      describedShare: describedShare(words.described.length),
    };
  }

  /** What `requestStems` (distinct) add to each tool's score, from their pairs with its words. */
  adjustments(
    requestStems: readonly string[],
    tools: readonly (NumberedPairWords | undefined)[],
  ): Float64Array {
    const out = new Float64Array(tools.length);
    const given = this.#given;
    const request = Math.max(1, requestStems.length);
    const keys = this.#keys;
    const weights = this.#weights;
    for (const stem of requestStems) {
      const row = this.#rows.get(stem);
      if (row === undefined) continue;
      const from = this.#rowStart[row] ?? 0;
      const to = this.#rowStart[row + 1] ?? 0;
      for (let at = from; at < to; at++) given[keys[at] ?? 0] = weights[at] ?? 0;
      tools.forEach((tool, at) => {
        if (!tool) return;
        let named = 0;
        let described = 0;
        tool.keys.forEach((key, k) => {
          if (k < tool.nameCount) named += given[key] ?? 0;
          else described += given[key] ?? 0;
        });
        out[at] = (out[at] ?? 0) + (named + described * tool.describedShare) / request;
      });
      for (let at = from; at < to; at++) given[keys[at] ?? 0] = 0;
    }
    return out;
  }
}

let shipped: RequestPairs | undefined;

/** The shipped table (data/search/request-pairs.tsv), loaded once. */
export function defaultRequestPairs(): RequestPairs {
  shipped ??= new RequestPairs(
    readTable("request-pairs.tsv", "does not weigh request words for or against tools' words"),
  );
  return shipped;
}
