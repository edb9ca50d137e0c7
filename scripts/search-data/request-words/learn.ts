// Learns which words requests use for what a tool's words name (src/search/request-words.ts):
// for each stem of a tool's text, the request stems that come with it in requests for that
// tool more often than in requests at large. Used by build-request-words.ts for the shipped
// table, and by `npm run bench -- search-corpus` once per split by server.
import { toolWords } from "../../../src/search/request-words.ts";
import { isWordTerm, wordTerms } from "../../../src/search/tokenize.ts";
import type { SearchDocument } from "../../../src/search/types.ts";
import type { TrainingPair } from "../tool-vectors/fit.ts";

export interface LearnOptions {
  /** Requests a pair of words must come together in. */
  readonly minPairs: number;
  /** Servers those requests must span: a pair seen for one server's tools says nothing general. */
  readonly minServers: number;
  /** How many times likelier than at large a request word must be, given the tool word. */
  readonly minLift: number;
  /** Request words kept per tool word, strongest first. */
  readonly perToolWord: number;
}

/** Chosen on the corpus split by server (bench/search-corpus.ts). */
export const LEARN_DEFAULTS: LearnOptions = { minPairs: 2, minServers: 3, minLift: 2, perToolWord: 30 };

interface Together {
  count: number;
  readonly servers: Set<string>;
}

/**
 * The table's lines, `toolStem<TAB>requestStem:weight …`, sorted. A request word's weight
 * given a tool word is P(request word | tool word) × ln(lift).
 */
export function learnRequestWords(
  pairs: readonly TrainingPair[],
  documents: ReadonlyMap<string, SearchDocument>,
  options: LearnOptions = LEARN_DEFAULTS,
): string[] {
  const requestCount = new Map<string, number>();
  const toolCount = new Map<string, number>();
  const together = new Map<string, Map<string, Together>>();
  const toolWordsOf = new Map<string, Set<string>>();
  for (const pair of pairs) {
    const doc = documents.get(pair.tool);
    if (!doc) throw new Error(`learn request words: no tool ${pair.tool} for the request "${pair.request}"`);
    let own = toolWordsOf.get(pair.tool);
    if (!own) {
      own = new Set([...toolWords(doc)].filter(isWordTerm));
      toolWordsOf.set(pair.tool, own);
    }
    const asked = new Set(wordTerms(pair.request));
    for (const word of asked) requestCount.set(word, (requestCount.get(word) ?? 0) + 1);
    for (const toolWord of own) {
      toolCount.set(toolWord, (toolCount.get(toolWord) ?? 0) + 1);
      const row = together.get(toolWord) ?? new Map<string, Together>();
      together.set(toolWord, row);
      for (const word of asked) {
        if (word === toolWord) continue;
        const seen = row.get(word) ?? { count: 0, servers: new Set<string>() };
        seen.count++;
        seen.servers.add(pair.server);
        row.set(word, seen);
      }
    }
  }
  const lines: string[] = [];
  for (const [toolWord, row] of together) {
    const given = toolCount.get(toolWord) ?? 1;
    const predicted: [string, number][] = [];
    for (const [word, seen] of row) {
      if (seen.count < options.minPairs || seen.servers.size < options.minServers) continue;
      const probability = seen.count / given;
      const lift = probability / ((requestCount.get(word) ?? 1) / pairs.length);
      if (lift >= options.minLift) predicted.push([word, probability * Math.log(lift)]);
    }
    if (predicted.length === 0) continue;
    predicted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const items = predicted
      .slice(0, options.perToolWord)
      .map(([word, weight]) => `${word}:${weight.toFixed(3)}`);
    lines.push(`${toolWord}\t${items.join(" ")}`);
  }
  return lines.sort();
}
