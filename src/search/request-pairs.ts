import { TOOL_TEXT_CHARS } from "./request-words.ts";
import { readTable } from "./tables.ts";
import { wordTerms } from "./tokenize.ts";
import type { SearchDocument } from "./types.ts";

/**
 * What a request word says for or against a tool word, learned discriminatively: weights on
 * (request stem, tool stem) pairs fitted so that, added to the ranking's own scores, they put the
 * tool a request asked for above the others of its ranking's head (data/search/request-pairs.tsv,
 * made by scripts/search-data/build-request-pairs.ts from rankings of servers never learned
 * from). Where request likelihood (request-likelihood.ts) only says how likely a request is from
 * a tool, a pair weight also learns from the tools a request did not want: "without deleting it"
 * counts against `delete_card` and for `archive_card`.
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

/**
 * Each (request word, tool word) pair's share of a candidate's adjustment: a name word's pair
 * counts 1/|request words|, a description word's 1/(|request words| × √|description words|).
 */
export function pairShares(requestWords: number, tool: PairWords): { name: number; described: number } {
  const request = Math.max(1, requestWords);
  return { name: 1 / request, described: 1 / request / Math.max(1, Math.sqrt(tool.described.length)) };
}

/** Request stem → tool stem (`~stem` for a description word) → weight, in a hit's score units. */
export class RequestPairs {
  readonly #rows = new Map<string, Map<string, number>>();

  /** Parses the table's lines (`requestStem<TAB>toolStem:weight …`); `#` lines are skipped. */
  constructor(lines: Iterable<string>) {
    for (const line of lines) {
      if (line === "" || line.startsWith("#")) continue;
      const [request, items = ""] = line.split("\t");
      if (!request) continue;
      const row = new Map<string, number>();
      for (const item of items.split(" ")) {
        const colon = item.lastIndexOf(":");
        const weight = Number(item.slice(colon + 1));
        if (colon > 0 && Number.isFinite(weight)) row.set(item.slice(0, colon), weight);
      }
      if (row.size > 0) this.#rows.set(request, row);
    }
  }

  get size(): number {
    return this.#rows.size;
  }

  /** What `requestStems` (distinct) add to each tool's score, from their pairs with its words. */
  adjustments(requestStems: readonly string[], tools: readonly (PairWords | undefined)[]): Float64Array {
    const out = new Float64Array(tools.length);
    const rows = requestStems.map((stem) => this.#rows.get(stem)).filter((row) => row !== undefined);
    if (rows.length === 0) return out;
    tools.forEach((tool, at) => {
      if (!tool) return;
      const share = pairShares(requestStems.length, tool);
      let sum = 0;
      for (const row of rows) {
        for (const word of tool.name) sum += (row.get(word) ?? 0) * share.name;
        for (const word of tool.described) sum += (row.get(describedKey(word)) ?? 0) * share.described;
      }
      out[at] = sum;
    });
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
